/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the Ethernet receive samples share (gpunetio_simple_receive, gpu_packet_processing): a
 * started cyclic receive queue whose packet buffer is GPU memory on a GPU (pinned host memory for
 * host threads), and DOCA Flow steering of IPv4 traffic by L4 protocol into queue ids.
 */
#ifndef ETH_RX_SAMPLE_H_
#define ETH_RX_SAMPLE_H_

#include <stdint.h>

#include "doca_eth_rxq.h"
#include "doca_flow.h"
#include "eth_sample.h"

struct eth_rxq_sample {
	struct doca_eth_rxq *rxq;
	struct doca_gpu_eth_rxq *h;   /* device handle */
	struct doca_mmap *mmap;
	void *pkts;                   /* packet buffer as device code addresses it */
	int mcst;                     /* the queue has an MCST queue (doca_eth_rxq_gpu_enable_mcst_qp) */
	int started;
};

/* How a sample's receive queue differs from the SDK samples' (OpenGDA extensions, for tests). */
struct eth_rxq_sample_opts {
	uint32_t strides; /* 0: cyclic (one WQE per packet); else a striding queue, this many strides per WQE */
	int mcst;         /* -1: the MCST queue on GPUs of compute capability < 9 (the SDK samples); 1: always; 0: never */
};

#define ETH_RXQ_SAMPLE_OPTS_DEFAULT ((struct eth_rxq_sample_opts){.strides = 0, .mcst = -1})

/* A started receive queue of @p pkts packets of @p pkt_size bytes with queue id @p queue_id. */
int eth_rxq_sample_start(struct eth_sample *s, struct eth_rxq_sample *q, uint32_t pkts, uint32_t pkt_size,
			 uint16_t queue_id);
/* The same, shaped by @p o. */
int eth_rxq_sample_start_opts(struct eth_sample *s, struct eth_rxq_sample *q, uint32_t pkts, uint32_t pkt_size,
			      uint16_t queue_id, const struct eth_rxq_sample_opts *o);
void eth_rxq_sample_close(struct eth_sample *s, struct eth_rxq_sample *q);

#define ETH_FLOW_MAX_CLASSES 4

/* DOCA Flow on the sample's device: a root CONTROL pipe sending each L4 class to its own BASIC pipe. */
struct eth_flow_sample {
	struct doca_flow_port *port;
	struct doca_flow_pipe *root;
	struct doca_flow_pipe *pipe[ETH_FLOW_MAX_CLASSES];
	struct doca_flow_pipe *target[ETH_FLOW_MAX_CLASSES]; /* where the root sends a class (NULL: its pipe) */
	enum doca_flow_l4_meta l4[ETH_FLOW_MAX_CLASSES];
	int n;
	int inited;
};

/* doca_flow_init and the port of @p s's device. */
int eth_flow_sample_start(struct eth_sample *s, struct eth_flow_sample *f);
/*
 * IPv4 packets of L4 protocol @p l4 (enum doca_flow_l4_meta) go by RSS over @p queue_ids[0 .. n);
 * call once per class, then eth_flow_sample_commit().
 */
int eth_flow_sample_class(struct eth_flow_sample *f, enum doca_flow_l4_meta l4, const uint16_t *queue_ids, int n);
/* The class pipe of @p l4 (NULL when there is none). */
struct doca_flow_pipe *eth_flow_sample_class_pipe(const struct eth_flow_sample *f, enum doca_flow_l4_meta l4);
/* The root sends class @p l4 to @p pipe instead of its class pipe (call before the commit). */
int eth_flow_sample_redirect(struct eth_flow_sample *f, enum doca_flow_l4_meta l4, struct doca_flow_pipe *pipe);
/* A pipe of the sample's port: type, is_root, match (NULL: none; no mask), forward and miss as given. */
int eth_flow_sample_pipe(struct eth_flow_sample *f, const char *name, enum doca_flow_pipe_type type, bool is_root,
			 const struct doca_flow_match *match, const struct doca_flow_fwd *fwd,
			 const struct doca_flow_fwd *miss, struct doca_flow_pipe **pipe);
/* The root pipe dispatching to every class; what matches no class is dropped. */
int eth_flow_sample_commit(struct eth_flow_sample *f);
void eth_flow_sample_close(struct eth_flow_sample *f);

#endif /* ETH_RX_SAMPLE_H_ */
