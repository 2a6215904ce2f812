/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_setup.h"

#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opengda.h"
#include "opengda_gpunetio.h"
#include "sample_util.h"

#define EX_SQ_NWQE 2048u /* as DOCA's examples (VERBS_TEST_QUEUE_SIZE) */
#define EX_PSN 0x1000u
#define EX_ACCESS                                                                                  \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

int ex_exec_open(struct ex_ctx *x)
{
	doca_error_t err;

	if (x->cfg.host_threads) {
		snprintf(x->exec_why, sizeof(x->exec_why), "--host-threads");
	} else if (ex_cuda_open(x->cfg.gpu_bus_id, &x->gpu_desc, x->exec_why, sizeof(x->exec_why)) == 0) {
		err = doca_gpu_create(x->gpu_desc.bus_id, &x->gpu);
		if (err != DOCA_SUCCESS) {
			sample_err_doca("doca_gpu_create", err);
			return -1;
		}
		x->cuda = true;
		return 0;
	} else if (x->cfg.gpu_bus_id != NULL) {
		sample_err("-g %s: %s", x->cfg.gpu_bus_id, x->exec_why);
		return -1;
	}
	err = opengda_gpu_create_host(&x->gpu);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_gpu_create_host", err);
		return -1;
	}
	return 0;
}

/* The group's companion: bounded waits, its device view, the proxy service when it needs one. */
static int companion_open(struct ex_ctx *x)
{
	struct doca_gpu_verbs_qp_hl *c = &x->group->qp_companion;
	bool own = false;
	doca_error_t err;

	if ((err = opengda_gpu_verbs_qp_set_wait_timeout(c->qp_gverbs, ex_timeout_ns(x))) != DOCA_SUCCESS ||
	    (err = doca_gpu_verbs_get_qp_dev(c->qp_gverbs, &x->dcomp)) != DOCA_SUCCESS ||
	    (err = opengda_gpu_verbs_qp_has_own_service(c->qp_gverbs, &own)) != DOCA_SUCCESS) {
		sample_err_doca("exporting the companion QP", err);
		return -1;
	}
	if (c->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && !own && x->service != NULL &&
	    (err = doca_gpu_verbs_service_monitor_qp(x->service, c->qp_gverbs)) != DOCA_SUCCESS) {
		sample_err_doca("driving the companion QP", err);
		return -1;
	}
	return 0;
}

int ex_qp_open(struct ex_ctx *x)
{
	struct doca_gpu_verbs_qp_init_attr_hl a;
	bool own = false;
	doca_error_t err;

	if (sample_dev_open(x->cfg.device, x->cfg.gid_index, &x->dev) != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.gpu_dev = x->gpu;
	a.verbs_pd = x->dev.pd;
	a.sq_nwqe = EX_SQ_NWQE;
	a.rq_nwqe = x->cfg.spec->rq_nwqe;
	x->sq_nwqe = EX_SQ_NWQE;
	a.nic_handler = x->cfg.handler;
	a.mreg_type = DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT;
	a.send_dbr_mode_ext = x->cfg.dbr_mode;
	a.cq_collapsed = false;
	if (x->cfg.spec->qp_group) {
		err = doca_gpu_verbs_create_qp_group_hl(&a, &x->group);
		x->qp = err == DOCA_SUCCESS ? &x->group->qp_main : NULL;
	} else {
		err = doca_gpu_verbs_create_qp_hl(&a, &x->qp);
	}
	if (err != DOCA_SUCCESS) {
		sample_err("cannot create the QP (handler %s, send DBR mode %s): %s", ex_handler_name(x->cfg.handler),
			   ex_dbr_mode_name(x->cfg.dbr_mode), doca_error_get_descr(err));
		return -1;
	}
	/* Bound every device wait; the bound reaches the device view only before its first export. */
	if ((err = opengda_gpu_verbs_qp_set_wait_timeout(x->qp->qp_gverbs, ex_timeout_ns(x))) != DOCA_SUCCESS ||
	    (err = doca_gpu_verbs_get_qp_dev(x->qp->qp_gverbs, &x->dqp)) != DOCA_SUCCESS ||
	    (err = opengda_gpu_verbs_qp_has_own_service(x->qp->qp_gverbs, &own)) != DOCA_SUCCESS) {
		sample_err_doca("exporting the QP", err);
		return -1;
	}
	/* A CPU proxy QP needs a thread ringing for it; AUTO's fallback brings its own. */
	if (x->qp->nic_handler == DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY && !own) {
		if ((err = doca_gpu_verbs_create_service(&x->service)) != DOCA_SUCCESS ||
		    (err = doca_gpu_verbs_service_monitor_qp(x->service, x->qp->qp_gverbs)) != DOCA_SUCCESS) {
			sample_err_doca("starting the CPU proxy service", err);
			return -1;
		}
	}
	return x->group != NULL ? companion_open(x) : 0;
}

/* GPU memory goes to the NIC as a dmabuf where the device takes one, else by address (nvidia-peermem
 * on a ConnectX; the software NIC reaches GPU memory through the CUDA driver). */
static doca_error_t register_buf(struct ex_ctx *x, struct ex_buf *b)
{
	doca_error_t err;
	int fd = -1;

	if (x->cuda && strncmp(x->dev.name, "swnic", 5) != 0 &&
	    doca_gpu_dmabuf_fd(x->gpu, b->dev, b->len, &fd) == DOCA_SUCCESS) {
		err = opengda_mr_create_dmabuf(x->dev.pd, fd, 0, b->len, (uint64_t)(uintptr_t)b->dev, EX_ACCESS, &b->mr);
		close(fd);
		if (err == DOCA_SUCCESS) {
			b->reg = "dmabuf";
			return DOCA_SUCCESS;
		}
	}
	err = opengda_mr_create(x->dev.pd, b->dev, b->len, EX_ACCESS, &b->mr);
	if (err == DOCA_SUCCESS)
		b->reg = !x->cuda ? "host memory" : strncmp(x->dev.name, "swnic", 5) == 0 ? "through the CUDA driver"
										    : "nvidia-peermem";
	return err;
}

int ex_buf_alloc(struct ex_ctx *x, size_t len, bool registered, struct ex_buf *b)
{
	void *gpu_ptr = NULL, *cpu_ptr = NULL;
	doca_error_t err;

	memset(b, 0, sizeof(*b));
	err = doca_gpu_mem_alloc(x->gpu, len, 0, DOCA_GPU_MEM_TYPE_GPU, &gpu_ptr, &cpu_ptr);
	if (err != DOCA_SUCCESS) {
		sample_err("cannot allocate %zu bytes of %s memory: %s", len, x->cuda ? "GPU" : "host",
			   doca_error_get_descr(err));
		return -1;
	}
	b->dev = gpu_ptr;
	b->len = len;
	if (ex_buf_fill(x, b, 0, 0, len) != 0)
		goto fail;
	if (!registered)
		return 0;
	err = register_buf(x, b);
	if (err == DOCA_SUCCESS && (err = opengda_mr_get_lkey(b->mr, &b->lkey)) == DOCA_SUCCESS)
		err = opengda_mr_get_rkey(b->mr, &b->rkey);
	if (err != DOCA_SUCCESS) {
		sample_err("cannot register %zu bytes with %s: %s", len, x->dev.name, doca_error_get_descr(err));
		goto fail;
	}
	return 0;
fail:
	ex_buf_free(x, b);
	return -1;
}

void ex_buf_free(struct ex_ctx *x, struct ex_buf *b)
{
	if (b->mr != NULL)
		(void)opengda_mr_destroy(b->mr);
	if (b->dev != NULL)
		(void)doca_gpu_mem_free(x->gpu, b->dev);
	memset(b, 0, sizeof(*b));
}

void ex_setup_local(const struct ex_ctx *x, struct ex_setup *s)
{
	uint32_t qpn = 0;

	memset(s, 0, sizeof(*s));
	(void)doca_verbs_qp_get_qpn(x->qp->qp, &qpn);
	s->qpn = qpn;
	s->psn = EX_PSN;
	s->gid = x->dev.gid;
	s->lid = x->dev.port.lid;
	s->mtu = (uint8_t)x->dev.port.active_mtu;
	s->addr = (uint64_t)(uintptr_t)x->buf.dev;
	s->rkey = x->buf.rkey;
	s->len = x->buf.len;
}

int ex_qp_connect(struct ex_ctx *x, const struct ex_setup *peer)
{
	struct sample_peer p;

	memset(&p, 0, sizeof(p));
	p.qpn = peer->qpn;
	p.psn = peer->psn;
	p.gid = peer->gid;
	p.lid = peer->lid;
	p.mtu = (enum doca_verbs_mtu_size)peer->mtu;
	x->peer.addr = peer->addr;
	x->peer.rkey = peer->rkey;
	x->peer.len = peer->len;
	return sample_qp_connect(&x->dev, x->qp->qp, DOCA_VERBS_QP_TYPE_RC, EX_PSN, &p, false);
}

int ex_companion_exchange(struct ex_ctx *x, int fd, int timeout_ms, bool send_first)
{
	struct ex_setup mine, peer;
	struct sample_peer p;
	uint32_t qpn = 0;

	if (x->group == NULL)
		return 0;
	ex_setup_local(x, &mine);
	(void)doca_verbs_qp_get_qpn(x->group->qp_companion.qp, &qpn);
	mine.qpn = qpn;
	if (send_first ? ex_send_setup(fd, &mine, timeout_ms) != 0 || ex_recv_setup(fd, &peer, timeout_ms) != 0
		       : ex_recv_setup(fd, &peer, timeout_ms) != 0 || ex_send_setup(fd, &mine, timeout_ms) != 0)
		return -1;
	memset(&p, 0, sizeof(p));
	p.qpn = peer.qpn;
	p.psn = peer.psn;
	p.gid = peer.gid;
	p.lid = peer.lid;
	p.mtu = (enum doca_verbs_mtu_size)peer.mtu;
	return sample_qp_connect(&x->dev, x->group->qp_companion.qp, DOCA_VERBS_QP_TYPE_RC, EX_PSN, &p, false);
}

void ex_teardown(struct ex_ctx *x)
{
	uint64_t ns;

	/* Device code still running (a pass that failed before ex_launch_finish) uses the QP and buffers. */
	if (x->launch != NULL)
		(void)ex_launch_finish(x, &ns);
	/* Destroying the QP takes it off the service first. */
	if (x->group != NULL)
		(void)doca_gpu_verbs_destroy_qp_group_hl(x->group);
	else if (x->qp != NULL)
		(void)doca_gpu_verbs_destroy_qp_hl(x->qp);
	x->group = NULL;
	x->qp = NULL;
	if (x->service != NULL)
		(void)doca_gpu_verbs_destroy_service(x->service);
	x->service = NULL;
	if (x->gpu != NULL) {
		ex_buf_free(x, &x->buf);
		ex_buf_free(x, &x->aux);
	}
	sample_dev_close(&x->dev);
	if (x->gpu != NULL)
		(void)doca_gpu_destroy(x->gpu);
	x->gpu = NULL;
}
