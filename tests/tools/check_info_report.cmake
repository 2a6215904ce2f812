# SPDX-License-Identifier: BSD-3-Clause
# Runs opengda-info with CUDA, rdma-core and GDRCopy hidden and empty sysfs/procfs roots (so a
# GPU on the PCI bus of the machine running the test does not show) and checks each section of
# its report: no GPU, no ConnectX, the software NIC is the one device, and every check still
# prints, saying what is missing (WARN), never failing the run. Then once over the machine's
# own /sys and /proc, where only what holds anywhere is checked.
set(ENV{OPENGDA_DISABLE_CUDA} 1)
set(ENV{OPENGDA_DISABLE_IBVERBS} 1)
set(ENV{OPENGDA_DISABLE_GDRCOPY} 1)
unset(ENV{OPENGDA_SWNIC_COUNT})
unset(ENV{OPENGDA_DEVICE})
unset(ENV{DOCA_GPUNETIO_LOG})
file(REMOVE_RECURSE ${EMPTY_ROOT})
file(MAKE_DIRECTORY ${EMPTY_ROOT}/sys ${EMPTY_ROOT}/proc)
execute_process(COMMAND ${INFO} --sysfs-root ${EMPTY_ROOT}/sys --proc-root ${EMPTY_ROOT}/proc
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "opengda-info exited with ${rc}\n${out}\n${err}")
endif()
foreach(expect
    "OpenGDA [0-9]+\\.[0-9]+\\.[0-9]+: GPU-initiated RDMA"
    "\nBuild\n  library +libdoca_gpunetio [0-9]"
    "\n  log level +3 \\(DOCA_GPUNETIO_LOG"
    "\nRun-time libraries"
    "\n  CUDA driver +not found: disabled by OPENGDA_DISABLE_CUDA\n"
    "\n  rdma-core verbs +not found: disabled by OPENGDA_DISABLE_IBVERBS\n"
    "\n  GDRCopy +not found: disabled by OPENGDA_DISABLE_GDRCOPY\n"
    "\nGPUs\n  none +CUDA driver not available: disabled by OPENGDA_DISABLE_CUDA\n"
    "\nDevices \\(doca_devinfo_create_list\\)\n  rdma-core +no device: libibverbs.so.1 is not available"
    "\n  software NICs +1 \\(OPENGDA_SWNIC_COUNT; default 1\\)\n  swnic0 +software NIC\n"
    "\n    link layer +Ethernet \\(RoCE v2\\)\n    port 1 state +ACTIVE\n    active MTU +4096 \\(max 4096\\)\n"
    "\n    GID 0 +[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+ \\(table of [1-9][0-9]*\\)\n"
    "\n    max QP WR +[1-9][0-9]*\n    max CQE +[1-9][0-9]*\n"
    "\n    atomics +yes"
    "\nTopology \\(PCIe distance, as nvidia-smi topo -m names it\\)\n  none +no GPU\n"
    "\n  swnic0 +in host memory: no PCIe path \\(the software NIC reads GPU memory through the CUDA driver\\)\n"
    "\n  advice +PIX/PXB best, PHB acceptable, NODE/SYS avoid"
    "\nChecks \\(NVIDIA GPUNetIO setup guide\\)\n  \\[WARN\\] devices: no ConnectX: software NIC only \\(1 offered\\)\n"
    "\n  \\[WARN\\] GPU driver: no NVIDIA GPU; CUDA driver not available: disabled by OPENGDA_DISABLE_CUDA\n"
    "\n         fix: none for host-thread runs; GPU kernels need an NVIDIA GPU"
    "\n         why it matters: without a CUDA driver no kernel runs: the examples run their data path on host threads\n"
    "\n  \\[WARN\\] dmabuf: not usable: [^\n]*libibverbs.so.1 not found; no GPU the CUDA driver can ask"
    "\n  \\[WARN\\] BAR1: no GPU: no BAR1 to map 1 GiB through\n"
    "\n  \\[WARN\\] persistence mode: no GPU\n"
    "\n  \\[WARN\\] GPU doorbell \\(swnic0\\): no GPU: host threads ring it"
    "\nSummary: [0-9]+ OK, [0-9]+ WARN, 0 FAIL\n"
    "\n  can run: GPU kernels: no \\(no CUDA driver\\); GPU kernels driving a ConnectX: no \\(no GPU\\); data path on host threads: yes \\(software NIC\\)\n")
  if(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "opengda-info report lacks /${expect}/:\n${out}")
  endif()
endforeach()
# Every check prints one status line: the twelve of a machine without GPU or ConnectX.
string(REGEX MATCHALL "\n  \\[( OK |WARN|FAIL)\\] " lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 12)
  message(FATAL_ERROR "expected 12 check lines, found ${n}:\n${out}")
endif()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "opengda-info wrote to stderr at the default log level:\n${err}")
endif()

execute_process(COMMAND ${INFO} --checks-only RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "" OR NOT out MATCHES "\nSummary: [0-9]+ OK, [0-9]+ WARN, [0-9]+ FAIL\n  can run: ")
  message(FATAL_ERROR "opengda-info --checks-only on this machine: exit ${rc}\n${out}\n${err}")
endif()
