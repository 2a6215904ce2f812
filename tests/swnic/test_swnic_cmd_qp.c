/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CREATE_QP / DESTROY_QP / QUERY_QP on the software NIC: where the queues land (RQ first,
 * SQ after it; SQ at the offset with an SRQ or no RQ), what the QP object records, each
 * refusal with its exact status and syndrome, and the reference rules between a QP and
 * the objects it names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <endian.h>
#include <string.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_qpn_alloc.h"
#include "test_util.h"

static void test_create_places_queues(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4), qpn = 0, qpn2 = 0;
	struct swnic_qp *qp;

	cfx_qp_params(f, &p, scqn, rcqn);
	p.qpc.log_rq_stride = 2;          /* 64-byte receive WQEs: RQ = 16 x 64 = 1 KiB */
	p.wq_umem_offset = cfx_alloc(f, 1024 + (64u << 6), 4096);
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	/* Random QPNs: in range, and the next one is not this one plus one. */
	assert_in_range(qpn, SWNIC_QPN_MIN, SWNIC_QPN_MULTICAST - 1);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_non_null(qp);
	assert_int_equal(qp->qpn, qpn);
	assert_ptr_equal(qp->nic, f->nic);
	assert_int_equal(atomic_load(&qp->state), PRM_QP_STATE_RST);
	assert_int_equal(qp->st, PRM_QP_ST_RC);
	assert_int_equal(qp->pd->pdn, f->pdn);
	assert_int_equal(qp->uar->page_id, f->uar);
	assert_int_equal(qp->user_index, 0x123456);
	assert_int_equal(qp->send_cq->cqn, scqn);
	assert_int_equal(qp->recv_cq->cqn, rcqn);
	assert_null(qp->srq);
	/* RQ at the offset, SQ right after it. */
	assert_true(qp->has_rq);
	assert_ptr_equal(qp->rq.ring, f->arena + p.wq_umem_offset);
	assert_int_equal(qp->rq.log_size, 4);
	assert_int_equal(qp->rq.log_stride, 2);
	assert_ptr_equal(qp->sq, f->arena + p.wq_umem_offset + 1024);
	assert_int_equal(qp->log_sq_wqebbs, 6);
	assert_ptr_equal((void *)qp->dbr, f->arena + p.qpc.dbr_addr);
	assert_ptr_equal((void *)qp->rq.dbr, (void *)&qp->dbr[0]);
	assert_int_equal(qp->send_dbr_mode, PRM_QP_SEND_DBR_VALID);
	assert_false(qp->cd_master);
	assert_int_equal(qp->sq_ci, 0);
	assert_int_equal(qp->sq_target, 0);
	assert_int_equal(qp->wq_umem->id, f->umem);
	assert_int_equal(qp->dbr_umem->id, f->umem);
	assert_int_equal(atomic_load(&qp->send_cq->refs), 1);
	assert_int_equal(atomic_load(&qp->recv_cq->refs), 1);
	assert_int_equal(atomic_load(&qp->pd->refs), 1);
	assert_int_equal(atomic_load(&qp->uar->refs), 3);   /* the two CQs and the QP */
	swnic_qp_release(qp);

	/* UC, DBR-less, cross-channel master, one CQ for both directions. */
	cfx_qp_params(f, &p, scqn, scqn);
	p.qpc.st = PRM_QP_ST_UC;
	p.qpc.send_dbr_mode = PRM_QP_SEND_DBR_NO_DBR_EXT;
	p.qpc.cd_master = 1;
	assert_int_equal(cfx_create_qp(f, &p, &qpn2, NULL), PRM_STATUS_OK);
	assert_in_range(qpn2, SWNIC_QPN_MIN, SWNIC_QPN_MULTICAST - 1);
	assert_int_not_equal(qpn2, qpn + 1);
	assert_int_not_equal(qpn2, qpn);
	qp = swnic_qp_acquire(f->nic, qpn2);
	assert_int_equal(qp->st, PRM_QP_ST_UC);
	assert_int_equal(qp->send_dbr_mode, PRM_QP_SEND_DBR_NO_DBR_EXT);
	assert_true(qp->cd_master);
	assert_int_equal(atomic_load(&qp->send_cq->refs), 3);
	swnic_qp_release(qp);
}

static void test_create_srq_and_zero_rq(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	struct prm_create_rmp_params r;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4), rmpn = 0, qpn = 0, synd = 0;
	struct swnic_qp *qp;

	cfx_rmp_params(f, &r);
	assert_int_equal(cfx_create_rmp(f, &r, &rmpn, NULL), PRM_STATUS_OK);
	cfx_qp_params(f, &p, scqn, rcqn);
	p.qpc.rq_type = PRM_QP_RQ_SRQ;
	p.qpc.srqn_rmpn_xrqn = rmpn;
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_non_null(qp->srq);
	assert_int_equal(qp->srq->srqn, rmpn);
	assert_false(qp->has_rq);
	assert_ptr_equal(qp->sq, f->arena + p.wq_umem_offset);   /* no RQ of its own: SQ first */
	assert_int_equal(qp->recv_cq->cqn, rcqn);
	assert_int_equal(atomic_load(&qp->srq->refs), 1);
	swnic_qp_release(qp);
	/* The RMP cannot go while the QP uses it. */
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_RMP, rmpn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_RMP_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_QP, qpn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_RMP, rmpn, NULL), PRM_STATUS_OK);

	/* Zero-length RQ: no receive CQ needed, SQ at the offset. */
	cfx_qp_params(f, &p, scqn, 0);
	p.qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_false(qp->has_rq);
	assert_null(qp->srq);
	assert_null(qp->recv_cq);
	assert_ptr_equal(qp->sq, f->arena + p.wq_umem_offset);
	swnic_qp_release(qp);

	/* Receive only: no SQ, no send CQ. */
	cfx_qp_params(f, &p, 0, rcqn);
	p.qpc.no_sq = 1;
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_null(qp->sq);
	assert_null(qp->send_cq);
	assert_true(qp->has_rq);
	swnic_qp_release(qp);
}

/* log_sq_size and log_rq_size are 4-bit fields: 15 is both the widest value and the cap. */
static void test_largest_queues(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	uint32_t qpn = 0;
	struct swnic_qp *qp;

	cfx_qp_params(f, &p, cfx_cq(f, 2), cfx_cq(f, 2));
	p.qpc.log_sq_size = 15;
	p.qpc.log_rq_size = 15;
	p.wq_umem_offset = cfx_alloc(f, (16u << 15) + (64u << 15), 4096);
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->log_sq_wqebbs, 15);
	assert_int_equal(qp->rq.log_size, 15);
	assert_ptr_equal(qp->sq, f->arena + p.wq_umem_offset + (16u << 15));
	swnic_qp_release(qp);
}

struct qp_case {
	const char *what;
	void (*mutate)(struct cfx *f, struct prm_create_qp_params *p);
	uint32_t syndrome;      /* status is BAD_PARAM for all */
};

#define MUT(name, body)                                                                            \
	static void name(struct cfx *f, struct prm_create_qp_params *p)                           \
	{                                                                                          \
		(void)f;                                                                           \
		body;                                                                              \
	}

MUT(m_st_ud, p->qpc.st = PRM_QP_ST_UD)
MUT(m_st_xrc, p->qpc.st = PRM_QP_ST_XRC)
MUT(m_st_dci, p->qpc.st = PRM_QP_ST_DCI)
MUT(m_dbr_int, p->qpc.send_dbr_mode = PRM_QP_SEND_DBR_NO_DBR_INT)
MUT(m_dbr_3, p->qpc.send_dbr_mode = 3)
MUT(m_cd_slave_send, p->qpc.cd_slave_send = 1)
MUT(m_cd_slave_recv, p->qpc.cd_slave_receive = 1)
MUT(m_rq_stride, p->qpc.log_rq_stride = 6)
MUT(m_rq_cyclic, p->qpc.rq_type = PRM_QP_RQ_CYCLIC)
MUT(m_no_queue, {
	p->qpc.no_sq = 1;
	p->qpc.rq_type = PRM_QP_RQ_ZERO_LEN;
})
MUT(m_pd, p->qpc.pd = f->pdn + 9)
MUT(m_uar, p->qpc.uar_page = 0)
MUT(m_scq, p->qpc.cqn_snd = p->qpc.cqn_snd + 40)
MUT(m_scq_missing, p->qpc.cqn_snd = 0)
MUT(m_rcq_missing, p->qpc.cqn_rcv = 0)
MUT(m_srq, {
	p->qpc.rq_type = PRM_QP_RQ_SRQ;
	p->qpc.srqn_rmpn_xrqn = SWNIC_SRQ_BASE + 3;
})
MUT(m_wq_valid, p->wq_umem_valid = 0)
MUT(m_wq_umem, p->wq_umem_id = f->umem + 1)
MUT(m_wq_range, p->wq_umem_offset = CFX_ARENA_SIZE - 4096)   /* needs 256 + 4096 bytes */
MUT(m_dbr_valid, p->qpc.dbr_umem_valid = 0)
MUT(m_dbr_umem, p->qpc.dbr_umem_id = 0)
MUT(m_dbr_range, p->qpc.dbr_addr = CFX_ARENA_SIZE)
MUT(m_dbr_align, p->qpc.dbr_addr += 2)

static const struct qp_case qp_cases[] = {
	{"st UD", m_st_ud, SWNIC_SYND_BAD_ST},
	{"st XRC", m_st_xrc, SWNIC_SYND_BAD_ST},
	{"st DCI", m_st_dci, SWNIC_SYND_BAD_ST},
	{"send_dbr_mode NO_DBR_INT", m_dbr_int, SWNIC_SYND_BAD_SEND_DBR_MODE},
	{"send_dbr_mode 3", m_dbr_3, SWNIC_SYND_BAD_SEND_DBR_MODE},
	{"cd_slave_send", m_cd_slave_send, SWNIC_SYND_CD_SLAVE},
	{"cd_slave_receive", m_cd_slave_recv, SWNIC_SYND_CD_SLAVE},
	{"RQ WQE 1 KiB", m_rq_stride, SWNIC_SYND_BAD_RQ_SIZE},
	{"rq_type cyclic", m_rq_cyclic, SWNIC_SYND_BAD_RQ_TYPE},
	{"no queue at all", m_no_queue, SWNIC_SYND_NO_QUEUE},
	{"pd", m_pd, SWNIC_SYND_BAD_PD},
	{"uar_page", m_uar, SWNIC_SYND_BAD_UAR},
	{"cqn_snd", m_scq, SWNIC_SYND_BAD_CQ_REF},
	{"cqn_snd missing", m_scq_missing, SWNIC_SYND_BAD_CQ_REF},
	{"cqn_rcv missing", m_rcq_missing, SWNIC_SYND_BAD_CQ_REF},
	{"srqn", m_srq, SWNIC_SYND_BAD_SRQN},
	{"wq_umem_valid 0", m_wq_valid, SWNIC_SYND_UMEM_REQUIRED},
	{"wq_umem_id", m_wq_umem, SWNIC_SYND_BAD_UMEM},
	{"WQ past the umem", m_wq_range, SWNIC_SYND_UMEM_RANGE},
	{"dbr_umem_valid 0", m_dbr_valid, SWNIC_SYND_DBR_REQUIRED},
	{"dbr_umem_id", m_dbr_umem, SWNIC_SYND_BAD_DBR_UMEM},
	{"DBR past the umem", m_dbr_range, SWNIC_SYND_DBR_RANGE},
	{"DBR misaligned", m_dbr_align, SWNIC_SYND_DBR_ALIGN},
};

static void test_create_failures(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4);
	size_t i;

	for (i = 0; i < sizeof(qp_cases) / sizeof(qp_cases[0]); i++) {
		uint32_t synd = 0, qpn = 0xdead;

		cfx_qp_params(f, &p, scqn, rcqn);
		qp_cases[i].mutate(f, &p);
		print_message("case: %s\n", qp_cases[i].what);
		assert_int_equal(cfx_create_qp(f, &p, &qpn, &synd), PRM_STATUS_BAD_PARAM);
		assert_int_equal(synd, qp_cases[i].syndrome);
		assert_int_equal(qpn, 0xdead);
	}
	/* No QP exists and no reference was left behind. */
	assert_int_equal(f->nic->qps.count, 0);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, scqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, rcqn, NULL), PRM_STATUS_OK);
	assert_int_equal(swnic_uar_free(f->nic, f->uar), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_free(f->nic, f->pdn), DOCA_SUCCESS);
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_SUCCESS);
}

/* A failed CREATE_QP's out mailbox, byte for byte. */
static void test_failure_mailbox(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE], out[PRM_QP_CMD_SHORT_SIZE];
	const uint8_t expect[PRM_QP_CMD_SHORT_SIZE] = {PRM_STATUS_BAD_PARAM, 0, 0, 0, 0, 0, 0x05, 0x02};

	cfx_qp_params(f, &p, cfx_cq(f, 2), cfx_cq(f, 2));
	p.qpc.st = PRM_QP_ST_UD;
	assert_int_equal(prm_create_qp_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	memset(out, 0xcc, sizeof(out));
	assert_int_equal(swnic_cmd_exec(f->nic, in, sizeof(in), out, sizeof(out)), DOCA_ERROR_INVALID_VALUE);
	assert_memory_equal(out, expect, sizeof(expect));
}

static void test_queue_memory_must_be_host(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	static uint8_t gpu_mem[16384] __attribute__((aligned(4096)));
	uint32_t gpu_umem = 0, synd = 0;
	char log[1024];

	cfx_fake_gpu_range(gpu_mem, sizeof(gpu_mem));
	assert_int_equal(swnic_umem_register(f->nic, gpu_mem, sizeof(gpu_mem), OGDA_ACCESS_LOCAL_WRITE, &gpu_umem),
			 DOCA_SUCCESS);
	cfx_qp_params(f, &p, cfx_cq(f, 2), cfx_cq(f, 2));
	p.wq_umem_id = gpu_umem;
	p.wq_umem_offset = 0;
	stderr_capture_begin();
	assert_int_equal(cfx_create_qp(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	stderr_capture_end(log, sizeof(log));
	assert_int_equal(synd, SWNIC_SYND_UMEM_NOT_HOST);
	assert_non_null(strstr(log, "CREATE_QP"));
	assert_non_null(strstr(log, "queue memory must be host-visible"));

	cfx_qp_params(f, &p, cfx_cq(f, 2), cfx_cq(f, 2));
	p.qpc.dbr_umem_id = gpu_umem;
	p.qpc.dbr_addr = 0;
	assert_int_equal(cfx_create_qp(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_DBR_NOT_HOST);
	assert_int_equal(swnic_umem_deregister(f->nic, gpu_umem), DOCA_SUCCESS);
}

static void test_references_held_until_destroy(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = cfx_qp(f), synd = 0;
	struct swnic_qp *qp = swnic_qp_acquire(f->nic, qpn);
	uint32_t scqn = qp->send_cq->cqn, rcqn = qp->recv_cq->cqn;

	swnic_qp_release(qp);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, scqn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_CQ_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, f->pdn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_PD_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_UAR, f->uar, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_UAR_IN_USE);
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_ERROR_IN_USE);

	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_QP, qpn, NULL), PRM_STATUS_OK);
	assert_null(swnic_qp_acquire(f->nic, qpn));
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_QP, qpn, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_QPN);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, scqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, rcqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, f->pdn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_UAR, f->uar, NULL), PRM_STATUS_OK);
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_SUCCESS);
	/* The number is free again. */
}

static void test_query_reports_creation(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params p;
	struct prm_qpc_params q;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4), qpn = 0, synd = 0;
	struct swnic_qp *qp;

	cfx_qp_params(f, &p, scqn, rcqn);
	p.qpc.cd_master = 1;
	p.qpc.counter_set_id = 3;
	assert_int_equal(cfx_create_qp(f, &p, &qpn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.state, PRM_QP_STATE_RST);
	assert_int_equal(q.st, PRM_QP_ST_RC);
	assert_int_equal(q.pm_state, PRM_QP_PM_MIGRATED);
	assert_int_equal(q.pd, f->pdn);
	assert_int_equal(q.uar_page, f->uar);
	assert_int_equal(q.user_index, 0x123456);
	assert_int_equal(q.log_sq_size, 6);
	assert_int_equal(q.log_rq_size, 4);
	assert_int_equal(q.log_rq_stride, 0);
	assert_int_equal(q.ts_format, PRM_QP_TS_DEFAULT);
	assert_int_equal(q.cqn_snd, scqn);
	assert_int_equal(q.cqn_rcv, rcqn);
	assert_int_equal(q.rq_type, PRM_QP_RQ_REGULAR);
	assert_int_equal(q.cd_master, 1);
	assert_int_equal(q.counter_set_id, 3);
	assert_int_equal(q.dbr_umem_valid, 1);
	assert_int_equal(q.dbr_umem_id, f->umem);
	assert_int_equal(q.dbr_addr, p.qpc.dbr_addr);
	assert_int_equal(q.remote_qpn, 0);
	assert_int_equal(q.mtu, 0);
	/* Software counters come from the doorbell record. */
	qp = swnic_qp_acquire(f->nic, qpn);
	atomic_store(&qp->dbr[0], htobe32(3));
	atomic_store(&qp->dbr[1], htobe32(0x11234));
	swnic_qp_release(qp);
	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.sw_rq_counter, 3);
	assert_int_equal(q.sw_sq_wqebb_counter, 0x1234);

	assert_int_equal(cfx_query_qp(f, qpn + 1, &q, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_QPN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_places_queues, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_create_srq_and_zero_rq, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_largest_queues, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_create_failures, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_failure_mailbox, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_memory_must_be_host, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_references_held_until_destroy, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_reports_creation, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
