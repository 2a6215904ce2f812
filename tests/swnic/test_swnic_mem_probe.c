/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Registration refuses memory that is not there, as ibv_reg_mr does with EFAULT: a range
 * running past its allocation, an address nothing is mapped at, PROT_NONE pages, a
 * writable registration of read-only pages, a 1 TiB umem. Memory that is mapped with the
 * rights asked for registers, and a remote READ of it returns its bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "resp_fixture.h"
#include "swnic/swnic_ctl.h"

#define TIB (1ull << 40)
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ)

struct pfx {
	struct swnic *nic;
	uint32_t pdn;
	size_t page;
};

static int setup(void **state)
{
	static struct pfx p;

	memset(&p, 0, sizeof(p));
	assert_int_equal(swnic_open(0, &p.nic), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(p.nic, &p.pdn), DOCA_SUCCESS);
	p.page = (size_t)sysconf(_SC_PAGESIZE);
	*state = &p;
	return 0;
}

static int teardown(void **state)
{
	struct pfx *p = *state;

	assert_int_equal(swnic_pd_free(p->nic, p->pdn), DOCA_SUCCESS);
	swnic_close(p->nic);
	return 0;
}

/* Three pages: the middle one gets prot, the outer ones stay read-write. */
static uint8_t *three_pages(size_t page, int prot)
{
	uint8_t *m = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(m != MAP_FAILED);
	memset(m, 0x5c, 3 * page);
	assert_int_equal(mprotect(m + page, page, prot), 0);
	return m;
}

static void test_mr_past_its_allocation(void **state)
{
	struct pfx *p = *state;
	uint8_t *buf = malloc(4096);
	uint32_t l = 0, r = 0;

	assert_non_null(buf);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, buf, TIB, RW, &l, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, buf, 4096, RW, &l, &r), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(p->nic, l), DOCA_SUCCESS);
	free(buf);
}

static void test_mr_at_an_unmapped_address(void **state)
{
	struct pfx *p = *state;
	uint32_t l = 0, r = 0;

	assert_int_equal(swnic_mr_register(p->nic, p->pdn, (void *)(uintptr_t)0x1000, 4096, RW, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, (void *)(uintptr_t)0x1000, 4096, 0, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
}

static void test_mr_over_a_hole(void **state)
{
	struct pfx *p = *state;
	uint8_t *m = three_pages(p->page, PROT_READ | PROT_WRITE);
	uint32_t l = 0, r = 0;

	assert_int_equal(munmap(m + p->page, p->page), 0);
	/* Either side alone is fine; across the hole is not. */
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m, p->page, RW, &l, &r), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(p->nic, l), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m + p->page - 8, 16, RW, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m, 3 * p->page, RW, &l, &r), DOCA_ERROR_INVALID_VALUE);
	munmap(m, p->page);
	munmap(m + 2 * p->page, p->page);
}

static void test_mr_on_prot_none(void **state)
{
	struct pfx *p = *state;
	uint8_t *m = three_pages(p->page, PROT_NONE);
	uint32_t l = 0, r = 0;

	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m + p->page, 64, OGDA_ACCESS_REMOTE_READ, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m, 3 * p->page, RW, &l, &r), DOCA_ERROR_INVALID_VALUE);
	munmap(m, 3 * p->page);
}

static void test_writable_mr_on_read_only_pages(void **state)
{
	struct pfx *p = *state;
	uint8_t *m = three_pages(p->page, PROT_READ);
	uint32_t l = 0, r = 0;

	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m + p->page, p->page, RW, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m + p->page, p->page, OGDA_ACCESS_LOCAL_WRITE, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	/* Read-only registration of read-only memory is what ibv_reg_mr allows too. */
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m + p->page, p->page, OGDA_ACCESS_REMOTE_READ, &l, &r),
			 DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(p->nic, l), DOCA_SUCCESS);
	/* Mappings next to each other with the rights asked count as one range. */
	assert_int_equal(swnic_mr_register(p->nic, p->pdn, m, 3 * p->page, OGDA_ACCESS_REMOTE_READ, &l, &r),
			 DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(p->nic, l), DOCA_SUCCESS);
	munmap(m, 3 * p->page);
}

static void test_umem_checks(void **state)
{
	struct pfx *p = *state;
	uint8_t *m = three_pages(p->page, PROT_NONE);
	uint8_t *small = malloc(4096);
	uint32_t id = 0;

	assert_non_null(small);
	assert_int_equal(swnic_umem_register(p->nic, small, TIB, OGDA_ACCESS_LOCAL_WRITE, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(p->nic, (void *)(uintptr_t)0x1000, 4096, 0, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(p->nic, m, 3 * p->page, OGDA_ACCESS_LOCAL_WRITE, &id),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(p->nic, small, 4096, OGDA_ACCESS_LOCAL_WRITE, &id), DOCA_SUCCESS);
	assert_int_equal(swnic_umem_deregister(p->nic, id), DOCA_SUCCESS);
	munmap(m, 3 * p->page);
	free(small);
}

/* A remote READ of read-only memory whose registration was accepted returns its bytes. */
static void test_remote_read_of_read_only_memory(void **state)
{
	uint8_t *m, out[64];
	struct fix_qp_cfg cfg;
	struct swnic_resp resp;
	struct swnic_req r;
	struct fix_cq cq;
	struct fix_qp qp;
	struct fix f;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t key;

	(void)state;
	m = three_pages(page, PROT_READ);
	fix_open(&f);
	fix_cq_create(&f, 2, &cq);
	fix_qp_cfg_default(&f, &cq, &cfg);
	fix_qp_create(&f, &cfg, &qp);
	key = fix_mr(&f, 0, m + page, page, OGDA_ACCESS_REMOTE_READ);
	r = fix_req(qp.qpn, SWNIC_REQ_READ);
	r.raddr = (uint64_t)(uintptr_t)(m + page);
	r.rkey = key;
	r.len = sizeof(out);
	memset(out, 0, sizeof(out));
	assert_int_equal(swnic_responder_execute(f.nic, &r, &resp, out), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, sizeof(out));
	assert_memory_equal(out, m + page, sizeof(out));
	fix_close(&f);
	munmap(m, 3 * page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mr_past_its_allocation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mr_at_an_unmapped_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mr_over_a_hole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mr_on_prot_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writable_mr_on_read_only_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_umem_checks, setup, teardown),
		cmocka_unit_test(test_remote_read_of_read_only_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
