/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_rdma_client_server_write: DOCA GPUNetIO's RDMA client/server sample, as two processes
 * over the software NIC's fabric (or a ConnectX). The device code runs in CUDA kernels where a GPU
 * is usable (arrays in GPU memory; rdma_csw_kernel.cu), on host threads otherwise or with --host.
 *
 * The server holds array A (n elements of 1 KiB), the client arrays B and C (n of 512 bytes) and
 * a flag. Connection details and mmap export descriptors go over a TCP side channel; with --cm the
 * connection is made by the connection manager instead (doca_rdma_start_listen_to_port on the
 * server, doca_rdma_connect_to_addr on the client, callbacks from doca_pe_progress), and the side
 * channel carries the exports and the server's connection-manager port. Per element
 * the server posts a receive (none for even elements, which arrive as writes with immediate; A[i]
 * for odd ones, which arrive as sends with immediate) and commits, then raises the client's flag
 * with an inline write (strong, or with --weak the weak pair) and waits for every receive with
 * recv_wait_all, checking each immediate (i) and connection index (0). The client waits for the
 * flag, then two threads post, for element i, a write of C[i] to A[i] + 512 and then B[i] to
 * A[i] (even i: write with immediate i; odd i: send with immediate i), at weak positions 2i and
 * 2i + 1 so that the receives are consumed in element order whatever the threads' timing; one
 * commit_weak and a wait_all end it. The server verifies every byte of A.
 * Exit status: 0 success on both ends, 1 failure, 2 usage.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdma_csw.h"

#include "device/ogda_dev_rdma.h"
#include "doca_buf_array.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_rdma.h"
#include "ex_gpu.h"
#include "opengda_gpunetio.h"
#include "sample_args.h"
#include "sample_dev.h"
#include "sample_oob.h"
#include "sample_pattern.h"
#include "sample_util.h"

#define A_ELEM CSW_A_ELEM
#define BC_ELEM CSW_BC_ELEM
#define FLAG_BYTES 64u
#define MAX_ELEMS 1024u
#define OOB_TIMEOUT_MS 60000
#define FLAG_TIMEOUT_MS 60000
#define MSG_SETUP 1u
#define MSG_RESULT 2u
#define DESC_MAX 256u
#define PATTERN_SEED 0x5eedull
#define CM_TIMEOUT_MS 60000
#define CM_PORT_TRIES 64u

struct cfg {
	const char *dev_name, *server;
	uint16_t port, cm_port;
	uint32_t n;
	bool weak, host, cm;
	const char *gpu_bus;
};

/* One array: memory (mem for the device code, cpu for the host), mmap, buffer array. */
struct arr {
	void *mem, *cpu;
	struct doca_mmap *mmap;
	struct doca_buf_arr *ba;
	struct doca_gpu_buf_arr *h;
};

struct side {
	struct cfg c;
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	struct doca_rdma *rdma;
	struct doca_gpu_dev_rdma *h;
	struct doca_rdma_connection *conn;
	struct arr a, b, cc, flag, peer; /* server: a, peer = flag; client: b, cc, flag, peer = A */
	int lfd, fd;
	bool on_gpu;
	struct doca_pe *pe;  /* --cm: the engine that runs the connection callbacks */
	int cm_state;        /* --cm: 0 connecting, 1 established, -1 failed */
	struct csw_result *res, *res_cpu; /* what the device code reports (host-visible) */
	uint8_t *stage;                   /* host copy of an array */
};

/* What each end sends the other: connection details and one mmap export descriptor. */
struct setup_msg {
	uint8_t conn[DESC_MAX];
	uint8_t desc[DESC_MAX];
	uint32_t conn_len, desc_len, n;
	uint16_t cm_port, pad; /* --cm: the server's connection-manager port */
};

enum { OPT_DEV, OPT_CLIENT, OPT_PORT, OPT_N, OPT_WEAK, OPT_CM, OPT_CM_PORT, OPT_GPU, OPT_HOST, OPT_LOG, OPT_VERSION };

static const struct sample_opt opts[] = {
	{OPT_DEV, "-d", "--device", "<ibdev>", "NIC (default: the first)"},
	{OPT_CLIENT, "-c", "--client", "<server address>", "run as the client of this server"},
	{OPT_PORT, "-p", "--port", "<port>", "TCP port of the side channel (default 18516; 0: any, server)"},
	{OPT_N, "-n", "--buffers", "<n>", "elements per array (default 32, at most 1024)"},
	{OPT_WEAK, NULL, "--weak", NULL, "server: post receives and the flag with the weak functions"},
	{OPT_CM, NULL, "--cm", NULL, "connect with the connection manager (both ends)"},
	{OPT_CM_PORT, NULL, "--cm-port", "<port>", "server, --cm: its port (default: the first free from 18517)"},
	{OPT_GPU, "-g", "--gpu", "<pci>", "GPU PCIe address (default: the first GPU)"},
	{OPT_HOST, NULL, "--host", NULL, "run the device code on host threads even where a GPU is usable"},
	{OPT_LOG, NULL, "--log-level", "<level>", "library log level"},
	{OPT_VERSION, "-v", "--version", NULL, "print the version"},
};

static int on_opt(int id, const char *opt, const char *v, void *arg)
{
	struct cfg *c = arg;
	uint64_t x;

	switch (id) {
	case OPT_DEV: c->dev_name = v; return 0;
	case OPT_CLIENT: c->server = v; return 0;
	case OPT_PORT:
		if (sample_parse_u64(opt, v, 0, 65535, 0, &x) != 0)
			return -1;
		c->port = (uint16_t)x;
		return 0;
	case OPT_N:
		if (sample_parse_u64(opt, v, 1, MAX_ELEMS, 0, &x) != 0)
			return -1;
		c->n = (uint32_t)x;
		return 0;
	case OPT_WEAK: c->weak = true; return 0;
	case OPT_CM: c->cm = true; return 0;
	case OPT_CM_PORT:
		if (sample_parse_u64(opt, v, 1, 65535, 0, &x) != 0)
			return -1;
		c->cm_port = (uint16_t)x;
		return 0;
	case OPT_GPU: c->gpu_bus = v; return 0;
	case OPT_HOST: c->host = true; return 0;
	case OPT_LOG: return sample_apply_log_level(opt, v);
	case OPT_VERSION: sample_print_version(); exit(SAMPLE_EXIT_SUCCESS);
	default: return -1;
	}
}

static int arr_buf(struct arr *a, uint32_t n, size_t elem, struct doca_gpu *gpu)
{
	if (sample_doca_ok("doca_buf_arr_create", doca_buf_arr_create(n, &a->ba)) != 0 ||
	    sample_doca_ok("doca_buf_arr_set_target_gpu", doca_buf_arr_set_target_gpu(a->ba, gpu)) != 0 ||
	    sample_doca_ok("doca_buf_arr_set_params", doca_buf_arr_set_params(a->ba, a->mmap, elem, 0)) != 0 ||
	    sample_doca_ok("doca_buf_arr_start", doca_buf_arr_start(a->ba)) != 0)
		return -1;
	return sample_doca_ok("doca_buf_arr_get_gpu_handle", doca_buf_arr_get_gpu_handle(a->ba, &a->h));
}

/* Bytes between the host and an array. */
static int arr_io(struct side *s, struct arr *a, void *host, size_t len, bool to_arr)
{
	return ex_gpu_io(s->on_gpu, a->mem, a->cpu, host, len, to_arr);
}

/*
 * Memory of n elements (zeroed; GPU memory, or with host_visible pinned host memory the GPU
 * reaches; host memory on a host handle), registered for the peer's reads and writes.
 */
static int arr_local(struct side *s, struct arr *a, uint32_t n, size_t elem, bool host_visible)
{
	uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_READ;

	if (sample_doca_ok("doca_gpu_mem_alloc",
			   doca_gpu_mem_alloc(s->gpu, n * elem, 4096,
					      host_visible ? DOCA_GPU_MEM_TYPE_CPU_GPU : DOCA_GPU_MEM_TYPE_GPU, &a->mem,
					      &a->cpu)) != 0)
		return -1;
	memset(s->stage, 0, n * elem);
	if (arr_io(s, a, s->stage, n * elem, true) != 0 ||
	    sample_doca_ok("doca_mmap_create", doca_mmap_create(&a->mmap)) != 0 ||
	    sample_doca_ok("doca_mmap_add_dev", doca_mmap_add_dev(a->mmap, s->dev)) != 0 ||
	    sample_doca_ok("doca_mmap_set_memrange", doca_mmap_set_memrange(a->mmap, a->mem, n * elem)) != 0 ||
	    sample_doca_ok("doca_mmap_set_permissions", doca_mmap_set_permissions(a->mmap, access)) != 0 ||
	    sample_doca_ok("doca_mmap_start", doca_mmap_start(a->mmap)) != 0)
		return -1;
	return arr_buf(a, n, elem, s->gpu);
}

static void arr_close(struct side *s, struct arr *a)
{
	if (a->ba != NULL)
		(void)doca_buf_arr_destroy(a->ba);
	if (a->mmap != NULL && a->mem != NULL)
		(void)doca_mmap_stop(a->mmap);
	if (a->mmap != NULL)
		(void)doca_mmap_destroy(a->mmap);
	if (a->mem != NULL)
		(void)doca_gpu_mem_free(s->gpu, a->mem);
}

static struct doca_gpu_buf *buf(const struct arr *a, uint64_t i)
{
	struct doca_gpu_buf *b = NULL;

	(void)ogda_dev_buf_get(a->h, i, &b);
	return b;
}

static int cm_prepare(struct side *s);

static int setup(struct side *s)
{
	void *res_gpu = NULL, *res_cpu = NULL;

	s->stage = malloc((size_t)s->c.n * A_ELEM);
	if (s->stage == NULL) {
		sample_err("out of memory");
		return -1;
	}
	if (sample_doca_dev_open(s->c.dev_name, &s->list, &s->dev) != 0 || ex_gpu_open(s->c.gpu_bus, s->c.host, "CUDA kernels run the device code", &s->gpu, &s->on_gpu) != 0 ||
	    sample_doca_ok("doca_gpu_mem_alloc", doca_gpu_mem_alloc(s->gpu, sizeof(struct csw_result), 0,
								    DOCA_GPU_MEM_TYPE_CPU_GPU, &res_gpu, &res_cpu)) != 0)
		return -1;
	s->res = res_gpu;
	s->res_cpu = res_cpu;
	memset(s->res_cpu, 0, sizeof(*s->res_cpu));
	if (sample_doca_ok("doca_rdma_create", doca_rdma_create(s->dev, &s->rdma)) != 0 ||
	    sample_doca_ok("doca_rdma_set_permissions",
			   doca_rdma_set_permissions(s->rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |
								      DOCA_ACCESS_FLAG_RDMA_READ)) != 0 ||
	    sample_doca_ok("doca_rdma_set_grh_enabled", doca_rdma_set_grh_enabled(s->rdma, 1)) != 0 ||
	    sample_doca_ok("doca_rdma_set_send_queue_size", doca_rdma_set_send_queue_size(s->rdma, 2 * s->c.n)) != 0 ||
	    sample_doca_ok("doca_rdma_set_recv_queue_size", doca_rdma_set_recv_queue_size(s->rdma, s->c.n)) != 0 ||
	    sample_doca_ok("doca_ctx_set_datapath_on_gpu",
			   doca_ctx_set_datapath_on_gpu(doca_rdma_as_ctx(s->rdma), s->gpu)) != 0 ||
	    (s->c.cm && cm_prepare(s) != 0) ||
	    sample_doca_ok("doca_ctx_start", doca_ctx_start(doca_rdma_as_ctx(s->rdma))) != 0 ||
	    sample_doca_ok("doca_rdma_get_gpu_handle", doca_rdma_get_gpu_handle(s->rdma, &s->h)) != 0)
		return -1;
	if (s->c.server == NULL)
		return arr_local(s, &s->a, s->c.n, A_ELEM, false);
	if (arr_local(s, &s->b, s->c.n, BC_ELEM, false) != 0 || arr_local(s, &s->cc, s->c.n, BC_ELEM, false) != 0 ||
	    arr_local(s, &s->flag, 1, FLAG_BYTES, true) != 0)
		return -1;
	for (uint32_t i = 0; i < s->c.n; i++)
		sample_pattern_fill(s->stage + (size_t)i * BC_ELEM, BC_ELEM, PATTERN_SEED, 2 * i);
	if (arr_io(s, &s->b, s->stage, (size_t)s->c.n * BC_ELEM, true) != 0)
		return -1;
	for (uint32_t i = 0; i < s->c.n; i++)
		sample_pattern_fill(s->stage + (size_t)i * BC_ELEM, BC_ELEM, PATTERN_SEED, 2 * i + 1);
	return arr_io(s, &s->cc, s->stage, (size_t)s->c.n * BC_ELEM, true);
}

static void teardown(struct side *s)
{
	if (s->peer.ba != NULL)
		(void)doca_buf_arr_destroy(s->peer.ba);
	if (s->peer.mmap != NULL)
		(void)doca_mmap_destroy(s->peer.mmap);
	arr_close(s, &s->a);
	arr_close(s, &s->b);
	arr_close(s, &s->cc);
	arr_close(s, &s->flag);
	if (s->rdma != NULL) {
		if (s->h != NULL)
			(void)doca_ctx_stop(doca_rdma_as_ctx(s->rdma));
		(void)doca_rdma_destroy(s->rdma);
	}
	if (s->pe != NULL)
		(void)doca_pe_destroy(s->pe);
	if (s->res != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->res);
	if (s->gpu != NULL)
		(void)doca_gpu_destroy(s->gpu);
	if (s->dev != NULL)
		(void)doca_dev_close(s->dev);
	if (s->list != NULL)
		(void)doca_devinfo_destroy_list(s->list);
	sample_oob_close(&s->fd);
	sample_oob_close(&s->lfd);
	free(s->stage);
}

/* ---- --cm: the connection manager ------------------------------------------------------------ */

static void cm_request(struct doca_rdma_connection *conn, union doca_data ctx_user)
{
	struct side *s = ctx_user.ptr;

	if (sample_doca_ok("doca_rdma_connection_accept", doca_rdma_connection_accept(conn, NULL, 0)) != 0)
		s->cm_state = -1;
}

static void cm_established(struct doca_rdma_connection *conn, union doca_data user, union doca_data ctx_user)
{
	struct side *s = ctx_user.ptr;

	(void)user;
	s->conn = conn;
	s->cm_state = 1;
}

static void cm_failure(struct doca_rdma_connection *conn, union doca_data user, union doca_data ctx_user)
{
	struct side *s = ctx_user.ptr;

	(void)conn;
	(void)user;
	sample_err("the connection manager could not connect");
	s->cm_state = -1;
}

static void cm_disconnect(struct doca_rdma_connection *conn, union doca_data user, union doca_data ctx_user)
{
	(void)conn;
	(void)user;
	(void)ctx_user;
}

/* Before start: an engine for the callbacks, the callbacks, this side as the context's data. */
static int cm_prepare(struct side *s)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(s->rdma);

	return sample_doca_ok("doca_pe_create", doca_pe_create(&s->pe)) != 0 ||
			       sample_doca_ok("doca_pe_connect_ctx", doca_pe_connect_ctx(s->pe, ctx)) != 0 ||
			       sample_doca_ok("doca_ctx_set_user_data",
					      doca_ctx_set_user_data(ctx, (union doca_data){.ptr = s})) != 0 ||
			       sample_doca_ok("doca_rdma_set_connection_state_callbacks",
					      doca_rdma_set_connection_state_callbacks(s->rdma, cm_request, cm_established,
										       cm_failure, cm_disconnect)) != 0
		       ? -1
		       : 0;
}

/* Server: listens on --cm-port, or on the first free port from the side channel's + 1. */
static int cm_listen(struct side *s)
{
	uint16_t first = s->c.cm_port != 0 ? s->c.cm_port : (uint16_t)(s->c.port != 0 ? s->c.port + 1 : 18517);
	uint32_t tries = s->c.cm_port != 0 ? 1u : CM_PORT_TRIES;

	for (uint32_t k = 0; k < tries; k++) {
		uint16_t port = (uint16_t)(first + k);

		if (port != 0 && doca_rdma_start_listen_to_port(s->rdma, port) == DOCA_SUCCESS) {
			s->c.cm_port = port;
			sample_info("connection manager: port %u", port);
			return 0;
		}
	}
	sample_err("the connection manager cannot listen on port %u%s", first, tries > 1 ? " or the next ones" : "");
	return -1;
}

/* Client: connects to the server's port; both: progress until established or failed (bounded). */
static int cm_connect(struct side *s, uint16_t port)
{
	struct doca_rdma_addr *addr = NULL;
	struct timespec t0, t;

	if (s->c.server != NULL) {
		enum doca_rdma_addr_type type = strchr(s->c.server, ':') != NULL ? DOCA_RDMA_ADDR_TYPE_IPv6
										 : DOCA_RDMA_ADDR_TYPE_IPv4;

		if (sample_doca_ok("doca_rdma_addr_create", doca_rdma_addr_create(type, s->c.server, port, &addr)) != 0)
			return -1;
		if (sample_doca_ok("doca_rdma_connect_to_addr",
				   doca_rdma_connect_to_addr(s->rdma, addr, (union doca_data){.ptr = s})) != 0) {
			(void)doca_rdma_addr_destroy(addr);
			return -1;
		}
		(void)doca_rdma_addr_destroy(addr);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (s->cm_state == 0) {
		if (doca_pe_progress(s->pe) == 0) {
			struct timespec nap = {0, 100000};

			nanosleep(&nap, NULL);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 > CM_TIMEOUT_MS) {
			sample_err("no connection within %d ms", CM_TIMEOUT_MS);
			return -1;
		}
	}
	return s->cm_state == 1 ? 0 : -1;
}

/* Exchanges connection details and one export each way, connects, maps the peer's export. */
static int exchange(struct side *s)
{
	struct setup_msg mine = {.n = htonl(s->c.n)}, theirs;
	const void *conn, *desc;
	size_t conn_len, desc_len;
	struct arr *exp = s->c.server == NULL ? &s->a : &s->flag;
	uint16_t port = 0;

	conn = NULL;
	conn_len = 0;
	if ((!s->c.cm && sample_doca_ok("doca_rdma_export", doca_rdma_export(s->rdma, &conn, &conn_len, &s->conn)) != 0) ||
	    sample_doca_ok("doca_mmap_export_rdma", doca_mmap_export_rdma(exp->mmap, s->dev, &desc, &desc_len)) != 0)
		return -1;
	if (conn_len > DESC_MAX || desc_len > DESC_MAX) {
		sample_err("connection details (%zu) or export (%zu) larger than %u bytes", conn_len, desc_len, DESC_MAX);
		return -1;
	}
	if (conn_len != 0)
		memcpy(mine.conn, conn, conn_len);
	memcpy(mine.desc, desc, desc_len);
	mine.conn_len = htonl((uint32_t)conn_len);
	mine.desc_len = htonl((uint32_t)desc_len);
	if (s->c.server == NULL) {
		if (s->c.cm && cm_listen(s) != 0) /* before the side channel: the client connects after it */
			return -1;
		mine.cm_port = htons(s->c.cm_port);
		if (sample_oob_listen(s->c.port, &s->lfd, &port) != 0)
			return -1;
		sample_info("listening on port %u", port);
		if (sample_oob_accept(s->lfd, OOB_TIMEOUT_MS, &s->fd) != 0)
			return -1;
	} else if (sample_oob_connect(s->c.server, s->c.port, OOB_TIMEOUT_MS, &s->fd) != 0) {
		return -1;
	}
	if (sample_oob_send(s->fd, MSG_SETUP, &mine, sizeof(mine), OOB_TIMEOUT_MS) != 0 ||
	    sample_oob_recv(s->fd, MSG_SETUP, &theirs, sizeof(theirs), OOB_TIMEOUT_MS, "setup") != 0)
		return -1;
	if (ntohl(theirs.n) != s->c.n || ntohl(theirs.conn_len) > DESC_MAX || ntohl(theirs.desc_len) > DESC_MAX) {
		sample_err("the peer runs with %u elements (we have %u) or sent a malformed setup", ntohl(theirs.n), s->c.n);
		return -1;
	}
	if (s->c.cm && s->c.server != NULL && theirs.cm_port == 0) {
		sample_err("--cm: the server does not run with --cm");
		return -1;
	}
	if (s->c.cm ? cm_connect(s, ntohs(theirs.cm_port)) != 0
		    : sample_doca_ok("doca_rdma_connect",
				     doca_rdma_connect(s->rdma, theirs.conn, ntohl(theirs.conn_len), s->conn)) != 0)
		return -1;
	if (sample_doca_ok("doca_mmap_create_from_export", doca_mmap_create_from_export(NULL, theirs.desc, ntohl(theirs.desc_len),
									      s->dev, &s->peer.mmap)) != 0)
		return -1;
	if (s->c.server == NULL)
		return arr_buf(&s->peer, 1, FLAG_BYTES, s->gpu);
	return arr_buf(&s->peer, s->c.n, A_ELEM, s->gpu);
}

/* The server's device code on a host thread: receives, the flag, then every receive's report. */
static doca_error_t server_host(struct side *s, struct csw_result *res)
{
	struct doca_gpu_dev_rdma_r *r = NULL;
	uint32_t curr = 0, mask = 0, one = 1;
	doca_error_t err = ogda_dev_rdma_get_recv(s->h, &r);

	for (uint32_t i = 0; i < s->c.n && err == DOCA_SUCCESS; i++) {
		if (s->c.weak)
			err = ogda_dev_rdma_recv_get_info(r, &curr, &mask);
		if (err == DOCA_SUCCESS)
			err = ogda_dev_rdma_recv(r, i % 2 ? buf(&s->a, i) : NULL, i % 2 ? A_ELEM : 0, 0, s->c.weak, curr);
		if (err == DOCA_SUCCESS)
			err = s->c.weak ? ogda_dev_rdma_recv_commit_weak(r, 1) : ogda_dev_rdma_recv_commit_strong(r);
	}
	if (err == DOCA_SUCCESS && s->c.weak)
		err = ogda_dev_rdma_get_info(s->h, 0, &curr, &mask);
	if (err == DOCA_SUCCESS)
		err = ogda_dev_rdma_write_inl(s->h, 0, buf(&s->peer, 0), 0, (const uint8_t *)&one, 4, 0, 0, s->c.weak, curr);
	if (err == DOCA_SUCCESS)
		err = s->c.weak ? ogda_dev_rdma_commit_weak(s->h, 0, 1) : ogda_dev_rdma_commit_strong(s->h, 0);
	if (err == DOCA_SUCCESS)
		err = ogda_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &res->n, res->imm, res->conn);
	if (err == DOCA_SUCCESS)
		err = ogda_dev_rdma_wait_all(s->h, NULL);
	return err;
}

/* The server's device code (kernel or host thread), then its reports checked. */
static int server_run(struct side *s)
{
	struct csw_result *res = s->res_cpu;
	doca_error_t err;

	if (s->on_gpu) {
		if (csw_cuda_server(s->h, s->a.h, s->peer.h, s->c.n, s->c.weak, s->res) != 0)
			return -1;
		err = (doca_error_t)res->err;
	} else {
		err = server_host(s, res);
	}
	if (sample_doca_ok("the server's device code", err) != 0)
		return -1;
	if (res->n != s->c.n) {
		sample_err("%u receives reported, %u expected", res->n, s->c.n);
		return -1;
	}
	for (uint32_t k = 0; k < res->n; k++) {
		if (ntohl(res->imm[k]) != k || res->conn[k] != 0) {
			sample_err("receive %u: immediate %u on connection %u, expected %u on 0", k, ntohl(res->imm[k]),
				   res->conn[k], k);
			return -1;
		}
	}
	return 0;
}

static int server_verify(struct side *s)
{
	size_t bad = 0;
	uint8_t got = 0, want = 0;

	if (arr_io(s, &s->a, s->stage, (size_t)s->c.n * A_ELEM, false) != 0)
		return -1;
	for (uint32_t i = 0; i < s->c.n; i++) {
		const uint8_t *e = s->stage + (size_t)i * A_ELEM;

		if (sample_pattern_check(e, BC_ELEM, PATTERN_SEED, 2 * i, &bad, &got, &want) != 0 ||
		    sample_pattern_check(e + BC_ELEM, BC_ELEM, PATTERN_SEED, 2 * i + 1, &bad, &got, &want) != 0) {
			sample_err("A[%u]: a byte is 0x%02x, not 0x%02x", i, got, want);
			return -1;
		}
	}
	return 0;
}

struct client_thread {
	struct side *s;
	uint32_t t, curr, mask;
	doca_error_t err;
};

/* Thread t posts the elements i = t, t + 2, ...: C[i] at position 2i, B[i] with immediate i at 2i + 1. */
static void *client_post(void *p)
{
	struct client_thread *ct = p;
	struct side *s = ct->s;

	ct->err = DOCA_SUCCESS;
	for (uint32_t i = ct->t; i < s->c.n && ct->err == DOCA_SUCCESS; i += 2) {
		uint32_t pos = (ct->curr + 2 * i) & ct->mask;

		ct->err = ogda_dev_rdma_xfer(s->h, 0, buf(&s->peer, i), BC_ELEM, buf(&s->cc, i), 0, BC_ELEM, 0, 0, 0, 1, pos);
		if (ct->err != DOCA_SUCCESS)
			break;
		if (i % 2 == 0)
			ct->err = ogda_dev_rdma_xfer(s->h, 0, buf(&s->peer, i), 0, buf(&s->b, i), 0, BC_ELEM, htonl(i),
						     DOCA_GPU_RDMA_WRITE_FLAG_IMM, 0, 1, (pos + 1) & ct->mask);
		else
			ct->err = ogda_dev_rdma_send(s->h, 0, buf(&s->b, i), 0, BC_ELEM, htonl(i), DOCA_GPU_RDMA_SEND_FLAG_IMM,
						     1, (pos + 1) & ct->mask);
	}
	return NULL;
}

static int client_run(struct side *s)
{
	volatile uint32_t *flag = s->flag.cpu != NULL ? s->flag.cpu : s->flag.mem;
	int64_t deadline = sample_now_ms() + FLAG_TIMEOUT_MS;
	struct client_thread ct[2];
	pthread_t th[2];
	uint32_t curr = 0, mask = 0, n = 0;
	doca_error_t err;

	if (s->on_gpu) {
		if (csw_cuda_client(s->h, s->peer.h, s->b.h, s->cc.h, s->flag.mem, s->c.n, s->res) != 0)
			return -1;
		err = (doca_error_t)s->res_cpu->err;
		n = s->res_cpu->n;
		if (err == DOCA_SUCCESS && n != 2 * s->c.n) {
			sample_err("%u operations completed, %u expected", n, 2 * s->c.n);
			return -1;
		}
		return sample_doca_ok("the client's kernel", err);
	}
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
		if (sample_now_ms() > deadline) {
			sample_err("the server did not raise the flag within %d s", FLAG_TIMEOUT_MS / 1000);
			return -1;
		}
		sample_sleep_us(100);
	}
	if (sample_doca_ok("get_info", ogda_dev_rdma_get_info(s->h, 0, &curr, &mask)) != 0)
		return -1;
	for (uint32_t t = 0; t < 2; t++) {
		ct[t] = (struct client_thread){.s = s, .t = t, .curr = curr, .mask = mask};
		if (pthread_create(&th[t], NULL, client_post, &ct[t]) != 0) {
			sample_err("cannot start a thread");
			if (t == 1)
				pthread_join(th[0], NULL);
			return -1;
		}
	}
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	err = ct[0].err != DOCA_SUCCESS ? ct[0].err : ct[1].err;
	if (err == DOCA_SUCCESS)
		err = ogda_dev_rdma_commit_weak(s->h, 0, 2 * s->c.n);
	if (err == DOCA_SUCCESS)
		err = ogda_dev_rdma_wait_all(s->h, &n);
	if (err == DOCA_SUCCESS && n != 2 * s->c.n) {
		sample_err("%u operations completed, %u expected", n, 2 * s->c.n);
		return -1;
	}
	return sample_doca_ok("the client's device code", err);
}

int main(int argc, char **argv)
{
	struct side s = {.c = {.port = 18516, .n = 32}, .lfd = -1, .fd = -1};
	uint8_t mine = 1, theirs = 0;
	int rc;

	sample_set_prog("gpunetio_rdma_client_server_write");
	if (sample_args_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), on_opt, &s.c) != 0) {
		sample_args_usage(stderr, "[options]", opts, sizeof(opts) / sizeof(opts[0]));
		return SAMPLE_EXIT_USAGE;
	}
	rc = setup(&s) == 0 && exchange(&s) == 0 ? 0 : -1;
	if (rc == 0)
		rc = s.c.server == NULL ? (server_run(&s) == 0 && server_verify(&s) == 0 ? 0 : -1) : client_run(&s);
	/* Both ends report; each succeeds only when both did. */
	mine = rc == 0;
	if (s.fd >= 0 && (sample_oob_send(s.fd, MSG_RESULT, &mine, 1, OOB_TIMEOUT_MS) != 0 ||
			  sample_oob_recv(s.fd, MSG_RESULT, &theirs, 1, OOB_TIMEOUT_MS, "result") != 0))
		theirs = 0;
	if (rc == 0 && !theirs) {
		sample_err("the peer failed");
		rc = -1;
	}
	teardown(&s);
	if (rc == 0)
		sample_info("%u buffers: success", s.c.n);
	else
		sample_info("failed: %s", sample_first_error());
	return rc == 0 ? SAMPLE_EXIT_SUCCESS : SAMPLE_EXIT_FAILURE;
}
