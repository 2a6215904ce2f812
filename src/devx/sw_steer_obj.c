/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive-steering objects in the software NIC's device binding (sw_steer_obj.h). */
#include "devx/sw_steer_obj.h"

#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "prm/prm_rq.h"
#include "swnic/swnic_ctl.h"


bool sw_steer_is_create(uint16_t opcode)
{
	switch (opcode) {
	case PRM_CMD_CREATE_RQ:
	case PRM_CMD_CREATE_RQT:
	case PRM_CMD_CREATE_TIR:
	case PRM_CMD_CREATE_FLOW_TABLE:
	case PRM_CMD_CREATE_FLOW_GROUP:
	case PRM_CMD_SET_FLOW_TABLE_ENTRY:
	case PRM_CMD_ALLOC_FLOW_COUNTER:
		return true;
	default:
		return false;
	}
}

bool sw_steer_is_object_opcode(uint16_t opcode)
{
	switch (opcode) {
	case PRM_CMD_MODIFY_RQ:
	case PRM_CMD_DESTROY_RQ:
	case PRM_CMD_QUERY_RQ:
	case PRM_CMD_DESTROY_RQT:
	case PRM_CMD_DESTROY_TIR:
	case PRM_CMD_DESTROY_FLOW_TABLE:
	case PRM_CMD_DESTROY_FLOW_GROUP:
	case PRM_CMD_DELETE_FLOW_TABLE_ENTRY:
	case PRM_CMD_DEALLOC_FLOW_COUNTER:
	case PRM_CMD_QUERY_FLOW_COUNTER:
		return true;
	default:
		return sw_steer_is_create(opcode);
	}
}

doca_error_t sw_steer_created(const void *in, size_t inlen, const void *out, size_t outlen, struct sw_steer_ref *ref)
{
	doca_error_t err = prm_cmd_in_peek(in, inlen, &ref->create, NULL, NULL);

	if (err != DOCA_SUCCESS)
		return err;
	return prm_destroy_cmd_build(in, inlen, out, outlen, ref->destroy_in, sizeof(ref->destroy_in), &ref->destroy_len,
				     &ref->id);
}

doca_error_t sw_steer_destroy(struct swnic *nic, const struct sw_steer_ref *ref)
{
	uint8_t out[PRM_CMD_HDR_SIZE] = {0};
	uint8_t status = PRM_STATUS_OK;
	doca_error_t err = swnic_cmd_exec(nic, ref->destroy_in, ref->destroy_len, out, sizeof(out));

	if (err == DOCA_SUCCESS)
		return err;
	(void)prm_cmd_out_status(out, sizeof(out), &status, NULL);
	return status == PRM_STATUS_BAD_RES_STATE ? DOCA_ERROR_IN_USE : err;
}

const struct prm_layout *sw_steer_obj_cmd_layout(const struct sw_steer_ref *ref, uint16_t opcode, bool query,
						  const char **id_field)
{
	if (ref->create == PRM_CMD_CREATE_RQ) {
		*id_field = "rqn";
		if (!query && opcode == PRM_CMD_MODIFY_RQ)
			return &prm_modify_rq_in_layout;
		if (query && opcode == PRM_CMD_QUERY_RQ)
			return &prm_query_rq_in_layout;
	}
	if (ref->create == PRM_CMD_ALLOC_FLOW_COUNTER && query && opcode == PRM_CMD_QUERY_FLOW_COUNTER) {
		*id_field = "flow_counter_id";
		return &prm_query_flow_counter_in_layout;
	}
	return NULL;
}
