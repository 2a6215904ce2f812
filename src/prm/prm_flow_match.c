/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fte_match_set_lyr_2_4 and fte_match_param. Positions: Linux include/linux/mlx5/mlx5_ifc.h
 * mlx5_ifc_fte_match_set_lyr_2_4_bits, mlx5_ifc_fte_match_param_bits (misc_parameters_4/5/6
 * from the later kernels that added them where reserved bits were), and the
 * ipv4_layout / ipv6_layout union (mlx5_ifc_fpga.h in older kernels): ipv4 at bit 0x60 of the
 * 128-bit address block. Bit offsets as "dwN [hi:lo]" (N = off / 32, hi = 31 - off % 32):
 *
 *   lyr_2_4  smac_47_16 0x0 dw1..  smac_15_0 0x20 dw1 [31:16]   so smac is bytes 0x00..0x05
 *            ethertype 0x30 dw1 [15:0]
 *            dmac_47_16 0x40 dw2     dmac_15_0 0x60 dw3 [31:16]   so dmac is bytes 0x08..0x0d
 *            first_prio 0x70 dw3 [15:13]  first_cfi 0x73 dw3 [12]  first_vid 0x74 dw3 [11:0]
 *            ip_protocol 0x80 dw4 [31:24]  ip_dscp 0x88 dw4 [23:18]  ip_ecn 0x8e dw4 [17:16]
 *            cvlan_tag 0x90 dw4 [15]  svlan_tag 0x91 dw4 [14]  frag 0x92 dw4 [13]
 *            ip_version 0x93 dw4 [12:9]  tcp_flags 0x97 dw4 [8:0]
 *            tcp_sport 0xa0 dw5 [31:16]  tcp_dport 0xb0 dw5 [15:0]
 *            ttl_hoplimit 0xd8 dw6 [7:0]
 *            udp_sport 0xe0 dw7 [31:16]  udp_dport 0xf0 dw7 [15:0]
 *            src_ipv4_src_ipv6 0x100 (bytes 0x20..0x2f, IPv4 in 0x2c..0x2f)
 *            dst_ipv4_dst_ipv6 0x180 (bytes 0x30..0x3f, IPv4 in 0x3c..0x3f); size 0x200 bits
 *   param    outer_headers 0x000  misc_parameters 0x200  inner_headers 0x400
 *            misc_parameters_2 0x600  _3 0x800  _4 0xa00  _5 0xc00  _6 (reserved before) 0xe00;
 *            size 0x1000 bits (0x200 bytes)
 */
#include "prm/prm_flow_match.h"

#include "core/log.h"
#include "prm/prm_cmd.h"

#include <string.h>

#define MATCH_BYTES(fname, byte, n) {(fname), (uint32_t)(byte) * 8u, (uint32_t)(n) * 8u, NULL}

static const struct prm_field lyr_2_4_fields[] = {
	MATCH_BYTES("smac", 0x00, 6),
	PRM_BITS("ethertype", 1, 15, 0),
	MATCH_BYTES("dmac", 0x08, 6),
	PRM_BITS("first_prio", 3, 15, 13),
	PRM_BITS("first_cfi", 3, 12, 12),
	PRM_BITS("first_vid", 3, 11, 0),
	PRM_BITS("ip_protocol", 4, 31, 24),
	PRM_BITS("ip_dscp", 4, 23, 18),
	PRM_BITS("ip_ecn", 4, 17, 16),
	PRM_BITS("cvlan_tag", 4, 15, 15),
	PRM_BITS("svlan_tag", 4, 14, 14),
	PRM_BITS("frag", 4, 13, 13),
	PRM_BITS("ip_version", 4, 12, 9),
	PRM_BITS("tcp_flags", 4, 8, 0),
	PRM_BITS("tcp_sport", 5, 31, 16),
	PRM_BITS("tcp_dport", 5, 15, 0),
	PRM_BITS("ttl_hoplimit", 6, 7, 0),
	PRM_BITS("udp_sport", 7, 31, 16),
	PRM_BITS("udp_dport", 7, 15, 0),
	MATCH_BYTES("src_ipv4_src_ipv6", 0x20, PRM_MATCH_ADDR_LEN),
	MATCH_BYTES("dst_ipv4_dst_ipv6", 0x30, PRM_MATCH_ADDR_LEN),
};
const struct prm_layout prm_match_lyr_2_4_layout =
	PRM_LAYOUT("fte_match_set_lyr_2_4", PRM_MATCH_SET_SIZE, lyr_2_4_fields);

static const struct prm_field match_param_fields[] = {
	PRM_SUB("outer_headers", PRM_MATCH_OUTER_OFFSET, prm_match_lyr_2_4_layout, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters", PRM_MATCH_MISC_OFFSET, PRM_MATCH_SET_SIZE),
	PRM_SUB("inner_headers", PRM_MATCH_INNER_OFFSET, prm_match_lyr_2_4_layout, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters_2", PRM_MATCH_MISC2_OFFSET, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters_3", PRM_MATCH_MISC3_OFFSET, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters_4", PRM_MATCH_MISC4_OFFSET, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters_5", PRM_MATCH_MISC5_OFFSET, PRM_MATCH_SET_SIZE),
	MATCH_BYTES("misc_parameters_6", PRM_MATCH_MISC6_OFFSET, PRM_MATCH_SET_SIZE),
};
const struct prm_layout prm_match_param_layout =
	PRM_LAYOUT("fte_match_param", PRM_MATCH_PARAM_SIZE, match_param_fields);

/* Every scalar member, as X(member, field). */
#define LYR_2_4_SCALARS(X)                                                                         \
	X(ethertype, "ethertype")                                                                  \
	X(first_prio, "first_prio")                                                                \
	X(first_cfi, "first_cfi")                                                                  \
	X(first_vid, "first_vid")                                                                  \
	X(ip_protocol, "ip_protocol")                                                              \
	X(ip_dscp, "ip_dscp")                                                                      \
	X(ip_ecn, "ip_ecn")                                                                        \
	X(cvlan_tag, "cvlan_tag")                                                                  \
	X(svlan_tag, "svlan_tag")                                                                  \
	X(frag, "frag")                                                                            \
	X(ip_version, "ip_version")                                                                \
	X(tcp_flags, "tcp_flags")                                                                  \
	X(tcp_sport, "tcp_sport")                                                                  \
	X(tcp_dport, "tcp_dport")                                                                  \
	X(ttl_hoplimit, "ttl_hoplimit")                                                            \
	X(udp_sport, "udp_sport")                                                                  \
	X(udp_dport, "udp_dport")

#define MAP_SCALAR(member, field) PRM_MAP(struct prm_match_lyr_2_4, member, field),
static const struct prm_param_map lyr_2_4_map[] = {
	LYR_2_4_SCALARS(MAP_SCALAR)
};
#undef MAP_SCALAR

static void set_ipv4(uint8_t addr[PRM_MATCH_ADDR_LEN], uint32_t v)
{
	memset(addr, 0, PRM_MATCH_ADDR_LEN);
	addr[PRM_MATCH_IPV4_AT + 0] = (uint8_t)(v >> 24);
	addr[PRM_MATCH_IPV4_AT + 1] = (uint8_t)(v >> 16);
	addr[PRM_MATCH_IPV4_AT + 2] = (uint8_t)(v >> 8);
	addr[PRM_MATCH_IPV4_AT + 3] = (uint8_t)v;
}

static uint32_t get_ipv4(const uint8_t addr[PRM_MATCH_ADDR_LEN])
{
	return (uint32_t)addr[PRM_MATCH_IPV4_AT] << 24 | (uint32_t)addr[PRM_MATCH_IPV4_AT + 1] << 16 |
	       (uint32_t)addr[PRM_MATCH_IPV4_AT + 2] << 8 | addr[PRM_MATCH_IPV4_AT + 3];
}

void prm_match_set_src_ipv4(struct prm_match_lyr_2_4 *m, uint32_t addr)
{
	set_ipv4(m->src_ip, addr);
}

void prm_match_set_dst_ipv4(struct prm_match_lyr_2_4 *m, uint32_t addr)
{
	set_ipv4(m->dst_ip, addr);
}

uint32_t prm_match_src_ipv4(const struct prm_match_lyr_2_4 *m)
{
	return get_ipv4(m->src_ip);
}

uint32_t prm_match_dst_ipv4(const struct prm_match_lyr_2_4 *m)
{
	return get_ipv4(m->dst_ip);
}

doca_error_t prm_match_lyr_2_4_build(const struct prm_match_lyr_2_4 *m, void *buf, size_t len)
{
	struct prm_writer w;

	if (m == NULL) {
		OGDA_LOG_ERR("fte_match_set_lyr_2_4: parameters must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	prm_writer_init(&w, &prm_match_lyr_2_4_layout, buf, len);
	prm_w_bytes(&w, "smac", m->smac, sizeof(m->smac));
	prm_w_bytes(&w, "dmac", m->dmac, sizeof(m->dmac));
	prm_w_map(&w, lyr_2_4_map, PRM_MAP_COUNT(lyr_2_4_map), m);
	prm_w_bytes(&w, "src_ipv4_src_ipv6", m->src_ip, PRM_MATCH_ADDR_LEN);
	prm_w_bytes(&w, "dst_ipv4_dst_ipv6", m->dst_ip, PRM_MATCH_ADDR_LEN);
	return w.err;
}

doca_error_t prm_match_lyr_2_4_parse(const void *buf, size_t len, struct prm_match_lyr_2_4 *m)
{
	struct prm_match_lyr_2_4 v;
	struct prm_reader r;

	if (m == NULL) {
		OGDA_LOG_ERR("fte_match_set_lyr_2_4: output must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&v, 0, sizeof(v));
	prm_reader_init(&r, &prm_match_lyr_2_4_layout, buf, len);
	prm_r_bytes(&r, "smac", v.smac, sizeof(v.smac));
	prm_r_bytes(&r, "dmac", v.dmac, sizeof(v.dmac));
	prm_r_map(&r, lyr_2_4_map, PRM_MAP_COUNT(lyr_2_4_map), &v);
	prm_r_bytes(&r, "src_ipv4_src_ipv6", v.src_ip, PRM_MATCH_ADDR_LEN);
	prm_r_bytes(&r, "dst_ipv4_dst_ipv6", v.dst_ip, PRM_MATCH_ADDR_LEN);
	if (r.err == DOCA_SUCCESS)
		memcpy(m, &v, sizeof(v));
	return r.err;
}

static doca_error_t param_buf_ok(const void *buf, size_t len)
{
	if (buf == NULL || len < PRM_MATCH_PARAM_SIZE) {
		OGDA_LOG_ERR("fte_match_param needs %u bytes, got %zu%s", PRM_MATCH_PARAM_SIZE, len,
			     buf == NULL ? " (NULL buffer)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t prm_match_param_build(const struct prm_match_lyr_2_4 *outer, void *buf, size_t len)
{
	doca_error_t err = param_buf_ok(buf, len);

	if (err != DOCA_SUCCESS)
		return err;
	if (outer == NULL) {
		OGDA_LOG_ERR("fte_match_param: outer headers must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(buf, 0, PRM_MATCH_PARAM_SIZE);
	return prm_match_lyr_2_4_build(outer, (uint8_t *)buf + PRM_MATCH_OUTER_OFFSET, PRM_MATCH_SET_SIZE);
}

doca_error_t prm_match_param_parse(const void *buf, size_t len, struct prm_match_lyr_2_4 *outer)
{
	doca_error_t err = param_buf_ok(buf, len);

	if (err != DOCA_SUCCESS)
		return err;
	return prm_match_lyr_2_4_parse((const uint8_t *)buf + PRM_MATCH_OUTER_OFFSET, PRM_MATCH_SET_SIZE, outer);
}

bool prm_match_param_outer_only(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	if (buf == NULL || len < PRM_MATCH_PARAM_SIZE)
		return false;
	for (i = PRM_MATCH_OUTER_OFFSET + PRM_MATCH_SET_SIZE; i < PRM_MATCH_PARAM_SIZE; i++)
		if (p[i] != 0)
			return false;
	return true;
}
