/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive steering of the software NIC's Ethernet port: the objects a DevX user creates to
 * bring frames to its receive queues, and the walk a frame takes through them.
 *
 *   RQ    (CREATE_RQ)   a receive queue: receive WQEs in a umem, a CQ (swnic_eth_rq.c)
 *   RQT   (CREATE_RQT)  a list of RQs that an indirect TIR spreads frames over
 *   TIR   (CREATE_TIR)  where a frame goes: one RQ (direct) or the RQT entry its RSS hash picks
 *   flow table / group / entry (CREATE_FLOW_TABLE, _GROUP, SET_FLOW_TABLE_ENTRY): NIC RX
 *         tables of match criteria (the group's mask) and values (the entry's), whose entries
 *         drop, count, or forward to TIRs and to deeper tables
 *   flow counter (ALLOC_FLOW_COUNTER)  packets and bytes of the entries that name it
 *
 * A frame starts at the root table (SET_FLOW_TABLE_ROOT). In each table the entries are tried
 * in flow index order, each under its group's criteria; the first that matches acts. A table
 * without a matching entry follows its miss action (another table, or the default: the frame
 * is not delivered — on the software NIC Linux sees every frame anyway). Matching compares the
 * outer fte_match_set_lyr_2_4 bytes, masked, exactly as the command bytes hold them; criteria
 * on other parts of the match parameter are refused when the group is created.
 *
 * Locking: the steering lock (a rwlock in struct swnic_steer) guards every object here and the
 * tables; the receive path holds it for reading while a frame is steered and placed, commands
 * hold it for writing. Order: steer lock > nic->lock (MR holds) > rq lock > cq->lock. Commands
 * look up PDs, CQs and umems under nic->lock before they take the steer lock, never inside it.
 */
#ifndef OGDA_SWNIC_STEER_H_
#define OGDA_SWNIC_STEER_H_

#include "doca_error.h"
#include "prm/prm_flow.h"
#include "prm/prm_rq.h"
#include "prm/prm_tir.h"
#include "swnic/swnic.h"
#include "swnic/swnic_pkt.h"
#include "swnic/swnic_table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWNIC_MATCH_BYTES 0x40u        /* fte_match_set_lyr_2_4: the outer headers */
#define SWNIC_RQT_MAX 256u             /* RQs in one RQT (the model's log_max_rqt_size = 8) */
#define SWNIC_FTE_MAX_DEST 8u          /* destinations of one flow table entry */
#define SWNIC_FT_MAX_LOG_SIZE 16u      /* entries of one flow table */
#define SWNIC_FT_MAX_DEPTH 16u         /* tables one frame may pass through */
#define SWNIC_RSS_KEY_BYTES 40u

/* ---- receive queues (swnic_eth_rq.c) ---- */

struct swnic_eth_rq {
	uint32_t rqn;
	struct swnic *nic;
	struct swnic_pd *pd;          /* the PD of the wq context: the lkeys of its WQEs */
	struct swnic_cq *cq;
	struct swnic_umem *umem, *dbr_umem;
	struct swnic_rq rq;           /* ring, geometry, doorbell record, consumer count, lock */
	_Atomic uint8_t state;        /* enum prm_rq_state */
	uint32_t user_index;
	atomic_ulong packets, bytes;
	atomic_ulong out_of_buffer;   /* frames dropped: no receive WQE posted */
	atomic_ulong too_long;        /* frames dropped: larger than a receive WQE holds */
	/*
	 * Striding RQ (wq_type CYCLIC_STRIDING): each WQE is 2^log_strides strides of
	 * 2^log_stride_sz bytes; a frame takes the next ceil(len / stride) strides of the current
	 * WQE (stride_ci: strides used in it), guarded by rq.lock.
	 */
	bool striding;
	uint8_t two_byte_shift;       /* frames start 2 bytes into their first stride */
	uint32_t log_strides, log_stride_sz;
	uint32_t stride_ci;
	atomic_ulong fillers;         /* filler CQEs written */
	atomic_uint refs;             /* TIRs and RQTs that name it */
};

/* What steering tells the RQ about a frame, for its CQE. */
struct swnic_rx_meta {
	const struct swnic_pkt_info *pi;
	uint32_t flow_tag;            /* the matching entry's flow_tag (CQE sop_drop_qpn [23:0]) */
	uint32_t rss_hash;            /* the TIR's hash, 0 for a direct TIR */
};

/*
 * Places one frame in rq's next receive WQE and writes its CQE (opcode RESP_SEND, byte_cnt,
 * wqe_counter = the WQE's counter, checksum flags and header types, time stamp). A queue not in
 * RDY, without a posted WQE, or whose WQE is too small drops the frame and counts why. An lkey
 * the WQE may not use completes with a RESP_ERR CQE (LOCAL_PROT) and the RQ enters ERR.
 * true when the frame was placed.
 */
bool swnic_eth_rq_receive(struct swnic_eth_rq *rq, const uint8_t *frame, uint32_t len, const struct swnic_rx_meta *m);

/* ---- RSS (swnic_rss.c) ---- */

/* The Toeplitz hash (Microsoft RSS) of the bytes in order, with a 40-byte key. */
uint32_t swnic_toeplitz(const uint8_t key[SWNIC_RSS_KEY_BYTES], const uint8_t *data, size_t len);
/*
 * The hash an indirect TIR computes for a frame: the selected fields (source then destination
 * address, source then destination port) when the frame's L3 / L4 types are the selected ones
 * (enum prm_rx_hash_l3 / _l4; any other l4 value: none); a frame of other types hashes
 * no fields (0).
 */
uint32_t swnic_rss_hash(const struct swnic_pkt_info *pi, const uint8_t key[SWNIC_RSS_KEY_BYTES], uint8_t l3_type,
			uint8_t l4_type, uint32_t fields, bool symmetric);

/* ---- TIRs, RQTs, tables (swnic_steer.c) ---- */

struct swnic_rqt {
	uint32_t rqtn;
	uint32_t n;
	struct swnic_eth_rq *rq[SWNIC_RQT_MAX];
	atomic_uint refs;             /* TIRs */
};

struct swnic_tir {
	uint32_t tirn;
	uint8_t disp;                 /* enum prm_tir_disp_type */
	struct swnic_eth_rq *rq;      /* direct */
	struct swnic_rqt *rqt;        /* indirect */
	bool toeplitz, symmetric;
	uint8_t key[SWNIC_RSS_KEY_BYTES];
	uint8_t l3_type, l4_type;
	uint32_t fields;              /* enum prm_rx_hash_field bits */
	uint32_t td;                  /* transport domain (held through the NIC's TD table) */
	atomic_uint refs;             /* flow table entries that forward to it */
};

struct swnic_flow_counter {
	uint32_t id;
	atomic_ullong packets, bytes;
	atomic_uint refs;             /* entries that count into it */
};

struct swnic_ft;

struct swnic_fg {
	uint32_t id;
	struct swnic_ft *ft;
	uint32_t start, end;          /* flow indices, inclusive */
	uint8_t mask[SWNIC_MATCH_BYTES];
	uint32_t ftes;                /* entries in use */
};

struct swnic_fte_dest {
	uint8_t kind;                 /* enum prm_flow_dest_type: TIR or FLOW_TABLE */
	struct swnic_ft *ft;
	struct swnic_tir *tir;
};

struct swnic_fte {
	bool used;
	struct swnic_fg *fg;
	uint8_t value[SWNIC_MATCH_BYTES];
	uint32_t action;              /* enum prm_flow_action bits */
	uint32_t flow_tag;
	uint32_t ndest;
	struct swnic_fte_dest dest[SWNIC_FTE_MAX_DEST];
	struct swnic_flow_counter *counter;
};

struct swnic_ft {
	uint32_t id;
	uint8_t level;
	uint32_t log_size;
	uint8_t miss_action;          /* enum prm_flow_table_miss_action */
	struct swnic_ft *miss;        /* GOTO: the table a miss continues in */
	struct swnic_fte *fte;        /* 1 << log_size entries */
	atomic_uint refs;             /* groups, entries and tables that name it, the root */
};

/* Counters of the receive side of the Ethernet port. */
struct swnic_steer_stats {
	uint64_t rx_frames;           /* frames the port received */
	uint64_t rx_delivered;        /* placed in an RQ (a frame sent to two TIRs counts twice) */
	uint64_t rx_missed;           /* no table, or a miss to the default */
	uint64_t rx_dropped;          /* a DROP entry */
	uint64_t rx_queue_drops;      /* an RQ could not take it (state, no WQE, too long, error) */
	uint64_t rx_errors;           /* the port's receive socket failed (swnic_eth_rx.c) */
};

/* The steering state of one NIC (nic->steer). */
struct swnic_steer {
	pthread_rwlock_t lock;
	struct swnic_table rqs, rqts, tirs, fts, fgs, counters;
	struct swnic_ft *root;        /* SET_FLOW_TABLE_ROOT, NULL before */
	atomic_ullong rx_frames, rx_delivered, rx_missed, rx_dropped, rx_queue_drops, rx_errors;
};

doca_error_t swnic_steer_create(struct swnic *nic, struct swnic_steer **steer);
void swnic_steer_destroy(struct swnic_steer *steer);

/*
 * Steers one received frame from the root table and places it in the RQs its entries name.
 * Thread-safe (the steer lock, for reading).
 */
void swnic_steer_rx(struct swnic *nic, const uint8_t *frame, uint32_t len);
void swnic_steer_get_stats(struct swnic *nic, struct swnic_steer_stats *stats);

/* True when (pkt & mask) == (value & mask) over the outer match bytes. */
bool swnic_steer_match(const uint8_t pkt[SWNIC_MATCH_BYTES], const uint8_t mask[SWNIC_MATCH_BYTES],
		       const uint8_t value[SWNIC_MATCH_BYTES]);
/* The outer fte_match_set_lyr_2_4 image of a parsed frame (swnic_pkt_match.c). */
void swnic_pkt_match_image(const struct swnic_pkt_info *pi, uint8_t img[SWNIC_MATCH_BYTES]);

#endif /* OGDA_SWNIC_STEER_H_ */
