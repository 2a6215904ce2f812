/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software mlx5 NIC: instance, object model and the contracts between its modules.
 *
 *   swnic_core.c    instance lifecycle, registry of instances in the process, caps model
 *   swnic_cmd*.c    PRM command executor (decodes the bytes built in src/prm)
 *   swnic_mem.c     MR / UMEM / UAR / PD tables, key checks, host and GPU memory copies
 *   swnic_engine.c  threads that watch doorbells and run each QP's send queue
 *   swnic_exec*.c   requester side of each opcode, responder side of each request
 *   swnic_cqe.c     CQE production (owner bit, collapsed CQ, overrun), flush
 *   swnic_fabric*.c delivery of requests between QPs: direct in-process, TCP between processes
 *   swnic_event.c   event channels, subscriptions, async and completion events
 *   swnic_cq_arm.c  the CQ arming rule (when an armed CQ fires its completion event)
 *
 * Locking, outermost first: nic->lock (object tables) > qp->lock > cq->lock. Engine threads
 * never hold nic->lock while executing a WQE. The event registry's lock (swnic_event.c)
 * comes after qp->lock and before cq->lock: events are raised with a QP's lock held at
 * most, never with nic->lock or a CQ's lock.
 * Objects are reference counted; a destroy command fails with PRM status BAD_RES_STATE
 * while other objects still use the object.
 */
#ifndef OGDA_SWNIC_SWNIC_H_
#define OGDA_SWNIC_SWNIC_H_

#include "devx/devx.h"
#include "doca_error.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_qpn_alloc.h"
#include "swnic/swnic_table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- model constants (reported through QUERY_HCA_CAP; see swnic_core.c) ---- */
#define SWNIC_UAR_PAGE_SIZE 4096u
#define SWNIC_UAR_DB_OFFSET 0x800u        /* doorbell / BlueFlame register, two halves */
#define SWNIC_UAR_BF_REG_SIZE 512u        /* log_bf_reg_size = 9: halves of 256 B */
#define SWNIC_UAR_DBR_LESS_OFFSET 0x600u
#define SWNIC_UAR_CQ_DB_OFFSET 0x20u
#define SWNIC_MAX_SGE 61u         /* a WQE holds at most 63 16-byte units: ctrl + raddr + 61 data */

struct swnic;
struct swnic_qp;
struct swnic_cq;
struct swnic_engine;
struct swnic_fabric;
struct swnic_events;
struct swnic_eth_port;
struct swnic_steer;

struct swnic_pd {
	uint32_t pdn;
	atomic_uint refs;          /* MRs and QPs in this PD */
};

struct swnic_umem {
	uint32_t id;
	uint8_t *addr;
	size_t len;
	uint32_t access;
	enum ogda_mem_kind kind;   /* queue memory must be OGDA_MEM_HOST */
	atomic_uint refs;          /* CQs, QPs, RMPs placed in it */
};

struct swnic_uar {
	uint32_t page_id;
	enum ogda_devx_uar_type type;
	uint8_t *page;             /* SWNIC_UAR_PAGE_SIZE bytes of host memory, page aligned */
	atomic_uint refs;          /* CQs and QPs that name it */
};

struct swnic_mr {
	uint32_t lkey;
	uint32_t rkey;
	struct swnic_pd *pd;
	uint64_t addr;             /* start of the range in the process address space */
	size_t len;
	uint32_t access;           /* enum ogda_devx_access */
	enum ogda_mem_kind kind;
	/* swnic_mem_access.h: accesses in flight, and a deregistration under way */
	atomic_uint inflight;
	atomic_bool revoked;
};

struct swnic_cq {
	uint32_t cqn;
	pthread_mutex_t lock;      /* CQE production: requester and responder sides share a CQ */
	uint8_t *ring;             /* umem + cq_umem_offset */
	uint32_t log_size;
	uint32_t cqe_size;         /* 64 (cqe_sz = 0) or 128 */
	bool collapsed;            /* cqc.cc: every CQE goes to entry 0 */
	bool overrun_ignore;       /* cqc.oi */
	_Atomic uint32_t *dbr;     /* [0] SET_CI, [1] ARM (big-endian words) */
	struct swnic_uar *uar;
	struct swnic_umem *umem, *dbr_umem;
	atomic_uint produced;      /* CQEs written so far (the WAIT WQE compares against it) */
	atomic_bool in_error;      /* overrun detected: no more CQEs */
	atomic_uint refs;          /* QPs that complete to it */

	/* events (swnic_event.c, swnic_cq_arm.c); the plain fields are guarded by lock */
	struct swnic *nic;         /* NULL for a CQ built outside the executor: it raises no events */
	atomic_uint comp_subs;     /* COMP subscriptions; arming is looked at only while non-zero */
	uint32_t arm_ref;          /* DBR arm word (as stored) at CREATE_CQ and when the CQ last fired */
	uint64_t arm_uar_seen;     /* UAR + 0x20 as last looked at */
	bool arm_by_uar;           /* an arm doorbell naming this CQ was seen since the last firing */
	uint32_t arm_uar_word;     /* its arm word, host order */
	uint32_t arm_fired_word;   /* arm word of the last firing, host order (NO_ARM_WORD before) */
	bool sol_any;              /* a solicited or error CQE has been written */
	uint32_t sol_index;        /* index of the latest such CQE */
};

/* A receive queue: a QP's own RQ or a shared one (RMP / SRQ). */
struct swnic_rq {
	uint8_t *ring;
	uint32_t log_size;         /* entries */
	uint32_t log_stride;       /* entry size = 16 << log_stride */
	_Atomic uint32_t *dbr;     /* word 0: producer counter (big-endian, 16 bits) */
	uint32_t ci;               /* entries consumed */
	pthread_mutex_t lock;
	/*
	 * SRQ (RMP) only, from rmpc.wq.wq_type: a LINKED_LIST WQE starts with a 16 B next
	 * segment (next_wqe_index BE16 at byte 2) and is found by following the list from
	 * head (0 after CREATE_RMP); a CYCLIC one is data segments only, like a QP's own RQ.
	 */
	uint8_t wq_type;           /* enum prm_wq_type */
	uint16_t head;             /* LINKED_LIST: index of the next WQE to consume */
};

/* A transport domain (ALLOC_TRANSPORT_DOMAIN): what TISs belong to. */
struct swnic_td {
	uint32_t id;
	atomic_uint refs;          /* TISs in it */
};

/* A transport interface send: what an Ethernet SQ sends through (CREATE_TIS). */
struct swnic_tis {
	uint32_t tisn;
	struct swnic_pd *pd;
	struct swnic_td *td;
	atomic_uint refs;          /* SQs that send through it */
};

/*
 * qp->st of an Ethernet send queue (CREATE_SQ): an object of the QP number space that the
 * engine runs like a QP's send queue, whose SENDs leave through the NIC's Ethernet port
 * (swnic_eth.c) instead of the fabric. No transport: the responder refuses it.
 */
#define SWNIC_QP_ST_ETH 0xe0u

struct swnic_srq {
	uint32_t srqn;             /* RMP number */
	struct swnic_pd *pd;
	struct swnic_rq rq;
	struct swnic_umem *umem, *dbr_umem;
	atomic_uint refs;          /* QPs attached */
};

/* Per-QP statistics, printed at DEBUG level and readable by tests. */
struct swnic_qp_counters {
	atomic_ulong wqes;
	atomic_ulong bytes;
	atomic_ulong errors;
	atomic_ulong rnr_retries;
	atomic_ulong transport_retries;
	atomic_ulong doorbells;
};

/* Atomic results a responder QP keeps for duplicates (at least the requester window, swnic_window.h). */
#define SWNIC_RESP_ATOMIC_SAVED 64u

struct swnic_qp {
	uint32_t qpn;
	struct swnic *nic;
	pthread_mutex_t lock;          /* state and attributes vs. the engine and responders */
	_Atomic uint8_t state;         /* enum prm_qp_state */
	uint8_t st;                    /* enum prm_qp_st: RC or UC */
	struct swnic_pd *pd;
	uint32_t user_index;
	uint8_t cs_res;                /* qpc.cs_res: 1 (DATA32_CQE): messages up to 32 bytes go into the CQE */
	struct swnic_cq *send_cq, *recv_cq;
	struct swnic_srq *srq;         /* NULL: own RQ (or none) */
	struct swnic_uar *uar;
	struct swnic_umem *wq_umem, *dbr_umem;
	_Atomic uint32_t *dbr;         /* [0] RQ producer, [1] SQ producer (big-endian) */
	uint8_t send_dbr_mode;         /* enum prm_qp_send_dbr_mode */
	bool cd_master;                /* may post WAIT */
	struct swnic_tis *tis;         /* Ethernet SQ: tis_num_0 (else NULL) */
	bool allow_multi_pkt_send;     /* Ethernet SQ: sqc.allow_multi_pkt_send_wqe (ENHANCED_MPSW allowed) */

	/* send queue */
	uint8_t *sq;
	uint32_t log_sq_wqebbs;
	uint16_t sq_ci;                /* next WQEBB the engine executes */
	uint16_t sq_target;            /* furthest producer index learnt from doorbells / DBR */
	uint64_t seen_db[3];           /* last values read at 0x800, 0x900 and 0x600 of the UAR */

	/* receive queue (no SRQ) */
	struct swnic_rq rq;
	bool has_rq;

	/* connection (from INIT2RTR / RTR2RTS) */
	uint8_t mtu;                   /* enum prm_qp_mtu */
	uint8_t log_msg_max;
	uint32_t remote_qpn;
	uint8_t remote_gid[16];
	uint32_t next_send_psn, next_rcv_psn;
	uint8_t retry_count, rnr_retry, min_rnr_nak, ack_timeout;
	bool rwe, rre, rae;
	uint8_t atomic_mode;
	uint8_t log_rra_max, log_sra_max;
	uint8_t port;

	/*
	 * responder sequence (swnic_exec_resp_peer.c): one request at a time per QP, and the
	 * results of the last SWNIC_RESP_ATOMIC_SAVED atomics by PSN, for their duplicates: a
	 * requester may resend every request of its window (up to 32 in flight) after a lost
	 * connection, atomics whose first answers never arrived among them.
	 */
	pthread_mutex_t resp_lock;
	struct {
		bool valid;
		uint32_t psn;
		uint64_t orig;
	} resp_atomic[SWNIC_RESP_ATOMIC_SAVED]; /* a ring in execution order */
	uint32_t resp_atomic_next;             /* the entry the next atomic's result goes to */

	struct swnic_qp_counters counters;
	atomic_uint refs;              /* engine + in-flight responder calls */
};

/* ---- requests between QPs (the fabric carries these) ---- */

enum swnic_req_op {
	SWNIC_REQ_WRITE = 1,
	SWNIC_REQ_WRITE_IMM,
	SWNIC_REQ_SEND,
	SWNIC_REQ_SEND_IMM,
	SWNIC_REQ_READ,
	SWNIC_REQ_ATOMIC_CS,           /* 8 B, IB spec */
	SWNIC_REQ_ATOMIC_FA,
	SWNIC_REQ_MASKED_CS,           /* 4 or 8 B */
	SWNIC_REQ_MASKED_FA,
};

/* Responder verdicts, as an RC responder's ACK / NAK codes. */
enum swnic_resp_status {
	SWNIC_RESP_ACK = 0,
	SWNIC_RESP_NAK_REMOTE_ACCESS,  /* bad rkey, range or right: nothing was written */
	SWNIC_RESP_NAK_INVALID_REQ,    /* malformed, or the QP cannot take this op (REMOTE_INVAL_REQ) */
	SWNIC_RESP_NAK_REMOTE_OP,      /* responder failed executing it (REMOTE_OP) */
	SWNIC_RESP_NAK_RNR,            /* no receive WQE: retry after min_rnr_nak */
	SWNIC_RESP_NO_QP,              /* no such QP / not in RTR or RTS: silently dropped on a wire */
};

struct swnic_req {
	uint8_t op;                    /* enum swnic_req_op */
	uint8_t atomic_size;           /* 4 or 8 for atomics */
	uint32_t src_qpn;
	uint32_t dst_qpn;
	uint8_t src_gid[16];
	uint32_t psn;
	uint64_t raddr;
	uint32_t rkey;
	uint32_t len;                  /* payload bytes (write/send), bytes to read (read) */
	uint32_t imm;                  /* *_IMM: as carried in the WQE (network order) */
	bool solicited;                /* SEND(_IMM) / WRITE_IMM whose WQE had the SE bit: the
					  responder CQE carries SE (solicited CQ arming) */
	/*
	 * Atomic operands, host order. CS: swap_add = swap, compare. FA: swap_add = addend.
	 * MASKED_CS: also swap_mask, compare_mask. MASKED_FA: swap_add = addend, compare =
	 * field boundary (bit i set: the carry out of bit i is dropped), the slots the WQE's
	 * masked FA segment uses.
	 */
	uint64_t swap_add, compare;
	uint64_t swap_mask, compare_mask;
	const void *payload;           /* write / send data, len bytes, in memory of payload_kind */
	/*
	 * enum ogda_mem_kind of payload: OGDA_MEM_HOST (0) except for a WRITE / WRITE_IMM whose
	 * payload stays in the requester's GPU memory (swnic_ipc.h): the requester's window hands
	 * it to its pipe that way, and a shared-memory server gives the responder the mapping.
	 */
	uint8_t payload_kind;
	/*
	 * A WRITE's GPU-to-GPU copy may still run when the responder returns: the caller settles
	 * it (swnic_mem_deferred_settle) before the answer leaves. Set only by a shared-memory
	 * server for the plain WRITEs it serves in order.
	 */
	bool defer_copy;
};

struct swnic_resp {
	uint8_t status;                /* enum swnic_resp_status */
	uint64_t atomic_orig;          /* value before the atomic, host order */
	uint32_t read_len;             /* bytes placed in the caller's read buffer */
};

/*
 * Responder side: executes one request against this NIC's QP dst_qpn, as an RC responder
 * would: checks the QP state, rkey, range and access rights (writing nothing on a NAK),
 * consumes a receive WQE for SEND / WRITE_IMM and produces the responder CQE, performs
 * the atomic. read_buf receives up to req->len bytes for READ. Thread-safe.
 */
doca_error_t swnic_responder_execute(struct swnic *nic, const struct swnic_req *req, struct swnic_resp *resp,
				     void *read_buf);

/* What the responder says of a request from its header alone (swnic_responder_check). */
struct swnic_req_verdict {
	uint8_t status;                /* enum swnic_resp_status: ACK, the payload may come */
	uint32_t mtu_bytes;            /* the QP's path MTU in bytes: PSNs per byte of a message */
};

/*
 * Judges req as swnic_responder_execute would up to (not including) touching memory or
 * consuming a receive WQE: QP and state, connected peer and PSN (a duplicate passes),
 * transport, message size, the QP's right and the rkey's MR, range and right for the
 * whole message. req->payload is not read. Executes nothing, advances nothing; a refusal
 * raises the async event execution would have raised. For the fabric server, so that a
 * payload is accepted only for a request that may land.
 */
doca_error_t swnic_responder_check(struct swnic *nic, const struct swnic_req *req, struct swnic_req_verdict *verdict);

/*
 * A QP in ERR: completes every receive WQE posted to its own RQ and not yet consumed with
 * a RESP_ERR / WR_FLUSH_ERR CQE on its receive CQ, in RQ order; *flushed (may be NULL)
 * says how many. WQEs of an SRQ stay (they belong to the SRQ). DOCA_ERROR_BAD_STATE, and
 * nothing flushed, for a QP in any other state. Takes qp->lock: call it without. For
 * whoever moves a QP to ERR, and again when receives are posted to a QP in ERR.
 */
doca_error_t swnic_rq_flush(struct swnic_qp *qp, uint32_t *flushed);
/* The same with qp->lock already held; a QP not in ERR flushes nothing. Returns the count. */
uint32_t swnic_rq_flush_locked(struct swnic_qp *qp);


/* ---- the instance ---- */

struct swnic {
	char name[32];                 /* "swnic0" */
	uint32_t index;
	pthread_rwlock_t lock;         /* the object tables below */
	struct swnic_table pds, umems, uars, mrs, cqs, srqs, tises, tds;
	struct swnic_qpn_table qps;     /* random QPNs (swnic_qpn_alloc.h) */
	struct prm_hca_cap_general cap_general;
	struct prm_hca_cap_roce cap_roce;
	struct prm_hca_cap_atomic cap_atomic;
	struct prm_hca_cap_general_2 cap_general_2;
	uint8_t gid[16];               /* GID index 0: encodes the fabric endpoint */
	uint8_t port_mtu;              /* active and max MTU of the port, enum prm_qp_mtu
					  (OPENGDA_SWNIC_MTU) */
	struct swnic_events *events;   /* event channels and subscriptions (swnic_event.c) */
	struct swnic_engine *engine;
	struct swnic_fabric *fabric;
	struct swnic_eth_port *eth;    /* Ethernet port (swnic_eth.c), NULL until attached; under eth_lock */
	struct swnic_steer *steer;     /* receive steering: RQs, TIRs, RQTs, flow tables (swnic_steer.h) */
	pthread_mutex_t eth_lock;
	atomic_uint refs;              /* open device handles */
};

/* ---- core (swnic_core.c) ---- */

/*
 * Opens software NIC number index (0 .. swnic_count() - 1), creating it on first open;
 * later opens in the process share it (reference counted), as contexts share an HCA.
 */
doca_error_t swnic_open(uint32_t index, struct swnic **nic);
void swnic_close(struct swnic *nic);
/* How many software NICs this process offers (OPENGDA_SWNIC_COUNT, default 1). */
uint32_t swnic_count(void);
/* The open instance of this process whose GID is gid, with a reference; NULL if none. */
struct swnic *swnic_find_by_gid(const uint8_t gid[16]);

/* Objects by number, with a reference (NULL if absent); release when done. */
struct swnic_qp *swnic_qp_acquire(struct swnic *nic, uint32_t qpn);
void swnic_qp_release(struct swnic_qp *qp);
struct swnic_cq *swnic_cq_acquire(struct swnic *nic, uint32_t cqn);
void swnic_cq_release(struct swnic_cq *cq);

/* ---- memory (swnic_mem.c) ---- */

/*
 * Checks that key names an MR of pd (any PD when pd is NULL) covering [addr, addr+len)
 * with the rights in need_access (enum ogda_devx_access; 0 = read-only local use).
 * remote selects rkey vs lkey semantics. On success *out is a copy of the MR's attributes
 * (an access that goes on to touch the memory holds it instead: swnic_mem_access.h).
 * DOCA_ERROR_NOT_FOUND: no such key or wrong PD; DOCA_ERROR_NOT_PERMITTED: missing right;
 * DOCA_ERROR_INVALID_VALUE: range outside the MR.
 */
doca_error_t swnic_mr_resolve(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd,
			      uint64_t addr, uint64_t len, uint32_t need_access, struct swnic_mr *out);

/* Copies between host and GPU memory (GPU through the CUDA driver on the NIC's own stream). */
doca_error_t swnic_mem_copy(void *dst, enum ogda_mem_kind dst_kind, const void *src, enum ogda_mem_kind src_kind,
			    size_t len);

/* ---- engine (swnic_engine.c) ---- */

doca_error_t swnic_engine_create(struct swnic *nic, struct swnic_engine **engine);
void swnic_engine_destroy(struct swnic_engine *engine);
/* After CREATE_QP: the engine starts watching the QP's doorbells. */
doca_error_t swnic_engine_attach_qp(struct swnic_engine *engine, struct swnic_qp *qp);
/* Before DESTROY_QP: returns once no engine thread touches qp any more (qp->lock may be held). */
void swnic_engine_detach_qp(struct swnic_engine *engine, struct swnic_qp *qp);
/*
 * After a state change (2ERR flushes, entering or leaving RST rewinds the send queue to the
 * doorbell contents). Call it without qp->lock: for RST it waits until no engine thread is
 * inside the QP (at most one fabric delivery).
 */
void swnic_engine_qp_modified(struct swnic_engine *engine, struct swnic_qp *qp, uint8_t old_state);

/* ---- Ethernet port (swnic_eth.c) ---- */

/*
 * Attaches the NIC's Ethernet port to the Linux interface ifname (an AF_PACKET socket bound
 * to it; needs CAP_NET_RAW): frames Ethernet SQs send leave there. Replaces an earlier
 * attachment. DOCA_ERROR_INVALID_VALUE for a bad name, DOCA_ERROR_NOT_FOUND for no such
 * interface, DOCA_ERROR_NOT_PERMITTED without the right, each logged.
 */
doca_error_t swnic_eth_attach(struct swnic *nic, const char *ifname);
/* Detaches the port (no-op when none is attached). */
void swnic_eth_detach(struct swnic *nic);

/* Counters of the Ethernet port. */
struct swnic_eth_stats {
	uint64_t tx_packets, tx_bytes;
	uint64_t tx_dropped;           /* sent while no interface was attached */
	uint64_t tx_errors;            /* the interface refused the frame */
};
void swnic_eth_get_stats(struct swnic *nic, struct swnic_eth_stats *stats);

/*
 * Sends one frame: the inline head (hdr_len bytes) followed by data (data_len bytes), with
 * the IPv4 header and TCP / UDP checksums written first when cs_flags asks for them
 * (OPENGDA_MLX5_ETH_WQE_L3_CSUM / _L4_CSUM; IPv4 and IPv6, no extension headers). Returns
 * 0, or the CQE syndrome of a frame the port cannot send (LOCAL_LENGTH: larger than the
 * interface takes, or no room for it); *vendor then says why. A NIC without an attached
 * interface drops the frame and counts it (the wire is down: a send still completes).
 */
uint8_t swnic_eth_transmit(struct swnic *nic, uint8_t cs_flags, const uint8_t *hdr, uint32_t hdr_len,
			   const uint8_t *data, uint64_t data_len, uint8_t *vendor);

struct prm_wqe;
/*
 * Enhanced multi-packet send (swnic_eth_empw.c): sends the packets of the decoded ENHANCED_MPSW
 * WQE w (prm_wqe_decode_eth) on qp's port, one frame per data segment in order (an empty
 * segment sends nothing), each through swnic_eth_transmit with w's checksum flags. Returns 0
 * with *byte_cnt = the bytes of every packet, or the CQE syndrome of the first failure with
 * *vendor (enum swnic_vendor_syndrome) saying why, no packet after it sent: LOCAL_PROT (lkey
 * unknown, of another PD or range outside its MR; GPU copy failed), LOCAL_LENGTH (a frame the
 * port cannot send), LOCAL_QP_OP (an SQ created without allow_multi_pkt_send_wqe).
 */
uint8_t swnic_eth_empw_send(struct swnic_qp *qp, const struct prm_wqe *w, uint32_t *byte_cnt, uint8_t *vendor);

/* ---- completions (swnic_cqe.c) ---- */

/*
 * Writes a responder CQE for a consumed receive WQE: cqe_opcode RESP_WR_IMM (1), RESP_SEND
 * (2), RESP_SEND_IMM (3) or RESP_SEND_INV (4); wqe_counter = the receive WQE's index;
 * srqn_uidx = user_index_or_srqn; imm_be = the immediate exactly as carried (network
 * order, as in struct swnic_req); solicited sets the CQE's SE bit (the sender's WQE had
 * SE). Thread-safe (takes cq->lock; callers may hold qp->lock).
 * DOCA_ERROR_FULL: the CQ overran now or earlier (cqc.oi = 0): no CQE was written, the CQ
 * stays in error, and the caller moves its QP to ERR.
 */
doca_error_t swnic_cq_post_responder(struct swnic_cq *cq, uint8_t cqe_opcode, uint32_t qpn,
				     uint32_t user_index_or_srqn, uint16_t wqe_counter, uint32_t byte_cnt,
				     uint32_t imm_be, bool solicited);
/*
 * Responder CQE with the payload scattered into it (scatter-to-CQE, qpc.cs_res): @len (1..32)
 * bytes of @data in bytes 0-31, op_own INLINE_SCATTER_32; otherwise as swnic_cq_post_responder.
 */
doca_error_t swnic_cq_post_responder_inline(struct swnic_cq *cq, uint8_t cqe_opcode, uint32_t qpn,
					    uint32_t user_index_or_srqn, uint16_t wqe_counter, const uint8_t *data,
					    uint32_t len, uint32_t imm_be, bool solicited);
/* The Ethernet receive fields of a CQE (resp_info bytes: opengda_mlx5.h OPENGDA_MLX5_CQE_RX_*). */
struct swnic_cqe_rx {
	uint8_t hds_ip_ext;        /* L2 / L3 / L4 OK */
	uint8_t l4_l3_hdr_type;
	uint32_t rss_hash;
	uint16_t wqe_id;           /* striding RQ: the WQE's counter (byte 2), else 0 */
};

/*
 * Writes an Ethernet receive CQE: the caller's fields (a zero timestamp gets the NIC's clock; the
 * receive path brings the real-time one) and @rx, all in place before op_own is published. Same
 * overrun contract as above.
 */
struct opengda_mlx5_cqe_fields;
doca_error_t swnic_cq_post_eth_rx(struct swnic_cq *cq, const struct opengda_mlx5_cqe_fields *f,
				  const struct swnic_cqe_rx *rx);
/*
 * Writes an error CQE: cqe_opcode REQ_ERR (13) or RESP_ERR (14), a non-zero syndrome
 * (enum opengda_mlx5_cqe_syndrome), the model's vendor syndrome, wqe_opcode = opcode of
 * the failed WQE (s_wqe_opcode_qpn [31:24]). Same overrun contract as above. Responders use
 * it for their own errors and for WR_FLUSH_ERR of receive WQEs.
 */
doca_error_t swnic_cq_post_error(struct swnic_cq *cq, uint8_t cqe_opcode, uint8_t syndrome, uint8_t vendor_syndrome,
				 uint8_t wqe_opcode, uint32_t qpn, uint32_t user_index, uint16_t wqe_counter);

/* ---- fabric (swnic_fabric.c) ---- */

/* Starts the endpoint (TCP listener) and writes the GID that encodes it. */
doca_error_t swnic_fabric_create(struct swnic *nic, struct swnic_fabric **fabric, uint8_t gid[16]);
/* Stops serving (no responder call runs after it returns), fails outstanding requests with
 * CONNECTION_RESET and closes every connection. No new swnic_fabric_deliver may start. */
void swnic_fabric_destroy(struct swnic_fabric *fabric);
/*
 * Delivers req to the QP req->dst_qpn of the NIC whose GID is dst_gid and waits for the
 * responder's verdict: in-process NICs are called directly, others over TCP.
 * DOCA_SUCCESS: *resp holds the verdict (and read data in read_buf).
 * DOCA_ERROR_NOT_CONNECTED / CONNECTION_RESET / TIME_OUT: nothing came back within
 * timeout_ns; the requester counts a transport retry.
 * DOCA_ERROR_INVALID_VALUE / TOO_BIG: req itself is malformed (logged); nothing was sent.
 */
doca_error_t swnic_fabric_deliver(struct swnic *nic, const uint8_t dst_gid[16], const struct swnic_req *req,
				  struct swnic_resp *resp, void *read_buf, uint64_t timeout_ns);

#endif /* OGDA_SWNIC_SWNIC_H_ */
