#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# devinfo.sh <opengda-swnic-run>: ibv_devices and ibv_devinfo -v (Debian's ibverbs-utils) see
# the software NICs as mlx5_N devices with an active RoCE port whose GID carries the fabric
# endpoint; two NICs with OPENGDA_SWNIC_COUNT=2.
set -u
run=$1
. "$(dirname "$0")/front_test_lib.sh"
need_program ibv_devinfo
need_program ibv_devices

OPENGDA_SWNIC_COUNT=2 timeout "$FRONT_WAIT_S" "${run[@]}" ibv_devices >"$tmp/devices.out" 2>&1 || fail "ibv_devices failed"
expect_re "$tmp/devices.out" '^[[:space:]]+mlx5_0[[:space:]]+0002c903[0-9a-f]{8}$'
expect_re "$tmp/devices.out" '^[[:space:]]+mlx5_1[[:space:]]+0002c903[0-9a-f]{8}$'

timeout "$FRONT_WAIT_S" "${run[@]}" ibv_devinfo -v >"$tmp/devinfo.out" 2>&1 || fail "ibv_devinfo -v failed"
expect_re "$tmp/devinfo.out" $'^hca_id:\tmlx5_0$'
expect_re "$tmp/devinfo.out" $'^\ttransport:\t+InfiniBand \\(0\\)$'
expect_re "$tmp/devinfo.out" $'^\tvendor_id:\t+0x02c9$'
expect_re "$tmp/devinfo.out" $'^\tfw_ver:\t+.*OpenGDA software NIC'
expect_re "$tmp/devinfo.out" $'^\tatomic_cap:\t+ATOMIC_HCA \\(1\\)$'
expect_re "$tmp/devinfo.out" $'^\t\t\tstate:\t+PORT_ACTIVE \\(4\\)$'
expect_re "$tmp/devinfo.out" $'^\t\t\tlink_layer:\t+Ethernet$'
expect_re "$tmp/devinfo.out" $'^\t\t\tGID\\[  0\\]:\t+fd4f:4744:4101:[0-9a-f:]+, RoCE v2$'
# Without the wrapper the program sees the machine's own devices (none here): nothing changes.
if ibv_devinfo 2>/dev/null | grep -q 'OpenGDA software NIC'; then
	fail "ibv_devinfo without opengda-swnic-run sees the software NIC"
fi
echo "PASS: ibv_devices and ibv_devinfo -v on the software NIC"
