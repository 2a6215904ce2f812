/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap on the software NIC: start registers the range with the NIC (the key resolves in the
 * NIC's memory table, for exactly the range and the rights asked), stop deregisters it, dmabuf
 * ranges register by address, a device cannot close under a started map, and every misuse of
 * the state machine or bad argument returns its documented error with one log line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core_fixture.h"
#include "devx/devx.h"
#include "gpunetio/gpu_test_log.h"
#include "swnic/swnic.h"

/* Whether swnic0 knows key for [addr, +len) with the rights asked (remote: as an rkey). */
static doca_error_t nic_resolve(uint32_t key, bool remote, const void *addr, size_t len, uint32_t access)
{
	struct swnic *nic = NULL;
	doca_error_t err;

	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	err = swnic_mr_resolve(nic, key, remote, NULL, (uint64_t)(uintptr_t)addr, len, access, NULL);
	swnic_close(nic);
	return err;
}

static void test_start_registers_and_stop_deregisters(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = cfx_mmap(f, 4096, 8192, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	uint32_t key = 0;
	void *addr;
	size_t len;

	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &key), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_memrange(m, &addr, &len), DOCA_SUCCESS);
	assert_ptr_equal(addr, f->buf + 4096);
	assert_int_equal(len, 8192);
	assert_int_equal(nic_resolve(key, false, f->buf + 4096, 8192, OGDA_ACCESS_LOCAL_WRITE), DOCA_SUCCESS);
	/* one byte outside the range is not covered */
	assert_int_not_equal(nic_resolve(key, false, f->buf + 4095, 16, 0), DOCA_SUCCESS);
	/* local read/write grants no remote rights */
	assert_int_not_equal(nic_resolve(key, true, f->buf + 4096, 64, OGDA_ACCESS_REMOTE_WRITE), DOCA_SUCCESS);
	/* the device cannot close while the map is registered with it */
	EXPECT_LOGGED_ERR(doca_dev_close(f->dev), DOCA_ERROR_IN_USE, "doca_dev_close");
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_not_equal(nic_resolve(key, false, f->buf + 4096, 64, 0), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static void test_permissions_map_to_rights(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *ro = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	struct doca_mmap *rw = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	uint32_t kro = 0, krw = 0;

	assert_int_equal(doca_mmap_get_mkey(ro, f->dev, &kro), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(rw, f->dev, &krw), DOCA_SUCCESS);
	assert_int_not_equal(kro, krw);
	assert_int_equal(nic_resolve(kro, false, f->buf, 4096, 0), DOCA_SUCCESS);
	assert_int_not_equal(nic_resolve(kro, false, f->buf, 4096, OGDA_ACCESS_LOCAL_WRITE), DOCA_SUCCESS);
	/* RDMA write implies local write; the key is also the rkey */
	assert_int_equal(nic_resolve(krw, false, f->buf, 4096, OGDA_ACCESS_LOCAL_WRITE), DOCA_SUCCESS);
	assert_int_equal(nic_resolve(krw, true, f->buf, 4096, OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ),
			 DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(ro), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(rw), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(ro), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(rw), DOCA_SUCCESS);
}

/* The software NIC imports no dmabuf: it registers the address the dmabuf stands for. */
static void test_dmabuf_range_registers_by_address(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = NULL;
	uint32_t key = 0;

	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_dmabuf_memrange(m, 0, f->buf, 0, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &key), DOCA_SUCCESS);
	assert_int_equal(nic_resolve(key, false, f->buf, 4096, OGDA_ACCESS_LOCAL_WRITE), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

/* Restart after stop, with another range: a new registration. */
static void test_restart_after_stop(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = cfx_mmap(f, 0, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	uint32_t key = 0;

	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(m, f->buf + 8192, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &key), DOCA_SUCCESS);
	assert_int_equal(nic_resolve(key, false, f->buf + 8192, 4096, 0), DOCA_SUCCESS);
	assert_int_not_equal(nic_resolve(key, false, f->buf, 4096, 0), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static void test_state_misuse(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = NULL;
	uint32_t key;
	void *addr;
	size_t len;

	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE, "doca_mmap_get_memrange");
	EXPECT_LOGGED_ERR(doca_mmap_start(m), DOCA_ERROR_BAD_STATE, "doca_mmap_start"); /* no range */
	EXPECT_LOGGED_ERR(doca_mmap_stop(m), DOCA_ERROR_BAD_STATE, "doca_mmap_stop");
	assert_int_equal(doca_mmap_set_memrange(m, f->buf, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_get_mkey(m, f->dev, &key), DOCA_ERROR_BAD_STATE, "doca_mmap_get_mkey");
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_start(m), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_set_memrange(m, f->buf, 64), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_set_dmabuf_memrange(m, 3, f->buf, 0, 64), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_set_permissions(m, 0), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_add_dev(m, f->dev), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_rm_dev(m, f->dev), DOCA_ERROR_BAD_STATE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_destroy(m), DOCA_ERROR_BAD_STATE, "check_config");
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

static void test_bad_input(void **state)
{
	struct cfx *f = *state;
	struct doca_mmap *m = NULL;
	struct doca_dev *other = NULL;
	uint32_t key;
	void *addr;
	size_t len;

	EXPECT_LOGGED_ERR(doca_mmap_create(NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_create");
	EXPECT_LOGGED_ERR(doca_mmap_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "check_config");
	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_add_dev(NULL, f->dev), DOCA_ERROR_INVALID_VALUE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_add_dev(m, NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_add_dev");
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_add_dev(m, f->dev), DOCA_ERROR_ALREADY_EXIST, "doca_mmap_add_dev");
	assert_int_equal(doca_dev_open(f->info, &other), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_rm_dev(m, other), DOCA_ERROR_NOT_FOUND, "doca_mmap_rm_dev");
	EXPECT_LOGGED_ERR(doca_mmap_rm_dev(m, NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_rm_dev");
	EXPECT_LOGGED_ERR(doca_mmap_set_memrange(m, NULL, 64), DOCA_ERROR_INVALID_VALUE, "set_range");
	EXPECT_LOGGED_ERR(doca_mmap_set_memrange(m, f->buf, 0), DOCA_ERROR_INVALID_VALUE, "set_range");
	EXPECT_LOGGED_ERR(doca_mmap_set_memrange(m, (void *)(uintptr_t)(UINTPTR_MAX - 8), 64), DOCA_ERROR_INVALID_VALUE,
			  "set_range");
	EXPECT_LOGGED_ERR(doca_mmap_set_dmabuf_memrange(m, -1, f->buf, 0, 64), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_set_dmabuf_memrange");
	EXPECT_LOGGED_ERR(doca_mmap_set_permissions(m, 1u << 12), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_set_permissions");
	EXPECT_LOGGED_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE), DOCA_ERROR_NOT_SUPPORTED,
			  "doca_mmap_set_permissions");
	EXPECT_LOGGED_ERR(doca_mmap_get_memrange(m, NULL, &len), DOCA_ERROR_INVALID_VALUE, "doca_mmap_get_memrange");
	EXPECT_LOGGED_ERR(doca_mmap_get_memrange(NULL, &addr, &len), DOCA_ERROR_INVALID_VALUE,
			  "doca_mmap_get_memrange");
	assert_int_equal(doca_mmap_set_memrange(m, f->buf, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_get_mkey(m, other, &key), DOCA_ERROR_NOT_FOUND, "doca_mmap_get_mkey");
	EXPECT_LOGGED_ERR(doca_mmap_get_mkey(m, f->dev, NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_get_mkey");
	EXPECT_LOGGED_ERR(doca_mmap_get_mkey(NULL, f->dev, &key), DOCA_ERROR_INVALID_VALUE, "doca_mmap_get_mkey");
	EXPECT_LOGGED_ERR(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE, "check_config");
	EXPECT_LOGGED_ERR(doca_mmap_stop(NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_stop");
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(other), DOCA_SUCCESS);
}

/* Two devices: one registration each, each key valid on the NIC; rm_dev before start drops one. */
static void test_two_devices(void **state)
{
	struct cfx *f = *state;
	struct doca_dev *other = NULL;
	struct doca_mmap *m = NULL;
	uint32_t k0 = 0, k1 = 0;

	assert_int_equal(doca_dev_open(f->info, &other), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, other), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(m, f->buf, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(m, f->dev, &k0), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(m, other, &k1), DOCA_SUCCESS);
	assert_int_not_equal(k0, k1);
	assert_int_equal(nic_resolve(k0, false, f->buf, 4096, 0), DOCA_SUCCESS);
	assert_int_equal(nic_resolve(k1, false, f->buf, 4096, 0), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_rm_dev(m, other), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	EXPECT_LOGGED_ERR(doca_mmap_get_mkey(m, other, &k1), DOCA_ERROR_NOT_FOUND, "doca_mmap_get_mkey");
	assert_int_equal(doca_dev_close(other), DOCA_SUCCESS); /* no longer registered there */
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_start_registers_and_stop_deregisters, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_permissions_map_to_rights, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_dmabuf_range_registers_by_address, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_restart_after_stop, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_state_misuse, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_two_devices, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
