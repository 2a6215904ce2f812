/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * General commands and DevX objects on a ConnectX: the PRM bytes go to
 * mlx5dv_devx_general_cmd / mlx5dv_devx_obj_* unchanged. The same commands are refused
 * before reaching the device as on the software NIC (object commands through general_cmd,
 * modify / query commands of another object), so that both devices behave alike.
 */
#include "core/log.h"
#include "devx/hw_priv.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_flow.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "prm/prm_rq.h"
#include "prm/prm_sq.h"
#include "prm/prm_tir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct kind_info {
	uint16_t create;
	uint16_t modify;           /* 0: none (QP: every transition, see prm_qp_is_modify_opcode) */
	uint16_t query;            /* 0: none */
	const char *id_field;      /* the object number in its modify / query mailboxes */
	const char *name;
};

static const struct kind_info kinds[] = {
	[HW_OBJ_CQ] = {PRM_CMD_CREATE_CQ, PRM_CMD_MODIFY_CQ, PRM_CMD_QUERY_CQ, "cqn", "CQ"},
	[HW_OBJ_QP] = {PRM_CMD_CREATE_QP, 0, PRM_CMD_QUERY_QP, "qpn", "QP"},
	[HW_OBJ_RMP] = {PRM_CMD_CREATE_RMP, PRM_CMD_MODIFY_RMP, PRM_CMD_QUERY_RMP, "rmpn", "RMP"},
	[HW_OBJ_PD] = {PRM_CMD_ALLOC_PD, 0, 0, "pd", "PD"},
	[HW_OBJ_TIS] = {PRM_CMD_CREATE_TIS, 0, 0, "tisn", "TIS"},
	[HW_OBJ_SQ] = {PRM_CMD_CREATE_SQ, PRM_CMD_MODIFY_SQ, 0, "sqn", "SQ"},
	[HW_OBJ_TD] = {PRM_CMD_ALLOC_TRANSPORT_DOMAIN, 0, 0, "transport_domain", "TD"},
	[HW_OBJ_RQ] = {PRM_CMD_CREATE_RQ, PRM_CMD_MODIFY_RQ, PRM_CMD_QUERY_RQ, "rqn", "RQ"},
	[HW_OBJ_RQT] = {PRM_CMD_CREATE_RQT, 0, 0, "rqtn", "RQT"},
	[HW_OBJ_TIR] = {PRM_CMD_CREATE_TIR, 0, 0, "tirn", "TIR"},
	[HW_OBJ_FLOW_TABLE] = {PRM_CMD_CREATE_FLOW_TABLE, 0, 0, "table_id", "flow table"},
	[HW_OBJ_FLOW_GROUP] = {PRM_CMD_CREATE_FLOW_GROUP, 0, 0, "group_id", "flow group"},
	/* Created by SET_FLOW_TABLE_ENTRY with op_mod 0 (see hw_obj_create); the kernel destroys it
	 * with DELETE_FLOW_TABLE_ENTRY of the same table_type, table_id and flow_index. */
	[HW_OBJ_FTE] = {PRM_CMD_SET_FLOW_TABLE_ENTRY, 0, PRM_CMD_QUERY_FLOW_TABLE_ENTRY, "flow_index",
			"flow table entry"},
	[HW_OBJ_FLOW_COUNTER] = {PRM_CMD_ALLOC_FLOW_COUNTER, 0, PRM_CMD_QUERY_FLOW_COUNTER, "flow_counter_id",
				 "flow counter"},
};

/* The first 8 bytes of any mailbox: opcode / status and syndrome. */
#define HDR_BYTES 8u

static doca_error_t peek_opcode(const struct hw_dev *d, const void *in, size_t inlen, size_t outlen,
				uint16_t *opcode)
{
	if (inlen < HDR_BYTES || outlen < HDR_BYTES) {
		OGDA_LOG_ERR("%s: a command mailbox holds at least %u bytes (in %zu, out %zu)", d->base.name, HDR_BYTES,
			     inlen, outlen);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return prm_cmd_in_peek(in, inlen, opcode, NULL, NULL);
}

/*
 * After a failed DevX call: the kernel copies the out mailbox back when the device
 * executed the command and returned a bad status (errno EREMOTEIO); that status decides.
 * Otherwise (older kernels, or the call never reached the device) it is a driver error.
 */
static doca_error_t cmd_failed(const struct hw_dev *d, const char *call, uint16_t opcode, const void *out,
			       size_t outlen, int err)
{
	uint8_t status = PRM_STATUS_OK;
	uint32_t syndrome = 0;
	doca_error_t mapped = prm_cmd_out_status(out, outlen, &status, &syndrome);

	if (mapped != DOCA_SUCCESS && status != PRM_STATUS_OK) {
		OGDA_LOG_ERR("%s: %s(%s) failed: %s (0x%x), syndrome 0x%x (errno %d)", d->base.name, call,
			     prm_cmd_opcode_name(opcode), prm_cmd_status_name(status), status, syndrome, err);
		return mapped;
	}
	OGDA_LOG_ERR("%s: %s(%s) failed: %s (errno %d)", d->base.name, call, prm_cmd_opcode_name(opcode),
		     strerror(err), err);
	return DOCA_ERROR_DRIVER;
}

/* Commands that create, change or name an object: DevX runs them through obj_* only. */
static bool is_object_command(uint16_t opcode)
{
	size_t i;

	if (prm_qp_is_modify_opcode(opcode))
		return true;
	switch (opcode) {
	case PRM_CMD_DESTROY_CQ:
	case PRM_CMD_DESTROY_QP:
	case PRM_CMD_DESTROY_RMP:
	case PRM_CMD_DESTROY_SQ:
	case PRM_CMD_DESTROY_TIS:
	case PRM_CMD_DESTROY_RQ:
	case PRM_CMD_DESTROY_RQT:
	case PRM_CMD_DESTROY_TIR:
	case PRM_CMD_DESTROY_FLOW_TABLE:
	case PRM_CMD_DESTROY_FLOW_GROUP:
	case PRM_CMD_DELETE_FLOW_TABLE_ENTRY:
	case PRM_CMD_DEALLOC_FLOW_COUNTER:
	case PRM_CMD_DEALLOC_TRANSPORT_DOMAIN:
	case PRM_CMD_DEALLOC_PD:
	case PRM_CMD_ALLOC_UAR:
	case PRM_CMD_DEALLOC_UAR:
		return true;
	default:
		break;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (opcode == kinds[i].create || (kinds[i].modify != 0 && opcode == kinds[i].modify) ||
		    (kinds[i].query != 0 && opcode == kinds[i].query))
			return true;
	}
	return false;
}

doca_error_t hw_general_cmd(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen)
{
	struct hw_dev *d = hw_dev_of(dev);
	uint16_t opcode = 0;
	doca_error_t err;
	int ret;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (in == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: in and out must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = peek_opcode(d, in, inlen, outlen, &opcode);
	if (err != DOCA_SUCCESS)
		return err;
	if (is_object_command(opcode)) {
		OGDA_LOG_ERR("%s: %s is an object command: use obj_create / obj_modify / obj_query", d->base.name,
			     prm_cmd_opcode_name(opcode));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = hw_need(d, d->rc->dv.devx_general_cmd != NULL, "mlx5dv_devx_general_cmd");
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, HDR_BYTES);
	errno = 0;
	ret = d->rc->dv.devx_general_cmd(d->ctx, in, inlen, out, outlen);
	if (ret != 0)
		return cmd_failed(d, "mlx5dv_devx_general_cmd", opcode, out, outlen, hw_call_errno(ret));
	return DOCA_SUCCESS;
}

static bool kind_of_create(uint16_t opcode, enum hw_obj_kind *kind)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].create == opcode) {
			*kind = (enum hw_obj_kind)i;
			return true;
		}
	}
	return false;
}

static doca_error_t created_id(enum hw_obj_kind kind, const void *in, size_t inlen, const void *out, size_t outlen,
			       uint32_t *id)
{
	uint64_t v = 0;
	doca_error_t err;

	switch (kind) {
	case HW_OBJ_CQ:
		return prm_create_cq_out_parse(out, outlen, id);
	case HW_OBJ_QP:
		return prm_create_qp_out_parse(out, outlen, id);
	case HW_OBJ_RMP:
		return prm_create_rmp_out_parse(out, outlen, id);
	case HW_OBJ_PD:
		return prm_alloc_pd_out_parse(out, outlen, id);
	case HW_OBJ_TIS:
		return prm_create_tis_out_parse(out, outlen, id);
	case HW_OBJ_SQ:
		return prm_create_sq_out_parse(out, outlen, id);
	case HW_OBJ_TD:
		return prm_alloc_td_out_parse(out, outlen, id);
	case HW_OBJ_RQ:
		return prm_create_rq_out_parse(out, outlen, id);
	case HW_OBJ_RQT:
		return prm_create_rqt_out_parse(out, outlen, id);
	case HW_OBJ_TIR:
		return prm_create_tir_out_parse(out, outlen, id);
	case HW_OBJ_FLOW_TABLE:
		return prm_create_flow_table_out_parse(out, outlen, id);
	case HW_OBJ_FLOW_GROUP:
		return prm_create_flow_group_out_parse(out, outlen, id);
	case HW_OBJ_FTE:
		/* The out mailbox names nothing: the entry is its flow_index (as the kernel numbers it). */
		err = prm_cmd_empty_out_parse(out, outlen, PRM_CMD_SET_FLOW_TABLE_ENTRY);
		if (err == DOCA_SUCCESS)
			err = prm_get(&prm_set_fte_in_layout, in, inlen, "flow_index", &v);
		if (err == DOCA_SUCCESS)
			*id = (uint32_t)v;
		return err;
	case HW_OBJ_FLOW_COUNTER:
		return prm_alloc_flow_counter_out_parse(out, outlen, id);
	}
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t hw_obj_create(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
			   struct ogda_devx_obj **obj)
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ogda_devx_obj *o;
	enum hw_obj_kind kind;
	uint16_t opcode = 0, op_mod = 0;
	doca_error_t err;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (in == NULL || out == NULL || obj == NULL) {
		OGDA_LOG_ERR("%s: in, out and obj must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = peek_opcode(d, in, inlen, outlen, &opcode);
	if (err == DOCA_SUCCESS)
		err = prm_cmd_in_peek(in, inlen, NULL, &op_mod, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	if (!kind_of_create(opcode, &kind) || (kind == HW_OBJ_FTE && op_mod != PRM_SET_FTE_OP_MOD_NEW)) {
		/* SET_FLOW_TABLE_ENTRY with op_mod 1 changes an existing entry: the kernel refuses it here too. */
		OGDA_LOG_ERR("%s: %s (0x%x, op_mod %u) creates no object the device binding can destroy", d->base.name,
			     prm_cmd_opcode_name(opcode), opcode, op_mod);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = hw_need(d, d->rc->dv.devx_obj_create != NULL && d->rc->dv.devx_obj_destroy != NULL,
		      "mlx5dv_devx_obj_create / mlx5dv_devx_obj_destroy");
	if (err != DOCA_SUCCESS)
		return err;
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		OGDA_LOG_ERR("%s: out of memory", d->base.name);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(out, 0, HDR_BYTES);
	errno = 0;
	o->obj = d->rc->dv.devx_obj_create(d->ctx, in, inlen, out, outlen);
	if (o->obj == NULL) {
		err = cmd_failed(d, "mlx5dv_devx_obj_create", opcode, out, outlen, errno != 0 ? errno : EIO);
		free(o);
		return err;
	}
	err = created_id(kind, in, inlen, out, outlen, &o->id);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: %s succeeded but its out mailbox (%zu bytes) names no object", d->base.name,
			     prm_cmd_opcode_name(opcode), outlen);
		d->rc->dv.devx_obj_destroy(o->obj);
		free(o);
		return DOCA_ERROR_DRIVER;
	}
	o->tag = HW_TAG_OBJ;
	o->dev = d;
	o->kind = kind;
	hw_dev_get(d);
	*obj = o;
	return DOCA_SUCCESS;
}

/* The layout of a modify / query command of the object's kind; NULL when it is not one. */
static const struct prm_layout *obj_cmd_layout(enum hw_obj_kind kind, uint16_t opcode, bool query)
{
	const struct kind_info *k = &kinds[kind];

	if (query) {
		if (k->query == 0 || opcode != k->query)
			return NULL;
		switch (kind) {
		case HW_OBJ_CQ:
			return &prm_query_cq_in_layout;
		case HW_OBJ_QP:
			return &prm_query_qp_in_layout;
		case HW_OBJ_RQ:
			return &prm_query_rq_in_layout;
		case HW_OBJ_FTE:
			return &prm_query_fte_in_layout;
		case HW_OBJ_FLOW_COUNTER:
			return &prm_query_flow_counter_in_layout;
		case HW_OBJ_RMP:
			return &prm_query_rmp_in_layout;
		default:
			return NULL;
		}
	}
	if (kind == HW_OBJ_QP)
		return prm_qp_is_modify_opcode(opcode) ? prm_qp_layout_for_opcode(opcode, false) : NULL;
	if (k->modify == 0 || opcode != k->modify)
		return NULL;
	switch (kind) {
	case HW_OBJ_CQ:
		return &prm_modify_cq_in_layout;
	case HW_OBJ_SQ:
		return &prm_modify_sq_in_layout;
	case HW_OBJ_RQ:
		return &prm_modify_rq_in_layout;
	case HW_OBJ_RMP:
		return &prm_modify_rmp_in_layout;
	default:
		return NULL;
	}
}

/* A modify / query mailbox must be of the object's kind and name the object itself. */
static doca_error_t check_obj_cmd(const struct ogda_devx_obj *obj, const void *in, size_t inlen, uint16_t opcode,
				  bool query)
{
	const struct kind_info *k = &kinds[obj->kind];
	const struct prm_layout *layout = obj_cmd_layout(obj->kind, opcode, query);
	uint64_t id = 0;

	if (layout == NULL) {
		OGDA_LOG_ERR("%s: %s (0x%x) does not %s a %s", obj->dev->base.name, prm_cmd_opcode_name(opcode), opcode,
			     query ? "query" : "modify", k->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inlen < layout->size) {
		OGDA_LOG_ERR("%s: %s needs %zu bytes of input, got %zu", obj->dev->base.name,
			     prm_cmd_opcode_name(opcode), layout->size, inlen);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (prm_get(layout, in, inlen, k->id_field, &id) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	if (id != obj->id) {
		OGDA_LOG_ERR("%s: %s names %s 0x%llx, the object is 0x%x", obj->dev->base.name,
			     prm_cmd_opcode_name(opcode), k->name, (unsigned long long)id, obj->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t obj_cmd(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen,
			    bool query)
{
	const char *call = query ? "mlx5dv_devx_obj_query" : "mlx5dv_devx_obj_modify";
	struct hw_dev *d;
	uint16_t opcode = 0;
	doca_error_t err;
	int ret;

	if (!hw_handle_ok(obj, HW_TAG_OBJ, "obj"))
		return DOCA_ERROR_INVALID_VALUE;
	d = obj->dev;
	if (in == NULL || out == NULL) {
		OGDA_LOG_ERR("%s: in and out must not be NULL", d->base.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = peek_opcode(d, in, inlen, outlen, &opcode);
	if (err == DOCA_SUCCESS)
		err = check_obj_cmd(obj, in, inlen, opcode, query);
	if (err == DOCA_SUCCESS)
		err = hw_need(d, (query ? d->rc->dv.devx_obj_query != NULL : d->rc->dv.devx_obj_modify != NULL), call);
	if (err != DOCA_SUCCESS)
		return err;
	memset(out, 0, HDR_BYTES);
	errno = 0;
	if (query)
		ret = d->rc->dv.devx_obj_query(obj->obj, in, inlen, out, outlen);
	else
		ret = d->rc->dv.devx_obj_modify(obj->obj, in, inlen, out, outlen);
	if (ret != 0)
		return cmd_failed(d, call, opcode, out, outlen, hw_call_errno(ret));
	return DOCA_SUCCESS;
}

doca_error_t hw_obj_modify(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(obj, in, inlen, out, outlen, false);
}

doca_error_t hw_obj_query(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(obj, in, inlen, out, outlen, true);
}

doca_error_t hw_obj_destroy(struct ogda_devx_obj *obj)
{
	struct hw_dev *d;
	int ret, e;

	if (!hw_handle_ok(obj, HW_TAG_OBJ, "obj"))
		return DOCA_ERROR_INVALID_VALUE;
	d = obj->dev;
	if (hw_need(d, d->rc->dv.devx_obj_destroy != NULL, "mlx5dv_devx_obj_destroy") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED;
	errno = 0;
	ret = d->rc->dv.devx_obj_destroy(obj->obj);
	if (ret != 0) {
		/*
		 * The kernel builds and runs the destroy command; the device's "still in use"
		 * (BAD_RES_STATE) comes back as EINVAL, a busy kernel object as EBUSY. The object
		 * stays valid: destroy it again once its users are gone.
		 */
		e = hw_call_errno(ret);
		if (e == EINVAL || e == EBUSY) {
			OGDA_LOG_ERR("%s: destroying %s 0x%x failed: %s (errno %d); other objects still use it",
				     d->base.name, kinds[obj->kind].name, obj->id, strerror(e), e);
			return DOCA_ERROR_IN_USE;
		}
		return hw_driver_error(d, "mlx5dv_devx_obj_destroy", e);
	}
	obj->tag = 0;
	free(obj);
	hw_dev_put(d);
	return DOCA_SUCCESS;
}
