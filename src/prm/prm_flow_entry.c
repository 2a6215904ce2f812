/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow table entries and flow counters. Positions: Linux include/linux/mlx5/mlx5_ifc.h
 * mlx5_ifc_flow_context_bits, dest_format_struct_bits, flow_counter_list_bits, set_fte_in,
 * delete_fte_in, query_fte_in/out, alloc_flow_counter_in/out, dealloc_flow_counter_in,
 * query_flow_counter_in/out, traffic_counter_bits; action bits from MLX5_FLOW_CONTEXT_ACTION_*,
 * destination types from enum mlx5_flow_destination_type, modify_enable_mask bits from
 * MLX5_SET_FTE_MODIFY_ENABLE_MASK_*. The order of the list after the flow context
 * (destinations, then counters, 8 bytes each without extended_destination) is the one
 * mlx5_cmd_set_fte() in drivers/net/ethernet/mellanox/mlx5/core/fs_cmd.c writes. Bit offsets
 * as "dwN [hi:lo]" (N = off / 32, hi = 31 - off % 32):
 *
 *   flow_context  group_id 0x20 dw1  flow_tag 0x48 dw2 [23:0]  action 0x70 dw3 [15:0]
 *                 extended_destination 0x80 dw4 [31]  destination_list_size 0x88 dw4 [23:0]
 *                 flow_counter_list_size 0xa8 dw5 [23:0]
 *                 match_value 0x200 (byte 0x40, 0x200 bytes); destination[] at 0x1800 (byte 0x300)
 *   dest_format_struct  destination_type 0x0 dw0 [31:24]  destination_id 0x8 dw0 [23:0]; 0x40 bits
 *   flow_counter_list   flow_counter_id 0x0 dw0; 0x40 bits
 *   set_fte_in    table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]
 *                 ignore_flow_level 0xc0 dw6 [31]  modify_enable_mask 0xd8 dw6 [7:0]
 *                 flow_index 0x100 dw8  flow_context 0x200 (byte 0x40)
 *   delete_fte_in / query_fte_in  table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]
 *                 flow_index 0x100 dw8; size 0x200 bits
 *   query_fte_out flow_context 0x200 (byte 0x40)
 *   alloc_flow_counter_in  flow_counter_bulk 0x78 dw3 [7:0]
 *   alloc_flow_counter_out flow_counter_id 0x40 dw2;  dealloc_flow_counter_in flow_counter_id 0x40 dw2
 *   query_flow_counter_in  clear 0xc0 dw6 [31]  num_of_counters 0xd0 dw6 [15:0]
 *                          flow_counter_id 0xe0 dw7; size 0x100 bits
 *   query_flow_counter_out flow_statistics[] at 0x80 (byte 0x10)
 *   traffic_counter        packets 0x0 (64 bits)  octets 0x40 (64 bits)
 * That num_of_counters 0 reads one counter is how Linux's mlx5_cmd_fc_query() uses it (it
 * leaves the field 0 and reads one traffic_counter), not a published rule.
 */
#include "prm/prm_flow.h"

#include "core/log.h"
#include "prm/prm_cmd.h"

#include <string.h>

static const struct prm_field flow_context_fields[] = {
	PRM_DW("group_id", 1),
	PRM_BITS("flow_tag", 2, 23, 0),
	PRM_BITS("action", 3, 15, 0),
	PRM_BITS("extended_destination", 4, 31, 31),
	PRM_BITS("destination_list_size", 4, 23, 0),
	PRM_BITS("flow_counter_list_size", 5, 23, 0),
	PRM_SUB("match_value", PRM_FLOW_CONTEXT_MATCH_OFFSET, prm_match_param_layout, PRM_MATCH_PARAM_SIZE),
};
const struct prm_layout prm_flow_context_layout =
	PRM_LAYOUT("flow_context", PRM_FLOW_CONTEXT_SIZE, flow_context_fields);

static const struct prm_field dest_format_fields[] = {
	PRM_BITS("destination_type", 0, 31, 24),
	PRM_BITS("destination_id", 0, 23, 0),
};
const struct prm_layout prm_dest_format_layout =
	PRM_LAYOUT("dest_format_struct", PRM_FLOW_DEST_ENTRY_SIZE, dest_format_fields);

static const struct prm_field flow_counter_list_fields[] = {
	PRM_DW("flow_counter_id", 0),
};
const struct prm_layout prm_flow_counter_list_layout =
	PRM_LAYOUT("flow_counter_list", PRM_FLOW_DEST_ENTRY_SIZE, flow_counter_list_fields);

static const struct prm_field set_fte_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
	PRM_BITS("ignore_flow_level", 6, 31, 31),
	PRM_BITS("modify_enable_mask", 6, 7, 0),
	PRM_DW("flow_index", 8),
	PRM_SUB("flow_context", PRM_FLOW_CONTEXT_OFFSET, prm_flow_context_layout, PRM_FLOW_CONTEXT_SIZE),
};
const struct prm_layout prm_set_fte_in_layout = PRM_LAYOUT("set_fte_in", PRM_SET_FTE_IN_SIZE, set_fte_in_fields);

static const struct prm_field fte_ref_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
	PRM_DW("flow_index", 8),
};
const struct prm_layout prm_delete_fte_in_layout = PRM_LAYOUT("delete_fte_in", PRM_FLOW_CMD_SIZE, fte_ref_in_fields);
const struct prm_layout prm_query_fte_in_layout = PRM_LAYOUT("query_fte_in", PRM_FLOW_CMD_SIZE, fte_ref_in_fields);

static const struct prm_field query_fte_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_SUB("flow_context", PRM_FLOW_CONTEXT_OFFSET, prm_flow_context_layout, PRM_FLOW_CONTEXT_SIZE),
};
const struct prm_layout prm_query_fte_out_layout =
	PRM_LAYOUT("query_fte_out", PRM_SET_FTE_IN_SIZE, query_fte_out_fields);

static const struct prm_field alloc_flow_counter_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("flow_counter_bulk", 3, 7, 0),
};
const struct prm_layout prm_alloc_flow_counter_in_layout =
	PRM_LAYOUT("alloc_flow_counter_in", PRM_FLOW_SMALL_CMD_SIZE, alloc_flow_counter_in_fields);

static const struct prm_field counter_id_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_DW("flow_counter_id", 2),
};
const struct prm_layout prm_alloc_flow_counter_out_layout =
	PRM_LAYOUT("alloc_flow_counter_out", PRM_FLOW_SMALL_CMD_SIZE, counter_id_out_fields);

static const struct prm_field counter_id_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_DW("flow_counter_id", 2),
};
const struct prm_layout prm_dealloc_flow_counter_in_layout =
	PRM_LAYOUT("dealloc_flow_counter_in", PRM_FLOW_SMALL_CMD_SIZE, counter_id_in_fields);

static const struct prm_field query_flow_counter_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("clear", 6, 31, 31),
	PRM_BITS("num_of_counters", 6, 15, 0),
	PRM_DW("flow_counter_id", 7),
};
const struct prm_layout prm_query_flow_counter_in_layout =
	PRM_LAYOUT("query_flow_counter_in", PRM_QUERY_FLOW_COUNTER_IN_SIZE, query_flow_counter_in_fields);

static const struct prm_field traffic_counter_fields[] = {
	PRM_U64("packets", 0x0),
	PRM_U64("octets", 0x8),
};
const struct prm_layout prm_traffic_counter_layout =
	PRM_LAYOUT("traffic_counter", PRM_TRAFFIC_COUNTER_SIZE, traffic_counter_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_set_fte_out_layout = PRM_LAYOUT("set_fte_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_delete_fte_out_layout =
	PRM_LAYOUT("delete_fte_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_dealloc_flow_counter_out_layout =
	PRM_LAYOUT("dealloc_flow_counter_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_query_flow_counter_out_layout =
	PRM_LAYOUT("query_flow_counter_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_param_map set_fte_in_map[] = {
	PRM_MAP(struct prm_set_fte_params, uid, "uid"),
	PRM_MAP(struct prm_set_fte_params, op_mod, "op_mod"),
	PRM_MAP(struct prm_set_fte_params, table_type, "table_type"),
	PRM_MAP(struct prm_set_fte_params, table_id, "table_id"),
	PRM_MAP(struct prm_set_fte_params, ignore_flow_level, "ignore_flow_level"),
	PRM_MAP(struct prm_set_fte_params, modify_enable_mask, "modify_enable_mask"),
	PRM_MAP(struct prm_set_fte_params, flow_index, "flow_index"),
};

static const struct prm_param_map flow_context_map[] = {
	PRM_MAP(struct prm_flow_context_params, group_id, "group_id"),
	PRM_MAP(struct prm_flow_context_params, flow_tag, "flow_tag"),
	PRM_MAP(struct prm_flow_context_params, action, "action"),
	PRM_MAP(struct prm_flow_context_params, destination_list_size, "destination_list_size"),
	PRM_MAP(struct prm_flow_context_params, flow_counter_list_size, "flow_counter_list_size"),
};

static const struct prm_param_map fte_ref_in_map[] = {
	PRM_MAP(struct prm_fte_ref, uid, "uid"),
	PRM_MAP(struct prm_fte_ref, table_type, "table_type"),
	PRM_MAP(struct prm_fte_ref, table_id, "table_id"),
	PRM_MAP(struct prm_fte_ref, flow_index, "flow_index"),
};

static const struct prm_param_map query_flow_counter_in_map[] = {
	PRM_MAP(struct prm_query_flow_counter_params, uid, "uid"),
	PRM_MAP(struct prm_query_flow_counter_params, clear, "clear"),
	PRM_MAP(struct prm_query_flow_counter_params, num_of_counters, "num_of_counters"),
	PRM_MAP(struct prm_query_flow_counter_params, flow_counter_id, "flow_counter_id"),
};

size_t prm_set_fte_in_size(uint32_t ndests, uint32_t ncounters)
{
	if (ndests > PRM_FTE_MAX_DESTS || ncounters > PRM_FTE_MAX_COUNTERS)
		return 0;
	return PRM_SET_FTE_IN_SIZE + ((size_t)ndests + ncounters) * PRM_FLOW_DEST_ENTRY_SIZE;
}

/* The list sizes fit the parameters and the buffer (len counted from the mailbox start). */
static doca_error_t fte_lists_fit(const char *what, uint32_t ndests, uint32_t ncounters, size_t len)
{
	size_t need = prm_set_fte_in_size(ndests, ncounters);

	if (need == 0) {
		OGDA_LOG_ERR("%s: %u destinations and %u counters, at most %u and %u", what, ndests, ncounters,
			     PRM_FTE_MAX_DESTS, PRM_FTE_MAX_COUNTERS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len < need) {
		OGDA_LOG_ERR("%s with %u destinations and %u counters needs %zu bytes, got %zu", what, ndests,
			     ncounters, need, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Offset of the i-th 8-byte list entry from the start of the flow context. */
static size_t entry_off(uint32_t i)
{
	return PRM_FLOW_CONTEXT_SIZE + (size_t)i * PRM_FLOW_DEST_ENTRY_SIZE;
}

/* Writes a flow context and its lists at ctx; the caller has checked the room (fte_lists_fit). */
static doca_error_t ctx_write(uint8_t *ctx, const struct prm_flow_context_params *c)
{
	struct prm_writer w;
	uint32_t i, nd = c->destination_list_size;

	prm_writer_init(&w, &prm_flow_context_layout, ctx, PRM_FLOW_CONTEXT_SIZE);
	prm_w_map(&w, flow_context_map, PRM_MAP_COUNT(flow_context_map), c);
	if (w.err == DOCA_SUCCESS)
		w.err = prm_match_param_build(&c->match_value, ctx + PRM_FLOW_CONTEXT_MATCH_OFFSET,
					      PRM_MATCH_PARAM_SIZE);
	for (i = 0; i < nd && w.err == DOCA_SUCCESS; i++) {
		prm_writer_init(&w, &prm_dest_format_layout, ctx + entry_off(i), PRM_FLOW_DEST_ENTRY_SIZE);
		prm_w(&w, "destination_type", c->dest[i].type);
		prm_w(&w, "destination_id", c->dest[i].id);
	}
	for (i = 0; i < c->flow_counter_list_size && w.err == DOCA_SUCCESS; i++) {
		prm_writer_init(&w, &prm_flow_counter_list_layout, ctx + entry_off(nd + i), PRM_FLOW_DEST_ENTRY_SIZE);
		prm_w(&w, "flow_counter_id", c->counter_id[i]);
	}
	return w.err;
}

/* Reads a flow context at offset PRM_FLOW_CONTEXT_OFFSET of a mailbox of len bytes. */
static doca_error_t ctx_read(const char *what, const uint8_t *mbox, size_t len, struct prm_flow_context_params *c)
{
	const uint8_t *ctx = mbox + PRM_FLOW_CONTEXT_OFFSET;
	struct prm_reader r;
	doca_error_t err;
	uint32_t i, nd;

	prm_reader_init(&r, &prm_flow_context_layout, ctx, len - PRM_FLOW_CONTEXT_OFFSET);
	prm_r_map(&r, flow_context_map, PRM_MAP_COUNT(flow_context_map), c);
	if (r.err == DOCA_SUCCESS && prm_r(&r, "extended_destination") != 0) {
		OGDA_LOG_ERR("%s: extended destinations (16-byte entries) are not handled", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (r.err != DOCA_SUCCESS)
		return r.err;
	nd = c->destination_list_size;
	err = fte_lists_fit(what, nd, c->flow_counter_list_size, len);
	if (err == DOCA_SUCCESS)
		err = prm_match_param_parse(ctx + PRM_FLOW_CONTEXT_MATCH_OFFSET, PRM_MATCH_PARAM_SIZE, &c->match_value);
	for (i = 0; i < nd && err == DOCA_SUCCESS; i++) {
		prm_reader_init(&r, &prm_dest_format_layout, ctx + entry_off(i), PRM_FLOW_DEST_ENTRY_SIZE);
		c->dest[i].type = (uint8_t)prm_r(&r, "destination_type");
		c->dest[i].id = (uint32_t)prm_r(&r, "destination_id");
		err = r.err;
	}
	for (i = 0; i < c->flow_counter_list_size && err == DOCA_SUCCESS; i++) {
		prm_reader_init(&r, &prm_flow_counter_list_layout, ctx + entry_off(nd + i), PRM_FLOW_DEST_ENTRY_SIZE);
		c->counter_id[i] = (uint32_t)prm_r(&r, "flow_counter_id");
		err = r.err;
	}
	return err;
}

doca_error_t prm_set_fte_in_build(const struct prm_set_fte_params *p, void *in, size_t len)
{
	doca_error_t err;

	if (p == NULL || in == NULL) {
		OGDA_LOG_ERR("set_fte_in: parameters and buffer must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = fte_lists_fit("set_fte_in", p->ctx.destination_list_size, p->ctx.flow_counter_list_size, len);
	if (err == DOCA_SUCCESS)
		err = prm_cmd_mapped_in_build(&prm_set_fte_in_layout, PRM_CMD_SET_FLOW_TABLE_ENTRY, set_fte_in_map,
					      PRM_MAP_COUNT(set_fte_in_map), in, len, p);
	if (err == DOCA_SUCCESS)
		err = ctx_write((uint8_t *)in + PRM_FLOW_CONTEXT_OFFSET, &p->ctx);
	return err;
}

doca_error_t prm_set_fte_in_parse(const void *in, size_t len, struct prm_set_fte_params *p)
{
	struct prm_set_fte_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_set_fte_in_layout, PRM_CMD_SET_FLOW_TABLE_ENTRY, set_fte_in_map,
				      PRM_MAP_COUNT(set_fte_in_map), in, len, p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		err = ctx_read("set_fte_in", in, len, &v.ctx);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

static doca_error_t fte_ref_parse(const struct prm_layout *layout, uint16_t opcode, const void *in, size_t len,
				  struct prm_fte_ref *p)
{
	struct prm_fte_ref v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(layout, opcode, fte_ref_in_map, PRM_MAP_COUNT(fte_ref_in_map), in, len,
				      p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

doca_error_t prm_delete_fte_in_build(const struct prm_fte_ref *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_delete_fte_in_layout, PRM_CMD_DELETE_FLOW_TABLE_ENTRY, fte_ref_in_map,
				       PRM_MAP_COUNT(fte_ref_in_map), in, len, p);
}

doca_error_t prm_delete_fte_in_parse(const void *in, size_t len, struct prm_fte_ref *p)
{
	return fte_ref_parse(&prm_delete_fte_in_layout, PRM_CMD_DELETE_FLOW_TABLE_ENTRY, in, len, p);
}

doca_error_t prm_query_fte_in_build(const struct prm_fte_ref *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_query_fte_in_layout, PRM_CMD_QUERY_FLOW_TABLE_ENTRY, fte_ref_in_map,
				       PRM_MAP_COUNT(fte_ref_in_map), in, len, p);
}

doca_error_t prm_query_fte_in_parse(const void *in, size_t len, struct prm_fte_ref *p)
{
	return fte_ref_parse(&prm_query_fte_in_layout, PRM_CMD_QUERY_FLOW_TABLE_ENTRY, in, len, p);
}

doca_error_t prm_query_fte_out_build(const struct prm_flow_context_params *ctx, void *out, size_t len)
{
	struct prm_writer w;
	doca_error_t err;

	if (ctx == NULL || out == NULL) {
		OGDA_LOG_ERR("query_fte_out: flow context and buffer must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = fte_lists_fit("query_fte_out", ctx->destination_list_size, ctx->flow_counter_list_size, len);
	if (err != DOCA_SUCCESS)
		return err;
	prm_writer_init(&w, &prm_query_fte_out_layout, out, len); /* status OK */
	if (w.err != DOCA_SUCCESS)
		return w.err;
	return ctx_write((uint8_t *)out + PRM_FLOW_CONTEXT_OFFSET, ctx);
}

doca_error_t prm_query_fte_out_parse(const void *out, size_t len, struct prm_flow_context_params *ctx)
{
	struct prm_flow_context_params v;
	doca_error_t err;

	if (ctx == NULL) {
		OGDA_LOG_ERR("query_fte_out: output must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_out_check(out, len, PRM_SET_FTE_IN_SIZE, PRM_CMD_QUERY_FLOW_TABLE_ENTRY);
	if (err != DOCA_SUCCESS)
		return err;
	memset(&v, 0, sizeof(v));
	err = ctx_read("query_fte_out", out, len, &v);
	if (err == DOCA_SUCCESS)
		memcpy(ctx, &v, sizeof(v));
	return err;
}

doca_error_t prm_alloc_flow_counter_in_build(uint16_t uid, uint8_t flow_counter_bulk, void *in, size_t len)
{
	struct prm_writer w;

	prm_writer_init(&w, &prm_alloc_flow_counter_in_layout, in, len);
	prm_w(&w, "opcode", PRM_CMD_ALLOC_FLOW_COUNTER);
	prm_w(&w, "uid", uid);
	prm_w(&w, "flow_counter_bulk", flow_counter_bulk);
	return w.err;
}

doca_error_t prm_alloc_flow_counter_in_parse(const void *in, size_t len, uint16_t *uid, uint8_t *flow_counter_bulk)
{
	struct prm_reader r;
	uint16_t v_uid;
	uint8_t v_bulk;
	doca_error_t err;

	if (uid == NULL || flow_counter_bulk == NULL) {
		OGDA_LOG_ERR("alloc_flow_counter_in: outputs must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_expect(in, len, &prm_alloc_flow_counter_in_layout, PRM_CMD_ALLOC_FLOW_COUNTER);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, &prm_alloc_flow_counter_in_layout, in, len);
	v_uid = (uint16_t)prm_r(&r, "uid");
	v_bulk = (uint8_t)prm_r(&r, "flow_counter_bulk");
	if (r.err == DOCA_SUCCESS) {
		*uid = v_uid;
		*flow_counter_bulk = v_bulk;
	}
	return r.err;
}

doca_error_t prm_alloc_flow_counter_out_build(uint32_t flow_counter_id, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_alloc_flow_counter_out_layout, out, len, "flow_counter_id", flow_counter_id);
}

doca_error_t prm_alloc_flow_counter_out_parse(const void *out, size_t len, uint32_t *flow_counter_id)
{
	return prm_cmd_obj_out_parse(&prm_alloc_flow_counter_out_layout, PRM_CMD_ALLOC_FLOW_COUNTER, out, len,
				     "flow_counter_id", flow_counter_id);
}

doca_error_t prm_dealloc_flow_counter_in_build(uint16_t uid, uint32_t flow_counter_id, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_dealloc_flow_counter_in_layout, PRM_CMD_DEALLOC_FLOW_COUNTER, in, len, uid,
				    "flow_counter_id", flow_counter_id);
}

doca_error_t prm_dealloc_flow_counter_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *flow_counter_id)
{
	return prm_cmd_obj_in_parse(&prm_dealloc_flow_counter_in_layout, PRM_CMD_DEALLOC_FLOW_COUNTER, in, len, uid,
				    "flow_counter_id", flow_counter_id);
}

size_t prm_query_flow_counter_out_size(uint32_t n)
{
	if (n == 0 || n > PRM_QUERY_FLOW_COUNTER_MAX)
		return 0;
	return PRM_FLOW_SMALL_CMD_SIZE + (size_t)n * PRM_TRAFFIC_COUNTER_SIZE;
}

doca_error_t prm_query_flow_counter_in_build(const struct prm_query_flow_counter_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_query_flow_counter_in_layout, PRM_CMD_QUERY_FLOW_COUNTER,
				       query_flow_counter_in_map, PRM_MAP_COUNT(query_flow_counter_in_map), in, len, p);
}

doca_error_t prm_query_flow_counter_in_parse(const void *in, size_t len, struct prm_query_flow_counter_params *p)
{
	struct prm_query_flow_counter_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_query_flow_counter_in_layout, PRM_CMD_QUERY_FLOW_COUNTER,
				      query_flow_counter_in_map, PRM_MAP_COUNT(query_flow_counter_in_map), in, len,
				      p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

static doca_error_t counters_fit(uint32_t n, size_t len)
{
	size_t need = prm_query_flow_counter_out_size(n);

	if (need == 0) {
		OGDA_LOG_ERR("query_flow_counter_out: %u counters, 1 to %u", n, PRM_QUERY_FLOW_COUNTER_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len < need) {
		OGDA_LOG_ERR("query_flow_counter_out with %u counters needs %zu bytes, got %zu", n, need, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t prm_query_flow_counter_out_build(const struct prm_traffic_counter *c, uint32_t n, void *out, size_t len)
{
	struct prm_writer w;
	uint8_t *stats;
	doca_error_t err;
	uint32_t i;

	if (c == NULL || out == NULL) {
		OGDA_LOG_ERR("query_flow_counter_out: counters and buffer must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = counters_fit(n, len);
	if (err != DOCA_SUCCESS)
		return err;
	err = prm_cmd_empty_out_build(out, len);
	stats = (uint8_t *)out + PRM_FLOW_SMALL_CMD_SIZE;
	for (i = 0; i < n && err == DOCA_SUCCESS; i++) {
		prm_writer_init(&w, &prm_traffic_counter_layout, stats + (size_t)i * PRM_TRAFFIC_COUNTER_SIZE,
				PRM_TRAFFIC_COUNTER_SIZE);
		prm_w(&w, "packets", c[i].packets);
		prm_w(&w, "octets", c[i].octets);
		err = w.err;
	}
	return err;
}

doca_error_t prm_query_flow_counter_out_parse(const void *out, size_t len, struct prm_traffic_counter *c, uint32_t n)
{
	const uint8_t *stats;
	struct prm_reader r;
	doca_error_t err;
	uint32_t i;

	if (c == NULL) {
		OGDA_LOG_ERR("query_flow_counter_out: output must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_out_check(out, len, PRM_FLOW_SMALL_CMD_SIZE, PRM_CMD_QUERY_FLOW_COUNTER);
	if (err == DOCA_SUCCESS)
		err = counters_fit(n, len);
	if (err != DOCA_SUCCESS)
		return err;
	/* The room is checked: nothing below fails, so no partial result reaches the caller. */
	stats = (const uint8_t *)out + PRM_FLOW_SMALL_CMD_SIZE;
	for (i = 0; i < n; i++) {
		prm_reader_init(&r, &prm_traffic_counter_layout, stats + (size_t)i * PRM_TRAFFIC_COUNTER_SIZE,
				PRM_TRAFFIC_COUNTER_SIZE);
		c[i].packets = prm_r(&r, "packets");
		c[i].octets = prm_r(&r, "octets");
	}
	return DOCA_SUCCESS;
}
