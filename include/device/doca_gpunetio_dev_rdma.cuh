/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_dev_rdma.cuh
 * @brief DOCA GPUNetIO RDMA high-level device functions (the names of DOCA's
 *        doca_gpunetio_dev_rdma.cuh), over the C core of ogda_dev_rdma.h. DOCA declares them extern
 *        in its static device library; here they are inline, so nothing needs linking.
 *
 * `conn` is the connection index (doca_rdma_connection_get_id; 0 with one connection). `imm` is
 * a 32-bit immediate in network byte order. Strong forms take their slot themselves and may be
 * called by any number of threads in any number of blocks (no block-only restriction: the shared
 * send-queue protocol orders them); weak forms take a caller-chosen `position` (get_info).
 * Errors: DOCA_ERROR_INVALID_VALUE (arguments), DOCA_ERROR_IO_FAILED (an error completion: its
 * syndrome from opengda_gpu_dev_rdma_last_error / _recv_last_error), DOCA_ERROR_TIME_OUT (the
 * context's wait bound passed). The opengda_ functions are OpenGDA's.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_DEV_RDMA_CUH
#define DOCA_GPUNETIO_DEV_RDMA_CUH

#include "doca_gpunetio_dev_buf.cuh"
#include "ogda_dev_rdma.h"

#define OGDA_RDMA_FN __device__ static __forceinline__ doca_error_t

/** RDMA write of @p length bytes from @p local + @p l_off to @p remote + @p r_off (IMM flag: with @p imm). */
OGDA_RDMA_FN doca_gpu_dev_rdma_write_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *remote,
					    uint64_t r_off, struct doca_gpu_buf *local, uint64_t l_off, size_t length,
					    uint32_t imm, const enum doca_gpu_dev_rdma_write_flags flags)
{
	return ogda_dev_rdma_xfer(rdma, conn, remote, r_off, local, l_off, length, imm, flags, 0, 0, 0);
}

/** As write_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_write_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *remote,
					  uint64_t r_off, struct doca_gpu_buf *local, uint64_t l_off, size_t length,
					  uint32_t imm, const enum doca_gpu_dev_rdma_write_flags flags, uint32_t position)
{
	return ogda_dev_rdma_xfer(rdma, conn, remote, r_off, local, l_off, length, imm, flags, 0, 1, position);
}

/** RDMA write of @p inl_len <= 28 bytes carried in the WQE. */
OGDA_RDMA_FN doca_gpu_dev_rdma_write_inline_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn,
						   struct doca_gpu_buf *remote, uint64_t r_off, uint8_t *inl_data,
						   uint32_t inl_len, uint32_t imm,
						   const enum doca_gpu_dev_rdma_write_flags flags)
{
	return ogda_dev_rdma_write_inl(rdma, conn, remote, r_off, inl_data, inl_len, imm, flags, 0, 0);
}

/** As write_inline_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_write_inline_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn,
						 struct doca_gpu_buf *remote, uint64_t r_off, uint8_t *inl_data,
						 uint32_t inl_len, uint32_t imm,
						 const enum doca_gpu_dev_rdma_write_flags flags, uint32_t position)
{
	return ogda_dev_rdma_write_inl(rdma, conn, remote, r_off, inl_data, inl_len, imm, flags, 1, position);
}

/** RDMA read of @p length bytes from @p remote + @p r_off into @p local + @p l_off. */
OGDA_RDMA_FN doca_gpu_dev_rdma_read_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *remote,
					   uint64_t r_off, struct doca_gpu_buf *local, uint64_t l_off, size_t length,
					   const uint32_t flags = 0)
{
	return ogda_dev_rdma_xfer(rdma, conn, remote, r_off, local, l_off, length, 0, flags, 1, 0, 0);
}

/** As read_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_read_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *remote,
					 uint64_t r_off, struct doca_gpu_buf *local, uint64_t l_off, size_t length,
					 const uint32_t flags, uint32_t position)
{
	return ogda_dev_rdma_xfer(rdma, conn, remote, r_off, local, l_off, length, 0, flags, 1, 1, position);
}

/** Send of @p length bytes at @p send_buf + @p off (IMM flag: with @p imm). */
OGDA_RDMA_FN doca_gpu_dev_rdma_send_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *send_buf,
					   uint64_t off, size_t length, uint32_t imm,
					   const enum doca_gpu_dev_rdma_send_flags flags)
{
	return ogda_dev_rdma_send(rdma, conn, send_buf, off, length, imm, flags, 0, 0);
}

/** As send_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_send_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, struct doca_gpu_buf *send_buf,
					 uint64_t off, size_t length, uint32_t imm,
					 const enum doca_gpu_dev_rdma_send_flags flags, uint32_t position)
{
	return ogda_dev_rdma_send(rdma, conn, send_buf, off, length, imm, flags, 1, position);
}

/** Send of @p inl_len <= 44 bytes carried in the WQE. */
OGDA_RDMA_FN doca_gpu_dev_rdma_send_inline_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint8_t *inl_data,
						  uint32_t inl_len, uint32_t imm,
						  const enum doca_gpu_dev_rdma_send_flags flags)
{
	return ogda_dev_rdma_send_inl(rdma, conn, inl_data, inl_len, imm, flags, 0, 0);
}

/** As send_inline_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_send_inline_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint8_t *inl_data,
						uint32_t inl_len, uint32_t imm,
						const enum doca_gpu_dev_rdma_send_flags flags, uint32_t position)
{
	return ogda_dev_rdma_send_inl(rdma, conn, inl_data, inl_len, imm, flags, 1, position);
}

/** Rings for every strong operation published on @p conn. */
OGDA_RDMA_FN doca_gpu_dev_rdma_commit_strong(struct doca_gpu_dev_rdma *rdma, uint32_t conn)
{
	return ogda_dev_rdma_commit_strong(rdma, conn);
}

/** Publishes the @p num_ops weak positions written on @p conn and rings. */
OGDA_RDMA_FN doca_gpu_dev_rdma_commit_weak(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint32_t num_ops)
{
	return ogda_dev_rdma_commit_weak(rdma, conn, num_ops);
}

/** Waits for every committed operation of every connection; @p num_commits: how many since the last call. */
OGDA_RDMA_FN doca_gpu_dev_rdma_wait_all(struct doca_gpu_dev_rdma *rdma, uint32_t *num_commits)
{
	return ogda_dev_rdma_wait_all(rdma, num_commits);
}

/** The next free position of @p conn and the mask positions wrap with (weak mode). */
OGDA_RDMA_FN doca_gpu_dev_rdma_get_info(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint32_t *curr_position,
					uint32_t *mask_max_position)
{
	return ogda_dev_rdma_get_info(rdma, conn, curr_position, mask_max_position);
}

/** The receive side of @p rdma. */
OGDA_RDMA_FN doca_gpu_dev_rdma_get_recv(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_dev_rdma_r **rdma_r)
{
	return ogda_dev_rdma_get_recv(rdma, rdma_r);
}

/** A receive of up to @p length bytes into @p recv_buf + @p offset (NULL and 0: a write with immediate). */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_strong(struct doca_gpu_dev_rdma_r *rdma_r, struct doca_gpu_buf *recv_buf,
					   size_t length, uint64_t offset, const uint32_t flags = 0)
{
	(void)flags;
	return ogda_dev_rdma_recv(rdma_r, recv_buf, length, offset, 0, 0);
}

/** As recv_strong, at @p position. */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_weak(struct doca_gpu_dev_rdma_r *rdma_r, struct doca_gpu_buf *recv_buf,
					 size_t length, uint64_t offset, const uint32_t flags, uint32_t position)
{
	(void)flags;
	return ogda_dev_rdma_recv(rdma_r, recv_buf, length, offset, 1, position);
}

/** Makes every strong receive visible to the NIC. */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_commit_strong(struct doca_gpu_dev_rdma_r *rdma_r)
{
	return ogda_dev_rdma_recv_commit_strong(rdma_r);
}

/** Publishes the @p num_ops weak receive positions and makes them visible to the NIC. */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_commit_weak(struct doca_gpu_dev_rdma_r *rdma_r, uint32_t num_ops)
{
	return ogda_dev_rdma_recv_commit_weak(rdma_r, num_ops);
}

/** Reports (B: after waiting for) the completed receives: count, immediates, connection indices. */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_wait_all(struct doca_gpu_dev_rdma_r *rdma_r,
					     const enum doca_gpu_dev_rdma_recv_wait_flags flags, uint32_t *num_ops,
					     uint32_t *imm_val = nullptr, uint32_t *conn_idx = nullptr)
{
	return ogda_dev_rdma_recv_wait_all(rdma_r, (uint32_t)flags, num_ops, imm_val, conn_idx);
}

/** The next free receive position and the mask (weak mode). */
OGDA_RDMA_FN doca_gpu_dev_rdma_recv_get_info(struct doca_gpu_dev_rdma_r *rdma_r, uint32_t *curr_position,
					     uint32_t *mask_max_position)
{
	return ogda_dev_rdma_recv_get_info(rdma_r, curr_position, mask_max_position);
}

/** OpenGDA: the syndrome of @p conn's first error completion (DOCA_ERROR_NOT_FOUND: none). */
OGDA_RDMA_FN opengda_gpu_dev_rdma_last_error(struct doca_gpu_dev_rdma *rdma, uint32_t conn, uint8_t *syndrome)
{
	return ogda_dev_rdma_last_error(rdma, conn, syndrome);
}

/** OpenGDA: the syndrome of the first failed receive (DOCA_ERROR_NOT_FOUND: none). */
OGDA_RDMA_FN opengda_gpu_dev_rdma_recv_last_error(struct doca_gpu_dev_rdma_r *rdma_r, uint8_t *syndrome)
{
	return ogda_dev_rdma_recv_last_error(rdma_r, syndrome);
}

#undef OGDA_RDMA_FN

#endif /* DOCA_GPUNETIO_DEV_RDMA_CUH */
