#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The Ethernet receive samples against Linux, over a veth pair in a network namespace of their own:
# the sample's software NIC port is one end (ogda0), Linux the other (ogda1, 10.77.0.2/24, with
# 10.77.0.1 a static neighbour at ogda0's MAC). Once the sample says "ready", Linux sends to it.
#   run_eth_rx_sample.sh receive <gpunetio_simple_receive> [options...]
#       64 UDP datagrams "pkt <k>"; the sample must count all 64 (and all as "pkt ").
#   run_eth_rx_sample.sh process <gpu_packet_processing> [options...]
#       5 pings (every one answered from the device path), 20 UDP datagrams (4 to port 53), and TCP
#       connection attempts; the sample's counts must show them.
#   run_eth_rx_sample.sh http <gpu_packet_processing> [options...]
#       the HTTP server mode (-s): three pages (index, contacts, a 404) fetched from the
#       application over Linux TCP (curl when installed, else bash's /dev/tcp reading the
#       Content-Length's bytes; OGDA_HTTP_CLIENT=bash forces the latter), whose CPU accepts and
#       closes the connections and whose device path answers the GETs, then the contacts page by
#       20 connections at once; the bodies, the status codes and the application's counts must match.
# Exits 77 (skipped, said on stderr) where namespaces, iproute2 or ping are unavailable.
set -u
mode=$1
bin=$2
shift 2
name=$(basename "$bin")
for tool in ip unshare ping timeout; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIPPED $name over veth: $tool is not installed; the sample was NOT run against Linux" >&2
    exit 77
  fi
done
if ! unshare -rn true 2>/dev/null; then
  echo "SKIPPED $name over veth: cannot create a network namespace; the sample was NOT run against Linux" >&2
  exit 77
fi
exec unshare -rn bash -s "$mode" "$bin" "$@" <<'INNER'
set -eu
mode=$1
bin=$2
shift 2
ip link set lo up
ip link add ogda0 type veth peer name ogda1
ip link set ogda0 up
ip link set ogda1 up
ip addr add 10.77.0.2/24 dev ogda1
mac=$(ip -o link show ogda0 | awk '{ for (i = 1; i < NF; i++) if ($i == "link/ether") print $(i + 1) }')
ip neigh replace 10.77.0.1 lladdr "$mac" dev ogda1
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT
if [ "$mode" = receive ]; then
  "$bin" -n swnic0 -i ogda0 -c 64 -t 30 "$@" >"$out" 2>&1 &
elif [ "$mode" = http ]; then
  "$bin" -n swnic0 -i ogda0 -t 8 -s "$@" >"$out" 2>&1 &
else
  "$bin" -n swnic0 -i ogda0 -t 6 "$@" >"$out" 2>&1 &
fi
pid=$!
for i in $(seq 1 200); do
  grep -q ": ready" "$out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
if ! grep -q ": ready" "$out"; then
  cat "$out"
  echo "FAIL: the sample never got ready" >&2
  exit 1
fi
rc=0
if [ "$mode" = receive ]; then
  for k in $(seq 0 63); do
    printf 'pkt %d' "$k" >/dev/udp/10.77.0.1/5000
  done
  wait "$pid" || rc=$?
  cat "$out"
  [ "$rc" -eq 0 ] || { echo "FAIL: the sample exited with $rc" >&2; exit 1; }
  grep -q "64 packets, .* 64 with a \"pkt \" payload" "$out" || { echo "FAIL: not 64 tagged packets" >&2; exit 1; }
  # the queue the options asked for is the queue that received
  case " $* " in *" -S "*) grep -q ": ready: .*striding" "$out" || { echo "FAIL: the queue is not striding" >&2; exit 1; } ;; esac
  case " $* " in *" -M "*) grep -q ": ready: .*MCST queue" "$out" || { echo "FAIL: no MCST queue" >&2; exit 1; } ;; esac
  echo "PASS: 64 datagrams from Linux reached the device receive path"
elif [ "$mode" = http ]; then
  fail() { echo "FAIL: $*" >&2; kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; cat "$out"; exit 1; }
  # get PATH: the status code, then the body; the connection is closed by the client
  get() {
    if [ "${OGDA_HTTP_CLIENT:-}" != bash ] && command -v curl >/dev/null 2>&1; then
      # a body file per caller: fetches run at once
      curl -sS --max-time 5 -o "$out.body.$BASHPID" -w '%{http_code}\n' "http://10.77.0.1$1" &&
        cat "$out.body.$BASHPID"
      return
    fi
    local status line len=0 body
    exec 3<>/dev/tcp/10.77.0.1/80 || return 1
    printf 'GET %s HTTP/1.1\r\nHost: 10.77.0.1\r\n\r\n' "$1" >&3
    IFS= read -r -t 5 status <&3 || return 1
    while IFS= read -r -t 5 line <&3; do
      line=${line%$'\r'}
      [ -z "$line" ] && break
      case "$line" in Content-Length:*) len=${line#*: } ;; esac
    done
    IFS= read -r -d '' -N "$len" -t 5 body <&3
    exec 3<&- 3>&-
    echo "$status" | cut -d' ' -f2
    printf '%s\n' "$body"
  }
  index=$(get /) || fail "GET / failed: $index"
  contacts=$(get /contacts.html) || fail "GET /contacts.html failed: $contacts"
  missing=$(get /missing) || fail "GET /missing failed: $missing"
  code=$(echo "$missing" | head -n 1)
  # 20 connections at once: sessions and semaphore items used concurrently
  for k in $(seq 1 20); do
    (get /contacts.html > "$out.par$k" 2>&1) &
  done
  wait $(jobs -p | grep -vx "$pid")
  par=0
  for k in $(seq 1 20); do
    grep -q "<h1>Contacts</h1>" "$out.par$k" && par=$((par + 1))
    rm -f "$out.par$k"
  done
  # a connection to another port is not the CPU's: the GPU's TCP queues count its SYN
  timeout 0.3 bash -c "exec 3<>/dev/tcp/10.77.0.1/81" 2>/dev/null || true
  wait "$pid" || rc=$?
  cat "$out"
  echo "$index" | grep -q "<h1>GPU packet processing</h1>" || fail "the index page is not what came back: $index"
  echo "$contacts" | grep -q "<h1>Contacts</h1>" || fail "the contacts page is not what came back: $contacts"
  [ "$code" = 404 ] || fail "GET /missing answered $code, want 404"
  [ "$rc" -eq 0 ] || fail "the application exited with $rc"
  [ "$par" = 20 ] || fail "$par of 20 concurrent fetches got the page"
  grep -q "HTTP [0-9]* packets (23 GET to the server, 23 pages sent)" "$out" || fail "not 23 GETs answered by the device path"
  grep -q "23 sessions opened, 23 closed; [0-9]* answers, 0 failures" "$out" || fail "the CPU did not open and close 23 sessions cleanly"
  syn=$(sed -n 's/.*TCP [0-9]* packets (\([0-9]*\) SYN.*/\1/p' "$out")
  [ "${syn:-0}" -ge 1 ] || fail "the SYN to port 81 did not reach the GPU's TCP queues"
  echo "PASS: three pages, then 20 at once, fetched over Linux TCP from the device path's HTTP server"
else
  pings=$(ping -c 5 -i 0.2 -W 2 10.77.0.1 2>&1 || true)
  for k in $(seq 0 19); do
    if [ "$k" -lt 4 ]; then port=53; else port=$((6000 + k)); fi
    printf 'udp %d' "$k" >/dev/udp/10.77.0.1/$port
  done
  for k in 1 2 3; do
    timeout 0.3 bash -c "exec 3<>/dev/tcp/10.77.0.1/80" 2>/dev/null || true
  done
  wait "$pid" || rc=$?
  echo "$pings"
  cat "$out"
  [ "$rc" -eq 0 ] || { echo "FAIL: the application exited with $rc" >&2; exit 1; }
  echo "$pings" | grep -q "5 packets transmitted, 5 received" || { echo "FAIL: Linux did not get 5 echo replies" >&2; exit 1; }
  line=$(grep "gpu_packet_processing: UDP" "$out")
  udp=$(echo "$line" | sed -n 's/.*UDP \([0-9]*\) packets (\([0-9]*\) DNS.*/\1 \2/p')
  syn=$(echo "$line" | sed -n 's/.*TCP [0-9]* packets (\([0-9]*\) SYN.*/\1/p')
  rep=$(echo "$line" | sed -n 's/.*(\([0-9]*\) echo replies sent).*/\1/p')
  [ "$udp" = "20 4" ] || { echo "FAIL: UDP counts '$udp', want '20 4'" >&2; exit 1; }
  [ "${syn:-0}" -ge 3 ] || { echo "FAIL: $syn TCP SYNs counted, want at least 3" >&2; exit 1; }
  [ "$rep" = 5 ] || { echo "FAIL: $rep echo replies sent, want 5" >&2; exit 1; }
  echo "PASS: pings answered from the device path, UDP and TCP classified"
fi
INNER
