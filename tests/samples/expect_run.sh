#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# expect_run.sh <expected exit status> <expected output line> <command...>
# Runs the command (bounded), then checks its exit status and one exact line of its output
# (stdout and stderr together).
set -u
. "$(dirname "$0")/sample_test_lib.sh"

want_rc=$1
want_line=$2
shift 2
timeout "$SAMPLE_WAIT_S" "$@" >"$tmp/run.out" 2>&1
rc=$?
[ "$rc" -eq "$want_rc" ] || fail "exit status $rc, $want_rc expected"
expect_line "$tmp/run.out" "$want_line"
echo "PASS: exit status $rc and: $want_line"
