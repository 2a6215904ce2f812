/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QUERY_HCA_CAP layouts, builders and parsers. Positions are the PRM's (Linux
 * mlx5_ifc.h cmd_hca_cap / roce_cap / atomic_caps; cmd_hca_cap_2 from rdma-core's
 * mlx5_prm_structs.py), written "dwN [hi:lo]" relative to the capability page.
 */
#include "prm/prm_hca_cap.h"

#include "core/log.h"
#include "prm/prm_cmd.h"

static const struct prm_field query_hca_cap_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("other_function", 2, 31, 31),
	PRM_BITS("function_id", 2, 15, 0),
};
const struct prm_layout prm_query_hca_cap_in_layout =
	PRM_LAYOUT("query_hca_cap_in", PRM_QUERY_HCA_CAP_IN_SIZE, query_hca_cap_in_fields);

static const struct prm_field hca_cap_general_fields[] = {
	PRM_BITS("hca_cap_2", 1, 31, 31),
	PRM_BITS("vhca_id", 1, 15, 0),
	PRM_BITS("log_max_srq_sz", 4, 31, 24),
	PRM_BITS("log_max_qp_sz", 4, 23, 16),
	PRM_BITS("log_max_qp", 4, 4, 0),
	PRM_BITS("log_max_srq", 5, 20, 16),
	PRM_BITS("max_sgl_for_optimized_performance", 6, 31, 24),
	PRM_BITS("log_max_cq_sz", 6, 23, 16),
	PRM_BITS("log_max_cq", 6, 4, 0),
	PRM_BITS("log_max_mkey", 7, 21, 16),
	PRM_BITS("log_max_mrw_sz", 8, 22, 16),
	PRM_BITS("log_max_ra_req_qp", 10, 21, 16),
	PRM_BITS("log_max_ra_res_qp", 10, 5, 0),
	PRM_BITS("gid_table_size", 11, 15, 0),
	PRM_BITS("pkey_table_size", 12, 15, 0),
	PRM_BITS("local_ca_ack_delay", 13, 20, 16),
	PRM_BITS("port_type", 13, 9, 8),
	PRM_BITS("num_ports", 13, 7, 0),
	PRM_BITS("log_max_msg", 14, 28, 24),
	PRM_BITS("cqe_version", 15, 3, 0),
	PRM_BITS("roce", 16, 2, 2),
	PRM_BITS("atomic", 16, 1, 1),
	PRM_BITS("cq_oi", 17, 31, 31),
	PRM_BITS("cq_resize", 17, 30, 30),
	PRM_BITS("cq_moderation", 17, 29, 29),
	PRM_BITS("cd", 17, 19, 19),
	PRM_BITS("xrc", 17, 3, 3),
	PRM_BITS("ud", 17, 2, 2),
	PRM_BITS("uc", 17, 1, 1),
	PRM_BITS("rc", 17, 0, 0),
	PRM_BITS("uar_4k", 18, 31, 31),
	PRM_BITS("uar_sz", 18, 21, 16),
	PRM_BITS("log_pg_sz", 18, 7, 0),
	PRM_BITS("bf", 19, 31, 31),
	PRM_BITS("log_bf_reg_size", 19, 20, 16),
	PRM_BITS("max_wqe_sz_sq", 20, 15, 0),
	PRM_BITS("max_wqe_sz_rq", 21, 15, 0),
	PRM_BITS("log_max_transport_domain", 25, 28, 24),
	PRM_BITS("log_max_pd", 25, 20, 16),
	PRM_BITS("basic_cyclic_rcv_wqe", 28, 31, 31),
	PRM_BITS("log_max_rmp", 28, 28, 24),
	PRM_BITS("log_max_wq_sz", 30, 4, 0),
	PRM_BITS("log_max_uctx", 35, 28, 24),
	PRM_BITS("log_max_umem", 35, 20, 16),
	PRM_BITS("log_uar_page_sz", 36, 15, 0),
	PRM_DW("num_of_uars_per_page", 41),
};
const struct prm_layout prm_hca_cap_general_layout =
	PRM_LAYOUT("cmd_hca_cap", PRM_HCA_CAP_PAGE_SIZE, hca_cap_general_fields);

static const struct prm_field hca_cap_roce_fields[] = {
	PRM_BITS("roce_apm", 0, 31, 31),
	PRM_BITS("sw_r_roce_src_udp_port", 0, 27, 27),
	PRM_BITS("qp_ts_format", 0, 1, 0),
	PRM_BITS("l3_type", 4, 19, 16),
	PRM_BITS("roce_version", 4, 7, 0),
	PRM_BITS("r_roce_dest_udp_port", 5, 15, 0),
	PRM_BITS("r_roce_max_src_udp_port", 6, 31, 16),
	PRM_BITS("r_roce_min_src_udp_port", 6, 15, 0),
	PRM_BITS("roce_address_table_size", 7, 15, 0),
};
const struct prm_layout prm_hca_cap_roce_layout = PRM_LAYOUT("roce_cap", PRM_HCA_CAP_PAGE_SIZE, hca_cap_roce_fields);

static const struct prm_field hca_cap_atomic_fields[] = {
	PRM_BITS("atomic_req_8B_endianness_mode", 2, 31, 30),
	PRM_BITS("supported_atomic_req_8B_endianness_mode_1", 2, 25, 25),
	PRM_BITS("atomic_operations", 4, 15, 0),
	PRM_BITS("atomic_size_qp", 5, 15, 0),
	PRM_BITS("atomic_size_dc", 6, 15, 0),
};
const struct prm_layout prm_hca_cap_atomic_layout =
	PRM_LAYOUT("atomic_caps", PRM_HCA_CAP_PAGE_SIZE, hca_cap_atomic_fields);

static const struct prm_field hca_cap_general_2_fields[] = {
	PRM_BITS("send_dbr_mode_no_dbr_int", 23, 31, 31),
	PRM_BITS("send_dbr_mode_no_dbr_ext", 23, 30, 30),
	PRM_BITS("log_max_send_dbr_less_qp_sq", 23, 28, 24),
};
const struct prm_layout prm_hca_cap_general_2_layout =
	PRM_LAYOUT("cmd_hca_cap_2", PRM_HCA_CAP_PAGE_SIZE, hca_cap_general_2_fields);

#define QUERY_HCA_CAP_OUT(var, page_layout, lname)                                                 \
	static const struct prm_field var##_fields[] = {                                           \
		PRM_CMD_OUT_HDR_FIELDS,                                                            \
		PRM_SUB("capability", PRM_HCA_CAP_OFFSET, page_layout, PRM_HCA_CAP_PAGE_SIZE),                            \
	};                                                                                         \
	const struct prm_layout var = PRM_LAYOUT(lname, PRM_QUERY_HCA_CAP_OUT_SIZE, var##_fields)

QUERY_HCA_CAP_OUT(prm_query_hca_cap_out_general_layout, prm_hca_cap_general_layout, "query_hca_cap_out(general)");
QUERY_HCA_CAP_OUT(prm_query_hca_cap_out_roce_layout, prm_hca_cap_roce_layout, "query_hca_cap_out(roce)");
QUERY_HCA_CAP_OUT(prm_query_hca_cap_out_atomic_layout, prm_hca_cap_atomic_layout, "query_hca_cap_out(atomic)");
QUERY_HCA_CAP_OUT(prm_query_hca_cap_out_general_2_layout, prm_hca_cap_general_2_layout,
		  "query_hca_cap_out(general_2)");

#define G(member) PRM_MAP(struct prm_hca_cap_general, member, "capability." #member)
static const struct prm_param_map general_map[] = {
	G(hca_cap_2),
	G(vhca_id),
	G(log_max_srq_sz),
	G(log_max_qp_sz),
	G(log_max_qp),
	G(log_max_srq),
	G(max_sgl_for_optimized_performance),
	G(log_max_cq_sz),
	G(log_max_cq),
	G(log_max_mkey),
	G(log_max_mrw_sz),
	G(log_max_ra_req_qp),
	G(log_max_ra_res_qp),
	G(gid_table_size),
	G(pkey_table_size),
	G(local_ca_ack_delay),
	G(port_type),
	G(num_ports),
	G(log_max_msg),
	G(cqe_version),
	G(roce),
	G(atomic),
	G(cq_oi),
	G(cq_resize),
	G(cq_moderation),
	G(cd),
	G(xrc),
	G(ud),
	G(uc),
	G(rc),
	G(uar_4k),
	G(uar_sz),
	G(log_pg_sz),
	G(bf),
	G(log_bf_reg_size),
	G(max_wqe_sz_sq),
	G(max_wqe_sz_rq),
	G(log_max_transport_domain),
	G(log_max_pd),
	G(basic_cyclic_rcv_wqe),
	G(log_max_rmp),
	G(log_max_wq_sz),
	G(log_max_uctx),
	G(log_max_umem),
	G(log_uar_page_sz),
	G(num_of_uars_per_page),
};
#undef G

#define R(member) PRM_MAP(struct prm_hca_cap_roce, member, "capability." #member)
static const struct prm_param_map roce_map[] = {
	R(roce_apm),
	R(sw_r_roce_src_udp_port),
	R(qp_ts_format),
	R(l3_type),
	R(roce_version),
	R(r_roce_dest_udp_port),
	R(r_roce_max_src_udp_port),
	R(r_roce_min_src_udp_port),
	R(roce_address_table_size),
};
#undef R

#define A(member) PRM_MAP(struct prm_hca_cap_atomic, member, "capability." #member)
static const struct prm_param_map atomic_map[] = {
	A(atomic_req_8B_endianness_mode),
	A(supported_atomic_req_8B_endianness_mode_1),
	A(atomic_operations),
	A(atomic_size_qp),
	A(atomic_size_dc),
};
#undef A

#define G2(member) PRM_MAP(struct prm_hca_cap_general_2, member, "capability." #member)
static const struct prm_param_map general_2_map[] = {
	G2(send_dbr_mode_no_dbr_int),
	G2(send_dbr_mode_no_dbr_ext),
	G2(log_max_send_dbr_less_qp_sq),
};
#undef G2

doca_error_t prm_query_hca_cap_in_build(const struct prm_query_hca_cap_params *p, void *in, size_t len)
{
	struct prm_writer w;

	if (p == NULL) {
		OGDA_LOG_ERR("query_hca_cap_in parameters must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (p->cap_type > 0x7fff || p->current > 1) {
		OGDA_LOG_ERR("query_hca_cap_in: cap_type 0x%x / current %u out of range", p->cap_type, p->current);
		return DOCA_ERROR_INVALID_VALUE;
	}
	prm_writer_init(&w, &prm_query_hca_cap_in_layout, in, len);
	prm_w(&w, "opcode", PRM_CMD_QUERY_HCA_CAP);
	prm_w(&w, "uid", p->uid);
	prm_w(&w, "op_mod", ((uint32_t)p->cap_type << 1) | p->current);
	prm_w(&w, "other_function", p->other_function);
	prm_w(&w, "function_id", p->function_id);
	return w.err;
}

doca_error_t prm_query_hca_cap_in_parse(const void *in, size_t len, struct prm_query_hca_cap_params *p)
{
	struct prm_query_hca_cap_params v = {0};
	struct prm_reader r;
	uint16_t op_mod;
	doca_error_t err;

	if (p == NULL) {
		OGDA_LOG_ERR("query_hca_cap_in parameters must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_expect(in, len, &prm_query_hca_cap_in_layout, PRM_CMD_QUERY_HCA_CAP);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, &prm_query_hca_cap_in_layout, in, len);
	v.uid = (uint16_t)prm_r(&r, "uid");
	op_mod = (uint16_t)prm_r(&r, "op_mod");
	v.other_function = (uint8_t)prm_r(&r, "other_function");
	v.function_id = (uint16_t)prm_r(&r, "function_id");
	if (r.err != DOCA_SUCCESS)
		return r.err;
	v.cap_type = (uint16_t)(op_mod >> 1);
	v.current = (uint8_t)(op_mod & 1u);
	*p = v;
	return DOCA_SUCCESS;
}

/* Parsers read into a local copy so that the caller's struct is untouched on failure. */
doca_error_t prm_hca_cap_general_build(const struct prm_hca_cap_general *caps, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_hca_cap_out_general_layout, general_map, PRM_MAP_COUNT(general_map),
					out, len, caps);
}

doca_error_t prm_hca_cap_general_parse(const void *out, size_t len, struct prm_hca_cap_general *caps)
{
	struct prm_hca_cap_general v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_out_parse(&prm_query_hca_cap_out_general_layout, PRM_CMD_QUERY_HCA_CAP,
				       general_map, PRM_MAP_COUNT(general_map), out, len, caps ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*caps = v;
	return err;
}

doca_error_t prm_hca_cap_roce_build(const struct prm_hca_cap_roce *caps, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_hca_cap_out_roce_layout, roce_map, PRM_MAP_COUNT(roce_map),
					out, len, caps);
}

doca_error_t prm_hca_cap_roce_parse(const void *out, size_t len, struct prm_hca_cap_roce *caps)
{
	struct prm_hca_cap_roce v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_out_parse(&prm_query_hca_cap_out_roce_layout, PRM_CMD_QUERY_HCA_CAP,
				       roce_map, PRM_MAP_COUNT(roce_map), out, len, caps ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*caps = v;
	return err;
}

doca_error_t prm_hca_cap_atomic_build(const struct prm_hca_cap_atomic *caps, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_hca_cap_out_atomic_layout, atomic_map, PRM_MAP_COUNT(atomic_map),
					out, len, caps);
}

doca_error_t prm_hca_cap_atomic_parse(const void *out, size_t len, struct prm_hca_cap_atomic *caps)
{
	struct prm_hca_cap_atomic v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_out_parse(&prm_query_hca_cap_out_atomic_layout, PRM_CMD_QUERY_HCA_CAP,
				       atomic_map, PRM_MAP_COUNT(atomic_map), out, len, caps ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*caps = v;
	return err;
}

doca_error_t prm_hca_cap_general_2_build(const struct prm_hca_cap_general_2 *caps, void *out, size_t len)
{
	return prm_cmd_mapped_out_build(&prm_query_hca_cap_out_general_2_layout, general_2_map,
					PRM_MAP_COUNT(general_2_map), out, len, caps);
}

doca_error_t prm_hca_cap_general_2_parse(const void *out, size_t len, struct prm_hca_cap_general_2 *caps)
{
	struct prm_hca_cap_general_2 v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_out_parse(&prm_query_hca_cap_out_general_2_layout, PRM_CMD_QUERY_HCA_CAP,
				       general_2_map, PRM_MAP_COUNT(general_2_map), out, len, caps ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*caps = v;
	return err;
}
