# SPDX-License-Identifier: BSD-3-Clause
# Shared by the front end's program tests, on top of the samples' library (temporary files,
# cleanup, fail, wait_server): programs that may be missing, a free TCP port, a server started
# in the background and waited for until it listens, the peer check of a two-process run.
# Sourced, not run; the sourcing script sets $run to opengda-swnic-run first.
. "$(dirname "${BASH_SOURCE[0]}")/../samples/sample_test_lib.sh"

FRONT_WAIT_S=${OGDA_FRONT_WAIT_S:-60}

# $run: opengda-swnic-run, with OGDA_FRONT_PRELOAD (a sanitizer build's runtime) preloaded into
# the program it starts and nothing else.
if [ -n "${OGDA_FRONT_PRELOAD:-}" ]; then
	run=(env "LD_PRELOAD=$OGDA_FRONT_PRELOAD" "$run")
else
	run=("$run")
fi

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

# start_front_server <port> <program> <args...>: runs it through the front end and waits until it listens.
start_front_server() {
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

# expect_re <file> <extended regular expression>
expect_re() {
	grep -qE -- "$2" "$1" || fail "$(basename "$1") lacks a line matching: $2"
}

# expect_peers <extract>: "<extract> <file> local|remote" prints an end's identity (QPN, GID);
# each end's remote must be the other end's local.
expect_peers() {
	local sl cl
	sl=$("$1" "$tmp/server.out" local)
	cl=$("$1" "$tmp/client.out" local)
	[ -n "$sl" ] && [ -n "$cl" ] || fail "an end did not print its local address"
	[ "$("$1" "$tmp/client.out" remote)" = "$sl" ] || fail "the client's remote is not the server"
	[ "$("$1" "$tmp/server.out" remote)" = "$cl" ] || fail "the server's remote is not the client"
}

# run_pair <port> <program> <args...>: the program as server (through the front end, waited for
# until it listens on port) and as client of 127.0.0.1; both must exit 0. Outputs in
# $tmp/server.out and $tmp/client.out.
run_pair() {
	local port=$1 crc
	shift
	start_front_server "$port" "$@"
	timeout "$FRONT_WAIT_S" "${run[@]}" "$@" 127.0.0.1 >"$tmp/client.out" 2>&1
	crc=$?
	wait_server
	[ "$crc" -eq 0 ] || fail "client exit status $crc"
	[ "$src" -eq 0 ] || fail "server exit status $src"
}
