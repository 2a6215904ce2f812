/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QP command family: CREATE_QP, DESTROY_QP, QUERY_QP and the state transitions
 * (RST2INIT, INIT2INIT, INIT2RTR, RTR2RTS, RTS2RTS, SQERR2RTS, 2ERR, 2RST).
 *
 * Layouts are field tables (prm_layout.h) named after mlx5_ifc, so the software NIC and the
 * tests can address any field by path ("qpc.primary_address_path.rlid"). The builders turn
 * parameter structs into command bytes and the parsers turn bytes back into the same
 * structs, so the ConnectX path and the software NIC share one definition of every command.
 *
 * Command images (reference/mlx5.md B.9):
 *   every *_in:  opcode dw0 [31:16], uid dw0 [15:0], op_mod dw1 [15:0]; qpn dw2 [23:0]
 *   every *_out: status dw0 [31:24], syndrome dw1
 *   create_qp_in (0x110 B): opt_param_mask dw4, qpc at 0x18, wq_umem_offset 0x100 (64 bit),
 *                           wq_umem_id dw66, wq_umem_valid dw67 [31]
 *   create_qp_out (0x10 B): qpn dw2 [23:0]
 *   query_qp_out (0x110 B, the trailing pas list is not modelled): opt_param_mask dw4, qpc at 0x18
 *   rst2init/init2init/init2rtr/rtr2rts/rts2rts/sqerr2rts_qp_in (0x110 B): qpn, opt_param_mask dw4,
 *                           qpc at 0x18
 *   destroy/query/2err/2rst_qp_in and all other outs: 0x10 B
 *
 * Which qpc fields each command carries. A builder writes exactly these fields (everything
 * else in the image is zero, so equal parameters give byte-identical commands) and the
 * matching parser reads exactly these fields (everything else in the result is zero):
 *   CREATE_QP: st, pm_state, wq_signature, pd, log_rq_size, log_rq_stride, no_sq, log_sq_size,
 *              ts_format, counter_set_id, uar_page, send_dbr_mode, user_index, log_page_size,
 *              cd_slave_receive, cd_slave_send, cd_master, cqn_snd, cqn_rcv, dbr_addr, rq_type,
 *              srqn_rmpn_xrqn, cs_req, cs_res, dbr_umem_valid, dbr_umem_id
 *   RST2INIT:  pm_state, counter_set_id, primary_address_path.{pkey_index, vhca_port_num},
 *              atomic_mode, rre, rwe, rae, q_key
 *   INIT2INIT: counter_set_id, primary_address_path.{pkey_index, vhca_port_num}, rre, rwe, rae,
 *              q_key
 *   INIT2RTR:  mtu, log_msg_max, remote_qpn, every primary_address_path field except
 *              ack_timeout (IB: rlid, mlid, grh, sl; RoCE: rgid_rip, rmac, src_addr_index,
 *              hop_limit, tclass, flow_label, udp_sport, dscp, ecn, eth_prio, ...), log_rra_max,
 *              min_rnr_nak, next_rcv_psn
 *   RTR2RTS:   log_ack_req_freq, log_sra_max, retry_count, rnr_retry, next_send_psn,
 *              primary_address_path.ack_timeout
 *   RTS2RTS:   pm_state, rre, rwe, rae, min_rnr_nak, primary_address_path.ack_timeout
 *   SQERR2RTS: rre, rwe, rae, min_rnr_nak
 *   2ERR, 2RST: no qpc (only uid and qpn); opt_param_mask must be 0
 *   QUERY_QP (out): every field of struct prm_qpc_params (prm_qpc_fields_all)
 * Which optional fields the device applies is chosen by opt_param_mask, as on hardware.
 *
 * Every function checks its input: NULL pointers, a buffer shorter than the layout, a value
 * wider than its field and, for parsers, an opcode that is not the expected command give
 * DOCA_ERROR_INVALID_VALUE and one log line. On a failed build the image is zeroed.
 */
#ifndef OGDA_PRM_QP_H_
#define OGDA_PRM_QP_H_

#include "doca_error.h"
#include "prm/prm_cmd.h"
#include "prm/prm_layout.h"
#include "prm/prm_qpc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRM_QP_CMD_WITH_QPC_SIZE 0x110u /* create/query out/modify ins */
#define PRM_QP_CMD_SHORT_SIZE 0x10u      /* destroy/query in, 2err/2rst in, other outs */

/* opt_param_mask bits (kernel qp.h enum mlx5_qp_optpar). */
enum prm_qp_optpar {
	PRM_QP_OPTPAR_ALT_ADDR_PATH = 1u << 0,
	PRM_QP_OPTPAR_RRE = 1u << 1,
	PRM_QP_OPTPAR_RAE = 1u << 2,
	PRM_QP_OPTPAR_RWE = 1u << 3,
	PRM_QP_OPTPAR_PKEY_INDEX = 1u << 4,
	PRM_QP_OPTPAR_Q_KEY = 1u << 5,
	PRM_QP_OPTPAR_RNR_TIMEOUT = 1u << 6,
	PRM_QP_OPTPAR_PRIMARY_ADDR_PATH = 1u << 7,
	PRM_QP_OPTPAR_SRA_MAX = 1u << 8,
	PRM_QP_OPTPAR_RRA_MAX = 1u << 9,
	PRM_QP_OPTPAR_PM_STATE = 1u << 10,
	PRM_QP_OPTPAR_RETRY_COUNT = 1u << 12,
	PRM_QP_OPTPAR_RNR_RETRY = 1u << 13,
	PRM_QP_OPTPAR_ACK_TIMEOUT = 1u << 14,
	PRM_QP_OPTPAR_LAG_TX_AFF = 1u << 15,
	PRM_QP_OPTPAR_PRI_PORT = 1u << 16,
	PRM_QP_OPTPAR_SRQN = 1u << 18,
	PRM_QP_OPTPAR_CQN_RCV = 1u << 19,
	PRM_QP_OPTPAR_DC_HS = 1u << 20,
	PRM_QP_OPTPAR_DC_KEY = 1u << 21,
	PRM_QP_OPTPAR_COUNTER_SET_ID = 1u << 25,
};

extern const struct prm_layout prm_create_qp_in_layout;
extern const struct prm_layout prm_create_qp_out_layout;
extern const struct prm_layout prm_destroy_qp_in_layout;
extern const struct prm_layout prm_destroy_qp_out_layout;
extern const struct prm_layout prm_query_qp_in_layout;
extern const struct prm_layout prm_query_qp_out_layout;
extern const struct prm_layout prm_rst2init_qp_in_layout;
extern const struct prm_layout prm_rst2init_qp_out_layout;
extern const struct prm_layout prm_init2init_qp_in_layout;
extern const struct prm_layout prm_init2init_qp_out_layout;
extern const struct prm_layout prm_init2rtr_qp_in_layout;
extern const struct prm_layout prm_init2rtr_qp_out_layout;
extern const struct prm_layout prm_rtr2rts_qp_in_layout;
extern const struct prm_layout prm_rtr2rts_qp_out_layout;
extern const struct prm_layout prm_rts2rts_qp_in_layout;
extern const struct prm_layout prm_rts2rts_qp_out_layout;
extern const struct prm_layout prm_sqerr2rts_qp_in_layout;
extern const struct prm_layout prm_sqerr2rts_qp_out_layout;
extern const struct prm_layout prm_qp_2err_in_layout;
extern const struct prm_layout prm_qp_2err_out_layout;
extern const struct prm_layout prm_qp_2rst_in_layout;
extern const struct prm_layout prm_qp_2rst_out_layout;

struct prm_create_qp_params {
	uint16_t uid;
	uint32_t opt_param_mask;
	struct prm_qpc_params qpc;     /* only the CREATE_QP fields are carried (see above) */
	uint64_t wq_umem_offset;       /* offset of the RQ+SQ buffer in its umem */
	uint32_t wq_umem_id;
	uint8_t wq_umem_valid;
};

struct prm_modify_qp_params {
	uint16_t opcode;               /* PRM_CMD_RST2INIT_QP ... PRM_CMD_2RST_QP: the transition */
	uint16_t uid;
	uint32_t qpn;
	uint32_t opt_param_mask;       /* enum prm_qp_optpar bits */
	struct prm_qpc_params qpc;     /* only the transition's fields are carried (see above) */
};

/* True for the transition commands prm_modify_qp_in_build() accepts. */
bool prm_qp_is_modify_opcode(uint16_t opcode);

/* The in (out == false) or out layout of a QP command; NULL for any other opcode. */
const struct prm_layout *prm_qp_layout_for_opcode(uint16_t opcode, bool out);

/*
 * The qpc fields a command carries: CREATE_QP, QUERY_QP (its out) or a transition (an empty
 * set for 2ERR/2RST). DOCA_ERROR_NOT_FOUND for any other opcode.
 */
doca_error_t prm_qp_cmd_qpc_fields(uint16_t opcode, const struct prm_qpc_field_set **set);

/* CREATE_QP */
doca_error_t prm_create_qp_in_build(const struct prm_create_qp_params *p, void *buf, size_t len);
doca_error_t prm_create_qp_in_parse(const void *buf, size_t len, struct prm_create_qp_params *p);
doca_error_t prm_create_qp_out_build(uint8_t status, uint32_t syndrome, uint32_t qpn, void *buf, size_t len);
/*
 * Out parsers check the status first, as every *_out parser does (prm_cmd_out_check): a
 * failed command is logged and returned as its mapped doca_error_t, outputs untouched.
 */
doca_error_t prm_create_qp_out_parse(const void *buf, size_t len, uint32_t *qpn);

/* DESTROY_QP */
doca_error_t prm_destroy_qp_in_build(uint16_t uid, uint32_t qpn, void *buf, size_t len);
doca_error_t prm_destroy_qp_in_parse(const void *buf, size_t len, uint16_t *uid, uint32_t *qpn);

/* QUERY_QP */
doca_error_t prm_query_qp_in_build(uint16_t uid, uint32_t qpn, void *buf, size_t len);
doca_error_t prm_query_qp_in_parse(const void *buf, size_t len, uint16_t *uid, uint32_t *qpn);
doca_error_t prm_query_qp_out_build(uint8_t status, uint32_t syndrome, const struct prm_qpc_params *qpc, void *buf,
				    size_t len);
/* Status checked as for CREATE_QP; then every field of prm_qpc_fields_all. */
doca_error_t prm_query_qp_out_parse(const void *buf, size_t len, struct prm_qpc_params *qpc);

/* Transitions: one builder and one parser for all, the layout chosen by p->opcode / the image. */
doca_error_t prm_modify_qp_in_build(const struct prm_modify_qp_params *p, void *buf, size_t len);
doca_error_t prm_modify_qp_in_parse(const void *buf, size_t len, struct prm_modify_qp_params *p);

/*
 * The out of any QP command carrying only status and syndrome (the whole reply of DESTROY_QP
 * and the transitions; an error reply of CREATE_QP or QUERY_QP). The layout, and so the
 * length checked, is the out of `opcode`. The parser reports status and syndrome as data
 * (DOCA_SUCCESS whenever the image is readable); prm_cmd_out_check() judges them.
 */
doca_error_t prm_qp_status_out_build(uint16_t opcode, uint8_t status, uint32_t syndrome, void *buf, size_t len);
doca_error_t prm_qp_status_out_parse(uint16_t opcode, const void *buf, size_t len, uint8_t *status,
				     uint32_t *syndrome);

#endif /* OGDA_PRM_QP_H_ */
