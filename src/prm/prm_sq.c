/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TIS and SQ layouts, builders and parsers. Positions: Linux mlx5_ifc.h tisc, sqc,
 * create_tis_in, create_sq_in, modify_sq_in, destroy_*; the sqc embeds the wq context of
 * prm_rmp.c at byte 0x30 (bit 0x180).
 */
#include "prm/prm_sq.h"

#include "prm/prm_cmd.h"

#include <string.h>

static const struct prm_field tisc_fields[] = {
	PRM_BITS("prio", 0, 19, 16),
	PRM_BITS("transport_domain", 9, 23, 0),
	PRM_BITS("underlay_qpn", 10, 23, 0),
	PRM_BITS("pd", 11, 23, 0),
};
const struct prm_layout prm_tisc_layout = PRM_LAYOUT("tisc", PRM_TISC_SIZE, tisc_fields);

static const struct prm_field create_tis_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("ctx", PRM_TISC_OFFSET, prm_tisc_layout, PRM_TISC_SIZE),
};
const struct prm_layout prm_create_tis_in_layout = PRM_LAYOUT("create_tis_in", PRM_TIS_CMD_SIZE, create_tis_in_fields);

static const struct prm_field tisn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("tisn", 2, 23, 0),
};
const struct prm_layout prm_create_tis_out_layout =
	PRM_LAYOUT("create_tis_out", PRM_SQ_SMALL_CMD_SIZE, tisn_out_fields);

static const struct prm_field tisn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("tisn", 2, 23, 0),
};
const struct prm_layout prm_destroy_tis_in_layout =
	PRM_LAYOUT("destroy_tis_in", PRM_SQ_SMALL_CMD_SIZE, tisn_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_destroy_tis_out_layout =
	PRM_LAYOUT("destroy_tis_out", PRM_SQ_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_modify_sq_out_layout =
	PRM_LAYOUT("modify_sq_out", PRM_SQ_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_destroy_sq_out_layout =
	PRM_LAYOUT("destroy_sq_out", PRM_SQ_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_field sqc_fields[] = {
	PRM_BITS("rlky", 0, 31, 31),
	PRM_BITS("cd_master", 0, 30, 30),
	PRM_BITS("fre", 0, 29, 29),
	PRM_BITS("flush_in_error_en", 0, 28, 28),
	PRM_BITS("allow_multi_pkt_send_wqe", 0, 27, 27),
	PRM_BITS("min_wqe_inline_mode", 0, 26, 24),
	PRM_BITS("state", 0, 23, 20),
	PRM_BITS("allow_swp", 0, 18, 18),
	PRM_BITS("ts_format", 0, 5, 4),
	PRM_BITS("user_index", 1, 23, 0),
	PRM_BITS("cqn", 2, 23, 0),
	PRM_BITS("packet_pacing_rate_limit_index", 7, 15, 0),
	PRM_BITS("tis_lst_sz", 8, 31, 16),
	PRM_BITS("tis_num_0", 11, 23, 0),
	PRM_SUB("wq", PRM_SQC_WQ_OFFSET, prm_wq_layout, PRM_WQ_SIZE),
};
const struct prm_layout prm_sqc_layout = PRM_LAYOUT("sqc", PRM_SQC_SIZE, sqc_fields);

static const struct prm_field create_sq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("ctx", PRM_SQC_OFFSET, prm_sqc_layout, PRM_SQC_SIZE),
};
const struct prm_layout prm_create_sq_in_layout = PRM_LAYOUT("create_sq_in", PRM_SQ_CMD_SIZE, create_sq_in_fields);

static const struct prm_field sqn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("sqn", 2, 23, 0),
};
const struct prm_layout prm_create_sq_out_layout = PRM_LAYOUT("create_sq_out", PRM_SQ_SMALL_CMD_SIZE, sqn_out_fields);

static const struct prm_field modify_sq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("sq_state", 2, 31, 28),
	PRM_BITS("sqn", 2, 23, 0),
	PRM_U64("modify_bitmask", 0x10),
	PRM_SUB("ctx", PRM_SQC_OFFSET, prm_sqc_layout, PRM_SQC_SIZE),
};
const struct prm_layout prm_modify_sq_in_layout = PRM_LAYOUT("modify_sq_in", PRM_SQ_CMD_SIZE, modify_sq_in_fields);

static const struct prm_field sqn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("sqn", 2, 23, 0),
};
const struct prm_layout prm_destroy_sq_in_layout = PRM_LAYOUT("destroy_sq_in", PRM_SQ_SMALL_CMD_SIZE, sqn_in_fields);

#define TISC_MEMBERS(X) X(prio, "prio") X(transport_domain, "transport_domain") X(pd, "pd")

#define SQC_MEMBERS(X)                                                                             \
	X(rlky, "rlky")                                                                            \
	X(cd_master, "cd_master")                                                                  \
	X(fre, "fre")                                                                              \
	X(flush_in_error_en, "flush_in_error_en")                                                  \
	X(allow_multi_pkt_send_wqe, "allow_multi_pkt_send_wqe")                                    \
	X(min_wqe_inline_mode, "min_wqe_inline_mode")                                              \
	X(state, "state")                                                                          \
	X(allow_swp, "allow_swp")                                                                  \
	X(ts_format, "ts_format")                                                                  \
	X(user_index, "user_index")                                                                \
	X(cqn, "cqn")                                                                              \
	X(packet_pacing_rate_limit_index, "packet_pacing_rate_limit_index")                        \
	X(tis_lst_sz, "tis_lst_sz")                                                                \
	X(tis_num_0, "tis_num_0")                                                                  \
	PRM_WQ_MEMBERS(X)

#define CREATE_TISC(m, path) PRM_MAP(struct prm_create_tis_params, tisc.m, "ctx." path),
static const struct prm_param_map create_tis_in_map[] = {
	PRM_MAP(struct prm_create_tis_params, uid, "uid"),
	TISC_MEMBERS(CREATE_TISC)
};
#undef CREATE_TISC

#define CREATE_SQC(m, path) PRM_MAP(struct prm_create_sq_params, sqc.m, "ctx." path),
static const struct prm_param_map create_sq_in_map[] = {
	PRM_MAP(struct prm_create_sq_params, uid, "uid"),
	SQC_MEMBERS(CREATE_SQC)
};
#undef CREATE_SQC

#define MODIFY_SQC(m, path) PRM_MAP(struct prm_modify_sq_params, sqc.m, "ctx." path),
static const struct prm_param_map modify_sq_in_map[] = {
	PRM_MAP(struct prm_modify_sq_params, uid, "uid"),
	PRM_MAP(struct prm_modify_sq_params, sq_state, "sq_state"),
	PRM_MAP(struct prm_modify_sq_params, sqn, "sqn"),
	PRM_MAP(struct prm_modify_sq_params, modify_bitmask, "modify_bitmask"),
	SQC_MEMBERS(MODIFY_SQC)
};
#undef MODIFY_SQC

/*
 * Parsers read into a zeroed scratch copy (size bytes, at most sizeof(union scratch)) so that the
 * caller's struct is untouched on failure.
 */
union parse_scratch {
	struct prm_create_tis_params tis;
	struct prm_create_sq_params sq;
	struct prm_modify_sq_params msq;
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

doca_error_t prm_create_tis_in_build(const struct prm_create_tis_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_tis_in_layout, PRM_CMD_CREATE_TIS, create_tis_in_map,
				       PRM_MAP_COUNT(create_tis_in_map), in, len, p);
}

doca_error_t prm_create_tis_in_parse(const void *in, size_t len, struct prm_create_tis_params *p)
{
	return parse_copy(&prm_create_tis_in_layout, PRM_CMD_CREATE_TIS, create_tis_in_map,
			  PRM_MAP_COUNT(create_tis_in_map), in, len, p, sizeof(*p));
}

doca_error_t prm_destroy_tis_in_build(uint16_t uid, uint32_t tisn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_tis_in_layout, PRM_CMD_DESTROY_TIS, in, len, uid, "tisn", tisn);
}

doca_error_t prm_destroy_tis_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *tisn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_tis_in_layout, PRM_CMD_DESTROY_TIS, in, len, uid, "tisn", tisn);
}

doca_error_t prm_create_sq_in_build(const struct prm_create_sq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_sq_in_layout, PRM_CMD_CREATE_SQ, create_sq_in_map,
				       PRM_MAP_COUNT(create_sq_in_map), in, len, p);
}

doca_error_t prm_create_sq_in_parse(const void *in, size_t len, struct prm_create_sq_params *p)
{
	return parse_copy(&prm_create_sq_in_layout, PRM_CMD_CREATE_SQ, create_sq_in_map, PRM_MAP_COUNT(create_sq_in_map),
			  in, len, p, sizeof(*p));
}

doca_error_t prm_modify_sq_in_build(const struct prm_modify_sq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_modify_sq_in_layout, PRM_CMD_MODIFY_SQ, modify_sq_in_map,
				       PRM_MAP_COUNT(modify_sq_in_map), in, len, p);
}

doca_error_t prm_modify_sq_in_parse(const void *in, size_t len, struct prm_modify_sq_params *p)
{
	return parse_copy(&prm_modify_sq_in_layout, PRM_CMD_MODIFY_SQ, modify_sq_in_map, PRM_MAP_COUNT(modify_sq_in_map),
			  in, len, p, sizeof(*p));
}

doca_error_t prm_destroy_sq_in_build(uint16_t uid, uint32_t sqn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_sq_in_layout, PRM_CMD_DESTROY_SQ, in, len, uid, "sqn", sqn);
}

doca_error_t prm_destroy_sq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *sqn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_sq_in_layout, PRM_CMD_DESTROY_SQ, in, len, uid, "sqn", sqn);
}

doca_error_t prm_create_tis_out_build(uint32_t tisn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_tis_out_layout, out, len, "tisn", tisn);
}

doca_error_t prm_create_tis_out_parse(const void *out, size_t len, uint32_t *tisn)
{
	return prm_cmd_obj_out_parse(&prm_create_tis_out_layout, PRM_CMD_CREATE_TIS, out, len, "tisn", tisn);
}

doca_error_t prm_create_sq_out_build(uint32_t sqn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_sq_out_layout, out, len, "sqn", sqn);
}

doca_error_t prm_create_sq_out_parse(const void *out, size_t len, uint32_t *sqn)
{
	return prm_cmd_obj_out_parse(&prm_create_sq_out_layout, PRM_CMD_CREATE_SQ, out, len, "sqn", sqn);
}
