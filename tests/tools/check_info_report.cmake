# SPDX-License-Identifier: BSD-3-Clause
# Runs opengda-info with CUDA and rdma-core hidden and checks each section of its report.
set(ENV{OPENGDA_DISABLE_CUDA} 1)
set(ENV{OPENGDA_DISABLE_IBVERBS} 1)
set(ENV{OPENGDA_DISABLE_GDRCOPY} 1)
execute_process(COMMAND ${INFO} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
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
    "\nGPUs\n  none +"
    "\nRDMA devices \\(rdma-core\\)\n  none +libibverbs.so.1 is not available")
  if(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "opengda-info report lacks /${expect}/:\n${out}")
  endif()
endforeach()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "opengda-info wrote to stderr at the default log level:\n${err}")
endif()
