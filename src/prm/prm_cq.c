/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ layouts, builders and parsers. Positions: Linux mlx5_ifc.h cqc / *_cq_in/out, with
 * the DevX umem fields (cqc.dbr_umem_id, cq_umem_offset/id/valid) from reference/mlx5.md
 * B.9 (DPDK mlx5_prm.h). cqc.c_eqn is dw5 [7:0] as in DPDK and B.9; newer kernels name
 * the whole dw5 c_eqn_or_apu_element, which reads the same for an 8-bit EQ number.
 */
#include "prm/prm_cq.h"

#include "prm/prm_cmd.h"

static const struct prm_field cqc_fields[] = {
	PRM_BITS("status", 0, 31, 28),
	PRM_BITS("dbr_umem_valid", 0, 25, 25),
	PRM_BITS("cqe_sz", 0, 23, 21),
	PRM_BITS("cc", 0, 20, 20),
	PRM_BITS("scqe_break_moderation_en", 0, 18, 18),
	PRM_BITS("oi", 0, 17, 17),
	PRM_BITS("cq_period_mode", 0, 16, 15),
	PRM_BITS("cqe_comp_en", 0, 14, 14),
	PRM_BITS("mini_cqe_res_format", 0, 13, 12),
	PRM_BITS("st", 0, 11, 8),
	PRM_DW("dbr_umem_id", 1),
	PRM_BITS("page_offset", 2, 11, 6),
	PRM_BITS("log_cq_size", 3, 28, 24),
	PRM_BITS("uar_page", 3, 23, 0),
	PRM_BITS("cq_period", 4, 27, 16),
	PRM_BITS("cq_max_count", 4, 15, 0),
	PRM_BITS("c_eqn", 5, 7, 0),
	PRM_BITS("log_page_size", 6, 28, 24),
	PRM_BITS("last_notified_index", 8, 23, 0),
	PRM_BITS("last_solicit_index", 9, 23, 0),
	PRM_BITS("consumer_counter", 10, 23, 0),
	PRM_BITS("producer_counter", 11, 23, 0),
	PRM_U64("dbr_addr", 0x38),
};
const struct prm_layout prm_cqc_layout = PRM_LAYOUT("cqc", PRM_CQC_SIZE, cqc_fields);

static const struct prm_field create_cq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("cq_context", PRM_CQC_OFFSET, prm_cqc_layout, PRM_CQC_SIZE),
	PRM_U64("cq_umem_offset", 0x50),
	PRM_DW("cq_umem_id", 22),
	PRM_BITS("cq_umem_valid", 23, 31, 31),
};
const struct prm_layout prm_create_cq_in_layout =
	PRM_LAYOUT("create_cq_in", PRM_CREATE_CQ_IN_SIZE, create_cq_in_fields);

static const struct prm_field cqn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("cqn", 2, 23, 0),
};
const struct prm_layout prm_create_cq_out_layout = PRM_LAYOUT("create_cq_out", PRM_CQ_SMALL_CMD_SIZE, cqn_out_fields);

static const struct prm_field cqn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("cqn", 2, 23, 0),
};
const struct prm_layout prm_destroy_cq_in_layout = PRM_LAYOUT("destroy_cq_in", PRM_CQ_SMALL_CMD_SIZE, cqn_in_fields);
const struct prm_layout prm_query_cq_in_layout = PRM_LAYOUT("query_cq_in", PRM_CQ_SMALL_CMD_SIZE, cqn_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_destroy_cq_out_layout =
	PRM_LAYOUT("destroy_cq_out", PRM_CQ_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_modify_cq_out_layout = PRM_LAYOUT("modify_cq_out", PRM_CQ_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_field query_cq_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_SUB("cq_context", PRM_CQC_OFFSET, prm_cqc_layout, PRM_CQC_SIZE),
};
const struct prm_layout prm_query_cq_out_layout =
	PRM_LAYOUT("query_cq_out", PRM_QUERY_CQ_OUT_SIZE, query_cq_out_fields);

static const struct prm_field modify_cq_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("cqn", 2, 23, 0),
	PRM_DW("modify_field_select", 3),
	PRM_SUB("cq_context", PRM_CQC_OFFSET, prm_cqc_layout, PRM_CQC_SIZE),
	PRM_BITS("cq_umem_valid", 23, 31, 31),
};
const struct prm_layout prm_modify_cq_in_layout =
	PRM_LAYOUT("modify_cq_in", PRM_MODIFY_CQ_IN_SIZE, modify_cq_in_fields);

/* Every cqc member, as X(member); the field name equals the member name. */
#define CQC_MEMBERS(X)                                                                             \
	X(status) X(dbr_umem_valid) X(cqe_sz) X(cc) X(scqe_break_moderation_en) X(oi) X(cq_period_mode)  \
	X(cqe_comp_en) X(mini_cqe_res_format) X(st) X(dbr_umem_id) X(page_offset) X(log_cq_size)         \
	X(uar_page) X(cq_period) X(cq_max_count) X(c_eqn) X(log_page_size) X(last_notified_index)        \
	X(last_solicit_index) X(consumer_counter) X(producer_counter) X(dbr_addr)

#define CREATE_CQC(m) PRM_MAP(struct prm_create_cq_params, cqc.m, "cq_context." #m),
static const struct prm_param_map create_cq_in_map[] = {
	PRM_MAP(struct prm_create_cq_params, uid, "uid"),
	CQC_MEMBERS(CREATE_CQC)
	PRM_MAP(struct prm_create_cq_params, cq_umem_offset, "cq_umem_offset"),
	PRM_MAP(struct prm_create_cq_params, cq_umem_id, "cq_umem_id"),
	PRM_MAP(struct prm_create_cq_params, cq_umem_valid, "cq_umem_valid"),
};
#undef CREATE_CQC

#define MODIFY_CQC(m) PRM_MAP(struct prm_modify_cq_params, cqc.m, "cq_context." #m),
static const struct prm_param_map modify_cq_in_map[] = {
	PRM_MAP(struct prm_modify_cq_params, uid, "uid"),
	PRM_MAP(struct prm_modify_cq_params, op_mod, "op_mod"),
	PRM_MAP(struct prm_modify_cq_params, cqn, "cqn"),
	PRM_MAP(struct prm_modify_cq_params, modify_field_select, "modify_field_select"),
	CQC_MEMBERS(MODIFY_CQC)
	PRM_MAP(struct prm_modify_cq_params, cq_umem_valid, "cq_umem_valid"),
};
#undef MODIFY_CQC

#define QUERY_CQC(m) PRM_MAP(struct prm_cqc_params, m, "cq_context." #m),
static const struct prm_param_map query_cq_out_map[] = {
	CQC_MEMBERS(QUERY_CQC)
};
#undef QUERY_CQC

/* Parsers read into a local copy so that the caller's struct is untouched on failure. */
doca_error_t prm_create_cq_in_build(const struct prm_create_cq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_cq_in_layout, PRM_CMD_CREATE_CQ, create_cq_in_map,
				       PRM_MAP_COUNT(create_cq_in_map), in, len, p);
}

doca_error_t prm_create_cq_in_parse(const void *in, size_t len, struct prm_create_cq_params *p)
{
	struct prm_create_cq_params v = {0};
	doca_error_t err = prm_cmd_mapped_in_parse(&prm_create_cq_in_layout, PRM_CMD_CREATE_CQ, create_cq_in_map,
						   PRM_MAP_COUNT(create_cq_in_map), in, len, p ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_destroy_cq_in_build(uint16_t uid, uint32_t cqn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_cq_in_layout, PRM_CMD_DESTROY_CQ, in, len, uid, "cqn", cqn);
}

doca_error_t prm_destroy_cq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *cqn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_cq_in_layout, PRM_CMD_DESTROY_CQ, in, len, uid, "cqn", cqn);
}

doca_error_t prm_query_cq_in_build(uint16_t uid, uint32_t cqn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_query_cq_in_layout, PRM_CMD_QUERY_CQ, in, len, uid, "cqn", cqn);
}

doca_error_t prm_query_cq_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *cqn)
{
	return prm_cmd_obj_in_parse(&prm_query_cq_in_layout, PRM_CMD_QUERY_CQ, in, len, uid, "cqn", cqn);
}

doca_error_t prm_modify_cq_in_build(const struct prm_modify_cq_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_modify_cq_in_layout, PRM_CMD_MODIFY_CQ, modify_cq_in_map,
				       PRM_MAP_COUNT(modify_cq_in_map), in, len, p);
}

doca_error_t prm_modify_cq_in_parse(const void *in, size_t len, struct prm_modify_cq_params *p)
{
	struct prm_modify_cq_params v = {0};
	doca_error_t err = prm_cmd_mapped_in_parse(&prm_modify_cq_in_layout, PRM_CMD_MODIFY_CQ, modify_cq_in_map,
						   PRM_MAP_COUNT(modify_cq_in_map), in, len, p ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_create_cq_out_build(uint32_t cqn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_cq_out_layout, out, len, "cqn", cqn);
}

doca_error_t prm_create_cq_out_parse(const void *out, size_t len, uint32_t *cqn)
{
	return prm_cmd_obj_out_parse(&prm_create_cq_out_layout, PRM_CMD_CREATE_CQ, out, len, "cqn", cqn);
}

doca_error_t prm_destroy_cq_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_destroy_cq_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_DESTROY_CQ);
}

doca_error_t prm_query_cq_out_build(const struct prm_cqc_params *cqc, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_cq_out_layout, query_cq_out_map, PRM_MAP_COUNT(query_cq_out_map),
					out, len, cqc);
}

doca_error_t prm_query_cq_out_parse(const void *out, size_t len, struct prm_cqc_params *cqc)
{
	struct prm_cqc_params v = {0};
	doca_error_t err = prm_cmd_mapped_out_parse(&prm_query_cq_out_layout, PRM_CMD_QUERY_CQ, query_cq_out_map,
						    PRM_MAP_COUNT(query_cq_out_map), out, len, cqc ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*cqc = v;
	return err;
}

doca_error_t prm_modify_cq_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_modify_cq_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_MODIFY_CQ);
}
