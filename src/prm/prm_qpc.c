/* SPDX-License-Identifier: BSD-3-Clause */
#include "prm/prm_qpc.h"

#include "core/log.h"

#include <stdio.h>
#include <string.h>

/* ads_bits: dwN relative to the start of the address path. */
static const struct prm_field ads_fields[] = {
	PRM_BITS("fl", 0, 31, 31),
	PRM_BITS("free_ar", 0, 30, 30),
	PRM_BITS("pkey_index", 0, 15, 0),
	PRM_BITS("grh", 1, 23, 23),
	PRM_BITS("mlid", 1, 22, 16),
	PRM_BITS("rlid", 1, 15, 0),
	PRM_BITS("ack_timeout", 2, 31, 27),
	PRM_BITS("src_addr_index", 2, 23, 16),
	PRM_BITS("stat_rate", 2, 11, 8),
	PRM_BITS("hop_limit", 2, 7, 0),
	PRM_BITS("tclass", 3, 27, 20),
	PRM_BITS("flow_label", 3, 19, 0),
	{"rgid_rip", 0x10u * 8u, 128u, NULL}, /* 16 bytes, copied with prm_w_bytes */
	PRM_BITS("f_dscp", 8, 27, 27),
	PRM_BITS("f_ecn", 8, 26, 26),
	PRM_BITS("f_eth_prio", 8, 24, 24),
	PRM_BITS("ecn", 8, 23, 22),
	PRM_BITS("dscp", 8, 21, 16),
	PRM_BITS("udp_sport", 8, 15, 0),
	PRM_BITS("dei_cfi", 9, 31, 31),
	PRM_BITS("eth_prio", 9, 30, 28),
	PRM_BITS("sl", 9, 27, 24),
	PRM_BITS("vhca_port_num", 9, 23, 16),
	PRM_BITS("rmac_47_32", 9, 15, 0),
	PRM_DW("rmac_31_0", 10),
};

const struct prm_layout prm_ads_layout = PRM_LAYOUT("ads", PRM_ADS_SIZE, ads_fields);

/* qpc_bits: dwN relative to the start of the QP context. */
static const struct prm_field qpc_fields[] = {
	PRM_BITS("state", 0, 31, 28),
	PRM_BITS("lag_tx_port_affinity", 0, 27, 24),
	PRM_BITS("st", 0, 23, 16),
	PRM_BITS("isolate_vl_tc", 0, 13, 13),
	PRM_BITS("pm_state", 0, 12, 11),
	PRM_BITS("req_e2e_credit_mode", 0, 9, 8),
	PRM_BITS("offload_type", 0, 7, 4),
	PRM_BITS("end_padding_mode", 0, 3, 2),
	PRM_BITS("wq_signature", 1, 31, 31),
	PRM_BITS("block_lb_mc", 1, 30, 30),
	PRM_BITS("atomic_like_write_en", 1, 29, 29),
	PRM_BITS("latency_sensitive", 1, 28, 28),
	PRM_BITS("drain_sigerr", 1, 26, 26),
	PRM_BITS("pd", 1, 23, 0),
	PRM_BITS("mtu", 2, 31, 29),
	PRM_BITS("log_msg_max", 2, 28, 24),
	PRM_BITS("log_rq_size", 2, 22, 19),
	PRM_BITS("log_rq_stride", 2, 18, 16),
	PRM_BITS("no_sq", 2, 15, 15),
	PRM_BITS("log_sq_size", 2, 14, 11),
	PRM_BITS("ts_format", 2, 7, 6),
	PRM_BITS("rlky", 2, 4, 4),
	PRM_BITS("ulp_stateless_offload_mode", 2, 3, 0),
	PRM_BITS("counter_set_id", 3, 31, 24),
	PRM_BITS("uar_page", 3, 23, 0),
	PRM_BITS("send_dbr_mode", 4, 31, 30),
	PRM_BITS("user_index", 4, 23, 0),
	PRM_BITS("log_page_size", 5, 28, 24),
	PRM_BITS("remote_qpn", 5, 23, 0),
	/* Explicit widths: a struct member is not a constant expression in standard C. */
	PRM_SUB("primary_address_path", 0x18, prm_ads_layout, PRM_ADS_SIZE),
	PRM_SUB("secondary_address_path", 0x44, prm_ads_layout, PRM_ADS_SIZE),
	PRM_BITS("log_ack_req_freq", 28, 31, 28),
	PRM_BITS("log_sra_max", 28, 23, 21),
	PRM_BITS("retry_count", 28, 18, 16),
	PRM_BITS("rnr_retry", 28, 15, 13),
	PRM_BITS("fre", 28, 11, 11),
	PRM_BITS("cur_rnr_retry", 28, 10, 8),
	PRM_BITS("cur_retry_count", 28, 7, 5),
	PRM_BITS("next_send_psn", 30, 23, 0),
	PRM_BITS("log_num_dci_stream_channels", 31, 28, 24),
	PRM_BITS("cqn_snd", 31, 23, 0),
	PRM_BITS("log_num_dci_errored_streams", 32, 28, 24),
	PRM_BITS("deth_sqpn", 32, 23, 0),
	PRM_BITS("last_acked_psn", 34, 23, 0),
	PRM_BITS("ssn", 35, 23, 0),
	PRM_BITS("log_rra_max", 36, 23, 21),
	PRM_BITS("atomic_mode", 36, 19, 16),
	PRM_BITS("rre", 36, 15, 15),
	PRM_BITS("rwe", 36, 14, 14),
	PRM_BITS("rae", 36, 13, 13),
	PRM_BITS("page_offset", 36, 11, 6),
	PRM_BITS("cd_slave_receive", 36, 2, 2),
	PRM_BITS("cd_slave_send", 36, 1, 1),
	PRM_BITS("cd_master", 36, 0, 0),
	PRM_BITS("min_rnr_nak", 37, 28, 24),
	PRM_BITS("next_rcv_psn", 37, 23, 0),
	PRM_BITS("xrcd", 38, 23, 0),
	PRM_BITS("cqn_rcv", 39, 23, 0),
	PRM_U64("dbr_addr", 0xa0),
	PRM_DW("q_key", 42),
	PRM_BITS("rq_type", 43, 26, 24),
	PRM_BITS("srqn_rmpn_xrqn", 43, 23, 0),
	PRM_BITS("rmsn", 44, 23, 0),
	PRM_BITS("hw_sq_wqebb_counter", 45, 31, 16),
	PRM_BITS("sw_sq_wqebb_counter", 45, 15, 0),
	PRM_DW("hw_rq_counter", 46),
	PRM_DW("sw_rq_counter", 47),
	PRM_BITS("cgs", 49, 16, 16),
	PRM_BITS("cs_req", 49, 15, 8),
	PRM_BITS("cs_res", 49, 7, 0),
	PRM_U64("dc_access_key", 0xc8),
	PRM_BITS("dbr_umem_valid", 52, 28, 28),
	PRM_DW("dbr_umem_id", 57),
};

const struct prm_layout prm_qpc_layout = PRM_LAYOUT("qpc", PRM_QPC_SIZE, qpc_fields);

/*
 * Parameter bindings: which struct member a field path reads from or writes to. The MAC is
 * one 6-byte member split over two PRM fields; the GID is a 16-byte copy.
 */
enum param_kind {
	PARAM_U8,
	PARAM_U16,
	PARAM_U32,
	PARAM_U64,
	PARAM_GID,
	PARAM_MAC_HI16,
	PARAM_MAC_LO32,
};

struct param_binding {
	const char *path;  /* relative to the ads or the qpc */
	size_t offset;     /* in struct prm_ads_params or struct prm_qpc_params */
	enum param_kind kind;
};

#define ADS_P(member, kind) {#member, offsetof(struct prm_ads_params, member), (kind)}
#define QPC_P(member, kind) {#member, offsetof(struct prm_qpc_params, member), (kind)}

static const struct param_binding ads_params[] = {
	ADS_P(fl, PARAM_U8),
	ADS_P(free_ar, PARAM_U8),
	ADS_P(pkey_index, PARAM_U16),
	ADS_P(grh, PARAM_U8),
	ADS_P(mlid, PARAM_U8),
	ADS_P(rlid, PARAM_U16),
	ADS_P(ack_timeout, PARAM_U8),
	ADS_P(src_addr_index, PARAM_U8),
	ADS_P(stat_rate, PARAM_U8),
	ADS_P(hop_limit, PARAM_U8),
	ADS_P(tclass, PARAM_U8),
	ADS_P(flow_label, PARAM_U32),
	ADS_P(rgid_rip, PARAM_GID),
	ADS_P(f_dscp, PARAM_U8),
	ADS_P(f_ecn, PARAM_U8),
	ADS_P(f_eth_prio, PARAM_U8),
	ADS_P(ecn, PARAM_U8),
	ADS_P(dscp, PARAM_U8),
	ADS_P(udp_sport, PARAM_U16),
	ADS_P(dei_cfi, PARAM_U8),
	ADS_P(eth_prio, PARAM_U8),
	ADS_P(sl, PARAM_U8),
	ADS_P(vhca_port_num, PARAM_U8),
	{"rmac_47_32", offsetof(struct prm_ads_params, rmac), PARAM_MAC_HI16},
	{"rmac_31_0", offsetof(struct prm_ads_params, rmac), PARAM_MAC_LO32},
};

static const struct param_binding qpc_params[] = {
	QPC_P(state, PARAM_U8),
	QPC_P(st, PARAM_U8),
	QPC_P(pm_state, PARAM_U8),
	QPC_P(wq_signature, PARAM_U8),
	QPC_P(pd, PARAM_U32),
	QPC_P(mtu, PARAM_U8),
	QPC_P(log_msg_max, PARAM_U8),
	QPC_P(log_rq_size, PARAM_U8),
	QPC_P(log_rq_stride, PARAM_U8),
	QPC_P(no_sq, PARAM_U8),
	QPC_P(log_sq_size, PARAM_U8),
	QPC_P(ts_format, PARAM_U8),
	QPC_P(counter_set_id, PARAM_U8),
	QPC_P(uar_page, PARAM_U32),
	QPC_P(send_dbr_mode, PARAM_U8),
	QPC_P(user_index, PARAM_U32),
	QPC_P(log_page_size, PARAM_U8),
	QPC_P(remote_qpn, PARAM_U32),
	QPC_P(log_ack_req_freq, PARAM_U8),
	QPC_P(log_sra_max, PARAM_U8),
	QPC_P(retry_count, PARAM_U8),
	QPC_P(rnr_retry, PARAM_U8),
	QPC_P(cur_rnr_retry, PARAM_U8),
	QPC_P(cur_retry_count, PARAM_U8),
	QPC_P(next_send_psn, PARAM_U32),
	QPC_P(cqn_snd, PARAM_U32),
	QPC_P(last_acked_psn, PARAM_U32),
	QPC_P(log_rra_max, PARAM_U8),
	QPC_P(atomic_mode, PARAM_U8),
	QPC_P(rre, PARAM_U8),
	QPC_P(rwe, PARAM_U8),
	QPC_P(rae, PARAM_U8),
	QPC_P(page_offset, PARAM_U8),
	QPC_P(cd_slave_receive, PARAM_U8),
	QPC_P(cd_slave_send, PARAM_U8),
	QPC_P(cd_master, PARAM_U8),
	QPC_P(min_rnr_nak, PARAM_U8),
	QPC_P(next_rcv_psn, PARAM_U32),
	QPC_P(cqn_rcv, PARAM_U32),
	QPC_P(dbr_addr, PARAM_U64),
	QPC_P(q_key, PARAM_U32),
	QPC_P(rq_type, PARAM_U8),
	QPC_P(srqn_rmpn_xrqn, PARAM_U32),
	QPC_P(hw_sq_wqebb_counter, PARAM_U16),
	QPC_P(sw_sq_wqebb_counter, PARAM_U16),
	QPC_P(hw_rq_counter, PARAM_U32),
	QPC_P(sw_rq_counter, PARAM_U32),
	QPC_P(cs_req, PARAM_U8),
	QPC_P(cs_res, PARAM_U8),
	QPC_P(dbr_umem_valid, PARAM_U8),
	QPC_P(dbr_umem_id, PARAM_U32),
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Address-path members, spelled out once so both paths list the same fields in one order. */
#define ADS_PATHS(p)                                                                               \
	p ".fl", p ".free_ar", p ".pkey_index", p ".grh", p ".mlid", p ".rlid", p ".ack_timeout",  \
	p ".src_addr_index", p ".stat_rate", p ".hop_limit", p ".tclass", p ".flow_label",         \
	p ".rgid_rip", p ".f_dscp", p ".f_ecn", p ".f_eth_prio", p ".ecn", p ".dscp",               \
	p ".udp_sport", p ".dei_cfi", p ".eth_prio", p ".sl", p ".vhca_port_num", p ".rmac_47_32", \
	p ".rmac_31_0"

static const char *const all_paths[] = {
	"state", "st", "pm_state", "wq_signature", "pd", "mtu", "log_msg_max", "log_rq_size",
	"log_rq_stride", "no_sq", "log_sq_size", "ts_format", "counter_set_id", "uar_page",
	"send_dbr_mode", "user_index", "log_page_size", "remote_qpn",
	ADS_PATHS("primary_address_path"),
	ADS_PATHS("secondary_address_path"),
	"log_ack_req_freq", "log_sra_max", "retry_count", "rnr_retry", "cur_rnr_retry",
	"cur_retry_count", "next_send_psn", "cqn_snd", "last_acked_psn", "log_rra_max",
	"atomic_mode", "rre", "rwe", "rae", "page_offset", "cd_slave_receive", "cd_slave_send",
	"cd_master", "min_rnr_nak", "next_rcv_psn", "cqn_rcv", "dbr_addr", "q_key", "rq_type",
	"srqn_rmpn_xrqn", "hw_sq_wqebb_counter", "sw_sq_wqebb_counter", "hw_rq_counter",
	"sw_rq_counter", "cs_req", "cs_res", "dbr_umem_valid", "dbr_umem_id",
};

const struct prm_qpc_field_set prm_qpc_fields_all = {"all", all_paths, NELEM(all_paths)};

/* Longest composed path: "qpc.secondary_address_path.src_addr_index" and the like. */
#define PATH_MAX_LEN 96

static const struct param_binding *binding_find(const struct param_binding *table, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(table[i].path, path) == 0)
			return &table[i];
	return NULL;
}

/* Resolves a qpc-relative path to its binding and the byte offset of its member in *qpc. */
static const struct param_binding *qpc_binding(const char *path, size_t *member_off)
{
	static const struct {
		const char *prefix;
		size_t offset;
	} paths[] = {
		{"primary_address_path.", offsetof(struct prm_qpc_params, primary_address_path)},
		{"secondary_address_path.", offsetof(struct prm_qpc_params, secondary_address_path)},
	};
	const struct param_binding *b;
	size_t i;

	for (i = 0; i < NELEM(paths); i++) {
		size_t plen = strlen(paths[i].prefix);

		if (strncmp(path, paths[i].prefix, plen) == 0) {
			b = binding_find(ads_params, NELEM(ads_params), path + plen);
			if (b != NULL)
				*member_off = paths[i].offset + b->offset;
			return b;
		}
	}
	b = binding_find(qpc_params, NELEM(qpc_params), path);
	if (b != NULL)
		*member_off = b->offset;
	return b;
}

static doca_error_t check_args(const char *qpc_path, const void *qpc, const struct prm_qpc_field_set *set)
{
	if (qpc_path == NULL || qpc == NULL || set == NULL || (set->paths == NULL && set->npaths != 0)) {
		OGDA_LOG_ERR("qpc path, parameters and field set must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Finds the binding of set->paths[i] and composes its path inside the command. */
static doca_error_t prepare(const char *qpc_path, const struct prm_qpc_field_set *set, size_t i, char *full,
			    const struct param_binding **b, size_t *member_off)
{
	int n;

	*b = qpc_binding(set->paths[i], member_off);
	if (*b == NULL) {
		OGDA_LOG_ERR("field set %s: '%s' is not a modelled qpc field", set->name, set->paths[i]);
		return DOCA_ERROR_NOT_FOUND;
	}
	n = snprintf(full, PATH_MAX_LEN, "%s.%s", qpc_path, set->paths[i]);
	if (n < 0 || n >= PATH_MAX_LEN) {
		OGDA_LOG_ERR("qpc field path '%s.%s' is too long", qpc_path, set->paths[i]);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static uint64_t member_get(const uint8_t *base, const struct param_binding *b)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (b->kind) {
	case PARAM_U8:
		memcpy(&u8, base, sizeof(u8));
		return u8;
	case PARAM_U16:
		memcpy(&u16, base, sizeof(u16));
		return u16;
	case PARAM_U32:
		memcpy(&u32, base, sizeof(u32));
		return u32;
	case PARAM_U64:
		memcpy(&u64, base, sizeof(u64));
		return u64;
	case PARAM_MAC_HI16:
		return ((uint64_t)base[0] << 8) | base[1];
	case PARAM_MAC_LO32:
		return ((uint64_t)base[2] << 24) | ((uint64_t)base[3] << 16) | ((uint64_t)base[4] << 8) | base[5];
	case PARAM_GID:
		break;
	}
	return 0;
}

static void member_set(uint8_t *base, const struct param_binding *b, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (b->kind) {
	case PARAM_U8:
		memcpy(base, &u8, sizeof(u8));
		break;
	case PARAM_U16:
		memcpy(base, &u16, sizeof(u16));
		break;
	case PARAM_U32:
		memcpy(base, &u32, sizeof(u32));
		break;
	case PARAM_U64:
		memcpy(base, &v, sizeof(v));
		break;
	case PARAM_MAC_HI16:
		base[0] = (uint8_t)(v >> 8);
		base[1] = (uint8_t)v;
		break;
	case PARAM_MAC_LO32:
		base[2] = (uint8_t)(v >> 24);
		base[3] = (uint8_t)(v >> 16);
		base[4] = (uint8_t)(v >> 8);
		base[5] = (uint8_t)v;
		break;
	case PARAM_GID:
		break;
	}
}

void prm_qpc_write(struct prm_writer *w, const char *qpc_path, const struct prm_qpc_params *qpc,
		   const struct prm_qpc_field_set *set)
{
	char full[PATH_MAX_LEN];
	size_t i;

	if (w == NULL || w->err != DOCA_SUCCESS)
		return;
	w->err = check_args(qpc_path, qpc, set);
	for (i = 0; w->err == DOCA_SUCCESS && i < set->npaths; i++) {
		const struct param_binding *b = NULL;
		size_t off = 0;
		const uint8_t *base;

		w->err = prepare(qpc_path, set, i, full, &b, &off);
		if (w->err != DOCA_SUCCESS)
			return;
		base = (const uint8_t *)qpc + off;
		if (b->kind == PARAM_GID)
			prm_w_bytes(w, full, base, 16);
		else
			prm_w(w, full, member_get(base, b));
	}
}

void prm_qpc_read(struct prm_reader *r, const char *qpc_path, struct prm_qpc_params *qpc,
		  const struct prm_qpc_field_set *set)
{
	char full[PATH_MAX_LEN];
	size_t i;

	if (r == NULL || r->err != DOCA_SUCCESS)
		return;
	r->err = check_args(qpc_path, qpc, set);
	for (i = 0; r->err == DOCA_SUCCESS && i < set->npaths; i++) {
		const struct param_binding *b = NULL;
		size_t off = 0;
		uint8_t *base;
		uint64_t v;

		r->err = prepare(qpc_path, set, i, full, &b, &off);
		if (r->err != DOCA_SUCCESS)
			return;
		base = (uint8_t *)qpc + off;
		if (b->kind == PARAM_GID) {
			prm_r_bytes(r, full, base, 16);
			continue;
		}
		v = prm_r(r, full);
		if (r->err == DOCA_SUCCESS)
			member_set(base, b, v);
	}
}
