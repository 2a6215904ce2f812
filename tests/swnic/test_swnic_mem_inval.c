/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deregistration against accesses in flight (swnic_mem_access.c), as a NIC's MR
 * invalidation behaves:
 *  - a remote WRITE still copying into an MR when it is deregistered writes nothing once
 *    swnic_mr_deregister has returned (the memory may be reused, protected or unmapped);
 *  - an RDMA READ whose local MR is deregistered while the READ is outstanding completes
 *    with LOCAL_PROT and leaves the memory that MR covered alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "prm/prm_cmd.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_engine.h"
#include "req_sequence.h"
#include "swnic_fixture.h"

#define CE2 OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ)
#define REUSED 0xaau
#define WRITE_LEN (64u << 20)
#define READ_LEN (1u << 20)

static void big_messages(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->log_msg_max = 30;
}

struct writer {
	struct swnic *nic;
	struct swnic_req req;
	struct swnic_resp resp;
	doca_error_t rc;
};

static void *write_thread(void *arg)
{
	struct writer *w = arg;

	w->rc = swnic_responder_execute(w->nic, &w->req, &w->resp, NULL);
	return NULL;
}

/*
 * A 64 MiB remote WRITE is landing when its MR is deregistered. Once deregistration has
 * returned the memory is the application's again: here it makes it read-only at once,
 * so a single byte of the WRITE arriving later would kill the process (as the munmap
 * of real applications did).
 */
static void test_deregister_fences_inbound_write(void **state)
{
	uint8_t *payload = malloc(WRITE_LEN);
	uint8_t *region = mmap(NULL, WRITE_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct writer w;
	struct fx_pair p;
	pthread_t th;
	uint32_t rk;

	(void)state;
	assert_non_null(payload);
	assert_true(region != MAP_FAILED);
	memset(payload, 0x5a, WRITE_LEN);
	memset(region, 0, WRITE_LEN);
	fx_pair_open(&p, 4, NULL, NULL, big_messages);
	rk = fx_mr(&p.f, region, WRITE_LEN, RW);

	memset(&w, 0, sizeof(w));
	w.nic = p.f.nic;
	w.req.op = SWNIC_REQ_WRITE;
	w.req.src_qpn = p.a.qpn;
	w.req.dst_qpn = p.b.qpn;
	w.req.raddr = fx_va(region);
	w.req.rkey = rk;
	w.req.len = WRITE_LEN;
	w.req.payload = payload;
	swnic_test_req_sequence(p.f.nic, &w.req);
	assert_int_equal(pthread_create(&th, NULL, write_thread, &w), 0);
	fx_sleep_ms(2); /* the copy is under way (it takes tens of milliseconds) */
	assert_int_equal(swnic_mr_deregister(p.f.nic, rk), DOCA_SUCCESS);
	assert_int_equal(mprotect(region, WRITE_LEN, PROT_READ), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(w.rc, DOCA_SUCCESS);
	/* Finished before the invalidation, or stopped by it with a remote access error. */
	assert_true(w.resp.status == SWNIC_RESP_ACK || w.resp.status == SWNIC_RESP_NAK_REMOTE_ACCESS);
	/* The key is gone for new requests. */
	swnic_test_req_sequence(p.f.nic, &w.req);
	assert_int_equal(swnic_responder_execute(p.f.nic, &w.req, &w.resp, NULL), DOCA_SUCCESS);
	assert_int_equal(w.resp.status, SWNIC_RESP_NAK_REMOTE_ACCESS);
	fx_pair_close(&p);
	free(payload);
	munmap(region, WRITE_LEN);
}

static void many_retries(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->retry_count = 7;
}

/*
 * An RDMA READ is outstanding (its responder is in RST, so the requester retries) when
 * the MR of its local buffer is deregistered and the buffer reused; then the responder
 * comes back. The READ completes with LOCAL_PROT and the reused buffer is untouched.
 */
static void test_read_into_deregistered_local_mr(void **state)
{
	uint8_t *remote = malloc(READ_LEN), *local = malloc(READ_LEN);
	struct opengda_mlx5_cqe_fields c;
	struct fx_pair p;
	uint64_t tr = 0, t0;
	uint32_t lk, rk;
	uint16_t idx;

	(void)state;
	assert_non_null(remote);
	assert_non_null(local);
	memset(remote, 0x5a, READ_LEN);
	memset(local, 0, READ_LEN);
	fx_pair_open(&p, 4, NULL, many_retries, NULL);
	rk = fx_mr(&p.f, remote, READ_LEN, RW);
	lk = fx_mr(&p.f, local, READ_LEN, OGDA_ACCESS_LOCAL_WRITE);
	fx_qp_modify(&p.f, &p.b, PRM_CMD_2RST_QP, NULL);

	idx = fx_take(&p.a, 3);
	assert_int_equal(opengda_mlx5_wqe_rdma_read(&p.a.sqd, idx, CE2, fx_va(remote), rk, fx_va(local), lk, READ_LEN), 3);
	fx_ring(&p.a, FX_RING_CTRL);
	t0 = fx_ms();
	while (tr == 0 && fx_ms() - t0 < FX_POLL_TIMEOUT_MS)
		fx_qp_counters(&p.f, &p.a, NULL, NULL, NULL, &tr);
	assert_true(tr > 0);

	assert_int_equal(swnic_mr_deregister(p.f.nic, lk), DOCA_SUCCESS);
	memset(local, REUSED, READ_LEN);
	fx_qp_connect(&p.f, &p.b, &p.cb, PRM_QP_STATE_RTS);

	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(c.syndrome, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	assert_int_equal(c.vendor_syndrome, SWNIC_VSYND_BAD_LKEY);
	assert_int_equal(c.wqe_counter, idx);
	fx_assert_all(local, READ_LEN, REUSED);
	fx_pair_close(&p);
	free(remote);
	free(local);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deregister_fences_inbound_write),
		cmocka_unit_test(test_read_into_deregistered_local_mr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
