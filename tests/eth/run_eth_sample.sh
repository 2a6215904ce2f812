#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# An Ethernet sample (gpunetio_simple_send, gpunetio_send_wait_time) over a veth pair in a network
# namespace of its own: the sample's software NIC port sends on one end, the kernel receives on the
# other. Every frame must reach UDP (counted as NoPorts: nothing listens on the port) and none may
# fail its checksum (InCsumErrors). Exits 77 (skipped, said on stderr) where namespaces or iproute2
# are unavailable.
#   run_eth_sample.sh <sample binary> <frames it sends> [sample options...]
set -u
bin=$1
want=$2
shift 2
name=$(basename "$bin")
for tool in ip unshare awk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIPPED $name over veth: $tool is not installed; the sample was NOT run against Linux" >&2
    exit 77
  fi
done
if ! unshare -rn true 2>/dev/null; then
  echo "SKIPPED $name over veth: cannot create a network namespace; the sample was NOT run against Linux" >&2
  exit 77
fi
exec unshare -rn sh -s "$bin" "$want" "$@" <<'INNER'
set -eu
bin=$1
want=$2
shift 2
udp() { # the value of Udp counter $1 in this namespace
  awk -v want="$1" '$1 == "Udp:" { if (!n) { for (i = 2; i <= NF; i++) col[$i] = i; n = 1 } else print $col[want] }' /proc/net/snmp
}
ip link set lo up
ip link add ogda0 type veth peer name ogda1
ip link set ogda0 up
ip link set ogda1 up
ip addr add 10.77.0.2/24 dev ogda1
mac=$(ip -o link show ogda1 | awk '{ for (i = 1; i < NF; i++) if ($i == "link/ether") print $(i + 1) }')
np0=$(udp NoPorts)
ce0=$(udp InCsumErrors)
"$bin" -n swnic0 -i ogda0 -m "$mac" -a 10.77.0.2 "$@"
for i in $(seq 1 100); do
  [ "$(udp NoPorts)" -ge $((np0 + want)) ] && break
  sleep 0.05
done
np=$(udp NoPorts)
ce=$(udp InCsumErrors)
echo "kernel UDP counters: NoPorts $np0 -> $np, InCsumErrors $ce0 -> $ce"
[ "$np" -eq $((np0 + want)) ] || { echo "FAIL: expected $want datagrams to reach UDP" >&2; exit 1; }
[ "$ce" -eq "$ce0" ] || { echo "FAIL: checksum errors" >&2; exit 1; }
echo "PASS: $want frames reached the kernel's UDP with valid checksums"
INNER
