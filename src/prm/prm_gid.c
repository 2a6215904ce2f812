/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GID command layouts, builders and parsers. Positions: Linux mlx5_ifc.h
 * roce_addr_layout, query_roce_address_in/out, query_hca_vport_gid_in/out.
 */
#include "prm/prm_gid.h"

#include "core/log.h"
#include "prm/prm_cmd.h"

/* A byte string of n bytes at a byte offset, copied with prm_w_bytes / prm_r_bytes. */
#define GID_BYTES(fname, byte, n) {(fname), (uint32_t)(byte) * 8u, (uint32_t)(n) * 8u, NULL}

static const struct prm_field roce_addr_fields[] = {
	GID_BYTES("source_l3_address", 0x0, PRM_GID_LEN),
	PRM_BITS("vlan_valid", 4, 28, 28),
	PRM_BITS("vlan_id", 4, 27, 16),
	PRM_BITS("source_mac_47_32", 4, 15, 0),
	PRM_DW("source_mac_31_0", 5),
	PRM_BITS("roce_l3_type", 6, 11, 8),
	PRM_BITS("roce_version", 6, 7, 0),
};
const struct prm_layout prm_roce_addr_layout = PRM_LAYOUT("roce_addr_layout", PRM_ROCE_ADDR_SIZE, roce_addr_fields);

static const struct prm_field query_roce_address_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("roce_address_index", 2, 31, 16),
	PRM_BITS("vhca_port_num", 2, 3, 0),
};
const struct prm_layout prm_query_roce_address_in_layout =
	PRM_LAYOUT("query_roce_address_in", PRM_QUERY_ROCE_ADDRESS_IN_SIZE, query_roce_address_in_fields);

static const struct prm_field query_roce_address_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_SUB("roce_address", 0x10, prm_roce_addr_layout, PRM_ROCE_ADDR_SIZE),
};
const struct prm_layout prm_query_roce_address_out_layout =
	PRM_LAYOUT("query_roce_address_out", PRM_QUERY_ROCE_ADDRESS_OUT_SIZE, query_roce_address_out_fields);

static const struct prm_field query_hca_vport_gid_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("other_vport", 2, 31, 31),
	PRM_BITS("port_num", 2, 19, 16),
	PRM_BITS("vport_number", 2, 15, 0),
	PRM_BITS("gid_index", 3, 15, 0),
};
const struct prm_layout prm_query_hca_vport_gid_in_layout =
	PRM_LAYOUT("query_hca_vport_gid_in", PRM_QUERY_HCA_VPORT_GID_IN_SIZE, query_hca_vport_gid_in_fields);

static const struct prm_field query_hca_vport_gid_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("gids_num", 3, 31, 16),
	GID_BYTES("gid", 0x10, PRM_GID_LEN),
};
const struct prm_layout prm_query_hca_vport_gid_out_layout =
	PRM_LAYOUT("query_hca_vport_gid_out", PRM_QUERY_HCA_VPORT_GID_OUT_SIZE, query_hca_vport_gid_out_fields);

static const struct prm_param_map query_roce_address_in_map[] = {
	PRM_MAP(struct prm_query_roce_address_params, uid, "uid"),
	PRM_MAP(struct prm_query_roce_address_params, roce_address_index, "roce_address_index"),
	PRM_MAP(struct prm_query_roce_address_params, vhca_port_num, "vhca_port_num"),
};

static const struct prm_param_map query_hca_vport_gid_in_map[] = {
	PRM_MAP(struct prm_query_hca_vport_gid_params, uid, "uid"),
	PRM_MAP(struct prm_query_hca_vport_gid_params, other_vport, "other_vport"),
	PRM_MAP(struct prm_query_hca_vport_gid_params, port_num, "port_num"),
	PRM_MAP(struct prm_query_hca_vport_gid_params, vport_number, "vport_number"),
	PRM_MAP(struct prm_query_hca_vport_gid_params, gid_index, "gid_index"),
};

static doca_error_t null_params(const char *what)
{
	OGDA_LOG_ERR("%s: parameters must not be NULL", what);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t prm_query_roce_address_in_build(const struct prm_query_roce_address_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_query_roce_address_in_layout, PRM_CMD_QUERY_ROCE_ADDRESS,
				       query_roce_address_in_map, PRM_MAP_COUNT(query_roce_address_in_map), in, len, p);
}

doca_error_t prm_query_roce_address_in_parse(const void *in, size_t len, struct prm_query_roce_address_params *p)
{
	struct prm_query_roce_address_params v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_in_parse(&prm_query_roce_address_in_layout, PRM_CMD_QUERY_ROCE_ADDRESS,
				      query_roce_address_in_map, PRM_MAP_COUNT(query_roce_address_in_map), in, len,
				      p ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_query_roce_address_out_build(const struct prm_roce_address_params *p, void *out, size_t len)
{
	const uint8_t *mac;
	struct prm_writer w;

	if (p == NULL)
		return null_params("query_roce_address_out");
	mac = p->source_mac;
	prm_writer_init(&w, &prm_query_roce_address_out_layout, out, len);
	prm_w_bytes(&w, "roce_address.source_l3_address", p->source_l3_address, PRM_GID_LEN);
	prm_w(&w, "roce_address.vlan_valid", p->vlan_valid);
	prm_w(&w, "roce_address.vlan_id", p->vlan_id);
	/* The MAC is split across two fields, high 16 bits first: six contiguous bytes. */
	prm_w(&w, "roce_address.source_mac_47_32", ((uint32_t)mac[0] << 8) | mac[1]);
	prm_w(&w, "roce_address.source_mac_31_0",
	      ((uint32_t)mac[2] << 24) | ((uint32_t)mac[3] << 16) | ((uint32_t)mac[4] << 8) | mac[5]);
	prm_w(&w, "roce_address.roce_l3_type", p->roce_l3_type);
	prm_w(&w, "roce_address.roce_version", p->roce_version);
	return w.err;
}

doca_error_t prm_query_roce_address_out_parse(const void *out, size_t len, struct prm_roce_address_params *p)
{
	struct prm_roce_address_params v = {0};
	struct prm_reader r;
	uint32_t mac_hi, mac_lo;
	doca_error_t err;

	if (p == NULL)
		return null_params("query_roce_address_out");
	err = prm_cmd_out_check(out, len, prm_query_roce_address_out_layout.size, PRM_CMD_QUERY_ROCE_ADDRESS);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, &prm_query_roce_address_out_layout, out, len);
	prm_r_bytes(&r, "roce_address.source_l3_address", v.source_l3_address, PRM_GID_LEN);
	v.vlan_valid = (uint8_t)prm_r(&r, "roce_address.vlan_valid");
	v.vlan_id = (uint16_t)prm_r(&r, "roce_address.vlan_id");
	mac_hi = (uint32_t)prm_r(&r, "roce_address.source_mac_47_32");
	mac_lo = (uint32_t)prm_r(&r, "roce_address.source_mac_31_0");
	v.roce_l3_type = (uint8_t)prm_r(&r, "roce_address.roce_l3_type");
	v.roce_version = (uint8_t)prm_r(&r, "roce_address.roce_version");
	if (r.err != DOCA_SUCCESS)
		return r.err;
	v.source_mac[0] = (uint8_t)(mac_hi >> 8);
	v.source_mac[1] = (uint8_t)mac_hi;
	v.source_mac[2] = (uint8_t)(mac_lo >> 24);
	v.source_mac[3] = (uint8_t)(mac_lo >> 16);
	v.source_mac[4] = (uint8_t)(mac_lo >> 8);
	v.source_mac[5] = (uint8_t)mac_lo;
	*p = v;
	return DOCA_SUCCESS;
}

doca_error_t prm_query_hca_vport_gid_in_build(const struct prm_query_hca_vport_gid_params *p, void *in, size_t len)
{
	return prm_cmd_mapped_in_build(&prm_query_hca_vport_gid_in_layout, PRM_CMD_QUERY_HCA_VPORT_GID,
				       query_hca_vport_gid_in_map, PRM_MAP_COUNT(query_hca_vport_gid_in_map), in, len,
				       p);
}

doca_error_t prm_query_hca_vport_gid_in_parse(const void *in, size_t len, struct prm_query_hca_vport_gid_params *p)
{
	struct prm_query_hca_vport_gid_params v = {0};
	doca_error_t err;

	err = prm_cmd_mapped_in_parse(&prm_query_hca_vport_gid_in_layout, PRM_CMD_QUERY_HCA_VPORT_GID,
				      query_hca_vport_gid_in_map, PRM_MAP_COUNT(query_hca_vport_gid_in_map), in, len,
				      p ? &v : NULL);
	if (err == DOCA_SUCCESS)
		*p = v;
	return err;
}

doca_error_t prm_query_hca_vport_gid_out_build(const struct prm_hca_vport_gid_params *p, void *out, size_t len)
{
	struct prm_writer w;

	if (p == NULL)
		return null_params("query_hca_vport_gid_out");
	prm_writer_init(&w, &prm_query_hca_vport_gid_out_layout, out, len);
	prm_w(&w, "gids_num", p->gids_num);
	prm_w_bytes(&w, "gid", p->gid, PRM_GID_LEN);
	return w.err;
}

doca_error_t prm_query_hca_vport_gid_out_parse(const void *out, size_t len, struct prm_hca_vport_gid_params *p)
{
	struct prm_hca_vport_gid_params v = {0};
	struct prm_reader r;
	doca_error_t err;

	if (p == NULL)
		return null_params("query_hca_vport_gid_out");
	err = prm_cmd_out_check(out, len, prm_query_hca_vport_gid_out_layout.size, PRM_CMD_QUERY_HCA_VPORT_GID);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, &prm_query_hca_vport_gid_out_layout, out, len);
	v.gids_num = (uint16_t)prm_r(&r, "gids_num");
	prm_r_bytes(&r, "gid", v.gid, PRM_GID_LEN);
	if (r.err != DOCA_SUCCESS)
		return r.err;
	*p = v;
	return DOCA_SUCCESS;
}
