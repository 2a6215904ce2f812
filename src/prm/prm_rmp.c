/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RMP layouts, builders and parsers. Positions: Linux mlx5_ifc.h wq / rmpc / *_rmp_in/out;
 * the wq umem fields (dbr_umem_id dw10, wq_umem_id dw11, wq_umem_offset at 0x30) from
 * DPDK mlx5_prm.h and later kernels (they are reserved bits in the 6.1 header). The striding
 * fields (mlx5_ifc_wq_bits: log_wqe_num_of_strides at bit 0x134, two_byte_shift_en at 0x138,
 * log_wqe_stride_size at 0x13d) are dw9 [11:8], [7] and [2:0].
 */
#include "prm/prm_rmp.h"

#include "prm/prm_cmd.h"

static const struct prm_field wq_fields[] = {
	PRM_BITS("wq_type", 0, 31, 28),
	PRM_BITS("wq_signature", 0, 27, 27),
	PRM_BITS("end_padding_mode", 0, 26, 25),
	PRM_BITS("cd_slave", 0, 24, 24),
	PRM_BITS("page_offset", 1, 20, 16),
	PRM_BITS("lwm", 1, 15, 0),
	PRM_BITS("pd", 2, 23, 0),
	PRM_BITS("uar_page", 3, 23, 0),
	PRM_U64("dbr_addr", 0x10),
	PRM_DW("hw_counter", 6),
	PRM_DW("sw_counter", 7),
	PRM_BITS("log_wq_stride", 8, 19, 16),
	PRM_BITS("log_wq_pg_sz", 8, 12, 8),
	PRM_BITS("log_wq_sz", 8, 4, 0),
	PRM_BITS("dbr_umem_valid", 9, 31, 31),
	PRM_BITS("wq_umem_valid", 9, 30, 30),
	PRM_BITS("log_wqe_num_of_strides", 9, 11, 8),
	PRM_BITS("two_byte_shift_en", 9, 7, 7),
	PRM_BITS("log_wqe_stride_size", 9, 2, 0),
	PRM_DW("dbr_umem_id", 10),
	PRM_DW("wq_umem_id", 11),
	PRM_U64("wq_umem_offset", 0x30),
};
const struct prm_layout prm_wq_layout = PRM_LAYOUT("wq", PRM_WQ_SIZE, wq_fields);

static const struct prm_field rmpc_fields[] = {
	PRM_BITS("state", 0, 23, 20),
	PRM_BITS("basic_cyclic_rcv_wqe", 1, 31, 31),
	PRM_SUB("wq", PRM_RMPC_WQ_OFFSET, prm_wq_layout, PRM_WQ_SIZE),
};
const struct prm_layout prm_rmpc_layout = PRM_LAYOUT("rmpc", PRM_RMPC_SIZE, rmpc_fields);

static const struct prm_field create_rmp_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("ctx", PRM_RMPC_OFFSET, prm_rmpc_layout, PRM_RMPC_SIZE),
};
const struct prm_layout prm_create_rmp_in_layout = PRM_LAYOUT("create_rmp_in", PRM_RMP_CMD_SIZE, create_rmp_in_fields);

static const struct prm_field rmpn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("rmpn", 2, 23, 0),
};
const struct prm_layout prm_create_rmp_out_layout =
	PRM_LAYOUT("create_rmp_out", PRM_RMP_SMALL_CMD_SIZE, rmpn_out_fields);

static const struct prm_field rmpn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("rmpn", 2, 23, 0),
};
const struct prm_layout prm_destroy_rmp_in_layout =
	PRM_LAYOUT("destroy_rmp_in", PRM_RMP_SMALL_CMD_SIZE, rmpn_in_fields);
const struct prm_layout prm_query_rmp_in_layout = PRM_LAYOUT("query_rmp_in", PRM_RMP_SMALL_CMD_SIZE, rmpn_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_destroy_rmp_out_layout =
	PRM_LAYOUT("destroy_rmp_out", PRM_RMP_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_modify_rmp_out_layout =
	PRM_LAYOUT("modify_rmp_out", PRM_RMP_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_field query_rmp_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_SUB("rmp_context", PRM_RMPC_OFFSET, prm_rmpc_layout, PRM_RMPC_SIZE),
};
const struct prm_layout prm_query_rmp_out_layout = PRM_LAYOUT("query_rmp_out", PRM_RMP_CMD_SIZE, query_rmp_out_fields);

static const struct prm_field modify_rmp_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("rmp_state", 2, 31, 28),
	PRM_BITS("rmpn", 2, 23, 0),
	PRM_U64("bitmask", 0x10),
	PRM_SUB("ctx", PRM_RMPC_OFFSET, prm_rmpc_layout, PRM_RMPC_SIZE),
};
const struct prm_layout prm_modify_rmp_in_layout = PRM_LAYOUT("modify_rmp_in", PRM_RMP_CMD_SIZE, modify_rmp_in_fields);

/* Every rmpc member, as X(member, path below the rmpc). */
#define RMPC_MEMBERS(X)                                                                            \
	X(state, "state")                                                                          \
	X(basic_cyclic_rcv_wqe, "basic_cyclic_rcv_wqe")                                            \
	PRM_WQ_MEMBERS(X)

#define CREATE_RMPC(m, path) PRM_MAP(struct prm_create_rmp_params, rmpc.m, "ctx." path),
static const struct prm_param_map create_rmp_in_map[] = {
	PRM_MAP(struct prm_create_rmp_params, uid, "uid"),
	RMPC_MEMBERS(CREATE_RMPC)
};
#undef CREATE_RMPC

#define MODIFY_RMPC(m, path) PRM_MAP(struct prm_modify_rmp_params, rmpc.m, "ctx." path),
static const struct prm_param_map modify_rmp_in_map[] = {
	PRM_MAP(struct prm_modify_rmp_params, uid, "uid"),
	PRM_MAP(struct prm_modify_rmp_params, rmp_state, "rmp_state"),
	PRM_MAP(struct prm_modify_rmp_params, rmpn, "rmpn"),
	PRM_MAP(struct prm_modify_rmp_params, bitmask, "bitmask"),
	RMPC_MEMBERS(MODIFY_RMPC)
};
#undef MODIFY_RMPC

#define QUERY_RMPC(m, path) PRM_MAP(struct prm_rmpc_params, m, "rmp_context." path),
static const struct prm_param_map query_rmp_out_map[] = {
	RMPC_MEMBERS(QUERY_RMPC)
};
#undef QUERY_RMPC

/* Parsers read into a local copy so that the caller's struct is untouched on failure. */
doca_error_t prm_create_rmp_in_build(const struct prm_create_rmp_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_create_rmp_in_layout, PRM_CMD_CREATE_RMP, create_rmp_in_map,
				       PRM_MAP_COUNT(create_rmp_in_map), in, len, p);
}

doca_error_t prm_create_rmp_in_parse(const void *in, size_t len, struct prm_create_rmp_params *p)
{
	struct prm_create_rmp_params v = {0};
	doca_error_t err = prm_cmd_mapped_in_parse(&prm_create_rmp_in_layout, PRM_CMD_CREATE_RMP, create_rmp_in_map,
						   PRM_MAP_COUNT(create_rmp_in_map), in, len, p ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_destroy_rmp_in_build(uint16_t uid, uint32_t rmpn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_rmp_in_layout, PRM_CMD_DESTROY_RMP, in, len, uid, "rmpn", rmpn);
}

doca_error_t prm_destroy_rmp_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rmpn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_rmp_in_layout, PRM_CMD_DESTROY_RMP, in, len, uid, "rmpn", rmpn);
}

doca_error_t prm_query_rmp_in_build(uint16_t uid, uint32_t rmpn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_query_rmp_in_layout, PRM_CMD_QUERY_RMP, in, len, uid, "rmpn", rmpn);
}

doca_error_t prm_query_rmp_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rmpn)
{
	return prm_cmd_obj_in_parse(&prm_query_rmp_in_layout, PRM_CMD_QUERY_RMP, in, len, uid, "rmpn", rmpn);
}

doca_error_t prm_modify_rmp_in_build(const struct prm_modify_rmp_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_modify_rmp_in_layout, PRM_CMD_MODIFY_RMP, modify_rmp_in_map,
				       PRM_MAP_COUNT(modify_rmp_in_map), in, len, p);
}

doca_error_t prm_modify_rmp_in_parse(const void *in, size_t len, struct prm_modify_rmp_params *p)
{
	struct prm_modify_rmp_params v = {0};
	doca_error_t err = prm_cmd_mapped_in_parse(&prm_modify_rmp_in_layout, PRM_CMD_MODIFY_RMP, modify_rmp_in_map,
						   PRM_MAP_COUNT(modify_rmp_in_map), in, len, p ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_create_rmp_out_build(uint32_t rmpn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_rmp_out_layout, out, len, "rmpn", rmpn);
}

doca_error_t prm_create_rmp_out_parse(const void *out, size_t len, uint32_t *rmpn)
{
	return prm_cmd_obj_out_parse(&prm_create_rmp_out_layout, PRM_CMD_CREATE_RMP, out, len, "rmpn", rmpn);
}

doca_error_t prm_destroy_rmp_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_destroy_rmp_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_DESTROY_RMP);
}

doca_error_t prm_query_rmp_out_build(const struct prm_rmpc_params *rmpc, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_rmp_out_layout, query_rmp_out_map,
					PRM_MAP_COUNT(query_rmp_out_map), out, len, rmpc);
}

doca_error_t prm_query_rmp_out_parse(const void *out, size_t len, struct prm_rmpc_params *rmpc)
{
	struct prm_rmpc_params v = {0};
	doca_error_t err = prm_cmd_mapped_out_parse(&prm_query_rmp_out_layout, PRM_CMD_QUERY_RMP, query_rmp_out_map,
						    PRM_MAP_COUNT(query_rmp_out_map), out, len, rmpc ? &v : NULL);

	if (err == DOCA_SUCCESS)
		*rmpc = v;
	return err;
}

doca_error_t prm_modify_rmp_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_modify_rmp_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_MODIFY_RMP);
}
