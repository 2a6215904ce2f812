/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command header shared by every PRM command, the out-mailbox status and its mapping
 * to doca_error_t, and the names used in log lines.
 */
#include "prm/prm_cmd.h"

#include "core/log.h"

#include <stdbool.h>
#include <string.h>

static const struct prm_field cmd_hdr_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
};
const struct prm_layout prm_cmd_hdr_layout = PRM_LAYOUT("cmd_hdr", 8, cmd_hdr_fields);

static const struct prm_field cmd_out_hdr_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_cmd_out_hdr_layout = PRM_LAYOUT("cmd_out_hdr", 8, cmd_out_hdr_fields);

doca_error_t prm_cmd_in_peek(const void *in, size_t len, uint16_t *opcode, uint16_t *op_mod, uint16_t *uid)
{
	struct prm_reader r;
	uint16_t v_opcode, v_op_mod, v_uid;

	prm_reader_init(&r, &prm_cmd_hdr_layout, in, len);
	v_opcode = (uint16_t)prm_r(&r, "opcode");
	v_op_mod = (uint16_t)prm_r(&r, "op_mod");
	v_uid = (uint16_t)prm_r(&r, "uid");
	if (r.err != DOCA_SUCCESS)
		return r.err;
	if (opcode != NULL)
		*opcode = v_opcode;
	if (op_mod != NULL)
		*op_mod = v_op_mod;
	if (uid != NULL)
		*uid = v_uid;
	return DOCA_SUCCESS;
}

doca_error_t prm_cmd_in_expect(const void *in, size_t len, const struct prm_layout *layout, uint16_t opcode)
{
	uint16_t got = 0;
	doca_error_t err;

	if (layout == NULL) {
		OGDA_LOG_ERR("layout must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (in == NULL || len < layout->size) {
		OGDA_LOG_ERR("%s needs %zu bytes, got %zu%s", layout->name, layout->size, len,
			     in == NULL ? " (NULL buffer)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_peek(in, len, &got, NULL, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	if (got != opcode) {
		OGDA_LOG_ERR("%s expects opcode 0x%x (%s), mailbox carries 0x%x (%s)", layout->name, opcode,
			     prm_cmd_opcode_name(opcode), got, prm_cmd_opcode_name(got));
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t prm_cmd_status_to_doca(uint8_t status)
{
	switch (status) {
	case PRM_STATUS_OK:
		return DOCA_SUCCESS;
	case PRM_STATUS_INTERNAL_ERR:
		return DOCA_ERROR_DRIVER;
	case PRM_STATUS_BAD_OP:
		return DOCA_ERROR_NOT_SUPPORTED;
	case PRM_STATUS_BAD_PARAM:
	case PRM_STATUS_BAD_INPUT_LEN:
	case PRM_STATUS_BAD_OUTPUT_LEN:
	case PRM_STATUS_BAD_PKT:
	case PRM_STATUS_BAD_SIZE:
		return DOCA_ERROR_INVALID_VALUE;
	case PRM_STATUS_BAD_SYS_STATE:
	case PRM_STATUS_BAD_RES_STATE:
	case PRM_STATUS_BAD_QP_STATE:
		return DOCA_ERROR_BAD_STATE;
	case PRM_STATUS_BAD_RESOURCE:
	case PRM_STATUS_BAD_INDEX:
		return DOCA_ERROR_NOT_FOUND;
	case PRM_STATUS_RESOURCE_BUSY:
		return DOCA_ERROR_IN_USE;
	case PRM_STATUS_EXCEED_LIM:
		return DOCA_ERROR_FULL;
	case PRM_STATUS_NO_RESOURCES:
		return DOCA_ERROR_NO_MEMORY;
	default:
		return DOCA_ERROR_UNKNOWN;
	}
}

doca_error_t prm_cmd_out_status(const void *out, size_t len, uint8_t *status, uint32_t *syndrome)
{
	struct prm_reader r;
	uint8_t v_status;
	uint32_t v_syndrome;

	prm_reader_init(&r, &prm_cmd_out_hdr_layout, out, len);
	v_status = (uint8_t)prm_r(&r, "status");
	v_syndrome = (uint32_t)prm_r(&r, "syndrome");
	if (r.err != DOCA_SUCCESS)
		return r.err;
	if (status != NULL)
		*status = v_status;
	if (syndrome != NULL)
		*syndrome = v_syndrome;
	return prm_cmd_status_to_doca(v_status);
}

doca_error_t prm_cmd_out_check(const void *out, size_t len, size_t min_len, uint16_t opcode)
{
	uint8_t status = 0;
	uint32_t syndrome = 0;
	doca_error_t err;

	if (out == NULL || len < min_len) {
		OGDA_LOG_ERR("%s output needs %zu bytes, got %zu%s", prm_cmd_opcode_name(opcode), min_len, len,
			     out == NULL ? " (NULL buffer)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_out_status(out, len, &status, &syndrome);
	if (err != DOCA_SUCCESS && status != PRM_STATUS_OK)
		OGDA_LOG_ERR("%s failed: %s (syndrome 0x%08x)", prm_cmd_opcode_name(opcode),
			     prm_cmd_status_name(status), syndrome);
	return err;
}

doca_error_t prm_cmd_out_set_status(void *out, size_t len, uint8_t status, uint32_t syndrome)
{
	struct prm_writer w;

	/* The writer clears the 8 header bytes first, so dw0's reserved bits end up zero. */
	prm_writer_init(&w, &prm_cmd_out_hdr_layout, out, len);
	prm_w(&w, "status", status);
	prm_w(&w, "syndrome", syndrome);
	return w.err;
}

doca_error_t prm_cmd_empty_out_build(void *out, size_t len)
{
	if (out == NULL || len < PRM_CMD_HDR_SIZE) {
		OGDA_LOG_ERR("output mailbox needs %u bytes, got %zu%s", PRM_CMD_HDR_SIZE, len,
			     out == NULL ? " (NULL buffer)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(out, 0, PRM_CMD_HDR_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t prm_cmd_empty_out_parse(const void *out, size_t len, uint16_t opcode)
{
	return prm_cmd_out_check(out, len, PRM_CMD_HDR_SIZE, opcode);
}

const char *prm_cmd_status_name(uint8_t status)
{
	switch (status) {
	case PRM_STATUS_OK:
		return "OK";
	case PRM_STATUS_INTERNAL_ERR:
		return "INTERNAL_ERR";
	case PRM_STATUS_BAD_OP:
		return "BAD_OP";
	case PRM_STATUS_BAD_PARAM:
		return "BAD_PARAM";
	case PRM_STATUS_BAD_SYS_STATE:
		return "BAD_SYS_STATE";
	case PRM_STATUS_BAD_RESOURCE:
		return "BAD_RESOURCE";
	case PRM_STATUS_RESOURCE_BUSY:
		return "RESOURCE_BUSY";
	case PRM_STATUS_EXCEED_LIM:
		return "EXCEED_LIM";
	case PRM_STATUS_BAD_RES_STATE:
		return "BAD_RES_STATE";
	case PRM_STATUS_BAD_INDEX:
		return "BAD_INDEX";
	case PRM_STATUS_NO_RESOURCES:
		return "NO_RESOURCES";
	case PRM_STATUS_BAD_INPUT_LEN:
		return "BAD_INPUT_LEN";
	case PRM_STATUS_BAD_OUTPUT_LEN:
		return "BAD_OUTPUT_LEN";
	case PRM_STATUS_BAD_QP_STATE:
		return "BAD_QP_STATE";
	case PRM_STATUS_BAD_PKT:
		return "BAD_PKT";
	case PRM_STATUS_BAD_SIZE:
		return "BAD_SIZE";
	default:
		return "UNKNOWN_STATUS";
	}
}

struct opcode_name {
	uint16_t opcode;
	const char *name;
};

static const struct opcode_name opcode_names[] = {
	{PRM_CMD_QUERY_HCA_CAP, "QUERY_HCA_CAP"},
	{PRM_CMD_QUERY_ADAPTER, "QUERY_ADAPTER"},
	{PRM_CMD_CREATE_MKEY, "CREATE_MKEY"},
	{PRM_CMD_CREATE_CQ, "CREATE_CQ"},
	{PRM_CMD_DESTROY_CQ, "DESTROY_CQ"},
	{PRM_CMD_QUERY_CQ, "QUERY_CQ"},
	{PRM_CMD_MODIFY_CQ, "MODIFY_CQ"},
	{PRM_CMD_CREATE_QP, "CREATE_QP"},
	{PRM_CMD_DESTROY_QP, "DESTROY_QP"},
	{PRM_CMD_RST2INIT_QP, "RST2INIT_QP"},
	{PRM_CMD_INIT2RTR_QP, "INIT2RTR_QP"},
	{PRM_CMD_RTR2RTS_QP, "RTR2RTS_QP"},
	{PRM_CMD_RTS2RTS_QP, "RTS2RTS_QP"},
	{PRM_CMD_SQERR2RTS_QP, "SQERR2RTS_QP"},
	{PRM_CMD_2ERR_QP, "2ERR_QP"},
	{PRM_CMD_2RST_QP, "2RST_QP"},
	{PRM_CMD_QUERY_QP, "QUERY_QP"},
	{PRM_CMD_SQD_RTS_QP, "SQD_RTS_QP"},
	{PRM_CMD_INIT2INIT_QP, "INIT2INIT_QP"},
	{PRM_CMD_CREATE_SRQ, "CREATE_SRQ"},
	{PRM_CMD_DESTROY_SRQ, "DESTROY_SRQ"},
	{PRM_CMD_QUERY_SRQ, "QUERY_SRQ"},
	{PRM_CMD_CREATE_DCT, "CREATE_DCT"},
	{PRM_CMD_CREATE_TIR, "CREATE_TIR"},
	{PRM_CMD_DESTROY_TIR, "DESTROY_TIR"},
	{PRM_CMD_CREATE_SQ, "CREATE_SQ"},
	{PRM_CMD_MODIFY_SQ, "MODIFY_SQ"},
	{PRM_CMD_DESTROY_SQ, "DESTROY_SQ"},
	{PRM_CMD_CREATE_RQ, "CREATE_RQ"},
	{PRM_CMD_MODIFY_RQ, "MODIFY_RQ"},
	{PRM_CMD_DESTROY_RQ, "DESTROY_RQ"},
	{PRM_CMD_QUERY_RQ, "QUERY_RQ"},
	{PRM_CMD_CREATE_RMP, "CREATE_RMP"},
	{PRM_CMD_MODIFY_RMP, "MODIFY_RMP"},
	{PRM_CMD_DESTROY_RMP, "DESTROY_RMP"},
	{PRM_CMD_QUERY_RMP, "QUERY_RMP"},
	{PRM_CMD_CREATE_TIS, "CREATE_TIS"},
	{PRM_CMD_DESTROY_TIS, "DESTROY_TIS"},
	{PRM_CMD_CREATE_RQT, "CREATE_RQT"},
	{PRM_CMD_DESTROY_RQT, "DESTROY_RQT"},
	{PRM_CMD_SET_FLOW_TABLE_ROOT, "SET_FLOW_TABLE_ROOT"},
	{PRM_CMD_CREATE_FLOW_TABLE, "CREATE_FLOW_TABLE"},
	{PRM_CMD_DESTROY_FLOW_TABLE, "DESTROY_FLOW_TABLE"},
	{PRM_CMD_CREATE_FLOW_GROUP, "CREATE_FLOW_GROUP"},
	{PRM_CMD_DESTROY_FLOW_GROUP, "DESTROY_FLOW_GROUP"},
	{PRM_CMD_SET_FLOW_TABLE_ENTRY, "SET_FLOW_TABLE_ENTRY"},
	{PRM_CMD_QUERY_FLOW_TABLE_ENTRY, "QUERY_FLOW_TABLE_ENTRY"},
	{PRM_CMD_DELETE_FLOW_TABLE_ENTRY, "DELETE_FLOW_TABLE_ENTRY"},
	{PRM_CMD_ALLOC_FLOW_COUNTER, "ALLOC_FLOW_COUNTER"},
	{PRM_CMD_DEALLOC_FLOW_COUNTER, "DEALLOC_FLOW_COUNTER"},
	{PRM_CMD_QUERY_FLOW_COUNTER, "QUERY_FLOW_COUNTER"},
	{PRM_CMD_QUERY_NIC_VPORT_CONTEXT, "QUERY_NIC_VPORT_CONTEXT"},
	{PRM_CMD_QUERY_ROCE_ADDRESS, "QUERY_ROCE_ADDRESS"},
	{PRM_CMD_QUERY_HCA_VPORT_GID, "QUERY_HCA_VPORT_GID"},
	{PRM_CMD_ALLOC_PD, "ALLOC_PD"},
	{PRM_CMD_DEALLOC_PD, "DEALLOC_PD"},
	{PRM_CMD_ALLOC_UAR, "ALLOC_UAR"},
	{PRM_CMD_DEALLOC_UAR, "DEALLOC_UAR"},
	{PRM_CMD_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN"},
	{PRM_CMD_DEALLOC_TRANSPORT_DOMAIN, "DEALLOC_TRANSPORT_DOMAIN"},
};

const char *prm_cmd_opcode_name(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < sizeof(opcode_names) / sizeof(opcode_names[0]); i++)
		if (opcode_names[i].opcode == opcode)
			return opcode_names[i].name;
	return "UNKNOWN_OPCODE";
}

static uint64_t member_load(const void *params, const struct prm_param_map *m)
{
	const uint8_t *p = (const uint8_t *)params + m->offset;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (m->size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

static void member_store(void *params, const struct prm_param_map *m, uint64_t value)
{
	uint8_t *p = (uint8_t *)params + m->offset;
	uint8_t v8 = (uint8_t)value;
	uint16_t v16 = (uint16_t)value;
	uint32_t v32 = (uint32_t)value;

	switch (m->size) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &value, 8);
		break;
	}
}

static bool map_entry_ok(const struct prm_param_map *m)
{
	if (m->size == 1 || m->size == 2 || m->size == 4 || m->size == 8)
		return true;
	OGDA_LOG_ERR("parameter for %s has unsupported size %zu", m->path, m->size);
	return false;
}

void prm_w_map(struct prm_writer *w, const struct prm_param_map *map, size_t n, const void *params)
{
	size_t i;

	if (w->err != DOCA_SUCCESS)
		return;
	if (map == NULL || params == NULL) {
		OGDA_LOG_ERR("%s: parameter map and parameters must not be NULL", w->layout->name);
		w->err = DOCA_ERROR_INVALID_VALUE;
		return;
	}
	for (i = 0; i < n && w->err == DOCA_SUCCESS; i++) {
		if (!map_entry_ok(&map[i])) {
			w->err = DOCA_ERROR_INVALID_VALUE;
			return;
		}
		prm_w(w, map[i].path, member_load(params, &map[i]));
	}
}

void prm_r_map(struct prm_reader *r, const struct prm_param_map *map, size_t n, void *params)
{
	size_t i;

	if (r->err != DOCA_SUCCESS)
		return;
	if (map == NULL || params == NULL) {
		OGDA_LOG_ERR("%s: parameter map and parameters must not be NULL", r->layout->name);
		r->err = DOCA_ERROR_INVALID_VALUE;
		return;
	}
	for (i = 0; i < n && r->err == DOCA_SUCCESS; i++) {
		uint64_t v;

		if (!map_entry_ok(&map[i])) {
			r->err = DOCA_ERROR_INVALID_VALUE;
			return;
		}
		v = prm_r(r, map[i].path);
		if (r->err != DOCA_SUCCESS)
			return;
		if (map[i].size < 8 && (v >> (map[i].size * 8u)) != 0) {
			OGDA_LOG_ERR("%s.%s = 0x%llx does not fit a %zu-byte parameter", r->layout->name, map[i].path,
				     (unsigned long long)v, map[i].size);
			r->err = DOCA_ERROR_INVALID_VALUE;
			return;
		}
		member_store(params, &map[i], v);
	}
}

doca_error_t prm_cmd_obj_in_build(const struct prm_layout *layout, uint16_t opcode, void *in, size_t len,
				  uint16_t uid, const char *obj_field, uint32_t obj)
{
	struct prm_writer w;

	prm_writer_init(&w, layout, in, len);
	prm_w(&w, "opcode", opcode);
	prm_w(&w, "uid", uid);
	if (obj_field != NULL)
		prm_w(&w, obj_field, obj);
	return w.err;
}

doca_error_t prm_cmd_obj_in_parse(const struct prm_layout *layout, uint16_t opcode, const void *in, size_t len,
				  uint16_t *uid, const char *obj_field, uint32_t *obj)
{
	struct prm_reader r;
	uint16_t v_uid;
	uint32_t v_obj = 0;
	doca_error_t err;

	if (layout == NULL || uid == NULL || (obj_field != NULL && obj == NULL)) {
		OGDA_LOG_ERR("%s: layout and output pointers must not be NULL",
			     layout ? layout->name : "(null layout)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_in_expect(in, len, layout, opcode);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, layout, in, len);
	v_uid = (uint16_t)prm_r(&r, "uid");
	if (obj_field != NULL)
		v_obj = (uint32_t)prm_r(&r, obj_field);
	if (r.err != DOCA_SUCCESS)
		return r.err;
	*uid = v_uid;
	if (obj_field != NULL)
		*obj = v_obj;
	return DOCA_SUCCESS;
}

doca_error_t prm_cmd_obj_out_build(const struct prm_layout *layout, void *out, size_t len, const char *obj_field,
				   uint32_t obj)
{
	struct prm_writer w;

	prm_writer_init(&w, layout, out, len);
	prm_w(&w, obj_field, obj);
	return w.err;
}

doca_error_t prm_cmd_obj_out_parse(const struct prm_layout *layout, uint16_t opcode, const void *out, size_t len,
				   const char *obj_field, uint32_t *obj)
{
	struct prm_reader r;
	uint32_t v;
	doca_error_t err;

	if (layout == NULL || obj == NULL) {
		OGDA_LOG_ERR("%s: layout and output pointer must not be NULL", layout ? layout->name : "(null layout)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = prm_cmd_out_check(out, len, layout->size, opcode);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, layout, out, len);
	v = (uint32_t)prm_r(&r, obj_field);
	if (r.err == DOCA_SUCCESS)
		*obj = v;
	return r.err;
}

static bool mapped_args_ok(const struct prm_layout *layout, const void *params)
{
	if (layout != NULL && params != NULL)
		return true;
	OGDA_LOG_ERR("%s: layout and parameters must not be NULL", layout ? layout->name : "(null layout)");
	return false;
}

doca_error_t prm_cmd_mapped_in_build(const struct prm_layout *layout, uint16_t opcode,
				     const struct prm_param_map *map, size_t n, void *in, size_t len,
				     const void *params)
{
	struct prm_writer w;

	if (!mapped_args_ok(layout, params))
		return DOCA_ERROR_INVALID_VALUE;
	prm_writer_init(&w, layout, in, len);
	prm_w(&w, "opcode", opcode);
	prm_w_map(&w, map, n, params);
	return w.err;
}

doca_error_t prm_cmd_mapped_in_parse(const struct prm_layout *layout, uint16_t opcode,
				     const struct prm_param_map *map, size_t n, const void *in, size_t len,
				     void *params)
{
	struct prm_reader r;
	doca_error_t err;

	if (!mapped_args_ok(layout, params))
		return DOCA_ERROR_INVALID_VALUE;
	err = prm_cmd_in_expect(in, len, layout, opcode);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, layout, in, len);
	prm_r_map(&r, map, n, params);
	return r.err;
}

doca_error_t prm_cmd_mapped_out_build(const struct prm_layout *layout, const struct prm_param_map *map, size_t n,
				      void *out, size_t len, const void *params)
{
	struct prm_writer w;

	if (!mapped_args_ok(layout, params))
		return DOCA_ERROR_INVALID_VALUE;
	prm_writer_init(&w, layout, out, len);
	prm_w_map(&w, map, n, params);
	return w.err;
}

doca_error_t prm_cmd_mapped_out_parse(const struct prm_layout *layout, uint16_t opcode,
				      const struct prm_param_map *map, size_t n, const void *out, size_t len,
				      void *params)
{
	struct prm_reader r;
	doca_error_t err;

	if (!mapped_args_ok(layout, params))
		return DOCA_ERROR_INVALID_VALUE;
	err = prm_cmd_out_check(out, len, layout->size, opcode);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, layout, out, len);
	prm_r_map(&r, map, n, params);
	return r.err;
}
