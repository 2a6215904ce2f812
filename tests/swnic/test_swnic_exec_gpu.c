/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester data in GPU memory (CTest label gpu: needs an NVIDIA GPU and driver): a WRITE
 * gathered from two device buffers, a READ scattered into two device buffers, and 8-byte
 * and 4-byte masked atomic results landing in device memory. Device contents are checked
 * with the driver's own copies, guard bytes included.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "swnic_fixture.h"

#ifdef OGDA_HAVE_CUDA_H
#include "gpu_util.h"

#define CE2 OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)
#define DEV_BYTES 1024u
#define GUARD 0xeeu

static int gpu_setup(void **state)
{
	(void)state;
	return gpu_open(DEV_BYTES);
}

static uint64_t va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void dev_read(void *dst, const uint8_t *dev, size_t n)
{
	assert_int_equal(cu.dtoh(dst, (CUdeviceptr)(uintptr_t)dev, n), CUDA_SUCCESS);
}

static void assert_all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			fail_msg("byte %zu is 0x%02x, expected 0x%02x", i, p[i], v);
}

/* Device layout: [0,256) gather source, [256,512) READ targets, [512,576) atomic results. */
static void test_gpu_gather_scatter_atomics(void **state)
{
	struct opengda_mlx5_cqe_fields c;
	uint8_t src[256], dst[256], remote[256], back[256];
	uint64_t remote_word[2] = {100, 0}, r8;
	uint32_t remote32 = 0x11223344u, r4;
	struct fx_sge s[2];
	struct fx_pair p;
	uint32_t gk, rk, wk, ak, i;
	uint16_t idx;

	(void)state;
	for (i = 0; i < sizeof(src); i++) {
		src[i] = (uint8_t)(i * 3u + 1u);
		remote[i] = (uint8_t)(i ^ 0x5au);
	}
	assert_int_equal(cu.memset_d8(cu.dev, GUARD, DEV_BYTES), CUDA_SUCCESS);
	assert_int_equal(cu.htod(cu.dev, src, sizeof(src)), CUDA_SUCCESS);
	memset(dst, GUARD, sizeof(dst));
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	gk = fx_mr(&p.f, cu.base, DEV_BYTES, OGDA_ACCESS_LOCAL_WRITE);
	wk = fx_mr(&p.f, dst, sizeof(dst), RW);
	rk = fx_mr(&p.f, remote, sizeof(remote), RW);
	ak = fx_mr(&p.f, remote_word, sizeof(remote_word), RW);

	/* WRITE gathered from two device buffers. */
	s[0] = (struct fx_sge){cu.base + 100, 40, gk};
	s[1] = (struct fx_sge){cu.base + 10, 30, gk};
	idx = fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, CE2, 0, true, va(dst + 8), wk, s, 2);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_counter, idx);
	assert_int_equal(c.byte_cnt, 70);
	assert_memory_equal(dst + 8, src + 100, 40);
	assert_memory_equal(dst + 48, src + 10, 30);
	assert_all(dst, 8, GUARD);
	assert_all(dst + 78, sizeof(dst) - 78, GUARD);

	/* READ scattered into two device buffers. */
	s[0] = (struct fx_sge){cu.base + 260, 50, gk};
	s[1] = (struct fx_sge){cu.base + 400, 60, gk};
	idx = fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_READ, CE2, 0, true, va(remote + 16), rk, s, 2);
	fx_ring(&p.a, FX_RING_PI);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(c.wqe_counter, idx);
	assert_int_equal(c.byte_cnt, 110);
	dev_read(back, cu.base + 256, 256);
	assert_all(back, 4, GUARD);
	assert_memory_equal(back + 4, remote + 16, 50);
	assert_all(back + 54, 90, GUARD);
	assert_memory_equal(back + 144, remote + 66, 60);
	assert_all(back + 204, 52, GUARD);

	/* 8-byte FA and 4-byte masked CS with their results in device memory. */
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_atomic_fa(&p.a.sqd, idx, CE2, va(&remote_word[0]), ak, 5, va(cu.base + 512),
						    gk),
			 4);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	ak = fx_mr(&p.f, &remote32, sizeof(remote32), RW);
	idx = fx_take(&p.a, 4);
	assert_int_equal(opengda_mlx5_wqe_masked_cs4(&p.a.sqd, idx, CE2, va(&remote32), ak, 0x44u, 0xaa000000u, 0xffu,
						     0xff000000u, va(cu.base + 520), gk),
			 4);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &c);
	assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	dev_read(&r8, cu.base + 512, 8);
	dev_read(&r4, cu.base + 520, 4);
	dev_read(back, cu.base + 524, 52);
	assert_int_equal(r8, 100);
	assert_int_equal(remote_word[0], 105);
	assert_int_equal(r4, opengda_mlx5_htobe32(0x11223344u));
	assert_int_equal(remote32, 0xaa223344u);
	assert_all(back, 52, GUARD);
	dev_read(back, cu.base, 256);
	assert_memory_equal(back, src, 256); /* the gather source is untouched */
	fx_pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_gather_scatter_atomics),
	};

	return cmocka_run_group_tests(tests, gpu_setup, gpu_teardown);
}
#else
int main(void)
{
	print_message("built without CUDA headers\n");
	return 1;
}
#endif
