# SPDX-License-Identifier: LGPL-2.1-or-later
# A minbase Debian root of this machine's suite, debootstrap'd from the
# archive apt uses here, kept as a tarball between runs.  Sourced by the
# tests that need one (tests/root/debootstrap.test, tests/image/image.test),
# after tests/cmd/lib.sh and with a skip function of theirs.  Settings:
#	CLOEXEC_ROOT_SUITE	Debian suite (default: this machine's)
#	CLOEXEC_MIRROR		archive URL (default: apt's, for that suite)
#	CLOEXEC_ROOT_CACHE	where the bare root is kept as a tarball
#				between runs (default /var/cache/libcloexec-tests;
#				"none" to build it every time)

# What the shell tests that debootstrap.test runs inside need beyond a
# minbase root: make, python3 (json, subprocess, sockets),
# systemd-socket-activate, and the leaky programs of leaks.test; shells,
# flock, mawk, sed, diff are there already; perl for syscall.ph.  The
# image test takes the same root: one debootstrap, one cached tarball.
root_include=make,python3,systemd,lua5.4,ed,socat,mini-httpd,rsync,perl

arch=$(dpkg --print-architecture)
# The suite of this machine, so that the test programs built here run in
# the root against the same C library.
suite=${CLOEXEC_ROOT_SUITE-}
[ -n "$suite" ] || suite=$(. /etc/os-release 2>/dev/null &&
	echo "${VERSION_CODENAME-}")
[ -n "$suite" ] || skip "cannot tell this machine's Debian suite"

# The archive apt uses here for that suite: deb822 .sources files, then
# one-line sources.list entries.
apt_mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v suite="$suite" 'BEGIN { RS = "" }
			/(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ &&
			$0 ~ "(^|\n)Suites:([^\n]*[ \t])?" suite "([ \t]|\n|$)" {
				if (match($0, /(^|\n)URIs:[ \t]*[^ \t\n]+/)) {
					u = substr($0, RSTART, RLENGTH)
					sub(/^\n?URIs:[ \t]*/, "", u)
					print u
					exit
				}
			}' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk -v suite="$suite" '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) while ($i !~ /\]$/) i++
			if ($i ~ /\]$/ && $2 ~ /^\[/) i++
			if ($(i + 1) == suite) print $i
		}'
}
mirror=${CLOEXEC_MIRROR:-$(apt_mirror | head -1)}

elapsed() { echo $(($(date +%s) - $1)); }

# root_cache INCLUDE: the tarball that keeps the root with INCLUDE's
# packages; empty with CLOEXEC_ROOT_CACHE=none.
root_cache() {
	cache_dir=${CLOEXEC_ROOT_CACHE:-/var/cache/libcloexec-tests}
	[ "$cache_dir" = none ] ||
		echo "$cache_dir/root-$suite-$arch-minbase-$(echo "$1" | tr , -).tar"
}

# make_root DIR INCLUDE: the root with INCLUDE's packages in DIR, from the
# cache or else debootstrap'd (and then cached); skips without the archive.
make_root() {
	root_dir=$1 cache=$(root_cache "$2") start=$(date +%s)
	# A cached root older than a month is built again, with the fixes since.
	[ -n "$cache" ] && [ -n "$(find "$cache" -mtime +30 2>/dev/null)" ] &&
		rm -f "$cache"
	# Root in a user namespace that maps no other user (as CI's sandbox
	# may be) can neither give files other owners nor make device nodes:
	# there the cached root unpacks with every file root's.  Its /dev is
	# the host's, bound over it, in any case.
	untar="tar --exclude=./dev/*"
	awk '$1 == 0 && $2 == 0 && $3 == 4294967295 { all = 1 }
		END { exit !all }' /proc/self/uid_map 2>/dev/null ||
		untar="$untar --no-same-owner"
	if [ -n "$cache" ] && [ -f "$cache" ]; then
		mkdir "$root_dir" && $untar -xf "$cache" -C "$root_dir" ||
			{ echo "FAIL: unpacking $cache"; exit 99; }
		echo "root: unpacked from $cache in $(elapsed "$start") s"
		return
	fi
	command -v debootstrap >/dev/null || skip "no debootstrap"
	[ -n "$mirror" ] ||
		skip "no apt source for $suite to take the archive from"
	if command -v wget >/dev/null; then
		wget -q -T 15 -t 2 -O /dev/null "$mirror/dists/$suite/Release" ||
			skip "the archive $mirror is out of reach"
	fi
	if ! debootstrap --variant=minbase --include="$2" \
		--arch="$arch" "$suite" "$root_dir" "$mirror" \
		>"$tmp/debootstrap.log" 2>&1; then
		tail -20 "$tmp/debootstrap.log"
		echo "FAIL: debootstrap $suite from $mirror"
		exit 99
	fi
	rm -f "$root_dir"/var/cache/apt/archives/*.deb
	echo "root: debootstrap $suite from $mirror in $(elapsed "$start") s"
	if [ -n "$cache" ] && mkdir -p "${cache%/*}" &&
		tar -cf "$cache.$$" -C "$root_dir" . && mv "$cache.$$" "$cache"
	then
		echo "root: kept as $cache"
	else
		rm -f "$cache.$$"
	fi
}
