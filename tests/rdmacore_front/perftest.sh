#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# perftest.sh <opengda-swnic-run> <program> <bytes> [extra args]: one of Debian's perftest
# programs as server and client processes on two software NICs (GID index 0, which carries
# each NIC's fabric endpoint). Both must exit 0, each must name the other's QPN as its
# remote, and both must print the result row for <bytes> and the iteration count.
set -u
run=$1
prog=$2
bytes=$3
shift 3
. "$(dirname "$0")/front_test_lib.sh"
need_program "$prog"

iters=200
port=$(free_port)
args=(-d mlx5_0 -x 0 -n "$iters" -p "$port" "$@")
run_pair "$port" "$prog" "${args[@]}"
for side in server client; do
	expect_re "$tmp/$side.out" "^ Link type +: Ethernet$"
	expect_re "$tmp/$side.out" "^ +$bytes +$iters +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+"
	if grep -qE "error|Couldn't|Failed|Unable" "$tmp/$side.out"; then
		fail "the $side reported an error"
	fi
done
# " local address: LID 0000 QPN 0x..., PSN ..." -> "QPN 0x..."
qpn() { sed -n "s/^ *$2 address: LID [0-9a-f]* \(QPN 0x[0-9a-f]*\) .*/\1/p" "$1"; }
expect_peers qpn
echo "PASS: $prog $* ($iters iterations of $bytes bytes, server and client)"
