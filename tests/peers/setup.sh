#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What make check-peers needs from the package archive, on Debian, as
# root (.ci/run runs it; make check-peers runs it itself as root):
#
#	sh tests/peers/setup.sh [--check] [SUITE...]
#
# the deb-src lists (a copy of /etc/apt/sources.list.d/debian.sources,
# or of sources.list's deb lines, with the type deb-src), each suite's
# `apt-get build-dep --arch-only` (the build's packages, not those of
# the manuals: bash's would bring TeX Live), and the programs its tests
# run.  With --check, installs nothing: exit 1 and say what is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check=
if [ "${1-}" = --check ]; then
	check=1
	shift
fi
[ $# -gt 0 ] || set -- socat make bash util-linux python

pkgs=''
needs=''
for s; do
	pkgs="$pkgs $(sh "$here/$s.sh" package)"
	needs="$needs $(sh "$here/$s.sh" needs)"
done

apt="apt-get -o DPkg::Lock::Timeout=600"

# missing: what is not there yet, one word each (src:PKG, build-dep,
# PKG), on one line.
missing() {
	out=
	for p in $pkgs; do
		apt-cache showsrc "$p" 2>/dev/null | grep -q '^Package:' ||
			out="$out src:$p"
	done
	# shellcheck disable=SC2086
	if [ -z "$out" ] && [ -n "${pkgs# }" ] &&
		$apt -s --arch-only build-dep $pkgs 2>/dev/null |
		grep -q '^Inst '; then
		out="$out build-dep"
	fi
	for p in $needs; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || out="$out $p"
	done
	echo "${out# }"
}

have=$(missing)
if [ -z "$have" ]; then
	exit 0
elif [ -n "$check" ]; then
	echo "check-peers: missing from the archive: $have"
	exit 1
fi
[ "$(id -u)" = 0 ] || { echo "setup.sh: run me as root"; exit 1; }
export DEBIAN_FRONTEND=noninteractive

# Three tries 30 s apart, as .ci/run's: a mirror in the middle of its
# sync answers "File has unexpected size" for a minute or two.
update() {
	for try in 1 2 3; do
		$apt update -qq && return 0
		[ "$try" = 3 ] || sleep 30
	done
	echo "setup.sh: apt-get update failed three times; going on"
}

case " $have " in
*" src:"*)
	list=/etc/apt/sources.list.d/debian-src.sources
	if [ ! -f "$list" ] && [ ! -f "${list%.sources}.list" ]; then
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
			sed 's/^Types:.*/Types: deb-src/' \
				/etc/apt/sources.list.d/debian.sources >"$list"
		elif grep -q '^deb ' /etc/apt/sources.list 2>/dev/null; then
			list=${list%.sources}.list
			sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$list"
		else
			echo "setup.sh: no debian.sources, no deb line in sources.list: add the deb-src lists"
			exit 1
		fi
		echo "setup.sh: added $list"
	fi
	;;
esac
# Lists as old as the machine's may also name versions the archive has
# dropped.
update
if [ -n "${pkgs# }" ]; then
	for p in $pkgs; do
		apt-cache showsrc "$p" 2>/dev/null | grep -q '^Package:' ||
			{ echo "setup.sh: no source package $p in the lists"; exit 1; }
	done
	echo "setup.sh: apt-get build-dep --arch-only$pkgs"
	# shellcheck disable=SC2086
	$apt build-dep --arch-only -y -qq $pkgs >/dev/null || exit 1
fi
echo "setup.sh: apt-get install$needs"
# shellcheck disable=SC2086
$apt install -y -qq --no-install-recommends $needs >/dev/null || exit 1
have=$(missing)
[ -z "$have" ] || { echo "setup.sh: still missing: $have"; exit 1; }
