/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma (doca_rdma.h): the context (rdma.c: attributes, start, stop, device handle) and its
 * connections (rdma_conn.c: out-of-band export and connect).
 */
#ifndef OGDA_RDMA_RDMA_PRIV_H_
#define OGDA_RDMA_RDMA_PRIV_H_

#include "doca_core/core_priv.h"

#include "doca_gpunetio_high_level.h"
#include "doca_rdma.h"

#include <stdbool.h>
#include <stdint.h>

/* What doca_rdma_export hands the peer (host byte order; a magic and a version reject the rest). */
#define RDMA_CONN_MAGIC 0x4f47444152444d41ull /* "OGDARDMA" */
#define RDMA_CONN_VERSION 1u

struct rdma_conn_details {
	uint64_t magic;
	uint32_t version;
	uint32_t qpn;
	uint8_t gid[16];
	uint32_t lid;
	uint32_t psn;
};

struct doca_rdma_connection {
	struct doca_rdma *rdma;
	uint32_t id;
	bool exported, connected;
	struct doca_gpu_verbs_qp_hl *qp;
	struct rdma_conn_details local;
};

struct doca_rdma {
	struct doca_ctx ctx; /* first: doca_rdma_as_ctx, and back in the ops */
	struct doca_dev *dev;
	uint32_t permissions, gid_index, sq_size, rq_size, nconn;
	uint64_t wait_timeout_ns;
	/* while running */
	struct doca_verbs_pd *pd;
	struct doca_rdma_connection *conns; /* nconn */
	struct doca_gpu_dev_rdma *handle;   /* in the data path's memory */
};

#endif /* OGDA_RDMA_RDMA_PRIV_H_ */
