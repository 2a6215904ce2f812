/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow tables, the root table and flow groups. Positions: Linux include/linux/mlx5/mlx5_ifc.h
 * mlx5_ifc_flow_table_context_bits, create_flow_table_in/out, destroy_flow_table_in,
 * set_flow_table_root_in, create_flow_group_in/out, destroy_flow_group_in; table types from
 * its MLX5_FLOW_TABLE_TYPE_* enum, miss actions from enum mlx5_flow_table_miss_action, the
 * match criteria enable bits from MLX5_CREATE_FLOW_GROUP_IN_MATCH_CRITERIA_ENABLE_*. Bit
 * offsets as "dwN [hi:lo]" (N = off / 32, hi = 31 - off % 32):
 *
 *   flow_table_context  table_miss_action 0x4 dw0 [27:24]  level 0x8 dw0 [23:16]
 *                       log_size 0x18 dw0 [7:0]  table_miss_id 0x28 dw1 [23:0]; size 0x140 bits
 *   create_flow_table_in  table_type 0x80 dw4 [31:24]  flow_table_context at 0xc0 (byte 0x18);
 *                         size 0x200 bits
 *   create_flow_table_out table_id 0x48 dw2 [23:0]
 *   destroy_flow_table_in table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]; size 0x200 bits
 *   set_flow_table_root_in table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]
 *                          underlay_qpn 0xc8 dw6 [23:0]; size 0x200 bits
 *   create_flow_group_in  table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]
 *                         start_flow_index 0xe0 dw7  end_flow_index 0x120 dw9
 *                         match_criteria_enable 0x1f8 dw15 [7:0]
 *                         match_criteria 0x200 (byte 0x40, 0x200 bytes); size 0x2000 bits
 *   create_flow_group_out group_id 0x48 dw2 [23:0]
 *   destroy_flow_group_in table_type 0x80 dw4 [31:24]  table_id 0xa8 dw5 [23:0]
 *                         group_id 0xc0 dw6; size 0x200 bits
 * other_vport / vport_number (dw2, e-switch use) are left zero.
 */
#include "prm/prm_flow.h"

#include "prm/prm_cmd.h"

#include <string.h>

static const struct prm_field flow_table_context_fields[] = {
	PRM_BITS("table_miss_action", 0, 27, 24),
	PRM_BITS("level", 0, 23, 16),
	PRM_BITS("log_size", 0, 7, 0),
	PRM_BITS("table_miss_id", 1, 23, 0),
};
const struct prm_layout prm_flow_table_context_layout =
	PRM_LAYOUT("flow_table_context", PRM_FLOW_TABLE_CTX_SIZE, flow_table_context_fields);

static const struct prm_field create_flow_table_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_SUB("flow_table_context", PRM_FLOW_TABLE_CTX_OFFSET, prm_flow_table_context_layout,
		PRM_FLOW_TABLE_CTX_SIZE),
};
const struct prm_layout prm_create_flow_table_in_layout =
	PRM_LAYOUT("create_flow_table_in", PRM_FLOW_CMD_SIZE, create_flow_table_in_fields);

static const struct prm_field table_id_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("table_id", 2, 23, 0),
};
const struct prm_layout prm_create_flow_table_out_layout =
	PRM_LAYOUT("create_flow_table_out", PRM_FLOW_SMALL_CMD_SIZE, table_id_out_fields);

static const struct prm_field table_ref_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
};
const struct prm_layout prm_destroy_flow_table_in_layout =
	PRM_LAYOUT("destroy_flow_table_in", PRM_FLOW_CMD_SIZE, table_ref_in_fields);

static const struct prm_field set_root_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
	PRM_BITS("underlay_qpn", 6, 23, 0),
};
const struct prm_layout prm_set_flow_table_root_in_layout =
	PRM_LAYOUT("set_flow_table_root_in", PRM_FLOW_CMD_SIZE, set_root_in_fields);

static const struct prm_field create_flow_group_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
	PRM_DW("start_flow_index", 7),
	PRM_DW("end_flow_index", 9),
	PRM_BITS("match_criteria_enable", 15, 7, 0),
	PRM_SUB("match_criteria", PRM_FLOW_GROUP_CRITERIA_OFFSET, prm_match_param_layout, PRM_MATCH_PARAM_SIZE),
};
const struct prm_layout prm_create_flow_group_in_layout =
	PRM_LAYOUT("create_flow_group_in", PRM_CREATE_FLOW_GROUP_IN_SIZE, create_flow_group_in_fields);

static const struct prm_field group_id_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("group_id", 2, 23, 0),
};
const struct prm_layout prm_create_flow_group_out_layout =
	PRM_LAYOUT("create_flow_group_out", PRM_FLOW_SMALL_CMD_SIZE, group_id_out_fields);

static const struct prm_field destroy_flow_group_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("table_type", 4, 31, 24),
	PRM_BITS("table_id", 5, 23, 0),
	PRM_DW("group_id", 6),
};
const struct prm_layout prm_destroy_flow_group_in_layout =
	PRM_LAYOUT("destroy_flow_group_in", PRM_FLOW_CMD_SIZE, destroy_flow_group_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_destroy_flow_table_out_layout =
	PRM_LAYOUT("destroy_flow_table_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_set_flow_table_root_out_layout =
	PRM_LAYOUT("set_flow_table_root_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_destroy_flow_group_out_layout =
	PRM_LAYOUT("destroy_flow_group_out", PRM_FLOW_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_param_map create_flow_table_in_map[] = {
	PRM_MAP(struct prm_create_flow_table_params, uid, "uid"),
	PRM_MAP(struct prm_create_flow_table_params, table_type, "table_type"),
	PRM_MAP(struct prm_create_flow_table_params, ctx.table_miss_action, "flow_table_context.table_miss_action"),
	PRM_MAP(struct prm_create_flow_table_params, ctx.level, "flow_table_context.level"),
	PRM_MAP(struct prm_create_flow_table_params, ctx.log_size, "flow_table_context.log_size"),
	PRM_MAP(struct prm_create_flow_table_params, ctx.table_miss_id, "flow_table_context.table_miss_id"),
};

static const struct prm_param_map table_ref_in_map[] = {
	PRM_MAP(struct prm_flow_table_ref, uid, "uid"),
	PRM_MAP(struct prm_flow_table_ref, table_type, "table_type"),
	PRM_MAP(struct prm_flow_table_ref, table_id, "table_id"),
};

static const struct prm_param_map set_root_in_map[] = {
	PRM_MAP(struct prm_set_flow_table_root_params, uid, "uid"),
	PRM_MAP(struct prm_set_flow_table_root_params, op_mod, "op_mod"),
	PRM_MAP(struct prm_set_flow_table_root_params, table_type, "table_type"),
	PRM_MAP(struct prm_set_flow_table_root_params, table_id, "table_id"),
	PRM_MAP(struct prm_set_flow_table_root_params, underlay_qpn, "underlay_qpn"),
};

static const struct prm_param_map create_flow_group_in_map[] = {
	PRM_MAP(struct prm_create_flow_group_params, uid, "uid"),
	PRM_MAP(struct prm_create_flow_group_params, table_type, "table_type"),
	PRM_MAP(struct prm_create_flow_group_params, table_id, "table_id"),
	PRM_MAP(struct prm_create_flow_group_params, start_flow_index, "start_flow_index"),
	PRM_MAP(struct prm_create_flow_group_params, end_flow_index, "end_flow_index"),
	PRM_MAP(struct prm_create_flow_group_params, match_criteria_enable, "match_criteria_enable"),
};

static const struct prm_param_map destroy_flow_group_in_map[] = {
	PRM_MAP(struct prm_destroy_flow_group_params, uid, "uid"),
	PRM_MAP(struct prm_destroy_flow_group_params, table_type, "table_type"),
	PRM_MAP(struct prm_destroy_flow_group_params, table_id, "table_id"),
	PRM_MAP(struct prm_destroy_flow_group_params, group_id, "group_id"),
};

/*
 * Parsers read into a zeroed scratch copy (size bytes of it) so that the caller's struct is
 * untouched on failure.
 */
union parse_scratch {
	struct prm_create_flow_table_params ft;
	struct prm_flow_table_ref ref;
	struct prm_set_flow_table_root_params root;
	struct prm_create_flow_group_params fg;
	struct prm_destroy_flow_group_params dfg;
};

static doca_error_t parse_copy(const struct prm_layout *layout, uint16_t opcode, const struct prm_param_map *map,
			       size_t n, const void *in, size_t len, void *p, size_t size)
{
	union parse_scratch v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(layout, opcode, map, n, in, len, p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, size);
	return err;
}

doca_error_t prm_create_flow_table_in_build(const struct prm_create_flow_table_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_flow_table_in_layout, PRM_CMD_CREATE_FLOW_TABLE,
				       create_flow_table_in_map, PRM_MAP_COUNT(create_flow_table_in_map), in, len, p);
}

doca_error_t prm_create_flow_table_in_parse(const void *in, size_t len, struct prm_create_flow_table_params *p)
{
	return parse_copy(&prm_create_flow_table_in_layout, PRM_CMD_CREATE_FLOW_TABLE, create_flow_table_in_map,
			  PRM_MAP_COUNT(create_flow_table_in_map), in, len, p, sizeof(*p));
}

doca_error_t prm_create_flow_table_out_build(uint32_t table_id, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_flow_table_out_layout, out, len, "table_id", table_id);
}

doca_error_t prm_create_flow_table_out_parse(const void *out, size_t len, uint32_t *table_id)
{
	return prm_cmd_obj_out_parse(&prm_create_flow_table_out_layout, PRM_CMD_CREATE_FLOW_TABLE, out, len,
				     "table_id", table_id);
}

doca_error_t prm_destroy_flow_table_in_build(const struct prm_flow_table_ref *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_destroy_flow_table_in_layout, PRM_CMD_DESTROY_FLOW_TABLE, table_ref_in_map,
				       PRM_MAP_COUNT(table_ref_in_map), in, len, p);
}

doca_error_t prm_destroy_flow_table_in_parse(const void *in, size_t len, struct prm_flow_table_ref *p)
{
	return parse_copy(&prm_destroy_flow_table_in_layout, PRM_CMD_DESTROY_FLOW_TABLE, table_ref_in_map,
			  PRM_MAP_COUNT(table_ref_in_map), in, len, p, sizeof(*p));
}

doca_error_t prm_set_flow_table_root_in_build(const struct prm_set_flow_table_root_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_set_flow_table_root_in_layout, PRM_CMD_SET_FLOW_TABLE_ROOT,
				       set_root_in_map, PRM_MAP_COUNT(set_root_in_map), in, len, p);
}

doca_error_t prm_set_flow_table_root_in_parse(const void *in, size_t len, struct prm_set_flow_table_root_params *p)
{
	return parse_copy(&prm_set_flow_table_root_in_layout, PRM_CMD_SET_FLOW_TABLE_ROOT, set_root_in_map,
			  PRM_MAP_COUNT(set_root_in_map), in, len, p, sizeof(*p));
}

doca_error_t prm_create_flow_group_in_build(const struct prm_create_flow_group_params *p, void *in, size_t len)
{
	doca_error_t err;

	err = prm_cmd_mapped_in_build(&prm_create_flow_group_in_layout, PRM_CMD_CREATE_FLOW_GROUP,
				      create_flow_group_in_map, PRM_MAP_COUNT(create_flow_group_in_map), in, len, p);
	if (err != DOCA_SUCCESS)
		return err;
	/* The rest of the match parameter stays as the builder cleared it: zero. */
	return prm_match_lyr_2_4_build(&p->match_criteria,
				       (uint8_t *)in + PRM_FLOW_GROUP_CRITERIA_OFFSET + PRM_MATCH_OUTER_OFFSET,
				       PRM_MATCH_SET_SIZE);
}

doca_error_t prm_create_flow_group_in_parse(const void *in, size_t len, struct prm_create_flow_group_params *p)
{
	struct prm_create_flow_group_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_create_flow_group_in_layout, PRM_CMD_CREATE_FLOW_GROUP,
				      create_flow_group_in_map, PRM_MAP_COUNT(create_flow_group_in_map), in, len,
				      p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		err = prm_match_lyr_2_4_parse(
			(const uint8_t *)in + PRM_FLOW_GROUP_CRITERIA_OFFSET + PRM_MATCH_OUTER_OFFSET,
			PRM_MATCH_SET_SIZE, &v.match_criteria);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

doca_error_t prm_create_flow_group_out_build(uint32_t group_id, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_flow_group_out_layout, out, len, "group_id", group_id);
}

doca_error_t prm_create_flow_group_out_parse(const void *out, size_t len, uint32_t *group_id)
{
	return prm_cmd_obj_out_parse(&prm_create_flow_group_out_layout, PRM_CMD_CREATE_FLOW_GROUP, out, len,
				     "group_id", group_id);
}

doca_error_t prm_destroy_flow_group_in_build(const struct prm_destroy_flow_group_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_destroy_flow_group_in_layout, PRM_CMD_DESTROY_FLOW_GROUP,
				       destroy_flow_group_in_map, PRM_MAP_COUNT(destroy_flow_group_in_map), in, len, p);
}

doca_error_t prm_destroy_flow_group_in_parse(const void *in, size_t len, struct prm_destroy_flow_group_params *p)
{
	return parse_copy(&prm_destroy_flow_group_in_layout, PRM_CMD_DESTROY_FLOW_GROUP, destroy_flow_group_in_map,
			  PRM_MAP_COUNT(destroy_flow_group_in_map), in, len, p, sizeof(*p));
}
