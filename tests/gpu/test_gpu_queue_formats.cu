/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU test: include/opengda_mlx5.h produces the same bytes in a CUDA kernel as on the host.
 * Every WQE recipe (with a WQE that wraps the ring), CQEs across four CQ wraps, and the
 * doorbell values are built by one __host__ __device__ function, once by 256 GPU threads
 * (one slot each) and once on the host; the two images must be identical, and a device-side
 * poller must see exactly the CQEs the host-side ownership rule says it owns.
 * Exit 0 on success; prints the first differing byte otherwise.
 */
#include "opengda_mlx5.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#define LOG_WQEBBS 8u                 /* 256 WQEBBs: one per thread */
#define RING_BYTES (64u << LOG_WQEBBS)
#define LOG_CQ 4u                     /* 16 CQEs */
#define CQES_WRITTEN 64u              /* four wraps */
#define DB_WORDS 8u

#define CHECK(call)                                                                                \
	do {                                                                                       \
		cudaError_t e_ = (call);                                                           \
		if (e_ != cudaSuccess) {                                                           \
			fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_));        \
			return 2;                                                                  \
		}                                                                                  \
	} while (0)

/* Slot t of the ring gets recipe t % 14 (slot 255 holds a WQE that wraps to slot 0... but
 * slot 0 is written by thread 0, so the wrapping WQE is built separately, after a barrier). */
__host__ __device__ static int build_slot(uint8_t *ring, uint32_t t)
{
	struct opengda_mlx5_sq sq = {ring, LOG_WQEBBS, 0x1234u};
	const uint8_t ce = OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE;
	uint64_t raddr = 0x100000000ull + t * 64u, laddr = 0x7f0000000000ull + t * 8u;
	uint32_t rkey = 0xabc00u + t, lkey = 0xdef00u + t;
	uint8_t inl[28];
	uint16_t idx = (uint16_t)(0xff00u + t); /* wqe index >= the ring size: slot = idx & mask */
	uint32_t i;

	for (i = 0; i < sizeof(inl); i++)
		inl[i] = (uint8_t)(t + i);
	switch (t % 14u) {
	case 0: return opengda_mlx5_wqe_rdma_write(&sq, idx, ce, raddr, rkey, laddr, lkey, 4096);
	case 1: return opengda_mlx5_wqe_rdma_write_imm(&sq, idx, ce, raddr, rkey, laddr, lkey, 8, 0xcafe0000u + t);
	case 2: return opengda_mlx5_wqe_rdma_read(&sq, idx, ce, raddr, rkey, laddr, lkey, 64);
	case 3: return opengda_mlx5_wqe_rdma_write_inline(&sq, idx, ce, raddr, rkey, inl, 12);
	case 4: return opengda_mlx5_wqe_rdma_write_inline(&sq, idx, ce, raddr, rkey, inl, 28);
	case 5: return opengda_mlx5_wqe_send(&sq, idx, ce, laddr, lkey, 100);
	case 6: return opengda_mlx5_wqe_send_imm(&sq, idx, ce, laddr, lkey, 100, t);
	case 7: return opengda_mlx5_wqe_atomic_cs(&sq, idx, ce, raddr, rkey, 5, 6, laddr, lkey);
	case 8: return opengda_mlx5_wqe_atomic_fa(&sq, idx, ce, raddr, rkey, 7, laddr, lkey);
	case 9: return opengda_mlx5_wqe_masked_cs4(&sq, idx, ce, raddr, rkey, 1, 2, 0xff, 0xf0, laddr, lkey);
	case 10: return opengda_mlx5_wqe_masked_fa4(&sq, idx, ce, raddr, rkey, 3, 0x80000000u, laddr, lkey);
	case 11: return opengda_mlx5_wqe_masked_fa8(&sq, idx, ce, raddr, rkey, 3, 1ull << 63, laddr, lkey);
	case 12: return opengda_mlx5_wqe_dump(&sq, idx, OPENGDA_MLX5_WQE_CTRL_FM_FENCE | ce, laddr, lkey, 1);
	default: return opengda_mlx5_wqe_wait_cq(&sq, idx, ce, 0x77u + t, 0x55u);
	}
}

/* The 2-WQEBB masked CS at the last slot, wrapping into slot 0 (built after build_slot). */
__host__ __device__ static int build_wrap(uint8_t *ring)
{
	struct opengda_mlx5_sq sq = {ring, LOG_WQEBBS, 0x1234u};

	return opengda_mlx5_wqe_masked_cs8(&sq, 0xffffu, OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, 0x2000, 0x99, 1, 2, ~0ull,
					   ~0ull, 0x3000, 0x98);
}

__host__ __device__ static int build_cqe(uint8_t *cq, uint32_t pi)
{
	struct opengda_mlx5_cqe_fields f;

	memset(&f, 0, sizeof(f));
	f.opcode = (pi % 5u == 4u) ? (uint8_t)OPENGDA_MLX5_CQE_REQ_ERR : (uint8_t)OPENGDA_MLX5_CQE_REQ;
	f.wqe_opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
	f.syndrome = OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	f.wqe_counter = (uint16_t)pi;
	f.qpn = 0x1234u;
	f.user_index = pi;
	f.byte_cnt = pi * 3u;
	return opengda_mlx5_cqe_write(opengda_mlx5_cq_entry(cq, LOG_CQ, pi), &f,
				      opengda_mlx5_cqe_hw_owner(pi, LOG_CQ));
}

__host__ __device__ static void build_doorbells(uint64_t *db, uint32_t *dbr)
{
	db[0] = opengda_mlx5_qp_uar_db_value(0xfff0u, 0x1234u);
	db[1] = opengda_mlx5_cq_uar_arm_value(3, 0, 0x123456u, 0x77u);
	dbr[0] = opengda_mlx5_qp_dbr_value(0x1fff0u);
	dbr[1] = opengda_mlx5_cq_dbr_set_ci_value(0x1234567u);
}

__global__ void kernel_build(uint8_t *ring, uint8_t *cq, uint64_t *db, uint32_t *dbr, int *rc)
{
	uint32_t t = threadIdx.x;

	if (build_slot(ring, t) < 0)
		atomicExch(rc, 1);
	__syncthreads();
	if (t == 0) {
		uint32_t pi;

		if (build_wrap(ring) < 0)
			atomicExch(rc, 1);
		build_doorbells(db, dbr);
		/* A CQ has one producer, which writes its entries in order, as the NIC does. */
		for (pi = 0; pi < CQES_WRITTEN; pi++) {
			if (build_cqe(cq, pi) < 0)
				atomicExch(rc, 1);
		}
	}
}

/* The device sees as SW-owned exactly the entries of the last pass over the CQ. */
__global__ void kernel_ownership(const uint8_t *cq, uint32_t *owned_mask)
{
	uint32_t t = threadIdx.x;
	uint32_t ci = CQES_WRITTEN - (1u << LOG_CQ) + t; /* last pass */
	uint32_t stale = ci - (1u << LOG_CQ);            /* previous pass: must not be owned */
	const struct opengda_mlx5_cqe64 *cqe = opengda_mlx5_cq_entry((void *)cq, LOG_CQ, ci);

	if (opengda_mlx5_cqe_is_sw_owned(cqe, ci, LOG_CQ) && !opengda_mlx5_cqe_is_sw_owned(cqe, stale, LOG_CQ) &&
	    opengda_mlx5_cqe_wqe_counter(cqe) == (uint16_t)ci)
		atomicOr(owned_mask, 1u << t);
}

static int compare(const char *what, const uint8_t *dev, const uint8_t *host, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (dev[i] != host[i]) {
			fprintf(stderr, "%s differs at byte %zu: device 0x%02x host 0x%02x\n", what, i, dev[i],
				host[i]);
			return 1;
		}
	}
	printf("%-10s %6zu bytes identical on device and host\n", what, n);
	return 0;
}

int main(void)
{
	static uint8_t h_ring[RING_BYTES], d_ring_copy[RING_BYTES];
	static uint8_t h_cq[64u << LOG_CQ], d_cq_copy[64u << LOG_CQ];
	uint64_t h_db[DB_WORDS] = {0}, d_db_copy[DB_WORDS];
	uint32_t h_dbr[DB_WORDS] = {0}, d_dbr_copy[DB_WORDS];
	uint8_t *d_ring, *d_cq;
	uint64_t *d_db;
	uint32_t *d_dbr, *d_owned, owned = 0;
	int *d_rc, rc = 0, failures = 0, t, n = 0;
	cudaDeviceProp prop;

	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		fprintf(stderr, "no CUDA device\n");
		return 2;
	}
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

	/* host image */
	memset(h_ring, 0, sizeof(h_ring));
	for (t = 0; t < 256; t++)
		failures += build_slot(h_ring, (uint32_t)t) < 0;
	failures += build_wrap(h_ring) < 0;
	build_doorbells(h_db, h_dbr);

	/* device image */
	CHECK(cudaMalloc(&d_ring, RING_BYTES));
	CHECK(cudaMalloc(&d_cq, sizeof(h_cq)));
	CHECK(cudaMalloc(&d_db, sizeof(h_db)));
	CHECK(cudaMalloc(&d_dbr, sizeof(h_dbr)));
	CHECK(cudaMalloc(&d_rc, sizeof(int)));
	CHECK(cudaMalloc(&d_owned, sizeof(uint32_t)));
	CHECK(cudaMemset(d_ring, 0, RING_BYTES));
	CHECK(cudaMemset(d_db, 0, sizeof(h_db)));
	CHECK(cudaMemset(d_dbr, 0, sizeof(h_dbr)));
	CHECK(cudaMemset(d_rc, 0, sizeof(int)));
	CHECK(cudaMemset(d_owned, 0, sizeof(uint32_t)));
	{
		/* cq_init writes only op_own: both CQs start from the same bytes, then get the same CQEs */
		static uint8_t init[64u << LOG_CQ];
		memset(init, 0xf1, sizeof(init));
		opengda_mlx5_cq_init(init, LOG_CQ);
		CHECK(cudaMemcpy(d_cq, init, sizeof(init), cudaMemcpyHostToDevice));
		memcpy(h_cq, init, sizeof(init));
		for (t = 0; t < (int)CQES_WRITTEN; t++)
			failures += build_cqe(h_cq, (uint32_t)t) < 0;
	}
	kernel_build<<<1, 256>>>(d_ring, d_cq, d_db, d_dbr, d_rc);
	CHECK(cudaGetLastError());
	kernel_ownership<<<1, 1u << LOG_CQ>>>(d_cq, d_owned);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(d_ring_copy, d_ring, RING_BYTES, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(d_cq_copy, d_cq, sizeof(h_cq), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(d_db_copy, d_db, sizeof(h_db), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(d_dbr_copy, d_dbr, sizeof(h_dbr), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(&rc, d_rc, sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(&owned, d_owned, sizeof(owned), cudaMemcpyDeviceToHost));

	if (rc != 0 || failures != 0) {
		fprintf(stderr, "a recipe rejected its input (device rc %d, host failures %d)\n", rc, failures);
		return 1;
	}
	failures += compare("SQ ring", d_ring_copy, h_ring, RING_BYTES);
	failures += compare("CQ", d_cq_copy, h_cq, sizeof(h_cq));
	failures += compare("doorbells", (const uint8_t *)d_db_copy, (const uint8_t *)h_db, sizeof(h_db));
	failures += compare("DBR words", (const uint8_t *)d_dbr_copy, (const uint8_t *)h_dbr, sizeof(h_dbr));
	if (owned != (1u << (1u << LOG_CQ)) - 1u) {
		fprintf(stderr, "device ownership mask 0x%x, expected every entry of the last pass\n", owned);
		failures++;
	} else {
		printf("ownership  all %u CQEs of the 4th wrap owned by SW, none of the 3rd\n", 1u << LOG_CQ);
	}
	if (failures == 0)
		printf("queue formats: device and host agree\n");
	return failures ? 1 : 0;
}
