/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * swnic_mem_copy on host memory, and its GPU path without a CUDA driver (this test runs
 * with OPENGDA_DISABLE_CUDA=1): every GPU copy reports DOCA_ERROR_NOT_SUPPORTED, and a
 * responder whose MR is GPU memory NAKs with REMOTE_OP without touching anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "resp_fixture.h"
#include "swnic/swnic_ctl.h"

static void host_copies(void **state)
{
	uint8_t src[64], dst[80];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i ^ 0x5a);
	memset(dst, 0xcc, sizeof(dst));
	assert_int_equal(swnic_mem_copy(dst + 8, OGDA_MEM_HOST, src, OGDA_MEM_HOST, sizeof(src)), DOCA_SUCCESS);
	assert_memory_equal(dst + 8, src, sizeof(src));
	for (i = 0; i < 8; i++) {
		assert_int_equal(dst[i], 0xcc);
		assert_int_equal(dst[72 + i], 0xcc);
	}
	/* Overlapping ranges (loopback between overlapping MRs) copy as memmove does. */
	memcpy(dst, src, sizeof(src));
	assert_int_equal(swnic_mem_copy(dst + 4, OGDA_MEM_HOST, dst, OGDA_MEM_HOST, 32), DOCA_SUCCESS);
	assert_memory_equal(dst + 4, src, 32);
	/* Zero bytes: nothing to do, even without buffers. */
	assert_int_equal(swnic_mem_copy(NULL, OGDA_MEM_HOST, NULL, OGDA_MEM_HOST, 0), DOCA_SUCCESS);
}

static void bad_copy_arguments(void **state)
{
	uint8_t a[4] = {0}, b[4] = {1, 2, 3, 4};

	(void)state;
	assert_int_equal(swnic_mem_copy(NULL, OGDA_MEM_HOST, b, OGDA_MEM_HOST, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mem_copy(a, OGDA_MEM_HOST, NULL, OGDA_MEM_HOST, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mem_copy(a, (enum ogda_mem_kind)7, b, OGDA_MEM_HOST, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_mem_copy(a, OGDA_MEM_HOST, b, (enum ogda_mem_kind)-1, 4), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(a[0], 0);
}

static void gpu_copies_need_the_driver(void **state)
{
	uint8_t a[16], b[16];

	(void)state;
	memset(a, 0x11, sizeof(a));
	memset(b, 0x22, sizeof(b));
	assert_int_equal(swnic_mem_copy(a, OGDA_MEM_GPU, b, OGDA_MEM_HOST, sizeof(a)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(swnic_mem_copy(a, OGDA_MEM_HOST, b, OGDA_MEM_GPU, sizeof(a)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(swnic_mem_copy(a, OGDA_MEM_GPU, b, OGDA_MEM_GPU, sizeof(a)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(a[0], 0x11);
	assert_int_equal(a[15], 0x11);
}

/* Pretends gpu_buf is device memory (registration asks this probe for the MR's kind). */
static uint8_t gpu_buf[64];

static enum ogda_mem_kind fake_probe(const void *addr, size_t len)
{
	const uint8_t *p = addr;

	(void)len;
	return p >= gpu_buf && p < gpu_buf + sizeof(gpu_buf) ? OGDA_MEM_GPU : OGDA_MEM_HOST;
}

static void responder_on_gpu_memory_without_driver(void **state)
{
	static const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct fix_qp_cfg cfg;
	struct swnic_resp resp;
	struct swnic_req r;
	struct fix_cq cq;
	struct fix_qp qp;
	uint8_t out[8];
	struct fix f;
	uint32_t key;
	size_t i;

	(void)state;
	swnic_mem_set_kind_probe(fake_probe);
	fix_open(&f);
	fix_cq_create(&f, 2, &cq);
	fix_qp_cfg_default(&f, &cq, &cfg);
	fix_qp_create(&f, &cfg, &qp);
	memset(gpu_buf, 0xee, sizeof(gpu_buf));
	key = fix_mr(&f, 0, gpu_buf, sizeof(gpu_buf),
		     OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
			     OGDA_ACCESS_REMOTE_ATOMIC);

	r = fix_req(qp.qpn, SWNIC_REQ_WRITE);
	r.raddr = (uint64_t)(uintptr_t)gpu_buf;
	r.rkey = key;
	r.len = sizeof(data);
	r.payload = data;
	assert_int_equal(swnic_responder_execute(f.nic, &r, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_OP);

	r.op = SWNIC_REQ_READ;
	r.payload = NULL;
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(swnic_responder_execute(f.nic, &r, &resp, out), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_OP);
	assert_int_equal(resp.read_len, 0);

	r.op = SWNIC_REQ_ATOMIC_FA;
	r.atomic_size = 8;
	r.len = 0;
	r.swap_add = 1;
	assert_int_equal(swnic_responder_execute(f.nic, &r, &resp, NULL), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_OP);
	assert_true(resp.atomic_orig == 0);

	for (i = 0; i < sizeof(gpu_buf); i++)
		assert_int_equal(gpu_buf[i], 0xee);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a);
	fix_close(&f);
	swnic_mem_set_kind_probe(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_copies),
		cmocka_unit_test(bad_copy_arguments),
		cmocka_unit_test(gpu_copies_need_the_driver),
		cmocka_unit_test(responder_on_gpu_memory_without_driver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
