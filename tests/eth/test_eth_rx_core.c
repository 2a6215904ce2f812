/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device receive core (include/device/ogda_dev_eth_rx.h) on a hand-made queue in host memory:
 * the test plays the NIC, writing CQEs with the owner bit of their pass, and checks what a receive
 * returns (count, first packet index, attributes), what it hands back (CQ and RQ doorbell records),
 * the limit and timeout rules, error CQEs and the ring wrap.
 */
#include "device/ogda_dev_eth_rx.h"

#include "opengda_mlx5.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define LOG_N 3u
#define N (1u << LOG_N)
#define PKT 2048u

struct fake {
	struct doca_gpu_eth_rxq q;
	uint8_t cqes[N * 64] __attribute__((aligned(64)));
	uint32_t dbr[2];
	uint32_t produced; /* CQEs the "NIC" wrote */
};

static void fake_init(struct fake *f)
{
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < N; i++)
		f->cqes[i * 64 + 63] = OPENGDA_MLX5_CQE_OP_OWN_INIT;
	f->q.pkt_addr = 0x100000;
	f->q.pkt_num = N;
	f->q.max_pkt_sz = PKT;
	f->q.wqe_db_rec = &f->dbr[0];
	f->q.wqe_pi = N;
	f->q.wqe_num = N;
	f->q.wqe_mask = N - 1;
	f->q.cq.cqe_daddr = f->cqes;
	f->q.cq.cqe_num = N;
	f->q.cq.cqe_mask = N - 1;
	f->q.cq.cqe_log_num = LOG_N;
	f->q.cq.cqe_size = 64;
	f->q.cq.dbrec = &f->dbr[1];
}

/* The NIC's next receive CQE: WQE counter = its index, byte count and a time stamp. */
static void nic_cqe(struct fake *f, uint32_t bytes, uint32_t sec, uint32_t nsec)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t k = f->produced++;

	memset(&c, 0, sizeof(c));
	c.opcode = OPENGDA_MLX5_CQE_RESP_SEND;
	c.wqe_counter = (uint16_t)k;
	c.byte_cnt = bytes;
	c.timestamp = (uint64_t)sec << 32 | nsec;
	assert_int_equal(opengda_mlx5_cqe_write((struct opengda_mlx5_cqe64 *)(void *)(f->cqes + (k % N) * 64), &c,
						opengda_mlx5_cqe_hw_owner(k, LOG_N)),
			 0);
}

static void nic_error_cqe(struct fake *f, uint8_t syndrome)
{
	struct opengda_mlx5_cqe_fields c;
	uint32_t k = f->produced++;

	memset(&c, 0, sizeof(c));
	c.opcode = OPENGDA_MLX5_CQE_RESP_ERR;
	c.syndrome = syndrome;
	c.wqe_counter = (uint16_t)k;
	assert_int_equal(opengda_mlx5_cqe_write((struct opengda_mlx5_cqe64 *)(void *)(f->cqes + (k % N) * 64), &c,
						opengda_mlx5_cqe_hw_owner(k, LOG_N)),
			 0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void test_timeout_without_packets(void **state)
{
	struct fake f;
	uint64_t first = 0, t0;
	uint32_t num = 99;

	(void)state;
	fake_init(&f);
	t0 = now_ns();
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 4, 2000000, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE), 0);
	assert_true(now_ns() - t0 >= 2000000);
	assert_int_equal(num, 0);
	assert_true(first == DOCA_GPUNETIO_ETH_RX_NO_PKT);
	assert_int_equal(f.dbr[0], 0); /* nothing handed back */
	assert_int_equal(f.q.cq.cqe_ci, 0);
}

static void test_limit_attrs_and_release(void **state)
{
	struct doca_gpu_dev_eth_rxq_attr attr[4];
	struct fake f;
	uint64_t first = 0;
	uint32_t num = 0;

	(void)state;
	fake_init(&f);
	nic_cqe(&f, 60, 7, 5);
	nic_cqe(&f, 1514, 7, 999999999);
	nic_cqe(&f, 128, 8, 1);
	memset(attr, 0, sizeof(attr));
	/* max 2: returns as soon as 2 are there, whatever the timeout */
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 2, 0, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_ALL), 0);
	assert_int_equal(num, 2);
	assert_int_equal(first, 0);
	assert_int_equal(attr[0].bytes, 60);
	assert_true(attr[0].timestamp_ns == 7000000005ull);
	assert_int_equal(attr[1].bytes, 1514);
	assert_true(attr[1].timestamp_ns == 7999999999ull);
	assert_int_equal(opengda_mlx5_be32toh(f.dbr[1]), 2);      /* CQ consumer index */
	assert_int_equal(opengda_mlx5_be32toh(f.dbr[0]), N + 2);  /* both WQEs posted again */
	/* the third, with the time stamp only */
	memset(attr, 0, sizeof(attr));
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 8, 1000000, &first, &num, attr, DOCA_GPUNETIO_ETH_RX_ATTR_TS), 0);
	assert_int_equal(num, 1);
	assert_int_equal(first, 2);
	assert_int_equal(attr[0].bytes, 0);
	assert_true(attr[0].timestamp_ns == 8000000001ull);
	assert_true(ogda_dev_eth_rx_pkt_addr(&f.q, first) == 0x100000 + 2 * PKT);
	assert_true(ogda_dev_eth_rx_pkt_addr(&f.q, N + 1) == 0x100000 + PKT); /* idx < 2 * pkt_num wraps */
}

static void test_ring_wraps(void **state)
{
	struct fake f;
	uint64_t first = 0;
	uint32_t num = 0, round, i, total = 0;

	(void)state;
	fake_init(&f);
	/* five passes over the 8-entry ring, 3 packets at a time: the owner bit alternates */
	for (round = 0; round < 13; round++) {
		for (i = 0; i < 3; i++)
			nic_cqe(&f, 64 + total + i, 1, 0);
		assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 3, 0, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE), 0);
		assert_int_equal(num, 3);
		assert_int_equal(first, total % N);
		total += 3;
	}
	assert_int_equal(f.q.cq.cqe_ci, total);
	assert_int_equal(opengda_mlx5_be32toh(f.dbr[0]), (N + total) & 0xffffu);
}

static void test_error_cqe_ends_the_receive(void **state)
{
	struct fake f;
	uint64_t first = 0;
	uint32_t num = 0;
	int rc;

	(void)state;
	fake_init(&f);
	nic_cqe(&f, 100, 1, 0);
	nic_error_cqe(&f, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	rc = ogda_dev_eth_rx_recv(&f.q, 4, 0, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE);
	assert_true(rc < 0);
	assert_int_equal(OPENGDA_DEV_CQE_ERROR_SYNDROME(rc), OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	assert_int_equal(num, 1); /* the packet before it */
	assert_int_equal(first, 0);
	assert_int_equal(f.q.cq.cqe_ci, 1);
	assert_true((f.q.cq.ogda_first_error >> 31) == 1u);
	assert_int_equal((f.q.cq.ogda_first_error >> 16) & 0xff, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
}

static void test_no_limit_means_a_ring(void **state)
{
	struct fake f;
	uint64_t first = 0;
	uint32_t num = 0, i;

	(void)state;
	fake_init(&f);
	for (i = 0; i < N; i++)
		nic_cqe(&f, 64, 1, 0);
	assert_int_equal(ogda_dev_eth_rx_limit(&f.q, 0), N);
	assert_int_equal(ogda_dev_eth_rx_limit(&f.q, 1000), N);
	assert_int_equal(ogda_dev_eth_rx_recv(&f.q, 0, 0, &first, &num, NULL, DOCA_GPUNETIO_ETH_RX_ATTR_NONE), 0);
	assert_int_equal(num, N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_without_packets),
		cmocka_unit_test(test_limit_attrs_and_release),
		cmocka_unit_test(test_ring_wraps),
		cmocka_unit_test(test_error_cqe_ends_the_receive),
		cmocka_unit_test(test_no_limit_means_a_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
