/* SPDX-License-Identifier: BSD-3-Clause */
/* Device ops over the software NIC: PRM objects (create / modify / query / destroy) and general commands. */
#include "devx/sw.h"
#include "devx/sw_priv.h"

#include "core/log.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "prm/prm_sq.h"
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"

#include <stdlib.h>
#include <string.h>

/* Destroy-style commands report "still in use" as BAD_RES_STATE; the ops say IN_USE. */
doca_error_t sw_destroy_result(doca_error_t err, const void *out)
{
	uint8_t status = PRM_STATUS_OK;

	if (err == DOCA_SUCCESS)
		return err;
	(void)prm_cmd_out_status(out, PRM_CMD_HDR_SIZE, &status, NULL);
	return status == PRM_STATUS_BAD_RES_STATE ? DOCA_ERROR_IN_USE : err;
}

/* ---- objects ---- */

struct kind_info {
	uint16_t create;
	uint16_t destroy;
	uint16_t query;            /* 0: none */
	const char *id_field;      /* the object number in its modify / query mailboxes */
	const char *name;
};

static const struct kind_info kinds[] = {
	[SW_OBJ_CQ] = {PRM_CMD_CREATE_CQ, PRM_CMD_DESTROY_CQ, PRM_CMD_QUERY_CQ, "cqn", "CQ"},
	[SW_OBJ_QP] = {PRM_CMD_CREATE_QP, PRM_CMD_DESTROY_QP, PRM_CMD_QUERY_QP, "qpn", "QP"},
	[SW_OBJ_RMP] = {PRM_CMD_CREATE_RMP, PRM_CMD_DESTROY_RMP, PRM_CMD_QUERY_RMP, "rmpn", "RMP"},
	[SW_OBJ_PD] = {PRM_CMD_ALLOC_PD, PRM_CMD_DEALLOC_PD, 0, "pd", "PD"},
	[SW_OBJ_TIS] = {PRM_CMD_CREATE_TIS, PRM_CMD_DESTROY_TIS, 0, "tisn", "TIS"},
	[SW_OBJ_SQ] = {PRM_CMD_CREATE_SQ, PRM_CMD_DESTROY_SQ, 0, "sqn", "SQ"},
	[SW_OBJ_TD] = {PRM_CMD_ALLOC_TRANSPORT_DOMAIN, PRM_CMD_DEALLOC_TRANSPORT_DOMAIN, 0, "transport_domain", "TD"},
	[SW_OBJ_STEER] = {0, 0, 0, "", "steering object"}, /* found by sw_steer_is_create */
};

const char *sw_kind_name(enum sw_obj_kind kind)
{
	return (unsigned)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind].name : "object";
}

static bool kind_of_create(uint16_t opcode, enum sw_obj_kind *kind)
{
	size_t i;

	if (sw_steer_is_create(opcode)) {
		*kind = SW_OBJ_STEER;
		return true;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].create == opcode && opcode != 0) {
			*kind = (enum sw_obj_kind)i;
			return true;
		}
	}
	return false;
}

static doca_error_t created_id(enum sw_obj_kind kind, const void *out, size_t outlen, uint32_t *id)
{
	switch (kind) {
	case SW_OBJ_CQ:
		return prm_create_cq_out_parse(out, outlen, id);
	case SW_OBJ_QP:
		return prm_create_qp_out_parse(out, outlen, id);
	case SW_OBJ_RMP:
		return prm_create_rmp_out_parse(out, outlen, id);
	case SW_OBJ_PD:
		return prm_alloc_pd_out_parse(out, outlen, id);
	case SW_OBJ_TIS:
		return prm_create_tis_out_parse(out, outlen, id);
	case SW_OBJ_SQ:
		return prm_create_sq_out_parse(out, outlen, id);
	case SW_OBJ_TD:
		return prm_alloc_td_out_parse(out, outlen, id);
	case SW_OBJ_STEER:
		break; /* sw_steer_created */
	}
	return DOCA_ERROR_INVALID_VALUE;
}

/* Builds and runs the destroy command of an object, the way the kernel keeps one per DevX object. */
doca_error_t sw_destroy_by_kind(struct swnic *nic, enum sw_obj_kind kind, uint32_t id)
{
	uint8_t in[PRM_CMD_HDR_SIZE], out[PRM_CMD_HDR_SIZE];
	doca_error_t err = DOCA_ERROR_INVALID_VALUE;

	switch (kind) {
	case SW_OBJ_CQ:
		err = prm_destroy_cq_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_QP:
		err = prm_destroy_qp_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_RMP:
		err = prm_destroy_rmp_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_PD:
		err = prm_dealloc_pd_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_TIS:
		err = prm_destroy_tis_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_SQ:
		err = prm_destroy_sq_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_TD:
		err = prm_dealloc_td_in_build(0, id, in, sizeof(in));
		break;
	case SW_OBJ_STEER:
		break; /* sw_steer_destroy */
	}
	if (err != DOCA_SUCCESS)
		return err;
	err = swnic_cmd_exec(nic, in, sizeof(in), out, sizeof(out));
	return sw_destroy_result(err, out);
}

doca_error_t sw_obj_create(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
			   struct ogda_devx_obj **obj)
{
	struct swnic *nic;
	struct ogda_devx_obj *o;
	enum sw_obj_kind kind;
	uint16_t opcode = 0;
	uint32_t id = 0;
	doca_error_t err;

	if (dev == NULL || in == NULL || out == NULL || obj == NULL) {
		OGDA_LOG_ERR("dev, in, out and obj must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nic = sw_dev_nic(dev);
	/* A mailbox too short for a header: the executor reports it as hardware would. */
	if (inlen < 8 || prm_cmd_in_peek(in, inlen, &opcode, NULL, NULL) != DOCA_SUCCESS)
		return swnic_cmd_exec(nic, in, inlen, out, outlen);
	if (!kind_of_create(opcode, &kind)) {
		OGDA_LOG_ERR("%s: %s (0x%x) creates no object the device binding can destroy", nic->name,
			     prm_cmd_opcode_name(opcode), opcode);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = swnic_cmd_exec(nic, in, inlen, out, outlen);
	if (err == DOCA_SUCCESS && kind == SW_OBJ_STEER) {
		err = sw_steer_created(in, inlen, out, outlen, &o->steer);
		id = o->steer.id;
	} else if (err == DOCA_SUCCESS) {
		err = created_id(kind, out, outlen, &id);
	}
	if (err != DOCA_SUCCESS) {
		free(o);
		return err;
	}
	swnic_get(nic);
	o->nic = nic;
	o->kind = kind;
	o->id = id;
	*obj = o;
	return DOCA_SUCCESS;
}

/* Checks that a modify / query mailbox is of the object's kind and names the object itself. */
static doca_error_t check_obj_cmd(struct ogda_devx_obj *obj, const void *in, size_t inlen, bool query)
{
	const struct kind_info *k = &kinds[obj->kind];
	const char *id_field = k->id_field;
	const struct prm_layout *layout = NULL;
	uint16_t opcode = 0;
	uint64_t id = 0;

	if (inlen < 8 || prm_cmd_in_peek(in, inlen, &opcode, NULL, NULL) != DOCA_SUCCESS)
		return DOCA_SUCCESS; /* the executor reports BAD_INPUT_LEN */
	if (query) {
		if (opcode == k->query && k->query != 0)
			layout = obj->kind == SW_OBJ_CQ   ? &prm_query_cq_in_layout
				 : obj->kind == SW_OBJ_QP ? &prm_query_qp_in_layout
							  : &prm_query_rmp_in_layout;
	} else if (obj->kind == SW_OBJ_CQ && opcode == PRM_CMD_MODIFY_CQ) {
		layout = &prm_modify_cq_in_layout;
	} else if (obj->kind == SW_OBJ_QP && prm_qp_is_modify_opcode(opcode)) {
		layout = prm_qp_layout_for_opcode(opcode, false);
	} else if (obj->kind == SW_OBJ_RMP && opcode == PRM_CMD_MODIFY_RMP) {
		layout = &prm_modify_rmp_in_layout;
	} else if (obj->kind == SW_OBJ_SQ && opcode == PRM_CMD_MODIFY_SQ) {
		layout = &prm_modify_sq_in_layout;
	}
	if (obj->kind == SW_OBJ_STEER)
		layout = sw_steer_obj_cmd_layout(&obj->steer, opcode, query, &id_field);
	if (layout == NULL) {
		OGDA_LOG_ERR("%s: %s (0x%x) does not %s a %s", obj->nic->name, prm_cmd_opcode_name(opcode), opcode,
			     query ? "query" : "modify", k->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inlen < layout->size)
		return DOCA_SUCCESS; /* the executor reports BAD_INPUT_LEN */
	if (prm_get(layout, in, inlen, id_field, &id) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	if (id != obj->id) {
		OGDA_LOG_ERR("%s: %s names %s 0x%llx, the object is 0x%x", obj->nic->name, prm_cmd_opcode_name(opcode),
			     k->name, (unsigned long long)id, obj->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t obj_cmd(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen,
			    bool query)
{
	doca_error_t err;

	if (obj == NULL || in == NULL || out == NULL) {
		OGDA_LOG_ERR("obj, in and out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_obj_cmd(obj, in, inlen, query);
	if (err != DOCA_SUCCESS)
		return err;
	return swnic_cmd_exec(obj->nic, in, inlen, out, outlen);
}

doca_error_t sw_obj_modify(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(obj, in, inlen, out, outlen, false);
}

doca_error_t sw_obj_query(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return obj_cmd(obj, in, inlen, out, outlen, true);
}

doca_error_t sw_obj_destroy(struct ogda_devx_obj *obj)
{
	doca_error_t err;

	if (obj == NULL) {
		OGDA_LOG_ERR("obj must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = obj->kind == SW_OBJ_STEER ? sw_steer_destroy(obj->nic, &obj->steer)
					: sw_destroy_by_kind(obj->nic, obj->kind, obj->id);
	if (err != DOCA_SUCCESS)
		return err; /* the object stays valid: destroy it again once it is free */
	swnic_close(obj->nic);
	free(obj);
	return DOCA_SUCCESS;
}

/* ---- general commands ---- */

static bool is_object_command(uint16_t opcode)
{
	switch (opcode) {
	case PRM_CMD_CREATE_CQ:
	case PRM_CMD_DESTROY_CQ:
	case PRM_CMD_QUERY_CQ:
	case PRM_CMD_MODIFY_CQ:
	case PRM_CMD_CREATE_QP:
	case PRM_CMD_DESTROY_QP:
	case PRM_CMD_QUERY_QP:
	case PRM_CMD_CREATE_RMP:
	case PRM_CMD_DESTROY_RMP:
	case PRM_CMD_QUERY_RMP:
	case PRM_CMD_MODIFY_RMP:
	case PRM_CMD_ALLOC_PD:
	case PRM_CMD_DEALLOC_PD:
	case PRM_CMD_ALLOC_UAR:
	case PRM_CMD_DEALLOC_UAR:
		return true;
	default:
		return prm_qp_is_modify_opcode(opcode) || sw_steer_is_object_opcode(opcode);
	}
}

doca_error_t sw_general_cmd(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = 0;

	if (dev == NULL || in == NULL || out == NULL) {
		OGDA_LOG_ERR("dev, in and out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inlen >= 8 && prm_cmd_in_peek(in, inlen, &opcode, NULL, NULL) == DOCA_SUCCESS &&
	    is_object_command(opcode)) {
		OGDA_LOG_ERR("%s: %s is an object command: use obj_create / obj_modify / obj_query",
			     sw_dev_nic(dev)->name, prm_cmd_opcode_name(opcode));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return swnic_cmd_exec(sw_dev_nic(dev), in, inlen, out, outlen);
}
