#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# wait_cq_wr.sh <doca_verbs_wait_cq_wr>
# One run must exit 0 with the success line and nothing on stderr.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc"
want="doca_verbs_wait_cq_wr: QP3's send waited for QP1's completion; buffer 3 equals buffer 1: success"
expect_line "$tmp/run.out" "$want"
[ -s "$tmp/run.err" ] && fail "stderr is not empty"
echo "PASS: doca_verbs_wait_cq_wr"
