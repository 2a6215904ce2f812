/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder receives: SEND, SEND_IMM and WRITE_IMM consume receive WQEs from a QP's RQ or
 * from an SRQ, scatter the data, and produce responder CQEs whose bytes are checked at
 * their exact offsets (reference/mlx5.md B.6). Also RNR on an empty queue, LOCAL_LENGTH
 * and LOCAL_PROT responder errors (nothing written), and CQ / RQ ring wrap.
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
#define BUF_LEN 512u

struct env {
	struct fix f;
	struct fix_cq cq;
	uint8_t buf[BUF_LEN];  /* receive buffers and WRITE_IMM target */
	uint32_t key;          /* all of buf, every right */
};

static int setup(void **state)
{
	static struct env e;

	memset(&e, 0, sizeof(e));
	fix_open_with_cq(&e.f, 3, &e.cq);
	memset(e.buf, GUARD, sizeof(e.buf));
	e.key = fix_mr(&e.f, 0, e.buf, BUF_LEN,
		       OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ);
	*state = &e;
	return 0;
}

static void assert_guard(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] != GUARD)
			fail_msg("byte %zu is 0x%02x, expected untouched 0x%02x", i, p[i], GUARD);
	}
}

static uint8_t run(struct env *e, const struct swnic_req *req)
{
	struct swnic_resp resp;

	assert_int_equal(fix_execute(e->f.nic, req, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.read_len, 0);
	return resp.status;
}

static struct swnic_req send_req(uint32_t qpn, const void *data, uint32_t len)
{
	struct swnic_req r = fix_req(qpn, SWNIC_REQ_SEND);

	r.payload = data;
	r.len = len;
	return r;
}

/* Checks a good responder CQE byte by byte. */
static void assert_resp_cqe(const uint8_t *c, uint8_t opcode, uint8_t owner, uint32_t byte_cnt, const uint8_t imm[4],
			    uint32_t qpn, uint32_t user_index, uint16_t wqe_counter)
{
	static const uint8_t zero4[4];

	assert_int_equal(c[63], (opcode << 4) | owner);
	assert_int_equal(fix_be32(c + 44), byte_cnt);
	assert_memory_equal(c + 36, imm != NULL ? imm : zero4, 4);
	assert_int_equal(fix_be32(c + 56), qpn);           /* [31:24] 0: no send WQE opcode */
	assert_int_equal(fix_be32(c + 32), user_index);    /* srqn_uidx */
	assert_int_equal(fix_be16(c + 60), wqe_counter);
}

static void assert_err_cqe(const uint8_t *c, uint8_t owner, uint8_t syndrome, uint32_t qpn, uint32_t user_index,
			   uint16_t wqe_counter)
{
	assert_int_equal(c[63], (14 << 4) | owner); /* RESP_ERR */
	assert_int_equal(c[55], syndrome);
	assert_int_equal(fix_be32(c + 56), qpn);
	assert_int_equal(fix_be32(c + 32), user_index);
	assert_int_equal(fix_be16(c + 60), wqe_counter);
}

static void make_qp(struct env *e, void (*tweak)(struct fix_qp_cfg *), struct fix_qp *qp)
{
	struct fix_qp_cfg cfg;

	fix_qp_cfg_default(&e->f, &e->cq, &cfg);
	if (tweak != NULL)
		tweak(&cfg);
	fix_qp_create(&e->f, &cfg, qp);
}

static void send_scatters_and_completes(void **state)
{
	struct env *e = *state;
	struct fix_sge sge[2];
	struct fix_qp qp;
	uint8_t data[20];
	struct swnic_req r;
	uint32_t i;

	make_qp(e, NULL, &qp);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0x40 + i);
	sge[0] = (struct fix_sge){e->buf + 8, 8, e->key};
	sge[1] = (struct fix_sge){e->buf + 100, 24, e->key};
	fix_rq_post(&qp, sge, 2);
	r = send_req(qp.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);

	assert_memory_equal(e->buf + 8, data, 8);
	assert_memory_equal(e->buf + 100, data + 8, 12);
	assert_guard(e->buf, 8);
	assert_guard(e->buf + 16, 84);
	assert_guard(e->buf + 112, BUF_LEN - 112);
	assert_resp_cqe(fix_cqe(&e->cq, 0), 2, 0, sizeof(data), NULL, qp.qpn, 0x00abcd, 0);
	/* The next entry is still the NIC's. */
	assert_int_equal(fix_cqe(&e->cq, 1)[63], 0xf1);

	/* The queue is empty again: RNR, nothing written, no CQE. */
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_RNR);
	assert_int_equal(fix_cqe(&e->cq, 1)[63], 0xf1);
}

static void imm_bytes_and_write_imm(void **state)
{
	static const uint8_t imm[4] = {0xde, 0xad, 0xbe, 0xef};
	static const uint8_t data[6] = {1, 2, 3, 4, 5, 6};
	struct env *e = *state;
	struct fix_sge sge = {e->buf, 64, e->key};
	struct fix_qp qp;
	struct swnic_req r;

	make_qp(e, NULL, &qp);
	fix_rq_post(&qp, &sge, 1);
	r = send_req(qp.qpn, data, sizeof(data));
	r.op = SWNIC_REQ_SEND_IMM;
	memcpy(&r.imm, imm, 4); /* as carried: the WQE's bytes */
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf, data, sizeof(data));
	assert_resp_cqe(fix_cqe(&e->cq, 0), 3, 0, sizeof(data), imm, qp.qpn, 0x00abcd, 0);

	/* WRITE_IMM: the data goes to the rkey target; the WQE (counter 1) only completes. */
	r.op = SWNIC_REQ_WRITE_IMM;
	r.raddr = (uint64_t)(uintptr_t)(e->buf + 300);
	r.rkey = e->key;
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_RNR); /* no WQE yet ... */
	assert_guard(e->buf + 300, sizeof(data));          /* ... and nothing written */
	sge.addr = e->buf + 200;
	fix_rq_post(&qp, &sge, 1);
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf + 300, data, sizeof(data));
	assert_guard(e->buf + 200, 64);
	assert_resp_cqe(fix_cqe(&e->cq, 1), 1, 0, sizeof(data), imm, qp.qpn, 0x00abcd, 1);

	/* WRITE_IMM with a bad rkey: REMOTE_ACCESS and the posted WQE stays for the next one. */
	fix_rq_post(&qp, &sge, 1);
	r.rkey = e->key ^ 0x1u;
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_REMOTE_ACCESS);
	assert_int_equal(fix_cqe(&e->cq, 2)[63], 0xf1);
	r.rkey = e->key;
	r.len = 0;
	r.payload = NULL;
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_resp_cqe(fix_cqe(&e->cq, 2), 1, 0, 0, imm, qp.qpn, 0x00abcd, 2);
}

static void small_rq(struct fix_qp_cfg *c)
{
	c->log_rq_size = 1;
	c->user_index = 0x123456;
}

static void owner_and_counters_wrap(void **state)
{
	struct env *e = *state;
	struct fix_sge sge = {e->buf, 4, e->key};
	uint8_t data[4] = {0};
	struct fix_qp qp;
	struct swnic_req r;
	uint32_t i;

	/* 8-entry CQ, 2-entry RQ: ten sends wrap both. */
	make_qp(e, small_rq, &qp);
	for (i = 0; i < 10; i++) {
		data[0] = (uint8_t)i;
		fix_rq_post(&qp, &sge, 1);
		r = send_req(qp.qpn, data, sizeof(data));
		assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
		assert_int_equal(e->buf[0], i);
		assert_resp_cqe(fix_cqe(&e->cq, i), 2, (uint8_t)(i >> 3), 4, NULL, qp.qpn, 0x123456, (uint16_t)i);
	}
	/* RQ slot 1 holds the tenth WQE (counter 9). */
	assert_int_equal(fix_be32(qp.rq + qp.rq_stride + 4), e->key);
}

static uint8_t qp_state(struct env *e, uint32_t qpn)
{
	struct swnic_qp *sq = swnic_qp_acquire(e->f.nic, qpn);
	uint8_t st;

	assert_non_null(sq);
	st = atomic_load(&sq->state);
	swnic_qp_release(sq);
	return st;
}

/*
 * The first WQE fails with syndrome (LOCAL_LENGTH / LOCAL_PROT): its error CQE, the QP in
 * ERR, the second posted WQE flushed, nothing written, and the QP gone for requests.
 */
static void assert_failed_then_flushed(struct env *e, const struct fix_qp *qp, uint32_t cqe, uint8_t syndrome,
				       uint8_t vendor)
{
	static const uint8_t data[1] = {0};
	struct swnic_req r = send_req(qp->qpn, data, 1);

	assert_err_cqe(fix_cqe(&e->cq, cqe), 0, syndrome, qp->qpn, 0x00abcd, 0);
	assert_int_equal(fix_cqe(&e->cq, cqe)[54], vendor);
	assert_err_cqe(fix_cqe(&e->cq, cqe + 1), 0, 0x05, qp->qpn, 0x00abcd, 1);
	assert_int_equal(fix_cqe(&e->cq, cqe + 2)[63], 0xf1);
	assert_int_equal(qp_state(e, qp->qpn), PRM_QP_STATE_ERR);
	assert_int_equal(run(e, &r), SWNIC_RESP_NO_QP);
	assert_int_equal(fix_cqe(&e->cq, cqe + 2)[63], 0xf1);
	assert_guard(e->buf, BUF_LEN);
}

static void length_error_consumes_and_writes_nothing(void **state)
{
	struct env *e = *state;
	struct fix_sge sge[2] = {{e->buf, 10, e->key}, {e->buf + 50, 6, e->key}};
	uint8_t data[17];
	struct fix_qp qp, qp2;
	struct swnic_req r;

	memset(data, 0x77, sizeof(data));
	make_qp(e, NULL, &qp);
	fix_rq_post(&qp, sge, 2); /* 16 bytes of room */
	fix_rq_post(&qp, sge, 2);
	r = send_req(qp.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_INVALID_REQ);
	assert_failed_then_flushed(e, &qp, 0, 0x01, 0);

	/* 16 bytes fit the same list exactly. */
	make_qp(e, NULL, &qp2);
	fix_rq_post(&qp2, sge, 2);
	r = send_req(qp2.qpn, data, 16);
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_resp_cqe(fix_cqe(&e->cq, 2), 2, 0, 16, NULL, qp2.qpn, 0x00abcd, 0);
	assert_memory_equal(e->buf, data, 10);
	assert_memory_equal(e->buf + 50, data, 6);
	assert_guard(e->buf + 10, 40);
	assert_guard(e->buf + 56, BUF_LEN - 56);
	assert_int_equal(qp_state(e, qp2.qpn), PRM_QP_STATE_RTS);
}

static void scatter_list_ends_at_terminator_or_stride(void **state)
{
	struct env *e = *state;
	struct fix_sge sge[4], far = {e->buf + 400, 4, e->key};
	struct fix_qp qa, qb, qc;
	uint8_t data[17];
	struct swnic_req r;
	uint8_t *wqe;
	uint32_t i;

	for (i = 0; i < 4; i++)
		sge[i] = (struct fix_sge){e->buf + 40 * i, 4, e->key};
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0x90 + i);

	/*
	 * The default stride is 64 B: four segments fill WQE 0 and its list ends at the
	 * stride. 17 bytes do not fit (16), although WQE 1's first segment follows it.
	 */
	make_qp(e, NULL, &qa);
	fix_rq_post(&qa, sge, 4);
	fix_rq_post(&qa, &far, 1);
	r = send_req(qa.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_INVALID_REQ);
	assert_failed_then_flushed(e, &qa, 0, 0x01, 0);

	/* One segment, the terminator, then bytes that would read as a 100-byte segment. */
	make_qp(e, NULL, &qb);
	fix_rq_post(&qb, &far, 1);
	fix_rq_post(&qb, &far, 1);
	wqe = qb.rq;
	assert_int_equal(fix_be32(wqe + 16 + 4), 0x100);
	memcpy(wqe + 32, wqe, 16);
	wqe[32 + 3] = 100;
	r = send_req(qb.qpn, data, 5);
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_INVALID_REQ);
	assert_failed_then_flushed(e, &qb, 2, 0x01, 0);

	/* 16 bytes fill the four segments exactly. */
	make_qp(e, NULL, &qc);
	fix_rq_post(&qc, sge, 4);
	r = send_req(qc.qpn, data, 16);
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_resp_cqe(fix_cqe(&e->cq, 4), 2, 0, 16, NULL, qc.qpn, 0x00abcd, 0);
	for (i = 0; i < 4; i++) {
		assert_memory_equal(e->buf + 40 * i, data + 4 * i, 4);
		assert_guard(e->buf + 40 * i + 4, 36);
	}
	assert_guard(e->buf + 160, BUF_LEN - 160);
}

static void bad_lkey_is_local_prot(void **state)
{
	static const uint8_t data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	struct env *e = *state;
	uint32_t key_pd1 = fix_mr(&e->f, 1, e->buf, BUF_LEN, OGDA_ACCESS_LOCAL_WRITE);
	uint32_t key_ro = fix_mr(&e->f, 0, e->buf, BUF_LEN, 0);
	/* Second SGE: another PD's MR, an MR without LOCAL_WRITE, a range outside the MR. */
	const struct fix_sge bad[3] = {{e->buf + 64, 4, key_pd1},
				       {e->buf + 64, 4, key_ro},
				       {e->buf + BUF_LEN - 2, 4, e->key}};
	static const uint8_t vendor[3] = {0x10, 0x12, 0x11};
	struct fix_sge sge[2];
	struct fix_qp qp;
	struct swnic_req r;
	uint32_t i;

	for (i = 0; i < 3; i++) {
		make_qp(e, NULL, &qp);
		sge[0] = (struct fix_sge){e->buf, 4, e->key};
		sge[1] = bad[i];
		fix_rq_post(&qp, sge, 2);
		fix_rq_post(&qp, sge, 2);
		r = send_req(qp.qpn, data, sizeof(data));
		assert_int_equal(run(e, &r), SWNIC_RESP_NAK_REMOTE_OP);
		/* The first SGE, though valid, is not written either. */
		assert_failed_then_flushed(e, &qp, 2 * i, 0x04, vendor[i]);
	}

	/* An SGE that receives no bytes is not checked. */
	make_qp(e, NULL, &qp);
	sge[0] = (struct fix_sge){e->buf, 8, e->key};
	sge[1] = (struct fix_sge){e->buf + 64, 4, 0x77777700u};
	fix_rq_post(&qp, sge, 2);
	r = send_req(qp.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_memory_equal(e->buf, data, 8);
	assert_resp_cqe(fix_cqe(&e->cq, 6), 2, 0, 8, NULL, qp.qpn, 0x00abcd, 0);
}

static void zero_rq(struct fix_qp_cfg *c)
{
	c->zero_rq = true;
}

static void no_receive_queue_is_invalid(void **state)
{
	static const uint8_t data[4] = {2, 2, 2, 2};
	struct env *e = *state;
	struct fix_qp qp;
	struct swnic_req r;

	make_qp(e, zero_rq, &qp);
	r = send_req(qp.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_INVALID_REQ);
	r.op = SWNIC_REQ_WRITE_IMM;
	r.raddr = (uint64_t)(uintptr_t)e->buf;
	r.rkey = e->key;
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_INVALID_REQ);
	assert_guard(e->buf, BUF_LEN);
	assert_int_equal(fix_cqe(&e->cq, 0)[63], 0xf1);
}

static void err_qp_flushes_posted_receives(void **state)
{
	static const uint8_t data[4] = {3, 3, 3, 3};
	struct env *e = *state;
	struct fix_sge sge = {e->buf, 4, e->key};
	uint32_t flushed = 99;
	struct fix_qp qp;
	struct swnic_qp *sq;
	struct swnic_req r;

	make_qp(e, NULL, &qp);
	sq = swnic_qp_acquire(e->f.nic, qp.qpn);
	assert_non_null(sq);
	/* Not in ERR: nothing to flush. */
	assert_int_equal(swnic_rq_flush(sq, &flushed), DOCA_ERROR_BAD_STATE);
	assert_int_equal(flushed, 0);
	assert_int_equal(swnic_rq_flush(NULL, &flushed), DOCA_ERROR_INVALID_VALUE);

	fix_rq_post(&qp, &sge, 1);
	fix_rq_post(&qp, &sge, 1);
	fix_rq_post(&qp, &sge, 1);
	r = send_req(qp.qpn, data, sizeof(data));
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	fix_qp_transition(&e->f, &qp, PRM_CMD_2ERR_QP);
	/* Whoever flushes first (the engine on 2ERR, or this call), WQEs 1 and 2 end flushed. */
	assert_int_equal(swnic_rq_flush(sq, NULL), DOCA_SUCCESS);
	assert_resp_cqe(fix_cqe(&e->cq, 0), 2, 0, 4, NULL, qp.qpn, 0x00abcd, 0);
	assert_err_cqe(fix_cqe(&e->cq, 1), 0, 0x05, qp.qpn, 0x00abcd, 1);
	assert_err_cqe(fix_cqe(&e->cq, 2), 0, 0x05, qp.qpn, 0x00abcd, 2);
	assert_int_equal(fix_cqe(&e->cq, 3)[63], 0xf1);
	assert_int_equal(swnic_rq_flush(sq, &flushed), DOCA_SUCCESS);
	assert_int_equal(flushed, 0);
	/*
	 * A receive posted to a QP in ERR is flushed by the next call, unless the engine, which
	 * keeps flushing QPs in ERR, came first: either way exactly once, with its CQE written.
	 */
	fix_rq_post(&qp, &sge, 1);
	assert_int_equal(swnic_rq_flush(sq, &flushed), DOCA_SUCCESS);
	assert_true(flushed <= 1);
	assert_err_cqe(fix_cqe(&e->cq, 3), 0, 0x05, qp.qpn, 0x00abcd, 3);
	assert_int_equal(run(e, &r), SWNIC_RESP_NO_QP);
	assert_int_equal(fix_cqe(&e->cq, 4)[63], 0xf1);
	swnic_qp_release(sq);
}

static void receive_cq_overrun_moves_qp_to_err(void **state)
{
	static const uint8_t data[4] = {4, 4, 4, 4};
	struct env *e = *state;
	struct fix_sge sge = {e->buf, 4, e->key};
	struct fix_qp_cfg cfg;
	struct swnic_qp *sq;
	struct fix_cq small;
	struct fix_qp qp;
	struct swnic_req r;

	fix_cq_create_checked(&e->f, 1, &small); /* 2 entries, SET_CI stays 0 */
	fix_qp_cfg_default(&e->f, &small, &cfg);
	fix_qp_create(&e->f, &cfg, &qp);
	r = send_req(qp.qpn, data, sizeof(data));
	fix_rq_post(&qp, &sge, 1);
	fix_rq_post(&qp, &sge, 1);
	fix_rq_post(&qp, &sge, 1);
	fix_rq_post(&qp, &sge, 1);
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	assert_int_equal(run(e, &r), SWNIC_RESP_ACK);
	/* The third CQE has no room: the responder fails and its QP goes to ERR. */
	assert_int_equal(run(e, &r), SWNIC_RESP_NAK_REMOTE_OP);
	assert_int_equal(fix_cqe(&small, 0)[63], 0x20);
	assert_int_equal(fix_cqe(&small, 1)[63], 0x20);
	sq = swnic_qp_acquire(e->f.nic, qp.qpn);
	assert_non_null(sq);
	assert_int_equal(atomic_load(&sq->state), PRM_QP_STATE_ERR);
	swnic_qp_release(sq);
	assert_int_equal(run(e, &r), SWNIC_RESP_NO_QP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(send_scatters_and_completes, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(imm_bytes_and_write_imm, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(owner_and_counters_wrap, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(length_error_consumes_and_writes_nothing, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(scatter_list_ends_at_terminator_or_stride, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(bad_lkey_is_local_prot, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(no_receive_queue_is_invalid, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(err_qp_flushes_posted_receives, setup, fix_teardown),
		cmocka_unit_test_setup_teardown(receive_cq_overrun_moves_qp_to_err, setup, fix_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
