/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RQ layouts, builders and parsers. Positions: Linux include/linux/mlx5/mlx5_ifc.h
 * mlx5_ifc_rqc_bits, create_rq_in/out, modify_rq_in (and its MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_*
 * enum), destroy_rq_in, query_rq_in/out; rqc.ts_format (dw0 [5:4], bit 0x1a) from the kernel
 * change that added it to rqc and sqc alike. Bit offsets in mlx5_ifc.h convert to
 * "dwN [hi:lo]" as N = off / 32, hi = 31 - off % 32:
 *
 *   rqc   rlky 0x0        dw0 [31]       delay_drop_en 0x1   dw0 [30]    scatter_fcs 0x2  dw0 [29]
 *         vsd 0x3         dw0 [28]       mem_rq_type 0x4     dw0 [27:24] state 0x8        dw0 [23:20]
 *         flush_in_error_en 0xd dw0 [18] ts_format 0x1a      dw0 [5:4]
 *         user_index 0x28 dw1 [23:0]     cqn 0x48            dw2 [23:0]  counter_set_id 0x60 dw3 [31:24]
 *         rmpn 0x88       dw4 [23:0]     wq 0x180            byte 0x30 (prm_wq_layout)
 *   create_rq_in / modify_rq_in: ctx at bit 0x100 (byte 0x20); modify_rq_in rq_state 0x40 dw2 [31:28],
 *         rqn 0x48 dw2 [23:0], modify_bitmask 0x80 (64 bits at byte 0x10)
 *   create_rq_out rqn 0x48 dw2 [23:0]; destroy_rq_in / query_rq_in rqn 0x48 dw2 [23:0]
 *   query_rq_out  rq_context at bit 0x100 (byte 0x20)
 */
#include "prm/prm_rq.h"

#include "prm/prm_cmd.h"

#include <string.h>

static const struct prm_field rqc_fields[] = {
	PRM_BITS("rlky", 0, 31, 31),
	PRM_BITS("delay_drop_en", 0, 30, 30),
	PRM_BITS("scatter_fcs", 0, 29, 29),
	PRM_BITS("vsd", 0, 28, 28),
	PRM_BITS("mem_rq_type", 0, 27, 24),
	PRM_BITS("state", 0, 23, 20),
	PRM_BITS("flush_in_error_en", 0, 18, 18),
	PRM_BITS("ts_format", 0, 5, 4),
	PRM_BITS("user_index", 1, 23, 0),
	PRM_BITS("cqn", 2, 23, 0),
	PRM_BITS("counter_set_id", 3, 31, 24),
	PRM_BITS("rmpn", 4, 23, 0),
	PRM_SUB("wq", PRM_RQC_WQ_OFFSET, prm_wq_layout, PRM_WQ_SIZE),
};
const struct prm_layout prm_rqc_layout = PRM_LAYOUT("rqc", PRM_RQC_SIZE, rqc_fields);

static const struct prm_field create_rq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("ctx", PRM_RQC_OFFSET, prm_rqc_layout, PRM_RQC_SIZE),
};
const struct prm_layout prm_create_rq_in_layout = PRM_LAYOUT("create_rq_in", PRM_RQ_CMD_SIZE, create_rq_in_fields);

static const struct prm_field rqn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("rqn", 2, 23, 0),
};
const struct prm_layout prm_create_rq_out_layout = PRM_LAYOUT("create_rq_out", PRM_RQ_SMALL_CMD_SIZE, rqn_out_fields);

static const struct prm_field modify_rq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("rq_state", 2, 31, 28),
	PRM_BITS("rqn", 2, 23, 0),
	PRM_U64("modify_bitmask", 0x10),
	PRM_SUB("ctx", PRM_RQC_OFFSET, prm_rqc_layout, PRM_RQC_SIZE),
};
const struct prm_layout prm_modify_rq_in_layout = PRM_LAYOUT("modify_rq_in", PRM_RQ_CMD_SIZE, modify_rq_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_modify_rq_out_layout = PRM_LAYOUT("modify_rq_out", PRM_RQ_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_destroy_rq_out_layout =
	PRM_LAYOUT("destroy_rq_out", PRM_RQ_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_field rqn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("rqn", 2, 23, 0),
};
const struct prm_layout prm_destroy_rq_in_layout = PRM_LAYOUT("destroy_rq_in", PRM_RQ_SMALL_CMD_SIZE, rqn_in_fields);
const struct prm_layout prm_query_rq_in_layout = PRM_LAYOUT("query_rq_in", PRM_RQ_SMALL_CMD_SIZE, rqn_in_fields);

static const struct prm_field query_rq_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_SUB("rq_context", PRM_RQC_OFFSET, prm_rqc_layout, PRM_RQC_SIZE),
};
const struct prm_layout prm_query_rq_out_layout = PRM_LAYOUT("query_rq_out", PRM_RQ_CMD_SIZE, query_rq_out_fields);

/* Every rqc member, as X(member, path below the rqc). */
#define RQC_MEMBERS(X)                                                                             \
	X(rlky, "rlky")                                                                            \
	X(delay_drop_en, "delay_drop_en")                                                          \
	X(scatter_fcs, "scatter_fcs")                                                              \
	X(vsd, "vsd")                                                                              \
	X(mem_rq_type, "mem_rq_type")                                                              \
	X(state, "state")                                                                          \
	X(flush_in_error_en, "flush_in_error_en")                                                  \
	X(ts_format, "ts_format")                                                                  \
	X(user_index, "user_index")                                                                \
	X(cqn, "cqn")                                                                              \
	X(counter_set_id, "counter_set_id")                                                        \
	X(rmpn, "rmpn")                                                                            \
	PRM_WQ_MEMBERS(X)

#define CREATE_RQC(m, path) PRM_MAP(struct prm_create_rq_params, rqc.m, "ctx." path),
static const struct prm_param_map create_rq_in_map[] = {
	PRM_MAP(struct prm_create_rq_params, uid, "uid"),
	RQC_MEMBERS(CREATE_RQC)
};
#undef CREATE_RQC

#define MODIFY_RQC(m, path) PRM_MAP(struct prm_modify_rq_params, rqc.m, "ctx." path),
static const struct prm_param_map modify_rq_in_map[] = {
	PRM_MAP(struct prm_modify_rq_params, uid, "uid"),
	PRM_MAP(struct prm_modify_rq_params, rq_state, "rq_state"),
	PRM_MAP(struct prm_modify_rq_params, rqn, "rqn"),
	PRM_MAP(struct prm_modify_rq_params, modify_bitmask, "modify_bitmask"),
	RQC_MEMBERS(MODIFY_RQC)
};
#undef MODIFY_RQC

#define QUERY_RQC(m, path) PRM_MAP(struct prm_rqc_params, m, "rq_context." path),
static const struct prm_param_map query_rq_out_map[] = {
	RQC_MEMBERS(QUERY_RQC)
};
#undef QUERY_RQC

/* Parsers read into a zeroed local copy so that the caller's struct is untouched on failure. */
doca_error_t prm_create_rq_in_build(const struct prm_create_rq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_rq_in_layout, PRM_CMD_CREATE_RQ, create_rq_in_map,
				       PRM_MAP_COUNT(create_rq_in_map), in, len, p);
}

doca_error_t prm_create_rq_in_parse(const void *in, size_t len, struct prm_create_rq_params *p)
{
	struct prm_create_rq_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_create_rq_in_layout, PRM_CMD_CREATE_RQ, create_rq_in_map,
				      PRM_MAP_COUNT(create_rq_in_map), in, len, p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

doca_error_t prm_modify_rq_in_build(const struct prm_modify_rq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_modify_rq_in_layout, PRM_CMD_MODIFY_RQ, modify_rq_in_map,
				       PRM_MAP_COUNT(modify_rq_in_map), in, len, p);
}

doca_error_t prm_modify_rq_in_parse(const void *in, size_t len, struct prm_modify_rq_params *p)
{
	struct prm_modify_rq_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_modify_rq_in_layout, PRM_CMD_MODIFY_RQ, modify_rq_in_map,
				      PRM_MAP_COUNT(modify_rq_in_map), in, len, p != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

doca_error_t prm_destroy_rq_in_build(uint16_t uid, uint32_t rqn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_rq_in_layout, PRM_CMD_DESTROY_RQ, in, len, uid, "rqn", rqn);
}

doca_error_t prm_destroy_rq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_rq_in_layout, PRM_CMD_DESTROY_RQ, in, len, uid, "rqn", rqn);
}

doca_error_t prm_query_rq_in_build(uint16_t uid, uint32_t rqn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_query_rq_in_layout, PRM_CMD_QUERY_RQ, in, len, uid, "rqn", rqn);
}

doca_error_t prm_query_rq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqn)
{
	return prm_cmd_obj_in_parse(&prm_query_rq_in_layout, PRM_CMD_QUERY_RQ, in, len, uid, "rqn", rqn);
}

doca_error_t prm_create_rq_out_build(uint32_t rqn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_rq_out_layout, out, len, "rqn", rqn);
}

doca_error_t prm_create_rq_out_parse(const void *out, size_t len, uint32_t *rqn)
{
	return prm_cmd_obj_out_parse(&prm_create_rq_out_layout, PRM_CMD_CREATE_RQ, out, len, "rqn", rqn);
}

doca_error_t prm_query_rq_out_build(const struct prm_rqc_params *rqc, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_rq_out_layout, query_rq_out_map, PRM_MAP_COUNT(query_rq_out_map),
					out, len, rqc);
}

doca_error_t prm_query_rq_out_parse(const void *out, size_t len, struct prm_rqc_params *rqc)
{
	struct prm_rqc_params v;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_out_parse(&prm_query_rq_out_layout, PRM_CMD_QUERY_RQ, query_rq_out_map,
				       PRM_MAP_COUNT(query_rq_out_map), out, len, rqc != NULL ? &v : NULL);
	if (err == DOCA_SUCCESS)
		memcpy(rqc, &v, sizeof(v));
	return err;
}
