/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ring wrap-around on the device data path: small send queues lapped ten times with the
 * availability check on (every byte compared), and more than 65536 WQEs through a small ring,
 * where the 16-bit WQE index of the ctrl segment, the doorbell and the doorbell record wrap
 * while the 64-bit tickets keep counting.
 */
#include "dev_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define STRIDE 256u

/* Size of put k: 16..256 bytes, varying so WQEs differ from lap to lap. */
static uint32_t put_size(uint64_t k)
{
	return 16u + (uint32_t)(k % 16) * 16u;
}

static void test_laps(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	uint32_t n = qp->sq_wqe_num * 10;
	int sharing = qp->sq_wqe_num == 16 ? OGDA_DEV_SHARE_EXCLUSIVE : OGDA_DEV_SHARE_GPU;
	uint64_t t = UINT64_MAX;

	assert_true((size_t)n * STRIDE <= f->src.len);
	memset(f->remote.addr, 0x33, (size_t)n * STRIDE);
	for (uint64_t k = 0; k < n; k++)
		dfx_fill(f->src.addr + k * STRIDE, put_size(k), (uint32_t)k + 1);
	for (uint64_t k = 0; k < n; k++) {
		assert_int_equal(ogda_dev_op_put(qp, dfx_raddr(&f->remote, k * STRIDE), dfx_laddr(&f->src, k * STRIDE),
						 put_size(k), sharing, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &t),
				 0);
		assert_int_equal(t, k);
		/* Only completed slots were reused: nothing outstanding beyond one ring. */
		assert_true(qp->sq_rsvd_index - qp->cq_sq.cqe_ci <= qp->sq_wqe_num);
	}
	assert_int_equal(ogda_dev_op_wait_all(qp, sharing), 0);
	for (uint64_t k = 0; k < n; k++) {
		assert_int_equal(dfx_check(f->remote.addr + k * STRIDE, put_size(k), (uint32_t)k + 1), -1);
		assert_true(dfx_all(f->remote.addr + k * STRIDE + put_size(k), STRIDE - put_size(k), 0x33));
	}
	/* The last lap is what the ring holds: each ctrl segment carries its own index. */
	for (uint64_t k = n - qp->sq_wqe_num; k < n; k++)
		assert_int_equal(opengda_mlx5_ctrl_wqe_index(dfx_ctrl(qp, k)), (uint16_t)k);
	assert_int_equal(qp->sq_rsvd_index, n);
	assert_int_equal(qp->sq_ready_index, n);
	assert_int_equal(qp->sq_wqe_pi, n);
	assert_int_equal(qp->cq_sq.cqe_ci, n);
	if (f->lane[0].dbr != NULL)
		assert_true(dfx_wait_dbr(f, &f->lane[0], n));
}

#define WRAP_N 70000u  /* > 65536 */
#define SLOTS 64u

/* The value slot s holds once ops [0, k) have landed: the last j < k with j % SLOTS == s. */
static void check_slots(struct dfx *f, uint64_t k)
{
	const uint64_t *r = (const uint64_t *)(const void *)f->remote.addr;

	for (uint64_t s = 0; s < SLOTS && s < k; s++)
		assert_int_equal(r[s], ((k - 1 - s) / SLOTS) * SLOTS + s);
}

static void test_past_65536(void **state)
{
	struct dfx *f = *state;
	struct doca_gpu_dev_verbs_qp *qp = dfx_qp(f, 0);
	bool collapsed = (qp->cq_sq.ogda_flags & OPENGDA_DEV_CQ_FLAG_COLLAPSED) != 0;
	uint64_t t = UINT64_MAX, wqes = 0, errors = 0;

	for (uint64_t k = 0; k < WRAP_N; k++) {
		uint64_t v = k;

		assert_int_equal(ogda_dev_op_p(qp, dfx_raddr(&f->remote, 8 * (k % SLOTS)), &v, 8, OGDA_DEV_SHARE_EXCLUSIVE,
					       (uint32_t)qp->nic_handler, 0, &t),
				 0);
		if (t != k)
			assert_int_equal(t, k);
		if (k == 65535 || k == 65536 || (k + 1) % 8192 == 0) {
			assert_int_equal(ogda_dev_op_wait(qp, k, OGDA_DEV_SHARE_EXCLUSIVE), 0);
			check_slots(f, k + 1);
			if (!collapsed) {
				struct opengda_mlx5_cqe_fields c;

				opengda_mlx5_cqe_read(dfx_cqe(qp, k), &c);
				assert_int_equal(c.wqe_counter, (uint16_t)k);
			}
		}
		if (k == 65535) {
			/* Producer index 65536: record and doorbell carry 0. */
			assert_int_equal(qp->sq_wqe_pi, 65536);
			if (f->lane[0].dbr != NULL)
				assert_true(dfx_wait_dbr(f, &f->lane[0], 0));
			if (qp->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB)
				assert_int_equal(__atomic_load_n(qp->sq_db, __ATOMIC_ACQUIRE),
						 opengda_mlx5_qp_uar_db_value(0, qp->sq_num));
		}
		if (k == 65536) /* index 65536 is 0 in its ctrl segment */
			assert_int_equal(opengda_mlx5_ctrl_wqe_index(dfx_ctrl(qp, k)), 0);
	}
	assert_int_equal(ogda_dev_op_wait_all(qp, OGDA_DEV_SHARE_EXCLUSIVE), 0);
	check_slots(f, WRAP_N);
	assert_int_equal(qp->sq_rsvd_index, WRAP_N);
	assert_int_equal(qp->sq_wqe_pi, WRAP_N);
	assert_int_equal(qp->cq_sq.cqe_ci, WRAP_N);
	assert_int_equal(opengda_mlx5_ctrl_wqe_index(dfx_ctrl(qp, WRAP_N - 1)), (uint16_t)(WRAP_N - 1));
	if (f->lane[0].dbr != NULL)
		assert_true(dfx_wait_dbr(f, &f->lane[0], WRAP_N)); /* BE32(70000 & 0xffff) */
	if (collapsed)
		assert_int_equal(opengda_mlx5_cqe_wqe_counter((const void *)qp->cq_sq.cqe_daddr), (uint16_t)(WRAP_N - 1));
	dfx_swnic_counters(f->lane[0].qpn_a, &wqes, NULL, &errors);
	assert_int_equal(wqes, WRAP_N);
	assert_int_equal(errors, 0);
}

#define H(x) DOCA_GPUNETIO_VERBS_NIC_HANDLER_##x
#define M(x) DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_##x

static struct dfx_cfg db16 = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16};
static struct dfx_cfg db64 = {.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 64};
static struct dfx_cfg bf16 = {.handler = H(GPU_SM_BF), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16};
static struct dfx_cfg nodbr16 = {.handler = H(GPU_SM_NO_DBR), .dbr_mode = M(NO_DBR_HW), .sq_wqebbs = 16};
static struct dfx_cfg proxy64 = {.handler = H(CPU_PROXY), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 64};
static struct dfx_cfg overrun16 = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16, .cq_overrun_checked = true};
static struct dfx_cfg collapsed16 = {
	.handler = H(GPU_SM_DB), .dbr_mode = M(VALID_DBR), .sq_wqebbs = 16, .cq_collapsed = true, .cq_entries = 1};

int main(void)
{
	const struct CMUnitTest tests[] = {
		DFX_CASE(test_laps, db16),
		DFX_CASE(test_laps, db64),
		DFX_CASE(test_laps, bf16),
		DFX_CASE(test_laps, nodbr16),
		DFX_CASE(test_laps, proxy64),
		DFX_CASE(test_laps, overrun16),
		DFX_CASE(test_laps, collapsed16),
		DFX_CASE(test_past_65536, db64),
		DFX_CASE(test_past_65536, nodbr16),
		DFX_CASE(test_past_65536, collapsed16),
	};

	return cmocka_run_group_tests_name("ring wrap-around", tests, NULL, NULL);
}
