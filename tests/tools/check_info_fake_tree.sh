#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# opengda-info over fake sysfs/procfs trees: usage check_info_fake_tree.sh <opengda-info> <layout>.
# Each layout builds a machine (GPU, ConnectX, bridges with or without ACS redirect, NVIDIA
# driver files, kernel modules) and asserts the exact topology category and the exact
# status line of every check. CUDA, rdma-core and GDRCopy are hidden so the outcome does not
# depend on the machine running the test.
set -u
INFO=$1
LAYOUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$LAYOUT" = json ]; then
  # A quote and a backslash in every path the report prints: the JSON writer must escape them.
  T=$(mktemp -d "${TMPDIR:-/tmp}/info-\"json\\-XXXXXX")
else
  T=$(mktemp -d)
fi
trap 'rm -rf "$T"' EXIT
# shellcheck source=fake_tree.sh
. "$HERE/fake_tree.sh"

export OPENGDA_DISABLE_CUDA=1 OPENGDA_DISABLE_IBVERBS=1 OPENGDA_DISABLE_GDRCOPY=1
unset OPENGDA_SWNIC_COUNT OPENGDA_DEVICE DOCA_GPUNETIO_LOG
FAILED=0
OUT=

run() {
  local rc
  OUT=$("$INFO" --sysfs-root "$T/sys" --proc-root "$T/proc" "$@" 2> "$T/stderr")
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: opengda-info $* exited with $rc"; cat "$T/stderr"; exit 1
  fi
  if [ -s "$T/stderr" ]; then
    echo "FAIL: opengda-info $* wrote to stderr:"; cat "$T/stderr"; exit 1
  fi
}

# line TEXT: the report has exactly this line.
line() {
  if ! grep -Fxq -- "$1" <<< "$OUT"; then
    echo "FAIL: no line: $1"; FAILED=1
  fi
}

# starts TEXT: some line starts with TEXT.
starts() {
  if ! grep -q -- "^$(sed 's/[][\.*^$/]/\\&/g' <<< "$1")" <<< "$OUT"; then
    echo "FAIL: no line starting with: $1"; FAILED=1
  fi
}

# checks N: exactly N check lines (so no check is missing or extra).
checks() {
  local n
  n=$(grep -c '^  \[\( OK \|WARN\|FAIL\)\] ' <<< "$OUT")
  if [ "$n" -ne "$1" ]; then
    echo "FAIL: $n check lines, expected $1"; FAILED=1
  fi
}

SWNIC_DOORBELL="  [WARN] GPU doorbell (swnic0): no GPU: host threads ring it (host memory, mapped into a GPU when one exists)"
NO_CUDA_DMABUF="libibverbs.so.1 not found; no GPU the CUDA driver can ask (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)"

# GPU and NIC below one PCIe switch (upstream port 01:00.0, downstream ports 02:00.0 / 02:01.0);
# ReqRedir and CmpltRedir set on the GPU's downstream port. A well set-up driver side.
pix_switch_machine() {
  bridge pci0000:00/0000:00:01.0
  bridge pci0000:00/0000:00:01.0/0000:01:00.0
  bridge pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0
  cfg_acs "$T/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config" 1d 00
  bridge pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0
  cfg_acs "$T/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/config" 00 00
  gpu pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0 0 "$BAR1_64G"
  nic mlx5_0 pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0 0
  mkdir -p "$T/sys/class/iommu/dmar0"
  proc_base 6.8.0-45-generic "BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_iommu=on iommu=pt quiet"
  nvidia_proc "$NV_OPEN" "PeerMappingOverride=1;"
  module_loaded nvidia_peermem
  module_loaded gdrdrv
  mkdir -p "$T/proc/4242" && echo nvidia-persiste > "$T/proc/4242/comm"
}

case "$LAYOUT" in
pix_switch)
  pix_switch_machine
  run
  line "                         mlx5_0"
  line "  0000:03:00.0           PIX"
  line "  bridges                0000:03:00.0-mlx5_0: 0000:01:00.0 ACS absent"
  line "                         0000:03:00.0-mlx5_0: 0000:02:00.0 ACS SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+"
  line "                         0000:03:00.0-mlx5_0: 0000:02:01.0 ACS none"
  line "    BAR1                 64 GiB"
  line "    persistence mode     enabled (nvidia-persistenced is running)"
  starts "  mlx5_0                 ConnectX at 0000:04:00.0 in sysfs, not listed by rdma-core"
  starts "  [WARN] devices (mlx5_0): ConnectX mlx5_0 (0000:04:00.0) is in sysfs but rdma-core does not list it: no device: "
  starts "  [WARN] GPU driver: GPU 0000:03:00.0 is on the PCI bus but the CUDA driver is not usable: "
  line "  [ OK ] GPU-NIC placement (0000:03:00.0): closest ConnectX mlx5_0: PIX (best)"
  line "  [WARN] dmabuf: not usable: $NO_CUDA_DMABUF"
  line "  [ OK ] nvidia-peermem: loaded"
  line "  [WARN] GDRCopy: libgdrapi.so.2 not found"
  line "  [ OK ] PeerMappingOverride: PeerMappingOverride=1 in $T/proc/driver/nvidia/params"
  line "  [ OK ] BAR1 (0000:03:00.0): 64 GiB >= planned 1 GiB"
  line "  [WARN] ACS: redirect set on 0000:02:00.0 (ReqRedir+ CmpltRedir+)"
  line "         fix: sudo setpci -s 0000:02:00.0 ECAP_ACS+0x6.w=0000; better: disable ACS in the BIOS"
  line "  [ OK ] IOMMU: on, passthrough (iommu=pt): device DMA is not translated"
  line "  [ OK ] persistence mode (0000:03:00.0): enabled (nvidia-persistenced is running)"
  line "$SWNIC_DOORBELL"
  line "  [WARN] GPU doorbell (mlx5_0): no GPU: host threads ring it"
  checks 13
  line "Summary: 6 OK, 7 WARN, 0 FAIL"
  line "  can run: GPU kernels: no (no CUDA driver); GPU kernels driving a ConnectX: no (no GPU); data path on host threads: yes (software NIC)"
  run --plan-bytes 128G --checks-only
  line "  [WARN] BAR1 (0000:03:00.0): 64 GiB < planned 128 GiB"
  line "Summary: 5 OK, 8 WARN, 0 FAIL"
  if grep -q '^Topology' <<< "$OUT"; then echo "FAIL: --checks-only printed the topology section"; FAILED=1; fi
  ;;
pix_bridge)
  # GPU and NIC on one bridge's bus; proprietary driver, old kernel, nothing loaded, small BAR1,
  # a translating IOMMU, config space read as a non-root user.
  bridge pci0000:00/0000:00:02.0
  cfg_user "$T/sys/devices/pci0000:00/0000:00:02.0/config"
  gpu pci0000:00/0000:00:02.0/0000:05:00.0 0 "$BAR1_256M"
  nic mlx5_0 pci0000:00/0000:00:02.0/0000:05:00.1 0
  mkdir -p "$T/sys/class/iommu/dmar0"
  proc_base 5.15.0-105-generic "BOOT_IMAGE=/vmlinuz intel_iommu=on"
  nvidia_proc "$NV_PROPRIETARY" "RmGpsPsEnable=0;"
  run
  line "  0000:05:00.0           PIX"
  line "  bridges                0000:05:00.0-mlx5_0: 0000:00:02.0 ACS unknown (needs root)"
  line "  [ OK ] GPU-NIC placement (0000:05:00.0): closest ConnectX mlx5_0: PIX (best)"
  line "  [WARN] dmabuf: not usable: the NVIDIA kernel module is the proprietary one; kernel 5.15.0-105-generic is older than 6.2; $NO_CUDA_DMABUF"
  line "  [FAIL] nvidia-peermem: not loaded and dmabuf is not usable: the ConnectX cannot reach GPU memory"
  line "         fix: sudo modprobe nvidia-peermem (it ships with the NVIDIA driver), or make dmabuf usable"
  line "  [WARN] GDRCopy: gdrdrv module not loaded; libgdrapi.so.2 not found"
  line "  [WARN] PeerMappingOverride: not set in the driver's RegistryDwords"
  line "  [WARN] BAR1 (0000:05:00.0): 256 MiB < planned 1 GiB"
  line "  [WARN] ACS: unknown (needs root) on 0000:00:02.0"
  line "  [WARN] IOMMU: on and translating (IOMMU units in $T/sys/class/iommu)"
  line "  [WARN] persistence mode (0000:05:00.0): unknown (run nvidia-smi -q | grep Persistence)"
  line "  [WARN] GPU doorbell (mlx5_0): no GPU: host threads ring it"
  checks 13
  line "Summary: 1 OK, 11 WARN, 1 FAIL"
  run --checks-only --plan-bytes=128M
  line "  [ OK ] BAR1 (0000:05:00.0): 256 MiB >= planned 128 MiB"
  ;;
phb_sysmodule)
  # Different root ports of one host bridge; the driver known only from /sys/module (open
  # module: no 'P' taint), nvidia_peermem and gdrdrv there too; no params file; kernel 6.2.
  # The GPU's BAR0 is 64-bit (as in a VM), which moves BAR1 to the third resource line.
  bridge pci0000:00/0000:00:01.0
  cfg_acs "$T/sys/devices/pci0000:00/0000:00:01.0/config" 00 00
  bridge pci0000:00/0000:00:03.0
  cfg_acs "$T/sys/devices/pci0000:00/0000:00:03.0/config" 01 00
  gpu pci0000:00/0000:00:01.0/0000:01:00.0 0 "$BAR1_64G" vm
  nic mlx5_0 pci0000:00/0000:00:03.0/0000:06:00.0 0
  mkdir -p "$T/sys/module/nvidia" "$T/sys/module/nvidia_peermem" "$T/sys/module/gdrdrv"
  echo OE > "$T/sys/module/nvidia/taint"
  echo 550.54.15 > "$T/sys/module/nvidia/version"
  proc_base 6.2.0 "quiet"
  run
  line "  0000:01:00.0           PHB"
  line "  [ OK ] GPU-NIC placement (0000:01:00.0): closest ConnectX mlx5_0: PHB (acceptable: through the host bridge)"
  line "  [WARN] dmabuf: not usable: $NO_CUDA_DMABUF"
  line "  [ OK ] nvidia-peermem: loaded"
  line "  [WARN] GDRCopy: libgdrapi.so.2 not found"
  line "  [WARN] PeerMappingOverride: no NVIDIA driver ($T/proc/driver/nvidia/params is missing)"
  line "  [ OK ] ACS: no redirect on the 2 bridges between GPU and NIC"
  line "  [ OK ] BAR1 (0000:01:00.0): 64 GiB >= planned 1 GiB"
  line "  [ OK ] IOMMU: off (no IOMMU unit in $T/sys/class/iommu)"
  checks 13
  line "Summary: 5 OK, 8 WARN, 0 FAIL"
  ;;
pxb)
  # Two switch levels on the GPU's side: more than one bridge below the common one.
  for b in 0000:00:01.0 0000:01:00.0 0000:02:00.0 0000:03:00.0 0000:04:00.0; do
    p=${p:+$p/}$b; bridge "pci0000:00/$p"
  done
  gpu "pci0000:00/$p/0000:05:00.0" 0 "$BAR1_64G"
  bridge pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0
  nic mlx5_0 pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:06:00.0 0
  proc_base 6.8.0 "quiet"
  run
  line "  0000:05:00.0           PXB"
  line "  [ OK ] GPU-NIC placement (0000:05:00.0): closest ConnectX mlx5_0: PXB (best)"
  line "  [ OK ] ACS: no redirect on the 5 bridges between GPU and NIC"
  line "  [WARN] dmabuf: not usable: no NVIDIA kernel module; $NO_CUDA_DMABUF"
  line "  [FAIL] nvidia-peermem: not loaded and dmabuf is not usable: the ConnectX cannot reach GPU memory"
  checks 13
  ;;
node_sys)
  # Three host bridges: the NIC mlx5_0 on another host bridge of the GPU's NUMA node (NODE),
  # mlx5_1 on the other NUMA node (SYS).
  bridge pci0000:00/0000:00:01.0
  bridge pci0000:40/0000:40:01.0
  bridge pci0000:80/0000:80:01.0
  gpu pci0000:00/0000:00:01.0/0000:01:00.0 0 "$BAR1_64G"
  nic mlx5_0 pci0000:40/0000:40:01.0/0000:41:00.0 0
  nic mlx5_1 pci0000:80/0000:80:01.0/0000:81:00.0 1
  proc_base 6.8.0 "quiet"
  run
  line "                         mlx5_0   mlx5_1"
  line "  0000:01:00.0           NODE     SYS"
  line "  [WARN] GPU-NIC placement (0000:01:00.0): closest ConnectX mlx5_0: NODE (avoid)"
  starts "         fix: move the GPU or the NIC into slots under one PCIe switch or host bridge"
  line "  [ OK ] ACS: no redirect on the 3 bridges between GPU and NIC"
  line "  [WARN] GPU doorbell (mlx5_1): no GPU: host threads ring it"
  checks 14
  # Without the NODE NIC the closest is the other socket's.
  rm -rf "$T/sys/class/infiniband/mlx5_0"
  run --checks-only
  line "  [WARN] GPU-NIC placement (0000:01:00.0): closest ConnectX mlx5_1: SYS (avoid)"
  ;;
no_device)
  # No GPU, no ConnectX, software NIC turned off: nothing can run, and the report says so.
  proc_base 6.8.0 "quiet"
  mkdir -p "$T/sys"
  OPENGDA_SWNIC_COUNT=0 run
  line "  none                   no device: rdma-core lists no mlx5 device and OPENGDA_SWNIC_COUNT=0 turns the software NIC off"
  line "  [FAIL] devices: no device: rdma-core lists no mlx5 device and OPENGDA_SWNIC_COUNT=0 turns the software NIC off"
  line "  [WARN] GPU-NIC placement: no GPU and no ConnectX with a PCI function: nothing to place"
  line "  [WARN] ACS: not checked: no GPU and no ConnectX with a PCI function"
  line "  [WARN] GPU doorbell: no device"
  checks 12
  line "Summary: 1 OK, 10 WARN, 1 FAIL"
  line "  can run: GPU kernels: no (no CUDA driver); GPU kernels driving a ConnectX: no (no GPU); data path on host threads: no (no device)"
  ;;
json)
  # The same machine as pix_switch, as JSON: it parses, and carries the checks and the topology.
  pix_switch_machine
  run --json
  printf '%s' "$OUT" > "$T/report.json"
  python3 "$HERE/check_info_json.py" "$T/report.json" "$T" full || FAILED=1
  run --json --checks-only
  printf '%s' "$OUT" > "$T/checks.json"
  python3 "$HERE/check_info_json.py" "$T/checks.json" "$T" checks-only || FAILED=1
  ;;
*)
  echo "unknown layout $LAYOUT"; exit 2 ;;
esac

if [ "$FAILED" -ne 0 ]; then
  echo "--- report ---"; echo "$OUT"; exit 1
fi
echo "layout $LAYOUT: all assertions hold"
