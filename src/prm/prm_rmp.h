/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RMP commands: the shared receive queue as DevX users create it (an RMP whose work
 * queue lives in a umem). The RMP context (rmpc) embeds the generic work queue context
 * (wq) at byte 0x30.
 */
#ifndef OGDA_PRM_RMP_H_
#define OGDA_PRM_RMP_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_WQ_SIZE 0xc0u              /* without the trailing pas[] */
#define PRM_RMPC_WQ_OFFSET 0x30u
#define PRM_RMPC_SIZE 0xf0u
#define PRM_RMPC_OFFSET 0x20u          /* ctx inside create/query/modify_rmp */
#define PRM_RMP_CMD_SIZE 0x110u        /* create_rmp_in, query_rmp_out, modify_rmp_in */
#define PRM_RMP_SMALL_CMD_SIZE 0x10u

/* wq.wq_type */
enum prm_wq_type {
	PRM_WQ_TYPE_LINKED_LIST = 0x0,
	PRM_WQ_TYPE_CYCLIC = 0x1,
	PRM_WQ_TYPE_LINKED_LIST_STRIDING = 0x2,
	PRM_WQ_TYPE_CYCLIC_STRIDING = 0x3,
};

/* wq.end_padding_mode */
enum prm_wq_end_padding {
	PRM_WQ_END_PAD_NONE = 0x0,
	PRM_WQ_END_PAD_ALIGN = 0x1,
};

/* rmpc.state and modify_rmp_in.rmp_state */
enum prm_rmp_state {
	PRM_RMP_STATE_RST = 0x0,
	PRM_RMP_STATE_RDY = 0x1,
	PRM_RMP_STATE_ERR = 0x3,
};

/* modify_rmp_in.bitmask: which rmpc fields a MODIFY_RMP changes. */
enum prm_rmp_bitmask {
	PRM_RMP_BITMASK_LWM = 1u << 0,
};

/*
 * Every wq member, as X(member, path), for the parameter maps of the contexts that embed a wq
 * (rmpc, sqc); member and path are relative to the embedding struct / context.
 */
#define PRM_WQ_MEMBERS(X)                                                                          \
	X(wq.wq_type, "wq.wq_type")                                                                \
	X(wq.wq_signature, "wq.wq_signature")                                                      \
	X(wq.end_padding_mode, "wq.end_padding_mode")                                              \
	X(wq.cd_slave, "wq.cd_slave")                                                              \
	X(wq.page_offset, "wq.page_offset")                                                        \
	X(wq.lwm, "wq.lwm")                                                                        \
	X(wq.pd, "wq.pd")                                                                          \
	X(wq.uar_page, "wq.uar_page")                                                              \
	X(wq.dbr_addr, "wq.dbr_addr")                                                              \
	X(wq.hw_counter, "wq.hw_counter")                                                          \
	X(wq.sw_counter, "wq.sw_counter")                                                          \
	X(wq.log_wq_stride, "wq.log_wq_stride")                                                    \
	X(wq.log_wq_pg_sz, "wq.log_wq_pg_sz")                                                      \
	X(wq.log_wq_sz, "wq.log_wq_sz")                                                            \
	X(wq.dbr_umem_valid, "wq.dbr_umem_valid")                                                  \
	X(wq.wq_umem_valid, "wq.wq_umem_valid")                                                    \
	X(wq.log_wqe_num_of_strides, "wq.log_wqe_num_of_strides")                                  \
	X(wq.two_byte_shift_en, "wq.two_byte_shift_en")                                            \
	X(wq.log_wqe_stride_size, "wq.log_wqe_stride_size")                                        \
	X(wq.dbr_umem_id, "wq.dbr_umem_id")                                                        \
	X(wq.wq_umem_id, "wq.wq_umem_id")                                                          \
	X(wq.wq_umem_offset, "wq.wq_umem_offset")

/*
 * Striding RQ geometry in the wq context (Linux en/params.c, mlx5_ib's create_rq, DPDK's devx
 * RQ): log_wqe_num_of_strides holds log2(strides per WQE) - 9 as a 4-bit two's complement
 * number, so 0..7 are 512..64K strides and, on a NIC with ext_stride_num_range, 0xa..0xf are
 * 8..256; log_wqe_stride_size holds log2(stride bytes) - 6 (64 B .. 8 KiB).
 */
#define PRM_WQ_LOG_NUM_STRIDES_BASE 9u
#define PRM_WQ_LOG_NUM_STRIDES_MIN 3u     /* with ext_stride_num_range */
#define PRM_WQ_LOG_NUM_STRIDES_MAX 16u
#define PRM_WQ_LOG_STRIDE_SIZE_BASE 6u
#define PRM_WQ_LOG_STRIDE_SIZE_MAX 13u

/* The field value for 2^log_num strides per WQE (log_num in MIN..MAX). */
static inline uint8_t prm_wq_strides_encode(uint32_t log_num)
{
	return (uint8_t)((log_num - PRM_WQ_LOG_NUM_STRIDES_BASE) & 0xfu);
}

/* log2 strides per WQE of a field value (3..16). */
static inline uint32_t prm_wq_strides_decode(uint8_t field)
{
	int v = field & 0x8u ? (int)(field & 0xfu) - 16 : (int)(field & 0xfu);

	return (uint32_t)((int)PRM_WQ_LOG_NUM_STRIDES_BASE + v);
}

extern const struct prm_layout prm_wq_layout;
extern const struct prm_layout prm_rmpc_layout;
extern const struct prm_layout prm_create_rmp_in_layout;
extern const struct prm_layout prm_create_rmp_out_layout;
extern const struct prm_layout prm_destroy_rmp_in_layout;
extern const struct prm_layout prm_destroy_rmp_out_layout;
extern const struct prm_layout prm_query_rmp_in_layout;
extern const struct prm_layout prm_query_rmp_out_layout;
extern const struct prm_layout prm_modify_rmp_in_layout;
extern const struct prm_layout prm_modify_rmp_out_layout;

/* The work queue context (fields used for RQ/RMP/SQ alike). */
struct prm_wq_params {
	uint8_t wq_type;                /* enum prm_wq_type */
	uint8_t wq_signature;
	uint8_t end_padding_mode;       /* enum prm_wq_end_padding */
	uint8_t cd_slave;
	uint8_t page_offset;
	uint16_t lwm;                   /* limit watermark */
	uint32_t pd;
	uint32_t uar_page;
	uint64_t dbr_addr;              /* offset in the DBR umem when dbr_umem_valid */
	uint32_t hw_counter;
	uint32_t sw_counter;
	uint8_t log_wq_stride;          /* WQE stride = 1 << log_wq_stride bytes */
	uint8_t log_wq_pg_sz;
	uint8_t log_wq_sz;
	uint8_t dbr_umem_valid;
	uint8_t wq_umem_valid;
	/* Striding RQs (wq_type *_STRIDING) only; the encodings are prm_wq_*_strides* below. */
	uint8_t log_wqe_num_of_strides; /* (log2 strides per WQE - 9) as a 4-bit two's complement */
	uint8_t two_byte_shift_en;      /* the NIC writes each packet 2 bytes into its stride */
	uint8_t log_wqe_stride_size;    /* log2 stride bytes - 6 */
	uint32_t dbr_umem_id;
	uint32_t wq_umem_id;
	uint64_t wq_umem_offset;
};

struct prm_rmpc_params {
	uint8_t state;                  /* enum prm_rmp_state */
	uint8_t basic_cyclic_rcv_wqe;
	struct prm_wq_params wq;
};

struct prm_create_rmp_params {
	uint16_t uid;
	struct prm_rmpc_params rmpc;
};

struct prm_modify_rmp_params {
	uint16_t uid;
	uint8_t rmp_state;              /* current state (enum prm_rmp_state) */
	uint32_t rmpn;
	uint64_t bitmask;               /* enum prm_rmp_bitmask bits */
	struct prm_rmpc_params rmpc;
};

/* Ins: builders write the opcode; parsers check it. */
doca_error_t prm_create_rmp_in_build(const struct prm_create_rmp_params *p, void *in, size_t len);
doca_error_t prm_create_rmp_in_parse(const void *in, size_t len, struct prm_create_rmp_params *p);
doca_error_t prm_destroy_rmp_in_build(uint16_t uid, uint32_t rmpn, void *in, size_t len);
doca_error_t prm_destroy_rmp_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rmpn);
doca_error_t prm_query_rmp_in_build(uint16_t uid, uint32_t rmpn, void *in, size_t len);
doca_error_t prm_query_rmp_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *rmpn);
doca_error_t prm_modify_rmp_in_build(const struct prm_modify_rmp_params *p, void *in, size_t len);
doca_error_t prm_modify_rmp_in_parse(const void *in, size_t len, struct prm_modify_rmp_params *p);

/* Outs: builders write status OK; parsers check the status first (prm_cmd_out_check). */
doca_error_t prm_create_rmp_out_build(uint32_t rmpn, void *out, size_t len);
doca_error_t prm_create_rmp_out_parse(const void *out, size_t len, uint32_t *rmpn);
doca_error_t prm_destroy_rmp_out_build(void *out, size_t len);
doca_error_t prm_destroy_rmp_out_parse(const void *out, size_t len);
doca_error_t prm_query_rmp_out_build(const struct prm_rmpc_params *rmpc, void *out, size_t len);
doca_error_t prm_query_rmp_out_parse(const void *out, size_t len, struct prm_rmpc_params *rmpc);
doca_error_t prm_modify_rmp_out_build(void *out, size_t len);
doca_error_t prm_modify_rmp_out_parse(const void *out, size_t len);

#endif /* OGDA_PRM_RMP_H_ */
