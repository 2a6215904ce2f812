# SPDX-License-Identifier: BSD-3-Clause
# Builders of a fake sysfs/procfs tree for opengda-info --sysfs-root/--proc-root, sourced by
# check_info_fake_tree.sh. $T is the tree's top: $T/sys and $T/proc. PCI devices live under
# $T/sys/devices/<path> with $T/sys/bus/pci/devices/<bdf> linking to them, as in sysfs.

# pci_fn PATH VENDOR CLASS NUMA: a PCI function; PATH is pci0000:00/0000:00:01.0/... down to it.
pci_fn() {
  local path=$1 bdf=${1##*/}
  local dir=$T/sys/devices/$path
  mkdir -p "$dir" "$T/sys/bus/pci/devices"
  echo "$2" > "$dir/vendor"
  echo "$3" > "$dir/class"
  echo "$4" > "$dir/numa_node"
  echo 0x2335 > "$dir/device"
  ln -sfn "../../../devices/$path" "$T/sys/bus/pci/devices/$bdf"
}

# bridge PATH: a PCI-to-PCI bridge (root port or switch port), config space without ACS.
bridge() {
  pci_fn "$1" 0x10b5 0x060400 0
  cfg_no_acs "$T/sys/devices/$1/config"
}

# gpu PATH NUMA BAR1_END [vm]: an NVIDIA 3D controller; BAR1 spans 0x380000000000..BAR1_END.
# Bare metal: 32-bit BAR0, BAR1 on resource line 1. "vm": 64-bit BAR0, BAR1 on line 2.
gpu() {
  local bar0_32="0x00000000fa000000 0x00000000faffffff 0x0000000000040200"
  local bar0_64="0x0000104002000000 0x0000104002ffffff 0x000000000014220c"
  local none="0x0000000000000000 0x0000000000000000 0x0000000000000000"
  pci_fn "$1" 0x10de 0x030200 "$2"
  if [ "${4:-}" = vm ]; then
    printf '%s\n' "$bar0_64" "$none" "0x0000380000000000 $3 0x000000000014220c" "$none" "$none" "$none" \
      > "$T/sys/devices/$1/resource"
  else
    printf '%s\n' "$bar0_32" "0x0000380000000000 $3 0x000000000014220c" "$none" "$none" "$none" "$none" \
      > "$T/sys/devices/$1/resource"
  fi
}

# nic NAME PATH NUMA: a ConnectX function and its rdma-core class entry.
nic() {
  pci_fn "$2" 0x15b3 0x020000 "$3"
  mkdir -p "$T/sys/class/infiniband/$1"
  ln -sfn "../../../bus/pci/devices/${2##*/}" "$T/sys/class/infiniband/$1/device"
}

# Config space images: 4 KiB as root reads it, with or without an ACS capability at 0x100.
cfg_no_acs() { head -c 4096 /dev/zero > "$1"; }
# cfg_acs FILE CTL_LOW_BYTE CTL_HIGH_BYTE (hex digits): header id 0x000d, version 1, no next.
cfg_acs() {
  { head -c 256 /dev/zero
    printf '\x0d\x00\x01\x00\x5f\x00'
    printf "\\x$2\\x$3"
    head -c $((4096 - 256 - 8)) /dev/zero; } > "$1"
}
# What a non-root reader gets: the first 64 bytes only.
cfg_user() { head -c 64 /dev/zero > "$1"; }

# proc_base KERNEL CMDLINE: the proc files every layout has.
proc_base() {
  mkdir -p "$T/proc/sys/kernel"
  echo "$1" > "$T/proc/sys/kernel/osrelease"
  echo "$2" > "$T/proc/cmdline"
  : > "$T/proc/modules"
}

# nvidia_proc VERSION_LINE PARAMS_REGISTRY_DWORDS: /proc/driver/nvidia/{version,params}.
nvidia_proc() {
  mkdir -p "$T/proc/driver/nvidia"
  echo "$1" > "$T/proc/driver/nvidia/version"
  printf 'ResmanDebugLevel: 4294967295\nRmLogonRC: 1\nRegistryDwords: "%s"\nRmMsg: ""\n' "$2" \
    > "$T/proc/driver/nvidia/params"
}

module_loaded() { echo "$1 16384 0 - Live 0x0000000000000000" >> "$T/proc/modules"; }

NV_OPEN="NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  (dvs-builder@U16-I2-C03-12-4)  Thu Jan 23 01:17:53 UTC 2025"
NV_PROPRIETARY="NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024"
BAR1_64G=0x0000380fffffffff
BAR1_256M=0x000038000fffffff
