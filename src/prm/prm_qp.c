/* SPDX-License-Identifier: BSD-3-Clause */
#include "prm/prm_qp.h"

#include "core/log.h"

#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Layouts ---------------------------------------------------------------------------- */

/* The qpc embedded at byte 0x18 of every command that carries one. */
#define QPC_AT_0x18 PRM_SUB("qpc", 0x18, prm_qpc_layout, PRM_QPC_SIZE)

static const struct prm_field create_qp_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_DW("opt_param_mask", 4),
	QPC_AT_0x18,
	PRM_U64("wq_umem_offset", 0x100),
	PRM_DW("wq_umem_id", 66),
	PRM_BITS("wq_umem_valid", 67, 31, 31),
};

static const struct prm_field create_qp_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("qpn", 2, 23, 0),
};

/* destroy_qp_in, query_qp_in, qp_2err_in, qp_2rst_in. */
static const struct prm_field qpn_only_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("qpn", 2, 23, 0),
};

/* destroy_qp_out and every transition's out. */
static const struct prm_field status_only_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};

static const struct prm_field query_qp_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_DW("opt_param_mask", 4),
	QPC_AT_0x18,
};

/* rst2init, init2init, init2rtr, rtr2rts, rts2rts and sqerr2rts share one image. */
static const struct prm_field modify_qp_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("qpn", 2, 23, 0),
	PRM_DW("opt_param_mask", 4),
	QPC_AT_0x18,
};

#define LONG_LAYOUT(lname, table) PRM_LAYOUT(lname, PRM_QP_CMD_WITH_QPC_SIZE, table)
#define SHORT_LAYOUT(lname, table) PRM_LAYOUT(lname, PRM_QP_CMD_SHORT_SIZE, table)

const struct prm_layout prm_create_qp_in_layout = LONG_LAYOUT("create_qp_in", create_qp_in_fields);
const struct prm_layout prm_create_qp_out_layout = SHORT_LAYOUT("create_qp_out", create_qp_out_fields);
const struct prm_layout prm_destroy_qp_in_layout = SHORT_LAYOUT("destroy_qp_in", qpn_only_in_fields);
const struct prm_layout prm_destroy_qp_out_layout = SHORT_LAYOUT("destroy_qp_out", status_only_out_fields);
const struct prm_layout prm_query_qp_in_layout = SHORT_LAYOUT("query_qp_in", qpn_only_in_fields);
const struct prm_layout prm_query_qp_out_layout = LONG_LAYOUT("query_qp_out", query_qp_out_fields);
const struct prm_layout prm_rst2init_qp_in_layout = LONG_LAYOUT("rst2init_qp_in", modify_qp_in_fields);
const struct prm_layout prm_rst2init_qp_out_layout = SHORT_LAYOUT("rst2init_qp_out", status_only_out_fields);
const struct prm_layout prm_init2init_qp_in_layout = LONG_LAYOUT("init2init_qp_in", modify_qp_in_fields);
const struct prm_layout prm_init2init_qp_out_layout = SHORT_LAYOUT("init2init_qp_out", status_only_out_fields);
const struct prm_layout prm_init2rtr_qp_in_layout = LONG_LAYOUT("init2rtr_qp_in", modify_qp_in_fields);
const struct prm_layout prm_init2rtr_qp_out_layout = SHORT_LAYOUT("init2rtr_qp_out", status_only_out_fields);
const struct prm_layout prm_rtr2rts_qp_in_layout = LONG_LAYOUT("rtr2rts_qp_in", modify_qp_in_fields);
const struct prm_layout prm_rtr2rts_qp_out_layout = SHORT_LAYOUT("rtr2rts_qp_out", status_only_out_fields);
const struct prm_layout prm_rts2rts_qp_in_layout = LONG_LAYOUT("rts2rts_qp_in", modify_qp_in_fields);
const struct prm_layout prm_rts2rts_qp_out_layout = SHORT_LAYOUT("rts2rts_qp_out", status_only_out_fields);
const struct prm_layout prm_sqerr2rts_qp_in_layout = LONG_LAYOUT("sqerr2rts_qp_in", modify_qp_in_fields);
const struct prm_layout prm_sqerr2rts_qp_out_layout = SHORT_LAYOUT("sqerr2rts_qp_out", status_only_out_fields);
const struct prm_layout prm_qp_2err_in_layout = SHORT_LAYOUT("qp_2err_in", qpn_only_in_fields);
const struct prm_layout prm_qp_2err_out_layout = SHORT_LAYOUT("qp_2err_out", status_only_out_fields);
const struct prm_layout prm_qp_2rst_in_layout = SHORT_LAYOUT("qp_2rst_in", qpn_only_in_fields);
const struct prm_layout prm_qp_2rst_out_layout = SHORT_LAYOUT("qp_2rst_out", status_only_out_fields);

/* ---- The qpc fields each command carries (documented in prm_qp.h) -------------------------- */

static const char *const create_paths[] = {
	"st", "pm_state", "wq_signature", "pd", "log_rq_size", "log_rq_stride", "no_sq", "log_sq_size",
	"ts_format", "counter_set_id", "uar_page", "send_dbr_mode", "user_index", "log_page_size",
	"cd_slave_receive", "cd_slave_send", "cd_master", "cqn_snd", "cqn_rcv", "dbr_addr", "rq_type",
	"srqn_rmpn_xrqn", "cs_req", "cs_res", "dbr_umem_valid", "dbr_umem_id",
};

static const char *const rst2init_paths[] = {
	"pm_state", "counter_set_id", "primary_address_path.pkey_index", "primary_address_path.vhca_port_num",
	"atomic_mode", "rre", "rwe", "rae", "q_key",
};

static const char *const init2init_paths[] = {
	"counter_set_id", "primary_address_path.pkey_index", "primary_address_path.vhca_port_num",
	"rre", "rwe", "rae", "q_key",
};

#define AP "primary_address_path."
static const char *const init2rtr_paths[] = {
	"mtu", "log_msg_max", "remote_qpn",
	AP "fl", AP "free_ar", AP "pkey_index", AP "grh", AP "mlid", AP "rlid", AP "src_addr_index",
	AP "stat_rate", AP "hop_limit", AP "tclass", AP "flow_label", AP "rgid_rip", AP "f_dscp",
	AP "f_ecn", AP "f_eth_prio", AP "ecn", AP "dscp", AP "udp_sport", AP "dei_cfi", AP "eth_prio",
	AP "sl", AP "vhca_port_num", AP "rmac_47_32", AP "rmac_31_0",
	"log_rra_max", "min_rnr_nak", "next_rcv_psn",
};

static const char *const rtr2rts_paths[] = {
	"log_ack_req_freq", "log_sra_max", "retry_count", "rnr_retry", "next_send_psn", AP "ack_timeout",
};

static const char *const rts2rts_paths[] = {
	"pm_state", "rre", "rwe", "rae", "min_rnr_nak", AP "ack_timeout",
};
#undef AP

static const char *const sqerr2rts_paths[] = {
	"rre", "rwe", "rae", "min_rnr_nak",
};

#define FIELD_SET(sname, paths) {(sname), (paths), NELEM(paths)}

static const struct prm_qpc_field_set create_set = FIELD_SET("create_qp", create_paths);
static const struct prm_qpc_field_set rst2init_set = FIELD_SET("rst2init", rst2init_paths);
static const struct prm_qpc_field_set init2init_set = FIELD_SET("init2init", init2init_paths);
static const struct prm_qpc_field_set init2rtr_set = FIELD_SET("init2rtr", init2rtr_paths);
static const struct prm_qpc_field_set rtr2rts_set = FIELD_SET("rtr2rts", rtr2rts_paths);
static const struct prm_qpc_field_set rts2rts_set = FIELD_SET("rts2rts", rts2rts_paths);
static const struct prm_qpc_field_set sqerr2rts_set = FIELD_SET("sqerr2rts", sqerr2rts_paths);
static const struct prm_qpc_field_set no_qpc_set = {"no_qpc", NULL, 0};

/* ---- Command table ------------------------------------------------------------------------ */

struct qp_cmd {
	uint16_t opcode;
	const char *name;
	const struct prm_layout *in;
	const struct prm_layout *out;
	const struct prm_qpc_field_set *qpc_set;
	bool is_modify;
	bool has_qpc;   /* the *_in embeds a qpc (and opt_param_mask) */
};

static const struct qp_cmd qp_cmds[] = {
	{PRM_CMD_CREATE_QP, "CREATE_QP", &prm_create_qp_in_layout, &prm_create_qp_out_layout, &create_set, false,
	 true},
	{PRM_CMD_DESTROY_QP, "DESTROY_QP", &prm_destroy_qp_in_layout, &prm_destroy_qp_out_layout, &no_qpc_set,
	 false, false},
	{PRM_CMD_QUERY_QP, "QUERY_QP", &prm_query_qp_in_layout, &prm_query_qp_out_layout, &prm_qpc_fields_all,
	 false, false},
	{PRM_CMD_RST2INIT_QP, "RST2INIT_QP", &prm_rst2init_qp_in_layout, &prm_rst2init_qp_out_layout,
	 &rst2init_set, true, true},
	{PRM_CMD_INIT2INIT_QP, "INIT2INIT_QP", &prm_init2init_qp_in_layout, &prm_init2init_qp_out_layout,
	 &init2init_set, true, true},
	{PRM_CMD_INIT2RTR_QP, "INIT2RTR_QP", &prm_init2rtr_qp_in_layout, &prm_init2rtr_qp_out_layout,
	 &init2rtr_set, true, true},
	{PRM_CMD_RTR2RTS_QP, "RTR2RTS_QP", &prm_rtr2rts_qp_in_layout, &prm_rtr2rts_qp_out_layout, &rtr2rts_set,
	 true, true},
	{PRM_CMD_RTS2RTS_QP, "RTS2RTS_QP", &prm_rts2rts_qp_in_layout, &prm_rts2rts_qp_out_layout, &rts2rts_set,
	 true, true},
	{PRM_CMD_SQERR2RTS_QP, "SQERR2RTS_QP", &prm_sqerr2rts_qp_in_layout, &prm_sqerr2rts_qp_out_layout,
	 &sqerr2rts_set, true, true},
	{PRM_CMD_2ERR_QP, "2ERR_QP", &prm_qp_2err_in_layout, &prm_qp_2err_out_layout, &no_qpc_set, true, false},
	{PRM_CMD_2RST_QP, "2RST_QP", &prm_qp_2rst_in_layout, &prm_qp_2rst_out_layout, &no_qpc_set, true, false},
};

static const struct qp_cmd *cmd_find(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < NELEM(qp_cmds); i++)
		if (qp_cmds[i].opcode == opcode)
			return &qp_cmds[i];
	return NULL;
}

bool prm_qp_is_modify_opcode(uint16_t opcode)
{
	const struct qp_cmd *c = cmd_find(opcode);

	return c != NULL && c->is_modify;
}

const struct prm_layout *prm_qp_layout_for_opcode(uint16_t opcode, bool out)
{
	const struct qp_cmd *c = cmd_find(opcode);

	if (c == NULL)
		return NULL;
	return out ? c->out : c->in;
}

doca_error_t prm_qp_cmd_qpc_fields(uint16_t opcode, const struct prm_qpc_field_set **set)
{
	const struct qp_cmd *c = cmd_find(opcode);

	if (set == NULL) {
		OGDA_LOG_ERR("set must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c == NULL || c->opcode == PRM_CMD_DESTROY_QP) {
		OGDA_LOG_ERR("opcode 0x%x is not a QP command that carries a qpc", opcode);
		return DOCA_ERROR_NOT_FOUND;
	}
	*set = c->qpc_set;
	return DOCA_SUCCESS;
}

/* ---- Shared builder/parser steps ---------------------------------------------------------- */

/* Starts an *_in image: zeroes it and writes opcode and uid. */
static void in_start(struct prm_writer *w, const struct qp_cmd *c, uint16_t uid, void *buf, size_t len)
{
	prm_writer_init(w, c->in, buf, len);
	prm_w(w, "opcode", c->opcode);
	prm_w(w, "uid", uid);
}

/* A failed build leaves no half-written command behind. */
static doca_error_t build_end(struct prm_writer *w)
{
	if (w->err != DOCA_SUCCESS && w->buf != NULL && w->layout != NULL && w->len >= w->layout->size)
		memset(w->buf, 0, w->layout->size);
	return w->err;
}

/* Starts parsing an *_in image and checks that it holds the expected command. */
static doca_error_t in_parse_start(struct prm_reader *r, const struct qp_cmd *c, const void *buf, size_t len)
{
	prm_reader_init(r, c->in, buf, len);
	if (r->err == DOCA_SUCCESS)
		r->err = prm_cmd_in_expect(buf, len, c->in, c->opcode);
	return r->err;
}

/* Starts parsing an *_out image: long enough, and the command succeeded (logged if not). */
static doca_error_t out_parse_start(struct prm_reader *r, const struct qp_cmd *c, const void *buf, size_t len)
{
	prm_reader_init(r, c->out, buf, len);
	if (r->err == DOCA_SUCCESS)
		r->err = prm_cmd_out_check(buf, len, c->out->size, c->opcode);
	return r->err;
}

/* Starts an *_out image: zeroes it and writes status and syndrome. */
static void out_start(struct prm_writer *w, const struct qp_cmd *c, uint8_t status, uint32_t syndrome, void *buf,
		      size_t len)
{
	prm_writer_init(w, c->out, buf, len);
	prm_w(w, "status", status);
	prm_w(w, "syndrome", syndrome);
}

static doca_error_t null_param(const char *fn, const char *what)
{
	OGDA_LOG_ERR("%s: %s must not be NULL", fn, what);
	return DOCA_ERROR_INVALID_VALUE;
}

/* ---- CREATE_QP ----------------------------------------------------------------------------- */

doca_error_t prm_create_qp_in_build(const struct prm_create_qp_params *p, void *buf, size_t len)
{
	const struct qp_cmd *c = cmd_find(PRM_CMD_CREATE_QP);
	struct prm_writer w;

	if (p == NULL)
		return null_param(__func__, "params");
	in_start(&w, c, p->uid, buf, len);
	prm_w(&w, "opt_param_mask", p->opt_param_mask);
	prm_qpc_write(&w, "qpc", &p->qpc, c->qpc_set);
	prm_w(&w, "wq_umem_offset", p->wq_umem_offset);
	prm_w(&w, "wq_umem_id", p->wq_umem_id);
	prm_w(&w, "wq_umem_valid", p->wq_umem_valid);
	return build_end(&w);
}

doca_error_t prm_create_qp_in_parse(const void *buf, size_t len, struct prm_create_qp_params *p)
{
	const struct qp_cmd *c = cmd_find(PRM_CMD_CREATE_QP);
	struct prm_create_qp_params tmp;
	struct prm_reader r;

	if (p == NULL)
		return null_param(__func__, "params");
	if (in_parse_start(&r, c, buf, len) != DOCA_SUCCESS)
		return r.err;
	/* Parse into a copy so that *p is left untouched on failure. */
	memset(&tmp, 0, sizeof(tmp));
	tmp.uid = (uint16_t)prm_r(&r, "uid");
	tmp.opt_param_mask = (uint32_t)prm_r(&r, "opt_param_mask");
	prm_qpc_read(&r, "qpc", &tmp.qpc, c->qpc_set);
	tmp.wq_umem_offset = prm_r(&r, "wq_umem_offset");
	tmp.wq_umem_id = (uint32_t)prm_r(&r, "wq_umem_id");
	tmp.wq_umem_valid = (uint8_t)prm_r(&r, "wq_umem_valid");
	if (r.err == DOCA_SUCCESS)
		memcpy(p, &tmp, sizeof(tmp));
	return r.err;
}

doca_error_t prm_create_qp_out_build(uint8_t status, uint32_t syndrome, uint32_t qpn, void *buf, size_t len)
{
	struct prm_writer w;

	out_start(&w, cmd_find(PRM_CMD_CREATE_QP), status, syndrome, buf, len);
	prm_w(&w, "qpn", qpn);
	return build_end(&w);
}

doca_error_t prm_create_qp_out_parse(const void *buf, size_t len, uint32_t *qpn)
{
	struct prm_reader r;
	uint32_t v;

	if (qpn == NULL)
		return null_param(__func__, "qpn");
	if (out_parse_start(&r, cmd_find(PRM_CMD_CREATE_QP), buf, len) != DOCA_SUCCESS)
		return r.err;
	v = (uint32_t)prm_r(&r, "qpn");
	if (r.err == DOCA_SUCCESS)
		*qpn = v;
	return r.err;
}

/* ---- DESTROY_QP, QUERY_QP in ---------------------------------------------------------------- */

static doca_error_t qpn_only_build(uint16_t opcode, uint16_t uid, uint32_t qpn, void *buf, size_t len)
{
	struct prm_writer w;

	in_start(&w, cmd_find(opcode), uid, buf, len);
	prm_w(&w, "qpn", qpn);
	return build_end(&w);
}

static doca_error_t qpn_only_parse(uint16_t opcode, const void *buf, size_t len, uint16_t *uid, uint32_t *qpn)
{
	struct prm_reader r;
	uint16_t u;
	uint32_t q;

	if (uid == NULL || qpn == NULL)
		return null_param(__func__, "uid and qpn");
	if (in_parse_start(&r, cmd_find(opcode), buf, len) != DOCA_SUCCESS)
		return r.err;
	u = (uint16_t)prm_r(&r, "uid");
	q = (uint32_t)prm_r(&r, "qpn");
	if (r.err == DOCA_SUCCESS) {
		*uid = u;
		*qpn = q;
	}
	return r.err;
}

doca_error_t prm_destroy_qp_in_build(uint16_t uid, uint32_t qpn, void *buf, size_t len)
{
	return qpn_only_build(PRM_CMD_DESTROY_QP, uid, qpn, buf, len);
}

doca_error_t prm_destroy_qp_in_parse(const void *buf, size_t len, uint16_t *uid, uint32_t *qpn)
{
	return qpn_only_parse(PRM_CMD_DESTROY_QP, buf, len, uid, qpn);
}

doca_error_t prm_query_qp_in_build(uint16_t uid, uint32_t qpn, void *buf, size_t len)
{
	return qpn_only_build(PRM_CMD_QUERY_QP, uid, qpn, buf, len);
}

doca_error_t prm_query_qp_in_parse(const void *buf, size_t len, uint16_t *uid, uint32_t *qpn)
{
	return qpn_only_parse(PRM_CMD_QUERY_QP, buf, len, uid, qpn);
}

/* ---- QUERY_QP out ---------------------------------------------------------------------------- */

doca_error_t prm_query_qp_out_build(uint8_t status, uint32_t syndrome, const struct prm_qpc_params *qpc, void *buf,
				    size_t len)
{
	const struct qp_cmd *c = cmd_find(PRM_CMD_QUERY_QP);
	struct prm_writer w;

	if (qpc == NULL)
		return null_param(__func__, "qpc");
	out_start(&w, c, status, syndrome, buf, len);
	prm_qpc_write(&w, "qpc", qpc, c->qpc_set);
	return build_end(&w);
}

doca_error_t prm_query_qp_out_parse(const void *buf, size_t len, struct prm_qpc_params *qpc)
{
	const struct qp_cmd *c = cmd_find(PRM_CMD_QUERY_QP);
	struct prm_qpc_params tmp;
	struct prm_reader r;

	if (qpc == NULL)
		return null_param(__func__, "qpc");
	if (out_parse_start(&r, c, buf, len) != DOCA_SUCCESS)
		return r.err;
	memset(&tmp, 0, sizeof(tmp));
	prm_qpc_read(&r, "qpc", &tmp, c->qpc_set);
	if (r.err == DOCA_SUCCESS)
		memcpy(qpc, &tmp, sizeof(tmp));
	return r.err;
}

/* ---- Transitions ---------------------------------------------------------------------------- */

doca_error_t prm_modify_qp_in_build(const struct prm_modify_qp_params *p, void *buf, size_t len)
{
	const struct qp_cmd *c;
	struct prm_writer w;

	if (p == NULL)
		return null_param(__func__, "params");
	c = cmd_find(p->opcode);
	if (c == NULL || !c->is_modify) {
		OGDA_LOG_ERR("opcode 0x%x is not a QP state transition", p->opcode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!c->has_qpc && p->opt_param_mask != 0) {
		OGDA_LOG_ERR("%s carries no opt_param_mask (got 0x%x)", c->name, p->opt_param_mask);
		return DOCA_ERROR_INVALID_VALUE;
	}
	in_start(&w, c, p->uid, buf, len);
	prm_w(&w, "qpn", p->qpn);
	if (c->has_qpc) {
		prm_w(&w, "opt_param_mask", p->opt_param_mask);
		prm_qpc_write(&w, "qpc", &p->qpc, c->qpc_set);
	}
	return build_end(&w);
}

doca_error_t prm_modify_qp_in_parse(const void *buf, size_t len, struct prm_modify_qp_params *p)
{
	struct prm_modify_qp_params tmp;
	const struct qp_cmd *c;
	struct prm_reader r;
	uint16_t opcode;

	if (p == NULL)
		return null_param(__func__, "params");
	/* The opcode picks the layout, so the header is read before the full length check. */
	if (prm_cmd_in_peek(buf, len, &opcode, NULL, NULL) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	c = cmd_find(opcode);
	if (c == NULL || !c->is_modify) {
		OGDA_LOG_ERR("opcode 0x%x is not a QP state transition", opcode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (in_parse_start(&r, c, buf, len) != DOCA_SUCCESS)
		return r.err;
	memset(&tmp, 0, sizeof(tmp));
	tmp.opcode = opcode;
	tmp.uid = (uint16_t)prm_r(&r, "uid");
	tmp.qpn = (uint32_t)prm_r(&r, "qpn");
	if (c->has_qpc) {
		tmp.opt_param_mask = (uint32_t)prm_r(&r, "opt_param_mask");
		prm_qpc_read(&r, "qpc", &tmp.qpc, c->qpc_set);
	}
	if (r.err == DOCA_SUCCESS)
		memcpy(p, &tmp, sizeof(tmp));
	return r.err;
}

/* ---- Status-only outs ------------------------------------------------------------------------ */

static const struct qp_cmd *cmd_find_logged(uint16_t opcode)
{
	const struct qp_cmd *c = cmd_find(opcode);

	if (c == NULL)
		OGDA_LOG_ERR("opcode 0x%x is not a QP command", opcode);
	return c;
}

doca_error_t prm_qp_status_out_build(uint16_t opcode, uint8_t status, uint32_t syndrome, void *buf, size_t len)
{
	const struct qp_cmd *c = cmd_find_logged(opcode);
	struct prm_writer w;

	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	out_start(&w, c, status, syndrome, buf, len);
	return build_end(&w);
}

doca_error_t prm_qp_status_out_parse(uint16_t opcode, const void *buf, size_t len, uint8_t *status,
				     uint32_t *syndrome)
{
	const struct qp_cmd *c = cmd_find_logged(opcode);
	struct prm_reader r;
	uint8_t s;
	uint32_t syn;

	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (status == NULL || syndrome == NULL)
		return null_param(__func__, "status and syndrome");
	prm_reader_init(&r, c->out, buf, len);
	s = (uint8_t)prm_r(&r, "status");
	syn = (uint32_t)prm_r(&r, "syndrome");
	if (r.err == DOCA_SUCCESS) {
		*status = s;
		*syndrome = syn;
	}
	return r.err;
}
