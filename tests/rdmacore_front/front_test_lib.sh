# SPDX-License-Identifier: BSD-3-Clause
# Shared by the front end's program tests: temporary files, a free TCP port, a server started
# in the background and waited for until it listens, bounded waits, readable failures.
# Sourced, not run. $1 of the sourcing script is opengda-swnic-run.

FRONT_WAIT_S=${OGDA_FRONT_WAIT_S:-60}

# $run: opengda-swnic-run, with OGDA_FRONT_PRELOAD (a sanitizer build's runtime) preloaded into
# the program it starts and nothing else.
if [ -n "${OGDA_FRONT_PRELOAD:-}" ]; then
	run=(env "LD_PRELOAD=$OGDA_FRONT_PRELOAD" "$run")
else
	run=("$run")
fi

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
	for f in "$tmp"/*.out; do
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

# need_program <name>: exit 77 (skipped) when an rdma-core program is not installed.
need_program() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "SKIP: $1 is not installed (scripts/install-deps.sh installs it)"
		exit 77
	fi
}

# free_port: a TCP port nothing listens on now (the kernel picks it).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# listening <port>: true when a socket listens on the port (from /proc/net/tcp*, state 0A).
listening() {
	local hex
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" {f=1} END {exit !f}'
}

# start_server <port> <program> <args...>: runs it through the front end and waits until it listens.
start_server() {
	local port=$1 i
	shift
	timeout "$FRONT_WAIT_S" "${run[@]}" "$@" >"$tmp/server.out" 2>&1 &
	spid=$!
	for i in $(seq 300); do
		listening "$port" && return 0
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.05
	done
	fail "the server did not listen on port $port"
}

# wait_server: waits for the server and sets $src to its exit status.
wait_server() {
	wait "$spid"
	src=$?
	spid=""
}

# expect_re <file> <extended regular expression>
expect_re() {
	grep -qE -- "$2" "$1" || fail "$(basename "$1") lacks a line matching: $2"
}
