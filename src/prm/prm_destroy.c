/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The destroy command of a created object. Which destroy goes with which create, and which
 * fields it carries over, follow the Linux kernel's devx_obj_build_destroy_cmd() and
 * devx_get_created_obj_id() (drivers/infiniband/hw/mlx5/devx.c); the field positions are the
 * ones of the per-family files (prm_cq.c, prm_qp.c, ..., prm_flow_table.c, prm_flow_entry.c).
 * other_vport / vport_number, which the kernel also copies for flow objects, are not modelled
 * by this layer and stay zero.
 */
#include "prm/prm_destroy.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_flow.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "prm/prm_sq.h"
#include "prm/prm_tir.h"

#include <string.h>

typedef doca_error_t (*id_parse_fn)(const void *out, size_t len, uint32_t *id);
typedef doca_error_t (*destroy_fn)(uint16_t uid, uint32_t id, void *in, size_t len);

/* Objects whose destroy carries nothing but the number from the out mailbox. */
struct simple_kind {
	uint16_t create;
	id_parse_fn id;
	destroy_fn destroy;
};

static const struct simple_kind simple_kinds[] = {
	{PRM_CMD_CREATE_CQ, prm_create_cq_out_parse, prm_destroy_cq_in_build},
	{PRM_CMD_CREATE_QP, prm_create_qp_out_parse, prm_destroy_qp_in_build},
	{PRM_CMD_CREATE_RMP, prm_create_rmp_out_parse, prm_destroy_rmp_in_build},
	{PRM_CMD_ALLOC_PD, prm_alloc_pd_out_parse, prm_dealloc_pd_in_build},
	{PRM_CMD_ALLOC_TRANSPORT_DOMAIN, prm_alloc_td_out_parse, prm_dealloc_td_in_build},
	{PRM_CMD_CREATE_TIS, prm_create_tis_out_parse, prm_destroy_tis_in_build},
	{PRM_CMD_CREATE_SQ, prm_create_sq_out_parse, prm_destroy_sq_in_build},
	{PRM_CMD_CREATE_RQ, prm_create_rq_out_parse, prm_destroy_rq_in_build},
	{PRM_CMD_CREATE_RQT, prm_create_rqt_out_parse, prm_destroy_rqt_in_build},
	{PRM_CMD_CREATE_TIR, prm_create_tir_out_parse, prm_destroy_tir_in_build},
	{PRM_CMD_ALLOC_FLOW_COUNTER, prm_alloc_flow_counter_out_parse, prm_dealloc_flow_counter_in_build},
};

static const struct simple_kind *simple_kind_of(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < sizeof(simple_kinds) / sizeof(simple_kinds[0]); i++)
		if (simple_kinds[i].create == opcode)
			return &simple_kinds[i];
	return NULL;
}

/* table_type and table_id of a flow command's input (the fields sit alike in all of them). */
static doca_error_t table_of(const struct prm_layout *layout, const void *in, size_t inlen, uint8_t *type,
			     uint32_t *id)
{
	uint64_t t = 0, v = 0;
	doca_error_t err = prm_get(layout, in, inlen, "table_type", &t);

	if (err == DOCA_SUCCESS && id != NULL)
		err = prm_get(layout, in, inlen, "table_id", &v);
	*type = (uint8_t)t;
	if (id != NULL)
		*id = (uint32_t)v;
	return err;
}

/* The number of the object a successful create made. */
static doca_error_t created_id(uint16_t opcode, uint16_t op_mod, const void *in, size_t inlen, const void *out,
			       size_t outlen, uint32_t *id)
{
	const struct simple_kind *k = simple_kind_of(opcode);
	uint64_t v = 0;
	doca_error_t err;

	if (k != NULL)
		return k->id(out, outlen, id);
	switch (opcode) {
	case PRM_CMD_CREATE_FLOW_TABLE:
		return prm_create_flow_table_out_parse(out, outlen, id);
	case PRM_CMD_CREATE_FLOW_GROUP:
		return prm_create_flow_group_out_parse(out, outlen, id);
	case PRM_CMD_SET_FLOW_TABLE_ENTRY:
		if (op_mod != PRM_SET_FTE_OP_MOD_NEW)
			break; /* a modify of an existing entry creates nothing */
		err = prm_cmd_empty_out_parse(out, outlen, opcode);
		if (err == DOCA_SUCCESS)
			err = prm_get(&prm_set_fte_in_layout, in, inlen, "flow_index", &v);
		if (err == DOCA_SUCCESS)
			*id = (uint32_t)v;
		return err;
	default:
		break;
	}
	OGDA_LOG_DBG("%s (op_mod %u) creates no object with a destroy command", prm_cmd_opcode_name(opcode), op_mod);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t prm_created_obj_id(const void *create_in, size_t inlen, const void *create_out, size_t outlen,
				uint32_t *obj_id)
{
	uint16_t opcode = 0, op_mod = 0;
	uint32_t id = 0;
	doca_error_t err;

	if (obj_id == NULL) {
		OGDA_LOG_ERR("prm_created_obj_id: obj_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_peek(create_in, inlen, &opcode, &op_mod, NULL);
	if (err == DOCA_SUCCESS)
		err = created_id(opcode, op_mod, create_in, inlen, create_out, outlen, &id);
	if (err == DOCA_SUCCESS)
		*obj_id = id;
	return err;
}

static doca_error_t flow_destroy(uint16_t opcode, uint16_t uid, uint32_t id, const void *in, size_t inlen,
				 void *din, size_t len)
{
	struct prm_flow_table_ref ft;
	struct prm_destroy_flow_group_params fg;
	struct prm_fte_ref fte;
	doca_error_t err;

	switch (opcode) {
	case PRM_CMD_CREATE_FLOW_TABLE:
		memset(&ft, 0, sizeof(ft));
		ft.uid = uid;
		ft.table_id = id;
		err = table_of(&prm_create_flow_table_in_layout, in, inlen, &ft.table_type, NULL);
		return err == DOCA_SUCCESS ? prm_destroy_flow_table_in_build(&ft, din, len) : err;
	case PRM_CMD_CREATE_FLOW_GROUP:
		memset(&fg, 0, sizeof(fg));
		fg.uid = uid;
		fg.group_id = id;
		err = table_of(&prm_create_flow_group_in_layout, in, inlen, &fg.table_type, &fg.table_id);
		return err == DOCA_SUCCESS ? prm_destroy_flow_group_in_build(&fg, din, len) : err;
	default: /* SET_FLOW_TABLE_ENTRY */
		memset(&fte, 0, sizeof(fte));
		fte.uid = uid;
		fte.flow_index = id;
		err = table_of(&prm_set_fte_in_layout, in, inlen, &fte.table_type, &fte.table_id);
		return err == DOCA_SUCCESS ? prm_delete_fte_in_build(&fte, din, len) : err;
	}
}

doca_error_t prm_destroy_cmd_build(const void *create_in, size_t inlen, const void *create_out, size_t outlen,
				   void *destroy_in, size_t len, size_t *destroy_len, uint32_t *obj_id)
{
	const struct simple_kind *k;
	uint16_t opcode = 0, op_mod = 0, uid = 0;
	uint32_t id = 0;
	size_t need;
	doca_error_t err;

	if (destroy_in == NULL || destroy_len == NULL) {
		OGDA_LOG_ERR("prm_destroy_cmd_build: destroy buffer and length must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_peek(create_in, inlen, &opcode, &op_mod, &uid);
	if (err == DOCA_SUCCESS)
		err = created_id(opcode, op_mod, create_in, inlen, create_out, outlen, &id);
	if (err != DOCA_SUCCESS)
		return err;
	k = simple_kind_of(opcode);
	need = k != NULL ? PRM_CMD_HDR_SIZE : PRM_FLOW_CMD_SIZE;
	if (len < need) {
		OGDA_LOG_ERR("the destroy command of %s needs %zu bytes, got %zu", prm_cmd_opcode_name(opcode), need,
			     len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (k != NULL)
		err = k->destroy(uid, id, destroy_in, len);
	else
		err = flow_destroy(opcode, uid, id, create_in, inlen, destroy_in, len);
	if (err != DOCA_SUCCESS)
		return err;
	*destroy_len = need;
	if (obj_id != NULL)
		*obj_id = id;
	return DOCA_SUCCESS;
}
