/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA match -> the NIC's fields (src/flow/flow_match.c), without a device: DOCA's value / mask
 * semantics (a template's all-ones fields per entry, its other non-zero fields fixed, zero left
 * out; a mask masking each field; a CONTROL entry without a mask matched exactly), the header
 * types matched as IP version and protocol, the byte layout (addresses, ports, DSCP / ECN,
 * fragments, TCP flags), and refusals of every kind of field not offered, each with one error line
 * naming it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "flow/flow_priv.h"
#include "test_util.h"

#define WHO "test"

static struct doca_flow_match zero_match(void)
{
	struct doca_flow_match m;

	memset(&m, 0, sizeof(m));
	return m;
}

static void test_control_exact(void **state)
{
	struct doca_flow_match m = zero_match();
	struct flow_spec s;

	(void)state;
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.src_ip = DOCA_HTOBE32(0x0a000001);
	m.outer.ip4.next_proto = DOCA_FLOW_PROTO_UDP;
	m.outer.ip4.dscp_ecn = (0x2e << 2) | 0x1;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = DOCA_HTOBE16(4791);
	m.outer.eth.type = DOCA_HTOBE16(DOCA_FLOW_ETHER_TYPE_IPV4);
	m.outer.eth.dst_mac[0] = 0x02;
	assert_int_equal(flow_match_control_entry(&m, NULL, &s, WHO), DOCA_SUCCESS);
	assert_int_equal(s.v.ip_version, 4);
	assert_int_equal(s.m.ip_version, 0xf);
	assert_int_equal(s.v.ip_protocol, 17);
	assert_int_equal(s.m.ip_protocol, 0xff);
	assert_memory_equal(s.v.src_ip + 12, "\x0a\x00\x00\x01", 4);
	assert_memory_equal(s.m.src_ip + 12, "\xff\xff\xff\xff", 4);
	assert_true(flow_fields_is_zero(&(struct flow_fields){0}));
	assert_int_equal(s.m.src_ip[0], 0);
	assert_int_equal(s.v.ip_dscp, 0x2e);
	assert_int_equal(s.v.ip_ecn, 1);
	assert_int_equal(s.m.ip_dscp, 0x3f);
	assert_int_equal(s.m.ip_ecn, 0x3);
	assert_memory_equal(s.v.udp_dport, "\x12\xb7", 2);
	assert_memory_equal(s.m.udp_dport, "\xff\xff", 2);
	assert_memory_equal(s.v.ethertype, "\x08\x00", 2);
	/* the whole MAC is matched once any byte is set (DOCA: a non-zero field, exactly) */
	assert_memory_equal(s.m.dmac, "\xff\xff\xff\xff\xff\xff", 6);
	assert_memory_equal(s.v.dmac, "\x02\x00\x00\x00\x00\x00", 6);
	assert_memory_equal(s.m.smac, "\x00\x00\x00\x00\x00\x00", 6);
	assert_int_equal(s.m.tcp_dport[0] | s.m.tcp_dport[1] | s.m.udp_sport[0] | s.m.ttl_hoplimit, 0);
}

static void test_control_mask(void **state)
{
	struct doca_flow_match m = zero_match(), k = zero_match();
	struct flow_spec s;

	(void)state;
	/* as gpu_packet_processing's TCP-to-CPU entries: type, protocol and one flag under a mask */
	m.outer.eth.type = DOCA_HTOBE16(DOCA_FLOW_ETHER_TYPE_IPV4);
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = DOCA_FLOW_PROTO_TCP;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.flags = DOCA_FLOW_MATCH_TCP_FLAG_SYN | DOCA_FLOW_MATCH_TCP_FLAG_ACK;
	m.outer.ip4.dst_ip = DOCA_HTOBE32(0xc0a80101);
	k.outer.eth.type = 0xffff;
	k.outer.ip4.next_proto = 0xff;
	k.outer.tcp.flags = DOCA_FLOW_MATCH_TCP_FLAG_SYN;
	k.outer.ip4.dst_ip = DOCA_HTOBE32(0xffffff00);
	assert_int_equal(flow_match_control_entry(&m, &k, &s, WHO), DOCA_SUCCESS);
	assert_int_equal(s.v.tcp_flags, DOCA_FLOW_MATCH_TCP_FLAG_SYN); /* value under its mask */
	assert_int_equal(s.m.tcp_flags, DOCA_FLOW_MATCH_TCP_FLAG_SYN);
	assert_memory_equal(s.v.dst_ip + 12, "\xc0\xa8\x01\x00", 4);
	assert_memory_equal(s.m.dst_ip + 12, "\xff\xff\xff\x00", 4);
	assert_int_equal(s.v.ip_protocol, 6);
	assert_int_equal(s.m.ip_protocol, 0xff);
	assert_int_equal(s.v.ip_version, 4); /* the types are matched whatever the mask says */
	assert_memory_equal(s.m.ethertype, "\xff\xff", 2);
	/* a field left out by the mask is not matched even with a value */
	m.outer.ip4.ttl = 64;
	assert_int_equal(flow_match_control_entry(&m, &k, &s, WHO), DOCA_SUCCESS);
	assert_int_equal(s.m.ttl_hoplimit, 0);
	assert_int_equal(s.v.ttl_hoplimit, 0);
}

static void test_template(void **state)
{
	struct doca_flow_match m = zero_match(), e = zero_match();
	struct flow_tmpl t;
	struct flow_spec s;

	(void)state;
	/* as gpu_packet_processing's GPU TCP pipe with connection-based flows */
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = DOCA_FLOW_PROTO_TCP;
	m.outer.ip4.src_ip = 0xffffffff;
	m.outer.ip4.dst_ip = 0xffffffff;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.l4_port.src_port = 0xffff;
	m.outer.tcp.l4_port.dst_port = 0xffff;
	m.outer.ip4.ttl = 7; /* fixed for every entry */
	assert_int_equal(flow_match_template(&m, NULL, &t, WHO), DOCA_SUCCESS);
	assert_memory_equal(t.chg.src_ip + 12, "\xff\xff\xff\xff", 4);
	assert_memory_equal(t.chg.tcp_sport, "\xff\xff", 2);
	assert_int_equal(t.chg.ttl_hoplimit, 0);
	assert_int_equal(t.fixed.v.ttl_hoplimit, 7);
	assert_int_equal(t.fixed.m.ttl_hoplimit, 0xff);
	assert_int_equal(t.fixed.v.ip_protocol, 6);
	assert_int_equal(t.fixed.v.ip_version, 4);
	assert_int_equal(t.fixed.m.src_ip[15], 0);

	/* an entry: only the per-entry fields are read (its TTL and flags are ignored) */
	e.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	e.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	e.outer.ip4.src_ip = DOCA_HTOBE32(0x01020304);
	e.outer.ip4.dst_ip = DOCA_HTOBE32(0x05060708);
	e.outer.tcp.l4_port.src_port = DOCA_HTOBE16(1000);
	e.outer.tcp.l4_port.dst_port = DOCA_HTOBE16(80);
	e.outer.ip4.ttl = 99;
	e.outer.tcp.flags = 0x12;
	assert_int_equal(flow_match_basic_entry(&t, &e, &s, WHO), DOCA_SUCCESS);
	assert_memory_equal(s.v.src_ip + 12, "\x01\x02\x03\x04", 4);
	assert_memory_equal(s.v.dst_ip + 12, "\x05\x06\x07\x08", 4);
	assert_memory_equal(s.v.tcp_dport, "\x00\x50", 2);
	assert_int_equal(s.v.ttl_hoplimit, 7);
	assert_int_equal(s.v.tcp_flags, 0);
	assert_int_equal(s.m.tcp_flags, 0);
	assert_memory_equal(s.m.tcp_sport, "\xff\xff", 2);
	/* a template with per-entry fields needs the entry's match */
	TEST_EXPECT_ERR(flow_match_basic_entry(&t, NULL, &s, WHO), DOCA_ERROR_INVALID_VALUE, "needs a match");

	/* with a mask: all ones under a partial mask is per entry under that mask */
	memset(&m, 0, sizeof(m));
	memset(&e, 0, sizeof(e));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP6;
	memset(m.outer.ip6.dst_ip, 0xff, sizeof(m.outer.ip6.dst_ip));
	struct doca_flow_match k = zero_match();
	memset(k.outer.ip6.dst_ip, 0xff, 8); /* a /64 */
	assert_int_equal(flow_match_template(&m, &k, &t, WHO), DOCA_SUCCESS);
	assert_memory_equal(t.chg.dst_ip, "\xff\xff\xff\xff\xff\xff\xff\xff\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(t.fixed.v.ip_version, 6);
	e.outer.l3_type = DOCA_FLOW_L3_TYPE_IP6;
	memset(e.outer.ip6.dst_ip, 0x11, sizeof(e.outer.ip6.dst_ip));
	assert_int_equal(flow_match_basic_entry(&t, &e, &s, WHO), DOCA_SUCCESS);
	assert_memory_equal(s.v.dst_ip, "\x11\x11\x11\x11\x11\x11\x11\x11\0\0\0\0\0\0\0\0", 16);

	/* parser meta types, as gpu_packet_processing's UDP pipe: constants, no per-entry field */
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_ICMP;
	assert_int_equal(flow_match_template(&m, NULL, &t, WHO), DOCA_SUCCESS);
	assert_true(flow_fields_is_zero(&t.chg));
	assert_int_equal(t.fixed.v.ip_protocol, DOCA_FLOW_PROTO_ICMP);
	assert_int_equal(flow_match_basic_entry(&t, NULL, &s, WHO), DOCA_SUCCESS);
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV6;
	assert_int_equal(flow_match_template(&m, NULL, &t, WHO), DOCA_SUCCESS);
	assert_int_equal(t.fixed.v.ip_protocol, DOCA_FLOW_PROTO_ICMP6);
	/* fragments */
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_ip_fragmented = 1;
	assert_int_equal(flow_match_template(&m, NULL, &t, WHO), DOCA_SUCCESS);
	assert_int_equal(t.fixed.v.frag, 1);
	assert_int_equal(t.fixed.m.frag, 1);
	/* no match at all: everything */
	assert_int_equal(flow_match_template(NULL, NULL, &t, WHO), DOCA_SUCCESS);
	assert_true(flow_fields_is_zero(&t.fixed.m));
	assert_true(flow_fields_is_zero(&t.chg));
}

static void test_refused(void **state)
{
	struct doca_flow_match m, k;
	struct flow_spec s;
	struct flow_tmpl t;

	(void)state;
#define REFUSE(set, want, needle)                                                                  \
	do {                                                                                       \
		m = zero_match();                                                                  \
		set;                                                                               \
		TEST_EXPECT_ERR(flow_match_control_entry(&m, NULL, &s, WHO), want, needle);        \
		TEST_EXPECT_ERR(flow_match_template(&m, NULL, &t, WHO), want, needle);             \
	} while (0)
	REFUSE(m.meta.pkt_meta = 1, DOCA_ERROR_NOT_SUPPORTED, "meta");
	REFUSE(m.meta.u32[3] = 1, DOCA_ERROR_NOT_SUPPORTED, "meta");
	REFUSE(m.parser_meta.port_id = 1, DOCA_ERROR_NOT_SUPPORTED, "parser_meta.port_id");
	REFUSE(m.parser_meta.random = 1, DOCA_ERROR_NOT_SUPPORTED, "parser_meta.random");
	REFUSE(m.parser_meta.outer_l2_type = DOCA_FLOW_L2_META_SINGLE_VLAN, DOCA_ERROR_NOT_SUPPORTED, "outer_l2_type");
	REFUSE(m.parser_meta.inner_l3_type = DOCA_FLOW_L3_META_IPV4, DOCA_ERROR_NOT_SUPPORTED, "inner_l3_type");
	REFUSE(m.parser_meta.outer_l4_ok = 1, DOCA_ERROR_NOT_SUPPORTED, "outer_l4_ok");
	REFUSE(m.parser_meta.outer_ip4_checksum_ok = 1, DOCA_ERROR_NOT_SUPPORTED, "outer_ip4_checksum_ok");
	REFUSE(m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_ESP, DOCA_ERROR_NOT_SUPPORTED, "ESP");
	REFUSE(m.outer.l2_valid_headers = DOCA_FLOW_L2_VALID_HEADER_VLAN_0, DOCA_ERROR_NOT_SUPPORTED, "VLAN");
	REFUSE(m.outer.eth_vlan[0].tci = DOCA_HTOBE16(5), DOCA_ERROR_NOT_SUPPORTED, "outer.eth_vlan");
	REFUSE(m.tun.type = DOCA_FLOW_TUN_VXLAN, DOCA_ERROR_NOT_SUPPORTED, "tun");
	REFUSE(m.inner.eth.type = DOCA_HTOBE16(0x800), DOCA_ERROR_NOT_SUPPORTED, "inner");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.outer.ip4.version_ihl = 0x45), DOCA_ERROR_NOT_SUPPORTED,
	       "outer.ip4.version_ihl");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.outer.ip4.total_len = 1), DOCA_ERROR_NOT_SUPPORTED,
	       "outer.ip4.total_len");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.outer.ip4.flags_fragment_offset = 1),
	       DOCA_ERROR_NOT_SUPPORTED, "flags_fragment_offset");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.outer.ip6.hop_limit = 1), DOCA_ERROR_NOT_SUPPORTED,
	       "outer.ip6 fields");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP6, m.outer.ip6.flow_label = 1), DOCA_ERROR_NOT_SUPPORTED,
	       "flow_label");
	REFUSE(m.outer.ip4.next_proto = 17, DOCA_ERROR_NOT_SUPPORTED, "without outer.l3_type");
	REFUSE(m.outer.udp.l4_port.dst_port = 1, DOCA_ERROR_NOT_SUPPORTED, "without outer.l4_type_ext");
	REFUSE((m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP, m.outer.tcp.flags = 2), DOCA_ERROR_NOT_SUPPORTED,
	       "past the UDP ports");
	REFUSE((m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP, m.outer.tcp.data_offset = 5),
	       DOCA_ERROR_NOT_SUPPORTED, "data_offset");
	REFUSE((m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_ICMP, m.outer.icmp.type = 8), DOCA_ERROR_NOT_SUPPORTED,
	       "outer.icmp");
	REFUSE(m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TRANSPORT, DOCA_ERROR_NOT_SUPPORTED, "TRANSPORT");
	REFUSE(m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_ROCE_V2, DOCA_ERROR_NOT_SUPPORTED, "ROCE_V2");
	REFUSE(m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_ICMP, DOCA_ERROR_NOT_SUPPORTED, "needs the L3 type");
	REFUSE(m.outer.l3_type = (enum doca_flow_l3_type)7, DOCA_ERROR_INVALID_VALUE, "not a layer 3 type");
	REFUSE(m.parser_meta.outer_l4_type = (enum doca_flow_l4_meta)9, DOCA_ERROR_INVALID_VALUE, "not a layer 4 type");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV6),
	       DOCA_ERROR_INVALID_VALUE, "disagree");
	REFUSE((m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP, m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP),
	       DOCA_ERROR_INVALID_VALUE, "disagree");
	REFUSE((m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4, m.outer.ip4.next_proto = 17,
		m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP),
	       DOCA_ERROR_INVALID_VALUE, "contradicts");
#undef REFUSE
	/* the same fields in a mask */
	m = zero_match();
	k = zero_match();
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	k.outer.ip4.identification = 0xffff;
	TEST_EXPECT_ERR(flow_match_control_entry(&m, &k, &s, WHO), DOCA_ERROR_NOT_SUPPORTED, "(in the mask)");
	k = zero_match();
	k.tun.type = DOCA_FLOW_TUN_GRE;
	TEST_EXPECT_ERR(flow_match_check(&m, &k, WHO), DOCA_ERROR_NOT_SUPPORTED, "tun");
	/* a per-entry protocol that the L4 type fixes */
	m = zero_match();
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = 0xff;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	TEST_EXPECT_ERR(flow_match_template(&m, NULL, &t, WHO), DOCA_ERROR_INVALID_VALUE, "both per entry");
	/* a CONTROL entry needs a match */
	TEST_EXPECT_ERR(flow_match_control_entry(NULL, NULL, &s, WHO), DOCA_ERROR_INVALID_VALUE, "match must not be NULL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_exact),
		cmocka_unit_test(test_control_mask),
		cmocka_unit_test(test_template),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
