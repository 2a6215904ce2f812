/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GID commands: QUERY_ROCE_ADDRESS (one entry of the RoCE address table: GID, MAC, VLAN,
 * RoCE version) and QUERY_HCA_VPORT_GID (the GID table of an IB port; only the first
 * returned GID is modelled).
 */
#ifndef OGDA_PRM_GID_H_
#define OGDA_PRM_GID_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_GID_LEN 16u
#define PRM_MAC_LEN 6u
#define PRM_ROCE_ADDR_SIZE 0x20u
#define PRM_QUERY_ROCE_ADDRESS_IN_SIZE 0x10u
#define PRM_QUERY_ROCE_ADDRESS_OUT_SIZE 0x30u   /* roce_address at 0x10 */
#define PRM_QUERY_HCA_VPORT_GID_IN_SIZE 0x10u
#define PRM_QUERY_HCA_VPORT_GID_OUT_SIZE 0x20u  /* header + the first GID at 0x10 */

/* roce_addr_layout.roce_version */
enum prm_roce_addr_version {
	PRM_ROCE_ADDR_VERSION_1 = 0,
	PRM_ROCE_ADDR_VERSION_2 = 2,
};

/* roce_addr_layout.roce_l3_type */
enum prm_roce_l3_type {
	PRM_ROCE_L3_TYPE_IPV4 = 0,
	PRM_ROCE_L3_TYPE_IPV6 = 1,
};

extern const struct prm_layout prm_roce_addr_layout;
extern const struct prm_layout prm_query_roce_address_in_layout;
extern const struct prm_layout prm_query_roce_address_out_layout;
extern const struct prm_layout prm_query_hca_vport_gid_in_layout;
extern const struct prm_layout prm_query_hca_vport_gid_out_layout;

struct prm_query_roce_address_params {
	uint16_t uid;
	uint16_t roce_address_index;    /* GID index */
	uint8_t vhca_port_num;          /* 4 bits */
};

struct prm_roce_address_params {
	uint8_t source_l3_address[PRM_GID_LEN];   /* the GID, network order */
	uint8_t vlan_valid;
	uint16_t vlan_id;                         /* 12 bits */
	uint8_t source_mac[PRM_MAC_LEN];          /* network order */
	uint8_t roce_l3_type;                     /* enum prm_roce_l3_type */
	uint8_t roce_version;                     /* enum prm_roce_addr_version */
};

struct prm_query_hca_vport_gid_params {
	uint16_t uid;
	uint8_t other_vport;
	uint8_t port_num;               /* 4 bits */
	uint16_t vport_number;
	uint16_t gid_index;
};

struct prm_hca_vport_gid_params {
	uint16_t gids_num;
	uint8_t gid[PRM_GID_LEN];       /* the first returned GID, network order */
};

doca_error_t prm_query_roce_address_in_build(const struct prm_query_roce_address_params *p, void *in, size_t len);
doca_error_t prm_query_roce_address_in_parse(const void *in, size_t len, struct prm_query_roce_address_params *p);
doca_error_t prm_query_roce_address_out_build(const struct prm_roce_address_params *p, void *out, size_t len);
doca_error_t prm_query_roce_address_out_parse(const void *out, size_t len, struct prm_roce_address_params *p);

doca_error_t prm_query_hca_vport_gid_in_build(const struct prm_query_hca_vport_gid_params *p, void *in, size_t len);
doca_error_t prm_query_hca_vport_gid_in_parse(const void *in, size_t len, struct prm_query_hca_vport_gid_params *p);
doca_error_t prm_query_hca_vport_gid_out_build(const struct prm_hca_vport_gid_params *p, void *out, size_t len);
doca_error_t prm_query_hca_vport_gid_out_parse(const void *out, size_t len, struct prm_hca_vport_gid_params *p);

#endif /* OGDA_PRM_GID_H_ */
