/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIC receive flow steering: flow tables, flow groups, flow table entries (FTEs) and flow
 * counters, as a DevX user builds them to bring frames to TIRs (prm_tir.h).
 *
 *   CREATE_FLOW_TABLE / DESTROY_FLOW_TABLE   a table of 2^log_size entries at a level; a miss
 *                                            goes to the default or to table_miss_id
 *   SET_FLOW_TABLE_ROOT                      the table a frame of table_type starts in
 *   CREATE_FLOW_GROUP / DESTROY_FLOW_GROUP   a range of entries sharing one match criteria (mask)
 *   SET_FLOW_TABLE_ENTRY / DELETE_FLOW_TABLE_ENTRY / QUERY_FLOW_TABLE_ENTRY
 *                                            an entry: match value, action, destinations and
 *                                            counters; its length depends on the list sizes
 *   ALLOC / DEALLOC / QUERY_FLOW_COUNTER     packet and byte counters named by entries
 *
 * Implemented in prm_flow_table.c (tables, root, groups) and prm_flow_entry.c (entries,
 * counters); the match parameter is prm_flow_match.h.
 */
#ifndef OGDA_PRM_FLOW_H_
#define OGDA_PRM_FLOW_H_

#include "doca_error.h"
#include "prm/prm_flow_match.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_FLOW_TABLE_CTX_SIZE 0x28u
#define PRM_FLOW_TABLE_CTX_OFFSET 0x18u         /* flow_table_context inside create_flow_table_in */
#define PRM_FLOW_CMD_SIZE 0x40u                 /* create/destroy_flow_table_in, set_flow_table_root_in,
						   destroy_flow_group_in, delete/query_fte_in */
#define PRM_FLOW_SMALL_CMD_SIZE 0x10u           /* the outs; alloc/dealloc_flow_counter_in */
#define PRM_CREATE_FLOW_GROUP_IN_SIZE 0x400u
#define PRM_FLOW_GROUP_CRITERIA_OFFSET 0x40u    /* match_criteria inside create_flow_group_in */
#define PRM_FLOW_CONTEXT_SIZE 0x300u            /* flow_context without destination[] */
#define PRM_FLOW_CONTEXT_OFFSET 0x40u           /* flow_context inside set_fte_in and query_fte_out */
#define PRM_FLOW_CONTEXT_MATCH_OFFSET 0x40u     /* match_value inside flow_context */
#define PRM_SET_FTE_IN_SIZE 0x340u              /* set_fte_in / query_fte_out without destination[] */
#define PRM_FLOW_DEST_ENTRY_SIZE 8u             /* dest_format_struct, flow_counter_list */
#define PRM_FTE_MAX_DESTS 8u                    /* destinations a parameters struct holds */
#define PRM_FTE_MAX_COUNTERS 4u                 /* counters a parameters struct holds */
#define PRM_QUERY_FLOW_COUNTER_IN_SIZE 0x20u
#define PRM_TRAFFIC_COUNTER_SIZE 0x10u          /* one traffic_counter in query_flow_counter_out */
#define PRM_QUERY_FLOW_COUNTER_MAX 256u         /* counters one query reads with this layer */

/* table_type of every flow command */
enum prm_flow_table_type {
	PRM_FLOW_TABLE_NIC_RX = 0x0,
	PRM_FLOW_TABLE_NIC_TX = 0x1,
	PRM_FLOW_TABLE_ESW_EGRESS_ACL = 0x2,
	PRM_FLOW_TABLE_ESW_INGRESS_ACL = 0x3,
	PRM_FLOW_TABLE_FDB = 0x4,
	PRM_FLOW_TABLE_SNIFFER_RX = 0x5,
	PRM_FLOW_TABLE_SNIFFER_TX = 0x6,
};

/* flow_table_context.table_miss_action */
enum prm_flow_table_miss_action {
	PRM_FLOW_TABLE_MISS_DEFAULT = 0x0,      /* the table type's default (NIC RX: not delivered) */
	PRM_FLOW_TABLE_MISS_GOTO_TBL = 0x1,     /* continue in table_miss_id */
};

/* flow_context.action bits */
enum prm_flow_action {
	PRM_FLOW_ACTION_ALLOW = 0x1,
	PRM_FLOW_ACTION_DROP = 0x2,
	PRM_FLOW_ACTION_FWD_DEST = 0x4,
	PRM_FLOW_ACTION_COUNT = 0x8,
};

/* dest_format_struct.destination_type */
enum prm_flow_dest_type {
	PRM_FLOW_DEST_VPORT = 0x0,
	PRM_FLOW_DEST_FLOW_TABLE = 0x1,
	PRM_FLOW_DEST_TIR = 0x2,
};

/* set_fte_in.op_mod (the kernel's DevX treats 0 as a create, 1 as a modify) */
enum prm_set_fte_op_mod {
	PRM_SET_FTE_OP_MOD_NEW = 0x0,
	PRM_SET_FTE_OP_MOD_MODIFY = 0x1,
};

/* set_fte_in.modify_enable_mask: what an op_mod MODIFY changes */
enum prm_set_fte_modify {
	PRM_SET_FTE_MODIFY_ACTION = 1u << 0,
	PRM_SET_FTE_MODIFY_FLOW_TAG = 1u << 1,
	PRM_SET_FTE_MODIFY_DESTINATION_LIST = 1u << 2,
	PRM_SET_FTE_MODIFY_FLOW_COUNTERS = 1u << 3,
};

extern const struct prm_layout prm_flow_table_context_layout;
extern const struct prm_layout prm_create_flow_table_in_layout;
extern const struct prm_layout prm_create_flow_table_out_layout;
extern const struct prm_layout prm_destroy_flow_table_in_layout;
extern const struct prm_layout prm_destroy_flow_table_out_layout;
extern const struct prm_layout prm_set_flow_table_root_in_layout;
extern const struct prm_layout prm_set_flow_table_root_out_layout;
extern const struct prm_layout prm_create_flow_group_in_layout;
extern const struct prm_layout prm_create_flow_group_out_layout;
extern const struct prm_layout prm_destroy_flow_group_in_layout;
extern const struct prm_layout prm_destroy_flow_group_out_layout;
extern const struct prm_layout prm_flow_context_layout;           /* without destination[] */
extern const struct prm_layout prm_dest_format_layout;            /* dest_format_struct */
extern const struct prm_layout prm_flow_counter_list_layout;
extern const struct prm_layout prm_set_fte_in_layout;             /* without destination[] */
extern const struct prm_layout prm_set_fte_out_layout;
extern const struct prm_layout prm_delete_fte_in_layout;
extern const struct prm_layout prm_delete_fte_out_layout;
extern const struct prm_layout prm_query_fte_in_layout;
extern const struct prm_layout prm_query_fte_out_layout;          /* without destination[] */
extern const struct prm_layout prm_alloc_flow_counter_in_layout;
extern const struct prm_layout prm_alloc_flow_counter_out_layout;
extern const struct prm_layout prm_dealloc_flow_counter_in_layout;
extern const struct prm_layout prm_dealloc_flow_counter_out_layout;
extern const struct prm_layout prm_query_flow_counter_in_layout;
extern const struct prm_layout prm_query_flow_counter_out_layout; /* the header, then traffic_counter[] */
extern const struct prm_layout prm_traffic_counter_layout;

/* ---- tables and groups (prm_flow_table.c) ---- */

struct prm_flow_table_ctx {
	uint8_t table_miss_action;      /* enum prm_flow_table_miss_action */
	uint8_t level;
	uint8_t log_size;
	uint32_t table_miss_id;         /* GOTO_TBL: the next table */
};

struct prm_create_flow_table_params {
	uint16_t uid;
	uint8_t table_type;             /* enum prm_flow_table_type */
	struct prm_flow_table_ctx ctx;
};

/* DESTROY_FLOW_TABLE */
struct prm_flow_table_ref {
	uint16_t uid;
	uint8_t table_type;
	uint32_t table_id;
};

struct prm_set_flow_table_root_params {
	uint16_t uid;
	uint16_t op_mod;                /* as given (Linux's fs_cmd.c sends 1 to disconnect the root) */
	uint8_t table_type;
	uint32_t table_id;
	uint32_t underlay_qpn;
};

struct prm_create_flow_group_params {
	uint16_t uid;
	uint8_t table_type;
	uint32_t table_id;
	uint32_t start_flow_index;
	uint32_t end_flow_index;        /* inclusive */
	uint8_t match_criteria_enable;  /* enum prm_match_criteria_enable bits */
	struct prm_match_lyr_2_4 match_criteria;   /* the outer headers' mask; the other sets zero */
};

struct prm_destroy_flow_group_params {
	uint16_t uid;
	uint8_t table_type;
	uint32_t table_id;
	uint32_t group_id;
};

doca_error_t prm_create_flow_table_in_build(const struct prm_create_flow_table_params *p, void *in, size_t len);
doca_error_t prm_create_flow_table_in_parse(const void *in, size_t len, struct prm_create_flow_table_params *p);
doca_error_t prm_create_flow_table_out_build(uint32_t table_id, void *out, size_t len);
doca_error_t prm_create_flow_table_out_parse(const void *out, size_t len, uint32_t *table_id);
doca_error_t prm_destroy_flow_table_in_build(const struct prm_flow_table_ref *p, void *in, size_t len);
doca_error_t prm_destroy_flow_table_in_parse(const void *in, size_t len, struct prm_flow_table_ref *p);
doca_error_t prm_set_flow_table_root_in_build(const struct prm_set_flow_table_root_params *p, void *in, size_t len);
doca_error_t prm_set_flow_table_root_in_parse(const void *in, size_t len, struct prm_set_flow_table_root_params *p);
doca_error_t prm_create_flow_group_in_build(const struct prm_create_flow_group_params *p, void *in, size_t len);
doca_error_t prm_create_flow_group_in_parse(const void *in, size_t len, struct prm_create_flow_group_params *p);
doca_error_t prm_create_flow_group_out_build(uint32_t group_id, void *out, size_t len);
doca_error_t prm_create_flow_group_out_parse(const void *out, size_t len, uint32_t *group_id);
doca_error_t prm_destroy_flow_group_in_build(const struct prm_destroy_flow_group_params *p, void *in, size_t len);
doca_error_t prm_destroy_flow_group_in_parse(const void *in, size_t len, struct prm_destroy_flow_group_params *p);
/* DESTROY_FLOW_TABLE, SET_FLOW_TABLE_ROOT and DESTROY_FLOW_GROUP answer with the bare header. */

/* ---- entries and counters (prm_flow_entry.c) ---- */

struct prm_flow_dest {
	uint8_t type;                   /* enum prm_flow_dest_type */
	uint32_t id;                    /* TIR number, flow table id, vport */
};

struct prm_flow_context_params {
	uint32_t group_id;
	uint32_t flow_tag;              /* 24 bits, reported in the CQE */
	uint16_t action;                /* enum prm_flow_action bits */
	uint32_t destination_list_size; /* entries of dest[] used */
	uint32_t flow_counter_list_size;/* entries of counter_id[] used */
	struct prm_match_lyr_2_4 match_value;      /* the outer headers; the other sets zero */
	struct prm_flow_dest dest[PRM_FTE_MAX_DESTS];
	uint32_t counter_id[PRM_FTE_MAX_COUNTERS];
};

struct prm_set_fte_params {
	uint16_t uid;
	uint16_t op_mod;                /* enum prm_set_fte_op_mod */
	uint8_t table_type;
	uint32_t table_id;
	uint8_t ignore_flow_level;
	uint8_t modify_enable_mask;     /* enum prm_set_fte_modify bits, op_mod MODIFY */
	uint32_t flow_index;
	struct prm_flow_context_params ctx;
};

/* DELETE_FLOW_TABLE_ENTRY and QUERY_FLOW_TABLE_ENTRY */
struct prm_fte_ref {
	uint16_t uid;
	uint8_t table_type;
	uint32_t table_id;
	uint32_t flow_index;
};

struct prm_query_flow_counter_params {
	uint16_t uid;
	uint8_t clear;                  /* zero the counters after reading them */
	uint16_t num_of_counters;       /* 0 reads one counter (a bulk query gives the count) */
	uint32_t flow_counter_id;       /* the first counter */
};

struct prm_traffic_counter {
	uint64_t packets;
	uint64_t octets;
};

/*
 * Bytes of a SET_FLOW_TABLE_ENTRY input (and of a QUERY_FLOW_TABLE_ENTRY output) with ndests
 * destinations and ncounters counters, each entry 8 bytes after the flow context,
 * destinations first; 0 when either count exceeds PRM_FTE_MAX_DESTS / PRM_FTE_MAX_COUNTERS.
 */
size_t prm_set_fte_in_size(uint32_t ndests, uint32_t ncounters);

/*
 * SET_FLOW_TABLE_ENTRY: the builder writes ctx.destination_list_size destinations and
 * ctx.flow_counter_list_size counters; the parser reads as many as the flow context says.
 * A count over the maximum or a buffer shorter than prm_set_fte_in_size() of the counts is
 * DOCA_ERROR_INVALID_VALUE, as is a flow context with extended_destination set (16-byte
 * entries, not handled by this layer).
 */
doca_error_t prm_set_fte_in_build(const struct prm_set_fte_params *p, void *in, size_t len);
doca_error_t prm_set_fte_in_parse(const void *in, size_t len, struct prm_set_fte_params *p);
doca_error_t prm_delete_fte_in_build(const struct prm_fte_ref *p, void *in, size_t len);
doca_error_t prm_delete_fte_in_parse(const void *in, size_t len, struct prm_fte_ref *p);
doca_error_t prm_query_fte_in_build(const struct prm_fte_ref *p, void *in, size_t len);
doca_error_t prm_query_fte_in_parse(const void *in, size_t len, struct prm_fte_ref *p);
doca_error_t prm_query_fte_out_build(const struct prm_flow_context_params *ctx, void *out, size_t len);
doca_error_t prm_query_fte_out_parse(const void *out, size_t len, struct prm_flow_context_params *ctx);
/* SET_FLOW_TABLE_ENTRY and DELETE_FLOW_TABLE_ENTRY answer with the bare header. */

/* ALLOC_FLOW_COUNTER: flow_counter_bulk 0 allocates one counter. */
doca_error_t prm_alloc_flow_counter_in_build(uint16_t uid, uint8_t flow_counter_bulk, void *in, size_t len);
doca_error_t prm_alloc_flow_counter_in_parse(const void *in, size_t len, uint16_t *uid, uint8_t *flow_counter_bulk);
doca_error_t prm_alloc_flow_counter_out_build(uint32_t flow_counter_id, void *out, size_t len);
doca_error_t prm_alloc_flow_counter_out_parse(const void *out, size_t len, uint32_t *flow_counter_id);
doca_error_t prm_dealloc_flow_counter_in_build(uint16_t uid, uint32_t flow_counter_id, void *in, size_t len);
doca_error_t prm_dealloc_flow_counter_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *flow_counter_id);

/*
 * QUERY_FLOW_COUNTER. The out mailbox holds n traffic counters after its 16-byte header:
 * prm_query_flow_counter_out_size(n) bytes (0 for n of 0 or over PRM_QUERY_FLOW_COUNTER_MAX).
 */
size_t prm_query_flow_counter_out_size(uint32_t n);
doca_error_t prm_query_flow_counter_in_build(const struct prm_query_flow_counter_params *p, void *in, size_t len);
doca_error_t prm_query_flow_counter_in_parse(const void *in, size_t len, struct prm_query_flow_counter_params *p);
doca_error_t prm_query_flow_counter_out_build(const struct prm_traffic_counter *c, uint32_t n, void *out, size_t len);
doca_error_t prm_query_flow_counter_out_parse(const void *out, size_t len, struct prm_traffic_counter *c, uint32_t n);
/* DEALLOC_FLOW_COUNTER answers with the bare header. */

#endif /* OGDA_PRM_FLOW_H_ */
