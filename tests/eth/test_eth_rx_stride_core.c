/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The striding receive core (include/device/ogda_dev_eth_rx_stride.h) on a hand-made queue in
 * host memory: the test plays the NIC, writing striding CQEs (wqe_id, first stride, filler flag,
 * strides, length) with the owner bit of their pass, and checks packet indices, that fillers are
 * retired and not returned, the limit (the cut falls after the packet that reaches it), the RQ
 * doorbell record moving by finished WQEs across the 16-bit wrap of wqe_id, attributes masked to
 * 16 bits, and an error CQE.
 */
#include "device/ogda_dev_eth_rx.h"

#include "opengda_mlx5.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#define LOG_N 5u
#define N (1u << LOG_N)   /* strides = CQEs */
#define STRIDES 8u
#define WQES (N / STRIDES)
#define STRIDE 64u

struct fake {
	struct doca_gpu_eth_rxq q;
	uint8_t cqes[N * 64] __attribute__((aligned(64)));
	uint32_t dbr[2];
	uint32_t produced;
};

static void fake_init(struct fake *f, uint16_t first_wqe)
{
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < N; i++)
		f->cqes[i * 64 + 63] = OPENGDA_MLX5_CQE_OP_OWN_INIT;
	f->q.pkt_addr = 0x100000;
	f->q.pkt_num = N;
	f->q.max_pkt_sz = STRIDE;
	f->q.striding_rq = 1;
	f->q.wqe_db_rec = &f->dbr[0];
	f->q.wqe_pi = (uint64_t)first_wqe + WQES;
	f->q.wqe_num = WQES;
	f->q.wqe_mask = WQES - 1;
	f->q.wqe_strides_num = STRIDES;
	f->q.wqe_id_last = first_wqe;
	f->q.cq.cqe_daddr = f->cqes;
	f->q.cq.cqe_num = N;
	f->q.cq.cqe_mask = N - 1;
	f->q.cq.cqe_log_num = LOG_N;
	f->q.cq.cqe_size = 64;
	f->q.cq.dbrec = &f->dbr[1];
}

static void nic_cqe(struct fake *f, uint16_t wqe_id, uint16_t stride, uint32_t bc, uint8_t opcode)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t k = f->produced++;
	uint8_t *e = f->cqes + (k % N) * 64;

	memset(&c, 0, sizeof(c));
	c.opcode = opcode;
	c.syndrome = opcode == OPENGDA_MLX5_CQE_RESP_ERR ? OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR : 0;
	c.wqe_counter = stride;
	c.byte_cnt = bc;
	c.timestamp = (uint64_t)1 << 32 | k;
	assert_int_equal(opengda_mlx5_cqe_write((struct opengda_mlx5_cqe64 *)(void *)e, &c,
						opengda_mlx5_cqe_hw_owner(k, LOG_N)),
			 0);
	e[OPENGDA_MLX5_CQE_RX_WQE_ID] = (uint8_t)(wqe_id >> 8);
	e[OPENGDA_MLX5_CQE_RX_WQE_ID + 1] = (uint8_t)wqe_id;
}

static void pkt(struct fake *f, uint16_t wqe_id, uint16_t stride, uint32_t strides, uint32_t len)
{
	nic_cqe(f, wqe_id, stride, strides << 16 | len, OPENGDA_MLX5_CQE_RESP_SEND);
}

static void filler(struct fake *f, uint16_t wqe_id, uint16_t stride)
{
	nic_cqe(f, wqe_id, stride, OPENGDA_MLX5_CQE_MPRQ_FILLER | (STRIDES - stride) << 16, OPENGDA_MLX5_CQE_RESP_SEND);
}

static uint32_t rq_dbr(const struct fake *f)
{
	return opengda_mlx5_be32toh(f->dbr[0]);
}

/* Packets of several strides and a filler, starting at WQE counter 0xfffe so that wqe_id wraps. */
static void test_indices_fillers_and_wrap(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[8];
	struct fake f;
	uint64_t first = 0, idx[8];
	uint32_t n = 0;

	(void)state;
	fake_init(&f, 0xfffe);
	pkt(&f, 0xfffe, 0, 1, 60);        /* WQE ring slot 2 (0xfffe & 3) stride 0 */
	pkt(&f, 0xfffe, 1, 5, 300);       /* strides 1..5 */
	filler(&f, 0xfffe, 6);            /* a 3-stride frame did not fit */
	pkt(&f, 0xffff, 0, 3, 0xb0);      /* slot 3; the strides bits stay out of the length */
	pkt(&f, 0xffff, 3, 5, 320);       /* strides 3..7: ends the WQE */
	pkt(&f, 0x0000, 0, 1, 64);        /* wrapped: slot 0 */
	memset(attr, 0, sizeof(attr));
	assert_int_equal(ogda_dev_eth_rx_recv_idx(&f.q, 0, 1000, &first, &n, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL, idx),
			 0);
	assert_int_equal(n, 5);
	assert_int_equal(first, 2 * STRIDES);
	assert_int_equal(idx[0], 2 * STRIDES);
	assert_int_equal(idx[1], 2 * STRIDES + 1);
	assert_int_equal(idx[2], 3 * STRIDES);
	assert_int_equal(idx[3], 3 * STRIDES + 3);
	assert_int_equal(idx[4], 0);
	assert_int_equal(attr[1].bytes, 300);
	assert_int_equal(attr[2].bytes, 0xb0);
	assert_int_equal(attr[4].bytes, 64);
	assert_int_equal(attr[4].timestamp_ns, 1000000000ull + 5);
	/* six CQEs retired; WQEs 0xfffe and 0xffff finished (0x0000 still open) */
	assert_int_equal(f.q.cq.cqe_ci, 6);
	assert_int_equal(opengda_mlx5_be32toh(f.dbr[1]) & 0xffffffu, 6);
	assert_int_equal(f.q.wqe_id_last, 0x0000);
	assert_int_equal(f.q.wqe_id_update, 2);
	assert_int_equal(f.q.wqe_pi, 0xfffeull + WQES + 2);
	assert_int_equal(rq_dbr(&f), (0xfffe + WQES + 2) & 0xffff);
	assert_int_equal(ogda_dev_eth_rx_pkt_addr(&f.q, idx[3]), 0x100000 + (3 * STRIDES + 3) * STRIDE);
}

/* The limit counts packets: the cut falls after the packet reaching it; fillers before it go too. */
static void test_limit_and_filler_only(void **state)
{
	struct fake f;
	uint64_t first = 0;
	uint32_t n = 0;

	(void)state;
	fake_init(&f, 0);
	pkt(&f, 0, 0, 7, 400);
	filler(&f, 0, 7);
	pkt(&f, 1, 0, 2, 100);
	pkt(&f, 1, 2, 2, 100);
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 2, 1000, &first, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_int_equal(first, 0);
	assert_int_equal(f.q.cq.cqe_ci, 3); /* packet, filler, packet */
	assert_int_equal(f.q.wqe_pi, WQES + 1); /* WQE 0 ended by the filler */
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 2, 1000, &first, &n, NULL, 0), 0);
	assert_int_equal(n, 1);
	assert_int_equal(first, STRIDES + 2);
	assert_int_equal(f.q.wqe_id_update, 0);
	/* only a filler arrived: no packet, its CQE retired, its WQE handed back */
	filler(&f, 1, 4);
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 4, 1000, &first, &n, NULL, 0), 0);
	assert_int_equal(n, 0);
	assert_true(first == DOCA_GPUNETIO_ETH_RX_NO_PKT);
	assert_int_equal(f.q.cq.cqe_ci, 5);
	assert_int_equal(f.q.wqe_pi, WQES + 2);
	assert_int_equal(rq_dbr(&f), WQES + 2);
}

/* An error CQE ends the receive with the packets before it. */
static void test_error_cqe(void **state)
{
	struct fake f;
	uint64_t first = 0;
	uint32_t n = 0;
	int rc;

	(void)state;
	fake_init(&f, 0);
	pkt(&f, 0, 0, 1, 60);
	nic_cqe(&f, 0, 1, 0, OPENGDA_MLX5_CQE_RESP_ERR);
	rc = ogda_dev_eth_rx_recv(&f.q, 4, 1000, &first, &n, NULL, 0);
	assert_int_equal(rc, OPENGDA_DEV_CQE_ERROR(OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR));
	assert_int_equal(n, 1);
	assert_int_equal(first, 0);
	assert_int_equal(f.q.cq.cqe_ci, 1);
	assert_int_equal(f.q.wqe_pi, WQES); /* WQE 0 is not finished */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_indices_fillers_and_wrap),
		cmocka_unit_test(test_limit_and_filler_only),
		cmocka_unit_test(test_error_cqe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
