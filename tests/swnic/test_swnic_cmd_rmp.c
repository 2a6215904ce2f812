/* SPDX-License-Identifier: BSD-3-Clause */
/* RMP (shared receive queue) commands: what CREATE_RMP builds, refusals, query, state changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <endian.h>
#include <string.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_ctl.h"

static struct swnic_srq *srq_of(struct cfx *f, uint32_t rmpn)
{
	struct swnic_srq *srq;

	pthread_rwlock_rdlock(&f->nic->lock);
	srq = swnic_table_lookup(&f->nic->srqs, rmpn);
	pthread_rwlock_unlock(&f->nic->lock);
	return srq;
}

static void test_create_builds_the_srq(void **state)
{
	struct cfx *f = *state;
	struct prm_create_rmp_params p;
	struct swnic_srq *srq;
	uint32_t rmpn = 0, rmpn2 = 0;

	cfx_rmp_params(f, &p);
	assert_int_equal(cfx_create_rmp(f, &p, &rmpn, NULL), PRM_STATUS_OK);
	assert_int_equal(rmpn, SWNIC_SRQ_BASE);
	srq = srq_of(f, rmpn);
	assert_non_null(srq);
	assert_int_equal(srq->srqn, rmpn);
	assert_int_equal(srq->pd->pdn, f->pdn);
	assert_ptr_equal(srq->rq.ring, f->arena + p.rmpc.wq.wq_umem_offset);
	assert_int_equal(srq->rq.log_size, 4);
	assert_int_equal(srq->rq.log_stride, 2);     /* 64 B = 16 << 2 */
	assert_ptr_equal((void *)srq->rq.dbr, f->arena + p.rmpc.wq.dbr_addr);
	assert_int_equal(srq->rq.ci, 0);
	assert_int_equal(atomic_load(&srq->refs), 0);
	assert_int_equal(atomic_load(&srq->pd->refs), 1);

	/* Linked-list WQ, 16-byte WQEs, a 4-byte aligned DBR. */
	cfx_rmp_params(f, &p);
	p.rmpc.wq.wq_type = PRM_WQ_TYPE_LINKED_LIST;
	p.rmpc.wq.log_wq_stride = 4;
	p.rmpc.wq.dbr_addr += 4;
	p.rmpc.state = PRM_RMP_STATE_RST;
	assert_int_equal(cfx_create_rmp(f, &p, &rmpn2, NULL), PRM_STATUS_OK);
	assert_int_equal(rmpn2, SWNIC_SRQ_BASE + 1);
	assert_int_equal(srq_of(f, rmpn2)->rq.log_stride, 0);
}

struct rmp_case {
	const char *what;
	void (*mutate)(struct cfx *f, struct prm_create_rmp_params *p);
	uint32_t syndrome;
};

#define MUT(name, body)                                                                            \
	static void name(struct cfx *f, struct prm_create_rmp_params *p)                          \
	{                                                                                          \
		(void)f;                                                                           \
		body;                                                                              \
	}

MUT(m_state_err, p->rmpc.state = PRM_RMP_STATE_ERR)
MUT(m_state_2, p->rmpc.state = 2)
MUT(m_striding, p->rmpc.wq.wq_type = PRM_WQ_TYPE_CYCLIC_STRIDING)
MUT(m_ll_striding, p->rmpc.wq.wq_type = PRM_WQ_TYPE_LINKED_LIST_STRIDING)
MUT(m_size, p->rmpc.wq.log_wq_sz = 16)
MUT(m_stride_small, p->rmpc.wq.log_wq_stride = 3)
MUT(m_stride_big, p->rmpc.wq.log_wq_stride = 10)
MUT(m_pd, p->rmpc.wq.pd = f->pdn + 1)
MUT(m_wq_valid, p->rmpc.wq.wq_umem_valid = 0)
MUT(m_wq_umem, p->rmpc.wq.wq_umem_id = 0)
MUT(m_wq_range, p->rmpc.wq.wq_umem_offset = CFX_ARENA_SIZE - 512)
MUT(m_dbr_valid, p->rmpc.wq.dbr_umem_valid = 0)
MUT(m_dbr_umem, p->rmpc.wq.dbr_umem_id = f->umem + 2)
MUT(m_dbr_range, p->rmpc.wq.dbr_addr = CFX_ARENA_SIZE - 2)
MUT(m_dbr_align, p->rmpc.wq.dbr_addr += 2)

static const struct rmp_case rmp_cases[] = {
	{"created in ERR", m_state_err, SWNIC_SYND_BAD_RMP_STATE},
	{"state 2", m_state_2, SWNIC_SYND_BAD_RMP_STATE},
	{"cyclic striding", m_striding, SWNIC_SYND_BAD_WQ_TYPE},
	{"linked-list striding", m_ll_striding, SWNIC_SYND_BAD_WQ_TYPE},
	{"log_wq_sz 16", m_size, SWNIC_SYND_BAD_WQ_SIZE},
	{"8-byte WQEs", m_stride_small, SWNIC_SYND_BAD_WQ_STRIDE},
	{"1 KiB WQEs", m_stride_big, SWNIC_SYND_BAD_WQ_STRIDE},
	{"pd", m_pd, SWNIC_SYND_BAD_PD},
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
	struct prm_create_rmp_params p;
	size_t i;

	for (i = 0; i < sizeof(rmp_cases) / sizeof(rmp_cases[0]); i++) {
		uint32_t synd = 0, rmpn = 0xdead;

		cfx_rmp_params(f, &p);
		rmp_cases[i].mutate(f, &p);
		print_message("case: %s\n", rmp_cases[i].what);
		assert_int_equal(cfx_create_rmp(f, &p, &rmpn, &synd), PRM_STATUS_BAD_PARAM);
		assert_int_equal(synd, rmp_cases[i].syndrome);
		assert_int_equal(rmpn, 0xdead);
	}
	assert_int_equal(f->nic->srqs.count, 0);
	assert_int_equal(swnic_pd_free(f->nic, f->pdn), DOCA_SUCCESS);
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_SUCCESS);
}

static void test_queue_memory_must_be_host(void **state)
{
	struct cfx *f = *state;
	struct prm_create_rmp_params p;
	static uint8_t gpu_mem[4096] __attribute__((aligned(4096)));
	uint32_t gpu_umem = 0, synd = 0;

	cfx_fake_gpu_range(gpu_mem, sizeof(gpu_mem));
	assert_int_equal(swnic_umem_register(f->nic, gpu_mem, sizeof(gpu_mem), 0, &gpu_umem), DOCA_SUCCESS);
	cfx_rmp_params(f, &p);
	p.rmpc.wq.wq_umem_id = gpu_umem;
	p.rmpc.wq.wq_umem_offset = 0;
	assert_int_equal(cfx_create_rmp(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_UMEM_NOT_HOST);
	cfx_rmp_params(f, &p);
	p.rmpc.wq.dbr_umem_id = gpu_umem;
	p.rmpc.wq.dbr_addr = 0;
	assert_int_equal(cfx_create_rmp(f, &p, NULL, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_DBR_NOT_HOST);
}

static uint8_t query_rmp(struct cfx *f, uint32_t rmpn, struct prm_rmpc_params *r, uint32_t *synd)
{
	uint8_t in[PRM_RMP_SMALL_CMD_SIZE], out[PRM_RMP_CMD_SIZE];
	uint8_t st;

	assert_int_equal(prm_query_rmp_in_build(0, rmpn, in, sizeof(in)), DOCA_SUCCESS);
	st = cfx_exec(f, in, sizeof(in), out, sizeof(out), synd);
	if (st == PRM_STATUS_OK)
		assert_int_equal(prm_query_rmp_out_parse(out, sizeof(out), r), DOCA_SUCCESS);
	return st;
}

static uint8_t modify_rmp(struct cfx *f, uint32_t rmpn, uint8_t cur, uint8_t next, uint64_t bitmask, uint16_t lwm,
			  uint32_t *synd)
{
	uint8_t in[PRM_RMP_CMD_SIZE], out[PRM_RMP_SMALL_CMD_SIZE];
	struct prm_modify_rmp_params m;

	memset(&m, 0, sizeof(m));
	m.rmpn = rmpn;
	m.rmp_state = cur;
	m.rmpc.state = next;
	m.bitmask = bitmask;
	m.rmpc.wq.lwm = lwm;
	assert_int_equal(prm_modify_rmp_in_build(&m, in, sizeof(in)), DOCA_SUCCESS);
	return cfx_exec(f, in, sizeof(in), out, sizeof(out), synd);
}

static void test_query_and_modify(void **state)
{
	struct cfx *f = *state;
	struct prm_create_rmp_params p;
	struct prm_rmpc_params r;
	struct swnic_srq *srq;
	uint32_t rmpn = 0, synd = 0;

	cfx_rmp_params(f, &p);
	assert_int_equal(cfx_create_rmp(f, &p, &rmpn, NULL), PRM_STATUS_OK);
	srq = srq_of(f, rmpn);
	atomic_store(&srq->rq.dbr[0], htobe32(7));
	assert_int_equal(query_rmp(f, rmpn, &r, NULL), PRM_STATUS_OK);
	assert_int_equal(r.state, PRM_RMP_STATE_RDY);
	assert_int_equal(r.wq.wq_type, PRM_WQ_TYPE_CYCLIC);
	assert_int_equal(r.wq.pd, f->pdn);
	assert_int_equal(r.wq.log_wq_sz, 4);
	assert_int_equal(r.wq.log_wq_stride, 6);
	assert_int_equal(r.wq.wq_umem_id, f->umem);
	assert_int_equal(r.wq.wq_umem_offset, p.rmpc.wq.wq_umem_offset);
	assert_int_equal(r.wq.dbr_addr, p.rmpc.wq.dbr_addr);
	assert_int_equal(r.wq.sw_counter, 7);
	assert_int_equal(r.wq.hw_counter, 0);

	/* The limit watermark. */
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RDY, PRM_RMP_STATE_RDY, PRM_RMP_BITMASK_LWM, 5, NULL),
			 PRM_STATUS_OK);
	assert_int_equal(query_rmp(f, rmpn, &r, NULL), PRM_STATUS_OK);
	assert_int_equal(r.wq.lwm, 5);
	/* Unselected: no change. */
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RDY, PRM_RMP_STATE_RDY, 0, 9, NULL), PRM_STATUS_OK);
	assert_int_equal(query_rmp(f, rmpn, &r, NULL), PRM_STATUS_OK);
	assert_int_equal(r.wq.lwm, 5);
	/* The command must know the current state. */
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RST, PRM_RMP_STATE_RDY, 0, 0, &synd),
			 PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_RMP_STATE);
	/* RDY -> ERR -> (not RDY) -> RST -> RDY */
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RDY, PRM_RMP_STATE_ERR, 0, 0, NULL), PRM_STATUS_OK);
	assert_int_equal(query_rmp(f, rmpn, &r, NULL), PRM_STATUS_OK);
	assert_int_equal(r.state, PRM_RMP_STATE_ERR);
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_ERR, PRM_RMP_STATE_RDY, 0, 0, &synd),
			 PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_RMP_STATE);
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_ERR, PRM_RMP_STATE_RST, 0, 0, NULL), PRM_STATUS_OK);
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RST, PRM_RMP_STATE_RDY, 0, 0, NULL), PRM_STATUS_OK);
	assert_int_equal(query_rmp(f, rmpn, &r, NULL), PRM_STATUS_OK);
	assert_int_equal(r.state, PRM_RMP_STATE_RDY);

	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RDY, 2, 0, 0, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_RMP_STATE);
	assert_int_equal(modify_rmp(f, rmpn, PRM_RMP_STATE_RDY, PRM_RMP_STATE_RDY, 0x2, 0, &synd),
			 PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_FIELD_SELECT);
	assert_int_equal(modify_rmp(f, rmpn + 1, PRM_RMP_STATE_RDY, PRM_RMP_STATE_RDY, 0, 0, &synd),
			 PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_RMPN);
	assert_int_equal(query_rmp(f, rmpn + 1, &r, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_RMPN);
}

static void test_destroy(void **state)
{
	struct cfx *f = *state;
	struct prm_create_rmp_params p;
	uint32_t rmpn = 0, synd = 0;

	cfx_rmp_params(f, &p);
	assert_int_equal(cfx_create_rmp(f, &p, &rmpn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, f->pdn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_PD_IN_USE);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_RMP, rmpn, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_RMP, rmpn, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_RMPN);
	assert_int_equal(cfx_destroy(f, PRM_CMD_DEALLOC_PD, f->pdn, NULL), PRM_STATUS_OK);
	assert_int_equal(swnic_umem_deregister(f->nic, f->umem), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_builds_the_srq, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_create_failures, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_memory_must_be_host, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_and_modify, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_destroy, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
