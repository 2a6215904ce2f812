/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow (include/doca_flow.h): the objects and what the files of this folder share.
 *
 *   flow_cfg.c       global configuration, doca_flow_init / destroy, the lock
 *   flow_port.c      ports: transport domain, start / stop / flush
 *   flow_pipe_cfg.c  pipe configuration setters
 *   flow_pipe.c      pipes: table level, flow table, groups, miss, destroy
 *   flow_entry.c     entries: add (BASIC, CONTROL), remove, completions, counters' queries
 *   flow_order.c     CONTROL pipes: flow indices in priority order (moving entries to make room)
 *   flow_match.c     DOCA match / mask -> struct flow_spec (the outer L2-L4 fields the NIC matches)
 *   flow_fwd.c       DOCA forward -> struct flow_dest (RSS, pipe, drop, kernel)
 *   flow_rss.c       RQT + TIR per distinct (queues, hash fields) per port, reference counted
 *   flow_hw.c        the PRM commands, through the device interface
 *
 * Locking: one process-wide mutex (flow_g.lock) taken by every public function; everything
 * below runs under it. Operations reach the NIC before the call returns: the completion queues
 * only hold what doca_flow_entries_process() reports.
 */
#ifndef OGDA_FLOW_FLOW_PRIV_H_
#define OGDA_FLOW_FLOW_PRIV_H_

#include "doca_flow.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ogda_devx;
struct ogda_devx_obj;
struct ogda_devx_rx_root;

#define FLOW_NAME_MAX 64u
#define FLOW_PIPE_QUEUES_MAX 256u
#define FLOW_QUEUE_DEPTH_MAX 65536u
#define FLOW_DEFAULT_NR_ENTRIES 1024u
#define FLOW_NR_ENTRIES_MAX 65535u
#define FLOW_RSS_KEY_LEN 40u
#define FLOW_RSS_QUEUES_MAX 256u

/*
 * Flow table levels: a table forwards (entries, miss) only to tables of a higher level, as on
 * a ConnectX. The root pipe's table is level 1: on a ConnectX the kernel's root (level 0) forwards
 * to it, and a table reached that way must be deeper. A pipe created with pipe forwards gets one
 * level less than the shallowest of its targets; a pipe whose forwards are all terminal (RSS,
 * drop, kernel) is a leaf; one whose entries choose their forward sits above every pipe that
 * exists (at most MID). The port's kernel table (an empty table whose miss is the default:
 * entries that forward to the kernel go there) is the deepest.
 */
#define FLOW_LEVEL_ROOT 1u
#define FLOW_LEVEL_MID 32u
#define FLOW_LEVEL_LEAF 62u
#define FLOW_LEVEL_KERNEL 63u

/* ---- match: the fields the NIC matches, as the packet holds them ---- */

/*
 * The outer fields of fte_match_set_lyr_2_4 this implementation sets, in network byte order
 * (bytes only: no padding, compared with memcmp).
 */
struct flow_fields {
	uint8_t smac[6];
	uint8_t dmac[6];
	uint8_t ethertype[2];
	uint8_t ip_version;     /* 4 bits: 4 or 6 */
	uint8_t ip_protocol;
	uint8_t ip_dscp;        /* 6 bits */
	uint8_t ip_ecn;         /* 2 bits */
	uint8_t ttl_hoplimit;
	uint8_t frag;           /* 1 bit */
	uint8_t tcp_flags;      /* FIN .. CWR (the PRM's 9-bit field with NS clear) */
	uint8_t tcp_sport[2];
	uint8_t tcp_dport[2];
	uint8_t udp_sport[2];
	uint8_t udp_dport[2];
	uint8_t src_ip[16];     /* IPv6, or IPv4 in the last 4 bytes (the PRM's layout) */
	uint8_t dst_ip[16];
};

/* A rule's match: values under a mask (v is always v & m). */
struct flow_spec {
	struct flow_fields v;
	struct flow_fields m;
};

/* A BASIC pipe's template: what every entry matches, and which fields each entry fills in. */
struct flow_tmpl {
	struct flow_spec fixed;
	struct flow_fields chg;               /* mask of the per-entry ("changeable") fields */
	enum doca_flow_l3_type l3;            /* how an entry's match is read */
	enum doca_flow_l4_type_ext l4;
};

bool flow_fields_is_zero(const struct flow_fields *f);
/* Copies a spec's mask (the criteria of a group). */
void flow_fields_or(struct flow_fields *dst, const struct flow_fields *src);

/*
 * Checks a match (and its mask, either may be NULL) for fields not offered: each set one is
 * DOCA_ERROR_NOT_SUPPORTED with an error line naming it and @p who; bad enum values are
 * DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t flow_match_check(const struct doca_flow_match *match, const struct doca_flow_match *mask, const char *who);
/* A BASIC pipe's template from its match and mask (checked). */
doca_error_t flow_match_template(const struct doca_flow_match *match, const struct doca_flow_match *mask,
				 struct flow_tmpl *t, const char *who);
/* A BASIC entry's spec: the template with the entry's values in its per-entry fields. */
doca_error_t flow_match_basic_entry(const struct flow_tmpl *t, const struct doca_flow_match *match,
				    struct flow_spec *spec, const char *who);
/* A CONTROL entry's spec from its match and mask (NULL: the match's non-zero fields, exactly). */
doca_error_t flow_match_control_entry(const struct doca_flow_match *match, const struct doca_flow_match *mask,
				      struct flow_spec *spec, const char *who);

/* ---- forward ---- */

enum flow_dest_kind {
	FLOW_DEST_NONE = 0,     /* not given */
	FLOW_DEST_RSS,          /* a TIR */
	FLOW_DEST_PIPE,         /* another pipe's table */
	FLOW_DEST_DROP,
	FLOW_DEST_KERNEL,       /* not delivered to a queue */
	FLOW_DEST_CHANGEABLE,   /* a pipe's forward that each entry gives */
};

/* The normalised RSS request: what identifies a shared RQT + TIR. */
struct flow_rss_key {
	uint16_t queues[FLOW_RSS_QUEUES_MAX];
	uint16_t nr_queues;
	uint8_t l3;             /* 0 none, 4, 6 */
	uint8_t l4;             /* 0 none, DOCA_FLOW_PROTO_TCP, DOCA_FLOW_PROTO_UDP */
	uint8_t symmetric;
	uint32_t fields;        /* FLOW_HASH_* */
};

#define FLOW_HASH_SRC_IP (1u << 0)
#define FLOW_HASH_DST_IP (1u << 1)
#define FLOW_HASH_L4_SPORT (1u << 2)
#define FLOW_HASH_L4_DPORT (1u << 3)

struct flow_rss {
	struct flow_rss *next;  /* in the port's list */
	struct flow_rss_key key;
	uint32_t refs;
	struct ogda_devx_obj *rqt, *tir;
	uint32_t rqtn, tirn;
};

struct flow_dest {
	enum flow_dest_kind kind;
	struct flow_rss *rss;           /* RSS: a reference */
	struct doca_flow_pipe *pipe;    /* PIPE: a reference (pipe->refs) */
	uint32_t kernel_table_id;       /* KERNEL (not a miss): the port's kernel table */
};

/* Where a forward appears (what it may be). */
enum flow_fwd_use {
	FLOW_FWD_PIPE,          /* doca_flow_pipe_create fwd */
	FLOW_FWD_MISS,          /* doca_flow_pipe_create fwd_miss */
	FLOW_FWD_ENTRY,         /* an entry's */
};

/*
 * Resolves a forward into a destination holding its references (RSS objects created on
 * first use). NULL is FLOW_DEST_NONE. Logs and returns the error of a forward not offered,
 * malformed, or naming something unknown.
 */
doca_error_t flow_dest_get(struct doca_flow_port *port, const struct doca_flow_fwd *fwd, enum flow_fwd_use use,
			   struct flow_dest *dest, const char *who);
/* Drops the references of a destination (and clears it). */
void flow_dest_put(struct doca_flow_port *port, struct flow_dest *dest);
const char *flow_dest_name(enum flow_dest_kind kind);

/* RSS objects (flow_rss.c). */
doca_error_t flow_rss_key_from_cfg(const struct doca_flow_resource_rss_cfg *rss, struct flow_rss_key *key,
				   const char *who);
doca_error_t flow_rss_get(struct doca_flow_port *port, const struct flow_rss_key *key, struct flow_rss **rss,
			  const char *who);
void flow_rss_put(struct doca_flow_port *port, struct flow_rss *rss);

/* A monitor's counter request (NULL: none); meters, shared counters and aging are refused. */
doca_error_t flow_monitor_counter(const struct doca_flow_monitor *mon, bool *counter, const char *who);
/* Refuses packet actions: each argument may be NULL or all zero (descs: none). */
doca_error_t flow_actions_none(const struct doca_flow_actions *actions, const struct doca_flow_actions *mask,
			       const struct doca_flow_action_descs *descs, const char *who);

/* ---- objects ---- */

struct flow_cfg_vals {
	uint16_t pipe_queues;
	uint32_t nr_counters;             /* 0: no limit */
	uint32_t queue_depth;
	uint8_t rss_key[FLOW_RSS_KEY_LEN];
	doca_flow_entry_process_cb entry_cb;
	doca_flow_pipe_process_cb pipe_cb;
	bool isolated;
};

struct doca_flow_cfg {
	struct flow_cfg_vals v;
};

struct doca_flow_port_cfg {
	uint16_t port_id;
	struct doca_dev *dev;
};

struct doca_flow_pipe_cfg {
	struct doca_flow_port *port;
	char name[FLOW_NAME_MAX];
	enum doca_flow_pipe_type type;
	bool is_root;
	uint32_t nr_entries;
	bool has_match, has_mask;
	struct doca_flow_match match, mask;
	bool counter;                      /* monitor: a non-shared counter per entry */
	void *user_ctx;
};

/* One reported operation. */
struct flow_completion {
	struct doca_flow_pipe_entry *entry;
	enum doca_flow_entry_op op;
	enum doca_flow_entry_status status;
};

struct flow_cq {
	struct flow_completion *c;
	size_t n, cap;
};

struct doca_flow_port {
	struct doca_flow_port *next;       /* in flow_g.ports */
	uint16_t port_id;
	struct doca_dev *dev;
	struct ogda_devx *devx;
	struct ogda_devx_obj *td;
	uint32_t tdn;
	struct ogda_devx_obj *kernel_table;/* made on first use: see FLOW_LEVEL_KERNEL */
	uint32_t kernel_table_id;
	struct doca_flow_pipe *pipes;      /* newest first */
	struct doca_flow_pipe *root;
	struct flow_rss *rss;
	struct flow_cq *cqs;               /* flow_g.cfg.pipe_queues of them */
	uint16_t nr_cqs;
};

struct doca_flow_pipe {
	struct doca_flow_pipe *next;       /* in port->pipes */
	struct doca_flow_port *port;
	char name[FLOW_NAME_MAX];
	enum doca_flow_pipe_type type;
	bool is_root;
	bool counter;
	void *user_ctx;
	uint32_t nr_entries;               /* entries allowed */
	struct flow_tmpl tmpl;             /* BASIC */
	struct flow_dest fwd;              /* BASIC: the entries' forward (or CHANGEABLE / NONE) */
	struct flow_dest miss;             /* the miss (NONE / KERNEL: the table's default) */
	uint8_t level;
	uint8_t log_size;
	uint32_t slots;                    /* flow indices for entries: [0, slots) */
	struct ogda_devx_obj *table;
	uint32_t table_id;
	struct ogda_devx_obj *group;       /* BASIC: the entries' group */
	uint32_t group_id;
	struct ogda_devx_obj *miss_group, *miss_fte; /* a catch-all at index slots (DROP / RSS miss) */
	uint32_t miss_group_id;
	struct ogda_devx_rx_root *rx_root; /* the root pipe: frames steered into its table (devx.h) */
	uint32_t refs;                     /* forwards of other pipes and entries that name it */
	struct doca_flow_pipe_entry **slot;/* entry at each flow index, NULL when free */
	struct doca_flow_pipe_entry **order;/* CONTROL: entries in priority order */
	uint32_t nr_live;                  /* entries in the NIC */
	uint64_t seq;                      /* CONTROL: insertion counter */
};

struct doca_flow_pipe_entry {
	struct doca_flow_pipe *pipe;
	uint16_t queue;
	void *usr_ctx;
	enum doca_flow_entry_status status;
	bool removed;                      /* out of the NIC; freed when its DEL completion goes */
	bool dead;                         /* its pipe is gone: freed when its last completion goes */
	uint32_t pending;                  /* completions not yet delivered */
	uint32_t index;                    /* flow index */
	uint32_t priority;                 /* CONTROL */
	uint64_t seq;                      /* CONTROL */
	struct flow_spec spec;
	struct flow_dest dest;
	struct ogda_devx_obj *fte;
	struct ogda_devx_obj *group;       /* CONTROL: a group of its own */
	uint32_t group_id;
	struct ogda_devx_obj *counter;
	uint32_t counter_id;
};

/* A forward target (only the kernel). */
struct doca_flow_target {
	enum doca_flow_target_type type;
};

extern struct doca_flow_target flow_kernel_target;

struct flow_global {
	pthread_mutex_t lock;
	bool inited;
	struct flow_cfg_vals cfg;
	uint32_t counters_used;
	struct doca_flow_port *ports;
};

extern struct flow_global flow_g;

/* Default Toeplitz key: symmetric (the 0x6d5a pattern), so both directions of a flow hash alike. */
extern const uint8_t flow_default_rss_key[FLOW_RSS_KEY_LEN];

/* Locks flow_g.lock; logs and returns DOCA_ERROR_BAD_STATE (unlocked) before doca_flow_init. */
doca_error_t flow_lock_inited(const char *func);
void flow_unlock(void);

/* ---- ports ---- */

bool flow_port_is_live(const struct doca_flow_port *port);
/* Stops a port: pipes, entries, RSS objects, counters, transport domain; unlinks and frees it. */
void flow_port_teardown(struct doca_flow_port *port);
/* Queues a completion for delivery by doca_flow_entries_process (grows the queue). */
doca_error_t flow_port_post(struct doca_flow_port *port, uint16_t queue, struct doca_flow_pipe_entry *entry,
			    enum doca_flow_entry_op op, enum doca_flow_entry_status status);
/* Drops the queued completions of @p pipe's entries (the pipe is going). */
void flow_port_forget_pipe(struct doca_flow_port *port, const struct doca_flow_pipe *pipe);

/* ---- pipes ---- */

bool flow_pipe_is_live(const struct doca_flow_pipe *pipe);
/*
 * Takes a pipe's entries and catch-all miss out of the NIC and drops its forwards' references
 * (first half of destroying it: the port clears every pipe before freeing any table).
 */
void flow_pipe_clear(struct doca_flow_pipe *pipe);
/* Destroys a cleared pipe's groups and table, unlinks and frees it. */
void flow_pipe_free(struct doca_flow_pipe *pipe);
/* Whether @p from may forward to @p to (levels); logs when not. */
bool flow_pipe_can_forward(const struct doca_flow_pipe *from, const struct doca_flow_pipe *to, const char *who);

/* ---- entries ---- */

/* Takes an entry out of the NIC (FTE, group, counter, destination references). */
void flow_entry_unplug(struct doca_flow_pipe_entry *e);
/* Frees an entry once it is out of the NIC and no completion names it. */
void flow_entry_release(struct doca_flow_pipe_entry *e);
/*
 * Writes an entry's FTE at @p index (and, for CONTROL, its group); on success e->index is it and
 * the pipe's slot holds it.
 */
doca_error_t flow_entry_plug(struct doca_flow_pipe_entry *e, uint32_t index);
/* Moves a placed entry to a free @p index: the new FTE is written before the old one goes. */
doca_error_t flow_entry_move(struct doca_flow_pipe_entry *e, uint32_t index);

/* CONTROL ordering (flow_order.c): a flow index for a new entry at its place in priority order. */
doca_error_t flow_order_insert(struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *e);
void flow_order_remove(struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *e);

/* ---- the NIC (flow_hw.c) ---- */

/* What a flow table entry does. */
struct flow_hw_action {
	enum flow_dest_kind kind;          /* RSS (tirn), PIPE (table_id), DROP, KERNEL */
	uint32_t dest_id;
	bool count;
	uint32_t counter_id;
};

doca_error_t flow_hw_td_alloc(struct doca_flow_port *port);
doca_error_t flow_hw_table_create(struct doca_flow_port *port, uint8_t level, uint8_t log_size,
				  const struct doca_flow_pipe *miss_pipe, struct ogda_devx_obj **obj, uint32_t *id);
/*
 * The root pipe @p's table receives every frame of its port (rx_root_attach: SET_FLOW_TABLE_ROOT on
 * the software NIC, an rdma-core rule from the kernel's root on a ConnectX), or no longer (detach;
 * nothing when not attached).
 */
doca_error_t flow_hw_root_attach(struct doca_flow_pipe *p);
void flow_hw_root_detach(struct doca_flow_pipe *p);
doca_error_t flow_hw_group_create(struct doca_flow_port *port, uint32_t table_id, uint32_t start, uint32_t end,
				  const struct flow_fields *criteria, struct ogda_devx_obj **obj, uint32_t *id);
doca_error_t flow_hw_fte_set(struct doca_flow_port *port, uint32_t table_id, uint32_t group_id, uint32_t index,
			     const struct flow_spec *spec, const struct flow_hw_action *act, struct ogda_devx_obj **obj);
doca_error_t flow_hw_counter_alloc(struct doca_flow_port *port, struct ogda_devx_obj **obj, uint32_t *id);
doca_error_t flow_hw_counter_query(struct doca_flow_port *port, struct ogda_devx_obj *obj, uint32_t id,
				   uint64_t *packets, uint64_t *bytes);
doca_error_t flow_hw_rqt_create(struct doca_flow_port *port, const uint32_t *rqns, uint32_t n,
				struct ogda_devx_obj **obj, uint32_t *rqtn);
/* A TIR: direct to @p rqn when @p key has one queue, else indirect over @p rqtn with the hash. */
doca_error_t flow_hw_tir_create(struct doca_flow_port *port, const struct flow_rss_key *key, uint32_t rqn,
				uint32_t rqtn, struct ogda_devx_obj **obj, uint32_t *tirn);
/* Destroys *obj (when not NULL) and clears it; a failure is logged with @p what. */
void flow_hw_destroy(struct doca_flow_port *port, struct ogda_devx_obj **obj, const char *what);

/* The action an entry's destination gives the NIC. */
void flow_dest_action(const struct flow_dest *d, struct flow_hw_action *act);

#endif /* OGDA_FLOW_FLOW_PRIV_H_ */
