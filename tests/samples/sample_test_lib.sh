# SPDX-License-Identifier: BSD-3-Clause
# Shared by the sample tests: temporary files, a server started in the background on a
# free port, bounded waits and readable failure reports. Sourced, not run.

SAMPLE_DEVICE=${OGDA_SAMPLES_DEVICE:-swnic0}
SAMPLE_WAIT_S=${OGDA_SAMPLES_WAIT_S:-120}

tmp=$(mktemp -d)
spid=""
cleanup() {
	if [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

dump() {
	for f in "$tmp"/*.out "$tmp"/*.err; do
		[ -s "$f" ] || continue
		echo "---- $(basename "$f")"
		cat "$f"
	done
}

fail() {
	echo "FAIL: $*"
	dump
	exit 1
}

# start_server <binary> <args...>: runs the server with --port 0 and sets $port to the port it reports.
start_server() {
	local bin=$1 i
	shift
	# OGDA_SAMPLES_SERVER_ENV: VAR=value words for the server only (e.g. a smaller port MTU).
	env ${OGDA_SAMPLES_SERVER_ENV:-} timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" --port 0 "$@" \
		>"$tmp/server.out" 2>"$tmp/server.err" &
	spid=$!
	port=""
	for i in $(seq 300); do
		port=$(sed -n 's/.* listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/server.out")
		[ -n "$port" ] && return 0
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	fail "the server did not report a listening port"
}

# wait_server: waits for the server and sets $src to its exit status.
wait_server() {
	wait "$spid"
	src=$?
	spid=""
}

# expect_line <file> <exact line>
expect_line() {
	grep -qxF -- "$2" "$1" || fail "$(basename "$1") lacks the line: $2"
}

# expect_text <file> <fixed text>
expect_text() {
	grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"
}
