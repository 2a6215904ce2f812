/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet queues on the ConnectX binding (the fake rdma-core's "mlx5_0", whose commands the
 * software NIC executes) with queue memory in GPU memory, and the send doorbell's mapping.
 *
 * Without a GPU, a host handle's DOCA_GPU_MEM_TYPE_GPU memory stands for GPU memory: it has no
 * CPU pointer, so the library must write the initial ring through its copy to the device, and it
 * registers the block as GPU memory. The GPU's dmabuf export is stood in for by wrapping
 * doca_gpu_dmabuf_fd at link time (a memfd the fake maps onto that memory, so the queue runs); the
 * Verbs UAR export likewise (doca_gpu_verbs_export_uar / _unexport_uar), to check which mapping a
 * ConnectX UAR gets. What this cannot show: a real dmabuf, CUDA's I/O-memory registration, a NIC.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/log.h"
#include "device/ogda_dev_eth.h"
#include "devx/devx.h"
#include "doca_ctx.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_eth_txq.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_pe.h"
#include "opengda.h"
#include "eth/eth_priv.h"
#include "eth/rxq_priv.h"
#include "fake_rdma_core.h"
#include "flow/flow_fixture.h"
#include "gpunetio/gpunetio_priv.h"
#include "opengda_mlx5.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* ---- link-time stand-ins for the GPU's dmabuf export and the Verbs UAR export ---- */

doca_error_t __real_doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd);
doca_error_t __real_doca_gpu_verbs_export_uar(uint64_t *sq_db, uint64_t **uar_addr_gpu);
doca_error_t __real_doca_gpu_verbs_unexport_uar(uint64_t *uar_addr_gpu);

static struct {
	bool dmabuf_on;          /* stand in for the export (else the real one: a host handle refuses) */
	doca_error_t dmabuf_err; /* what the stand-in answers */
	int calls, last_fd;
	void *last_ptr;
	size_t last_size;
	bool uar_on;
	doca_error_t uar_err;
	int exports, unexports;
	uint64_t *export_reg, *unexport_addr;
} w;

static uint64_t uar_sentinel[8];

doca_error_t __wrap_doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd);
doca_error_t __wrap_doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd)
{
	if (!w.dmabuf_on)
		return __real_doca_gpu_dmabuf_fd(gpu_dev, memptr_gpu, size, dmabuf_fd);
	w.calls++;
	w.last_ptr = memptr_gpu;
	w.last_size = size;
	if (w.dmabuf_err != DOCA_SUCCESS)
		return w.dmabuf_err;
	*dmabuf_fd = eventfd(0, 0); /* any fd: the fake maps it onto memptr_gpu */
	assert_true(*dmabuf_fd >= 0);
	w.last_fd = *dmabuf_fd;
	fake_rdma_core_set_dmabuf_backing(*dmabuf_fd, memptr_gpu);
	return DOCA_SUCCESS;
}

doca_error_t __wrap_doca_gpu_verbs_export_uar(uint64_t *sq_db, uint64_t **uar_addr_gpu);
doca_error_t __wrap_doca_gpu_verbs_export_uar(uint64_t *sq_db, uint64_t **uar_addr_gpu)
{
	if (!w.uar_on)
		return __real_doca_gpu_verbs_export_uar(sq_db, uar_addr_gpu);
	w.exports++;
	w.export_reg = sq_db;
	if (w.uar_err != DOCA_SUCCESS)
		return w.uar_err;
	*uar_addr_gpu = uar_sentinel;
	return DOCA_SUCCESS;
}

doca_error_t __wrap_doca_gpu_verbs_unexport_uar(uint64_t *uar_addr_gpu);
doca_error_t __wrap_doca_gpu_verbs_unexport_uar(uint64_t *uar_addr_gpu)
{
	if (!w.uar_on)
		return __real_doca_gpu_verbs_unexport_uar(uar_addr_gpu);
	w.unexports++;
	w.unexport_addr = uar_addr_gpu;
	return DOCA_SUCCESS;
}

/* ---- helpers ---- */

/* Whether the handle maps any host range for its threads (the UAR page here). */
static bool mapped(const struct doca_gpu *gpu)
{
	return gpu->hostmaps != NULL;
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

static int setup(void **state)
{
	struct ffx *f = calloc(1, sizeof(*f));

	memset(&w, 0, sizeof(w));
	assert_int_equal(opengda_log_set_level(OGDA_LOG_INFO), DOCA_SUCCESS); /* the fallbacks are INFO lines */
	fake_rdma_core_install();
	ffx_open(f, FAKE_MLX5_NAME);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake_rdma_core_counts c;
	struct ffx *f = *state;

	ffx_close(f); /* asserts that the GPU handle holds no allocation or mapping */
	free(f);
	fake_rdma_core_counts(&c);
	fake_rdma_core_set_dmabuf_backing(-1, NULL);
	fake_rdma_core_uninstall();
	assert_int_equal(c.umems, 0);
	assert_int_equal(c.uars, 0);
	assert_int_equal(c.objs, 0);
	return 0;
}

static struct doca_eth_txq *txq_new(struct ffx *f, enum doca_gpu_mem_type mtype)
{
	struct doca_eth_txq *t = NULL;

	assert_int_equal(doca_eth_txq_create(f->dev, 64, &t), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_set_sq_mem_type(t, mtype), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(t), f->gpu), DOCA_SUCCESS);
	return t;
}

/* ---- the doorbell ---- */

/* A ConnectX UAR of a GPU goes through the Verbs export; a host UAR or a host handle through a host mapping. */
static void test_doorbell_routing(void **state)
{
	struct ffx *f = *state;
	struct doca_gpu gpu_cx;
	struct ogda_gpu_db_map m;
	uint64_t *dev = NULL;
	uint8_t *page = NULL;
	uint64_t *reg;

	assert_int_equal(posix_memalign((void **)&page, 4096, 4096), 0);
	reg = (uint64_t *)(void *)(page + 0x800);
	memset(&gpu_cx, 0, sizeof(gpu_cx)); /* a GPU handle: only is_host is read on this path */
	w.uar_on = true;

	assert_int_equal(ogda_gpu_doorbell_map(&gpu_cx, page, reg, false, &m, &dev), DOCA_SUCCESS);
	assert_int_equal(w.exports, 1);
	assert_ptr_equal(w.export_reg, reg);
	assert_ptr_equal(dev, uar_sentinel);
	assert_null(m.host_page);
	assert_int_equal(ogda_gpu_doorbell_unmap(&gpu_cx, &m), DOCA_SUCCESS);
	assert_int_equal(w.unexports, 1);
	assert_ptr_equal(w.unexport_addr, uar_sentinel);
	assert_null(m.exported);

	/* The export refused: the error, nothing held. */
	w.uar_err = DOCA_ERROR_NOT_FOUND;
	stderr_capture_begin();
	assert_int_equal(ogda_gpu_doorbell_map(&gpu_cx, page, reg, false, &m, &dev), DOCA_ERROR_NOT_FOUND);
	{
		char log[2048];

		assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "cannot map the doorbell register"));
	}
	assert_null(m.exported);
	assert_null(m.host_page);
	w.uar_err = DOCA_SUCCESS;

	/* The software NIC's UAR (host_uar) and a host handle: a host mapping, never the export. */
	assert_int_equal(ogda_gpu_doorbell_map(f->gpu, page, reg, false, &m, &dev), DOCA_SUCCESS);
	assert_ptr_equal(dev, reg);
	assert_ptr_equal(m.host_page, page);
	assert_true(mapped(f->gpu));
	assert_int_equal(ogda_gpu_doorbell_unmap(f->gpu, &m), DOCA_SUCCESS);
	assert_false(mapped(f->gpu));
	assert_int_equal(w.exports, 2);

	/* A register outside the page. */
	TEST_EXPECT_ERR(ogda_gpu_doorbell_map(f->gpu, page, (uint64_t *)(void *)(page + 4096), false, &m, &dev),
			DOCA_ERROR_INVALID_VALUE, "inside the UAR page");
	w.uar_on = false;
	free(page);
}

/* Every start maps the UAR page once for the doorbell; every stop gives it back. */
static void test_txq_doorbell_cycles(void **state)
{
	struct ffx *f = *state;
	struct doca_eth_txq *t = txq_new(f, DOCA_GPU_MEM_TYPE_CPU_GPU);
	struct fake_rdma_core_counts c;
	int i;

	for (i = 0; i < 3; i++) {
		assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
		assert_true(mapped(f->gpu));
		assert_non_null(t->res.db_map.host_page);
		assert_null(t->res.db_map.exported);
		/* A host handle's threads write the CPU's address of the register. */
		assert_ptr_equal(t->res.db_gpu, t->res.db_cpu);
		assert_ptr_equal(t->view.qp.sq_db, t->res.db_cpu);
		fake_rdma_core_counts(&c);
		assert_int_equal(c.uars, 1);
		assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
		assert_false(mapped(f->gpu));
		assert_null(t->res.db_map.host_page);
		fake_rdma_core_counts(&c);
		assert_int_equal(c.uars, 0);
	}
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
}

/* ---- queue memory in GPU memory ---- */

/* The first page of f's buffer for local access on f's device; *mkey its key. */
static struct doca_mmap *buf_mmap(struct ffx *f, uint32_t *mkey)
{
	struct doca_mmap *mm = NULL;

	assert_int_equal(doca_mmap_create(&mm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(mm, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(mm, f->buf, 4096), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(mm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_get_mkey(mm, f->dev, mkey), DOCA_SUCCESS);
	return mm;
}

static void buf_mmap_destroy(struct doca_mmap *mm)
{
	assert_int_equal(doca_mmap_stop(mm), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(mm), DOCA_SUCCESS);
}

static void check_cqes_invalid(const uint8_t *cq, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(cq[i * 64u + 63u], OPENGDA_MLX5_CQE_OP_OWN_INIT);
}

/* dmabuf umem; ring initialised through the copy; a frame sent and completed through it. */
static void test_txq_gpu_mem_dmabuf(void **state)
{
	struct ffx *f = *state;
	struct doca_eth_txq *t = txq_new(f, DOCA_GPU_MEM_TYPE_GPU);
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_mmap *mm = NULL;
	uint32_t mkey = 0, done = 0;
	const uint8_t *g;
	uint32_t dbr[2];

	w.dmabuf_on = true;
	assert_int_equal(doca_eth_txq_gpu_set_completion_on_gpu(t), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_true(t->res.qm.in_gpu);
	assert_null(t->res.qm.mem_cpu);
	assert_null(t->res.qm.stage);
	/* The whole block, exported once; registered with that fd at offset 0; the fd closed after. */
	assert_int_equal(w.calls, 1);
	assert_ptr_equal(w.last_ptr, t->res.qm.mem_gpu);
	assert_int_equal(w.last_size, t->res.qm.len);
	assert_int_equal(t->res.qm.len % DOCA_GPUNETIO_VERBS_PAGE_SIZE, 0);
	assert_int_equal(last->umem_in.dmabuf_fd, w.last_fd);
	assert_int_equal(last->umem_in.comp_mask & OGDA_MLX5DV_UMEM_MASK_DMABUF, OGDA_MLX5DV_UMEM_MASK_DMABUF);
	assert_null(last->umem_in.addr);
	assert_int_equal(last->umem_in.size, t->res.qm.len);
	assert_false(fd_open(w.last_fd));
	/* The ring as the NIC sees it: every CQE invalid, both doorbell records 0. */
	g = t->res.qm.mem_gpu;
	check_cqes_invalid(g + ((size_t)64 << 6), 64);
	memcpy(dbr, g + ((size_t)64 << 6) + ((size_t)64 << 6), sizeof(dbr));
	assert_int_equal(dbr[0], 0);
	assert_int_equal(dbr[1], 0);
	assert_int_equal(t->view.qp.mem_type, DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU);
	assert_null(t->res.cqes_cpu);
	assert_null(t->res.dbr_cpu);

	/* The NIC executes a send from that memory (no port: the frame is dropped, the CQE written). */
	assert_int_equal(doca_eth_txq_get_gpu_handle(t, &h), DOCA_SUCCESS);
	h->qp.cq_sq.ogda_wait_timeout_ns = 5000000000ull;
	h->qp.ogda_wait_timeout_ns = 5000000000ull;
	mm = buf_mmap(f, &mkey);
	memset(f->buf, 0xab, 128);
	ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(mkey), 128,
			     DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
			     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	assert_int_equal(ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done), 0);
	assert_int_equal(done, 1);
	assert_int_equal(((const struct opengda_mlx5_cqe64 *)(const void *)(g + ((size_t)64 << 6)))->op_own >> 4,
			 OPENGDA_MLX5_CQE_REQ);

	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
	buf_mmap_destroy(mm);
	w.dmabuf_on = false;
}

static int notified;
static uint16_t notified_pos;

static void on_notify(struct doca_eth_txq_gpu_event_notify_send_packet *ev, union doca_data data)
{
	(void)data;
	notified++;
	assert_int_equal(doca_eth_txq_gpu_event_notify_send_packet_get_position(ev, &notified_pos), DOCA_SUCCESS);
}

/* No dmabuf from the GPU: the GPU pointer itself (nvidia-peermem); CPU events read the CQ by copies. */
static void test_txq_gpu_mem_peermem(void **state)
{
	struct ffx *f = *state;
	struct doca_eth_txq *t = txq_new(f, DOCA_GPU_MEM_TYPE_GPU);
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_pe *pe = NULL;
	union doca_data d = {0};
	uint32_t mkey = 0;
	char log[4096];

	w.dmabuf_on = true;
	w.dmabuf_err = DOCA_ERROR_NOT_SUPPORTED;
	assert_int_equal(doca_pe_create(&pe), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_event_notify_send_packet_register(t, on_notify, d), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "nvidia-peermem"));
	assert_int_equal(w.calls, 1);
	assert_ptr_equal(last->umem_addr, t->res.qm.mem_gpu);
	assert_int_equal(last->umem_size, t->res.qm.len);
	check_cqes_invalid((const uint8_t *)t->res.qm.mem_gpu + ((size_t)64 << 6), 64);

	assert_int_equal(doca_eth_txq_get_gpu_handle(t, &h), DOCA_SUCCESS);
	h->qp.ogda_wait_timeout_ns = 5000000000ull;
	mm = buf_mmap(f, &mkey);
	for (int i = 0; i < 2; i++)
		ogda_dev_eth_op_send(h, (uint64_t)(uintptr_t)f->buf, opengda_mlx5_htobe32(mkey), 100,
				     DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, OGDA_DEV_SHARE_EXCLUSIVE,
				     DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	for (int spin = 0; notified < 2 && spin < 5000; spin++) {
		(void)doca_pe_progress(pe);
		if (notified < 2)
			usleep(1000);
	}
	assert_int_equal(notified, 2);
	assert_int_equal(notified_pos, 1);

	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(pe), DOCA_SUCCESS);
	buf_mmap_destroy(mm);
	w.dmabuf_on = false;
}

/* Receive queue in GPU memory: WQEs, doorbell record and CQEs written through the copy. */
static void test_rxq_gpu_mem(void **state)
{
	struct ffx *f = *state;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	const struct doca_gpu_eth_rxq *v;
	const uint8_t *g;
	uint32_t be, dbr;
	uint64_t a;

	w.dmabuf_on = true;
	ffx_rxq_start_mem(f, 0, 3, DOCA_GPU_MEM_TYPE_GPU);
	v = &f->rxq[0].q->view;
	g = f->rxq[0].q->res.qm.mem_gpu;
	assert_true(f->rxq[0].q->res.qm.in_gpu);
	assert_null(f->rxq[0].q->res.qm.mem_cpu);
	assert_int_equal(last->umem_in.dmabuf_fd, w.last_fd);
	assert_ptr_equal(v->wqe_addr, g);
	for (uint32_t i = 0; i < v->wqe_num; i++) {
		memcpy(&be, g + i * 16u, 4);
		assert_int_equal(opengda_mlx5_be32toh(be), FFX_PKT);
		memcpy(&be, g + i * 16u + 4, 4);
		assert_int_equal(opengda_mlx5_be32toh(be), opengda_mlx5_be32toh(v->pkt_mkey));
		memcpy(&a, g + i * 16u + 8, 8);
		assert_int_equal(opengda_mlx5_be64toh(a), v->pkt_addr + (uint64_t)i * FFX_PKT);
	}
	memcpy(&dbr, v->wqe_db_rec, 4);
	assert_int_equal(opengda_mlx5_be32toh(dbr), v->wqe_num);
	check_cqes_invalid(v->cq.cqe_daddr, v->cq.cqe_num);
	assert_int_equal(v->cq.mem_type, DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU);
	ffx_rxq_stop(f, 0);
	w.dmabuf_on = false;
}

/* The NIC refuses the dmabuf: the GPU pointer instead; both refused: start fails, nothing left. */
static void test_gpu_mem_failures(void **state)
{
	struct ffx *f = *state;
	struct doca_eth_txq *t = txq_new(f, DOCA_GPU_MEM_TYPE_GPU);
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct fake_rdma_core_counts c;
	char log[4096];
	const char *l;
	doca_error_t rc;

	w.dmabuf_on = true;
	/* A first start reads the device (capabilities, PD): then the umem is a start's first call. */
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	fake_rdma_core_fail_next(EOPNOTSUPP); /* the dmabuf umem */
	stderr_capture_begin();
	rc = doca_ctx_start(doca_eth_txq_as_doca_ctx(t));
	l = stderr_capture_end(log, sizeof(log));
	if (rc != DOCA_SUCCESS || strstr(l, "the NIC refused the dmabuf") == NULL)
		fail_msg("start: %s; log: %s", doca_error_get_descr(rc), l);
	assert_ptr_equal(last->umem_addr, t->res.qm.mem_gpu);
	assert_false(fd_open(w.last_fd));
	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);

	w.dmabuf_err = DOCA_ERROR_NOT_SUPPORTED;
	fake_rdma_core_fail_next(EFAULT); /* the plain registration of the GPU pointer */
	stderr_capture_begin();
	assert_int_not_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	l = stderr_capture_end(log, sizeof(log));
	assert_non_null(strstr(l, "dmabuf and nvidia-peermem both failed"));
	assert_non_null(strstr(l, "eth_txq: cannot start"));
	assert_null(f->gpu->allocs);
	assert_null(t->res.qm.mem_gpu);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.umems, 0);
	assert_int_equal(c.uars, 0);

	/* The CPU proxy writes the doorbell record, which GPU memory without a CPU mapping does not allow. */
	w.dmabuf_err = DOCA_SUCCESS;
	assert_int_equal(doca_eth_txq_gpu_set_uar_on_cpu(t), DOCA_SUCCESS);
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_ERROR_NOT_SUPPORTED);
	l = stderr_capture_end(log, sizeof(log));
	assert_non_null(strstr(l, "CPU proxy"));
	assert_null(f->gpu->allocs);
	fake_rdma_core_counts(&c);
	assert_int_equal(c.umems, 0);
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
	w.dmabuf_on = false;
}

/* The software NIC keeps host queues whatever is asked, and says so. */
static void test_swnic_keeps_host_queues(void **state)
{
	struct ffx *f = *state;
	struct ffx sw;
	struct doca_eth_txq *t = NULL;
	char log[4096];

	(void)f;
	ffx_open(&sw, "swnic0");
	assert_int_equal(doca_eth_txq_create(sw.dev, 64, &t), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(t), sw.gpu), DOCA_SUCCESS);
	w.dmabuf_on = true;
	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "using CPU_GPU memory"));
	assert_int_equal(w.calls, 0);
	assert_false(t->res.qm.in_gpu);
	assert_non_null(t->res.qm.mem_cpu);
	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_destroy(t), DOCA_SUCCESS);
	ffx_close(&sw);
	w.dmabuf_on = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_doorbell_routing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_txq_doorbell_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_txq_gpu_mem_dmabuf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_txq_gpu_mem_peermem, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rxq_gpu_mem, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpu_mem_failures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swnic_keeps_host_queues, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
