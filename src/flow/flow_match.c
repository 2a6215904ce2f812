/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA match -> the outer L2-L4 fields the NIC matches (struct flow_spec).
 *
 * Offered: parser_meta.outer_l3_type / outer_l4_type / outer_ip_fragmented, outer.eth (MACs,
 * type), outer.l3_type with ip4 (addresses, DSCP/ECN, protocol, TTL) or ip6 (addresses, traffic
 * class, next header, hop limit), outer.l4_type_ext with udp (ports) or tcp (ports, flags). Any
 * other field that is set is refused, naming it. The types (outer.l3_type, outer.l4_type_ext and
 * the parser's L3 / L4 types) select the header unions and are matched themselves (IP version,
 * IP protocol) whenever the match sets them; their masks are not read.
 *
 * Values and masks (DOCA semantics), per field:
 *   mask given:   the field's mask is the mask's bytes (zero: the field is left out);
 *   no mask:      a non-zero value is matched exactly, zero is left out;
 *   BASIC template: a value of all ones is filled in by each entry under that mask
 *                 ("changeable"), any other value is matched by every entry.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <stddef.h>
#include <string.h>

enum need {
	NEED_ANY,
	NEED_IP4,
	NEED_IP6,
	NEED_UDP,
	NEED_TCP,
};

enum put_kind {
	PUT_BYTES,              /* copied to dst as they are */
	PUT_DSCP_ECN,           /* one byte: DSCP (high 6 bits) and ECN (low 2) */
	PUT_FRAG,               /* one byte, bit 0 */
};

struct fld {
	const char *name;
	size_t off, len;        /* in struct doca_flow_match */
	enum need need;
	enum put_kind kind;
	size_t dst;             /* in struct flow_fields */
};

#define M(f) offsetof(struct doca_flow_match, f), sizeof(((struct doca_flow_match *)0)->f)
#define F(f) offsetof(struct flow_fields, f)

static const struct fld flds[] = {
	{"parser_meta.outer_ip_fragmented", M(parser_meta.outer_ip_fragmented), NEED_ANY, PUT_FRAG, F(frag)},
	{"outer.eth.src_mac", M(outer.eth.src_mac), NEED_ANY, PUT_BYTES, F(smac)},
	{"outer.eth.dst_mac", M(outer.eth.dst_mac), NEED_ANY, PUT_BYTES, F(dmac)},
	{"outer.eth.type", M(outer.eth.type), NEED_ANY, PUT_BYTES, F(ethertype)},
	{"outer.ip4.src_ip", M(outer.ip4.src_ip), NEED_IP4, PUT_BYTES, F(src_ip) + 12},
	{"outer.ip4.dst_ip", M(outer.ip4.dst_ip), NEED_IP4, PUT_BYTES, F(dst_ip) + 12},
	{"outer.ip4.dscp_ecn", M(outer.ip4.dscp_ecn), NEED_IP4, PUT_DSCP_ECN, 0},
	{"outer.ip4.next_proto", M(outer.ip4.next_proto), NEED_IP4, PUT_BYTES, F(ip_protocol)},
	{"outer.ip4.ttl", M(outer.ip4.ttl), NEED_IP4, PUT_BYTES, F(ttl_hoplimit)},
	{"outer.ip6.src_ip", M(outer.ip6.src_ip), NEED_IP6, PUT_BYTES, F(src_ip)},
	{"outer.ip6.dst_ip", M(outer.ip6.dst_ip), NEED_IP6, PUT_BYTES, F(dst_ip)},
	{"outer.ip6.traffic_class", M(outer.ip6.traffic_class), NEED_IP6, PUT_DSCP_ECN, 0},
	{"outer.ip6.next_proto", M(outer.ip6.next_proto), NEED_IP6, PUT_BYTES, F(ip_protocol)},
	{"outer.ip6.hop_limit", M(outer.ip6.hop_limit), NEED_IP6, PUT_BYTES, F(ttl_hoplimit)},
	{"outer.udp.l4_port.src_port", M(outer.udp.l4_port.src_port), NEED_UDP, PUT_BYTES, F(udp_sport)},
	{"outer.udp.l4_port.dst_port", M(outer.udp.l4_port.dst_port), NEED_UDP, PUT_BYTES, F(udp_dport)},
	{"outer.tcp.l4_port.src_port", M(outer.tcp.l4_port.src_port), NEED_TCP, PUT_BYTES, F(tcp_sport)},
	{"outer.tcp.l4_port.dst_port", M(outer.tcp.l4_port.dst_port), NEED_TCP, PUT_BYTES, F(tcp_dport)},
	{"outer.tcp.flags", M(outer.tcp.flags), NEED_TCP, PUT_BYTES, F(tcp_flags)},
};

#define FLD_MAX_LEN 16u

/* Fields that are never offered: set in a match or mask, they are refused. */
struct region {
	const char *name;
	size_t off, len;
};

static const struct region never[] = {
	{"meta", M(meta)},
	{"parser_meta.port_id", M(parser_meta.port_id)},
	{"parser_meta.random", M(parser_meta.random)},
	{"parser_meta.ipsec_syndrome", M(parser_meta.ipsec_syndrome)},
	{"parser_meta.ipsec_ar_syndrome", M(parser_meta.ipsec_ar_syndrome)},
	{"parser_meta.psp_syndrome", M(parser_meta.psp_syndrome)},
	{"parser_meta.meter_color", M(parser_meta.meter_color)},
	{"parser_meta.outer_l2_type", M(parser_meta.outer_l2_type)},
	{"parser_meta.inner_l2_type", M(parser_meta.inner_l2_type)},
	{"parser_meta.inner_l3_type", M(parser_meta.inner_l3_type)},
	{"parser_meta.inner_l4_type", M(parser_meta.inner_l4_type)},
	{"parser_meta.inner_ip_fragmented", M(parser_meta.inner_ip_fragmented)},
	{"parser_meta.outer_l3_ok", M(parser_meta.outer_l3_ok)},
	{"parser_meta.outer_ip4_checksum_ok", M(parser_meta.outer_ip4_checksum_ok)},
	{"parser_meta.outer_l4_ok", M(parser_meta.outer_l4_ok)},
	{"parser_meta.outer_l4_checksum_ok", M(parser_meta.outer_l4_checksum_ok)},
	{"parser_meta.inner_l3_ok", M(parser_meta.inner_l3_ok)},
	{"parser_meta.inner_ip4_checksum_ok", M(parser_meta.inner_ip4_checksum_ok)},
	{"parser_meta.inner_l4_ok", M(parser_meta.inner_l4_ok)},
	{"parser_meta.inner_l4_checksum_ok", M(parser_meta.inner_l4_checksum_ok)},
	{"outer.l2_valid_headers (VLAN)", M(outer.l2_valid_headers)},
	{"outer.eth_vlan", M(outer.eth_vlan)},
	{"tun (tunnel headers)", M(tun)},
	{"inner (inner headers)", M(inner)},
};

/* Per type, the parts of the header unions no field offered covers. */
#define IP_U offsetof(struct doca_flow_match, outer.ip4)
#define IP_U_LEN (offsetof(struct doca_flow_match, outer.l4_type_ext) - IP_U)
#define L4_U offsetof(struct doca_flow_match, outer.udp)
/* The L4 union is as large as its largest member, the RoCE v2 headers. */
#define L4_U_LEN sizeof(((struct doca_flow_match *)0)->outer.roce_v2)

static const struct region ip4_never[] = {
	{"outer.ip4.version_ihl", M(outer.ip4.version_ihl)},
	{"outer.ip4.total_len", M(outer.ip4.total_len)},
	{"outer.ip4.identification", M(outer.ip4.identification)},
	{"outer.ip4.flags_fragment_offset", M(outer.ip4.flags_fragment_offset)},
	{"outer.ip6 fields (outer.l3_type is IP4)", IP_U + sizeof(struct doca_flow_header_ip4),
	 IP_U_LEN - sizeof(struct doca_flow_header_ip4)},
};

static const struct region ip6_never[] = {
	{"outer.ip6.flow_label", M(outer.ip6.flow_label)},
	{"outer.ip6.payload_len", M(outer.ip6.payload_len)},
};

static const struct region ip_none[] = {
	{"outer.ip4 / outer.ip6 fields without outer.l3_type", IP_U, IP_U_LEN},
};

static const struct region udp_never[] = {
	{"outer L4 fields past the UDP ports (outer.l4_type_ext is UDP)",
	 L4_U + sizeof(struct doca_flow_header_udp), L4_U_LEN - sizeof(struct doca_flow_header_udp)},
};

static const struct region tcp_never[] = {
	{"outer.tcp.data_offset", M(outer.tcp.data_offset)},
	{"outer L4 fields past the TCP header (outer.l4_type_ext is TCP)",
	 L4_U + sizeof(struct doca_flow_header_tcp), L4_U_LEN - sizeof(struct doca_flow_header_tcp)},
};

static const struct region icmp_never[] = {
	{"outer.icmp fields (type, code, ident)", L4_U, L4_U_LEN},
};

static const struct region l4_none[] = {
	{"outer L4 fields without outer.l4_type_ext", L4_U, L4_U_LEN},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The header types a match names. */
struct types {
	enum doca_flow_l3_type l3u;          /* the IP union's member (NONE: none) */
	enum doca_flow_l4_type_ext l4u;      /* the L4 union's member */
	uint8_t ip_version;                  /* 0, 4, 6: matched */
	uint8_t ip_protocol;                 /* 0 or the protocol: matched */
};

static bool is_zero(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static bool is_ones(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0xff)
			return false;
	return true;
}

bool flow_fields_is_zero(const struct flow_fields *f)
{
	return is_zero((const uint8_t *)f, sizeof(*f));
}

void flow_fields_or(struct flow_fields *dst, const struct flow_fields *src)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	size_t i;

	for (i = 0; i < sizeof(*dst); i++)
		d[i] |= s[i];
}

static doca_error_t check_regions(const uint8_t *b, const struct region *r, size_t n, const char *part,
				  const char *who)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (r[i].len > 0 && !is_zero(b + r[i].off, r[i].len)) {
			OGDA_LOG_ERR("%s: matching %s%s is not supported", who, r[i].name, part);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
	}
	return DOCA_SUCCESS;
}

/* The union parts no offered field covers, for the union members the types select. */
static doca_error_t check_unions(const uint8_t *b, const struct types *t, const char *part, const char *who)
{
	doca_error_t err;

	switch (t->l3u) {
	case DOCA_FLOW_L3_TYPE_IP4:
		err = check_regions(b, ip4_never, N(ip4_never), part, who);
		break;
	case DOCA_FLOW_L3_TYPE_IP6:
		err = check_regions(b, ip6_never, N(ip6_never), part, who);
		break;
	default:
		err = check_regions(b, ip_none, N(ip_none), part, who);
		break;
	}
	if (err != DOCA_SUCCESS)
		return err;
	switch (t->l4u) {
	case DOCA_FLOW_L4_TYPE_EXT_UDP:
		return check_regions(b, udp_never, N(udp_never), part, who);
	case DOCA_FLOW_L4_TYPE_EXT_TCP:
		return check_regions(b, tcp_never, N(tcp_never), part, who);
	case DOCA_FLOW_L4_TYPE_EXT_ICMP:
	case DOCA_FLOW_L4_TYPE_EXT_ICMP6:
		return check_regions(b, icmp_never, N(icmp_never), part, who);
	default:
		return check_regions(b, l4_none, N(l4_none), part, who);
	}
}

static doca_error_t check_enums(const struct doca_flow_match *m, const char *part, const char *who)
{
	if ((unsigned)m->outer.l3_type > DOCA_FLOW_L3_TYPE_IP6) {
		OGDA_LOG_ERR("%s: outer.l3_type %u%s is not a layer 3 type", who, (unsigned)m->outer.l3_type, part);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (m->outer.l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_TRANSPORT ||
	    m->outer.l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_ROCE_V2) {
		OGDA_LOG_ERR("%s: outer.l4_type_ext %s%s is not supported (TCP, UDP, ICMP, ICMP6)", who,
			     m->outer.l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_TRANSPORT ? "TRANSPORT" : "ROCE_V2", part);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((unsigned)m->outer.l4_type_ext > DOCA_FLOW_L4_TYPE_EXT_ROCE_V2) {
		OGDA_LOG_ERR("%s: outer.l4_type_ext %u%s is not a layer 4 type", who, (unsigned)m->outer.l4_type_ext,
			     part);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((unsigned)m->parser_meta.outer_l3_type > DOCA_FLOW_L3_META_IPV6) {
		OGDA_LOG_ERR("%s: parser_meta.outer_l3_type %u%s is not a layer 3 type", who,
			     (unsigned)m->parser_meta.outer_l3_type, part);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (m->parser_meta.outer_l4_type == DOCA_FLOW_L4_META_ESP) {
		OGDA_LOG_ERR("%s: parser_meta.outer_l4_type ESP%s is not supported (TCP, UDP, ICMP)", who, part);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((unsigned)m->parser_meta.outer_l4_type > DOCA_FLOW_L4_META_ESP) {
		OGDA_LOG_ERR("%s: parser_meta.outer_l4_type %u%s is not a layer 4 type", who,
			     (unsigned)m->parser_meta.outer_l4_type, part);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static enum doca_flow_l3_type l3_of_meta(enum doca_flow_l3_meta m)
{
	return m == DOCA_FLOW_L3_META_IPV4 ? DOCA_FLOW_L3_TYPE_IP4
	       : m == DOCA_FLOW_L3_META_IPV6 ? DOCA_FLOW_L3_TYPE_IP6 : DOCA_FLOW_L3_TYPE_NONE;
}

static enum doca_flow_l4_type_ext l4_of_meta(enum doca_flow_l4_meta m)
{
	return m == DOCA_FLOW_L4_META_TCP ? DOCA_FLOW_L4_TYPE_EXT_TCP
	       : m == DOCA_FLOW_L4_META_UDP ? DOCA_FLOW_L4_TYPE_EXT_UDP
	       : m == DOCA_FLOW_L4_META_ICMP ? DOCA_FLOW_L4_TYPE_EXT_ICMP : DOCA_FLOW_L4_TYPE_EXT_NONE;
}

/* The types of a match (the mask's header types only select unions when the match names none). */
static doca_error_t get_types(const struct doca_flow_match *m, const struct doca_flow_match *mask, struct types *t,
			      const char *who)
{
	enum doca_flow_l3_type l3a = m->outer.l3_type, l3b = l3_of_meta(m->parser_meta.outer_l3_type);
	enum doca_flow_l4_meta l4m = m->parser_meta.outer_l4_type;
	uint8_t pa = 0, pb = 0;

	memset(t, 0, sizeof(*t));
	if (l3a != DOCA_FLOW_L3_TYPE_NONE && l3b != DOCA_FLOW_L3_TYPE_NONE && l3a != l3b) {
		OGDA_LOG_ERR("%s: outer.l3_type and parser_meta.outer_l3_type disagree", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t->l3u = l3a != DOCA_FLOW_L3_TYPE_NONE ? l3a : l3b;
	t->ip_version = t->l3u == DOCA_FLOW_L3_TYPE_IP4 ? 4 : t->l3u == DOCA_FLOW_L3_TYPE_IP6 ? 6 : 0;
	if (t->l3u == DOCA_FLOW_L3_TYPE_NONE && mask != NULL)
		t->l3u = mask->outer.l3_type <= DOCA_FLOW_L3_TYPE_IP6 ? mask->outer.l3_type : DOCA_FLOW_L3_TYPE_NONE;

	switch (m->outer.l4_type_ext) {
	case DOCA_FLOW_L4_TYPE_EXT_TCP:
		pa = DOCA_FLOW_PROTO_TCP;
		break;
	case DOCA_FLOW_L4_TYPE_EXT_UDP:
		pa = DOCA_FLOW_PROTO_UDP;
		break;
	case DOCA_FLOW_L4_TYPE_EXT_ICMP:
		pa = DOCA_FLOW_PROTO_ICMP;
		break;
	case DOCA_FLOW_L4_TYPE_EXT_ICMP6:
		pa = DOCA_FLOW_PROTO_ICMP6;
		break;
	default:
		break;
	}
	if (l4m == DOCA_FLOW_L4_META_TCP) {
		pb = DOCA_FLOW_PROTO_TCP;
	} else if (l4m == DOCA_FLOW_L4_META_UDP) {
		pb = DOCA_FLOW_PROTO_UDP;
	} else if (l4m == DOCA_FLOW_L4_META_ICMP) {
		if (t->ip_version == 0) {
			OGDA_LOG_ERR("%s: parser_meta.outer_l4_type ICMP needs the L3 type (ICMP or ICMPv6): set "
				     "parser_meta.outer_l3_type or outer.l3_type", who);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		pb = t->ip_version == 4 ? DOCA_FLOW_PROTO_ICMP : DOCA_FLOW_PROTO_ICMP6;
	}
	if (pa != 0 && pb != 0 && pa != pb) {
		OGDA_LOG_ERR("%s: outer.l4_type_ext and parser_meta.outer_l4_type disagree", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t->ip_protocol = pa != 0 ? pa : pb;
	t->l4u = m->outer.l4_type_ext != DOCA_FLOW_L4_TYPE_EXT_NONE ? m->outer.l4_type_ext : l4_of_meta(l4m);
	if (t->l4u == DOCA_FLOW_L4_TYPE_EXT_NONE && mask != NULL && mask->outer.l4_type_ext <= DOCA_FLOW_L4_TYPE_EXT_ICMP6)
		t->l4u = mask->outer.l4_type_ext;
	return DOCA_SUCCESS;
}

static bool fld_applies(const struct fld *f, const struct types *t)
{
	switch (f->need) {
	case NEED_IP4:
		return t->l3u == DOCA_FLOW_L3_TYPE_IP4;
	case NEED_IP6:
		return t->l3u == DOCA_FLOW_L3_TYPE_IP6;
	case NEED_UDP:
		return t->l4u == DOCA_FLOW_L4_TYPE_EXT_UDP;
	case NEED_TCP:
		return t->l4u == DOCA_FLOW_L4_TYPE_EXT_TCP;
	default:
		return true;
	}
}

/* Writes a DOCA field's bytes into the NIC's fields. */
static void put(struct flow_fields *ff, const struct fld *f, const uint8_t *b)
{
	switch (f->kind) {
	case PUT_DSCP_ECN:
		ff->ip_dscp = (uint8_t)(b[0] >> 2);
		ff->ip_ecn = (uint8_t)(b[0] & 0x3u);
		break;
	case PUT_FRAG:
		ff->frag = (uint8_t)(b[0] & 0x1u);
		break;
	default:
		memcpy((uint8_t *)ff + f->dst, b, f->len);
		break;
	}
}

doca_error_t flow_match_check(const struct doca_flow_match *match, const struct doca_flow_match *mask, const char *who)
{
	static const struct doca_flow_match zero;
	struct types t;
	doca_error_t err;

	if (match == NULL)
		match = &zero;
	err = check_enums(match, "", who);
	if (err == DOCA_SUCCESS)
		err = get_types(match, mask, &t, who);
	if (err == DOCA_SUCCESS)
		err = check_regions((const uint8_t *)match, never, N(never), "", who);
	if (err == DOCA_SUCCESS)
		err = check_unions((const uint8_t *)match, &t, "", who);
	if (err == DOCA_SUCCESS && mask != NULL)
		err = check_regions((const uint8_t *)mask, never, N(never), " (in the mask)", who);
	if (err == DOCA_SUCCESS && mask != NULL)
		err = check_unions((const uint8_t *)mask, &t, " (in the mask)", who);
	return err;
}

/* The IP version and protocol the types match, into a spec (chg: per-entry fields, or NULL). */
static doca_error_t apply_types(const struct types *t, struct flow_spec *s, const struct flow_fields *chg,
				const char *who)
{
	if (t->ip_version != 0) {
		s->v.ip_version = t->ip_version;
		s->m.ip_version = 0xf;
	}
	if (t->ip_protocol == 0)
		return DOCA_SUCCESS;
	if (chg != NULL && chg->ip_protocol != 0) {
		OGDA_LOG_ERR("%s: the IP protocol is both per entry (next_proto all ones) and fixed by the L4 type",
			     who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (((s->v.ip_protocol ^ t->ip_protocol) & s->m.ip_protocol) != 0) {
		OGDA_LOG_ERR("%s: next_proto %u contradicts the L4 type (protocol %u)", who, (unsigned)s->v.ip_protocol,
			     (unsigned)t->ip_protocol);
		return DOCA_ERROR_INVALID_VALUE;
	}
	s->v.ip_protocol = t->ip_protocol;
	s->m.ip_protocol = 0xff;
	return DOCA_SUCCESS;
}

/* A field's effective mask: the mask's bytes, or (no mask) all ones for a non-zero value. */
static void eff_mask(const struct fld *f, const uint8_t *v, const struct doca_flow_match *mask, uint8_t *m)
{
	if (mask != NULL)
		memcpy(m, (const uint8_t *)mask + f->off, f->len);
	else
		memset(m, is_zero(v, f->len) ? 0x00 : 0xff, f->len);
}

doca_error_t flow_match_template(const struct doca_flow_match *match, const struct doca_flow_match *mask,
				 struct flow_tmpl *tmpl, const char *who)
{
	static const struct doca_flow_match zero;
	uint8_t m[FLD_MAX_LEN], v[FLD_MAX_LEN];
	struct types t;
	doca_error_t err;
	size_t i, k;

	memset(tmpl, 0, sizeof(*tmpl));
	if (match == NULL)
		match = &zero;
	err = flow_match_check(match, mask, who);
	if (err == DOCA_SUCCESS)
		err = get_types(match, mask, &t, who);
	if (err != DOCA_SUCCESS)
		return err;
	for (i = 0; i < N(flds); i++) {
		const struct fld *f = &flds[i];
		const uint8_t *val = (const uint8_t *)match + f->off;

		if (!fld_applies(f, &t))
			continue;
		eff_mask(f, val, mask, m);
		if (is_zero(m, f->len))
			continue;
		if (is_ones(val, f->len)) {
			struct flow_fields c = {0};

			put(&c, f, m);
			flow_fields_or(&tmpl->chg, &c);
			continue;
		}
		for (k = 0; k < f->len; k++)
			v[k] = val[k] & m[k];
		put(&tmpl->fixed.v, f, v);
		put(&tmpl->fixed.m, f, m);
	}
	err = apply_types(&t, &tmpl->fixed, &tmpl->chg, who);
	if (err != DOCA_SUCCESS)
		return err;
	tmpl->l3 = t.l3u;
	tmpl->l4 = t.l4u;
	return DOCA_SUCCESS;
}

doca_error_t flow_match_basic_entry(const struct flow_tmpl *tmpl, const struct doca_flow_match *match,
				    struct flow_spec *spec, const char *who)
{
	struct types t = {.l3u = tmpl->l3, .l4u = tmpl->l4};
	struct flow_fields e = {0};
	uint8_t *ev = (uint8_t *)&e, *sv;
	const uint8_t *cm = (const uint8_t *)&tmpl->chg;
	size_t i;

	*spec = tmpl->fixed;
	if (flow_fields_is_zero(&tmpl->chg))
		return DOCA_SUCCESS;
	if (match == NULL) {
		OGDA_LOG_ERR("%s: the pipe's match has per-entry fields: the entry needs a match", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < N(flds); i++)
		if (fld_applies(&flds[i], &t))
			put(&e, &flds[i], (const uint8_t *)match + flds[i].off);
	sv = (uint8_t *)&spec->v;
	for (i = 0; i < sizeof(e); i++)
		sv[i] |= ev[i] & cm[i];
	flow_fields_or(&spec->m, &tmpl->chg);
	return DOCA_SUCCESS;
}

doca_error_t flow_match_control_entry(const struct doca_flow_match *match, const struct doca_flow_match *mask,
				      struct flow_spec *spec, const char *who)
{
	uint8_t m[FLD_MAX_LEN], v[FLD_MAX_LEN];
	struct types t;
	doca_error_t err;
	size_t i, k;

	memset(spec, 0, sizeof(*spec));
	if (match == NULL) {
		OGDA_LOG_ERR("%s: match must not be NULL", who);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = flow_match_check(match, mask, who);
	if (err == DOCA_SUCCESS)
		err = get_types(match, mask, &t, who);
	if (err != DOCA_SUCCESS)
		return err;
	for (i = 0; i < N(flds); i++) {
		const struct fld *f = &flds[i];
		const uint8_t *val = (const uint8_t *)match + f->off;

		if (!fld_applies(f, &t))
			continue;
		eff_mask(f, val, mask, m);
		if (is_zero(m, f->len))
			continue;
		for (k = 0; k < f->len; k++)
			v[k] = val[k] & m[k];
		put(&spec->v, f, v);
		put(&spec->m, f, m);
	}
	return apply_types(&t, spec, NULL, who);
}
