/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's memory tables: PD and UAR allocation, umem and MR registration and
 * their checks, the key format ((index << 8) | random variant) and stale keys, and
 * swnic_mr_resolve: wrong PD, range, rights, lkey / rkey.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"

struct mfx {
	struct swnic *nic;
	uint32_t pd1, pd2;
	uint8_t *buf;
};

#define BUF_LEN 4096u
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ)

static int setup(void **state)
{
	static struct mfx m;

	memset(&m, 0, sizeof(m));
	assert_int_equal(swnic_open(0, &m.nic), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(m.nic, &m.pd1), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_alloc(m.nic, &m.pd2), DOCA_SUCCESS);
	m.buf = calloc(1, BUF_LEN);
	assert_non_null(m.buf);
	*state = &m;
	return 0;
}

static int teardown(void **state)
{
	struct mfx *m = *state;

	swnic_mem_set_kind_probe(NULL);
	swnic_close(m->nic);
	free(m->buf);
	return 0;
}

static struct swnic_pd *pd_of(struct mfx *m, uint32_t pdn)
{
	struct swnic_pd *pd;

	pthread_rwlock_rdlock(&m->nic->lock);
	pd = swnic_table_lookup(&m->nic->pds, pdn);
	pthread_rwlock_unlock(&m->nic->lock);
	return pd;
}

static void test_pd_numbers(void **state)
{
	struct mfx *m = *state;
	uint32_t pdn = 0;

	assert_int_equal(m->pd1, SWNIC_PD_BASE);
	assert_int_equal(m->pd2, SWNIC_PD_BASE + 1);
	assert_int_equal(swnic_pd_free(m->nic, m->pd1), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_free(m->nic, m->pd1), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_pd_alloc(m->nic, &pdn), DOCA_SUCCESS);
	assert_int_equal(pdn, SWNIC_PD_BASE);
	assert_int_equal(swnic_pd_alloc(NULL, &pdn), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_pd_alloc(m->nic, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_pd_free(NULL, pdn), DOCA_ERROR_INVALID_VALUE);
}

static void test_uar_pages(void **state)
{
	struct mfx *m = *state;
	uint32_t id = 0, id2 = 0;
	uint8_t *page = NULL, *page2 = NULL;
	size_t i;

	assert_int_equal(swnic_uar_alloc(m->nic, OGDA_DEVX_UAR_NC, &id, &page), DOCA_SUCCESS);
	assert_int_equal(id, SWNIC_UAR_BASE);
	assert_non_null(page);
	assert_int_equal((uintptr_t)page % SWNIC_UAR_PAGE_SIZE, 0);
	for (i = 0; i < SWNIC_UAR_PAGE_SIZE; i++)
		assert_int_equal(page[i], 0);
	assert_int_equal(swnic_uar_alloc(m->nic, OGDA_DEVX_UAR_NC_DEDICATED, &id2, &page2), DOCA_SUCCESS);
	assert_int_equal(id2, SWNIC_UAR_BASE + 1);
	assert_ptr_not_equal(page, page2);
	assert_int_equal(swnic_uar_alloc(m->nic, (enum ogda_devx_uar_type)7, &id, &page), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_uar_free(m->nic, id2), DOCA_SUCCESS);
	assert_int_equal(swnic_uar_free(m->nic, id2), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_uar_free(m->nic, SWNIC_UAR_BASE), DOCA_SUCCESS);
}

static void test_umem_registration(void **state)
{
	struct mfx *m = *state;
	uint32_t id = 0, id2 = 0;
	struct swnic_umem *u;

	assert_int_equal(swnic_umem_register(m->nic, m->buf, BUF_LEN, OGDA_ACCESS_LOCAL_WRITE, &id), DOCA_SUCCESS);
	assert_int_equal(id, SWNIC_UMEM_BASE);
	pthread_rwlock_rdlock(&m->nic->lock);
	u = swnic_table_lookup(&m->nic->umems, id);
	pthread_rwlock_unlock(&m->nic->lock);
	assert_ptr_equal(u->addr, m->buf);
	assert_int_equal(u->len, BUF_LEN);
	assert_int_equal(u->access, OGDA_ACCESS_LOCAL_WRITE);
	assert_int_equal(u->kind, OGDA_MEM_HOST);
	assert_int_equal(atomic_load(&u->refs), 0);

	assert_int_equal(swnic_umem_register(m->nic, NULL, BUF_LEN, 0, &id2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(m->nic, m->buf, 0, 0, &id2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(m->nic, (void *)(uintptr_t)(UINTPTR_MAX - 15), 32, 0, &id2),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(m->nic, m->buf, BUF_LEN, 1u << 4, &id2), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_register(m->nic, m->buf, BUF_LEN, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_umem_deregister(m->nic, id), DOCA_SUCCESS);
	assert_int_equal(swnic_umem_deregister(m->nic, id), DOCA_ERROR_NOT_FOUND);
}

static void test_key_format_and_stale_keys(void **state)
{
	struct mfx *m = *state;
	uint32_t l1 = 0, r1 = 0, l2 = 0, r2 = 0, l3 = 0, r3 = 0;

	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, BUF_LEN, RW, &l1, &r1), DOCA_SUCCESS);
	assert_int_equal(l1 >> 8, SWNIC_MR_INDEX_BASE);
	assert_int_equal(r1, l1);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 64, RW, &l2, &r2), DOCA_SUCCESS);
	assert_int_equal(l2 >> 8, SWNIC_MR_INDEX_BASE + 1);
	/* Deregistered and registered again: same index, another variant; the old key is dead. */
	assert_int_equal(swnic_mr_deregister(m->nic, l1), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_resolve(m->nic, l1, false, NULL, (uintptr_t)m->buf, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, BUF_LEN, RW, &l3, &r3), DOCA_SUCCESS);
	assert_int_equal(l3 >> 8, SWNIC_MR_INDEX_BASE);
	assert_int_not_equal(l3, l1);
	assert_int_equal(swnic_mr_resolve(m->nic, l1, false, NULL, (uintptr_t)m->buf, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_mr_resolve(m->nic, l3, false, NULL, (uintptr_t)m->buf, 1, 0, NULL), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(m->nic, l1), DOCA_ERROR_NOT_FOUND);
	/* Keys that never name an MR. */
	assert_int_equal(swnic_mr_resolve(m->nic, 0, false, NULL, (uintptr_t)m->buf, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_mr_resolve(m->nic, 0x100, false, NULL, (uintptr_t)m->buf, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_mr_resolve(m->nic, l2 ^ 1, true, NULL, (uintptr_t)m->buf, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	/* The index alone (variant 0 or any other wrong one) does not name the MR. */
	assert_int_equal(swnic_mr_resolve(m->nic, (l2 & ~0xffu) | ((l2 + 0x80u) & 0xffu), true, NULL, (uintptr_t)m->buf,
					  1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	/* The PD counts its MRs. */
	assert_int_equal(atomic_load(&pd_of(m, m->pd1)->refs), 2);
	assert_int_equal(swnic_pd_free(m->nic, m->pd1), DOCA_ERROR_IN_USE);
	assert_int_equal(swnic_mr_deregister(m->nic, l2), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_deregister(m->nic, l3), DOCA_SUCCESS);
	assert_int_equal(swnic_pd_free(m->nic, m->pd1), DOCA_SUCCESS);
}

/*
 * Keys are not guessable from their index: the variant byte is random (mlx5 mkeys also
 * carry an 8-bit variant), so registrations in fresh slots do not all get variant 0,
 * and a reused slot never gets its previous variant back.
 */
static void test_variant_is_random(void **state)
{
	struct mfx *m = *state;
	uint32_t keys[16], l = 0, r = 0, prev;
	unsigned int i, nonzero = 0, distinct = 0;

	for (i = 0; i < 16; i++) {
		assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, 0, &keys[i], &r), DOCA_SUCCESS);
		assert_int_equal(keys[i] >> 8, SWNIC_MR_INDEX_BASE + i);
		nonzero += (keys[i] & 0xffu) != 0;
		distinct += i > 0 && (keys[i] & 0xffu) != (keys[i - 1] & 0xffu);
	}
	/* Deterministic variants would all be 0; 16 random bytes are all 0 with p = 2^-128. */
	assert_true(nonzero > 0);
	assert_true(distinct > 0);
	for (i = 1; i < 16; i++)
		assert_int_equal(swnic_mr_deregister(m->nic, keys[i]), DOCA_SUCCESS);
	prev = keys[0];
	assert_int_equal(swnic_mr_deregister(m->nic, prev), DOCA_SUCCESS);
	for (i = 0; i < 300; i++) {
		assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, 0, &l, &r), DOCA_SUCCESS);
		assert_int_equal(l >> 8, SWNIC_MR_INDEX_BASE);
		assert_int_not_equal(l, prev);
		assert_int_equal(swnic_mr_resolve(m->nic, prev, false, NULL, (uintptr_t)m->buf, 1, 0, NULL),
				 DOCA_ERROR_NOT_FOUND);
		assert_int_equal(swnic_mr_deregister(m->nic, l), DOCA_SUCCESS);
		prev = l;
	}
}

static void test_registration_checks(void **state)
{
	struct mfx *m = *state;
	uint32_t l = 0, r = 0;

	/* Remote write and atomic need local write, as with ibv_reg_mr. */
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, OGDA_ACCESS_REMOTE_WRITE, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, OGDA_ACCESS_REMOTE_ATOMIC, &l, &r),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, OGDA_ACCESS_REMOTE_READ, &l, &r), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, 0x20, &l, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1 + 50, m->buf, 8, 0, &l, &r), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, NULL, 8, 0, &l, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 0, 0, &l, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 8, 0, NULL, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_register(NULL, m->pd1, m->buf, 8, 0, &l, &r), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_resolve(NULL, 0x200, false, NULL, 0, 0, 0, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_resolve_checks(void **state)
{
	struct mfx *m = *state;
	const uint64_t base = (uintptr_t)m->buf + 256;
	const uint32_t len = 1024;
	struct swnic_mr out;
	uint32_t l = 0, r = 0;

	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf + 256, len,
					   OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_READ, &l, &r),
			 DOCA_SUCCESS);
	memset(&out, 0, sizeof(out));
	/* The whole range, by lkey and by rkey, with the right PD or any PD. */
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, pd_of(m, m->pd1), base, len, OGDA_ACCESS_LOCAL_WRITE,
					  &out),
			 DOCA_SUCCESS);
	assert_int_equal(out.lkey, l);
	assert_int_equal(out.rkey, r);
	assert_int_equal(out.addr, base);
	assert_int_equal(out.len, len);
	assert_int_equal(out.access, OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_READ);
	assert_int_equal(out.kind, OGDA_MEM_HOST);
	assert_ptr_equal(out.pd, pd_of(m, m->pd1));
	assert_int_equal(swnic_mr_resolve(m->nic, r, true, NULL, base, len, OGDA_ACCESS_REMOTE_READ, NULL),
			 DOCA_SUCCESS);
	/* Zero bytes at the very end are inside. */
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, base + len, 0, 0, NULL), DOCA_SUCCESS);
	/* Wrong PD. */
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, pd_of(m, m->pd2), base, 1, 0, NULL),
			 DOCA_ERROR_NOT_FOUND);
	/* Range: one byte before, one byte past, longer than the MR, wrapping addresses. */
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, base - 1, 2, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, base + len - 1, 2, 0, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, base, len + 1, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, UINT64_MAX - 1, 4, 0, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, base + 8, UINT64_MAX - 4, 0, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	/* Rights. */
	assert_int_equal(swnic_mr_resolve(m->nic, r, true, NULL, base, 8, OGDA_ACCESS_REMOTE_WRITE, NULL),
			 DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(swnic_mr_resolve(m->nic, r, true, NULL, base, 8, OGDA_ACCESS_REMOTE_ATOMIC, NULL),
			 DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(swnic_mr_resolve(m->nic, r, true, NULL, base, 8,
					  OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_WRITE, NULL),
			 DOCA_ERROR_NOT_PERMITTED);
	/* A read-only MR cannot be written locally. */
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf, 64, 0, &l, &r), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, (uintptr_t)m->buf, 8, 0, NULL), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, (uintptr_t)m->buf, 8, OGDA_ACCESS_LOCAL_WRITE, NULL),
			 DOCA_ERROR_NOT_PERMITTED);
}

static uint8_t *gpu_lo, *gpu_hi;

static enum ogda_mem_kind fake_gpu_probe(const void *addr, size_t len)
{
	const uint8_t *p = addr;

	(void)len;
	return (p >= gpu_lo && p < gpu_hi) ? OGDA_MEM_GPU : OGDA_MEM_HOST;
}

static void test_memory_kind(void **state)
{
	struct mfx *m = *state;
	struct swnic_mr out;
	uint32_t l = 0, r = 0, id = 0;
	struct swnic_umem *u;

	/* No CUDA driver on the CPU test machines: everything is host memory. */
	assert_int_equal(swnic_mem_kind(m->buf, BUF_LEN), OGDA_MEM_HOST);
	gpu_lo = m->buf + 2048;
	gpu_hi = m->buf + BUF_LEN;
	swnic_mem_set_kind_probe(fake_gpu_probe);
	assert_int_equal(swnic_mem_kind(m->buf, 16), OGDA_MEM_HOST);
	assert_int_equal(swnic_mem_kind(m->buf + 2048, 16), OGDA_MEM_GPU);
	assert_int_equal(swnic_mr_register(m->nic, m->pd1, m->buf + 2048, 2048, RW, &l, &r), DOCA_SUCCESS);
	assert_int_equal(swnic_mr_resolve(m->nic, l, false, NULL, (uintptr_t)m->buf + 2048, 8, 0, &out),
			 DOCA_SUCCESS);
	assert_int_equal(out.kind, OGDA_MEM_GPU);
	assert_int_equal(swnic_umem_register(m->nic, m->buf + 2048, 2048, 0, &id), DOCA_SUCCESS);
	pthread_rwlock_rdlock(&m->nic->lock);
	u = swnic_table_lookup(&m->nic->umems, id);
	assert_int_equal(u->kind, OGDA_MEM_GPU);
	pthread_rwlock_unlock(&m->nic->lock);
	swnic_mem_set_kind_probe(NULL);
	assert_int_equal(swnic_mem_kind(m->buf + 2048, 16), OGDA_MEM_HOST);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pd_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uar_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_umem_registration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_key_format_and_stale_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_variant_is_random, setup, teardown),
		cmocka_unit_test_setup_teardown(test_registration_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_kind, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
