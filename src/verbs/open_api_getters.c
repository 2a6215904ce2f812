/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The open releases' getter shapes (doca_verbs_open_api.h): 2.0 returns values where the guide
 * returns a status with an out-parameter, and 3.0 does the reverse for a few attributes. Each
 * form here calls the guide's; a failure gives the documented empty value and the guide's log line.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"

uint32_t opengda_open_qp_get_qpn_value(const struct doca_verbs_qp *verbs_qp)
{
	uint32_t qpn = 0;

	return doca_verbs_qp_get_qpn(verbs_qp, &qpn) == DOCA_SUCCESS ? qpn : 0;
}

void *opengda_open_qp_get_dbr_addr_value(const struct doca_verbs_qp *verbs_qp)
{
	void *a = NULL;

	return doca_verbs_qp_get_dbr_addr(verbs_qp, &a) == DOCA_SUCCESS ? a : NULL;
}

void *opengda_open_qp_get_uar_addr_value(const struct doca_verbs_qp *verbs_qp)
{
	void *a = NULL;

	return doca_verbs_qp_get_uar_addr(verbs_qp, &a) == DOCA_SUCCESS ? a : NULL;
}

enum doca_verbs_qp_send_dbr_mode opengda_open_qp_get_send_dbr_mode_value(const struct doca_verbs_qp *verbs_qp)
{
	enum doca_verbs_qp_send_dbr_mode m = DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;

	return doca_verbs_qp_get_send_dbr_mode(verbs_qp, &m) == DOCA_SUCCESS ? m : DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;
}

uint32_t opengda_open_cq_get_cqn_value(const struct doca_verbs_cq *verbs_cq)
{
	uint32_t cqn = 0;

	return doca_verbs_cq_get_cqn(verbs_cq, &cqn) == DOCA_SUCCESS ? cqn : 0;
}

uint32_t opengda_open_srq_get_srqn_value(const struct doca_verbs_srq *verbs_srq)
{
	uint32_t srqn = 0;

	return doca_verbs_srq_get_srqn(verbs_srq, &srqn) == DOCA_SUCCESS ? srqn : 0;
}

void *opengda_open_srq_get_dbr_addr_value(const struct doca_verbs_srq *verbs_srq)
{
	void *a = NULL;

	return doca_verbs_srq_get_dbr_addr(verbs_srq, &a) == DOCA_SUCCESS ? a : NULL;
}

doca_error_t opengda_open_qp_query_nomask(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *qp_attr,
					  struct doca_verbs_qp_init_attr *init_attr)
{
	int mask = 0;

	return doca_verbs_qp_query(verbs_qp, qp_attr, init_attr, &mask);
}

/* The 3.0 out-parameter forms: a NULL object or output is refused with a log line. */
#define OUT_FORM(what, obj, out, value)                                                                \
	do {                                                                                           \
		if ((obj) == NULL || (out) == NULL) {                                                  \
			OGDA_LOG_ERR("%s: the attributes and the output must not be NULL", what);     \
			return DOCA_ERROR_INVALID_VALUE;                                               \
		}                                                                                      \
		*(out) = (value);                                                                      \
		return DOCA_SUCCESS;                                                                   \
	} while (0)

doca_error_t opengda_open_qp_init_attr_get_send_dbr_mode_out(const struct doca_verbs_qp_init_attr *init_attr,
							     enum doca_verbs_qp_send_dbr_mode *mode)
{
	OUT_FORM("doca_verbs_qp_init_attr_get_send_dbr_mode", init_attr, mode,
		 doca_verbs_qp_init_attr_get_send_dbr_mode(init_attr));
}

doca_error_t opengda_open_qp_init_attr_get_emulate_no_dbr_ext_out(const struct doca_verbs_qp_init_attr *init_attr,
								  bool *out)
{
	OUT_FORM("doca_verbs_qp_init_attr_get_emulate_no_dbr_ext", init_attr, out,
		 doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(init_attr));
}

doca_error_t opengda_open_qp_attr_get_current_state_out(const struct doca_verbs_qp_attr *qp_attr,
							enum doca_verbs_qp_state *state)
{
	OUT_FORM("doca_verbs_qp_attr_get_current_state", qp_attr, state, doca_verbs_qp_attr_get_current_state(qp_attr));
}
