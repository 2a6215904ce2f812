/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_dma_memcpy: DOCA GPUNetIO's DMA sample, measured. First, as the SDK's sample does, a
 * doca_dma context with a CPU data path runs one memcpy task (doca_dma_task_memcpy_alloc_init,
 * doca_task_submit, doca_pe_progress) that copies a string from CPU memory into GPU memory (the
 * host handle's memory on host threads); the string is read back and printed. Then a doca_dma
 * context with a GPU data path copies --copies buffers of --size bytes from a source array to a destination array, each
 * in GPU or CPU memory (--src, --dst), from a CUDA kernel (one block; every thread enqueues,
 * thread 0 commits and waits) or, where no GPU is usable, from host threads running the same
 * device functions. Then it verifies every byte and reports GB/s against a baseline timed in the
 * same run: cudaMemcpy of the same bytes on a GPU, memcpy on host threads.
 * Exit status: 0 copied and verified, 1 failure, 2 usage.
 */
#include "dma_memcpy.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/ogda_dev_dma.h"
#include "doca_buf.h"
#include "doca_buf_array.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "ex_gpu.h"
#include "opengda_gpunetio.h"
#include "sample_args.h"
#include "sample_dev.h"
#include "sample_pattern.h"
#include "sample_util.h"

#define MAX_THREADS 1024u

struct cfg {
	const char *dev_name; /* NULL: the first device */
	const char *gpu_bus;  /* NULL: the first GPU */
	bool host;            /* --host: host threads even where a GPU is usable */
	bool src_gpu, dst_gpu;
	uint64_t size, copies;
	uint32_t threads;
};

/* One side of the copy: memory, its mmap and buffer array. */
struct side {
	void *gpu_ptr, *cpu_ptr;
	struct doca_mmap *mmap;
	struct doca_buf_arr *arr;
	struct doca_gpu_buf_arr *h;
};

struct run {
	struct cfg c;
	bool on_gpu;
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	struct doca_dma *dma;
	struct doca_gpu_dma *h;
	struct side src, dst;
	uint8_t *stage; /* host copy of the bytes: pattern, then what landed */
};

enum { OPT_DEV, OPT_GPU, OPT_HOST, OPT_SRC, OPT_DST, OPT_SIZE, OPT_COPIES, OPT_THREADS, OPT_LOG, OPT_VERSION };

static const struct sample_opt opts[] = {
	{OPT_DEV, "-d", "--device", "<ibdev>", "NIC (default: the first; the software NIC where no ConnectX is)"},
	{OPT_GPU, "-g", "--gpu", "<pci>", "GPU PCIe address (default: the first GPU)"},
	{OPT_HOST, NULL, "--host", NULL, "run the device code on host threads even where a GPU is usable"},
	{OPT_SRC, NULL, "--src", "<gpu|cpu>", "source memory (default gpu)"},
	{OPT_DST, NULL, "--dst", "<gpu|cpu>", "destination memory (default cpu)"},
	{OPT_SIZE, "-s", "--size", "<bytes>", "bytes per copy (default 65536; K/M/G suffixes)"},
	{OPT_COPIES, "-n", "--copies", "<n>", "copies (default 64)"},
	{OPT_THREADS, "-t", "--threads", "<n>", "threads enqueueing (default 32)"},
	{OPT_LOG, NULL, "--log-level", "<level>", "library log level"},
	{OPT_VERSION, "-v", "--version", NULL, "print the version"},
};

static int parse_mem(const char *opt, const char *v, bool *gpu)
{
	if (strcmp(v, "gpu") == 0 || strcmp(v, "cpu") == 0) {
		*gpu = v[0] == 'g';
		return 0;
	}
	sample_err("%s: '%s' is neither gpu nor cpu", opt, v);
	return -1;
}

static int on_opt(int id, const char *opt, const char *v, void *arg)
{
	struct cfg *c = arg;
	uint64_t x;

	switch (id) {
	case OPT_DEV: c->dev_name = v; return 0;
	case OPT_GPU: c->gpu_bus = v; return 0;
	case OPT_HOST: c->host = true; return 0;
	case OPT_SRC: return parse_mem(opt, v, &c->src_gpu);
	case OPT_DST: return parse_mem(opt, v, &c->dst_gpu);
	case OPT_SIZE: return sample_parse_u64(opt, v, 1, 1ull << 30, 1, &c->size);
	case OPT_COPIES: return sample_parse_u64(opt, v, 1, OPENGDA_DMA_MAX_QUEUE_SIZE, 0, &c->copies);
	case OPT_THREADS:
		if (sample_parse_u64(opt, v, 1, MAX_THREADS, 0, &x) != 0)
			return -1;
		c->threads = (uint32_t)x;
		return 0;
	case OPT_LOG: return sample_apply_log_level(opt, v);
	case OPT_VERSION: sample_print_version(); exit(SAMPLE_EXIT_SUCCESS);
	default: return -1;
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* GPU memory, or pinned host memory the GPU reaches; on a host handle both are host memory. */
static int side_open(struct run *r, struct side *s, bool gpu_mem, uint32_t access)
{
	size_t len = r->c.size * r->c.copies;

	if (sample_doca_ok("doca_gpu_mem_alloc", doca_gpu_mem_alloc(r->gpu, len, 4096,
							     gpu_mem ? DOCA_GPU_MEM_TYPE_GPU : DOCA_GPU_MEM_TYPE_CPU_GPU,
							     &s->gpu_ptr, &s->cpu_ptr)) != 0 ||
	    sample_doca_ok("doca_mmap_create", doca_mmap_create(&s->mmap)) != 0 ||
	    sample_doca_ok("doca_mmap_add_dev", doca_mmap_add_dev(s->mmap, r->dev)) != 0 ||
	    sample_doca_ok("doca_mmap_set_memrange", doca_mmap_set_memrange(s->mmap, s->gpu_ptr, len)) != 0 ||
	    sample_doca_ok("doca_mmap_set_permissions", doca_mmap_set_permissions(s->mmap, access)) != 0 ||
	    sample_doca_ok("doca_mmap_start", doca_mmap_start(s->mmap)) != 0 ||
	    sample_doca_ok("doca_buf_arr_create", doca_buf_arr_create(r->c.copies, &s->arr)) != 0 ||
	    sample_doca_ok("doca_buf_arr_set_target_gpu", doca_buf_arr_set_target_gpu(s->arr, r->gpu)) != 0 ||
	    sample_doca_ok("doca_buf_arr_set_params", doca_buf_arr_set_params(s->arr, s->mmap, r->c.size, 0)) != 0 ||
	    sample_doca_ok("doca_buf_arr_start", doca_buf_arr_start(s->arr)) != 0)
		return -1;
	return sample_doca_ok("doca_buf_arr_get_gpu_handle", doca_buf_arr_get_gpu_handle(s->arr, &s->h));
}

static void side_close(struct run *r, struct side *s)
{
	if (s->arr != NULL)
		(void)doca_buf_arr_destroy(s->arr);
	if (s->mmap != NULL) {
		(void)doca_mmap_stop(s->mmap);
		(void)doca_mmap_destroy(s->mmap);
	}
	if (s->gpu_ptr != NULL)
		(void)doca_gpu_mem_free(r->gpu, s->gpu_ptr);
}

/* Bytes between the stage and a side. */
static int side_io(struct run *r, struct side *s, bool to_side)
{
	return ex_gpu_io(r->on_gpu, s->gpu_ptr, s->cpu_ptr, r->stage, r->c.size * r->c.copies, to_side);
}

struct host_thread {
	struct run *r;
	uint32_t t;
	doca_error_t err;
};

static void *host_enqueue(void *p)
{
	struct host_thread *ht = p;
	struct run *r = ht->r;

	ht->err = DOCA_SUCCESS;
	for (uint64_t i = ht->t; i < r->c.copies && ht->err == DOCA_SUCCESS; i += r->c.threads) {
		struct doca_gpu_buf *s = NULL, *d = NULL;

		ht->err = ogda_dev_buf_get(r->src.h, i, &s);
		if (ht->err == DOCA_SUCCESS)
			ht->err = ogda_dev_buf_get(r->dst.h, i, &d);
		if (ht->err == DOCA_SUCCESS)
			ht->err = ogda_dev_dma_memcpy(r->h, s, 0, d, 0, r->c.size, NULL);
	}
	return NULL;
}

/* The kernel's work on host threads: every thread enqueues, then one commit and one wait. */
static int run_host(struct run *r, uint64_t *ns)
{
	struct host_thread ht[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	uint64_t t0 = now_ns();
	uint8_t syn = 0;
	doca_error_t err = DOCA_SUCCESS;

	for (uint32_t t = 0; t < r->c.threads; t++) {
		ht[t] = (struct host_thread){.r = r, .t = t};
		if (pthread_create(&th[t], NULL, host_enqueue, &ht[t]) != 0) {
			sample_err("cannot start thread %u", t);
			r->c.threads = t;
			err = DOCA_ERROR_OPERATING_SYSTEM;
			break;
		}
	}
	for (uint32_t t = 0; t < r->c.threads; t++) {
		pthread_join(th[t], NULL);
		if (err == DOCA_SUCCESS)
			err = ht[t].err;
	}
	if (err == DOCA_SUCCESS)
		err = ogda_dev_dma_commit(r->h);
	if (err == DOCA_SUCCESS)
		err = ogda_dev_dma_wait(r->h, &syn);
	*ns = now_ns() - t0;
	if (err != DOCA_SUCCESS)
		sample_err("copies failed: %s (CQE syndrome 0x%x)", doca_error_get_name(err), syn);
	return err == DOCA_SUCCESS ? 0 : -1;
}

static int run_gpu(struct run *r, uint64_t *ns)
{
	void *res_gpu = NULL, *res_cpu = NULL;
	int rc = -1;

	if (sample_doca_ok("doca_gpu_mem_alloc", doca_gpu_mem_alloc(r->gpu, sizeof(uint32_t), 0, DOCA_GPU_MEM_TYPE_CPU_GPU,
							     &res_gpu, &res_cpu)) != 0)
		return -1;
	*(volatile uint32_t *)res_cpu = (uint32_t)DOCA_ERROR_UNKNOWN;
	if (dma_cuda_run(r->h, r->src.h, r->dst.h, (uint32_t)r->c.copies, r->c.size, r->c.threads, res_gpu, ns) == 0) {
		doca_error_t err = (doca_error_t) * (volatile uint32_t *)res_cpu;

		rc = sample_doca_ok("the kernel's copies", err);
	}
	(void)doca_gpu_mem_free(r->gpu, res_gpu);
	return rc;
}

/* The same bytes, copied by the baseline of this data path. */
static int baseline(struct run *r, uint64_t *ns)
{
	size_t len = r->c.size * r->c.copies;
	uint64_t t0;

	if (r->on_gpu)
		return dma_cuda_baseline(r->dst.gpu_ptr, r->src.gpu_ptr, len, ns);
	t0 = now_ns();
	memcpy(r->dst.gpu_ptr, r->src.gpu_ptr, len);
	*ns = now_ns() - t0;
	return 0;
}

static double gbps(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes / (double)ns;
}

static int setup(struct run *r)
{
	if (sample_doca_dev_open(r->c.dev_name, &r->list, &r->dev) != 0 || ex_gpu_open(r->c.gpu_bus, r->c.host, "a CUDA kernel issues the copies", &r->gpu, &r->on_gpu) != 0)
		return -1;
	r->stage = malloc(r->c.size * r->c.copies);
	if (r->stage == NULL) {
		sample_err("out of memory");
		return -1;
	}
	if (side_open(r, &r->src, r->c.src_gpu, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != 0 ||
	    side_open(r, &r->dst, r->c.dst_gpu, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE) != 0)
		return -1;
	if (sample_doca_ok("doca_dma_create", doca_dma_create(r->dev, &r->dma)) != 0 ||
	    sample_doca_ok("opengda_dma_set_queue_size", opengda_dma_set_queue_size(r->dma, (uint32_t)r->c.copies)) != 0 ||
	    sample_doca_ok("doca_ctx_set_datapath_on_gpu", doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(r->dma), r->gpu)) != 0 ||
	    sample_doca_ok("doca_ctx_start", doca_ctx_start(doca_dma_as_ctx(r->dma))) != 0)
		return -1;
	return sample_doca_ok("doca_dma_get_gpu_handle", doca_dma_get_gpu_handle(r->dma, &r->h));
}

static void teardown(struct run *r)
{
	if (r->dma != NULL) {
		if (r->h != NULL)
			(void)doca_ctx_stop(doca_dma_as_ctx(r->dma));
		(void)doca_dma_destroy(r->dma);
	}
	side_close(r, &r->src);
	side_close(r, &r->dst);
	if (r->gpu != NULL)
		(void)doca_gpu_destroy(r->gpu);
	if (r->dev != NULL)
		(void)doca_dev_close(r->dev);
	if (r->list != NULL)
		(void)doca_devinfo_destroy_list(r->list);
	free(r->stage);
}

/* ---- step 1: a CPU memcpy task, CPU memory to GPU memory ---- */

#define CPU_STEP_TEXT "This is a sample piece of text copied by a DOCA DMA task from CPU memory"

/* What step 1 allocates; cpu_step_close() takes down whatever was made. */
struct cpu_step {
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *src_mmap, *dst_mmap;
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *task;
	char *text;                 /* the CPU memory */
	void *gpu_ptr, *cpu_ptr;    /* the GPU memory (doca_gpu_mem_alloc) */
	bool done;
	doca_error_t status;
};

/* Both callbacks: the outcome is the task's status. */
static void cpu_step_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			  union doca_data ctx_user_data)
{
	struct cpu_step *c = task_user_data.ptr;

	(void)ctx_user_data;
	c->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	c->done = true;
}

static struct doca_mmap *cpu_step_mmap(struct run *r, void *addr, size_t len, uint32_t access)
{
	struct doca_mmap *m = NULL;

	if (sample_doca_ok("doca_mmap_create", doca_mmap_create(&m)) != 0)
		return NULL;
	if (sample_doca_ok("doca_mmap_add_dev", doca_mmap_add_dev(m, r->dev)) != 0 ||
	    sample_doca_ok("doca_mmap_set_memrange", doca_mmap_set_memrange(m, addr, len)) != 0 ||
	    sample_doca_ok("doca_mmap_set_permissions", doca_mmap_set_permissions(m, access)) != 0 ||
	    sample_doca_ok("doca_mmap_start", doca_mmap_start(m)) != 0) {
		(void)doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

static void cpu_step_close(struct run *r, struct cpu_step *c)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	if (c->task != NULL)
		doca_task_free(doca_dma_task_memcpy_as_task(c->task));
	if (c->dma != NULL) {
		(void)doca_ctx_get_state(doca_dma_as_ctx(c->dma), &st);
		if (st == DOCA_CTX_STATE_RUNNING)
			(void)doca_ctx_stop(doca_dma_as_ctx(c->dma));
		(void)doca_dma_destroy(c->dma);
	}
	if (c->pe != NULL)
		(void)doca_pe_destroy(c->pe);
	if (c->src != NULL)
		(void)doca_buf_dec_refcount(c->src, NULL);
	if (c->dst != NULL)
		(void)doca_buf_dec_refcount(c->dst, NULL);
	if (c->inv != NULL)
		(void)doca_buf_inventory_destroy(c->inv);
	for (int i = 0; i < 2; i++) {
		struct doca_mmap *m = i == 0 ? c->src_mmap : c->dst_mmap;

		if (m != NULL) {
			(void)doca_mmap_stop(m);
			(void)doca_mmap_destroy(m);
		}
	}
	if (c->gpu_ptr != NULL)
		(void)doca_gpu_mem_free(r->gpu, c->gpu_ptr);
	free(c->text);
}

/* Sets up the CPU data path, runs the task to its callback, reads the GPU memory back. */
static int cpu_step_run(struct run *r, struct cpu_step *c, char *back, size_t len)
{
	union doca_data me = {.ptr = c};
	int64_t deadline;

	if (sample_doca_ok("doca_gpu_mem_alloc", doca_gpu_mem_alloc(r->gpu, len, 4096, DOCA_GPU_MEM_TYPE_GPU,
								     &c->gpu_ptr, &c->cpu_ptr)) != 0 ||
	    (c->src_mmap = cpu_step_mmap(r, c->text, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)) == NULL ||
	    (c->dst_mmap = cpu_step_mmap(r, c->gpu_ptr, len,
					 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE)) == NULL ||
	    sample_doca_ok("doca_buf_inventory_create", doca_buf_inventory_create(2, &c->inv)) != 0 ||
	    sample_doca_ok("doca_buf_inventory_start", doca_buf_inventory_start(c->inv)) != 0 ||
	    sample_doca_ok("doca_buf_inventory_buf_get_by_data",
			   doca_buf_inventory_buf_get_by_data(c->inv, c->src_mmap, c->text, len, &c->src)) != 0 ||
	    sample_doca_ok("doca_buf_inventory_buf_get_by_addr",
			   doca_buf_inventory_buf_get_by_addr(c->inv, c->dst_mmap, c->gpu_ptr, len, &c->dst)) != 0 ||
	    sample_doca_ok("doca_pe_create", doca_pe_create(&c->pe)) != 0 ||
	    sample_doca_ok("doca_dma_create", doca_dma_create(r->dev, &c->dma)) != 0 ||
	    sample_doca_ok("doca_dma_task_memcpy_set_conf",
			   doca_dma_task_memcpy_set_conf(c->dma, cpu_step_done, cpu_step_done, 1)) != 0 ||
	    sample_doca_ok("doca_pe_connect_ctx", doca_pe_connect_ctx(c->pe, doca_dma_as_ctx(c->dma))) != 0 ||
	    sample_doca_ok("doca_ctx_start", doca_ctx_start(doca_dma_as_ctx(c->dma))) != 0 ||
	    sample_doca_ok("doca_dma_task_memcpy_alloc_init",
			   doca_dma_task_memcpy_alloc_init(c->dma, c->src, c->dst, me, &c->task)) != 0 ||
	    sample_doca_ok("doca_task_submit", doca_task_submit(doca_dma_task_memcpy_as_task(c->task))) != 0)
		return -1;
	deadline = sample_now_ms() + 10000;
	while (!c->done && sample_now_ms() < deadline)
		(void)doca_pe_progress(c->pe);
	if (!c->done) {
		sample_err("the DMA task did not complete within 10 s");
		return -1;
	}
	if (sample_doca_ok("the DMA task", c->status) != 0)
		return -1;
	return ex_gpu_io(r->on_gpu, c->gpu_ptr, c->cpu_ptr, back, len, false);
}

/* Step 1 of the SDK's sample: returns 0 when the string arrived intact, -1 otherwise. */
static int cpu_task_step(struct run *r)
{
	struct cpu_step c = {0};
	size_t len = sizeof(CPU_STEP_TEXT);
	char back[sizeof(CPU_STEP_TEXT)] = {0};
	int rc = -1;

	c.text = malloc(len);
	if (c.text == NULL) {
		sample_err("out of memory");
		return -1;
	}
	memcpy(c.text, CPU_STEP_TEXT, len);
	if (cpu_step_run(r, &c, back, len) == 0) {
		if (memcmp(back, CPU_STEP_TEXT, len) == 0) {
			sample_info("step 1: a CPU DMA task copied %zu bytes from CPU memory to %s memory: \"%s\"", len,
				    r->on_gpu ? "GPU" : "the host handle's", back);
			rc = 0;
		} else {
			back[len - 1] = '\0';
			sample_err("step 1: the %s memory holds \"%s\", not the text the task copied",
				   r->on_gpu ? "GPU" : "host handle's", back);
		}
	}
	cpu_step_close(r, &c);
	return rc;
}

/* Copy, verify, then the baseline over the same bytes (after clearing the destination). */
static int run_all(struct run *r)
{
	size_t len = r->c.size * r->c.copies, bad = 0;
	uint64_t seed = sample_pattern_new_seed(), dma_ns = 0, base_ns = 0;
	uint8_t got = 0, want = 0;

	sample_pattern_fill(r->stage, len, seed, 0);
	if (side_io(r, &r->src, true) != 0)
		return -1;
	memset(r->stage, 0, len);
	if (side_io(r, &r->dst, true) != 0)
		return -1;
	if ((r->on_gpu ? run_gpu(r, &dma_ns) : run_host(r, &dma_ns)) != 0 || side_io(r, &r->dst, false) != 0)
		return -1;
	if (sample_pattern_check(r->stage, len, seed, 0, &bad, &got, &want) != 0) {
		sample_err("byte %zu of the destination is 0x%02x, not 0x%02x", bad, got, want);
		return -1;
	}
	if (baseline(r, &base_ns) != 0)
		return -1;
	sample_info("%lu copies of %lu bytes %s -> %s verified", (unsigned long)r->c.copies, (unsigned long)r->c.size,
		    r->c.src_gpu ? "gpu" : "cpu", r->c.dst_gpu ? "gpu" : "cpu");
	sample_info("dma: %.3f GB/s (%.1f us); %s baseline: %.3f GB/s (%.1f us); ratio %.3f", gbps(len, dma_ns),
		    (double)dma_ns / 1e3, r->on_gpu ? "cudaMemcpy" : "memcpy", gbps(len, base_ns), (double)base_ns / 1e3,
		    base_ns == 0 ? 0.0 : (double)base_ns / (double)(dma_ns ? dma_ns : 1));
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = {.c = {.src_gpu = true, .size = 65536, .copies = 64, .threads = 32}};
	int rc;

	sample_set_prog("gpunetio_dma_memcpy");
	if (sample_args_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), on_opt, &r.c) != 0) {
		sample_args_usage(stderr, "[options]", opts, sizeof(opts) / sizeof(opts[0]));
		return SAMPLE_EXIT_USAGE;
	}
	rc = setup(&r) == 0 && cpu_task_step(&r) == 0 && run_all(&r) == 0 ? SAMPLE_EXIT_SUCCESS : SAMPLE_EXIT_FAILURE;
	teardown(&r);
	if (rc == SAMPLE_EXIT_SUCCESS)
		sample_info("success");
	else
		sample_info("failed: %s", sample_first_error());
	return rc;
}
