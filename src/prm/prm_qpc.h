/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QP context (qpc, 0xe8 bytes) and the address path it embeds twice (ads, 0x2c bytes),
 * as PRM field tables, plus the plain-C parameter structs that mirror them.
 *
 * Positions follow mlx5_ifc `qpc_bits` / `ads_bits` (Linux, DPDK). The DevX additions that
 * older kernel copies lack (send_dbr_mode, dbr_umem_id) are taken from reference/mlx5.md B.9.
 * Field names in the tables are the mlx5_ifc names, so a path such as
 * "qpc.primary_address_path.udp_sport" reads like the PRM.
 *
 * The parameter structs hold every field the library and the software NIC use; values are
 * stored unshifted and a value too wide for its PRM field is rejected when it is written.
 * The command builders decide which of these fields a command carries (prm_qp.h).
 */
#ifndef OGDA_PRM_QPC_H_
#define OGDA_PRM_QPC_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_ADS_SIZE 0x2cu
#define PRM_QPC_SIZE 0xe8u

extern const struct prm_layout prm_ads_layout;
extern const struct prm_layout prm_qpc_layout;

/* qpc.st: transport service type. */
enum prm_qp_st {
	PRM_QP_ST_RC = 0x0,
	PRM_QP_ST_UC = 0x1,
	PRM_QP_ST_UD = 0x2,
	PRM_QP_ST_XRC = 0x3,
	PRM_QP_ST_DCI = 0x5,
	PRM_QP_ST_QP0 = 0x7,
	PRM_QP_ST_QP1 = 0x8,
};

/*
 * qpc.state as QUERY_QP reports it (mlx5_ifc MLX5_QPC_STATE_*). The PRM encodes SQD
 * (send queue drained/draining) as 7; 5 is not used here, unlike the kernel's own
 * software enum mlx5_qp_state, which numbers SQD 5 and SQ_DRAINING 7.
 */
enum prm_qp_state {
	PRM_QP_STATE_RST = 0x0,
	PRM_QP_STATE_INIT = 0x1,
	PRM_QP_STATE_RTR = 0x2,
	PRM_QP_STATE_RTS = 0x3,
	PRM_QP_STATE_SQER = 0x4,
	PRM_QP_STATE_ERR = 0x6,
	PRM_QP_STATE_SQD = 0x7,
	PRM_QP_STATE_SUSPENDED = 0x9,
};

/* qpc.pm_state: path migration state. */
enum prm_qp_pm_state {
	PRM_QP_PM_ARMED = 0x0,
	PRM_QP_PM_REARM = 0x1,
	PRM_QP_PM_MIGRATED = 0x3,
};

/* qpc.mtu: the same numbering as ibv_mtu. */
enum prm_qp_mtu {
	PRM_QP_MTU_256 = 0x1,
	PRM_QP_MTU_512 = 0x2,
	PRM_QP_MTU_1024 = 0x3,
	PRM_QP_MTU_2048 = 0x4,
	PRM_QP_MTU_4096 = 0x5,
	PRM_QP_MTU_RAW_ETHERNET = 0x7,
};

/* qpc.atomic_mode: largest responder atomic operand the QP accepts. */
enum prm_qp_atomic_mode {
	PRM_QP_ATOMIC_MODE_IB_SPEC = 0x1,
	PRM_QP_ATOMIC_MODE_ONLY_8B = 0x2,
	PRM_QP_ATOMIC_MODE_UP_TO_8B = 0x3,
	PRM_QP_ATOMIC_MODE_UP_TO_16B = 0x4,
	PRM_QP_ATOMIC_MODE_UP_TO_32B = 0x5,
	PRM_QP_ATOMIC_MODE_UP_TO_64B = 0x6,
	PRM_QP_ATOMIC_MODE_UP_TO_128B = 0x7,
	PRM_QP_ATOMIC_MODE_UP_TO_256B = 0x8,
};

/* qpc.rq_type. */
enum prm_qp_rq_type {
	PRM_QP_RQ_REGULAR = 0x0,
	PRM_QP_RQ_SRQ = 0x1,
	PRM_QP_RQ_CYCLIC = 0x2,
	PRM_QP_RQ_ZERO_LEN = 0x3,
};

/* qpc.cs_res: responder scatter-to-CQE. */
enum prm_qp_cs_res {
	PRM_QP_CS_RES_DISABLE = 0x0,
	PRM_QP_CS_RES_DATA32_CQE = 0x1, /* messages up to 32 bytes in the CQE (64-byte CQEs) */
	PRM_QP_CS_RES_DATA64_CQE = 0x2, /* up to 64 bytes (128-byte CQEs) */
};

/* qpc.ts_format: CQE timestamp format. */
enum prm_qp_ts_format {
	PRM_QP_TS_FREE_RUNNING = 0x0,
	PRM_QP_TS_DEFAULT = 0x1,
	PRM_QP_TS_REAL_TIME = 0x2,
};

/* qpc.send_dbr_mode: how the SQ learns of new WQEs (reference/mlx5.md B.8). */
enum prm_qp_send_dbr_mode {
	PRM_QP_SEND_DBR_VALID = 0x0,
	PRM_QP_SEND_DBR_NO_DBR_EXT = 0x1,
	PRM_QP_SEND_DBR_NO_DBR_INT = 0x2,
};

/* Address path (ads). One-bit flags are uint8_t so that a stray 2 is rejected, not folded. */
struct prm_ads_params {
	uint8_t fl;              /* force loopback */
	uint8_t free_ar;
	uint16_t pkey_index;
	uint8_t grh;             /* IB: a GRH is present */
	uint8_t mlid;            /* 7 bits */
	uint16_t rlid;
	uint8_t ack_timeout;     /* 5 bits: 4.096 us * 2^n */
	uint8_t src_addr_index;  /* local GID index */
	uint8_t stat_rate;       /* 4 bits */
	uint8_t hop_limit;
	uint8_t tclass;
	uint32_t flow_label;     /* 20 bits */
	uint8_t rgid_rip[16];    /* remote GID / IP, network order */
	uint8_t f_dscp;
	uint8_t f_ecn;
	uint8_t f_eth_prio;
	uint8_t ecn;             /* 2 bits */
	uint8_t dscp;            /* 6 bits */
	uint16_t udp_sport;      /* RoCE v2 UDP source port */
	uint8_t dei_cfi;
	uint8_t eth_prio;        /* 3 bits */
	uint8_t sl;              /* 4 bits */
	uint8_t vhca_port_num;
	uint8_t rmac[6];         /* remote MAC, network order: rmac_47_32 then rmac_31_0 */
};

/* QP context. */
struct prm_qpc_params {
	uint8_t state;            /* enum prm_qp_state; reported by QUERY_QP */
	uint8_t st;               /* enum prm_qp_st */
	uint8_t pm_state;         /* enum prm_qp_pm_state */
	uint8_t wq_signature;
	uint32_t pd;
	uint8_t mtu;              /* enum prm_qp_mtu */
	uint8_t log_msg_max;
	uint8_t log_rq_size;
	uint8_t log_rq_stride;    /* RQ WQE size = 16 << log_rq_stride */
	uint8_t no_sq;
	uint8_t log_sq_size;      /* log2 of the SQ size in WQEBBs */
	uint8_t ts_format;        /* enum prm_qp_ts_format */
	uint8_t counter_set_id;
	uint32_t uar_page;
	uint8_t send_dbr_mode;    /* enum prm_qp_send_dbr_mode */
	uint32_t user_index;
	uint8_t log_page_size;
	uint32_t remote_qpn;
	struct prm_ads_params primary_address_path;
	struct prm_ads_params secondary_address_path;
	uint8_t log_ack_req_freq;
	uint8_t log_sra_max;
	uint8_t retry_count;
	uint8_t rnr_retry;
	uint8_t cur_rnr_retry;
	uint8_t cur_retry_count;
	uint32_t next_send_psn;
	uint32_t cqn_snd;
	uint32_t last_acked_psn;
	uint8_t log_rra_max;
	uint8_t atomic_mode;      /* enum prm_qp_atomic_mode */
	uint8_t rre;
	uint8_t rwe;
	uint8_t rae;
	uint8_t page_offset;
	uint8_t cd_slave_receive; /* core-direct: RQ is enabled by RECV_EN from a master */
	uint8_t cd_slave_send;    /* core-direct: SQ is enabled by SEND_EN from a master */
	uint8_t cd_master;        /* core-direct: may post WAIT / SEND_EN / RECV_EN */
	uint8_t min_rnr_nak;
	uint32_t next_rcv_psn;
	uint32_t cqn_rcv;
	uint64_t dbr_addr;        /* with dbr_umem_valid: offset inside the DBR umem */
	uint32_t q_key;
	uint8_t rq_type;          /* enum prm_qp_rq_type */
	uint32_t srqn_rmpn_xrqn;
	uint16_t hw_sq_wqebb_counter;
	uint16_t sw_sq_wqebb_counter;
	uint32_t hw_rq_counter;
	uint32_t sw_rq_counter;
	uint8_t cs_req;
	uint8_t cs_res;
	uint8_t dbr_umem_valid;
	uint32_t dbr_umem_id;
};

/* A list of qpc field paths, relative to the qpc (e.g. "primary_address_path.rlid"). */
struct prm_qpc_field_set {
	const char *name;         /* for log lines, e.g. "init2rtr" */
	const char *const *paths;
	size_t npaths;
};

/* Every field of struct prm_qpc_params, both address paths included (QUERY_QP). */
extern const struct prm_qpc_field_set prm_qpc_fields_all;

/*
 * Writes the fields of `set` from `qpc` into the qpc embedded at `qpc_path` of the writer's
 * layout ("qpc" in every QP command). A value too wide for its field, or a path that is not
 * a modelled field, records DOCA_ERROR_INVALID_VALUE / DOCA_ERROR_NOT_FOUND in w->err.
 */
void prm_qpc_write(struct prm_writer *w, const char *qpc_path, const struct prm_qpc_params *qpc,
		   const struct prm_qpc_field_set *set);

/* Reads the fields of `set` into `qpc`; fields outside the set are left as they are. */
void prm_qpc_read(struct prm_reader *r, const char *qpc_path, struct prm_qpc_params *qpc,
		  const struct prm_qpc_field_set *set);

#endif /* OGDA_PRM_QPC_H_ */
