/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder verdicts for WRITE and READ: ACK, every REMOTE_ACCESS cause, INVALID_REQ for
 * what a UC QP cannot take, NO_QP for unknown QPs and QPs outside RTR/RTS, and memory left
 * untouched on every NAK (guard bytes around the target).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_qpc.h"
#include "resp_fixture.h"

#define GUARD 0xeeu
#define BUF_LEN 256u
#define MR_OFF 64u   /* the MR covers buf[MR_OFF, MR_OFF + MR_LEN) */
#define MR_LEN 128u

struct env {
	struct fix f;
	struct fix_cq cq;
	uint8_t buf[BUF_LEN];
	uint32_t key;
};

static int setup(void **state)
{
	static struct env e;

	memset(&e, 0, sizeof(e));
	fix_open_with_cq(&e.f, 4, &e.cq);
	memset(e.buf, GUARD, sizeof(e.buf));
	e.key = fix_mr(&e.f, 0, e.buf + MR_OFF, MR_LEN,
		       OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
			       OGDA_ACCESS_REMOTE_ATOMIC);
	*state = &e;
	return 0;
}

static uint32_t make_qp(struct env *e, void (*tweak)(struct fix_qp_cfg *))
{
	struct fix_qp_cfg cfg;
	struct fix_qp qp;

	fix_qp_cfg_default(&e->f, &e->cq, &cfg);
	if (tweak != NULL)
		tweak(&cfg);
	fix_qp_create(&e->f, &cfg, &qp);
	return qp.qpn;
}

static uint8_t run(struct env *e, const struct swnic_req *req, struct swnic_resp *resp, void *read_buf)
{
	assert_int_equal(fix_execute(e->f.nic, req, resp, read_buf), DOCA_SUCCESS);
	return resp->status;
}

static void assert_all_guard(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] != GUARD)
			fail_msg("byte %zu is 0x%02x, expected untouched 0x%02x", i, p[i], GUARD);
	}
}

static struct swnic_req write_req(struct env *e, uint32_t qpn, uint64_t off, const void *data, uint32_t len)
{
	struct swnic_req r = fix_req(qpn, SWNIC_REQ_WRITE);

	r.raddr = (uint64_t)(uintptr_t)(e->buf + off);
	r.rkey = e->key;
	r.len = len;
	r.payload = data;
	return r;
}

static void write_lands_exactly(void **state)
{
	static const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	struct swnic_req r = write_req(e, qpn, MR_OFF + 20, data, sizeof(data));
	struct swnic_resp resp;

	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf + MR_OFF + 20, data, sizeof(data));
	assert_all_guard(e->buf, MR_OFF + 20);
	assert_all_guard(e->buf + MR_OFF + 28, BUF_LEN - MR_OFF - 28);
	assert_int_equal(resp.read_len, 0);

	/* The whole MR, first to last byte, is writable. */
	{
		uint8_t big[MR_LEN];

		memset(big, 0x11, sizeof(big));
		r = write_req(e, qpn, MR_OFF, big, MR_LEN);
		assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
		assert_memory_equal(e->buf + MR_OFF, big, MR_LEN);
		assert_all_guard(e->buf, MR_OFF);
		assert_all_guard(e->buf + MR_OFF + MR_LEN, BUF_LEN - MR_OFF - MR_LEN);
	}
}

static void no_rwe(struct fix_qp_cfg *c)
{
	c->rwe = 0;
}

static void write_remote_access_naks_write_nothing(void **state)
{
	static const uint8_t data[16] = {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
					 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	uint32_t qpn_no_rwe = make_qp(e, no_rwe);
	uint32_t key_pd1 = fix_mr(&e->f, 1, e->buf + MR_OFF, MR_LEN,
				  OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE);
	uint32_t key_ro = fix_mr(&e->f, 0, e->buf + MR_OFF, MR_LEN, OGDA_ACCESS_REMOTE_READ);
	struct swnic_resp resp;
	struct swnic_req r;

	/* Unknown rkey: the MR's index with another variant, and a key that was never handed out. */
	r = write_req(e, qpn, MR_OFF, data, sizeof(data));
	r.rkey = e->key ^ 0x1u;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r.rkey = 0x00ffff00u;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	/* An MR of the other PD. */
	r = write_req(e, qpn, MR_OFF, data, sizeof(data));
	r.rkey = key_pd1;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	/* Out of range: one byte past the end, one byte before the start, address wrap. */
	r = write_req(e, qpn, MR_OFF + MR_LEN - sizeof(data) + 1, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r = write_req(e, qpn, MR_OFF - 1, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r = write_req(e, qpn, MR_OFF, data, sizeof(data));
	r.raddr = UINT64_MAX - 4;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	/* The MR lacks REMOTE_WRITE. */
	r = write_req(e, qpn, MR_OFF, data, sizeof(data));
	r.rkey = key_ro;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	/* The QP lacks rwe. */
	r = write_req(e, qpn_no_rwe, MR_OFF, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);

	assert_all_guard(e->buf, BUF_LEN);
}

static void stop_in_init(struct fix_qp_cfg *c)
{
	c->state = PRM_QP_STATE_INIT;
}

static void stop_in_rtr(struct fix_qp_cfg *c)
{
	c->state = PRM_QP_STATE_RTR;
}

static void no_qp_for_unknown_or_not_ready(void **state)
{
	static const uint8_t data[4] = {9, 9, 9, 9};
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	uint32_t qpn_init = make_qp(e, stop_in_init);
	uint32_t qpn_rtr = make_qp(e, stop_in_rtr);
	struct fix_qp err_qp = {0};
	struct swnic_resp resp;
	struct swnic_req r;

	r = write_req(e, qpn + 100, MR_OFF, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NO_QP);
	r = write_req(e, 0x1000000u | qpn, MR_OFF, data, sizeof(data)); /* more than 24 bits */
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NO_QP);
	r = write_req(e, qpn_init, MR_OFF, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NO_QP);
	err_qp.qpn = qpn;
	fix_qp_transition(&e->f, &err_qp, PRM_CMD_2ERR_QP);
	r = write_req(e, qpn, MR_OFF, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NO_QP);
	assert_all_guard(e->buf, BUF_LEN);

	/* RTR already responds. */
	r = write_req(e, qpn_rtr, MR_OFF, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf + MR_OFF, data, sizeof(data));
}

static void no_rre(struct fix_qp_cfg *c)
{
	c->rre = 0;
}

static void read_returns_bytes_or_naks(void **state)
{
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	uint32_t qpn_no_rre = make_qp(e, no_rre);
	uint32_t key_wo = fix_mr(&e->f, 0, e->buf + MR_OFF, MR_LEN, OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE);
	uint8_t out[32], expect[32];
	struct swnic_resp resp;
	struct swnic_req r;
	uint32_t i;

	for (i = 0; i < MR_LEN; i++)
		e->buf[MR_OFF + i] = (uint8_t)(i * 7 + 1);
	r = fix_req(qpn, SWNIC_REQ_READ);
	r.raddr = (uint64_t)(uintptr_t)(e->buf + MR_OFF + 96);
	r.rkey = e->key;
	r.len = sizeof(out);
	memset(out, 0, sizeof(out));
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, sizeof(out));
	for (i = 0; i < sizeof(expect); i++)
		expect[i] = (uint8_t)((96 + i) * 7 + 1);
	assert_memory_equal(out, expect, sizeof(out));

	/* Past the end by one byte; MR without REMOTE_READ; QP without rre: read_buf untouched. */
	r.raddr += 1;
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_int_equal(resp.read_len, 0);
	r.raddr -= 1;
	r.rkey = key_wo;
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_NAK_REMOTE_ACCESS);
	r.rkey = e->key;
	r.dst_qpn = qpn_no_rre;
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_int_equal(resp.read_len, 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a);
}

static void uc_transport(struct fix_qp_cfg *c)
{
	c->st = PRM_QP_ST_UC;
}

static void uc_takes_write_only(void **state)
{
	static const uint8_t data[4] = {0xc0, 0xc1, 0xc2, 0xc3};
	struct env *e = *state;
	uint32_t qpn = make_qp(e, uc_transport);
	struct swnic_resp resp;
	uint8_t out[8];
	struct swnic_req r;

	r = fix_req(qpn, SWNIC_REQ_READ);
	r.raddr = (uint64_t)(uintptr_t)(e->buf + MR_OFF);
	r.rkey = e->key;
	r.len = sizeof(out);
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_NAK_INVALID_REQ);
	r.op = SWNIC_REQ_ATOMIC_FA;
	r.atomic_size = 8;
	r.swap_add = 1;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_INVALID_REQ);
	r.op = SWNIC_REQ_MASKED_CS;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_INVALID_REQ);
	assert_all_guard(e->buf, BUF_LEN);

	r = write_req(e, qpn, MR_OFF + 4, data, sizeof(data));
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf + MR_OFF + 4, data, sizeof(data));
}

static void zero_length_rdma_does_not_check_rkey(void **state)
{
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	uint32_t qpn_no_rwe = make_qp(e, no_rwe);
	struct swnic_resp resp;
	struct swnic_req r;

	r = write_req(e, qpn, 0, NULL, 0);
	r.rkey = 0x12345600u;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	r.op = SWNIC_REQ_READ;
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, 0);
	/* The QP's own right still applies. */
	r = write_req(e, qpn_no_rwe, 0, NULL, 0);
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_all_guard(e->buf, BUF_LEN);
}

static void small_messages(struct fix_qp_cfg *c)
{
	c->log_msg_max = 4;
}

static void messages_above_log_msg_max_are_invalid(void **state)
{
	uint8_t data[17], out[17];
	struct env *e = *state;
	uint32_t qpn = make_qp(e, small_messages);
	struct swnic_resp resp;
	struct swnic_req r;

	memset(data, 0x3c, sizeof(data));
	r = write_req(e, qpn, MR_OFF, data, 17);
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_NAK_INVALID_REQ);
	assert_all_guard(e->buf, BUF_LEN);
	r.op = SWNIC_REQ_READ;
	r.payload = NULL;
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(run(e, &r, &resp, out), SWNIC_RESP_NAK_INVALID_REQ);
	assert_int_equal(out[0], 0x5a);
	/* 2^4 bytes is the limit itself. */
	r = write_req(e, qpn, MR_OFF, data, 16);
	assert_int_equal(run(e, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf + MR_OFF, data, 16);
	assert_int_equal(e->buf[MR_OFF + 16], GUARD);
}

static void bad_arguments_are_refused(void **state)
{
	struct env *e = *state;
	uint32_t qpn = make_qp(e, NULL);
	struct swnic_req r = write_req(e, qpn, MR_OFF, NULL, 4);
	struct swnic_resp resp;

	assert_int_equal(swnic_responder_execute(NULL, &r, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_responder_execute(e->f.nic, NULL, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	/* A WRITE of 4 bytes without its payload. */
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	/* A READ of 4 bytes without a buffer. */
	r.op = SWNIC_REQ_READ;
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	/* Unknown ops. */
	r.op = 0;
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	r.op = SWNIC_REQ_MASKED_FA + 1;
	assert_int_equal(swnic_responder_execute(e->f.nic, &r, &resp, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_all_guard(e->buf, BUF_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(write_lands_exactly, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(write_remote_access_naks_write_nothing, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(no_qp_for_unknown_or_not_ready, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(read_returns_bytes_or_naks, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(uc_takes_write_only, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(zero_length_rdma_does_not_check_rkey, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(messages_above_log_msg_max_are_invalid, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(bad_arguments_are_refused, setup, fix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
