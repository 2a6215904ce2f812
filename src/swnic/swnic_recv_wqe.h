/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive WQEs, as every receive queue of the software NIC holds them (a QP's own RQ, an SRQ,
 * an Ethernet RQ): an entry of 16 << log_stride bytes of data segments (byte_count BE32, lkey
 * BE32, addr BE64) ending at an lkey of MLX5_INVALID_LKEY (0x100) or at the end of the entry;
 * a LINKED_LIST SRQ's entries start with a 16-byte next segment. The responder
 * (swnic_exec_resp_recv.c) and the Ethernet port's receive side (swnic_eth_rq.c) take WQEs and
 * place bytes through these functions.
 */
#ifndef OGDA_SWNIC_RECV_WQE_H_
#define OGDA_SWNIC_RECV_WQE_H_

#include "swnic/swnic.h"
#include "swnic/swnic_mem_access.h"

#include <stdbool.h>
#include <stdint.h>

#define SWNIC_RECV_MAX_LOG_STRIDE 8u  /* 4 KiB entries: 256 data segments */
#define SWNIC_RECV_MAX_SGE (1u << SWNIC_RECV_MAX_LOG_STRIDE)
#define SWNIC_RECV_SEG_SIZE 16u

struct swnic_recv_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;
};

/* A taken receive WQE: its scatter list and, while bytes are placed, its MRs held. About 21 KiB. */
struct swnic_recv_wqe {
	uint16_t counter;  /* CQE wqe_counter */
	uint16_t next_head; /* linked list: the entry after it (what taking it makes the head) */
	uint32_t nsge;
	uint64_t capacity; /* bytes the scatter list can hold */
	struct swnic_recv_sge sge[SWNIC_RECV_MAX_SGE];
	uint32_t nheld;                                 /* SGEs [0, nheld) have their MR held */
	struct swnic_mr_hold hold[SWNIC_RECV_MAX_SGE];  /* while the data is placed */
};

enum swnic_rq_take_result {
	SWNIC_RQ_TAKE_OK,
	SWNIC_RQ_TAKE_EMPTY,   /* the producer counter equals the consumed count */
	SWNIC_RQ_TAKE_BROKEN,  /* the queue's geometry is outside the model */
};

/*
 * Takes the next WQE of rq (the caller holds rq->lock): copies its scatter list into w and
 * advances the consumer count. w->counter: the consumer count (cyclic), or the WQE's index
 * (linked list).
 */
enum swnic_rq_take_result swnic_rq_take(struct swnic_rq *rq, bool linked_list, struct swnic_recv_wqe *w);
/*
 * The same without taking it: w describes the next WQE, which stays posted until
 * swnic_rq_consume(rq, linked_list, w) (the caller holds rq->lock throughout).
 */
enum swnic_rq_take_result swnic_rq_peek(const struct swnic_rq *rq, bool linked_list, struct swnic_recv_wqe *w);
/* Takes the WQE swnic_rq_peek described. */
void swnic_rq_consume(struct swnic_rq *rq, bool linked_list, const struct swnic_recv_wqe *w);
/*
 * Checks every lkey that receives bytes of a len-byte message (local write right, PD pd, the
 * range) and holds its MR until swnic_recv_release. 0, or the vendor syndrome of the first
 * refusal with nothing held (swnic_engine.h: BAD_LKEY, LKEY_RANGE, LKEY_ACCESS).
 */
uint8_t swnic_recv_hold(struct swnic *nic, const struct swnic_pd *pd, struct swnic_recv_wqe *w, uint32_t len,
			uint32_t qpn);
/* Releases what swnic_recv_hold held. */
void swnic_recv_release(struct swnic_recv_wqe *w);
/* Places len bytes of host memory along the held scatter list; false if a copy failed. */
bool swnic_recv_scatter(const struct swnic_recv_wqe *w, const uint8_t *data, uint32_t len);

#endif /* OGDA_SWNIC_RECV_WQE_H_ */
