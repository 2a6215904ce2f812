/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_flow.h
 * @brief DOCA Flow, the subset GPU applications use (DOCA names, types and parameter lists):
 *        steering received frames of a NIC port to DOCA Ethernet receive queues
 *        (doca_eth_rxq.h) by their outer headers.
 *
 * Life cycle: doca_flow_cfg_create() and its setters, doca_flow_init(); per NIC a port
 * (doca_flow_port_cfg_set_dev(), doca_flow_port_start()); pipes (doca_flow_pipe_cfg_*,
 * doca_flow_pipe_create()): BASIC pipes (one match template, entries fill in its per-entry
 * fields) and CONTROL pipes (each entry its own match, mask and priority); entries
 * (doca_flow_pipe_basic_add_entry(), doca_flow_pipe_control_add_entry()) forward to RSS over
 * receive queue ids (doca_eth_rxq_apply_queue_id()), to another pipe, to the kernel, or drop,
 * and may count; doca_flow_entries_process() delivers their completions;
 * doca_flow_port_stop(), doca_flow_destroy().
 *
 * How it maps to the NIC (PRM, through the device interface, so the software NIC and a
 * ConnectX receive the same command bytes): a port holds a transport domain; a pipe is one
 * NIC RX flow table (the root pipe's table is the root table), its match mask a flow group,
 * an entry a flow table entry; RSS is an RQT and an indirect TIR (a direct TIR for one
 * queue), shared by the entries of a port that name the same queues and hash fields; a
 * monitored entry counts into a flow counter of its own. docs/flow.md has the details.
 *
 * Matching: the outer Ethernet, IPv4 / IPv6, TCP / UDP headers and the parser's outer L3 / L4
 * types (list in docs/flow.md). A field this implementation cannot match (tunnels, inner
 * headers, meta data, VLAN, ICMP fields, ...) is refused with DOCA_ERROR_NOT_SUPPORTED and an
 * error line when it is set, never ignored.
 *
 * Parameter lists are those of NVIDIA's DOCA 3.x header as current samples use it
 * (doca_flow_pipe_basic_add_entry() with action_idx, doca_flow_pipe_control_add_entry() with
 * the priority after the monitor). DOCA 3.0's doca_flow_pipe_add_entry() is kept as well.
 *
 * Every function checks its arguments, logs why it fails and returns a doca_error_t
 * (functions DOCA declares void log instead). Calls may come from any thread; they are
 * serialised by one lock.
 */
#ifndef DOCA_FLOW_H_
#define DOCA_FLOW_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A big-endian (network order) 16-bit value, as DOCA names it. */
typedef uint16_t doca_be16_t;
/** @brief A big-endian 32-bit value. */
typedef uint32_t doca_be32_t;
/** @brief A big-endian 64-bit value. */
typedef uint64_t doca_be64_t;

struct doca_dev;
struct doca_dev_rep;

/** @brief A started port: one NIC's steering. */
struct doca_flow_port;
/** @brief A pipe: one match template and its entries (a flow table). */
struct doca_flow_pipe;
/** @brief One entry of a pipe (a flow table entry). */
struct doca_flow_pipe_entry;
/** @brief A forward target (doca_flow_get_target()). */
struct doca_flow_target;
/** @brief A parser (GENEVE options; not offered here). */
struct doca_flow_parser;
/** @brief Definitions of custom fields (not offered here). */
struct doca_flow_definitions;
/** @brief Global configuration (doca_flow_cfg_create()). */
struct doca_flow_cfg;
/** @brief Port configuration (doca_flow_port_cfg_create()). */
struct doca_flow_port_cfg;
/** @brief Pipe configuration (doca_flow_pipe_cfg_create()). */
struct doca_flow_pipe_cfg;

/* ------------------------------------------------------------------------------------------ */
/* Network headers (DOCA's doca_flow_net.h)                                                    */
/* ------------------------------------------------------------------------------------------ */

#define DOCA_FLOW_ETHER_ADDR_LEN (6)   /**< Bytes of a MAC address. */
#define DOCA_FLOW_PROTO_ICMP (1)       /**< IP protocol number of ICMP. */
#define DOCA_FLOW_PROTO_ICMP6 (58)     /**< IP protocol number of ICMPv6. */
#define DOCA_FLOW_PROTO_IPV4 (4)       /**< IP protocol number of IPv4 in IP. */
#define DOCA_FLOW_PROTO_IPV6 (41)      /**< IP protocol number of IPv6 in IP. */
#define DOCA_FLOW_PROTO_TCP (6)        /**< IP protocol number of TCP. */
#define DOCA_FLOW_PROTO_UDP (17)       /**< IP protocol number of UDP. */
#define DOCA_FLOW_PROTO_GRE (47)       /**< IP protocol number of GRE. */
#define DOCA_FLOW_PROTO_ESP (50)       /**< IP protocol number of ESP. */
#define DOCA_FLOW_ETHER_TYPE_IPV4 (0x0800) /**< Ethertype of IPv4. */
#define DOCA_FLOW_ETHER_TYPE_IPV6 (0x86DD) /**< Ethertype of IPv6. */
#define DOCA_FLOW_ETHER_TYPE_ARP (0x0806)  /**< Ethertype of ARP. */
#define DOCA_FLOW_ETHER_TYPE_VLAN (0x8100) /**< Ethertype of an 802.1Q tag. */
#define DOCA_FLOW_ETHER_TYPE_QINQ (0x88A8) /**< Ethertype of an 802.1ad tag. */
#define DOCA_FLOW_ETHER_TYPE_TEB (0x6558)  /**< Ethertype of transparent Ethernet bridging. */
#define DOCA_FLOW_UDP_HEADER_LEN 8          /**< Bytes of a UDP header. */
#define DOCA_FLOW_MPLS_LABELS_MAX 5         /**< MPLS labels in one match. */
#define DOCA_FLOW_GENEVE_OPT_LEN_MAX 63     /**< GENEVE option dwords in one packet. */
#define DOCA_FLOW_GENEVE_DATA_OPTION_LEN_MAX 31 /**< Data dwords of one GENEVE option. */
#define DOCA_FLOW_IB_BTH_DST_QP_LEN 3       /**< Bytes of the BTH destination QP. */
#define DOCA_FLOW_IB_BTH_PSN_LEN 3          /**< Bytes of the BTH PSN. */
#define DOCA_FLOW_PSP_HEADER_LEN (6 * sizeof(doca_be32_t)) /**< Bytes of a PSP header. */
/** Bytes of the largest crypto tunnel header. */
#define DOCA_FLOW_CRYPTO_HEADER_LEN_MAX                                                              \
	(DOCA_FLOW_ETHER_ADDR_LEN * 2 + sizeof(doca_be16_t) + sizeof(doca_be16_t) * 2 * 2 + sizeof(doca_be32_t) * 15 + \
	 sizeof(doca_be32_t) * 2 + DOCA_FLOW_PSP_HEADER_LEN)

#ifndef DOCA_HTOBE16
/** @brief A 16-bit host value in network order (a constant expression for constants). */
#define DOCA_HTOBE16(x) ((doca_be16_t)((((uint16_t)(x) & 0xffu) << 8) | (((uint16_t)(x) >> 8) & 0xffu)))
#endif
#ifndef DOCA_HTOBE32
/** @brief A 32-bit host value in network order. */
#define DOCA_HTOBE32(x)                                                                             \
	((doca_be32_t)((((uint32_t)(x) & 0xffu) << 24) | (((uint32_t)(x) & 0xff00u) << 8) |          \
		       (((uint32_t)(x) >> 8) & 0xff00u) | (((uint32_t)(x) >> 24) & 0xffu)))
#endif

/** @brief A VLAN tag. */
struct doca_flow_header_eth_vlan {
	doca_be16_t tci; /**< Priority, DEI and VLAN id. */
};

/** @brief Layer-3 type of a header (selects ip4 or ip6 in struct doca_flow_header_format). */
enum doca_flow_l3_type {
	DOCA_FLOW_L3_TYPE_NONE = 0, /**< No layer 3 named. */
	DOCA_FLOW_L3_TYPE_IP4,      /**< IPv4. */
	DOCA_FLOW_L3_TYPE_IP6,      /**< IPv6. */
};

/** @brief Ethernet header. */
struct doca_flow_header_eth {
	uint8_t src_mac[DOCA_FLOW_ETHER_ADDR_LEN]; /**< Source MAC. */
	uint8_t dst_mac[DOCA_FLOW_ETHER_ADDR_LEN]; /**< Destination MAC. */
	doca_be16_t type;                          /**< Ethertype. */
};

/** @brief An IP address of either family. */
struct doca_flow_ip_addr {
	enum doca_flow_l3_type type; /**< Family. */
	union {
		doca_be32_t ipv4_addr;    /**< IPv4. */
		doca_be32_t ipv6_addr[4]; /**< IPv6. */
	};
};

/** @brief Layer-4 type of a header (selects the member of the L4 union). */
enum doca_flow_l4_type_ext {
	DOCA_FLOW_L4_TYPE_EXT_NONE = 0,  /**< No layer 4 named. */
	DOCA_FLOW_L4_TYPE_EXT_TCP,       /**< TCP. */
	DOCA_FLOW_L4_TYPE_EXT_UDP,       /**< UDP. */
	DOCA_FLOW_L4_TYPE_EXT_ICMP,      /**< ICMP. */
	DOCA_FLOW_L4_TYPE_EXT_ICMP6,     /**< ICMPv6. */
	DOCA_FLOW_L4_TYPE_EXT_TRANSPORT, /**< TCP or UDP ports (not offered here). */
	DOCA_FLOW_L4_TYPE_EXT_ROCE_V2,   /**< RoCE v2 (not offered here). */
};

/** @brief InfiniBand base transport header. */
struct doca_flow_header_ib_bth {
	uint8_t opcode;                            /**< Opcode. */
	uint8_t sempt;                             /**< Solicited event, migration, pad, version. */
	doca_be16_t pkey;                          /**< Partition key. */
	uint8_t flags0;                            /**< Reserved bits. */
	uint8_t dest_qp[DOCA_FLOW_IB_BTH_DST_QP_LEN]; /**< Destination QP. */
	uint8_t flags1;                            /**< Ack request and reserved bits. */
	uint8_t psn[DOCA_FLOW_IB_BTH_PSN_LEN];     /**< Packet sequence number. */
};

/** @brief TCP or UDP ports. */
struct doca_flow_header_l4_port {
	doca_be16_t src_port; /**< Source port. */
	doca_be16_t dst_port; /**< Destination port. */
};

/** @brief UDP header. */
struct doca_flow_header_udp {
	struct doca_flow_header_l4_port l4_port; /**< Ports. */
};

/** @brief RoCE v2 headers. */
struct doca_flow_header_roce_v2 {
	struct doca_flow_header_udp udp;    /**< UDP header. */
	struct doca_flow_header_ib_bth bth; /**< Base transport header. */
};

/** @brief TCP header. */
struct doca_flow_header_tcp {
	struct doca_flow_header_l4_port l4_port; /**< Ports. */
	uint8_t data_offset;                     /**< Data offset (not offered here). */
	uint8_t flags;                           /**< Flags: enum doca_flow_match_tcp_flags bits. */
};

/** @brief ICMP header. */
struct doca_flow_header_icmp {
	uint8_t type;      /**< Type (not offered here). */
	uint8_t code;      /**< Code (not offered here). */
	doca_be16_t ident; /**< Identifier (not offered here). */
};

/** @brief Bits of struct doca_flow_header_ip4 flags_fragment_offset. */
enum doca_flow_ip_fragment_flags {
	DOCA_FLOW_IP4_FLAG_MORE_FRAGMENTS = (1 << 13), /**< MF. */
	DOCA_FLOW_IP4_FLAG_DONT_FRAGMENT = (1 << 14),  /**< DF. */
};

/** @brief IPv4 header. */
struct doca_flow_header_ip4 {
	doca_be32_t src_ip;                /**< Source address. */
	doca_be32_t dst_ip;                /**< Destination address. */
	uint8_t version_ihl;               /**< Version and header length (not offered here). */
	uint8_t dscp_ecn;                  /**< DSCP (6 bits) and ECN (2 bits). */
	doca_be16_t total_len;             /**< Total length (not offered here). */
	doca_be16_t identification;        /**< Identification (not offered here). */
	doca_be16_t flags_fragment_offset; /**< Flags and fragment offset (not offered here). */
	uint8_t next_proto;                /**< Protocol. */
	uint8_t ttl;                       /**< Time to live. */
};

/** @brief IPv6 header. */
struct doca_flow_header_ip6 {
	doca_be32_t src_ip[4];     /**< Source address. */
	doca_be32_t dst_ip[4];     /**< Destination address. */
	uint8_t traffic_class;     /**< DSCP (6 bits) and ECN (2 bits). */
	doca_be32_t flow_label;    /**< Flow label (not offered here). */
	doca_be16_t payload_len;   /**< Payload length (not offered here). */
	uint8_t next_proto;        /**< Next header. */
	uint8_t hop_limit;         /**< Hop limit. */
};

/** @brief An MPLS label stack entry. */
struct doca_flow_header_mpls {
	doca_be32_t label; /**< Label, traffic class, bottom of stack, TTL. */
};

/** @brief GENEVE header. */
struct doca_flow_header_geneve {
	uint8_t ver_opt_len;    /**< Version and options length. */
	uint8_t o_c;            /**< OAM and critical bits. */
	doca_be16_t next_proto; /**< Protocol type. */
	doca_be32_t vni;        /**< Virtual network id. */
};

/** @brief One dword of a GENEVE option. */
union doca_flow_geneve_option {
	struct {
		doca_be16_t class_id; /**< Option class. */
		uint8_t type;         /**< Option type. */
		uint8_t length;       /**< Option data length. */
	};
	doca_be32_t data; /**< Option data. */
};

/** @brief PSP header. */
struct doca_flow_header_psp {
	uint8_t nexthdr;       /**< Next header. */
	uint8_t hdrextlen;     /**< Header extension length. */
	uint8_t res_cryptofst; /**< Crypto offset. */
	uint8_t s_d_ver_v;     /**< Sample, drop, version, V bits. */
	doca_be32_t spi;       /**< Security parameter index. */
	doca_be64_t iv;        /**< Initialisation vector. */
	doca_be64_t vc;        /**< Virtualisation cookie. */
};

/** @brief Tunnel types. */
enum doca_flow_tun_type {
	DOCA_FLOW_TUN_NONE = 0,   /**< No tunnel. */
	DOCA_FLOW_TUN_VXLAN,      /**< VXLAN. */
	DOCA_FLOW_TUN_GTPU,       /**< GTP-U. */
	DOCA_FLOW_TUN_GRE,        /**< GRE. */
	DOCA_FLOW_TUN_ESP,        /**< ESP. */
	DOCA_FLOW_TUN_MPLS_O_UDP, /**< MPLS over UDP. */
	DOCA_FLOW_TUN_GENEVE,     /**< GENEVE. */
	DOCA_FLOW_TUN_PSP,        /**< PSP. */
	DOCA_FLOW_TUN_MAX,        /**< Number of types. */
};

/** @brief VXLAN flavours. */
enum doca_flow_tun_ext_vxlan_type {
	DOCA_FLOW_TUN_EXT_VXLAN_STANDARD = 0, /**< Standard VXLAN. */
	DOCA_FLOW_TUN_EXT_VXLAN_GPE,          /**< VXLAN-GPE. */
	DOCA_FLOW_TUN_EXT_VXLAN_GBP,          /**< VXLAN-GBP. */
};

/** @brief GRE flavours. */
enum doca_flow_tun_ext_gre_type {
	DOCA_FLOW_TUN_EXT_GRE_STANDARD = 0, /**< Standard GRE. */
	DOCA_FLOW_TUN_EXT_GRE_NVGRE,        /**< NVGRE. */
};

/** @brief Tunnel headers (matching them is not offered here: any set field is refused). */
struct doca_flow_tun {
	enum doca_flow_tun_type type; /**< Tunnel type. */
	union {
		struct {
			enum doca_flow_tun_ext_vxlan_type vxlan_type; /**< VXLAN flavour. */
			union {
				uint8_t vxlan_next_protocol;       /**< VXLAN-GPE next protocol. */
				doca_be16_t vxlan_group_policy_id; /**< VXLAN-GBP group policy. */
			};
			doca_be32_t vxlan_tun_id; /**< VNI and reserved byte. */
		};
		struct {
			enum doca_flow_tun_ext_gre_type gre_type; /**< GRE flavour. */
			doca_be16_t protocol;                     /**< Protocol type. */
			union {
				struct {
					bool key_present;    /**< Key present. */
					doca_be32_t gre_key; /**< Key. */
				};
				struct {
					doca_be32_t nvgre_vs_id; /**< Virtual subnet id. */
					uint8_t nvgre_flow_id;   /**< Flow id. */
				};
			};
		};
		struct {
			doca_be32_t gtp_teid; /**< GTP tunnel endpoint id. */
		};
		struct {
			doca_be32_t esp_spi; /**< ESP security parameter index. */
			doca_be32_t esp_sn;  /**< ESP sequence number. */
		};
		struct {
			struct doca_flow_header_mpls mpls[DOCA_FLOW_MPLS_LABELS_MAX]; /**< MPLS labels. */
		};
		struct {
			struct doca_flow_header_geneve geneve; /**< GENEVE header. */
			union doca_flow_geneve_option geneve_options[DOCA_FLOW_GENEVE_OPT_LEN_MAX]; /**< Options. */
		};
		struct {
			struct doca_flow_header_psp psp; /**< PSP header. */
		};
	};
};

/* ------------------------------------------------------------------------------------------ */
/* Crypto types that struct doca_flow_actions names (DOCA's doca_flow_crypto.h)                */
/* ------------------------------------------------------------------------------------------ */

/** @brief Crypto resource of an action (not offered here). */
enum doca_flow_crypto_resource_type {
	DOCA_FLOW_CRYPTO_RESOURCE_NONE = 0, /**< None. */
	DOCA_FLOW_CRYPTO_RESOURCE_IPSEC_SA, /**< IPsec SA. */
	DOCA_FLOW_CRYPTO_RESOURCE_PSP,      /**< PSP. */
};

/** @brief Crypto action (not offered here). */
enum doca_flow_crypto_action_type {
	DOCA_FLOW_CRYPTO_ACTION_NONE = 0, /**< None. */
	DOCA_FLOW_CRYPTO_ACTION_ENCRYPT,  /**< Encrypt. */
	DOCA_FLOW_CRYPTO_ACTION_DECRYPT,  /**< Decrypt. */
};

/** @brief Crypto reformat action (not offered here). */
enum doca_flow_crypto_encap_action_type {
	DOCA_FLOW_CRYPTO_REFORMAT_NONE = 0, /**< None. */
	DOCA_FLOW_CRYPTO_REFORMAT_ENCAP,    /**< Add a header. */
	DOCA_FLOW_CRYPTO_REFORMAT_DECAP,    /**< Remove a header. */
};

/** @brief Crypto header kinds (not offered here). */
enum doca_flow_crypto_encap_net_type {
	DOCA_FLOW_CRYPTO_HEADER_NONE = 0,        /**< None. */
	DOCA_FLOW_CRYPTO_HEADER_ESP_TUNNEL,      /**< ESP tunnel. */
	DOCA_FLOW_CRYPTO_HEADER_ESP_OVER_IPV4,   /**< ESP transport over IPv4. */
	DOCA_FLOW_CRYPTO_HEADER_ESP_OVER_IPV6,   /**< ESP transport over IPv6. */
	DOCA_FLOW_CRYPTO_HEADER_UDP_ESP_OVER_IPV4, /**< UDP-encapsulated ESP over IPv4. */
	DOCA_FLOW_CRYPTO_HEADER_UDP_ESP_OVER_IPV6, /**< UDP-encapsulated ESP over IPv6. */
	DOCA_FLOW_CRYPTO_HEADER_ESP_OVER_LAN,    /**< ESP over a LAN. */
	DOCA_FLOW_CRYPTO_HEADER_PSP_TUNNEL,      /**< PSP tunnel. */
	DOCA_FLOW_CRYPTO_HEADER_PSP_OVER_IPV4,   /**< PSP over IPv4. */
	DOCA_FLOW_CRYPTO_HEADER_PSP_OVER_IPV6,   /**< PSP over IPv6. */
	DOCA_FLOW_CRYPTO_HEADER_NON_ESP_MARKER,  /**< Non-ESP marker. */
};

/* ------------------------------------------------------------------------------------------ */
/* Enumerations                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** @brief Shared resource types (shared resources are not offered here). */
enum doca_flow_shared_resource_type {
	DOCA_FLOW_SHARED_RESOURCE_METER,    /**< Meter. */
	DOCA_FLOW_SHARED_RESOURCE_COUNTER,  /**< Counter. */
	DOCA_FLOW_SHARED_RESOURCE_RSS,      /**< RSS. */
	DOCA_FLOW_SHARED_RESOURCE_PSP,      /**< PSP. */
	DOCA_FLOW_SHARED_RESOURCE_ENCAP,    /**< Encapsulation. */
	DOCA_FLOW_SHARED_RESOURCE_DECAP,    /**< Decapsulation. */
	DOCA_FLOW_SHARED_RESOURCE_IPSEC_SA, /**< IPsec SA. */
};

/**
 * @brief Entry flags (the @p flags of the add / remove functions). Both flags are accepted and
 *        act alike: every operation reaches the NIC before the call returns.
 */
enum doca_flow_entry_flags {
	DOCA_FLOW_ENTRY_FLAGS_NO_WAIT = (1u << 0),        /**< Push the entry at once. */
	DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH = (1u << 1), /**< DOCA may buffer it (here: pushed at once). */
};

/** @brief DOCA 3.0 names of the entry flags (values of the older enum doca_flow_flags_type). */
enum doca_flow_flags_type {
	DOCA_FLOW_NO_WAIT = 0,               /**< Push the entry at once. */
	DOCA_FLOW_WAIT_FOR_BATCH = (1 << 0), /**< May be buffered (here: pushed at once). */
};

/** @brief Sets @p flag in @p flags. */
#define DOCA_FLOW_FLAGS_SET(flags, flag) ((flags) |= (flag))
/** @brief Clears @p flag in @p flags. */
#define DOCA_FLOW_FLAGS_UNSET(flags, flag) ((flags) &= ~(flag))
/** @brief Whether @p flag is set in @p flags. */
#define DOCA_FLOW_FLAGS_IS_SET(flags, flag) (((flags) & (flag)) != 0)

/** @brief Pipe operations reported to the pipe-process callback. */
enum doca_flow_pipe_op {
	DOCA_FLOW_PIPE_OP_CONGESTION_REACHED, /**< Congestion level reached. */
	DOCA_FLOW_PIPE_OP_RESIZED,            /**< Resize done. */
	DOCA_FLOW_PIPE_OP_DESTROYED,          /**< Destroy done. */
};

/** @brief Status of a pipe operation. */
enum doca_flow_pipe_status {
	DOCA_FLOW_PIPE_STATUS_SUCCESS = 1, /**< Done. */
	DOCA_FLOW_PIPE_STATUS_ERROR,       /**< Failed. */
};

/** @brief Entry operations reported to the entry-process callback. */
enum doca_flow_entry_op {
	DOCA_FLOW_ENTRY_OP_ADD,  /**< Added. */
	DOCA_FLOW_ENTRY_OP_DEL,  /**< Removed. */
	DOCA_FLOW_ENTRY_OP_UPD,  /**< Updated. */
	DOCA_FLOW_ENTRY_OP_AGED, /**< Aged out. */
};

/** @brief Status of an entry. */
enum doca_flow_entry_status {
	DOCA_FLOW_ENTRY_STATUS_IN_PROCESS, /**< Not completed yet. */
	DOCA_FLOW_ENTRY_STATUS_SUCCESS,    /**< In the NIC. */
	DOCA_FLOW_ENTRY_STATUS_ERROR,      /**< Failed. */
};

/** @brief RSS hash functions. */
enum doca_flow_rss_hash_function {
	DOCA_FLOW_RSS_HASH_FUNCTION_TOEPLITZ,           /**< Toeplitz. */
	DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ, /**< Toeplitz, source and destination sorted. */
};

/** @brief Pipe types: BASIC and CONTROL are offered; the others are refused. */
enum doca_flow_pipe_type {
	DOCA_FLOW_PIPE_BASIC,        /**< One match template; entries fill in its per-entry fields. */
	DOCA_FLOW_PIPE_CONTROL,      /**< Entries with their own match, mask and priority. */
	DOCA_FLOW_PIPE_LPM,          /**< Longest prefix match (not offered here). */
	DOCA_FLOW_PIPE_CT,           /**< Connection tracking (not offered here). */
	DOCA_FLOW_PIPE_ACL,          /**< ACL (not offered here). */
	DOCA_FLOW_PIPE_ORDERED_LIST, /**< Ordered list (not offered here). */
	DOCA_FLOW_PIPE_HASH,         /**< Hash (not offered here). */
};

/** @brief Pipe domains: DEFAULT (received traffic) is offered. */
enum doca_flow_pipe_domain {
	DOCA_FLOW_PIPE_DOMAIN_DEFAULT = 0,    /**< Received traffic. */
	DOCA_FLOW_PIPE_DOMAIN_SECURE_INGRESS, /**< Secure ingress (not offered here). */
	DOCA_FLOW_PIPE_DOMAIN_EGRESS,         /**< Sent traffic (not offered here). */
	DOCA_FLOW_PIPE_DOMAIN_SECURE_EGRESS,  /**< Secure egress (not offered here). */
};

/** @brief Dwords of programmable meta data. */
#define DOCA_FLOW_META_SCRATCH_PAD_MAX 10
/** @brief Bytes of meta data, pkt_meta included. */
#define DOCA_FLOW_META_MAX ((DOCA_FLOW_META_SCRATCH_PAD_MAX + 1) * 4)
/** @brief Largest actions memory of an entry. */
#define DOCA_FLOW_MAX_ENTRY_ACTIONS_MEM_SIZE (128)
/** @brief VLAN headers of one header format. */
#define DOCA_FLOW_VLAN_MAX 2

/** @brief Meter colours. */
enum doca_flow_meter_color {
	DOCA_FLOW_METER_COLOR_RED = 0, /**< Red. */
	DOCA_FLOW_METER_COLOR_YELLOW,  /**< Yellow. */
	DOCA_FLOW_METER_COLOR_GREEN,   /**< Green. */
};

/** @brief Parser's L2 types (not offered here). */
enum doca_flow_l2_meta {
	DOCA_FLOW_L2_META_NO_VLAN = 0, /**< No VLAN. */
	DOCA_FLOW_L2_META_MULTI_VLAN,  /**< Several VLANs. */
	DOCA_FLOW_L2_META_SINGLE_VLAN, /**< One VLAN. */
	DOCA_FLOW_L2_META_CUSTOM_VLAN, /**< Custom VLAN. */
};

/** @brief Parser's L3 types (parser_meta.outer_l3_type). */
enum doca_flow_l3_meta {
	DOCA_FLOW_L3_META_NONE = 0, /**< Not matched. */
	DOCA_FLOW_L3_META_IPV4,     /**< IPv4. */
	DOCA_FLOW_L3_META_IPV6,     /**< IPv6. */
};

/** @brief Parser's L4 types (parser_meta.outer_l4_type). */
enum doca_flow_l4_meta {
	DOCA_FLOW_L4_META_NONE = 0, /**< Not matched. */
	DOCA_FLOW_L4_META_TCP,      /**< TCP. */
	DOCA_FLOW_L4_META_UDP,      /**< UDP. */
	DOCA_FLOW_L4_META_ICMP,     /**< ICMP (IPv4) or ICMPv6 (IPv6): needs the L3 type. */
	DOCA_FLOW_L4_META_ESP,      /**< ESP (not offered here). */
};

/** @brief Crypto syndromes of the parser (not offered here). */
enum doca_flow_crypto_syndrome {
	DOCA_FLOW_CRYPTO_SYNDROME_OK,          /**< Fine. */
	DOCA_FLOW_CRYPTO_SYNDROME_ICV_FAIL,    /**< Authentication failed. */
	DOCA_FLOW_CRYPTO_SYNDROME_BAD_TRAILER, /**< Bad trailer. */
};

/** @brief Hash pipe algorithms (not offered here). */
enum doca_flow_pipe_hash_map_algorithm {
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_HASH = 1 << 0,           /**< Hash. */
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_RANDOM = 1 << 1,         /**< Random. */
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_IDENTITY = 1 << 2,       /**< Identity. */
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_ROUND_ROBIN = 1 << 3,    /**< Round robin. */
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_FLOODING = 1 << 4,       /**< Flooding. */
	DOCA_FLOW_PIPE_HASH_MAP_ALGORITHM_SELECT_ENABLED = 1 << 5, /**< Select enabled entry. */
};

/** @brief TCP flags (struct doca_flow_header_tcp flags). */
enum doca_flow_match_tcp_flags {
	DOCA_FLOW_MATCH_TCP_FLAG_FIN = (1 << 0), /**< FIN. */
	DOCA_FLOW_MATCH_TCP_FLAG_SYN = (1 << 1), /**< SYN. */
	DOCA_FLOW_MATCH_TCP_FLAG_RST = (1 << 2), /**< RST. */
	DOCA_FLOW_MATCH_TCP_FLAG_PSH = (1 << 3), /**< PSH. */
	DOCA_FLOW_MATCH_TCP_FLAG_ACK = (1 << 4), /**< ACK. */
	DOCA_FLOW_MATCH_TCP_FLAG_URG = (1 << 5), /**< URG. */
	DOCA_FLOW_MATCH_TCP_FLAG_ECE = (1 << 6), /**< ECE. */
	DOCA_FLOW_MATCH_TCP_FLAG_CWR = (1 << 7), /**< CWR. */
};

/** @brief Valid VLAN headers of a header format (not offered here). */
enum doca_flow_l2_valid_header {
	DOCA_FLOW_L2_VALID_HEADER_VLAN_0 = (1 << 0), /**< First VLAN. */
	DOCA_FLOW_L2_VALID_HEADER_VLAN_1 = (1 << 1), /**< Second VLAN. */
};

/* ------------------------------------------------------------------------------------------ */
/* Match                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** @brief Programmable meta data (matching it is not offered here). */
struct doca_flow_meta {
	doca_be32_t pkt_meta;                            /**< Shared with the application. */
	doca_be32_t u32[DOCA_FLOW_META_SCRATCH_PAD_MAX]; /**< Scratch pad. */
};

/**
 * @brief Read-only data of the NIC's parser. Offered: outer_l3_type, outer_l4_type and
 *        outer_ip_fragmented; any other field set is refused.
 */
struct doca_flow_parser_meta {
	uint16_t port_id;                       /**< Port id (not offered here). */
	doca_be16_t random;                     /**< Random value (not offered here). */
	uint8_t ipsec_syndrome;                 /**< Not offered here. */
	uint8_t ipsec_ar_syndrome;              /**< Not offered here. */
	uint8_t psp_syndrome;                   /**< Not offered here. */
	enum doca_flow_meter_color meter_color; /**< Not offered here. */
	enum doca_flow_l2_meta outer_l2_type;   /**< Not offered here. */
	enum doca_flow_l3_meta outer_l3_type;   /**< Outer L3: IPv4 or IPv6. */
	enum doca_flow_l4_meta outer_l4_type;   /**< Outer L4: TCP, UDP or ICMP. */
	enum doca_flow_l2_meta inner_l2_type;   /**< Not offered here. */
	enum doca_flow_l3_meta inner_l3_type;   /**< Not offered here. */
	enum doca_flow_l4_meta inner_l4_type;   /**< Not offered here. */
	uint8_t outer_ip_fragmented;            /**< Outer IP packet is a fragment (1). */
	uint8_t inner_ip_fragmented;            /**< Not offered here. */
	uint8_t outer_l3_ok;                    /**< Not offered here. */
	uint8_t outer_ip4_checksum_ok;          /**< Not offered here. */
	uint8_t outer_l4_ok;                    /**< Not offered here. */
	uint8_t outer_l4_checksum_ok;           /**< Not offered here. */
	uint8_t inner_l3_ok;                    /**< Not offered here. */
	uint8_t inner_ip4_checksum_ok;          /**< Not offered here. */
	uint8_t inner_l4_ok;                    /**< Not offered here. */
	uint8_t inner_l4_checksum_ok;           /**< Not offered here. */
};

/**
 * @brief Headers of one layer. l3_type says whether ip4 or ip6 holds the fields, l4_type_ext
 *        which member of the L4 union does; a type also matches the protocol itself (IPv4, UDP,
 *        ...).
 */
struct doca_flow_header_format {
	struct doca_flow_header_eth eth;                               /**< Ethernet. */
	uint16_t l2_valid_headers;                                     /**< VLANs (not offered here). */
	struct doca_flow_header_eth_vlan eth_vlan[DOCA_FLOW_VLAN_MAX]; /**< VLANs (not offered here). */
	enum doca_flow_l3_type l3_type;                                /**< Layer 3 type. */
	union {
		struct doca_flow_header_ip4 ip4; /**< IPv4 (l3_type IP4). */
		struct doca_flow_header_ip6 ip6; /**< IPv6 (l3_type IP6). */
	};
	enum doca_flow_l4_type_ext l4_type_ext; /**< Layer 4 type. */
	union {
		struct doca_flow_header_icmp icmp;         /**< ICMP (fields not offered here). */
		struct doca_flow_header_udp udp;           /**< UDP (l4_type_ext UDP). */
		struct doca_flow_header_tcp tcp;           /**< TCP (l4_type_ext TCP). */
		struct doca_flow_header_l4_port transport; /**< Either (not offered here). */
		struct doca_flow_header_roce_v2 roce_v2;   /**< RoCE v2 (not offered here). */
	};
};

/**
 * @brief What a pipe or entry matches. Only @c parser_meta and @c outer are offered; meta,
 *        tun and inner must stay zero.
 *
 * Values and masks follow DOCA: in a pipe's template (doca_flow_pipe_cfg_set_match()) a field
 * of all ones is filled in per entry ("changeable"), another non-zero value is matched by every
 * entry, zero is not matched; a mask, when given, masks each field (a zero mask leaves the field
 * out). A CONTROL entry without a mask matches its non-zero fields exactly.
 */
struct doca_flow_match {
	struct doca_flow_meta meta;               /**< Meta data (not offered here). */
	struct doca_flow_parser_meta parser_meta; /**< Parser data. */
	struct doca_flow_header_format outer;     /**< Outer headers. */
	struct doca_flow_tun tun;                 /**< Tunnel (not offered here). */
	struct doca_flow_header_format inner;     /**< Inner headers (not offered here). */
};

/** @brief Comparison of a match condition (conditions are not offered here). */
enum doca_flow_compare_op {
	DOCA_FLOW_COMPARE_EQ, /**< Equal. */
	DOCA_FLOW_COMPARE_NE, /**< Not equal. */
	DOCA_FLOW_COMPARE_LT, /**< Less than. */
	DOCA_FLOW_COMPARE_LE, /**< Less or equal. */
	DOCA_FLOW_COMPARE_GT, /**< Greater than. */
	DOCA_FLOW_COMPARE_GE, /**< Greater or equal. */
};

/** @brief A field named by a string ("outer.ipv4.next_proto"). */
struct doca_flow_desc_field {
	const char *field_string; /**< The field. */
	uint32_t bit_offset;      /**< Bit offset in it. */
};

/** @brief A match condition (not offered here: a non-NULL condition is refused). */
struct doca_flow_match_condition {
	enum doca_flow_compare_op operation; /**< Comparison. */
	union {
		struct {
			struct doca_flow_desc_field a; /**< First operand. */
			struct doca_flow_desc_field b; /**< Second operand. */
			uint32_t width;                /**< Bits compared. */
		} field_op; /**< Field against field. */
	};
};

/* ------------------------------------------------------------------------------------------ */
/* Actions (packet modification is not offered here: actions must be all zero)                */
/* ------------------------------------------------------------------------------------------ */

/** @brief Encapsulation data. */
struct doca_flow_encap_action {
	struct doca_flow_header_format outer; /**< Outer headers. */
	struct doca_flow_tun tun;             /**< Tunnel. */
};

/** @brief VLAN push data. */
struct doca_flow_push_vlan_action {
	doca_be16_t eth_type;                     /**< Ethertype before the tag. */
	struct doca_flow_header_eth_vlan vlan_hdr; /**< The tag. */
};

/** @brief Push action types. */
enum doca_flow_push_action_type {
	DOCA_FLOW_PUSH_ACTION_VLAN, /**< VLAN. */
};

/** @brief Push action. */
struct doca_flow_push_action {
	enum doca_flow_push_action_type type; /**< What to push. */
	union {
		struct doca_flow_push_vlan_action vlan; /**< VLAN data. */
	};
};

/** @brief NAT64 action. */
struct doca_flow_nat64_action {
	enum doca_flow_l3_type original_l3_type; /**< L3 type before. */
};

/** @brief Whether a resource is absent, shared or the entry's own. */
enum doca_flow_resource_type {
	DOCA_FLOW_RESOURCE_TYPE_NONE,      /**< None. */
	DOCA_FLOW_RESOURCE_TYPE_SHARED,    /**< Shared (not offered here). */
	DOCA_FLOW_RESOURCE_TYPE_NON_SHARED /**< The pipe's / entry's own. */
};

/** @brief Crypto action. */
struct doca_flow_crypto_action {
	enum doca_flow_crypto_action_type action_type;     /**< Encrypt or decrypt. */
	enum doca_flow_crypto_resource_type resource_type; /**< IPsec or PSP. */
	union {
		struct {
			bool sn_en; /**< Sequence numbers. */
		} ipsec_sa;     /**< IPsec data. */
	};
	uint32_t crypto_id; /**< Shared resource id. */
};

/** @brief Crypto reformat action. */
struct doca_flow_crypto_encap_action {
	enum doca_flow_crypto_encap_action_type action_type; /**< Encap or decap. */
	enum doca_flow_crypto_encap_net_type net_type;       /**< Header kind. */
	uint16_t icv_size;                                   /**< Trailer bytes. */
	uint16_t data_size;                                  /**< Header bytes. */
	uint8_t encap_data[DOCA_FLOW_CRYPTO_HEADER_LEN_MAX]; /**< Header. */
};

/** @brief Encapsulation resource. */
struct doca_flow_resource_encap_cfg {
	bool is_l2;                          /**< L2 or L3 tunnel. */
	struct doca_flow_encap_action encap; /**< Data. */
};

/** @brief Decapsulation resource. */
struct doca_flow_resource_decap_cfg {
	bool is_l2;                                                    /**< L2 or L3 tunnel. */
	struct doca_flow_header_eth eth;                               /**< Ethernet header to add. */
	uint16_t l2_valid_headers;                                     /**< Valid VLANs. */
	struct doca_flow_header_eth_vlan eth_vlan[DOCA_FLOW_VLAN_MAX]; /**< VLANs. */
};

/** @brief Packet modifications of a pipe or entry (not offered here: must be all zero). */
struct doca_flow_actions {
	enum doca_flow_resource_type decap_type; /**< Decapsulation. */
	union {
		struct doca_flow_resource_decap_cfg decap_cfg; /**< Own decapsulation. */
		uint32_t shared_decap_id;                      /**< Shared decapsulation. */
	};
	bool pop_vlan;                            /**< Pop the outer VLAN. */
	struct doca_flow_meta meta;               /**< Meta data to write. */
	struct doca_flow_parser_meta parser_meta; /**< Parser data to copy. */
	struct doca_flow_header_format outer;     /**< Outer headers to write. */
	struct doca_flow_tun tun;                 /**< Tunnel headers to write. */
	enum doca_flow_resource_type encap_type;  /**< Encapsulation. */
	union {
		struct doca_flow_resource_encap_cfg encap_cfg; /**< Own encapsulation. */
		uint32_t shared_encap_id;                      /**< Shared encapsulation. */
	};
	bool has_push;                                    /**< Push a header. */
	struct doca_flow_push_action push;                /**< The header. */
	struct doca_flow_nat64_action nat64;              /**< NAT64. */
	bool has_crypto_encap;                            /**< Crypto reformat. */
	struct doca_flow_crypto_encap_action crypto_encap; /**< Its data. */
	struct doca_flow_crypto_action crypto;            /**< Crypto. */
};

/** @brief Action descriptor kinds. */
enum doca_flow_action_type {
	DOCA_FLOW_ACTION_AUTO = 0, /**< From the pipe's actions. */
	DOCA_FLOW_ACTION_ADD,      /**< Add a value. */
	DOCA_FLOW_ACTION_COPY,     /**< Copy a field. */
};

/** @brief One action descriptor. */
struct doca_flow_action_desc {
	enum doca_flow_action_type type; /**< Kind. */
	union {
		struct {
			struct doca_flow_desc_field src; /**< Source. */
			struct doca_flow_desc_field dst; /**< Destination. */
			uint32_t width;                  /**< Bits. */
		} field_op; /**< Field operation. */
	};
};

/** @brief Action descriptors (not offered here: none may be given). */
struct doca_flow_action_descs {
	uint8_t nb_action_desc;                  /**< Number of descriptors. */
	struct doca_flow_action_desc *desc_array; /**< Descriptors. */
};

/* ------------------------------------------------------------------------------------------ */
/* Forwarding                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/** @brief Forward targets (doca_flow_get_target()). */
enum doca_flow_target_type {
	DOCA_FLOW_TARGET_KERNEL, /**< The kernel's network stack. */
};

/** @brief Forward types: NONE, RSS, PIPE, DROP, TARGET (kernel) and CHANGEABLE are offered. */
enum doca_flow_fwd_type {
	DOCA_FLOW_FWD_NONE = 0,          /**< Not set (a BASIC entry then needs its own). */
	DOCA_FLOW_FWD_RSS,               /**< Spread over receive queues by hash. */
	DOCA_FLOW_FWD_PORT,              /**< Another port (not offered here). */
	DOCA_FLOW_FWD_PIPE,              /**< Another pipe of the port. */
	DOCA_FLOW_FWD_DROP,              /**< Drop. */
	DOCA_FLOW_FWD_TARGET,            /**< A target: the kernel. */
	DOCA_FLOW_FWD_ORDERED_LIST_PIPE, /**< Ordered list pipe (not offered here). */
	DOCA_FLOW_FWD_HASH_PIPE,         /**< Hash pipe (not offered here). */
	DOCA_FLOW_FWD_CHANGEABLE = 100   /**< A pipe's forward that each entry gives. */
};

/** @brief RSS hash fields (fwd.rss.outer_flags bits). */
enum doca_rss_type {
	DOCA_FLOW_RSS_IPV4 = (1 << 0),     /**< IPv4 source and destination. */
	DOCA_FLOW_RSS_IPV6 = (1 << 1),     /**< IPv6 source and destination. */
	DOCA_FLOW_RSS_UDP = (1 << 2),      /**< UDP ports. */
	DOCA_FLOW_RSS_TCP = (1 << 3),      /**< TCP ports. */
	DOCA_FLOW_RSS_ESP = (1 << 4),      /**< ESP SPI (not offered here). */
	DOCA_FLOW_RSS_IPV4_SRC = (1 << 5), /**< IPv4 source. */
	DOCA_FLOW_RSS_IPV4_DST = (1 << 6), /**< IPv4 destination. */
	DOCA_FLOW_RSS_IPV6_SRC = (1 << 7), /**< IPv6 source. */
	DOCA_FLOW_RSS_IPV6_DST = (1 << 8), /**< IPv6 destination. */
	DOCA_FLOW_RSS_UDP_SRC = (1 << 9),  /**< UDP source port. */
	DOCA_FLOW_RSS_UDP_DST = (1 << 10), /**< UDP destination port. */
	DOCA_FLOW_RSS_TCP_SRC = (1 << 11), /**< TCP source port. */
	DOCA_FLOW_RSS_TCP_DST = (1 << 12), /**< TCP destination port. */
	DOCA_FLOW_RSS_AUTO = (1 << 30),    /**< DOCA's choice (not offered here). */
};

/**
 * @brief An RSS configuration: the receive queue ids (doca_eth_rxq_apply_queue_id()) and the
 *        outer header fields the Toeplitz hash covers. One L3 family and one L4 protocol per
 *        configuration (the NIC hashes one of each); inner_flags must be 0.
 */
struct doca_flow_resource_rss_cfg {
	uint32_t outer_flags;                          /**< enum doca_rss_type bits. */
	uint32_t inner_flags;                          /**< Inner fields (not offered here). */
	uint16_t *queues_array;                        /**< Queue ids. */
	int nr_queues;                                 /**< Number of queue ids (1 .. 256). */
	enum doca_flow_rss_hash_function rss_hash_func; /**< Hash function. */
};

/** @brief Where matching packets go. */
struct doca_flow_fwd {
	enum doca_flow_fwd_type type; /**< Forward type. */
	union {
		struct {
			enum doca_flow_resource_type rss_type; /**< NON_SHARED (SHARED is not offered). */
			union {
				struct doca_flow_resource_rss_cfg rss; /**< The queues and hash fields. */
				uint32_t shared_rss_id;                /**< Shared RSS (not offered here). */
			};
		};
		struct {
			uint16_t port_id; /**< FWD_PORT (not offered here). */
		};
		struct {
			struct doca_flow_pipe *next_pipe; /**< FWD_PIPE: a pipe of the same port. */
		};
		struct {
			struct doca_flow_pipe *pipe; /**< Ordered list pipe. */
			uint32_t idx;                /**< Its entry. */
		} ordered_list_pipe;             /**< FWD_ORDERED_LIST_PIPE (not offered here). */
		struct {
			struct doca_flow_target *target; /**< FWD_TARGET: doca_flow_get_target(KERNEL). */
		};
		struct {
			struct doca_flow_pipe *pipe;                     /**< Hash pipe. */
			enum doca_flow_pipe_hash_map_algorithm algorithm; /**< Algorithm. */
		} hash_pipe; /**< FWD_HASH_PIPE (not offered here). */
	};
};

/* ------------------------------------------------------------------------------------------ */
/* Monitor and queries                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** @brief Meter limit units (meters are not offered here). */
enum doca_flow_meter_limit_type {
	DOCA_FLOW_METER_LIMIT_TYPE_BYTES = 0, /**< Bytes. */
	DOCA_FLOW_METER_LIMIT_TYPE_PACKETS,   /**< Packets. */
};

/**
 * @brief Monitoring of a pipe's entries: counter_type NON_SHARED gives every entry a counter of
 *        its own (doca_flow_resource_query_entry()). Meters, shared counters and aging are
 *        refused.
 */
struct doca_flow_monitor {
	enum doca_flow_resource_type meter_type; /**< Meter (only NONE). */
	union {
		struct {
			enum doca_flow_meter_limit_type limit_type; /**< Units. */
			uint64_t cir;                               /**< Committed rate. */
			uint64_t cbs;                               /**< Committed burst. */
		} non_shared_meter; /**< Own meter. */
		struct {
			uint32_t shared_meter_id;                   /**< Shared meter id. */
			enum doca_flow_meter_color meter_init_color; /**< Initial colour. */
		} shared_meter; /**< Shared meter. */
	};
	enum doca_flow_resource_type counter_type; /**< NONE or NON_SHARED. */
	union {
		struct {
			uint32_t shared_counter_id; /**< Shared counter id (not offered here). */
		} shared_counter; /**< Shared counter. */
	};
	uint32_t aging_sec; /**< Aging (only 0). */
};

/** @brief What doca_flow_resource_query_entry() reads. */
struct doca_flow_resource_query {
	union {
		struct {
			uint64_t total_bytes; /**< Bytes of the frames that hit the entry. */
			uint64_t total_pkts;  /**< Frames that hit the entry. */
		} counter; /**< A counter. */
		struct {
			uint64_t current_sn; /**< IPsec sequence number (not offered here). */
		} ipsec_sa; /**< An IPsec SA. */
	};
};

/* ------------------------------------------------------------------------------------------ */
/* Callbacks                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** @brief Pipe operation completion (accepted; no pipe operation completes asynchronously here). */
typedef void (*doca_flow_pipe_process_cb)(struct doca_flow_pipe *pipe, enum doca_flow_pipe_status status,
					  enum doca_flow_pipe_op op, void *user_ctx);

/** @brief Entry operation completion, called from doca_flow_entries_process(). */
typedef void (*doca_flow_entry_process_cb)(struct doca_flow_pipe_entry *entry, uint16_t pipe_queue,
					   enum doca_flow_entry_status status, enum doca_flow_entry_op op,
					   void *user_ctx);

/** @brief Shared resource unbinding (accepted; shared resources are not offered here). */
typedef void (*doca_flow_shared_resource_unbind_cb)(enum doca_flow_shared_resource_type type,
						    uint32_t shared_resource_id, void *bindable_obj);

/* ------------------------------------------------------------------------------------------ */
/* Global configuration                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Allocates a global configuration (1 pipe queue, no counter limit, "vnf,hws,isolated").
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_flow_cfg_create(struct doca_flow_cfg **cfg);
/** @brief Frees a configuration. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_flow_cfg_destroy(struct doca_flow_cfg *cfg);
/**
 * @brief Number of pipe queues (entry operation queues), 1 .. 256.
 * @return DOCA_ERROR_INVALID_VALUE for NULL or out of range.
 */
doca_error_t doca_flow_cfg_set_pipe_queues(struct doca_flow_cfg *cfg, uint16_t pipe_queues);
/**
 * @brief Most flow counters all ports may hold together (0: no limit).
 * @return DOCA_ERROR_INVALID_VALUE for NULL.
 */
doca_error_t doca_flow_cfg_set_nr_counters(struct doca_flow_cfg *cfg, uint32_t nr_counters);
/** @brief Meters: only 0 (meters are not offered). @return DOCA_ERROR_NOT_SUPPORTED otherwise. */
doca_error_t doca_flow_cfg_set_nr_meters(struct doca_flow_cfg *cfg, uint32_t nr_meters);
/**
 * @brief The mode: comma-separated words holding "vnf" once and any of "hws", "isolated",
 *        "use_doca_eth", "expert". Other modes ("switch", "remote_vnf") and unknown words are
 *        refused. With or without "isolated", frames no rule takes go to the kernel
 *        (no default RSS queues exist: receive queues are DOCA Ethernet queues).
 * @return DOCA_ERROR_INVALID_VALUE for NULL or an unknown word; DOCA_ERROR_NOT_SUPPORTED for a
 *         known mode this implementation does not offer.
 */
doca_error_t doca_flow_cfg_set_mode_args(struct doca_flow_cfg *cfg, const char *mode_args);
/**
 * @brief Depth of each pipe queue (1 .. 65536; accepted and kept: operations complete at once).
 * @return DOCA_ERROR_INVALID_VALUE for NULL or out of range.
 */
doca_error_t doca_flow_cfg_set_queue_depth(struct doca_flow_cfg *cfg, uint32_t queue_depth);
/** @brief The entry completion callback (called from doca_flow_entries_process()). */
doca_error_t doca_flow_cfg_set_cb_entry_process(struct doca_flow_cfg *cfg, doca_flow_entry_process_cb cb);
/** @brief The pipe completion callback (kept; never called: pipe operations are synchronous). */
doca_error_t doca_flow_cfg_set_cb_pipe_process(struct doca_flow_cfg *cfg, doca_flow_pipe_process_cb cb);
/**
 * @brief The Toeplitz key of every RSS forward (40 bytes; the default is a symmetric key).
 * @return DOCA_ERROR_INVALID_VALUE for NULL or a length other than 40.
 */
doca_error_t doca_flow_cfg_set_rss_key(struct doca_flow_cfg *cfg, const uint8_t *rss_key, uint32_t rss_key_len);

/**
 * @brief Initialises DOCA Flow with @p cfg (copied). One initialisation at a time.
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when already initialised.
 */
doca_error_t doca_flow_init(struct doca_flow_cfg *cfg);
/**
 * @brief Ends DOCA Flow. Ports still started are stopped (logged as a warning); a later
 *        doca_flow_init() starts over.
 */
void doca_flow_destroy(void);

/* ------------------------------------------------------------------------------------------ */
/* Ports                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** @brief Allocates a port configuration. @return DOCA_ERROR_INVALID_VALUE, DOCA_ERROR_NO_MEMORY. */
doca_error_t doca_flow_port_cfg_create(struct doca_flow_port_cfg **cfg);
/** @brief Frees a port configuration. */
doca_error_t doca_flow_port_cfg_destroy(struct doca_flow_port_cfg *cfg);
/** @brief The port id (default 0); unique among started ports. */
doca_error_t doca_flow_port_cfg_set_port_id(struct doca_flow_port_cfg *cfg, uint16_t port_id);
/** @brief The device whose NIC the port steers (required; held while the port runs). */
doca_error_t doca_flow_port_cfg_set_dev(struct doca_flow_port_cfg *cfg, struct doca_dev *dev);
/** @brief DPDK device arguments: not offered (DOCA_ERROR_NOT_SUPPORTED) unless empty. */
doca_error_t doca_flow_port_cfg_set_devargs(struct doca_flow_port_cfg *cfg, const char *devargs);

/**
 * @brief Starts a port: allocates its transport domain on the device.
 * @return DOCA_ERROR_INVALID_VALUE for NULL or a configuration without a device;
 *         DOCA_ERROR_BAD_STATE before doca_flow_init(); DOCA_ERROR_ALREADY_EXIST for a port id
 *         or device another started port has; the device's error otherwise.
 */
doca_error_t doca_flow_port_start(const struct doca_flow_port_cfg *cfg, struct doca_flow_port **port);
/**
 * @brief Stops a port: removes its entries and pipes (the root table first), its RSS objects,
 *        counters and transport domain, and releases the device.
 * @return DOCA_ERROR_INVALID_VALUE for NULL or a port not started.
 */
doca_error_t doca_flow_port_stop(struct doca_flow_port *port);
/** @brief Destroys every pipe (and entry) of @p port; the port stays started. */
void doca_flow_port_pipes_flush(struct doca_flow_port *port);

/* ------------------------------------------------------------------------------------------ */
/* Pipes                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** @brief Allocates a pipe configuration for @p port. @return DOCA_ERROR_INVALID_VALUE for NULL. */
doca_error_t doca_flow_pipe_cfg_create(struct doca_flow_pipe_cfg **cfg, struct doca_flow_port *port);
/** @brief Frees a pipe configuration. */
doca_error_t doca_flow_pipe_cfg_destroy(struct doca_flow_pipe_cfg *cfg);
/** @brief The pipe's name (copied; at most 63 characters kept), for log lines. */
doca_error_t doca_flow_pipe_cfg_set_name(struct doca_flow_pipe_cfg *cfg, const char *name);
/** @brief BASIC (default) or CONTROL; the other types are DOCA_ERROR_NOT_SUPPORTED. */
doca_error_t doca_flow_pipe_cfg_set_type(struct doca_flow_pipe_cfg *cfg, enum doca_flow_pipe_type type);
/** @brief DEFAULT only (received traffic); the others are DOCA_ERROR_NOT_SUPPORTED. */
doca_error_t doca_flow_pipe_cfg_set_domain(struct doca_flow_pipe_cfg *cfg, enum doca_flow_pipe_domain domain);
/** @brief Whether the pipe is the port's root (its table becomes the NIC's root table). */
doca_error_t doca_flow_pipe_cfg_set_is_root(struct doca_flow_pipe_cfg *cfg, bool is_root);
/**
 * @brief The match template (BASIC pipes) and its mask (either may be NULL). Copied and checked
 *        here: unsupported fields are DOCA_ERROR_NOT_SUPPORTED.
 */
doca_error_t doca_flow_pipe_cfg_set_match(struct doca_flow_pipe_cfg *cfg, const struct doca_flow_match *match,
					  const struct doca_flow_match *match_mask);
/** @brief Packet actions: only none (nr_actions 0 or all-zero actions). */
doca_error_t doca_flow_pipe_cfg_set_actions(struct doca_flow_pipe_cfg *cfg, struct doca_flow_actions *const *actions,
					    struct doca_flow_actions *const *actions_masks,
					    struct doca_flow_action_descs *const *action_descs, size_t nr_actions);
/** @brief The pipe's monitor: a non-shared counter per entry, or nothing. */
doca_error_t doca_flow_pipe_cfg_set_monitor(struct doca_flow_pipe_cfg *cfg, const struct doca_flow_monitor *monitor);
/** @brief Most entries (1 .. 65535; default 1024); sizes the flow table. */
doca_error_t doca_flow_pipe_cfg_set_nr_entries(struct doca_flow_pipe_cfg *cfg, uint32_t nr_entries);
/** @brief Whether the pipe may grow: only false (DOCA_ERROR_NOT_SUPPORTED for true). */
doca_error_t doca_flow_pipe_cfg_set_is_resizable(struct doca_flow_pipe_cfg *cfg, bool is_resizable);
/** @brief A miss counter: only false (DOCA_ERROR_NOT_SUPPORTED for true). */
doca_error_t doca_flow_pipe_cfg_set_miss_counter(struct doca_flow_pipe_cfg *cfg, bool miss_counter);
/** @brief The pipe's user context (kept with the pipe). */
doca_error_t doca_flow_pipe_cfg_set_user_ctx(struct doca_flow_pipe_cfg *cfg, void *user_ctx);

/**
 * @brief Creates a pipe: a flow table on the port's NIC with its group(s), the forward of its
 *        entries (@p fwd; NULL or NONE for a CONTROL pipe, whose entries forward) and what
 *        happens on a miss (@p fwd_miss: NULL / NONE / TARGET kernel: the kernel; DROP; PIPE;
 *        RSS). A pipe forwards only to pipes deeper than itself (created with a higher table
 *        level): forward targets should exist before the pipes that name them, or the root
 *        should forward to them. The root pipe's table becomes the root table.
 * @return DOCA_ERROR_INVALID_VALUE for NULL or inconsistent input; DOCA_ERROR_NOT_SUPPORTED for
 *         forwards and fields not offered; DOCA_ERROR_ALREADY_EXIST for a second root;
 *         DOCA_ERROR_NOT_FOUND for an RSS queue id no started receive queue has; the device's
 *         error otherwise.
 */
doca_error_t doca_flow_pipe_create(const struct doca_flow_pipe_cfg *cfg, const struct doca_flow_fwd *fwd,
				   const struct doca_flow_fwd *fwd_miss, struct doca_flow_pipe **pipe);
/**
 * @brief Destroys a pipe and its entries. A pipe that other pipes' entries or misses still
 *        forward to is not destroyed (an error line says so).
 */
void doca_flow_pipe_destroy(struct doca_flow_pipe *pipe);

/* ------------------------------------------------------------------------------------------ */
/* Entries                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Adds an entry to a BASIC pipe: the template's per-entry fields from @p match, the
 *        pipe's forward (or @p fwd when the pipe's is CHANGEABLE or NONE), a counter when the
 *        pipe's or @p monitor's counter_type is NON_SHARED. The entry is in the NIC when the call
 *        returns; its completion is delivered by doca_flow_entries_process().
 * @param pipe_queue Entry queue (below doca_flow_cfg_set_pipe_queues()).
 * @param pipe A BASIC pipe.
 * @param match Per-entry values (NULL when the template has none).
 * @param action_idx Only 0 (no actions).
 * @param actions NULL or all zero.
 * @param monitor NULL, or a non-shared counter.
 * @param fwd NULL, or the entry's forward when the pipe's is CHANGEABLE / NONE.
 * @param flags enum doca_flow_entry_flags.
 * @param usr_ctx Given back to the entry callback.
 * @param entry The entry.
 * @return DOCA_ERROR_INVALID_VALUE for NULL / wrong input; DOCA_ERROR_NOT_SUPPORTED for what is
 *         not offered; DOCA_ERROR_ALREADY_EXIST for an entry matching the same values;
 *         DOCA_ERROR_FULL when the pipe has nr_entries entries or the counters are used up;
 *         DOCA_ERROR_NOT_FOUND for an RSS queue id no started queue has; the device's error.
 */
doca_error_t doca_flow_pipe_basic_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					    const struct doca_flow_match *match, uint8_t action_idx,
					    const struct doca_flow_actions *actions, const struct doca_flow_monitor *monitor,
					    const struct doca_flow_fwd *fwd, uint32_t flags, void *usr_ctx,
					    struct doca_flow_pipe_entry **entry);

/**
 * @brief DOCA 3.0's name of doca_flow_pipe_basic_add_entry() (no action index).
 */
doca_error_t doca_flow_pipe_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
				      const struct doca_flow_match *match, const struct doca_flow_actions *actions,
				      const struct doca_flow_monitor *monitor, const struct doca_flow_fwd *fwd,
				      uint32_t flags, void *usr_ctx, struct doca_flow_pipe_entry **entry);

/**
 * @brief Adds an entry to a CONTROL pipe: its own @p match and @p match_mask (NULL: the non-zero
 *        fields of @p match, exactly), its forward (required) and an optional counter.
 *        Entries are tried by @p priority (lower first), then in the order they were added.
 * @param condition NULL (conditions are not offered).
 * @param actions NULL or all zero. @param actions_mask NULL or all zero.
 * @param action_descs NULL or none.
 * @return as doca_flow_pipe_basic_add_entry().
 */
doca_error_t doca_flow_pipe_control_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					      const struct doca_flow_match *match,
					      const struct doca_flow_match *match_mask,
					      const struct doca_flow_match_condition *condition,
					      const struct doca_flow_actions *actions,
					      const struct doca_flow_actions *actions_mask,
					      const struct doca_flow_action_descs *action_descs,
					      const struct doca_flow_monitor *monitor, uint32_t priority,
					      const struct doca_flow_fwd *fwd, void *usr_ctx,
					      struct doca_flow_pipe_entry **entry);

/**
 * @brief Removes an entry from the NIC; its completion (op DEL) comes from
 *        doca_flow_entries_process(), after which the handle is gone.
 * @return DOCA_ERROR_INVALID_VALUE for NULL, a bad queue or an entry already removed.
 */
doca_error_t doca_flow_pipe_remove_entry(uint16_t pipe_queue, uint32_t flags, struct doca_flow_pipe_entry *entry);

/**
 * @brief Delivers the completions of @p pipe_queue on @p port to the entry callback (up to
 *        @p max_processed_entries, 0: all). Operations are already in the NIC; @p timeout is not
 *        needed.
 * @return DOCA_ERROR_INVALID_VALUE for NULL or a bad queue.
 */
doca_error_t doca_flow_entries_process(struct doca_flow_port *port, uint16_t pipe_queue, uint64_t timeout,
				       uint32_t max_processed_entries);

/** @brief The entry's status (ERROR, logged, for NULL). */
enum doca_flow_entry_status doca_flow_pipe_entry_get_status(struct doca_flow_pipe_entry *entry);

/**
 * @brief Reads the counter of a monitored entry (QUERY_FLOW_COUNTER).
 * @return DOCA_ERROR_INVALID_VALUE for NULL or an entry without a counter; the device's error.
 */
doca_error_t doca_flow_resource_query_entry(struct doca_flow_pipe_entry *entry, struct doca_flow_resource_query *data);

/**
 * @brief The forward target of @p type: DOCA_FLOW_TARGET_KERNEL ("not delivered to a receive
 *        queue": the frame is left to the kernel).
 * @return DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NOT_SUPPORTED for another type.
 */
doca_error_t doca_flow_get_target(enum doca_flow_target_type type, struct doca_flow_target **target);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_FLOW_H_ */
