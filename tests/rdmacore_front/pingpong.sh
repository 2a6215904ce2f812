#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# pingpong.sh <opengda-swnic-run> <ibv_rc_pingpong | ibv_uc_pingpong> [extra args]: rdma-core's
# pingpong (Debian's ibverbs-utils) as server and client processes on two software NICs. They exchange LID/QPN/PSN/GID over TCP
# and ping-pong SENDs of 4 KiB (with --chk: each end checks the bytes it received). Both
# must exit 0, report the iterations, and each must name the other's QPN and GID as remote.
set -u
run=$1
prog=$2
shift 2
. "$(dirname "$0")/front_test_lib.sh"
need_program "$prog"

iters=200
port=$(free_port)
args=(-g 0 -n "$iters" -s 4096 -c -p "$port" "$@")
run_pair "$port" "$prog" "${args[@]}"
for side in server client; do
	expect_re "$tmp/$side.out" "^$iters iters in [0-9.]+ seconds"
	expect_re "$tmp/$side.out" "^$((iters * 4096 * 2)) bytes in [0-9.]+ seconds"
done
# "local address: LID 0x0000, QPN 0x..., PSN 0x..., GID g" -> "QPN ... g"
addr() { sed -n "s/^ *$2 address: *LID 0x[0-9a-f]*, \(QPN 0x[0-9a-f]*\), PSN 0x[0-9a-f]*, GID \(.*\)$/\1 \2/p" "$1"; }
expect_peers addr
case "$(addr "$tmp/server.out" local)" in *" fd4f:4744:4101:"*) ;; *) fail "the server's GID is not a software NIC GID" ;; esac
echo "PASS: $prog $* ($iters iterations, server and client)"
