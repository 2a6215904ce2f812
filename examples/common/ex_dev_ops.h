/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device operations the examples' per-thread code calls, with one spelling for CUDA kernels
 * and host threads:
 *   - in CUDA kernels they are DOCA's device API (doca_gpu_dev_verbs_put / get / signal / wait,
 *     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO), the scope and sharing mode picked at run time;
 *   - on host threads they are the same C core the DOCA templates are built on (ogda_dev_op_* at
 *     thread scope; at warp and block scope one reservation per group of host threads, each
 *     thread preparing its own WQEs, the leader publishing and ringing once).
 *
 * Every operation returns 0 or the core's negative error (an error completion's syndrome,
 * -ETIMEDOUT for a bounded wait) and is called by every thread of its group.
 */
#ifndef EX_DEV_OPS_H_
#define EX_DEV_OPS_H_

#include "doca_gpunetio_verbs_def.h"
#include "doca_gpunetio_verbs_dev.h"
#include "device/ogda_dev_ops.h"
#include "device/ogda_dev_send.h"
#include "ex_lane.h"

/* What a group call may not do: more WQEBBs than the ring holds (-EINVAL). */
#define EX_DEV_EGROUP (-22)
/* A receive that completed with an unexpected byte count or content (-EBADMSG), found by device code. */
#define EX_DEV_EBADMSG (-74)

enum ex_op_kind {
	EX_OP_WRITE, /* RDMA WRITE of size bytes */
	EX_OP_READ,  /* RDMA READ of size bytes */
	EX_OP_FADD,  /* 8-byte fetch-and-add of size (the addend); old value to laddr */
	EX_OP_SEND,  /* SEND of size bytes from laddr (raddr unused): a receive of the peer takes it */
};

struct ex_op {
	enum ex_op_kind kind;
	struct doca_gpu_dev_verbs_addr raddr;
	struct doca_gpu_dev_verbs_addr laddr;
	uint64_t size; /* bytes, or the addend of EX_OP_FADD */
};

/* What each thread reports when its part of a pass is over (in the run's aux memory). */
struct ex_thread_result {
	int32_t rc;     /* 0, or the first error the thread met */
	uint32_t done;  /* operations that completed */
};

/* Waits up to timeout_ns for *p (written by the NIC) to equal want. 0, or -ETIMEDOUT. */
OGDA_DEV_FN int ex_wait_u8(const uint8_t *p, uint8_t want, uint64_t timeout_ns)
{
	uint64_t deadline = ogda_dev_deadline(timeout_ns);

	while (ogda_dev_load_nic_u8(p) != want) {
		if (ogda_dev_expired(deadline))
			return -OPENGDA_DEV_ETIMEDOUT;
		ogda_dev_spin_pause();
	}
	ogda_dev_fence_nic_acquire();
	return 0;
}

#if defined(__CUDACC__)
#include "ex_dev_ops_cuda.cuh"
#else
#include "ex_dev_ops_host.h"
#endif

#endif /* EX_DEV_OPS_H_ */
