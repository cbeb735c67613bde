# SPDX-License-Identifier: LGPL-2.1-or-later
# A container engine for the image tests (tests/image/*.test), sourced
# after tests/cmd/lib.sh and with a skip function of theirs: the engine
# in $engine (podman, else docker; CLOEXEC_ENGINE names another list),
# engine and run to call it with each command printed, probe_settings to
# find what a container needs on this machine.

# engine ARGS...: the engine, its command line printed first to the log
# (fd 8: the test's own output, whatever the caller captures)
# and quoted as a shell would take it.
exec 8>&1
engine() {
	printf '+ %s' "$engine" >&8
	for arg; do
		case $arg in
		'' | *[!A-Za-z0-9_./=:,@%+-]*)
			printf " '%s'" "$(printf '%s' "$arg" |
				sed "s/'/'\\\\''/g")" ;;
		*) printf ' %s' "$arg" ;;
		esac
	done >&8
	echo >&8
	"$engine" "$@" 8>&-
}

# The engine: the first that answers `info` (docker's client alone, with
# no daemon, does not).
why=
for e in ${CLOEXEC_ENGINE:-podman docker}; do
	if ! command -v "$e" >/dev/null; then
		why="$why; $e: not installed"
	elif ! "$e" info >"$tmp/info" 2>&1; then
		why="$why; $e info: $(grep . "$tmp/info" | tail -1)"
	else
		engine=$e
		break
	fi
done
[ -n "${engine-}" ] || skip "no container engine works${why}"
echo "engine: $(command -v "$engine"), $("$engine" --version)"

# probe_settings IMAGE COMMAND...: the settings a container needs here,
# in $settings, tried in turn until COMMAND in IMAGE prints "works": the
# default runtime, else runc, else crun (crun refuses hybrid cgroups);
# the limits as they are, else ones the container's init need not raise.
# Containers never need the network here.  Skips if none works.
probe_settings() {
	limits="--ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	settings=
	for runtime in "" "--runtime runc" "--runtime crun"; do
		for limit in "" "$limits"; do
			try="$runtime${runtime:+${limit:+ }}$limit"
			# shellcheck disable=SC2086
			if out=$(engine run --rm --network none $try "$@" 2>&1) &&
				[ "$out" = works ]; then
				settings=$try
				break 2
			fi
			echo "  refused: $(printf '%s\n' "$out" | grep . | tail -1)"
		done
	done
	[ -n "${out-}" ] && [ "$out" = works ] ||
		skip "$engine runs no container here, whatever the settings tried"
	echo "settings: ${settings:-none needed}"
}
# shellcheck disable=SC2086
run() { engine run --rm --network none $settings "$@"; }

