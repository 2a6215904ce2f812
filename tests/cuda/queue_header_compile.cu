/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check: every function of include/opengda_mlx5.h called from device code (and,
 * through the same __host__ __device__ body, from host code compiled as CUDA C++), so that
 * a construct the device cannot compile fails the build. Not run: there is no GPU here.
 */
#include <stdint.h>

#include "opengda_mlx5.h"

/* Calls every function once and folds the results into one value so nothing is dropped. */
__host__ __device__ static uint64_t exercise_opengda_mlx5(uint8_t *ring, struct opengda_mlx5_cqe64 *cq,
							  const uint8_t *payload)
{
	struct opengda_mlx5_sq sq;
	struct opengda_mlx5_cqe_fields f;
	struct opengda_mlx5_wqe_ctrl_seg *ctrl = (struct opengda_mlx5_wqe_ctrl_seg *)ring;
	uint8_t *seg = ring + 16;
	uint64_t acc = 0;
	uint64_t db;

	sq.ring = ring;
	sq.log_wqebbs = 4;
	sq.qpn = 0xabcd;

	/* byte order */
	acc += opengda_mlx5_bswap16(0x1234) + opengda_mlx5_bswap32(0x12345678u) + opengda_mlx5_bswap64(1);
	acc += opengda_mlx5_htobe16(1) + opengda_mlx5_htobe32(2) + opengda_mlx5_htobe64(3);
	acc += opengda_mlx5_be16toh(1) + opengda_mlx5_be32toh(2) + opengda_mlx5_be64toh(3);
	db = opengda_mlx5_pack_words(1, 2);
	acc += opengda_mlx5_first_word(db) + opengda_mlx5_second_word(db);

	/* helpers */
	acc += opengda_mlx5_wqebbs_from_ds(5) + opengda_mlx5_inline_ds(28);
	acc += (uint64_t)opengda_mlx5_masked_atomic_opmod(8) + (uint64_t)opengda_mlx5_fm_ce_se_valid(0x08);
	acc += (uint64_t)opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_FENCE, OPENGDA_MLX5_CE_ALWAYS, 1);
	opengda_mlx5_copy_bytes(ring + 512, payload, 8);

	/* segment encoders */
	acc += (uint64_t)opengda_mlx5_ctrl_seg_write(ctrl, 0, 1, OPENGDA_MLX5_OPCODE_SEND, 0xabcd, 4, 0x08, 0);
	opengda_mlx5_raddr_seg_write((struct opengda_mlx5_wqe_raddr_seg *)seg, 0x1000, 7);
	acc += (uint64_t)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)seg, 8, 7, 0x2000);
	acc += (uint64_t)opengda_mlx5_inline_seg_write(seg, payload, 12);
	acc += (uint64_t)opengda_mlx5_inline_seg_write_ring(ring, 1024, 1008, payload, 20);
	opengda_mlx5_atomic_seg_write_cs((struct opengda_mlx5_wqe_atomic_seg *)seg, 1, 2);
	opengda_mlx5_atomic_seg_write_fa((struct opengda_mlx5_wqe_atomic_seg *)seg, 3);
	opengda_mlx5_masked_cs4_seg_write((struct opengda_mlx5_wqe_masked_cs4_seg *)seg, 1, 2, 3, 4);
	opengda_mlx5_masked_cs8_seg_write((struct opengda_mlx5_wqe_masked_cs8_seg *)seg, 1, 2, 3, 4);
	opengda_mlx5_masked_fa4_seg_write((struct opengda_mlx5_wqe_masked_fa4_seg *)seg, 1, 2);
	opengda_mlx5_masked_fa8_seg_write((struct opengda_mlx5_wqe_masked_fa8_seg *)seg, 1, 2);
	acc += (uint64_t)opengda_mlx5_wait_cq_seg_write((struct opengda_mlx5_wqe_wait_cq_seg *)seg, 5, 6);
	opengda_mlx5_wait_data_seg_write((struct opengda_mlx5_wqe_wait_data_seg *)seg, OPENGDA_MLX5_WAIT_COND_EQUAL, 7,
					 0x3000, 1, 2);
	acc += (uint64_t)opengda_mlx5_wqe_signature(ring, 64);

	/* send queue addressing and recipes */
	acc += opengda_mlx5_sq_bytes(&sq);
	acc += (uint64_t)(uintptr_t)opengda_mlx5_sq_wqebb(&sq, 3);
	acc += (uint64_t)(uintptr_t)opengda_mlx5_sq_seg(&sq, 3, 1);
	acc += (uint64_t)opengda_mlx5_sq_check(&sq, 3, 0x08);
	acc += (uint64_t)opengda_mlx5_wqe_rdma_sge(&sq, 0, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0x08, 0, 1, 2, 3, 4, 5);
	acc += (uint64_t)opengda_mlx5_wqe_rdma_write(&sq, 1, 0x08, 1, 2, 3, 4, 5);
	acc += (uint64_t)opengda_mlx5_wqe_rdma_write_imm(&sq, 2, 0x08, 1, 2, 3, 4, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_rdma_read(&sq, 3, 0x08, 1, 2, 3, 4, 5);
	acc += (uint64_t)opengda_mlx5_wqe_rdma_write_inline(&sq, 15, 0x08, 1, 2, payload, 100);
	acc += (uint64_t)opengda_mlx5_wqe_ctrl_data(&sq, 4, OPENGDA_MLX5_OPCODE_SEND, 0x08, 0, 3, 4, 5);
	acc += (uint64_t)opengda_mlx5_wqe_send(&sq, 5, 0x08, 3, 4, 5);
	acc += (uint64_t)opengda_mlx5_wqe_send_imm(&sq, 6, 0x08, 3, 4, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_dump(&sq, 7, OPENGDA_MLX5_WQE_CTRL_FM_FENCE, 3, 4, 1);
	opengda_mlx5_wqe_atomic_head(&sq, 8, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 0, 4, 0x08, 1, 2);
	acc += (uint64_t)opengda_mlx5_wqe_atomic_cs(&sq, 8, 0x08, 1, 2, 3, 4, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_atomic_fa(&sq, 9, 0x08, 1, 2, 3, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_masked_cs4(&sq, 10, 0x08, 1, 2, 3, 4, 5, 6, 7, 8);
	acc += (uint64_t)opengda_mlx5_wqe_masked_cs8(&sq, 11, 0x08, 1, 2, 3, 4, 5, 6, 7, 8);
	acc += (uint64_t)opengda_mlx5_wqe_masked_fa4(&sq, 13, 0x08, 1, 2, 3, 4, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_masked_fa8(&sq, 14, 0x08, 1, 2, 3, 4, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_wait_cq(&sq, 0, 0x08, 5, 6);
	acc += (uint64_t)opengda_mlx5_wqe_nop(&sq, 1, 0x08, 2);

	/* segment accessors */
	acc += opengda_mlx5_ctrl_opcode(ctrl) + opengda_mlx5_ctrl_opmod(ctrl) + opengda_mlx5_ctrl_wqe_index(ctrl);
	acc += opengda_mlx5_ctrl_qpn(ctrl) + opengda_mlx5_ctrl_ds(ctrl) + opengda_mlx5_ctrl_ds_byte(ctrl);
	acc += opengda_mlx5_ctrl_fence(ctrl) + opengda_mlx5_ctrl_ce(ctrl) + opengda_mlx5_ctrl_se(ctrl);
	acc += opengda_mlx5_ctrl_imm(ctrl);
	acc += (uint64_t)opengda_mlx5_seg_is_inline(((const struct opengda_mlx5_wqe_inl_data_seg *)seg)->byte_count);
	acc += opengda_mlx5_inline_len((const struct opengda_mlx5_wqe_inl_data_seg *)seg);
	acc += opengda_mlx5_data_seg_byte_count((const struct opengda_mlx5_wqe_data_seg *)seg);
	acc += opengda_mlx5_data_seg_lkey((const struct opengda_mlx5_wqe_data_seg *)seg);
	acc += opengda_mlx5_data_seg_addr((const struct opengda_mlx5_wqe_data_seg *)seg);
	acc += opengda_mlx5_raddr_seg_raddr((const struct opengda_mlx5_wqe_raddr_seg *)seg);
	acc += opengda_mlx5_raddr_seg_rkey((const struct opengda_mlx5_wqe_raddr_seg *)seg);
	acc += opengda_mlx5_atomic_seg_swap_add((const struct opengda_mlx5_wqe_atomic_seg *)seg);
	acc += opengda_mlx5_atomic_seg_compare((const struct opengda_mlx5_wqe_atomic_seg *)seg);
	acc += opengda_mlx5_wait_cq_seg_max_index((const struct opengda_mlx5_wqe_wait_cq_seg *)seg);
	acc += opengda_mlx5_wait_cq_seg_cqn((const struct opengda_mlx5_wqe_wait_cq_seg *)seg);

	/* CQEs */
	acc += (uint64_t)opengda_mlx5_cq_init(cq, 2);
	f.opcode = OPENGDA_MLX5_CQE_REQ;
	f.wqe_opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
	f.se = 0;
	f.syndrome = 0;
	f.vendor_syndrome = 0;
	f.hw_syndrome = 0;
	f.hw_syndrome_type = 0;
	f.wqe_counter = 1;
	f.qpn = 0xabcd;
	f.user_index = 0;
	f.byte_cnt = 8;
	f.imm = 0;
	f.timestamp = 0;
	f.inline_data = 0;
	f.inline_len = 0;
	acc += (uint64_t)opengda_mlx5_cqe_write(opengda_mlx5_cq_entry(cq, 2, 0), &f, opengda_mlx5_cqe_hw_owner(0, 2));
	opengda_mlx5_cqe_publish_op_own(&cq[1], 0xd0);
	opengda_mlx5_cqe_read(&cq[0], &f);
	acc += f.byte_cnt;
	acc += opengda_mlx5_op_own_opcode(cq[0].op_own) + opengda_mlx5_cqe_opcode(cq) + opengda_mlx5_cqe_format(cq);
	acc += opengda_mlx5_cqe_se(cq) + opengda_mlx5_cqe_owner(cq) + opengda_mlx5_cqe_wqe_counter(cq);
	acc += opengda_mlx5_cqe_byte_cnt(cq) + opengda_mlx5_cqe_qpn(cq) + opengda_mlx5_cqe_wqe_opcode(cq);
	acc += opengda_mlx5_cqe_user_index(cq) + opengda_mlx5_cqe_imm(cq) + opengda_mlx5_cqe_timestamp(cq);
	acc += (uint64_t)opengda_mlx5_cqe_is_error(&cq[1]) + opengda_mlx5_cqe_syndrome(&cq[1]);
	acc += opengda_mlx5_cqe_vendor_syndrome(&cq[1]) + opengda_mlx5_cqe_hw_syndrome(&cq[1]);
	acc += opengda_mlx5_cqe_hw_syndrome_type(&cq[1]);
	acc += opengda_mlx5_cqe_owner_expected(5, 2) + (uint64_t)opengda_mlx5_op_own_is_sw_owned(0x01, 4, 2);
	acc += (uint64_t)opengda_mlx5_cqe_is_sw_owned(cq, 0, 2);

	/* counters */
	acc += opengda_mlx5_sq_pi_advance(0xffff, 5) + opengda_mlx5_wqe_counter_distance(0xfff0, 0x10);
	acc += (uint64_t)opengda_mlx5_wqe_index_retired(1, 0xffff, 0xfffe) + opengda_mlx5_cq_ci_next(0xffffff);

	/* doorbells */
	acc += opengda_mlx5_qp_dbr_value(0x12345) + opengda_mlx5_cq_dbr_set_ci_value(7);
	acc += opengda_mlx5_cq_arm_word(1, 0, 7) + opengda_mlx5_cq_dbr_arm_value(1, 1, 7);
	db = opengda_mlx5_cq_uar_arm_value(1, 0, 7, 0x12);
	acc += opengda_mlx5_cq_uar_arm_word(db) + opengda_mlx5_cq_uar_arm_cqn(db);
	db = opengda_mlx5_qp_uar_db_value(0x10, 0xabcd) ^ opengda_mlx5_qp_uar_db_from_ctrl(ctrl);
	acc += opengda_mlx5_qp_uar_db_wqe_index(db) + opengda_mlx5_qp_uar_db_qpn(db);
	acc += (uint64_t)opengda_mlx5_uar_bf_offset(1, 512, 1);
	return acc;
}

__global__ void queue_header_kernel(uint8_t *ring, struct opengda_mlx5_cqe64 *cq, const uint8_t *payload,
				    uint64_t *out)
{
	out[threadIdx.x] = exercise_opengda_mlx5(ring, cq, payload);
}

/* Host code compiled by nvcc as C++ calls the same body. */
uint64_t queue_header_host(uint8_t *ring, struct opengda_mlx5_cqe64 *cq, const uint8_t *payload)
{
	return exercise_opengda_mlx5(ring, cq, payload);
}
