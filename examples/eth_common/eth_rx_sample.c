/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive queues and DOCA Flow steering for the Ethernet samples (eth_rx_sample.h). */
#include "eth_rx_sample.h"

#include <stdio.h>
#include <string.h>

#include "doca_ctx.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "opengda.h"
#include "sample_util.h"

int eth_rxq_sample_start(struct eth_sample *s, struct eth_rxq_sample *q, uint32_t pkts, uint32_t pkt_size,
			 uint16_t queue_id)
{
	const struct eth_rxq_sample_opts o = ETH_RXQ_SAMPLE_OPTS_DEFAULT;

	return eth_rxq_sample_start_opts(s, q, pkts, pkt_size, queue_id, &o);
}

int eth_rxq_sample_start_opts(struct eth_sample *s, struct eth_rxq_sample *q, uint32_t pkts, uint32_t pkt_size,
			      uint16_t queue_id, const struct eth_rxq_sample_opts *o)
{
	uint32_t size = 0;

	memset(q, 0, sizeof(*q));
	if (eth_sample_check(doca_eth_rxq_create(s->dev, pkts, pkt_size, &q->rxq), "doca_eth_rxq_create") != 0 ||
	    eth_sample_check(doca_eth_rxq_set_type(q->rxq, DOCA_ETH_RXQ_TYPE_CYCLIC), "doca_eth_rxq_set_type") != 0 ||
	    eth_sample_check(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_CYCLIC, 0, 0, pkt_size, pkts, 0, 0, 0, &size),
		  "doca_eth_rxq_estimate_packet_buf_size") != 0)
		return -1;
	if (eth_sample_dev_alloc(s, size, NULL, &q->pkts) != 0)
		return -1;
	if (eth_sample_mmap(s, q->pkts, size, &q->mmap, NULL) != 0 ||
	    eth_sample_check(doca_eth_rxq_set_pkt_buf(q->rxq, q->mmap, 0, size), "doca_eth_rxq_set_pkt_buf") != 0)
		return -1;
	/* As the SDK's samples: the DUMP fence is for GPUs before Hopper (compute capability < 9). */
	q->mcst = o->mcst > 0 || (o->mcst < 0 && s->on_gpu && s->cc_major < 9);
	if (q->mcst && eth_sample_check(doca_eth_rxq_gpu_enable_mcst_qp(q->rxq), "doca_eth_rxq_gpu_enable_mcst_qp") != 0)
		return -1;
	if (o->strides != 0 &&
	    eth_sample_check(opengda_eth_rxq_set_striding(q->rxq, o->strides), "opengda_eth_rxq_set_striding") != 0)
		return -1;
	if (eth_sample_check(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(q->rxq), s->gpu), "doca_ctx_set_datapath_on_gpu") ||
	    eth_sample_check(doca_ctx_start(doca_eth_rxq_as_doca_ctx(q->rxq)), "doca_ctx_start (rxq)") != 0)
		return -1;
	q->started = 1;
	if (eth_sample_check(doca_eth_rxq_apply_queue_id(q->rxq, queue_id), "doca_eth_rxq_apply_queue_id") != 0 ||
	    eth_sample_check(doca_eth_rxq_get_gpu_handle(q->rxq, &q->h), "doca_eth_rxq_get_gpu_handle") != 0)
		return -1;
	return 0;
}

void eth_rxq_sample_close(struct eth_sample *s, struct eth_rxq_sample *q)
{
	if (q->started)
		(void)doca_ctx_stop(doca_eth_rxq_as_doca_ctx(q->rxq));
	if (q->rxq != NULL)
		(void)doca_eth_rxq_destroy(q->rxq);
	eth_sample_mmap_close(q->mmap);
	if (q->pkts != NULL)
		(void)doca_gpu_mem_free(s->gpu, q->pkts);
	memset(q, 0, sizeof(*q));
}

int eth_flow_sample_start(struct eth_sample *s, struct eth_flow_sample *f)
{
	struct doca_flow_port_cfg *pc = NULL;
	struct doca_flow_cfg *cfg = NULL;
	int rc = -1;

	memset(f, 0, sizeof(*f));
	if (eth_sample_check(doca_flow_cfg_create(&cfg), "doca_flow_cfg_create") != 0)
		return -1;
	if (eth_sample_check(doca_flow_cfg_set_pipe_queues(cfg, 1), "doca_flow_cfg_set_pipe_queues") == 0 &&
	    eth_sample_check(doca_flow_cfg_set_mode_args(cfg, "vnf,hws,isolated"), "doca_flow_cfg_set_mode_args") == 0 &&
	    eth_sample_check(doca_flow_cfg_set_nr_counters(cfg, 64), "doca_flow_cfg_set_nr_counters") == 0 &&
	    eth_sample_check(doca_flow_init(cfg), "doca_flow_init") == 0)
		rc = 0;
	(void)doca_flow_cfg_destroy(cfg);
	if (rc != 0)
		return -1;
	f->inited = 1;
	rc = -1;
	if (eth_sample_check(doca_flow_port_cfg_create(&pc), "doca_flow_port_cfg_create") != 0)
		return -1;
	if (eth_sample_check(doca_flow_port_cfg_set_port_id(pc, 0), "doca_flow_port_cfg_set_port_id") == 0 &&
	    eth_sample_check(doca_flow_port_cfg_set_dev(pc, s->dev), "doca_flow_port_cfg_set_dev") == 0 &&
	    eth_sample_check(doca_flow_port_start(pc, &f->port), "doca_flow_port_start") == 0)
		rc = 0;
	(void)doca_flow_port_cfg_destroy(pc);
	return rc;
}

int eth_flow_sample_pipe(struct eth_flow_sample *f, const char *name, enum doca_flow_pipe_type type, bool is_root,
		     const struct doca_flow_match *match, const struct doca_flow_fwd *fwd,
		     const struct doca_flow_fwd *miss, struct doca_flow_pipe **pipe)
{
	struct doca_flow_pipe_cfg *pc = NULL;
	int rc = -1;

	if (eth_sample_check(doca_flow_pipe_cfg_create(&pc, f->port), "doca_flow_pipe_cfg_create") != 0)
		return -1;
	if (eth_sample_check(doca_flow_pipe_cfg_set_name(pc, name), "doca_flow_pipe_cfg_set_name") == 0 &&
	    eth_sample_check(doca_flow_pipe_cfg_set_type(pc, type), "doca_flow_pipe_cfg_set_type") == 0 &&
	    eth_sample_check(doca_flow_pipe_cfg_set_is_root(pc, is_root), "doca_flow_pipe_cfg_set_is_root") == 0 &&
	    (match == NULL || eth_sample_check(doca_flow_pipe_cfg_set_match(pc, match, NULL), "doca_flow_pipe_cfg_set_match") == 0) &&
	    eth_sample_check(doca_flow_pipe_create(pc, fwd, miss, pipe), "doca_flow_pipe_create") == 0)
		rc = 0;
	(void)doca_flow_pipe_cfg_destroy(pc);
	return rc;
}

int eth_flow_sample_class(struct eth_flow_sample *f, enum doca_flow_l4_meta l4, const uint16_t *queue_ids, int n)
{
	struct doca_flow_match match;
	struct doca_flow_fwd fwd, miss;
	struct doca_flow_pipe_entry *entry = NULL;
	char name[32];

	if (f->n >= ETH_FLOW_MAX_CLASSES)
		return -1;
	memset(&match, 0, sizeof(match));
	memset(&fwd, 0, sizeof(fwd));
	memset(&miss, 0, sizeof(miss));
	match.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	match.parser_meta.outer_l4_type = l4;
	fwd.type = DOCA_FLOW_FWD_RSS;
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	fwd.rss.queues_array = (uint16_t *)queue_ids;
	fwd.rss.nr_queues = n;
	fwd.rss.outer_flags = DOCA_FLOW_RSS_IPV4 | (l4 == DOCA_FLOW_L4_META_TCP   ? DOCA_FLOW_RSS_TCP
						    : l4 == DOCA_FLOW_L4_META_UDP ? DOCA_FLOW_RSS_UDP
										  : 0);
	miss.type = DOCA_FLOW_FWD_DROP;
	snprintf(name, sizeof(name), "L4_CLASS_%d", (int)l4);
	if (eth_flow_sample_pipe(f, name, DOCA_FLOW_PIPE_BASIC, false, &match, &fwd, &miss, &f->pipe[f->n]) != 0 ||
	    eth_sample_check(doca_flow_pipe_basic_add_entry(0, f->pipe[f->n], &match, 0, NULL, NULL, NULL, 0, NULL, &entry),
		  "doca_flow_pipe_basic_add_entry") != 0)
		return -1;
	f->l4[f->n] = l4;
	f->n++;
	return 0;
}

int eth_flow_sample_redirect(struct eth_flow_sample *f, enum doca_flow_l4_meta l4, struct doca_flow_pipe *pipe)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->l4[i] == l4) {
			f->target[i] = pipe;
			return 0;
		}
	sample_err("no flow class for L4 type %d", (int)l4);
	return -1;
}

struct doca_flow_pipe *eth_flow_sample_class_pipe(const struct eth_flow_sample *f, enum doca_flow_l4_meta l4)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->l4[i] == l4)
			return f->pipe[i];
	return NULL;
}

int eth_flow_sample_commit(struct eth_flow_sample *f)
{
	struct doca_flow_pipe_entry *entry = NULL;
	struct doca_flow_match match;
	struct doca_flow_fwd fwd;
	int i;

	if (eth_flow_sample_pipe(f, "ROOT", DOCA_FLOW_PIPE_CONTROL, true, NULL, NULL, NULL, &f->root) != 0)
		return -1;
	for (i = 0; i < f->n; i++) {
		memset(&match, 0, sizeof(match));
		memset(&fwd, 0, sizeof(fwd));
		match.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
		match.parser_meta.outer_l4_type = f->l4[i];
		fwd.type = DOCA_FLOW_FWD_PIPE;
		fwd.next_pipe = f->target[i] != NULL ? f->target[i] : f->pipe[i];
		if (eth_sample_check(doca_flow_pipe_control_add_entry(0, f->root, &match, NULL, NULL, NULL, NULL, NULL, NULL,
							   (uint32_t)i, &fwd, NULL, &entry),
			  "doca_flow_pipe_control_add_entry") != 0)
			return -1;
	}
	return eth_sample_check(doca_flow_entries_process(f->port, 0, 0, 0), "doca_flow_entries_process");
}

void eth_flow_sample_close(struct eth_flow_sample *f)
{
	if (f->port != NULL)
		(void)doca_flow_port_stop(f->port);
	if (f->inited)
		doca_flow_destroy();
	memset(f, 0, sizeof(*f));
}
