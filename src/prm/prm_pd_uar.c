/* SPDX-License-Identifier: BSD-3-Clause */
#include "prm/prm_pd_uar.h"

#include "prm/prm_cmd.h"

static const struct prm_field hdr_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
};
static const struct prm_field pd_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("pd", 2, 23, 0),
};
static const struct prm_field uar_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("uar", 2, 23, 0),
};
static const struct prm_field td_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("transport_domain", 2, 23, 0),
};
static const struct prm_field td_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("transport_domain", 2, 23, 0),
};
static const struct prm_field hdr_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
static const struct prm_field pd_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("pd", 2, 23, 0),
};
static const struct prm_field uar_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("uar", 2, 23, 0),
};

const struct prm_layout prm_alloc_pd_in_layout = PRM_LAYOUT("alloc_pd_in", PRM_PD_UAR_CMD_SIZE, hdr_in_fields);
const struct prm_layout prm_alloc_pd_out_layout = PRM_LAYOUT("alloc_pd_out", PRM_PD_UAR_CMD_SIZE, pd_out_fields);
const struct prm_layout prm_dealloc_pd_in_layout = PRM_LAYOUT("dealloc_pd_in", PRM_PD_UAR_CMD_SIZE, pd_in_fields);
const struct prm_layout prm_dealloc_pd_out_layout =
	PRM_LAYOUT("dealloc_pd_out", PRM_PD_UAR_CMD_SIZE, hdr_out_fields);
const struct prm_layout prm_alloc_td_in_layout =
	PRM_LAYOUT("alloc_transport_domain_in", PRM_PD_UAR_CMD_SIZE, hdr_in_fields);
const struct prm_layout prm_alloc_td_out_layout =
	PRM_LAYOUT("alloc_transport_domain_out", PRM_PD_UAR_CMD_SIZE, td_out_fields);
const struct prm_layout prm_dealloc_td_in_layout =
	PRM_LAYOUT("dealloc_transport_domain_in", PRM_PD_UAR_CMD_SIZE, td_in_fields);
const struct prm_layout prm_dealloc_td_out_layout =
	PRM_LAYOUT("dealloc_transport_domain_out", PRM_PD_UAR_CMD_SIZE, hdr_out_fields);
const struct prm_layout prm_alloc_uar_in_layout = PRM_LAYOUT("alloc_uar_in", PRM_PD_UAR_CMD_SIZE, hdr_in_fields);
const struct prm_layout prm_alloc_uar_out_layout = PRM_LAYOUT("alloc_uar_out", PRM_PD_UAR_CMD_SIZE, uar_out_fields);
const struct prm_layout prm_dealloc_uar_in_layout =
	PRM_LAYOUT("dealloc_uar_in", PRM_PD_UAR_CMD_SIZE, uar_in_fields);
const struct prm_layout prm_dealloc_uar_out_layout =
	PRM_LAYOUT("dealloc_uar_out", PRM_PD_UAR_CMD_SIZE, hdr_out_fields);

doca_error_t prm_alloc_pd_in_build(uint16_t uid, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_alloc_pd_in_layout, PRM_CMD_ALLOC_PD, in, len, uid, NULL, 0);
}

doca_error_t prm_alloc_pd_in_parse(const void *in, size_t len, uint16_t *uid)
{
	return prm_cmd_obj_in_parse(&prm_alloc_pd_in_layout, PRM_CMD_ALLOC_PD, in, len, uid, NULL, NULL);
}

doca_error_t prm_dealloc_pd_in_build(uint16_t uid, uint32_t pdn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_dealloc_pd_in_layout, PRM_CMD_DEALLOC_PD, in, len, uid, "pd", pdn);
}

doca_error_t prm_dealloc_pd_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *pdn)
{
	return prm_cmd_obj_in_parse(&prm_dealloc_pd_in_layout, PRM_CMD_DEALLOC_PD, in, len, uid, "pd", pdn);
}

doca_error_t prm_alloc_uar_in_build(uint16_t uid, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_alloc_uar_in_layout, PRM_CMD_ALLOC_UAR, in, len, uid, NULL, 0);
}

doca_error_t prm_alloc_uar_in_parse(const void *in, size_t len, uint16_t *uid)
{
	return prm_cmd_obj_in_parse(&prm_alloc_uar_in_layout, PRM_CMD_ALLOC_UAR, in, len, uid, NULL, NULL);
}

doca_error_t prm_dealloc_uar_in_build(uint16_t uid, uint32_t uar, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_dealloc_uar_in_layout, PRM_CMD_DEALLOC_UAR, in, len, uid, "uar", uar);
}

doca_error_t prm_dealloc_uar_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *uar)
{
	return prm_cmd_obj_in_parse(&prm_dealloc_uar_in_layout, PRM_CMD_DEALLOC_UAR, in, len, uid, "uar", uar);
}

doca_error_t prm_alloc_pd_out_build(uint32_t pdn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_alloc_pd_out_layout, out, len, "pd", pdn);
}

doca_error_t prm_alloc_pd_out_parse(const void *out, size_t len, uint32_t *pdn)
{
	return prm_cmd_obj_out_parse(&prm_alloc_pd_out_layout, PRM_CMD_ALLOC_PD, out, len, "pd", pdn);
}

doca_error_t prm_dealloc_pd_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_dealloc_pd_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_DEALLOC_PD);
}

doca_error_t prm_alloc_uar_out_build(uint32_t uar, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_alloc_uar_out_layout, out, len, "uar", uar);
}

doca_error_t prm_alloc_uar_out_parse(const void *out, size_t len, uint32_t *uar)
{
	return prm_cmd_obj_out_parse(&prm_alloc_uar_out_layout, PRM_CMD_ALLOC_UAR, out, len, "uar", uar);
}

doca_error_t prm_dealloc_uar_out_build(void *out, size_t len)
{
	return prm_cmd_empty_out_build(out, len);
}

doca_error_t prm_dealloc_uar_out_parse(const void *out, size_t len)
{
	return prm_cmd_empty_out_parse(out, len, PRM_CMD_DEALLOC_UAR);
}

doca_error_t prm_alloc_td_in_build(uint16_t uid, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_alloc_td_in_layout, PRM_CMD_ALLOC_TRANSPORT_DOMAIN, in, len, uid, NULL, 0);
}

doca_error_t prm_alloc_td_in_parse(const void *in, size_t len, uint16_t *uid)
{
	return prm_cmd_obj_in_parse(&prm_alloc_td_in_layout, PRM_CMD_ALLOC_TRANSPORT_DOMAIN, in, len, uid, NULL, NULL);
}

doca_error_t prm_alloc_td_out_build(uint32_t td, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_alloc_td_out_layout, out, len, "transport_domain", td);
}

doca_error_t prm_alloc_td_out_parse(const void *out, size_t len, uint32_t *td)
{
	return prm_cmd_obj_out_parse(&prm_alloc_td_out_layout, PRM_CMD_ALLOC_TRANSPORT_DOMAIN, out, len,
				     "transport_domain", td);
}

doca_error_t prm_dealloc_td_in_build(uint16_t uid, uint32_t td, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_dealloc_td_in_layout, PRM_CMD_DEALLOC_TRANSPORT_DOMAIN, in, len, uid,
				    "transport_domain", td);
}

doca_error_t prm_dealloc_td_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *td)
{
	return prm_cmd_obj_in_parse(&prm_dealloc_td_in_layout, PRM_CMD_DEALLOC_TRANSPORT_DOMAIN, in, len, uid,
				    "transport_domain", td);
}
