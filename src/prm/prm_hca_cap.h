/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QUERY_HCA_CAP: the input mailbox and the capability pages the library reads (general,
 * RoCE, atomic, general 2). Each page is a subset of the PRM's: the fields this project
 * uses, at their PRM positions. The software NIC builds the output mailbox from its
 * model; the library parses it.
 */
#ifndef OGDA_PRM_HCA_CAP_H_
#define OGDA_PRM_HCA_CAP_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Capability types: query_hca_cap_in.op_mod = (type << 1) | current. */
enum prm_hca_cap_type {
	PRM_HCA_CAP_GENERAL = 0x0,
	PRM_HCA_CAP_ETH_OFFLOADS = 0x1,
	PRM_HCA_CAP_ODP = 0x2,
	PRM_HCA_CAP_ATOMIC = 0x3,
	PRM_HCA_CAP_ROCE = 0x4,
	PRM_HCA_CAP_GENERAL_2 = 0x20,
};

/* op_mod bit 0: 0 = maximum the device supports, 1 = currently enabled. */
enum prm_hca_cap_mode {
	PRM_HCA_CAP_MAX = 0,
	PRM_HCA_CAP_CURRENT = 1,
};

/* cmd_hca_cap.port_type */
enum prm_hca_port_type {
	PRM_HCA_PORT_TYPE_IB = 0x0,
	PRM_HCA_PORT_TYPE_ETH = 0x1,
};

/* roce_cap.roce_version is a bit mask of these (1 << version). */
enum prm_roce_version {
	PRM_ROCE_VERSION_1 = 0,
	PRM_ROCE_VERSION_2 = 2,
};

#define PRM_QUERY_HCA_CAP_IN_SIZE 0x10u
#define PRM_HCA_CAP_OFFSET 0x10u     /* capability page inside query_hca_cap_out */
#define PRM_HCA_CAP_PAGE_SIZE 0x1000u
#define PRM_QUERY_HCA_CAP_OUT_SIZE (PRM_HCA_CAP_OFFSET + PRM_HCA_CAP_PAGE_SIZE)

extern const struct prm_layout prm_query_hca_cap_in_layout;
/* Capability pages (PRM_HCA_CAP_PAGE_SIZE bytes each, positions relative to the page). */
extern const struct prm_layout prm_hca_cap_general_layout;
extern const struct prm_layout prm_hca_cap_roce_layout;
extern const struct prm_layout prm_hca_cap_atomic_layout;
extern const struct prm_layout prm_hca_cap_general_2_layout;
/* query_hca_cap_out with the page of each type at "capability". */
extern const struct prm_layout prm_query_hca_cap_out_general_layout;
extern const struct prm_layout prm_query_hca_cap_out_roce_layout;
extern const struct prm_layout prm_query_hca_cap_out_atomic_layout;
extern const struct prm_layout prm_query_hca_cap_out_general_2_layout;

struct prm_query_hca_cap_params {
	uint16_t uid;
	uint16_t cap_type;          /* enum prm_hca_cap_type; 15 bits */
	uint8_t current;            /* enum prm_hca_cap_mode */
	uint8_t other_function;
	uint16_t function_id;
};

/* General device capabilities (cap type 0). */
struct prm_hca_cap_general {
	uint8_t hca_cap_2;          /* GENERAL_2 page can be queried */
	uint16_t vhca_id;
	uint8_t log_max_srq_sz;
	uint8_t log_max_qp_sz;
	uint8_t log_max_qp;
	uint8_t log_max_srq;
	uint8_t max_sgl_for_optimized_performance;
	uint8_t log_max_cq_sz;
	uint8_t log_max_cq;
	uint8_t log_max_mkey;
	uint8_t log_max_mrw_sz;
	uint8_t log_max_ra_req_qp;
	uint8_t log_max_ra_res_qp;
	uint16_t gid_table_size;
	uint16_t pkey_table_size;
	uint8_t local_ca_ack_delay;
	uint8_t port_type;          /* enum prm_hca_port_type */
	uint8_t num_ports;
	uint8_t log_max_msg;
	uint8_t cqe_version;
	uint8_t roce;
	uint8_t atomic;
	uint8_t cq_oi;
	uint8_t cq_resize;
	uint8_t cq_moderation;
	uint8_t cd;                 /* cross-channel (core direct): WAIT / SEND_EN */
	uint8_t xrc;
	uint8_t ud;
	uint8_t uc;
	uint8_t rc;
	uint8_t uar_4k;
	uint8_t uar_sz;
	uint8_t log_pg_sz;
	uint8_t bf;
	uint8_t log_bf_reg_size;
	uint16_t max_wqe_sz_sq;
	uint16_t max_wqe_sz_rq;
	uint8_t log_max_transport_domain;
	uint8_t log_max_pd;
	uint8_t basic_cyclic_rcv_wqe;
	uint8_t log_max_rmp;
	uint8_t log_max_wq_sz;
	uint8_t log_max_uctx;
	uint8_t log_max_umem;
	uint16_t log_uar_page_sz;
	uint32_t num_of_uars_per_page;
};

/* RoCE capabilities (cap type 4). */
struct prm_hca_cap_roce {
	uint8_t roce_apm;
	uint8_t sw_r_roce_src_udp_port;
	uint8_t qp_ts_format;
	uint8_t l3_type;            /* bit mask: 1 << 1 IPv4, 1 << 2 IPv6 */
	uint8_t roce_version;       /* bit mask of 1 << enum prm_roce_version */
	uint16_t r_roce_dest_udp_port;
	uint16_t r_roce_max_src_udp_port;
	uint16_t r_roce_min_src_udp_port;
	uint16_t roce_address_table_size;
};

/* Atomic capabilities (cap type 3). */
struct prm_hca_cap_atomic {
	uint8_t atomic_req_8B_endianness_mode;
	uint8_t supported_atomic_req_8B_endianness_mode_1;
	uint16_t atomic_operations; /* bit mask of supported atomic operations */
	uint16_t atomic_size_qp;    /* bit mask of supported sizes (bit n = 2^n bytes) */
	uint16_t atomic_size_dc;
};

/* General capabilities 2 (cap type 0x20). */
struct prm_hca_cap_general_2 {
	uint8_t send_dbr_mode_no_dbr_int;
	uint8_t send_dbr_mode_no_dbr_ext;
	uint8_t log_max_send_dbr_less_qp_sq;
};

doca_error_t prm_query_hca_cap_in_build(const struct prm_query_hca_cap_params *p, void *in, size_t len);
doca_error_t prm_query_hca_cap_in_parse(const void *in, size_t len, struct prm_query_hca_cap_params *p);

/*
 * Output builders write a whole query_hca_cap_out (status OK, every byte not named by a
 * field zero); parsers first check the status (see prm_cmd_out_check).
 */
doca_error_t prm_hca_cap_general_build(const struct prm_hca_cap_general *caps, void *out, size_t len);
doca_error_t prm_hca_cap_general_parse(const void *out, size_t len, struct prm_hca_cap_general *caps);
doca_error_t prm_hca_cap_roce_build(const struct prm_hca_cap_roce *caps, void *out, size_t len);
doca_error_t prm_hca_cap_roce_parse(const void *out, size_t len, struct prm_hca_cap_roce *caps);
doca_error_t prm_hca_cap_atomic_build(const struct prm_hca_cap_atomic *caps, void *out, size_t len);
doca_error_t prm_hca_cap_atomic_parse(const void *out, size_t len, struct prm_hca_cap_atomic *caps);
doca_error_t prm_hca_cap_general_2_build(const struct prm_hca_cap_general_2 *caps, void *out, size_t len);
doca_error_t prm_hca_cap_general_2_parse(const void *out, size_t len, struct prm_hca_cap_general_2 *caps);

#endif /* OGDA_PRM_HCA_CAP_H_ */
