/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RQT and TIR layouts, builders and parsers. Positions: Linux include/linux/mlx5/mlx5_ifc.h
 * mlx5_ifc_rqtc_bits, rq_num_bits, create_rqt_in/out, destroy_rqt_in, tirc_bits,
 * rx_hash_field_select_bits, create_tir_in/out, destroy_tir_in; the enum values from the
 * MLX5_TIRC_* / MLX5_RX_HASH_FN_* enums there and MLX5_L3_PROT_TYPE_*, MLX5_L4_PROT_TYPE_*,
 * MLX5_HASH_FIELD_SEL_* in include/linux/mlx5/device.h. Bit offsets as "dwN [hi:lo]"
 * (N = off / 32, hi = 31 - off % 32):
 *
 *   rqtc    rqt_max_size 0xb0 dw5 [15:0]   rqt_actual_size 0xd0 dw6 [15:0]   rq_num[] at 0x780 (byte 0xf0)
 *   rq_num  rq_num 0x8 dw0 [23:0], 4 bytes per entry
 *   create_rqt_in  rqt_context at bit 0x100 (byte 0x20), so rq_num[0] at byte 0x110
 *   tirc    disp_type 0x20 dw1 [31:28]
 *           lro_timeout_period_usecs 0x84 dw4 [27:12]  lro_enable_mask 0x94 dw4 [11:8]
 *           lro_max_ip_payload_size 0x98 dw4 [7:0]     inline_rqn 0xe8 dw7 [23:0]
 *           rx_hash_symmetric 0x100 dw8 [31]  tunneled_offload_en 0x102 dw8 [29]
 *           indirect_table 0x108 dw8 [23:0]   rx_hash_fn 0x120 dw9 [31:28]
 *           self_lb_block 0x126 dw9 [25:24]   transport_domain 0x128 dw9 [23:0]
 *           rx_hash_toeplitz_key 0x140 (bytes 0x28..0x4f)
 *           rx_hash_field_selector_outer 0x280 (byte 0x50), _inner 0x2a0 (byte 0x54); size 0x780 bits
 *   rx_hash_field_select  l3_prot_type dw0 [31]  l4_prot_type dw0 [30]  selected_fields dw0 [29:0]
 *   create_tir_in  ctx at bit 0x100 (byte 0x20)
 *   create_tir_out tirn 0x48 dw2 [23:0]; create_rqt_out rqtn 0x48 dw2 [23:0]
 *   destroy_tir_in tirn 0x48 dw2 [23:0]; destroy_rqt_in rqtn 0x48 dw2 [23:0]
 */
#include "prm/prm_tir.h"

#include "core/log.h"
#include "prm/prm_cmd.h"

#include <string.h>

/* A whole-byte field of n bytes at a byte offset, copied with prm_w_bytes / prm_r_bytes. */
#define TIR_BYTES(fname, byte, n) {(fname), (uint32_t)(byte) * 8u, (uint32_t)(n) * 8u, NULL}

static const struct prm_field rqtc_fields[] = {
	PRM_BITS("rqt_max_size", 5, 15, 0),
	PRM_BITS("rqt_actual_size", 6, 15, 0),
};
const struct prm_layout prm_rqtc_layout = PRM_LAYOUT("rqtc", PRM_RQTC_SIZE, rqtc_fields);

static const struct prm_field rq_num_fields[] = {
	PRM_BITS("rq_num", 0, 23, 0),
};
const struct prm_layout prm_rq_num_layout = PRM_LAYOUT("rq_num", PRM_RQT_ENTRY_SIZE, rq_num_fields);

static const struct prm_field create_rqt_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("rqt_context", PRM_RQTC_OFFSET, prm_rqtc_layout, PRM_RQTC_SIZE),
};
const struct prm_layout prm_create_rqt_in_layout =
	PRM_LAYOUT("create_rqt_in", PRM_RQT_CMD_SIZE, create_rqt_in_fields);

static const struct prm_field rqtn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("rqtn", 2, 23, 0),
};
const struct prm_layout prm_create_rqt_out_layout =
	PRM_LAYOUT("create_rqt_out", PRM_TIR_SMALL_CMD_SIZE, rqtn_out_fields);

static const struct prm_field rqtn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("rqtn", 2, 23, 0),
};
const struct prm_layout prm_destroy_rqt_in_layout =
	PRM_LAYOUT("destroy_rqt_in", PRM_TIR_SMALL_CMD_SIZE, rqtn_in_fields);

static const struct prm_field empty_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
};
const struct prm_layout prm_destroy_rqt_out_layout =
	PRM_LAYOUT("destroy_rqt_out", PRM_TIR_SMALL_CMD_SIZE, empty_out_fields);
const struct prm_layout prm_destroy_tir_out_layout =
	PRM_LAYOUT("destroy_tir_out", PRM_TIR_SMALL_CMD_SIZE, empty_out_fields);

static const struct prm_field rx_hash_field_select_fields[] = {
	PRM_BITS("l3_prot_type", 0, 31, 31),
	PRM_BITS("l4_prot_type", 0, 30, 30),
	PRM_BITS("selected_fields", 0, 29, 0),
};
const struct prm_layout prm_rx_hash_field_select_layout =
	PRM_LAYOUT("rx_hash_field_select", 4, rx_hash_field_select_fields);

static const struct prm_field tirc_fields[] = {
	PRM_BITS("disp_type", 1, 31, 28),
	PRM_BITS("lro_timeout_period_usecs", 4, 27, 12),
	PRM_BITS("lro_enable_mask", 4, 11, 8),
	PRM_BITS("lro_max_ip_payload_size", 4, 7, 0),
	PRM_BITS("inline_rqn", 7, 23, 0),
	PRM_BITS("rx_hash_symmetric", 8, 31, 31),
	PRM_BITS("tunneled_offload_en", 8, 29, 29),
	PRM_BITS("indirect_table", 8, 23, 0),
	PRM_BITS("rx_hash_fn", 9, 31, 28),
	PRM_BITS("self_lb_block", 9, 25, 24),
	PRM_BITS("transport_domain", 9, 23, 0),
	TIR_BYTES("rx_hash_toeplitz_key", 0x28, PRM_TIR_TOEPLITZ_KEY_LEN),
	PRM_SUB("rx_hash_field_selector_outer", 0x50, prm_rx_hash_field_select_layout, 4),
	PRM_SUB("rx_hash_field_selector_inner", 0x54, prm_rx_hash_field_select_layout, 4),
};
const struct prm_layout prm_tirc_layout = PRM_LAYOUT("tirc", PRM_TIRC_SIZE, tirc_fields);

static const struct prm_field create_tir_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_SUB("ctx", PRM_TIRC_OFFSET, prm_tirc_layout, PRM_TIRC_SIZE),
};
const struct prm_layout prm_create_tir_in_layout = PRM_LAYOUT("create_tir_in", PRM_TIR_CMD_SIZE, create_tir_in_fields);

static const struct prm_field tirn_out_fields[] = {
	PRM_CMD_OUT_HDR_FIELDS,
	PRM_BITS("tirn", 2, 23, 0),
};
const struct prm_layout prm_create_tir_out_layout =
	PRM_LAYOUT("create_tir_out", PRM_TIR_SMALL_CMD_SIZE, tirn_out_fields);

static const struct prm_field tirn_in_fields[] = {
	PRM_CMD_IN_HDR_FIELDS,
	PRM_BITS("tirn", 2, 23, 0),
};
const struct prm_layout prm_destroy_tir_in_layout =
	PRM_LAYOUT("destroy_tir_in", PRM_TIR_SMALL_CMD_SIZE, tirn_in_fields);

#define HASH_SEL_MEMBERS(X, m, path)                                                                \
	X(m.l3_prot_type, path ".l3_prot_type")                                                    \
	X(m.l4_prot_type, path ".l4_prot_type")                                                    \
	X(m.selected_fields, path ".selected_fields")

/* Every scalar tirc member, as X(member, path below the tirc); the Toeplitz key is copied apart. */
#define TIRC_MEMBERS(X)                                                                            \
	X(disp_type, "disp_type")                                                                  \
	X(lro_timeout_period_usecs, "lro_timeout_period_usecs")                                    \
	X(lro_enable_mask, "lro_enable_mask")                                                      \
	X(lro_max_ip_payload_size, "lro_max_ip_payload_size")                                      \
	X(inline_rqn, "inline_rqn")                                                                \
	X(rx_hash_symmetric, "rx_hash_symmetric")                                                  \
	X(tunneled_offload_en, "tunneled_offload_en")                                              \
	X(indirect_table, "indirect_table")                                                        \
	X(rx_hash_fn, "rx_hash_fn")                                                                \
	X(self_lb_block, "self_lb_block")                                                          \
	X(transport_domain, "transport_domain")                                                    \
	HASH_SEL_MEMBERS(X, rx_hash_field_selector_outer, "rx_hash_field_selector_outer")          \
	HASH_SEL_MEMBERS(X, rx_hash_field_selector_inner, "rx_hash_field_selector_inner")

#define CREATE_TIRC(m, path) PRM_MAP(struct prm_create_tir_params, tirc.m, "ctx." path),
static const struct prm_param_map create_tir_in_map[] = {
	PRM_MAP(struct prm_create_tir_params, uid, "uid"),
	TIRC_MEMBERS(CREATE_TIRC)
};
#undef CREATE_TIRC

static const struct prm_param_map create_rqt_in_map[] = {
	PRM_MAP(struct prm_create_rqt_params, uid, "uid"),
	PRM_MAP(struct prm_create_rqt_params, rqtc.rqt_max_size, "rqt_context.rqt_max_size"),
	PRM_MAP(struct prm_create_rqt_params, rqtc.rqt_actual_size, "rqt_context.rqt_actual_size"),
};

size_t prm_create_rqt_in_size(uint32_t n)
{
	if (n > PRM_RQT_MAX_RQS)
		return 0;
	return PRM_RQT_CMD_SIZE + (size_t)n * PRM_RQT_ENTRY_SIZE;
}

/* The list's size check, shared by builder and parser. */
static doca_error_t rqt_list_fits(uint32_t n, size_t len)
{
	size_t need = prm_create_rqt_in_size(n);

	if (need == 0) {
		OGDA_LOG_ERR("create_rqt_in: %u RQs, at most %u", n, PRM_RQT_MAX_RQS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len < need) {
		OGDA_LOG_ERR("create_rqt_in with %u RQs needs %zu bytes, got %zu", n, need, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t prm_create_rqt_in_build(const struct prm_create_rqt_params *p, void *in, size_t len)
{
	struct prm_writer w;
	uint8_t *list;
	doca_error_t err;
	uint32_t i;

	if (p == NULL || in == NULL) {
		OGDA_LOG_ERR("create_rqt_in: parameters and buffer must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = rqt_list_fits(p->rqtc.rqt_actual_size, len);
	if (err != DOCA_SUCCESS)
		return err;
	err = prm_cmd_mapped_in_build(&prm_create_rqt_in_layout, PRM_CMD_CREATE_RQT, create_rqt_in_map,
				      PRM_MAP_COUNT(create_rqt_in_map), in, len, p);
	list = (uint8_t *)in + PRM_RQT_LIST_OFFSET;
	for (i = 0; i < p->rqtc.rqt_actual_size && err == DOCA_SUCCESS; i++) {
		prm_writer_init(&w, &prm_rq_num_layout, list + (size_t)i * PRM_RQT_ENTRY_SIZE, PRM_RQT_ENTRY_SIZE);
		prm_w(&w, "rq_num", p->rqtc.rq_num[i]);
		err = w.err;
	}
	return err;
}

doca_error_t prm_create_rqt_in_parse(const void *in, size_t len, struct prm_create_rqt_params *p)
{
	struct prm_create_rqt_params v;
	struct prm_reader r;
	const uint8_t *list;
	doca_error_t err;
	uint32_t i;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_create_rqt_in_layout, PRM_CMD_CREATE_RQT, create_rqt_in_map,
				      PRM_MAP_COUNT(create_rqt_in_map), in, len, p != NULL ? &v : NULL);
	if (err != DOCA_SUCCESS)
		return err;
	err = rqt_list_fits(v.rqtc.rqt_actual_size, len);
	list = (const uint8_t *)in + PRM_RQT_LIST_OFFSET;
	for (i = 0; i < v.rqtc.rqt_actual_size && err == DOCA_SUCCESS; i++) {
		prm_reader_init(&r, &prm_rq_num_layout, list + (size_t)i * PRM_RQT_ENTRY_SIZE, PRM_RQT_ENTRY_SIZE);
		v.rqtc.rq_num[i] = (uint32_t)prm_r(&r, "rq_num");
		err = r.err;
	}
	if (err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return err;
}

doca_error_t prm_destroy_rqt_in_build(uint16_t uid, uint32_t rqtn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_rqt_in_layout, PRM_CMD_DESTROY_RQT, in, len, uid, "rqtn", rqtn);
}

doca_error_t prm_destroy_rqt_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rqtn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_rqt_in_layout, PRM_CMD_DESTROY_RQT, in, len, uid, "rqtn", rqtn);
}

doca_error_t prm_create_tir_in_build(const struct prm_create_tir_params *p, void *in, size_t len)
{
	struct prm_writer w;
	doca_error_t err;

	err = prm_cmd_mapped_in_build(&prm_create_tir_in_layout, PRM_CMD_CREATE_TIR, create_tir_in_map,
				      PRM_MAP_COUNT(create_tir_in_map), in, len, p);
	if (err != DOCA_SUCCESS)
		return err;
	/* The mapped builder zeroed and filled the mailbox; the key goes in without zeroing again. */
	w.layout = &prm_create_tir_in_layout;
	w.buf = in;
	w.len = len;
	w.err = DOCA_SUCCESS;
	prm_w_bytes(&w, "ctx.rx_hash_toeplitz_key", p->tirc.rx_hash_toeplitz_key, PRM_TIR_TOEPLITZ_KEY_LEN);
	return w.err;
}

doca_error_t prm_create_tir_in_parse(const void *in, size_t len, struct prm_create_tir_params *p)
{
	struct prm_create_tir_params v;
	struct prm_reader r;
	doca_error_t err;

	memset(&v, 0, sizeof(v));
	err = prm_cmd_mapped_in_parse(&prm_create_tir_in_layout, PRM_CMD_CREATE_TIR, create_tir_in_map,
				      PRM_MAP_COUNT(create_tir_in_map), in, len, p != NULL ? &v : NULL);
	if (err != DOCA_SUCCESS)
		return err;
	prm_reader_init(&r, &prm_create_tir_in_layout, in, len);
	prm_r_bytes(&r, "ctx.rx_hash_toeplitz_key", v.tirc.rx_hash_toeplitz_key, PRM_TIR_TOEPLITZ_KEY_LEN);
	if (r.err == DOCA_SUCCESS)
		memcpy(p, &v, sizeof(v));
	return r.err;
}

doca_error_t prm_destroy_tir_in_build(uint16_t uid, uint32_t tirn, void *in, size_t len)
{
	return prm_cmd_obj_in_build(&prm_destroy_tir_in_layout, PRM_CMD_DESTROY_TIR, in, len, uid, "tirn", tirn);
}

doca_error_t prm_destroy_tir_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *tirn)
{
	return prm_cmd_obj_in_parse(&prm_destroy_tir_in_layout, PRM_CMD_DESTROY_TIR, in, len, uid, "tirn", tirn);
}

doca_error_t prm_create_rqt_out_build(uint32_t rqtn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_rqt_out_layout, out, len, "rqtn", rqtn);
}

doca_error_t prm_create_rqt_out_parse(const void *out, size_t len, uint32_t *rqtn)
{
	return prm_cmd_obj_out_parse(&prm_create_rqt_out_layout, PRM_CMD_CREATE_RQT, out, len, "rqtn", rqtn);
}

doca_error_t prm_create_tir_out_build(uint32_t tirn, void *out, size_t len)
{
	return prm_cmd_obj_out_build(&prm_create_tir_out_layout, out, len, "tirn", tirn);
}

doca_error_t prm_create_tir_out_parse(const void *out, size_t len, uint32_t *tirn)
{
	return prm_cmd_obj_out_parse(&prm_create_tir_out_layout, PRM_CMD_CREATE_TIR, out, len, "tirn", tirn);
}
