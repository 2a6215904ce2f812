/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PRM command executor: dispatch on the opcode, length checks, the out mailbox on
 * failure, and the commands that touch no queue (capabilities, GIDs, PD, UAR).
 * Queue commands live in swnic_cmd_cq.c, swnic_cmd_qp*.c and swnic_cmd_rmp.c.
 */
#include "swnic/swnic_cmd_int.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_gid.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- failure reporting ---- */

uint8_t swnic_cmd_fail(struct swnic_cmd *c, uint8_t status, uint32_t syndrome, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	c->syndrome = syndrome;
	OGDA_LOG_ERR("%s: %s failed: %s (syndrome 0x%04x): %s", c->nic->name, prm_cmd_opcode_name(c->opcode),
		     prm_cmd_status_name(status), syndrome, why);
	return status;
}

uint8_t swnic_cmd_bad_param(struct swnic_cmd *c, uint32_t synd, const char *what, uint32_t v)
{
	return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, synd, "%s 0x%x", what, v);
}

uint8_t swnic_cmd_malformed(struct swnic_cmd *c)
{
	return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_MALFORMED, "the mailbox does not decode");
}

uint8_t swnic_cmd_table_fail(struct swnic_cmd *c, doca_error_t err, const char *what)
{
	if (err == DOCA_ERROR_FULL)
		return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_TABLE_FULL, "no more %ss", what);
	return swnic_cmd_fail(c, PRM_STATUS_NO_RESOURCES, SWNIC_SYND_NO_MEMORY, "cannot allocate a %s", what);
}

/* ---- queue placement ---- */

uint8_t swnic_cmd_place_queue(struct swnic_cmd *c, uint8_t umem_valid, uint32_t umem_id, uint64_t offset,
			      uint64_t bytes, struct swnic_umem **umem, uint8_t **addr)
{
	struct swnic_umem *u;

	if (!umem_valid)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_REQUIRED,
				      "queues must be placed in a umem (umem_valid = 0)");
	u = swnic_table_lookup(&c->nic->umems, umem_id);
	if (u == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_UMEM, "no umem 0x%x", umem_id);
	if (u->kind != OGDA_MEM_HOST)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_NOT_HOST,
				      "umem 0x%x is GPU memory: queue memory must be host-visible "
				      "(pinned host memory, mapped to the GPU if the GPU uses it)",
				      umem_id);
	if (offset > u->len || bytes > u->len - offset)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_UMEM_RANGE,
				      "queue of %llu bytes at offset %llu does not fit umem 0x%x (%zu bytes)",
				      (unsigned long long)bytes, (unsigned long long)offset, umem_id, u->len);
	*umem = u;
	*addr = u->addr + offset;
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_place_dbr(struct swnic_cmd *c, uint8_t dbr_umem_valid, uint32_t umem_id, uint64_t offset,
			    uint32_t bytes, uint32_t align, struct swnic_umem **umem, _Atomic uint32_t **dbr)
{
	struct swnic_umem *u;
	uint8_t *p;

	if (!dbr_umem_valid)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_REQUIRED,
				      "the doorbell record must be placed in a umem (dbr_umem_valid = 0)");
	u = swnic_table_lookup(&c->nic->umems, umem_id);
	if (u == NULL)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_DBR_UMEM, "no DBR umem 0x%x", umem_id);
	if (u->kind != OGDA_MEM_HOST)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_NOT_HOST,
				      "DBR umem 0x%x is GPU memory: queue memory must be host-visible", umem_id);
	if (offset > u->len || bytes > u->len - offset)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_RANGE,
				      "DBR at offset %llu does not fit umem 0x%x (%zu bytes)",
				      (unsigned long long)offset, umem_id, u->len);
	p = u->addr + offset;
	if (((uintptr_t)p & (align - 1u)) != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_DBR_ALIGN,
				      "DBR at %p is not %u-byte aligned", (void *)p, align);
	*umem = u;
	*dbr = (_Atomic uint32_t *)(void *)p;
	return PRM_STATUS_OK;
}

/* ---- capabilities and GIDs ---- */

uint8_t swnic_cmd_query_hca_cap(struct swnic_cmd *c)
{
	struct prm_query_hca_cap_params p;
	doca_error_t err;

	if (prm_query_hca_cap_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.other_function)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_OTHER_FUNCTION,
				      "other functions are not modelled (function_id 0x%x)", p.function_id);
	/* Maximum and current capabilities are the same: nothing in the model is switched off. */
	switch (p.cap_type) {
	case PRM_HCA_CAP_GENERAL:
		err = prm_hca_cap_general_build(&c->nic->cap_general, c->out, c->outlen);
		break;
	case PRM_HCA_CAP_ROCE:
		err = prm_hca_cap_roce_build(&c->nic->cap_roce, c->out, c->outlen);
		break;
	case PRM_HCA_CAP_ATOMIC:
		err = prm_hca_cap_atomic_build(&c->nic->cap_atomic, c->out, c->outlen);
		break;
	case PRM_HCA_CAP_GENERAL_2:
		err = prm_hca_cap_general_2_build(&c->nic->cap_general_2, c->out, c->outlen);
		break;
	default:
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_CAP_TYPE,
				      "capability type 0x%x is not modelled", p.cap_type);
	}
	return err == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_roce_address(struct swnic_cmd *c)
{
	struct prm_query_roce_address_params p;
	struct prm_roce_address_params a;
	const uint8_t *gid = c->nic->gid;

	if (prm_query_roce_address_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.vhca_port_num > SWNIC_PORT_NUM)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PORT, "no port %u", p.vhca_port_num);
	if (p.roce_address_index != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_GID_INDEX,
				      "GID index %u: the table has one entry", p.roce_address_index);
	memset(&a, 0, sizeof(a));
	memcpy(a.source_l3_address, gid, PRM_GID_LEN);
	/* A locally administered MAC made of the endpoint's port and address bytes. */
	a.source_mac[0] = 0x02;
	a.source_mac[1] = gid[10];
	a.source_mac[2] = gid[11];
	a.source_mac[3] = gid[13];
	a.source_mac[4] = gid[14];
	a.source_mac[5] = gid[15];
	a.roce_l3_type = PRM_ROCE_L3_TYPE_IPV6;
	a.roce_version = PRM_ROCE_ADDR_VERSION_2;
	return prm_query_roce_address_out_build(&a, c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK
										       : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_query_hca_vport_gid(struct swnic_cmd *c)
{
	struct prm_query_hca_vport_gid_params p;
	struct prm_hca_vport_gid_params g;

	if (prm_query_hca_vport_gid_in_parse(c->in, c->inlen, &p) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	if (p.other_vport)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_OTHER_FUNCTION,
				      "other vports are not modelled (vport %u)", p.vport_number);
	if (p.port_num > SWNIC_PORT_NUM)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_PORT, "no port %u", p.port_num);
	if (p.gid_index != 0)
		return swnic_cmd_fail(c, PRM_STATUS_BAD_PARAM, SWNIC_SYND_BAD_GID_INDEX,
				      "GID index %u: the table has one entry", p.gid_index);
	memset(&g, 0, sizeof(g));
	g.gids_num = 1;
	memcpy(g.gid, c->nic->gid, PRM_GID_LEN);
	return prm_query_hca_vport_gid_out_build(&g, c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK
											 : swnic_cmd_malformed(c);
}

/* ---- PD and UAR (the table work is in swnic_mem.c, which also logs its refusals) ---- */

static uint8_t mem_status(struct swnic_cmd *c, doca_error_t err, uint32_t synd_missing, uint32_t synd_in_use)
{
	/* swnic_mem.c already logged why: keep the status and syndrome only. */
	switch (err) {
	case DOCA_SUCCESS:
		return PRM_STATUS_OK;
	case DOCA_ERROR_NOT_FOUND:
		c->syndrome = synd_missing;
		return PRM_STATUS_BAD_PARAM;
	case DOCA_ERROR_IN_USE:
		c->syndrome = synd_in_use;
		return PRM_STATUS_BAD_RES_STATE;
	case DOCA_ERROR_FULL:
		c->syndrome = SWNIC_SYND_TABLE_FULL;
		return PRM_STATUS_NO_RESOURCES;
	default:
		c->syndrome = SWNIC_SYND_NO_MEMORY;
		return PRM_STATUS_NO_RESOURCES;
	}
}

uint8_t swnic_cmd_alloc_pd(struct swnic_cmd *c)
{
	uint32_t pdn = 0;
	uint16_t uid;
	uint8_t st;

	if (prm_alloc_pd_in_parse(c->in, c->inlen, &uid) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = mem_status(c, swnic_pd_alloc(c->nic, &pdn), 0, 0);
	if (st != PRM_STATUS_OK)
		return st;
	if (prm_alloc_pd_out_build(pdn, c->out, c->outlen) != DOCA_SUCCESS) {
		swnic_pd_free(c->nic, pdn);
		return swnic_cmd_malformed(c);
	}
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_dealloc_pd(struct swnic_cmd *c)
{
	uint32_t pdn = 0;
	uint16_t uid;
	uint8_t st;

	if (prm_dealloc_pd_in_parse(c->in, c->inlen, &uid, &pdn) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = mem_status(c, swnic_pd_free(c->nic, pdn), SWNIC_SYND_BAD_PD, SWNIC_SYND_PD_IN_USE);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_dealloc_pd_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

uint8_t swnic_cmd_alloc_uar(struct swnic_cmd *c)
{
	uint32_t page_id = 0;
	uint8_t *page = NULL;
	uint16_t uid;
	uint8_t st;

	if (prm_alloc_uar_in_parse(c->in, c->inlen, &uid) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = mem_status(c, swnic_uar_alloc(c->nic, OGDA_DEVX_UAR_BF, &page_id, &page), 0, 0);
	if (st != PRM_STATUS_OK)
		return st;
	if (prm_alloc_uar_out_build(page_id, c->out, c->outlen) != DOCA_SUCCESS) {
		swnic_uar_free(c->nic, page_id);
		return swnic_cmd_malformed(c);
	}
	return PRM_STATUS_OK;
}

uint8_t swnic_cmd_dealloc_uar(struct swnic_cmd *c)
{
	uint32_t page_id = 0;
	uint16_t uid;
	uint8_t st;

	if (prm_dealloc_uar_in_parse(c->in, c->inlen, &uid, &page_id) != DOCA_SUCCESS)
		return swnic_cmd_malformed(c);
	st = mem_status(c, swnic_uar_free(c->nic, page_id), SWNIC_SYND_BAD_UAR, SWNIC_SYND_UAR_IN_USE);
	if (st != PRM_STATUS_OK)
		return st;
	return prm_dealloc_uar_out_build(c->out, c->outlen) == DOCA_SUCCESS ? PRM_STATUS_OK : swnic_cmd_malformed(c);
}

/* ---- dispatch ---- */

struct cmd_entry {
	uint16_t opcode;
	const struct prm_layout *in;   /* the smallest input the command accepts */
	const struct prm_layout *out;  /* the out mailbox it writes */
	uint8_t (*exec)(struct swnic_cmd *c);
};

static const struct cmd_entry cmd_table[] = {
	{PRM_CMD_QUERY_HCA_CAP, &prm_query_hca_cap_in_layout, &prm_query_hca_cap_out_general_layout,
	 swnic_cmd_query_hca_cap},
	{PRM_CMD_QUERY_ROCE_ADDRESS, &prm_query_roce_address_in_layout, &prm_query_roce_address_out_layout,
	 swnic_cmd_query_roce_address},
	{PRM_CMD_QUERY_HCA_VPORT_GID, &prm_query_hca_vport_gid_in_layout, &prm_query_hca_vport_gid_out_layout,
	 swnic_cmd_query_hca_vport_gid},
	{PRM_CMD_ALLOC_PD, &prm_alloc_pd_in_layout, &prm_alloc_pd_out_layout, swnic_cmd_alloc_pd},
	{PRM_CMD_DEALLOC_PD, &prm_dealloc_pd_in_layout, &prm_dealloc_pd_out_layout, swnic_cmd_dealloc_pd},
	{PRM_CMD_ALLOC_UAR, &prm_alloc_uar_in_layout, &prm_alloc_uar_out_layout, swnic_cmd_alloc_uar},
	{PRM_CMD_DEALLOC_UAR, &prm_dealloc_uar_in_layout, &prm_dealloc_uar_out_layout, swnic_cmd_dealloc_uar},
	{PRM_CMD_CREATE_CQ, &prm_create_cq_in_layout, &prm_create_cq_out_layout, swnic_cmd_create_cq},
	{PRM_CMD_DESTROY_CQ, &prm_destroy_cq_in_layout, &prm_destroy_cq_out_layout, swnic_cmd_destroy_cq},
	{PRM_CMD_QUERY_CQ, &prm_query_cq_in_layout, &prm_query_cq_out_layout, swnic_cmd_query_cq},
	{PRM_CMD_MODIFY_CQ, &prm_modify_cq_in_layout, &prm_modify_cq_out_layout, swnic_cmd_modify_cq},
	{PRM_CMD_CREATE_QP, &prm_create_qp_in_layout, &prm_create_qp_out_layout, swnic_cmd_create_qp},
	{PRM_CMD_DESTROY_QP, &prm_destroy_qp_in_layout, &prm_destroy_qp_out_layout, swnic_cmd_destroy_qp},
	{PRM_CMD_QUERY_QP, &prm_query_qp_in_layout, &prm_query_qp_out_layout, swnic_cmd_query_qp},
	{PRM_CMD_RST2INIT_QP, &prm_rst2init_qp_in_layout, &prm_rst2init_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_INIT2INIT_QP, &prm_init2init_qp_in_layout, &prm_init2init_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_INIT2RTR_QP, &prm_init2rtr_qp_in_layout, &prm_init2rtr_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_RTR2RTS_QP, &prm_rtr2rts_qp_in_layout, &prm_rtr2rts_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_RTS2RTS_QP, &prm_rts2rts_qp_in_layout, &prm_rts2rts_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_SQERR2RTS_QP, &prm_sqerr2rts_qp_in_layout, &prm_sqerr2rts_qp_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_2ERR_QP, &prm_qp_2err_in_layout, &prm_qp_2err_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_2RST_QP, &prm_qp_2rst_in_layout, &prm_qp_2rst_out_layout, swnic_cmd_modify_qp},
	{PRM_CMD_CREATE_RMP, &prm_create_rmp_in_layout, &prm_create_rmp_out_layout, swnic_cmd_create_rmp},
	{PRM_CMD_DESTROY_RMP, &prm_destroy_rmp_in_layout, &prm_destroy_rmp_out_layout, swnic_cmd_destroy_rmp},
	{PRM_CMD_QUERY_RMP, &prm_query_rmp_in_layout, &prm_query_rmp_out_layout, swnic_cmd_query_rmp},
	{PRM_CMD_MODIFY_RMP, &prm_modify_rmp_in_layout, &prm_modify_rmp_out_layout, swnic_cmd_modify_rmp},
	{PRM_CMD_ALLOC_TRANSPORT_DOMAIN, &prm_alloc_td_in_layout, &prm_alloc_td_out_layout, swnic_cmd_alloc_td},
	{PRM_CMD_DEALLOC_TRANSPORT_DOMAIN, &prm_dealloc_td_in_layout, &prm_dealloc_td_out_layout, swnic_cmd_dealloc_td},
	{PRM_CMD_CREATE_TIS, &prm_create_tis_in_layout, &prm_create_tis_out_layout, swnic_cmd_create_tis},
	{PRM_CMD_DESTROY_TIS, &prm_destroy_tis_in_layout, &prm_destroy_tis_out_layout, swnic_cmd_destroy_tis},
	{PRM_CMD_CREATE_SQ, &prm_create_sq_in_layout, &prm_create_sq_out_layout, swnic_cmd_create_sq},
	{PRM_CMD_MODIFY_SQ, &prm_modify_sq_in_layout, &prm_modify_sq_out_layout, swnic_cmd_modify_sq},
	{PRM_CMD_DESTROY_SQ, &prm_destroy_sq_in_layout, &prm_destroy_sq_out_layout, swnic_cmd_destroy_sq},
	{PRM_CMD_CREATE_RQ, &prm_create_rq_in_layout, &prm_create_rq_out_layout, swnic_cmd_create_rq},
	{PRM_CMD_MODIFY_RQ, &prm_modify_rq_in_layout, &prm_modify_rq_out_layout, swnic_cmd_modify_rq},
	{PRM_CMD_DESTROY_RQ, &prm_destroy_rq_in_layout, &prm_destroy_rq_out_layout, swnic_cmd_destroy_rq},
	{PRM_CMD_CREATE_RQT, &prm_create_rqt_in_layout, &prm_create_rqt_out_layout, swnic_cmd_create_rqt},
	{PRM_CMD_DESTROY_RQT, &prm_destroy_rqt_in_layout, &prm_destroy_rqt_out_layout, swnic_cmd_destroy_rqt},
	{PRM_CMD_CREATE_TIR, &prm_create_tir_in_layout, &prm_create_tir_out_layout, swnic_cmd_create_tir},
	{PRM_CMD_DESTROY_TIR, &prm_destroy_tir_in_layout, &prm_destroy_tir_out_layout, swnic_cmd_destroy_tir},
	{PRM_CMD_CREATE_FLOW_TABLE, &prm_create_flow_table_in_layout, &prm_create_flow_table_out_layout,
	 swnic_cmd_create_flow_table},
	{PRM_CMD_DESTROY_FLOW_TABLE, &prm_destroy_flow_table_in_layout, &prm_destroy_flow_table_out_layout,
	 swnic_cmd_destroy_flow_table},
	{PRM_CMD_SET_FLOW_TABLE_ROOT, &prm_set_flow_table_root_in_layout, &prm_set_flow_table_root_out_layout,
	 swnic_cmd_set_flow_table_root},
	{PRM_CMD_CREATE_FLOW_GROUP, &prm_create_flow_group_in_layout, &prm_create_flow_group_out_layout,
	 swnic_cmd_create_flow_group},
	{PRM_CMD_DESTROY_FLOW_GROUP, &prm_destroy_flow_group_in_layout, &prm_destroy_flow_group_out_layout,
	 swnic_cmd_destroy_flow_group},
	{PRM_CMD_SET_FLOW_TABLE_ENTRY, &prm_set_fte_in_layout, &prm_set_fte_out_layout, swnic_cmd_set_fte},
	{PRM_CMD_DELETE_FLOW_TABLE_ENTRY, &prm_delete_fte_in_layout, &prm_delete_fte_out_layout, swnic_cmd_delete_fte},
	{PRM_CMD_ALLOC_FLOW_COUNTER, &prm_alloc_flow_counter_in_layout, &prm_alloc_flow_counter_out_layout,
	 swnic_cmd_alloc_flow_counter},
	{PRM_CMD_DEALLOC_FLOW_COUNTER, &prm_dealloc_flow_counter_in_layout, &prm_dealloc_flow_counter_out_layout,
	 swnic_cmd_dealloc_flow_counter},
	{PRM_CMD_QUERY_FLOW_COUNTER, &prm_query_flow_counter_in_layout, &prm_query_flow_counter_out_layout,
	 swnic_cmd_query_flow_counter},
};

static const struct cmd_entry *cmd_find(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < sizeof(cmd_table) / sizeof(cmd_table[0]); i++)
		if (cmd_table[i].opcode == opcode)
			return &cmd_table[i];
	return NULL;
}

/* Writes a failure: the out mailbox zeroed (up to its size), then status and syndrome. */
static void out_fail(void *out, size_t outlen, size_t out_size, uint8_t status, uint32_t syndrome)
{
	memset(out, 0, outlen < out_size ? outlen : out_size);
	prm_cmd_out_set_status(out, outlen, status, syndrome);
}

doca_error_t swnic_cmd_exec(struct swnic *nic, const void *in, size_t inlen, void *out, size_t outlen)
{
	const struct cmd_entry *e;
	struct swnic_cmd c;
	uint8_t status;

	if (nic == NULL || in == NULL || out == NULL) {
		OGDA_LOG_ERR("nic, in and out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (outlen < 8) {
		OGDA_LOG_ERR("%s: out mailbox of %zu bytes cannot hold a status", nic->name, outlen);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&c, 0, sizeof(c));
	c.nic = nic;
	c.in = in;
	c.inlen = inlen;
	c.out = out;
	c.outlen = outlen;
	if (inlen < 8 || prm_cmd_in_peek(in, inlen, &c.opcode, &c.op_mod, NULL) != DOCA_SUCCESS) {
		status = swnic_cmd_fail(&c, PRM_STATUS_BAD_INPUT_LEN, SWNIC_SYND_IN_TOO_SHORT,
					"%zu bytes hold no command header", inlen);
		out_fail(out, outlen, PRM_CMD_HDR_SIZE, status, c.syndrome);
		return prm_cmd_status_to_doca(status);
	}
	e = cmd_find(c.opcode);
	if (e == NULL) {
		status = swnic_cmd_fail(&c, PRM_STATUS_BAD_OP, SWNIC_SYND_UNKNOWN_OPCODE,
					"opcode 0x%x is not executed by the software NIC", c.opcode);
		out_fail(out, outlen, PRM_CMD_HDR_SIZE, status, c.syndrome);
		return prm_cmd_status_to_doca(status);
	}
	if (inlen < e->in->size) {
		status = swnic_cmd_fail(&c, PRM_STATUS_BAD_INPUT_LEN, SWNIC_SYND_IN_TOO_SHORT,
					"input of %zu bytes, the command needs %zu", inlen, e->in->size);
	} else if (outlen < e->out->size) {
		status = swnic_cmd_fail(&c, PRM_STATUS_BAD_OUTPUT_LEN, SWNIC_SYND_OUT_TOO_SHORT,
					"output of %zu bytes, the command needs %zu", outlen, e->out->size);
	} else {
		memset(out, 0, e->out->size);
		status = e->exec(&c);
	}
	if (status != PRM_STATUS_OK)
		out_fail(out, outlen, e->out->size, status, c.syndrome);
	else
		OGDA_LOG_DBG("%s: %s done", nic->name, prm_cmd_opcode_name(c.opcode));
	return prm_cmd_status_to_doca(status);
}

/* ---- instance teardown ---- */

void swnic_cmd_release_all(struct swnic *nic)
{
	uint32_t i;

	/* QPs first: they hold references on the CQs, RMPs and memory below. */
	for (i = 0; i < nic->qps.cap; i++)
		if (nic->qps.slots[i].qpn != 0)
			swnic_cmd_qp_free(nic->qps.slots[i].obj);
	for (i = 0; i < nic->srqs.cap; i++)
		if (nic->srqs.slots[i] != NULL)
			swnic_cmd_srq_free(nic->srqs.slots[i]);
	for (i = 0; i < nic->cqs.cap; i++)
		if (nic->cqs.slots[i] != NULL)
			swnic_cmd_cq_free(nic->cqs.slots[i]);
	for (i = 0; i < nic->tises.cap; i++)
		if (nic->tises.slots[i] != NULL)
			swnic_cmd_tis_free(nic->tises.slots[i]);
	for (i = 0; i < nic->tds.cap; i++)
		free(nic->tds.slots[i]);
	swnic_qpn_table_fini(&nic->qps);
	swnic_table_fini(&nic->tises);
	swnic_table_fini(&nic->tds);
	swnic_table_fini(&nic->srqs);
	swnic_table_fini(&nic->cqs);
}
