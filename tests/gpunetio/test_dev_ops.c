/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The thread-scope operations of include/device/ogda_dev_ops.h on host threads against the
 * software NIC, for every NIC handler and doorbell-record mode a host handle can drive:
 * bytes that land, remote and fetched values, CQE fields, tickets, the three indices and the
 * doorbell words each mode writes.
 */
#include "dev_fixture.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define SHARE_X OGDA_DEV_SHARE_EXCLUSIVE
#define SHARE_G OGDA_DEV_SHARE_GPU
#define MIB (1u << 20)
/* Offsets in the fixture's 2 MiB buffers. */
#define SIG_OFF (MIB + 4096u)   /* remote signal / counter words */
#define OLD_OFF (MIB + 8192u)   /* local words fetched atomics return into */
#define P_OFF (MIB + 16384u)    /* remote area of the inline writes */

static struct dfx_lane *lane0(struct dfx *f)
{
	return &f->lane[0];
}

static bool valid_dbr(const struct dfx *f)
{
	return f->cfg.dbr_mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW;
}

/* The handler export must have chosen for the fixture's request. */
static enum doca_gpu_dev_verbs_nic_handler expected_handler(const struct dfx *f)
{
	if (f->cfg.handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY)
		return DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY;
	if (f->cfg.dbr_mode != DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR)
		return DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR;
	return f->cfg.handler;
}

/* Every index equals pi: nothing reserved, unpublished or unrung. */
static void assert_indices(const struct doca_gpu_dev_verbs_qp *qp, uint64_t pi)
{
	assert_int_equal(qp->sq_rsvd_index, pi);
	assert_int_equal(qp->sq_ready_index, pi);
	assert_int_equal(qp->sq_wqe_pi, pi);
}

/*
 * What the doorbell path left behind once WQEs up to pi (excluding) completed: the record
 * (BE32(pi & 0xffff)) in every mode that has one, the register / mailbox value.
 */
static void assert_rung(struct dfx *f, uint64_t pi, bool single_wqebb)
{
	struct dfx_lane *l = lane0(f);
	struct doca_gpu_dev_verbs_qp *qp = l->dqp;
	enum doca_gpu_dev_verbs_nic_handler h = qp->nic_handler;
	uint64_t reg;

	if (valid_dbr(f))
		assert_true(dfx_wait_dbr(f, l, pi)); /* emulated: the service keeps it, so it may lag */
	if (h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY) {
		void *uar = NULL;

		assert_int_equal(__atomic_load_n(qp->ogda_pi_mailbox, __ATOMIC_ACQUIRE), pi);
		assert_ptr_equal(qp->sq_db, qp->ogda_pi_mailbox);
		if (valid_dbr(f)) {
			assert_int_equal(doca_verbs_qp_get_uar_addr(l->qp_a, &uar), DOCA_SUCCESS);
			assert_int_equal(__atomic_load_n((uint64_t *)uar, __ATOMIC_ACQUIRE),
					 opengda_mlx5_qp_uar_db_value((uint16_t)pi, l->qpn_a));
		}
		return;
	}
	reg = __atomic_load_n(qp->sq_db, __ATOMIC_ACQUIRE);
	if (h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF && single_wqebb) {
		/* BlueFlame: the whole 64-byte WQE went to the register, its ctrl word first. */
		assert_memory_equal(qp->sq_db, dfx_ctrl(qp, pi - 1), 64);
		return;
	}
	assert_int_equal(reg, ogda_dev_sq_db_value(qp, pi));
	assert_int_equal(reg, opengda_mlx5_qp_uar_db_value((uint16_t)pi, l->qpn_a));
}

/* The requester CQE of WQE idx: successful, for this QP, of the WQE's opcode and length. */
static void assert_cqe(const struct doca_gpu_dev_verbs_qp *qp, uint64_t idx, uint8_t wqe_opcode, uint32_t bytes)
{
	struct opengda_mlx5_cqe_fields c;

	opengda_mlx5_cqe_read(dfx_cqe(qp, idx), &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_counter, (uint16_t)idx);
	assert_int_equal(c.qpn, qp->sq_num);
	assert_int_equal(c.wqe_opcode, wqe_opcode);
	assert_int_equal(c.byte_cnt, bytes);
}

static uint64_t *word(struct dfx_buf *b, size_t off)
{
	return (uint64_t *)(void *)(b->addr + off);
}

/* ---- export ------------------------------------------------------------------------------- */

static void test_export_view(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	enum doca_gpu_dev_verbs_nic_handler h = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
	bool gpu_writes_record;

	assert_int_equal(opengda_gpu_verbs_qp_get_nic_handler(lane0(f)->gqp, &h), DOCA_SUCCESS);
	assert_int_equal(h, expected_handler(f));
	assert_int_equal(qp->nic_handler, expected_handler(f));
	assert_int_equal(qp->send_dbr_mode_ext, f->cfg.dbr_mode);
	gpu_writes_record = h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB || h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF;
	assert_int_equal(qp->sq_dbrec != NULL, gpu_writes_record);
	if (gpu_writes_record)
		assert_ptr_equal(qp->sq_dbrec, &lane0(f)->dbr[OPENGDA_MLX5_SND_DBR]);
	assert_int_equal(qp->ogda_pi_mailbox != NULL,
			 h == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY ||
				 f->cfg.dbr_mode == DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED);
	assert_int_equal(qp->sq_num_shift8_be, opengda_mlx5_htobe32(lane0(f)->qpn_a << 8));
	assert_int_equal(qp->sq_wqe_mask, qp->sq_wqe_num - 1);
	assert_int_equal(1u << qp->sq_log_wqe_num, qp->sq_wqe_num);
	assert_int_equal(qp->cq_sq.cqe_num, f->cfg.cq_entries);
	assert_int_equal(qp->cq_sq.cqe_size, 64);
	assert_int_equal(qp->cq_sq.cqe_ci, 0);
	assert_int_equal(qp->cq_sq.ogda_first_error, 0);
	/* The record starts at zero and nothing has rung yet. */
	if (valid_dbr(f))
		assert_int_equal(dfx_sq_dbr(lane0(f)), 0);
	/* Waiting on a fresh QP has nothing to wait for. */
	assert_int_equal(ogda_dev_op_wait_all(qp, SHARE_G), 0);
}

/* ---- put ---------------------------------------------------------------------------------- */

static void test_put_sizes(void **state)
{
	static const uint64_t sizes[] = {0, 1, 64, 4096, MIB};
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t expect_ticket = 0;

	for (int pass = 0; pass < 2; pass++) {
		int sharing = pass == 0 ? SHARE_X : SHARE_G;
		/* AUTO: device code reads the handler from the QP; else the caller names it. */
		uint32_t handler = pass == 0 ? (uint32_t)qp->nic_handler : DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;

		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			uint64_t size = sizes[k], ticket = UINT64_MAX;
			uint32_t seed = (uint32_t)(pass * 16 + k + 1);

			dfx_fill(f->src.addr, size, seed);
			memset(f->remote.addr, 0x33, size + 64);
			assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), size, sharing,
							 handler, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT, &ticket),
					 0);
			assert_int_equal(ticket, expect_ticket);
			/* The call published and rang its WQE itself. */
			assert_int_equal(qp->sq_rsvd_index, ticket + 1);
			assert_int_equal(qp->sq_ready_index, ticket + 1);
			assert_int_equal(qp->sq_wqe_pi, ticket + 1);
			assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, ticket)), OPENGDA_MLX5_OPCODE_RDMA_WRITE);
			assert_int_equal(opengda_mlx5_ctrl_wqe_index(dfx_ctrl(qp, ticket)), (uint16_t)ticket);
			assert_int_equal(ogda_dev_op_wait(qp, ticket, sharing), 0);
			assert_int_equal(qp->cq_sq.cqe_ci, ticket + 1);
			assert_int_equal(dfx_check(f->remote.addr, size, seed), -1);
			assert_true(dfx_all(f->remote.addr + size, 64, 0x33));
			assert_cqe(qp, ticket, OPENGDA_MLX5_OPCODE_RDMA_WRITE, (uint32_t)size);
			assert_indices(qp, ticket + 1);
			assert_rung(f, ticket + 1, true);
			expect_ticket++;
		}
	}
}

/* ---- p ------------------------------------------------------------------------------------ */

static void test_p(void **state)
{
	static const uint32_t lens[] = {1, 2, 4, 8};
	static const uint8_t data[8] = {0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0x07, 0x18};
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);

	memset(f->remote.addr + P_OFF, 0x33, 256);
	for (uint32_t k = 0; k < 4; k++) {
		uint64_t ticket = UINT64_MAX;
		uint8_t *dst = f->remote.addr + P_OFF + 16u * k;
		const struct opengda_mlx5_wqe_inl_data_seg *inl;

		assert_int_equal(ogda_dev_op_p(qp, dfx_raddr(&f->remote, P_OFF + 16u * k), data, lens[k], SHARE_G,
					       DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
				 0);
		assert_int_equal(ticket, k);
		/* Inline: the payload travels in the WQE (header at byte 32). */
		inl = (const struct opengda_mlx5_wqe_inl_data_seg *)(const void *)((const uint8_t *)dfx_ctrl(qp, ticket) + 32);
		assert_int_equal(opengda_mlx5_inline_len(inl), lens[k]);
		assert_memory_equal((const uint8_t *)inl + 4, data, lens[k]);
		assert_int_equal(opengda_mlx5_ctrl_ds(dfx_ctrl(qp, ticket)), 3);
		assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_G), 0);
		assert_memory_equal(dst, data, lens[k]);
		assert_true(dfx_all(dst + lens[k], 16 - lens[k], 0x33));
		assert_cqe(qp, ticket, OPENGDA_MLX5_OPCODE_RDMA_WRITE, lens[k]);
		assert_indices(qp, ticket + 1);
		assert_rung(f, ticket + 1, true);
	}
}

/* ---- signals ------------------------------------------------------------------------------ */

struct sig_watch {
	const uint64_t *sig;
	uint64_t before;
	const uint8_t *data;
	size_t len;
	uint32_t seed;
	uint64_t timeout_ns;
	long bad;     /* first byte of data not yet right when the signal moved; -1 = none */
	int saw;      /* the signal moved within the timeout */
};

/* Spins until the signal moves, then checks that the data it guards is all there. */
static void *watch_main(void *arg)
{
	struct sig_watch *w = arg;
	uint64_t end = dfx_now_ns() + w->timeout_ns;

	while (__atomic_load_n(w->sig, __ATOMIC_ACQUIRE) == w->before) {
		if (dfx_now_ns() > end)
			return NULL;
		sched_yield();
	}
	w->saw = 1;
	w->bad = dfx_check(w->data, w->len, w->seed);
	return NULL;
}

static void test_put_signal(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t *sig = word(&f->remote, SIG_OFF), *old = word(&f->dst, OLD_OFF);
	struct sig_watch w = {sig, 100, f->remote.addr, MIB, 77, f->cfg.timeout_ns, 0, 0};
	uint64_t ticket = UINT64_MAX;
	pthread_t th;

	*sig = 100;
	*old = 0xdeadbeef;
	dfx_fill(f->src.addr, MIB, 77);
	memset(f->remote.addr, 0x33, MIB);
	assert_int_equal(pthread_create(&th, NULL, watch_main, &w), 0);
	assert_int_equal(ogda_dev_op_put_signal(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), MIB,
						dfx_raddr(&f->remote, SIG_OFF), dfx_laddr(&f->dst, OLD_OFF), 5, SHARE_G,
						DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
			 0);
	/* Two WQEs: the write, then the fetch-and-add; the ticket is the last. */
	assert_int_equal(ticket, 1);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 0)), OPENGDA_MLX5_OPCODE_RDMA_WRITE);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 1)), OPENGDA_MLX5_OPCODE_ATOMIC_FA);
	assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_G), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(w.saw, 1);
	assert_int_equal(w.bad, -1); /* the data had landed when the signal moved */
	assert_int_equal(*sig, 105);
	assert_int_equal(*old, 100); /* the value before the add, in host order */
	assert_int_equal(dfx_check(f->remote.addr, MIB, 77), -1);
	assert_cqe(qp, 0, OPENGDA_MLX5_OPCODE_RDMA_WRITE, MIB);
	assert_cqe(qp, 1, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8);
	assert_indices(qp, 2);
	assert_rung(f, 2, false);
}

static void test_p_signal(void **state)
{
	static const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t *sig = word(&f->remote, SIG_OFF), *old = word(&f->dst, OLD_OFF);
	uint64_t ticket = UINT64_MAX;

	*sig = 7;
	*old = 0;
	memset(f->remote.addr + P_OFF, 0x33, 16);
	assert_int_equal(ogda_dev_op_p_signal(qp, dfx_raddr(&f->remote, P_OFF), data, 8, dfx_raddr(&f->remote, SIG_OFF),
					      dfx_laddr(&f->dst, OLD_OFF), 3, SHARE_X, (uint32_t)qp->nic_handler, 0,
					      &ticket),
			 0);
	assert_int_equal(ticket, 1);
	assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_X), 0);
	assert_memory_equal(f->remote.addr + P_OFF, data, 8);
	assert_true(dfx_all(f->remote.addr + P_OFF + 8, 8, 0x33));
	assert_int_equal(*sig, 10);
	assert_int_equal(*old, 7);
	assert_cqe(qp, 0, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 8);
	assert_cqe(qp, 1, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8);
	assert_indices(qp, 2);
	assert_rung(f, 2, false);
}

static void test_signal_accumulates(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t *sig = word(&f->remote, SIG_OFF);
	uint64_t ticket = UINT64_MAX, sum = 0;

	*sig = 1000;
	for (uint64_t k = 0; k < 10; k++) {
		*word(&f->dst, OLD_OFF + 8 * k) = UINT64_MAX;
		assert_int_equal(ogda_dev_op_signal(qp, dfx_raddr(&f->remote, SIG_OFF), dfx_laddr(&f->dst, OLD_OFF + 8 * k),
						    k + 1, SHARE_G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
				 0);
		assert_int_equal(ticket, k);
	}
	assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_G), 0);
	assert_int_equal(*sig, 1000 + 55);
	for (uint64_t k = 0; k < 10; k++) {
		/* Each add saw every earlier one: its old value is 1000 + 1 + ... + k. */
		assert_int_equal(*word(&f->dst, OLD_OFF + 8 * k), 1000 + sum);
		assert_cqe(qp, k, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8);
		sum += k + 1;
	}
	assert_indices(qp, 10);
	assert_rung(f, 10, true);
}

/* ---- get ---------------------------------------------------------------------------------- */

static void test_get(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	const struct opengda_mlx5_wqe_data_seg *dseg;
	uint64_t ticket = UINT64_MAX;

	/* No DUMP (MCST_DISABLED): the read alone, one WQE. */
	dfx_fill(f->remote.addr, 4096, 5);
	memset(f->dst.addr, 0x22, 4096 + 64);
	assert_int_equal(ogda_dev_get_nwqe(4096, 0), 1);
	assert_int_equal(ogda_dev_op_get(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0), 4096, 0, SHARE_G,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket),
			 0);
	assert_int_equal(ticket, 0);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 0)), OPENGDA_MLX5_OPCODE_RDMA_READ);
	assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_G), 0);
	assert_int_equal(dfx_check(f->dst.addr, 4096, 5), -1);
	assert_true(dfx_all(f->dst.addr + 4096, 64, 0x22));
	assert_cqe(qp, 0, OPENGDA_MLX5_OPCODE_RDMA_READ, 4096);
	assert_indices(qp, 1);
	assert_rung(f, 1, true);

	/* DUMP (MCST_ENABLED): the read, then a one-byte DUMP; the ticket is the DUMP's. */
	dfx_fill(f->remote.addr, MIB, 6);
	memset(f->dst.addr, 0x22, MIB + 64);
	assert_int_equal(ogda_dev_get_nwqe(MIB, 1), 2);
	assert_int_equal(ogda_dev_op_get(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0), MIB, 1, SHARE_X,
					 (uint32_t)qp->nic_handler, 0, &ticket),
			 0);
	assert_int_equal(ticket, 2);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 1)), OPENGDA_MLX5_OPCODE_RDMA_READ);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 2)), OPENGDA_MLX5_OPCODE_DUMP);
	assert_int_equal(opengda_mlx5_ctrl_ds(dfx_ctrl(qp, 2)), 2);
	dseg = (const struct opengda_mlx5_wqe_data_seg *)(const void *)((const uint8_t *)dfx_ctrl(qp, 2) + 16);
	assert_int_equal(opengda_mlx5_data_seg_byte_count(dseg), 1);
	assert_int_equal(opengda_mlx5_data_seg_lkey(dseg), f->dst.lkey);
	assert_int_equal(opengda_mlx5_data_seg_addr(dseg), (uint64_t)(uintptr_t)f->dst.addr);
	assert_int_equal(ogda_dev_op_wait(qp, ticket, SHARE_X), 0);
	assert_int_equal(dfx_check(f->dst.addr, MIB, 6), -1);
	assert_true(dfx_all(f->dst.addr + MIB, 64, 0x22));
	assert_cqe(qp, 1, OPENGDA_MLX5_OPCODE_RDMA_READ, MIB);
	assert_cqe(qp, 2, OPENGDA_MLX5_OPCODE_DUMP, 0);
	assert_indices(qp, 3);
	assert_rung(f, 3, false);
}

/* ---- waits -------------------------------------------------------------------------------- */

static void test_wait_all(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t tickets[5];

	for (uint32_t k = 0; k < 5; k++) {
		dfx_fill(f->src.addr + 512u * k, 512, 40 + k);
		memset(f->remote.addr + 512u * k, 0x33, 512);
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 512u * k), dfx_laddr(&f->src, 512u * k), 512,
						 SHARE_G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &tickets[k]),
				 0);
		assert_int_equal(tickets[k], k); /* consecutive operations, consecutive tickets */
	}
	assert_int_equal(ogda_dev_op_wait_all(qp, SHARE_G), 0);
	assert_int_equal(qp->cq_sq.cqe_ci, 5);
	for (uint32_t k = 0; k < 5; k++) {
		assert_int_equal(dfx_check(f->remote.addr + 512u * k, 512, 40 + k), -1);
		/* Earlier tickets are done too, answered from the consumer index. */
		assert_int_equal(ogda_dev_op_wait(qp, tickets[k], SHARE_G), 0);
		assert_int_equal(ogda_dev_cq_poll_one_at(&qp->cq_sq, tickets[k], SHARE_G), 0);
		assert_cqe(qp, k, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 512);
	}
	assert_indices(qp, 5);
	assert_rung(f, 5, true);
}

/* ---- fence -------------------------------------------------------------------------------- */

static void test_fence(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint64_t get_t = UINT64_MAX, put_t = UINT64_MAX;

	/* Read X, fence, overwrite X: the read returns the old bytes, X ends with the new ones. */
	dfx_fill(f->remote.addr, 4096, 91);
	dfx_fill(f->src.addr, 4096, 92);
	memset(f->dst.addr, 0x22, 4096);
	assert_int_equal(ogda_dev_op_get(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->dst, 0), 4096, 0, SHARE_G,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &get_t),
			 0);
	assert_int_equal(ogda_dev_op_fence(qp, SHARE_G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0), 0);
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 4096, SHARE_G,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &put_t),
			 0);
	assert_int_equal(get_t, 0);
	assert_int_equal(put_t, 2);
	/* The fence is a signaled NOP with fence mode FENCE: fm_ce_se 0x48, one segment. */
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(qp, 1)), OPENGDA_MLX5_OPCODE_NOP);
	assert_int_equal(dfx_ctrl(qp, 1)->fm_ce_se, 0x48);
	assert_int_equal(opengda_mlx5_ctrl_fence(dfx_ctrl(qp, 1)), 2);
	assert_int_equal(opengda_mlx5_ctrl_ds(dfx_ctrl(qp, 1)), 1);
	assert_int_equal(ogda_dev_op_wait(qp, put_t, SHARE_G), 0);
	assert_int_equal(dfx_check(f->dst.addr, 4096, 91), -1);
	assert_int_equal(dfx_check(f->remote.addr, 4096, 92), -1);
	assert_cqe(qp, 0, OPENGDA_MLX5_OPCODE_RDMA_READ, 4096);
	assert_cqe(qp, 1, OPENGDA_MLX5_OPCODE_NOP, 0);
	assert_cqe(qp, 2, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 4096);
	assert_indices(qp, 3);
	assert_rung(f, 3, true);
}

/* ---- counters (core-direct companion) ------------------------------------------------------- */

static void test_counter(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0), *cp = dfx_comp(f);
	uint64_t *counter = word(&f->remote, SIG_OFF);
	const uint8_t *wait_seg;
	uint64_t t = UINT64_MAX;
	uint32_t v;

	*counter = 0;
	dfx_fill(f->src.addr, 4096, 13);
	memset(f->remote.addr, 0x33, 4096);
	/* The put is published but not rung: the companion's WAIT must hold the counter back. */
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 0), dfx_laddr(&f->src, 0), 4096, SHARE_G,
					 DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING, &t),
			 0);
	assert_int_equal(t, 0);
	assert_int_equal(qp->sq_ready_index, 1);
	assert_int_equal(qp->sq_wqe_pi, 0);
	assert_int_equal(ogda_dev_op_counter(cp, qp, t, dfx_raddr(&f->remote, SIG_OFF), dfx_laddr(&f->dst, OLD_OFF), 7,
					     SHARE_G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0),
			 0);
	assert_int_equal(cp->sq_rsvd_index, 2);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(cp, 0)), OPENGDA_MLX5_OPCODE_WAIT);
	assert_int_equal(opengda_mlx5_ctrl_opcode(dfx_ctrl(cp, 1)), OPENGDA_MLX5_OPCODE_ATOMIC_FA);
	wait_seg = (const uint8_t *)dfx_ctrl(cp, 0) + 16;
	memcpy(&v, wait_seg + 8, 4);
	assert_int_equal(opengda_mlx5_be32toh(v), t + qp->cq_sq.cqe_rsvd); /* max_index */
	memcpy(&v, wait_seg + 12, 4);
	assert_int_equal(opengda_mlx5_be32toh(v), qp->cq_sq.cq_num);
	dfx_sleep_ms(30);
	assert_int_equal(ogda_dev_cq_poll_one_at(&cp->cq_sq, 0, SHARE_G), OPENGDA_DEV_EBUSY);
	assert_int_equal(__atomic_load_n(counter, __ATOMIC_ACQUIRE), 0);
	assert_true(dfx_all(f->remote.addr, 4096, 0x33));

	ogda_dev_sq_submit(qp, t + 1, SHARE_G, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	assert_int_equal(ogda_dev_op_wait_all(cp, SHARE_G), 0);
	assert_int_equal(*counter, 7);
	assert_int_equal(dfx_check(f->remote.addr, 4096, 13), -1); /* landed before the count */
	assert_int_equal(ogda_dev_op_wait(qp, t, SHARE_G), 0);
	assert_cqe(cp, 0, OPENGDA_MLX5_OPCODE_WAIT, 0);
	assert_cqe(cp, 1, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 8);

	/* A second put counted: the remote counter is the sum. */
	dfx_fill(f->src.addr + 4096, 4096, 14);
	assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, 4096), dfx_laddr(&f->src, 4096), 4096, SHARE_X,
					 (uint32_t)qp->nic_handler, 0, &t),
			 0);
	assert_int_equal(t, 1);
	assert_int_equal(ogda_dev_op_counter(cp, qp, t, dfx_raddr(&f->remote, SIG_OFF), dfx_laddr(&f->dst, OLD_OFF), 9,
					     SHARE_X, (uint32_t)cp->nic_handler, 0),
			 0);
	assert_int_equal(ogda_dev_op_wait_all(cp, SHARE_X), 0);
	assert_int_equal(*counter, 16);
	assert_int_equal(*word(&f->dst, OLD_OFF), 7);
	assert_int_equal(dfx_check(f->remote.addr + 4096, 4096, 14), -1);
	assert_indices(qp, 2);
	assert_indices(cp, 4);
}

/* ---- configurations ----------------------------------------------------------------------- */

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

static struct dfx_cfg cfg_db = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .companion = true};
static struct dfx_cfg cfg_bf = {.handler = H(GPU_SM_BF), .dbr_mode = M(VALID_DBR), .companion = true};
static struct dfx_cfg cfg_nodbr = {.handler = H(GPU_SM_NO_DBR), .dbr_mode = M(NO_DBR_HW), .companion = true};
/* Requested as GPU_SM_DB: export makes it GPU_SM_NO_DBR with a service that keeps the record. */
static struct dfx_cfg cfg_emulated = {.handler = H(GPU_SM_DB), .dbr_mode = M(NO_DBR_SW_EMULATED), .companion = true};
static struct dfx_cfg cfg_proxy = {
	.handler = H(CPU_PROXY), .dbr_mode = M(VALID_DBR), .drive = DFX_DRIVE_THREAD, .companion = true};
static struct dfx_cfg cfg_proxy_service = {
	.handler = H(CPU_PROXY), .dbr_mode = M(VALID_DBR), .drive = DFX_DRIVE_SERVICE, .companion = true};
static struct dfx_cfg cfg_proxy_nodbr = {
	.handler = H(CPU_PROXY), .dbr_mode = M(NO_DBR_HW), .drive = DFX_DRIVE_THREAD, .companion = true};
/* Overrun checked: every poll keeps the CQ's consumer record current. */
static struct dfx_cfg cfg_db_overrun = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .cq_overrun_checked = true, .companion = true};

#define T(fn, cfg) cmocka_unit_test_prestate_setup_teardown(fn, dfx_setup, dfx_teardown, &cfg)
#define OPS_GROUP(cfg)                                                                                         \
	{                                                                                                      \
		T(test_export_view, cfg), T(test_put_sizes, cfg), T(test_p, cfg), T(test_put_signal, cfg),       \
			T(test_p_signal, cfg), T(test_signal_accumulates, cfg), T(test_get, cfg),                \
			T(test_wait_all, cfg), T(test_fence, cfg), T(test_counter, cfg),                         \
	}

int main(void)
{
	const struct CMUnitTest db[] = OPS_GROUP(cfg_db);
	const struct CMUnitTest bf[] = OPS_GROUP(cfg_bf);
	const struct CMUnitTest nodbr[] = OPS_GROUP(cfg_nodbr);
	const struct CMUnitTest emulated[] = OPS_GROUP(cfg_emulated);
	const struct CMUnitTest proxy[] = OPS_GROUP(cfg_proxy);
	const struct CMUnitTest proxy_service[] = OPS_GROUP(cfg_proxy_service);
	const struct CMUnitTest proxy_nodbr[] = OPS_GROUP(cfg_proxy_nodbr);
	const struct CMUnitTest db_overrun[] = OPS_GROUP(cfg_db_overrun);
	int failed = 0;

	failed += cmocka_run_group_tests_name("ops GPU_SM_DB", db, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops GPU_SM_BF", bf, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops GPU_SM_NO_DBR (NO_DBR_HW)", nodbr, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops NO_DBR_SW_EMULATED", emulated, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops CPU_PROXY (thread)", proxy, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops CPU_PROXY (service)", proxy_service, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops CPU_PROXY (DBR-less)", proxy_nodbr, NULL, NULL);
	failed += cmocka_run_group_tests_name("ops GPU_SM_DB (overrun checked)", db_overrun, NULL, NULL);
	return failed;
}
