/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU memory through the software NIC (CTest label gpu: needs an NVIDIA GPU and driver).
 * swnic_mem_copy in every direction, from a thread with no CUDA context and from one whose
 * context must survive the call; then the responder on MRs of device memory: WRITE, READ,
 * SEND scattered into device memory, 8-byte FA and 4-byte masked CS, and FA from four
 * threads on one device word. Every result is read back with the driver's own copy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "resp_fixture.h"

#ifdef OGDA_HAVE_CUDA_H
#include "gpu_util.h"

#define DEV_BYTES 4096u

static int gpu_setup(void **state)
{
	(void)state;
	return gpu_open(DEV_BYTES);
}

static void *dptr(size_t off)
{
	return (void *)(uintptr_t)(cu.dev + off);
}

static void dev_read(void *dst, size_t off, size_t len)
{
	assert_int_equal(cu.dtoh(dst, cu.dev + off, len), CUDA_SUCCESS);
}

static void dev_fill(size_t off, uint8_t v, size_t len)
{
	assert_int_equal(cu.memset_d8(cu.dev + off, v, len), CUDA_SUCCESS);
}

struct copy_job {
	uint8_t pattern[256];
	uint8_t back[384];
	doca_error_t r1, r2, r3;
	int had_ctx;
};

/* An engine-like thread: no CUDA context of its own. */
static void *copy_thread(void *arg)
{
	struct copy_job *j = arg;
	CUcontext c = NULL;

	cu.ctx_get(&c);
	j->had_ctx = c != NULL;
	j->r1 = swnic_mem_copy(dptr(64), OGDA_MEM_GPU, j->pattern, OGDA_MEM_HOST, sizeof(j->pattern));
	j->r2 = swnic_mem_copy(j->back, OGDA_MEM_HOST, dptr(0), OGDA_MEM_GPU, sizeof(j->back));
	j->r3 = swnic_mem_copy(dptr(1024), OGDA_MEM_GPU, dptr(64), OGDA_MEM_GPU, sizeof(j->pattern));
	return NULL;
}

static void mem_copy_all_directions(void **state)
{
	static struct copy_job j;
	uint8_t check[256];
	CUcontext c = NULL;
	pthread_t th;
	size_t i;

	(void)state;
	dev_fill(0, 0xee, DEV_BYTES);
	for (i = 0; i < sizeof(j.pattern); i++)
		j.pattern[i] = (uint8_t)(i * 13 + 5);
	assert_int_equal(pthread_create(&th, NULL, copy_thread, &j), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(j.had_ctx, 0);
	assert_int_equal(j.r1, DOCA_SUCCESS);
	assert_int_equal(j.r2, DOCA_SUCCESS);
	assert_int_equal(j.r3, DOCA_SUCCESS);
	for (i = 0; i < 64; i++)
		assert_int_equal(j.back[i], 0xee);
	assert_memory_equal(j.back + 64, j.pattern, 256);
	for (i = 320; i < 384; i++)
		assert_int_equal(j.back[i], 0xee);
	dev_read(check, 1024, sizeof(check));
	assert_memory_equal(check, j.pattern, sizeof(check));

	/* From a thread with a context: it is still current afterwards. */
	assert_int_equal(swnic_mem_copy(check, OGDA_MEM_HOST, dptr(64), OGDA_MEM_GPU, 16), DOCA_SUCCESS);
	assert_memory_equal(check, j.pattern, 16);
	assert_int_equal(cu.ctx_get(&c), CUDA_SUCCESS);
	assert_ptr_equal(c, cu.ctx);
}

struct gpu_env {
	struct fix f;
	struct fix_cq cq;
	struct fix_qp qp;
	uint32_t key;
};

static void gpu_env_open(struct gpu_env *g)
{
	struct fix_qp_cfg cfg;

	fix_open(&g->f);
	fix_cq_create(&g->f, 3, &g->cq);
	fix_qp_cfg_default(&g->f, &g->cq, &cfg);
	fix_qp_create(&g->f, &cfg, &g->qp);
	/* swnic_mr_register asks the driver: this MR is device memory. */
	g->key = fix_mr(&g->f, 0, dptr(0), DEV_BYTES,
			OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ |
				OGDA_ACCESS_REMOTE_ATOMIC);
}

static uint8_t run(struct gpu_env *g, const struct swnic_req *r, struct swnic_resp *resp, void *rb)
{
	assert_int_equal(fix_execute(g->f.nic, r, resp, rb), DOCA_SUCCESS);
	return resp->status;
}

static void responder_on_device_memory(void **state)
{
	uint8_t data[32], out[48], imm[4] = {1, 2, 3, 4};
	struct swnic_resp resp;
	struct swnic_req r;
	struct gpu_env g;
	uint64_t v64;
	uint32_t v32;
	size_t i;

	(void)state;
	dev_fill(0, 0xee, DEV_BYTES);
	gpu_env_open(&g);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0xa0 + i);

	r = fix_req(g.qp.qpn, SWNIC_REQ_WRITE);
	r.raddr = cu.dev + 128;
	r.rkey = g.key;
	r.len = sizeof(data);
	r.payload = data;
	assert_int_equal(run(&g, &r, &resp, NULL), SWNIC_RESP_ACK);
	dev_read(out, 120, sizeof(out));
	for (i = 0; i < 8; i++)
		assert_int_equal(out[i], 0xee);
	assert_memory_equal(out + 8, data, sizeof(data));
	for (i = 40; i < 48; i++)
		assert_int_equal(out[i], 0xee);

	r.op = SWNIC_REQ_READ;
	r.payload = NULL;
	memset(out, 0, sizeof(out));
	assert_int_equal(run(&g, &r, &resp, out), SWNIC_RESP_ACK);
	assert_int_equal(resp.read_len, sizeof(data));
	assert_memory_equal(out, data, sizeof(data));

	/* SEND scattered into device memory. */
	{
		struct fix_sge sge = {dptr(512), 16, g.key};

		fix_rq_post(&g.qp, &sge, 1);
		r = fix_req(g.qp.qpn, SWNIC_REQ_SEND_IMM);
		r.payload = data;
		r.len = 16;
		memcpy(&r.imm, imm, 4);
		assert_int_equal(run(&g, &r, &resp, NULL), SWNIC_RESP_ACK);
		dev_read(out, 512, 17);
		assert_memory_equal(out, data, 16);
		assert_int_equal(out[16], 0xee);
		assert_int_equal(fix_cqe(&g.cq, 0)[63], 0x30);
		assert_memory_equal(fix_cqe(&g.cq, 0) + 36, imm, 4);
	}

	/* 8-byte FA and 4-byte masked CS on device words. */
	v64 = 0x00000000fffffff0ull;
	assert_int_equal(cu.htod(cu.dev + 1024, &v64, 8), CUDA_SUCCESS);
	r = fix_req(g.qp.qpn, SWNIC_REQ_ATOMIC_FA);
	r.atomic_size = 8;
	r.raddr = cu.dev + 1024;
	r.rkey = g.key;
	r.swap_add = 0x20;
	assert_int_equal(run(&g, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_true(resp.atomic_orig == 0x00000000fffffff0ull);
	dev_read(&v64, 1024, 8);
	assert_true(v64 == 0x0000000100000010ull);

	v32 = 0xdeadbeefu;
	assert_int_equal(cu.htod(cu.dev + 1040, &v32, 4), CUDA_SUCCESS);
	r = fix_req(g.qp.qpn, SWNIC_REQ_MASKED_CS);
	r.atomic_size = 4;
	r.raddr = cu.dev + 1040;
	r.rkey = g.key;
	r.compare = 0x0000be00u;
	r.compare_mask = 0x0000ff00u;
	r.swap_add = 0x12345678u;
	r.swap_mask = 0xffff0000u;
	assert_int_equal(run(&g, &r, &resp, NULL), SWNIC_RESP_ACK);
	assert_true(resp.atomic_orig == 0xdeadbeefu);
	dev_read(out, 1040, 8);
	memcpy(&v32, out, 4);
	assert_int_equal(v32, 0x1234beefu);
	for (i = 4; i < 8; i++)
		assert_int_equal(out[i], 0xee);
	fix_close(&g.f);
}

#define GPU_FA_THREADS 4
#define GPU_FA_EACH 200

struct gpu_fa {
	struct gpu_env *g;
	uint32_t qpn;                /* its own QP: one requester each, PSNs in order */
	int failures;
};

static void *gpu_fa_loop(void *arg)
{
	struct gpu_fa *w = arg;
	int i;

	for (i = 0; i < GPU_FA_EACH; i++) {
		struct swnic_req r = fix_req(w->qpn, SWNIC_REQ_ATOMIC_FA);
		struct swnic_resp resp;

		r.atomic_size = 8;
		r.raddr = cu.dev + 2048;
		r.rkey = w->g->key;
		r.swap_add = 3;
		if (swnic_responder_execute(w->g->f.nic, &r, &resp, NULL) != DOCA_SUCCESS ||
		    resp.status != SWNIC_RESP_ACK)
			w->failures++;
	}
	return NULL;
}

static void concurrent_fa_on_device_word(void **state)
{
	struct gpu_fa w[GPU_FA_THREADS];
	pthread_t th[GPU_FA_THREADS];
	struct gpu_env g;
	uint64_t v = 0;
	int i;

	(void)state;
	gpu_env_open(&g);
	assert_int_equal(cu.htod(cu.dev + 2048, &v, 8), CUDA_SUCCESS);
	for (i = 0; i < GPU_FA_THREADS; i++) {
		struct fix_qp_cfg cfg;
		struct fix_qp qp;

		fix_qp_cfg_default(&g.f, &g.cq, &cfg);
		fix_qp_create(&g.f, &cfg, &qp);
		w[i].g = &g;
		w[i].qpn = qp.qpn;
		w[i].failures = 0;
		assert_int_equal(pthread_create(&th[i], NULL, gpu_fa_loop, &w[i]), 0);
	}
	for (i = 0; i < GPU_FA_THREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_int_equal(w[i].failures, 0);
	}
	dev_read(&v, 2048, 8);
	assert_true(v == 3ull * GPU_FA_THREADS * GPU_FA_EACH);
	fix_close(&g.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mem_copy_all_directions),
		cmocka_unit_test(responder_on_device_memory),
		cmocka_unit_test(concurrent_fa_on_device_word),
	};
	return cmocka_run_group_tests(tests, gpu_setup, gpu_teardown);
}
#else
int main(void)
{
	print_message("built without CUDA headers: nothing to test\n");
	return 0;
}
#endif /* OGDA_HAVE_CUDA_H */
