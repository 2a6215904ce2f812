/* SPDX-License-Identifier: BSD-3-Clause */
#include "flow_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "doca_ctx.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "eth/eth_queue_ids.h"
#include "opengda_gpunetio.h"

void ffx_open(struct ffx *f, const char *name)
{
	char buf[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	struct doca_devinfo *info = NULL;
	uint32_t n = 0, i;

	memset(f, 0, sizeof(*f));
	assert_int_equal(doca_devinfo_create_list(&f->list, &n), DOCA_SUCCESS);
	for (i = 0; i < n; i++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(f->list[i], buf, sizeof(buf)), DOCA_SUCCESS);
		if (strcmp(buf, name) == 0)
			info = f->list[i];
	}
	if (info == NULL)
		fail_msg("no device %s in the list", name);
	assert_int_equal(doca_dev_open(info, &f->dev), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_create_host(&f->gpu), DOCA_SUCCESS);
	assert_int_equal(posix_memalign((void **)&f->buf, 4096, FFX_BUF_LEN), 0);
	memset(f->buf, 0, FFX_BUF_LEN);
}

void ffx_close(struct ffx *f)
{
	assert_int_equal(doca_gpu_destroy(f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_destroy_list(f->list), DOCA_SUCCESS);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

void ffx_rxq_start(struct ffx *f, unsigned i, uint16_t id)
{
	ffx_rxq_start_mem(f, i, id, DOCA_GPU_MEM_TYPE_CPU_GPU);
}

void ffx_rxq_start_mem(struct ffx *f, unsigned i, uint16_t id, enum doca_gpu_mem_type mtype)
{
	struct ffx_rxq *r = &f->rxq[i];
	uint32_t size = FFX_BURST * FFX_PKT;

	assert_true(i < FFX_QUEUES);
	memset(r, 0, sizeof(*r));
	assert_int_equal(doca_mmap_create(&r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(r->m, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(r->m, f->buf + (size_t)i * size, size), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_permissions(r->m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_create(f->dev, FFX_BURST, FFX_PKT, &r->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(r->q, DOCA_ETH_RXQ_TYPE_CYCLIC), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(r->q, r->m, 0, size), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_gpu_set_rq_mem_type(r->q, mtype), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(r->q), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(r->q, id), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_get_gpu_handle(r->q, &r->h), DOCA_SUCCESS);
	assert_int_equal(ogda_eth_rxq_find_rqn(f->dev, id, &r->rqn), DOCA_SUCCESS);
	r->id = id;
}

void ffx_rxq_stop(struct ffx *f, unsigned i)
{
	struct ffx_rxq *r = &f->rxq[i];

	assert_int_equal(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(r->q)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_destroy(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
	memset(r, 0, sizeof(*r));
}

void ffx_flow_init(uint16_t pipe_queues, uint32_t nr_counters, doca_flow_entry_process_cb cb)
{
	struct doca_flow_cfg *cfg = NULL;

	assert_int_equal(doca_flow_cfg_create(&cfg), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_pipe_queues(cfg, pipe_queues), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "vnf,hws,isolated,use_doca_eth"), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_nr_counters(cfg, nr_counters), DOCA_SUCCESS);
	if (cb != NULL)
		assert_int_equal(doca_flow_cfg_set_cb_entry_process(cfg, cb), DOCA_SUCCESS);
	assert_int_equal(doca_flow_init(cfg), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_destroy(cfg), DOCA_SUCCESS);
}

struct doca_flow_port *ffx_port_start(struct ffx *f, uint16_t port_id)
{
	struct doca_flow_port_cfg *pc = NULL;
	struct doca_flow_port *port = NULL;

	assert_int_equal(doca_flow_port_cfg_create(&pc), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_set_port_id(pc, port_id), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_set_dev(pc, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_start(pc, &port), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_destroy(pc), DOCA_SUCCESS);
	assert_non_null(port);
	return port;
}

struct doca_flow_pipe_cfg *ffx_pipe_cfg(struct doca_flow_port *port, const char *name, enum doca_flow_pipe_type type,
					bool is_root, uint32_t nr_entries)
{
	struct doca_flow_pipe_cfg *pc = NULL;

	assert_int_equal(doca_flow_pipe_cfg_create(&pc, port), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_name(pc, name), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_type(pc, type), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_is_root(pc, is_root), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_domain(pc, DOCA_FLOW_PIPE_DOMAIN_DEFAULT), DOCA_SUCCESS);
	if (nr_entries != 0)
		assert_int_equal(doca_flow_pipe_cfg_set_nr_entries(pc, nr_entries), DOCA_SUCCESS);
	return pc;
}

struct doca_flow_fwd ffx_fwd_rss(uint16_t *queues, int n, uint32_t outer_flags)
{
	struct doca_flow_fwd fwd;

	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = queues;
	fwd.rss.nr_queues = n;
	fwd.rss.outer_flags = outer_flags;
	return fwd;
}

struct doca_flow_fwd ffx_fwd_pipe(struct doca_flow_pipe *next)
{
	struct doca_flow_fwd fwd;

	memset(&fwd, 0, sizeof(fwd));
	fwd.type = DOCA_FLOW_FWD_PIPE;
	fwd.next_pipe = next;
	return fwd;
}

struct doca_flow_fwd ffx_fwd_type(enum doca_flow_fwd_type type)
{
	struct doca_flow_fwd fwd;

	memset(&fwd, 0, sizeof(fwd));
	fwd.type = type;
	return fwd;
}
