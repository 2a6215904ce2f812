/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ commands on the software NIC: what CREATE_CQ builds, each reason it refuses (with the
 * exact status and syndrome), DESTROY_CQ reference rules, QUERY_CQ and MODIFY_CQ.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "swnic/swnic_ctl.h"
#include "test_util.h"

static void test_create_builds_the_cq(void **state)
{
	struct cfx *f = *state;
	struct prm_create_cq_params p;
	struct swnic_cq *cq;
	uint32_t cqn = 0, cqn2 = 0;

	cfx_cq_params(f, &p, 5);
	assert_int_equal(cfx_create_cq(f, &p, &cqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cqn, SWNIC_CQ_BASE);
	cq = swnic_cq_acquire(f->nic, cqn);
	assert_non_null(cq);
	assert_ptr_equal(cq->ring, f->arena + p.cq_umem_offset);
	assert_ptr_equal((void *)cq->dbr, f->arena + p.cqc.dbr_addr);
	assert_int_equal(cq->log_size, 5);
	assert_int_equal(cq->cqe_size, 64);
	assert_false(cq->collapsed);
	assert_false(cq->overrun_ignore);
	assert_int_equal(cq->uar->page_id, f->uar);
	assert_int_equal(cq->umem->id, f->umem);
	assert_int_equal(cq->dbr_umem->id, f->umem);
	assert_int_equal(atomic_load(&cq->produced), 0);
	assert_false(atomic_load(&cq->in_error));
	assert_int_equal(atomic_load(&cq->uar->refs), 1);
	assert_int_equal(atomic_load(&cq->umem->refs), 2);   /* ring and DBR */
	swnic_cq_release(cq);

	/* 128-byte CQEs, collapsed, overrun ignored. */
	cfx_cq_params(f, &p, 0);
	p.cq_umem_offset = cfx_alloc(f, 128, 4096);
	p.cqc.cqe_sz = PRM_CQE_SIZE_128;
	p.cqc.cc = 1;
	p.cqc.oi = 1;
	assert_int_equal(cfx_create_cq(f, &p, &cqn2, NULL), PRM_STATUS_OK);
	assert_int_equal(cqn2, SWNIC_CQ_BASE + 1);
	cq = swnic_cq_acquire(f->nic, cqn2);
	assert_non_null(cq);
	assert_int_equal(cq->cqe_size, 128);
	assert_int_equal(cq->log_size, 0);
	assert_true(cq->collapsed);
	assert_true(cq->overrun_ignore);
	swnic_cq_release(cq);
}

struct cq_case {
	const char *what;
	void (*mutate)(struct cfx *f, struct prm_create_cq_params *p);
	uint8_t status;
	uint32_t syndrome;
};

static void m_cqe_sz(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.cqe_sz = 2;
}

static void m_comp(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.cqe_comp_en = 1;
}

static void m_size(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.log_cq_size = 23;
}

static void m_eqn(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.c_eqn = SWNIC_EQN + 1;
}

static void m_uar(struct cfx *f, struct prm_create_cq_params *p)
{
	p->cqc.uar_page = f->uar + 7;
}

static void m_umem_valid(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cq_umem_valid = 0;
}

static void m_umem_id(struct cfx *f, struct prm_create_cq_params *p)
{
	p->cq_umem_id = f->umem + 1;
}

static void m_ring_overruns(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cq_umem_offset = CFX_ARENA_SIZE - (64u << 4) + 64u; /* one CQE past the end */
}

static void m_offset_past_end(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cq_umem_offset = (uint64_t)CFX_ARENA_SIZE + 4096u;
}

static void m_dbr_valid(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.dbr_umem_valid = 0;
}

static void m_dbr_umem(struct cfx *f, struct prm_create_cq_params *p)
{
	p->cqc.dbr_umem_id = f->umem + 3;
}

static void m_dbr_range(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.dbr_addr = CFX_ARENA_SIZE - 4u;
}

static void m_dbr_align(struct cfx *f, struct prm_create_cq_params *p)
{
	(void)f;
	p->cqc.dbr_addr += 4;
}

static const struct cq_case cq_cases[] = {
	{"cqe_sz 2", m_cqe_sz, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQE_SIZE},
	{"cqe_comp_en", m_comp, PRM_STATUS_BAD_PARAM, SWNIC_SYND_CQE_COMP},
	{"log_cq_size 23", m_size, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CQ_SIZE},
	{"c_eqn", m_eqn, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_EQN},
	{"uar_page", m_uar, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UAR},
	{"cq_umem_valid 0", m_umem_valid, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_REQUIRED},
	{"cq_umem_id", m_umem_id, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UMEM},
	{"ring past the umem", m_ring_overruns, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_RANGE},
	{"offset past the umem", m_offset_past_end, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_RANGE},
	{"dbr_umem_valid 0", m_dbr_valid, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_REQUIRED},
	{"dbr_umem_id", m_dbr_umem, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_DBR_UMEM},
	{"DBR past the umem", m_dbr_range, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_RANGE},
	{"DBR misaligned", m_dbr_align, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_ALIGN},
};

static void test_create_failures(void **state)
{
	struct cfx *f = *state;
	struct prm_create_cq_params p;
	size_t i;

	for (i = 0; i < sizeof(cq_cases) / sizeof(cq_cases[0]); i++) {
		uint32_t synd = 0, cqn = 0xdead;

		cfx_cq_params(f, &p, 4);
		cq_cases[i].mutate(f, &p);
		print_message("case: %s\n", cq_cases[i].what);
		assert_int_equal(cfx_create_cq(f, &p, &cqn, &synd), cq_cases[i].status);
		assert_int_equal(synd, cq_cases[i].syndrome);
		assert_int_equal(cqn, 0xdead);
	}
	/* Nothing was created or referenced: the first CQ still gets the first number. */
	assert_int_equal(f->nic->cqs.count, 0);
	assert_int_equal(cfx_cq(f, 4), SWNIC_CQ_BASE);
}

static void test_queue_memory_must_be_host(void **state)
{
	struct cfx *f = *state;
	struct prm_create_cq_params p;
	static uint8_t gpu_mem[8192] __attribute__((aligned(4096)));
	char log[1024];
	uint32_t gpu_umem = 0, synd = 0;

	cfx_fake_gpu_range(gpu_mem, sizeof(gpu_mem));
	assert_int_equal(swnic_umem_register(f->nic, gpu_mem, sizeof(gpu_mem), OGDA_ACCESS_LOCAL_WRITE, &gpu_umem),
			 DOCA_SUCCESS);

	cfx_cq_params(f, &p, 4);
	p.cq_umem_id = gpu_umem;
	p.cq_umem_offset = 0;
	stderr_capture_begin();
	assert_int_equal(cfx_create_cq(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	stderr_capture_end(log, sizeof(log));
	assert_int_equal(synd, SWNIC_SYND_UMEM_NOT_HOST);
	assert_non_null(strstr(log, "queue memory must be host-visible"));
	assert_non_null(strstr(log, "CREATE_CQ"));

	cfx_cq_params(f, &p, 4);
	p.cqc.dbr_umem_id = gpu_umem;
	p.cqc.dbr_addr = 64;
	assert_int_equal(cfx_create_cq(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_DBR_NOT_HOST);
	assert_int_equal(swnic_umem_deregister(f->nic, gpu_umem), DOCA_SUCCESS);
}

static void test_destroy_rules(void **state)
{
	struct cfx *f = *state;
	struct prm_create_qp_params qp;
	uint32_t scqn = cfx_cq(f, 4), rcqn = cfx_cq(f, 4), qpn = 0, synd = 0;

	cfx_qp_params(f, &qp, scqn, rcqn);
	assert_int_equal(cfx_create_qp(f, &qp, &qpn, NULL), PRM_STATUS_OK);
	/* Both CQs are used by the QP. */
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, scqn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_CQ_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, rcqn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_CQ_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_QP, qpn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, scqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, rcqn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_CQ, rcqn, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_CQN);
	/* Everything the CQs referenced is free again. */
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_SUCCESS);
	assert_int_equal(swnic_uar_free(f->nic, f->uar), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_free(f->nic, f->pdn), DOCA_SUCCESS);
}

static uint8_t query_cq(struct cfx *f, uint32_t cqn, struct prm_cqc_params *q, uint32_t *synd)
{
	uint8_t in[PRM_CQ_SMALL_CMD_SIZE], out[PRM_QUERY_CQ_OUT_SIZE];
	uint8_t st;

	assert_int_equal(prm_query_cq_in_build(0, cqn, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), synd);
	if (st == PRM_STATUS_OK)
		assert_int_equal(prm_query_cq_out_parse(out, sizeof(out), q), DOCA_SUCCESS);
	return st;
}

static void test_query(void **state)
{
	struct cfx *f = *state;
	struct prm_create_cq_params p;
	struct prm_cqc_params q;
	struct swnic_cq *cq;
	uint32_t cqn = 0, synd = 0;

	cfx_cq_params(f, &p, 6);
	p.cqc.cc = 1;
	p.cqc.cq_period = 16;
	p.cqc.cq_max_count = 8;
	p.cqc.st = PRM_CQ_STATE_ARMED;
	assert_int_equal(cfx_create_cq(f, &p, &cqn, NULL), PRM_STATUS_OK);
	assert_int_equal(query_cq(f, cqn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.log_cq_size, 6);
	assert_int_equal(q.uar_page, f->uar);
	assert_int_equal(q.c_eqn, SWNIC_EQN);
	assert_int_equal(q.cc, 1);
	assert_int_equal(q.oi, 0);
	assert_int_equal(q.cqe_sz, 0);
	assert_int_equal(q.dbr_umem_valid, 1);
	assert_int_equal(q.dbr_umem_id, f->umem);
	assert_int_equal(q.dbr_addr, p.cqc.dbr_addr);
	assert_int_equal(q.cq_period, 16);
	assert_int_equal(q.cq_max_count, 8);
	assert_int_equal(q.st, PRM_CQ_STATE_ARMED);
	assert_int_equal(q.status, PRM_CQC_STATUS_OK);
	assert_int_equal(q.producer_counter, 0);
	assert_int_equal(q.consumer_counter, 0);

	/* Live counters: CQEs produced by the engine, SET_CI from the doorbell record. */
	cq = swnic_cq_acquire(f->nic, cqn);
	assert_non_null(cq);
	atomic_store(&cq->produced, 0x1000007u);
	atomic_store(&cq->dbr[0], htobe32(5));
	atomic_store(&cq->in_error, true);
	swnic_cq_release(cq);
	assert_int_equal(query_cq(f, cqn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.producer_counter, 7);    /* 24 bits */
	assert_int_equal(q.consumer_counter, 5);
	assert_int_equal(q.status, PRM_CQC_STATUS_OVERFLOW);

	assert_int_equal(query_cq(f, cqn + 1, &q, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_CQN);
}

static uint8_t modify_cq(struct cfx *f, const struct prm_modify_cq_params *p, uint32_t *synd)
{
	uint8_t in[PRM_MODIFY_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];

	assert_int_equal(prm_modify_cq_in_build(p, in, sizeof(in)), DOCA_SUCCESS);
	return cfx_exec(f, in, sizeof(in), out, sizeof(out), synd);
}

static void test_modify(void **state)
{
	struct cfx *f = *state;
	struct prm_modify_cq_params m;
	struct prm_cqc_params q;
	struct swnic_cq *cq;
	uint32_t cqn = cfx_cq(f, 4), synd = 0;

	/* Only the selected fields change. */
	memset(&m, 0, sizeof(m));
	m.cqn = cqn;
	m.op_mod = PRM_MODIFY_CQ_OP_MODIFY;
	m.modify_field_select = PRM_MODIFY_CQ_SELECT_COUNT;
	m.cqc.cq_max_count = 33;
	m.cqc.cq_period = 44;
	m.cqc.oi = 1;
	assert_int_equal(modify_cq(f, &m, NULL), PRM_STATUS_OK);
	assert_int_equal(query_cq(f, cqn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.cq_max_count, 33);
	assert_int_equal(q.cq_period, 0);
	assert_int_equal(q.oi, 0);

	m.modify_field_select = PRM_MODIFY_CQ_SELECT_PERIOD | PRM_MODIFY_CQ_SELECT_OI;
	assert_int_equal(modify_cq(f, &m, NULL), PRM_STATUS_OK);
	assert_int_equal(query_cq(f, cqn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.cq_period, 44);
	assert_int_equal(q.oi, 1);
	cq = swnic_cq_acquire(f->nic, cqn);
	assert_true(cq->overrun_ignore);
	swnic_cq_release(cq);

	m.op_mod = PRM_MODIFY_CQ_OP_RESIZE;
	assert_int_equal(modify_cq(f, &m, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_CQ_RESIZE);
	m.op_mod = 2;
	assert_int_equal(modify_cq(f, &m, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_OP_MOD);
	m.op_mod = PRM_MODIFY_CQ_OP_MODIFY;
	m.modify_field_select = 1u << 3;
	assert_int_equal(modify_cq(f, &m, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_FIELD_SELECT);
	m.modify_field_select = PRM_MODIFY_CQ_SELECT_COUNT;
	m.cqn = cqn + 5;
	assert_int_equal(modify_cq(f, &m, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_CQN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_builds_the_cq, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_create_failures, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_memory_must_be_host, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_rules, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_query, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_modify, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
