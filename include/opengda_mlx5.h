/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file opengda_mlx5.h
 * @brief mlx5 queue formats: WQE segments, CQEs, doorbell records, UAR doorbells.
 *
 * One header for the host (C11) and for CUDA device code (nvcc, sm_80 and later). Every
 * function is `OPENGDA_MLX5_FN`: `static __host__ __device__ __forceinline__` under nvcc,
 * `static inline` otherwise. Nothing here calls the C library.
 *
 * **Byte order.** Every field of every mlx5 queue structure is big-endian. The structure
 * members below hold the big-endian image (a `uint32_t` member holds the four bytes as
 * they lie in memory). Encoders take values in host order and store big-endian;
 * accessors load big-endian and return host order.
 *
 * **Memory ordering.** Encoders and accessors are plain loads and stores. The only
 * exceptions are opengda_mlx5_cqe_write(), which stores `op_own` last behind a release
 * barrier (the DMA ordering a NIC gives), and opengda_mlx5_cqe_is_sw_owned(), which reads
 * `op_own` through a volatile access so that a polling loop re-reads it. Doorbell
 * functions only compute values: the caller stores them with the barriers its platform
 * needs (reference: WQE stores, barrier, DBR, barrier, UAR store).
 *
 * **Errors.** Functions that can receive an invalid argument return `int`: 0 (or a
 * non-negative count) on success and OPENGDA_MLX5_EINVAL when an argument is out of
 * range; they write nothing in that case.
 *
 * device-code: yes (CI compiles this header with nvcc for every supported architecture)
 */
#ifndef OPENGDA_MLX5_H_
#define OPENGDA_MLX5_H_

#include <stddef.h>
#include <stdint.h>

/** @brief Function qualifiers: host and device inline under nvcc, static inline in C. */
#if defined(__CUDACC__)
#define OPENGDA_MLX5_FN static __host__ __device__ __forceinline__
#else
#define OPENGDA_MLX5_FN static inline
#endif

/** @brief Compile-time layout check usable from C11 and C++. */
#if defined(__cplusplus)
#define OPENGDA_MLX5_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define OPENGDA_MLX5_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/** @brief Return value of a function that rejected its input (same value as -EINVAL on Linux). */
#define OPENGDA_MLX5_EINVAL (-22)

/* ------------------------------------------------------------------------------------ */
/** @name Queue geometry (reference/mlx5.md B.1) */
/** @{ */
#define OPENGDA_MLX5_SEND_WQE_BB 64u          /**< Bytes per WQE building block (WQEBB). */
#define OPENGDA_MLX5_SEND_WQE_SHIFT 6u        /**< log2 of OPENGDA_MLX5_SEND_WQE_BB. */
#define OPENGDA_MLX5_SEND_WQE_DS 16u          /**< Bytes per DS unit (octoword). */
#define OPENGDA_MLX5_SEND_WQEBB_NUM_DS 4u     /**< DS units per WQEBB. */
#define OPENGDA_MLX5_SEND_WQE_MAX_WQEBBS 16u  /**< Largest WQE in WQEBBs. */
#define OPENGDA_MLX5_SEND_WQE_MAX_SIZE 1024u  /**< Largest WQE in bytes. */
#define OPENGDA_MLX5_WQE_CTRL_DS_MASK 0x3fu   /**< Meaningful bits of the ctrl DS field. */
#define OPENGDA_MLX5_WQE_MAX_DS 63u           /**< Largest DS the 6-bit field can express. */
#define OPENGDA_MLX5_QPN_MASK 0xffffffu       /**< QP, CQ and SQ numbers are 24 bits. */
#define OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS 16u    /**< The 16-bit WQE counter addresses at most 2^16 WQEBBs. */
#define OPENGDA_MLX5_INLINE_SEG 0x80000000u   /**< Bit 31 of a data/inline segment's first word: inline. */
#define OPENGDA_MLX5_INLINE_HDR_SIZE 4u       /**< Bytes of the inline segment header. */
/** Largest inline payload of one WQE: 63 DS minus ctrl (16 B) minus the inline header. */
#define OPENGDA_MLX5_INLINE_MAX_LEN (OPENGDA_MLX5_WQE_MAX_DS * 16u - 16u - OPENGDA_MLX5_INLINE_HDR_SIZE)
#define OPENGDA_MLX5_INVALID_LKEY 0x100u      /**< lkey that terminates an RQ scatter list. */
#define OPENGDA_MLX5_ATOMIC_SIZE 8u           /**< Result length of a standard 8-byte atomic. */
/** @} */

/** @brief Send WQE opcodes, ctrl `opmod_idx_opcode[7:0]` (B.3). */
enum opengda_mlx5_opcode {
	OPENGDA_MLX5_OPCODE_NOP = 0x00,              /**< No operation. */
	OPENGDA_MLX5_OPCODE_SEND_INVAL = 0x01,       /**< SEND with remote invalidate. */
	OPENGDA_MLX5_OPCODE_RDMA_WRITE = 0x08,       /**< RDMA WRITE. */
	OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM = 0x09,   /**< RDMA WRITE with immediate. */
	OPENGDA_MLX5_OPCODE_SEND = 0x0a,             /**< SEND. */
	OPENGDA_MLX5_OPCODE_SEND_IMM = 0x0b,         /**< SEND with immediate. */
	OPENGDA_MLX5_OPCODE_LSO = 0x0e,              /**< Large send offload (Ethernet; TSO). */
	OPENGDA_MLX5_OPCODE_WAIT = 0x0f,             /**< Cross-channel WAIT (opmod selects the kind). */
	OPENGDA_MLX5_OPCODE_RDMA_READ = 0x10,        /**< RDMA READ. */
	OPENGDA_MLX5_OPCODE_ATOMIC_CS = 0x11,        /**< 8-byte compare and swap. */
	OPENGDA_MLX5_OPCODE_ATOMIC_FA = 0x12,        /**< 8-byte fetch and add. */
	OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS = 0x14, /**< Extended (masked) compare and swap. */
	OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA = 0x15, /**< Extended (masked) fetch and add. */
	OPENGDA_MLX5_OPCODE_RECV_EN = 0x16,          /**< Cross-channel receive enable (value unverified). */
	OPENGDA_MLX5_OPCODE_SEND_EN = 0x17,          /**< Cross-channel send enable. */
	OPENGDA_MLX5_OPCODE_BIND_MW = 0x18,          /**< Bind memory window. */
	OPENGDA_MLX5_OPCODE_FMR = 0x19,              /**< Fast memory registration. */
	OPENGDA_MLX5_OPCODE_LOCAL_INVAL = 0x1b,      /**< Local invalidate. */
	OPENGDA_MLX5_OPCODE_CONFIG_CMD = 0x1f,       /**< Configuration command. */
	OPENGDA_MLX5_OPCODE_SET_PSV = 0x20,          /**< Set protection signature value. */
	OPENGDA_MLX5_OPCODE_GET_PSV = 0x21,          /**< Get PSV. */
	OPENGDA_MLX5_OPCODE_CHECK_PSV = 0x22,        /**< Check PSV. */
	OPENGDA_MLX5_OPCODE_DUMP = 0x23,             /**< DUMP: ctrl + data; used as a fenced flush. */
	OPENGDA_MLX5_OPCODE_UMR = 0x25,              /**< User-mode memory registration. */
	OPENGDA_MLX5_OPCODE_RGET_PSV = 0x26,         /**< Remote get PSV. */
	OPENGDA_MLX5_OPCODE_RCHECK_PSV = 0x27,       /**< Remote check PSV. */
	OPENGDA_MLX5_OPCODE_TAG_MATCHING = 0x28,     /**< Tag matching list operation. */
	OPENGDA_MLX5_OPCODE_ENHANCED_MPSW = 0x29,    /**< Enhanced multi-packet send (Ethernet). */
	OPENGDA_MLX5_OPCODE_FLOW_TBL_ACCESS = 0x2c,  /**< Flow table access. */
	OPENGDA_MLX5_OPCODE_ACCESS_ASO = 0x2d,       /**< Advanced steering operation access. */
	OPENGDA_MLX5_OPCODE_MMO = 0x2f,              /**< Memory-to-memory offload. */
};

/** @brief ctrl opmod values of OPENGDA_MLX5_OPCODE_WAIT. */
enum opengda_mlx5_wait_opmod {
	OPENGDA_MLX5_OPMOD_WAIT_CQ_PI = 0, /**< Wait until a CQ's producer index reaches a value. */
	OPENGDA_MLX5_OPMOD_WAIT_DATA = 1,  /**< Wait until a memory word satisfies a condition. */
	OPENGDA_MLX5_OPMOD_WAIT_TIME = 2,  /**< Wait until a time stamp. */
};

/** @brief Condition of a wait-on-data segment (`operation`). */
enum opengda_mlx5_wait_cond {
	OPENGDA_MLX5_WAIT_COND_ALWAYS = 0,         /**< Always true. */
	OPENGDA_MLX5_WAIT_COND_EQUAL = 1,          /**< (word & mask) == value. */
	OPENGDA_MLX5_WAIT_COND_BIGGER = 2,         /**< (word & mask) > value. */
	OPENGDA_MLX5_WAIT_COND_SMALLER = 3,        /**< (word & mask) < value. */
	OPENGDA_MLX5_WAIT_COND_CYCLIC_BIGGER = 4,  /**< Cyclic (wrapping) bigger. */
	OPENGDA_MLX5_WAIT_COND_CYCLIC_SMALLER = 5, /**< Cyclic (wrapping) smaller. */
	OPENGDA_MLX5_WAIT_COND_INVERT = 0x10,      /**< Flag: negate the condition. */
};

/** @brief ctrl opmod of an extended (masked) atomic on 4 bytes: 0x08 | (log2(4) - 2). */
#define OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B 0x08u
/** @brief ctrl opmod of an extended (masked) atomic on 8 bytes: 0x08 | (log2(8) - 2). */
#define OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B 0x09u

/** @brief Fence modes, ctrl `fm_ce_se[7:5]` (unshifted values). */
enum opengda_mlx5_fence_mode {
	OPENGDA_MLX5_FENCE_MODE_NONE = 0,            /**< No fence. */
	OPENGDA_MLX5_FENCE_MODE_INITIATOR_SMALL = 1, /**< Used after BIND_MW / LOCAL_INVAL / UMR. */
	OPENGDA_MLX5_FENCE_MODE_FENCE = 2,           /**< Wait for prior READ/ATOMIC (NVSHMEM DUMP). */
	OPENGDA_MLX5_FENCE_MODE_STRONG_ORDERING = 3, /**< Strong ordering. */
	OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE = 4, /**< rdma-core's IBV_SEND_FENCE. */
};

/** @brief Completion modes, ctrl `fm_ce_se[3:2]` (unshifted values). */
enum opengda_mlx5_ce_mode {
	OPENGDA_MLX5_CE_ERROR_ONLY = 0,     /**< CQE only on error. */
	OPENGDA_MLX5_CE_FIRST_ERROR = 1,    /**< DOCA's "CQE on first error". */
	OPENGDA_MLX5_CE_ALWAYS = 2,         /**< CQE for this WQE. */
	OPENGDA_MLX5_CE_ALWAYS_AND_EQE = 3, /**< CQE and event queue entry. */
};

/** @name fm_ce_se bit positions and ready-made values */
/** @{ */
#define OPENGDA_MLX5_FENCE_SHIFT 5u                 /**< Fence mode position in fm_ce_se. */
#define OPENGDA_MLX5_CE_SHIFT 2u                    /**< CE position in fm_ce_se. */
#define OPENGDA_MLX5_WQE_CTRL_SOLICITED 0x02u       /**< SE bit in fm_ce_se. */
#define OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE 0x08u       /**< CE = always (2 << 2). */
#define OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE_EQE 0x0cu   /**< CE = always + EQE (3 << 2). */
#define OPENGDA_MLX5_WQE_CTRL_FM_INITIATOR_SMALL 0x20u /**< Fence mode INITIATOR_SMALL (1 << 5). */
#define OPENGDA_MLX5_WQE_CTRL_FM_FENCE 0x40u           /**< Fence mode FENCE (2 << 5). */
#define OPENGDA_MLX5_WQE_CTRL_FM_STRONG_ORDERING 0x60u /**< Fence mode STRONG_ORDERING (3 << 5). */
/** Fence mode SMALL_AND_FENCE (4 << 5): what rdma-core calls MLX5_WQE_CTRL_FENCE. */
#define OPENGDA_MLX5_WQE_CTRL_FM_SMALL_AND_FENCE 0x80u
#define OPENGDA_MLX5_FM_CE_SE_RESERVED 0x11u        /**< Bits 4 and 0 of fm_ce_se must be zero. */
/** @} */

/** @brief CQE opcodes, `op_own[7:4]` (B.6). */
enum opengda_mlx5_cqe_opcode {
	OPENGDA_MLX5_CQE_REQ = 0,           /**< Requester completion. */
	OPENGDA_MLX5_CQE_RESP_WR_IMM = 1,   /**< Responder: RDMA WRITE with immediate. */
	OPENGDA_MLX5_CQE_RESP_SEND = 2,     /**< Responder: SEND. */
	OPENGDA_MLX5_CQE_RESP_SEND_IMM = 3, /**< Responder: SEND with immediate. */
	OPENGDA_MLX5_CQE_RESP_SEND_INV = 4, /**< Responder: SEND with invalidate. */
	OPENGDA_MLX5_CQE_RESIZE_CQ = 5,     /**< CQ resize marker. */
	OPENGDA_MLX5_CQE_NO_PACKET = 6,     /**< No packet (striding RQ filler). */
	OPENGDA_MLX5_CQE_SIG_ERR = 12,      /**< Signature error. */
	OPENGDA_MLX5_CQE_REQ_ERR = 13,      /**< Requester error (error CQE layout). */
	OPENGDA_MLX5_CQE_RESP_ERR = 14,     /**< Responder error (error CQE layout). */
	OPENGDA_MLX5_CQE_INVALID = 15,      /**< Entry not written by the NIC. */
};

/** @brief Error CQE syndromes, byte 55 (B.6). */
enum opengda_mlx5_cqe_syndrome {
	OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR = 0x01,        /**< Local length error. */
	OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR = 0x02,         /**< Local QP operation error. */
	OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR = 0x04,          /**< Local protection (bad lkey). */
	OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR = 0x05,            /**< Flushed after an error. */
	OPENGDA_MLX5_CQE_SYNDROME_MW_BIND_ERR = 0x06,             /**< Memory window bind error. */
	OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR = 0x10,            /**< Bad response. */
	OPENGDA_MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR = 0x11,        /**< Local access error. */
	OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR = 0x12,    /**< Remote invalid request. */
	OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR = 0x13,       /**< Remote access (bad rkey/range). */
	OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR = 0x14,           /**< Remote operation error. */
	OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR = 0x15, /**< Transport retries exhausted. */
	OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR = 0x16,       /**< RNR retries exhausted. */
	OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR = 0x22,      /**< Remote aborted. */
};

/** @brief Vendor syndrome of an ODP page fault. */
#define OPENGDA_MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT 0x93u

/** @name CQE op_own byte (byte 63) */
/** @{ */
#define OPENGDA_MLX5_CQE_OWNER_MASK 0x01u         /**< Owner bit. */
#define OPENGDA_MLX5_CQE_SE_MASK 0x02u            /**< Solicited event bit. */
#define OPENGDA_MLX5_CQE_FORMAT_SHIFT 2u          /**< CQE format position. */
#define OPENGDA_MLX5_CQE_FORMAT_MASK 0x0cu        /**< CQE format bits [3:2]. */
#define OPENGDA_MLX5_CQE_OPCODE_SHIFT 4u          /**< CQE opcode position. */
#define OPENGDA_MLX5_CQE_FORMAT_NORMAL 0u         /**< Format: a plain 64-byte CQE. */
#define OPENGDA_MLX5_CQE_FORMAT_COMPRESSED 3u     /**< Format: compressed mini-CQE array. */
#define OPENGDA_MLX5_CQE_INLINE_SCATTER_32 0x04u  /**< Responder: payload scattered into the CQE (32 B). */
#define OPENGDA_MLX5_CQE_INLINE_SCATTER_64 0x08u  /**< Responder: payload scattered into the CQE (64 B). */
/**
 * op_own of a CQ entry the NIC has not written. opcode INVALID with owner 1: we choose
 * 0xF1 (not rdma-core's 0xF0) because it also fails a consumer that only compares the
 * owner bit, since the NIC writes owner 0 on the first pass. NVSHMEM's memset to 0xFF
 * has the same property.
 */
#define OPENGDA_MLX5_CQE_OP_OWN_INIT 0xf1u
#define OPENGDA_MLX5_CQ_MAX_LOG_SIZE 24u          /**< The CQ consumer index is 24 bits. */
/** @} */

/**
 * @name Ethernet receive CQE fields (Linux mlx5 device.h struct mlx5_cqe64): bytes inside resp_info.
 * @{
 */
#define OPENGDA_MLX5_CQE_RX_RSS_HASH 0x0cu       /**< BE32: the RSS hash the TIR computed. */
#define OPENGDA_MLX5_CQE_RX_HDS_IP_EXT 0x1cu     /**< L2 / L3 / L4 OK flags. */
#define OPENGDA_MLX5_CQE_RX_L4_L3_HDR_TYPE 0x1du /**< [6:4] L4 header type, [3:2] L3 header type. */
#define OPENGDA_MLX5_CQE_RX_L2_OK 0x01u          /**< hds_ip_ext: the L2 header is complete. */
#define OPENGDA_MLX5_CQE_RX_L3_OK 0x02u          /**< hds_ip_ext: the IPv4 header checksum is right (IPv6: parsed). */
#define OPENGDA_MLX5_CQE_RX_L4_OK 0x04u          /**< hds_ip_ext: the TCP / UDP checksum is right. */
#define OPENGDA_MLX5_CQE_RX_L3_IPV6 0x1u         /**< l4_l3_hdr_type [3:2] values. */
#define OPENGDA_MLX5_CQE_RX_L3_IPV4 0x2u
#define OPENGDA_MLX5_CQE_RX_L4_TCP 0x1u          /**< l4_l3_hdr_type [6:4] values (TCP without ACK). */
#define OPENGDA_MLX5_CQE_RX_L4_UDP 0x2u
#define OPENGDA_MLX5_CQE_RX_L4_TCP_ACK_NO_DATA 0x3u
#define OPENGDA_MLX5_CQE_RX_L4_TCP_ACK_DATA 0x4u
/**
 * Striding RQ (multi-packet WQEs; Linux mlx5 device.h mpwrq_* helpers): wqe_id is the counter of
 * the WQE the packet is in (BE16 at byte 2), wqe_counter the index of its first stride, and
 * byte_cnt carries a filler flag (the rest of the WQE was skipped: no packet), the strides it
 * consumed and the packet's length.
 */
#define OPENGDA_MLX5_CQE_RX_WQE_ID 0x02u             /**< BE16: the WQE's counter (striding RQ). */
#define OPENGDA_MLX5_CQE_MPRQ_FILLER 0x80000000u     /**< byte_cnt [31]: a filler CQE. */
#define OPENGDA_MLX5_CQE_MPRQ_STRIDES_SHIFT 16u      /**< byte_cnt [30:16]: strides consumed. */
#define OPENGDA_MLX5_CQE_MPRQ_STRIDES_MASK 0x7fffu
#define OPENGDA_MLX5_CQE_MPRQ_BYTES_MASK 0xffffu     /**< byte_cnt [15:0]: packet length. */
/** @} */

/** @name Doorbell records and UAR (B.7, B.8) */
/** @{ */
#define OPENGDA_MLX5_CQ_SET_CI 0u                /**< CQ DBR word 0: consumer index. */
#define OPENGDA_MLX5_CQ_ARM_DB 1u                /**< CQ DBR word 1: arm value. */
#define OPENGDA_MLX5_CQ_CI_MASK 0xffffffu        /**< CQ consumer index bits. */
#define OPENGDA_MLX5_CQ_DB_REQ_NOT 0u            /**< Arm command: next completion. */
#define OPENGDA_MLX5_CQ_DB_REQ_NOT_SOL 0x01000000u /**< Arm command: next solicited completion. */
#define OPENGDA_MLX5_RCV_DBR 0u                  /**< QP DBR word 0: RQ producer counter. */
#define OPENGDA_MLX5_SND_DBR 1u                  /**< QP DBR word 1: SQ producer counter. */
#define OPENGDA_MLX5_QP_DBR_MASK 0xffffu         /**< QP DBR counters are 16 bits. */
#define OPENGDA_MLX5_UAR_PAGE_SIZE 4096u         /**< UAR page size. */
#define OPENGDA_MLX5_UAR_CQ_DOORBELL 0x20u       /**< CQ arm doorbell offset in the UAR page. */
#define OPENGDA_MLX5_UAR_DBR_LESS_OFFSET 0x600u  /**< Doorbell of a QP in DBR-less send mode. */
#define OPENGDA_MLX5_UAR_BF_OFFSET 0x800u        /**< First BlueFlame/doorbell register. */
/** @} */

/* ------------------------------------------------------------------------------------ */
/* Segment layouts. Members hold big-endian images. */

/** @brief Control segment, first 16 bytes of every send WQE (B.2). */
struct opengda_mlx5_wqe_ctrl_seg {
	uint32_t opmod_idx_opcode;        /**< [31:24] opmod, [23:8] WQE index, [7:0] opcode. */
	uint32_t qpn_ds;                  /**< [31:8] QP number, [7:0] DS (only [5:0] used). */
	uint8_t signature;                /**< WQE signature (only with qpc.wq_signature). */
	uint8_t dci_stream_channel_id[2]; /**< DCI streams only; 0 for RC. */
	uint8_t fm_ce_se;                 /**< [7:5] fence, [3:2] CE, [1] SE. */
	uint32_t imm;                     /**< Immediate, invalidation rkey or UMR mkey. */
};

/** @brief Remote address segment (RDMA and atomics). */
struct opengda_mlx5_wqe_raddr_seg {
	uint64_t raddr;    /**< Remote virtual address. */
	uint32_t rkey;     /**< Remote key. */
	uint32_t reserved; /**< Zero. */
};

/** @brief Pointer data segment (one gather/scatter entry). */
struct opengda_mlx5_wqe_data_seg {
	uint32_t byte_count; /**< Length; bit 31 must be 0 (bit 31 set means an inline segment). */
	uint32_t lkey;       /**< Local key. */
	uint64_t addr;       /**< Local virtual address. */
};

/** @brief Inline data header; the payload follows, padded with header to 16 bytes. */
struct opengda_mlx5_wqe_inl_data_seg {
	uint32_t byte_count; /**< Payload length | OPENGDA_MLX5_INLINE_SEG. */
};

/** @brief Standard 8-byte atomic segment (CS: swap + compare; FA: add in swap_add). */
struct opengda_mlx5_wqe_atomic_seg {
	uint64_t swap_add; /**< Swap value (CS) or addend (FA). */
	uint64_t compare;  /**< Compare value (CS); 0 for FA. */
};

/** @brief Masked compare-and-swap, 4-byte operands (16 bytes). */
struct opengda_mlx5_wqe_masked_cs4_seg {
	uint32_t swap;         /**< Swap value. */
	uint32_t compare;      /**< Compare value. */
	uint32_t swap_mask;    /**< Bits of swap that are written. */
	uint32_t compare_mask; /**< Bits that take part in the compare. */
};

/** @brief Masked compare-and-swap, 8-byte operands (32 bytes, 2 DS). */
struct opengda_mlx5_wqe_masked_cs8_seg {
	uint64_t swap;         /**< Swap value. */
	uint64_t compare;      /**< Compare value. */
	uint64_t swap_mask;    /**< Bits of swap that are written. */
	uint64_t compare_mask; /**< Bits that take part in the compare. */
};

/** @brief Masked fetch-and-add, 4-byte operands (16 bytes). */
struct opengda_mlx5_wqe_masked_fa4_seg {
	uint32_t add;            /**< Addend. */
	uint32_t field_boundary; /**< Bit i set: carry stops at bit i (independent fields). */
	uint32_t reserved[2];    /**< Zero. */
};

/** @brief Masked fetch-and-add, 8-byte operands (16 bytes). */
struct opengda_mlx5_wqe_masked_fa8_seg {
	uint64_t add;            /**< Addend. */
	uint64_t field_boundary; /**< Bit i set: carry stops at bit i. */
};

/** @brief WAIT on a CQ producer index (opmod OPENGDA_MLX5_OPMOD_WAIT_CQ_PI). */
struct opengda_mlx5_wqe_wait_cq_seg {
	uint8_t reserved[8]; /**< Zero. */
	uint32_t max_index;  /**< CQ index to wait for. */
	uint32_t qpn_cqn;    /**< [23:0] CQ number. */
};

/** @brief WAIT on data or time (opmod DATA / TIME), 32 bytes. */
struct opengda_mlx5_wqe_wait_data_seg {
	uint32_t operation; /**< opengda_mlx5_wait_cond value. */
	uint32_t lkey;      /**< Key of the watched word. */
	uint32_t va_high;   /**< Address bits 63:32. */
	uint32_t va_low;    /**< Address bits 31:0. */
	uint64_t value;     /**< Value compared with. */
	uint64_t mask;      /**< Bits compared. */
};

/**
 * @brief Ethernet segment of an Ethernet SEND WQE (16 bytes; rdma-core mlx5_wqe_eth_seg).
 *
 * Follows the ctrl segment. When inline_hdr_sz is not 0 the first packet bytes are carried in
 * the WQE: 2 in inline_hdr_start, the rest right after this segment, the whole padded to 16
 * bytes; the data segments then carry the packet's remaining bytes.
 */
struct opengda_mlx5_wqe_eth_seg {
	uint32_t swp_offs;            /**< Software parser offsets (0: not used). */
	uint8_t cs_flags;             /**< OPENGDA_MLX5_ETH_WQE_L3_CSUM / _L4_CSUM. */
	uint8_t swp_flags;            /**< Software parser flags (0). */
	uint16_t mss;                 /**< LSO only (0). */
	uint32_t metadata;            /**< Flow table metadata (0). */
	uint16_t inline_hdr_sz;       /**< Bytes of packet carried inline (0: none). */
	uint8_t inline_hdr_start[2];  /**< First two inline bytes. */
};

/** @name Ethernet segment checksum flags (cs_flags) */
/** @{ */
#define OPENGDA_MLX5_ETH_WQE_L3_CSUM 0x40u /**< The NIC writes the IPv4 header checksum. */
#define OPENGDA_MLX5_ETH_WQE_L4_CSUM 0x80u /**< The NIC writes the TCP / UDP checksum. */
#define OPENGDA_MLX5_ETH_INLINE_HDR_MAX 1024u /**< Inline header bytes that fit a WQE, at most. */
/** @} */

/** @brief 64-byte CQE (B.6). */
struct opengda_mlx5_cqe64 {
	uint8_t resp_info[32];  /**< Responder / Ethernet / tag-matching information. */
	uint32_t srqn_uidx;     /**< [23:0] user index (or SRQ number). */
	uint32_t imm_inval_pkey; /**< Immediate data or invalidated rkey. */
	uint8_t app;            /**< Application info. */
	uint8_t app_op;         /**< Application op. */
	uint16_t app_info;      /**< Application info. */
	uint32_t byte_cnt;      /**< Bytes transferred. */
	uint64_t timestamp;     /**< Completion time stamp. */
	uint32_t sop_drop_qpn;  /**< [31:24] opcode of the completed WQE, [23:0] QPN. */
	uint16_t wqe_counter;   /**< WQE index of the WQE that completed. */
	uint8_t signature;      /**< CQE signature. */
	uint8_t op_own;         /**< [7:4] opcode, [3:2] format, [1] SE, [0] owner. */
};

/**
 * @brief Error view of a CQE (opcode REQ_ERR or RESP_ERR), same 64 bytes.
 *
 * Layout reference only: the error accessors below take a struct opengda_mlx5_cqe64 and
 * read these offsets, so that one pointer type serves a polling loop.
 */
struct opengda_mlx5_err_cqe {
	uint8_t rsvd0[32];        /**< Reserved. */
	uint32_t srqn;            /**< [23:0] SRQ number / user index. */
	uint8_t rsvd1[16];        /**< Reserved. */
	uint8_t hw_err_synd;      /**< Hardware error syndrome. */
	uint8_t hw_synd_type;     /**< Hardware syndrome type. */
	uint8_t vendor_err_synd;  /**< Vendor syndrome. */
	uint8_t syndrome;         /**< opengda_mlx5_cqe_syndrome value. */
	uint32_t s_wqe_opcode_qpn; /**< [31:24] opcode of the failed WQE, [23:0] QPN. */
	uint16_t wqe_counter;     /**< WQE index of the failed WQE. */
	uint8_t signature;        /**< Signature. */
	uint8_t op_own;           /**< As in opengda_mlx5_cqe64. */
};

/** @cond OPENGDA_MLX5_LAYOUT_CHECKS */
#define OPENGDA_MLX5_CHECK_OFF(type, member, off)                                                    \
	OPENGDA_MLX5_STATIC_ASSERT(offsetof(struct type, member) == (off), #type "." #member " offset")
#define OPENGDA_MLX5_CHECK_SIZE(type, size) OPENGDA_MLX5_STATIC_ASSERT(sizeof(struct type) == (size), #type " size")
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_ctrl_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_ctrl_seg, qpn_ds, 4);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_ctrl_seg, signature, 8);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_ctrl_seg, dci_stream_channel_id, 9);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_ctrl_seg, fm_ce_se, 11);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_ctrl_seg, imm, 12);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_raddr_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_raddr_seg, rkey, 8);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_data_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_data_seg, lkey, 4);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_data_seg, addr, 8);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_inl_data_seg, 4);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_atomic_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_atomic_seg, compare, 8);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_masked_cs4_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_masked_cs4_seg, compare_mask, 12);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_masked_cs8_seg, 32);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_masked_cs8_seg, compare_mask, 24);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_masked_fa4_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_masked_fa4_seg, field_boundary, 4);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_masked_fa8_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_masked_fa8_seg, field_boundary, 8);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_wait_cq_seg, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_wait_cq_seg, max_index, 8);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_wait_cq_seg, qpn_cqn, 12);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_wqe_wait_data_seg, 32);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_wait_data_seg, value, 16);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_wqe_wait_data_seg, mask, 24);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_cqe64, 64);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, srqn_uidx, 32);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, imm_inval_pkey, 36);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, app, 40);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, byte_cnt, 44);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, timestamp, 48);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, sop_drop_qpn, 56);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, wqe_counter, 60);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, signature, 62);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_cqe64, op_own, 63);
OPENGDA_MLX5_CHECK_SIZE(opengda_mlx5_err_cqe, 64);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, srqn, 32);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, hw_err_synd, 52);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, hw_synd_type, 53);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, vendor_err_synd, 54);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, syndrome, 55);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, s_wqe_opcode_qpn, 56);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, wqe_counter, 60);
OPENGDA_MLX5_CHECK_OFF(opengda_mlx5_err_cqe, op_own, 63);
#undef OPENGDA_MLX5_CHECK_OFF
#undef OPENGDA_MLX5_CHECK_SIZE
/** @endcond */

/** @name Byte offsets of the error CQE fields (read through a struct opengda_mlx5_cqe64) */
/** @{ */
#define OPENGDA_MLX5_ERR_CQE_HW_ERR_SYND 52u     /**< hw_err_synd. */
#define OPENGDA_MLX5_ERR_CQE_HW_SYND_TYPE 53u    /**< hw_synd_type. */
#define OPENGDA_MLX5_ERR_CQE_VENDOR_ERR_SYND 54u /**< vendor_err_synd. */
#define OPENGDA_MLX5_ERR_CQE_SYNDROME 55u        /**< syndrome. */
/** @} */

/* ------------------------------------------------------------------------------------ */
/*
 * Byte order. Shifts on the host, where compilers turn them into bswap. In device code a byte
 * permute (one PRMT): from shifts the compiler builds a PRMT only for per-thread values, and for
 * values in uniform registers (a WQE index or address the whole warp shares) it emits a chain of
 * shifts and masks on the uniform datapath, several instructions per word of every WQE.
 */

/** @brief Reverses the bytes of a 16-bit value. */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_bswap16(uint16_t x)
{
	return (uint16_t)((x >> 8) | (x << 8));
}

/** @brief Reverses the bytes of a 32-bit value. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_bswap32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
	return __byte_perm(x, 0u, 0x0123u);
#else
	return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
#endif
}

/** @brief Reverses the bytes of a 64-bit value. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_bswap64(uint64_t x)
{
	return ((uint64_t)opengda_mlx5_bswap32((uint32_t)x) << 32) | opengda_mlx5_bswap32((uint32_t)(x >> 32));
}

/** @brief 1 when the compiling target stores integers most significant byte first. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define OPENGDA_MLX5_BIG_ENDIAN_HOST 1
#else
#define OPENGDA_MLX5_BIG_ENDIAN_HOST 0
#endif

/** @brief Host order to big-endian image, 16 bits. */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_htobe16(uint16_t x)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? x : opengda_mlx5_bswap16(x);
}

/** @brief Host order to big-endian image, 32 bits. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_htobe32(uint32_t x)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? x : opengda_mlx5_bswap32(x);
}

/** @brief Host order to big-endian image, 64 bits. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_htobe64(uint64_t x)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? x : opengda_mlx5_bswap64(x);
}

/** @brief Big-endian image to host order, 16 bits. */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_be16toh(uint16_t x)
{
	return opengda_mlx5_htobe16(x);
}

/** @brief Big-endian image to host order, 32 bits. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_be32toh(uint32_t x)
{
	return opengda_mlx5_htobe32(x);
}

/** @brief Big-endian image to host order, 64 bits. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_be64toh(uint64_t x)
{
	return opengda_mlx5_htobe64(x);
}

/**
 * @brief The 64-bit value whose memory image is the 4 bytes of @p first then those of @p second.
 *
 * Used for 8-byte doorbells, which are stored with one 64-bit MMIO write.
 */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_pack_words(uint32_t first, uint32_t second)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? (((uint64_t)first << 32) | second)
					    : (((uint64_t)second << 32) | first);
}

/** @brief The first 4 bytes (in memory order) of a 64-bit value: inverse of opengda_mlx5_pack_words(). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_first_word(uint64_t v)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? (uint32_t)(v >> 32) : (uint32_t)v;
}

/** @brief The last 4 bytes (in memory order) of a 64-bit value. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_second_word(uint64_t v)
{
	return OPENGDA_MLX5_BIG_ENDIAN_HOST ? (uint32_t)v : (uint32_t)(v >> 32);
}

/* ------------------------------------------------------------------------------------ */
/* Small helpers. */

/** @brief WQEBBs taken by a WQE of @p ds octowords: ceil(ds * 16 / 64). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_wqebbs_from_ds(uint32_t ds)
{
	return (ds * OPENGDA_MLX5_SEND_WQE_DS + OPENGDA_MLX5_SEND_WQE_BB - 1u) >> OPENGDA_MLX5_SEND_WQE_SHIFT;
}

/** @brief DS units taken by an inline segment carrying @p len bytes: ceil((4 + len) / 16). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_inline_ds(uint32_t len)
{
	return (OPENGDA_MLX5_INLINE_HDR_SIZE + len + OPENGDA_MLX5_SEND_WQE_DS - 1u) / OPENGDA_MLX5_SEND_WQE_DS;
}

/**
 * @brief ctrl opmod of a masked (extended) atomic: 0x08 | (log2(size) - 2).
 * @param size  Operand size in bytes: 4 or 8.
 * @return 0x08 or 0x09, or OPENGDA_MLX5_EINVAL for any other size.
 */
OPENGDA_MLX5_FN int opengda_mlx5_masked_atomic_opmod(uint32_t size)
{
	if (size == 4u)
		return (int)OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B;
	if (size == 8u)
		return (int)OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B;
	return OPENGDA_MLX5_EINVAL;
}

/** @brief 1 when @p fm_ce_se has a defined fence mode (0..4) and its reserved bits 4 and 0 clear. */
OPENGDA_MLX5_FN int opengda_mlx5_fm_ce_se_valid(uint8_t fm_ce_se)
{
	return (fm_ce_se & OPENGDA_MLX5_FM_CE_SE_RESERVED) == 0u &&
	       (fm_ce_se >> OPENGDA_MLX5_FENCE_SHIFT) <= (uint8_t)OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE;
}

/**
 * @brief Composes the ctrl fm_ce_se byte.
 * @param fence  opengda_mlx5_fence_mode (0..4).
 * @param ce     opengda_mlx5_ce_mode (0..3).
 * @param se     Non-zero to request a solicited event.
 * @return The byte (0..255), or OPENGDA_MLX5_EINVAL for fence > 4 or ce > 3.
 */
OPENGDA_MLX5_FN int opengda_mlx5_fm_ce_se(uint32_t fence, uint32_t ce, int se)
{
	if (fence > (uint32_t)OPENGDA_MLX5_FENCE_MODE_SMALL_AND_FENCE || ce > 3u)
		return OPENGDA_MLX5_EINVAL;
	return (int)((fence << OPENGDA_MLX5_FENCE_SHIFT) | (ce << OPENGDA_MLX5_CE_SHIFT) |
		     (se ? OPENGDA_MLX5_WQE_CTRL_SOLICITED : 0u));
}

/** @brief Byte-by-byte copy (device code has no libc). */
OPENGDA_MLX5_FN void opengda_mlx5_copy_bytes(void *dst, const void *src, uint32_t n)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	uint32_t i;

	for (i = 0; i < n; i++)
		d[i] = s[i];
}

/**
 * @brief WQE signature: the complement of the XOR of @p nbytes bytes (rdma-core calc_sig).
 *
 * Compute it with the signature byte still 0, over ds * 16 contiguous bytes; the NIC
 * checks it only when the QP was created with qpc.wq_signature = 1.
 * @return The signature (0..255), or OPENGDA_MLX5_EINVAL for a NULL @p wqe.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_signature(const void *wqe, uint32_t nbytes)
{
	const uint8_t *p = (const uint8_t *)wqe;
	uint8_t x = 0;
	uint32_t i;

	if (wqe == NULL)
		return OPENGDA_MLX5_EINVAL;
	for (i = 0; i < nbytes; i++)
		x ^= p[i];
	return (int)(uint8_t)~x;
}

/* ------------------------------------------------------------------------------------ */
/* Segment encoders. */

/**
 * @brief Writes a control segment.
 * @param ctrl       Destination (16 bytes).
 * @param opmod      Opcode modifier (e.g. OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B).
 * @param wqe_index  SQ producer counter of the WQE's first WQEBB (16 bits).
 * @param opcode     opengda_mlx5_opcode value.
 * @param qpn        QP number, 24 bits.
 * @param ds         WQE size in 16-byte units including this segment: 1..63.
 * @param fm_ce_se   Fence/CE/SE byte (opengda_mlx5_fm_ce_se() or the OPENGDA_MLX5_WQE_CTRL_* values).
 * @param imm        Immediate data (or invalidation rkey) in host order; stored big-endian.
 * @return 0, or OPENGDA_MLX5_EINVAL (NULL ctrl, qpn over 24 bits, ds 0 or over 63, bad fm_ce_se).
 *
 * The signature byte and the DCI stream id are written 0.
 */
OPENGDA_MLX5_FN int opengda_mlx5_ctrl_seg_write(struct opengda_mlx5_wqe_ctrl_seg *ctrl, uint8_t opmod,
						uint16_t wqe_index, uint8_t opcode, uint32_t qpn, uint8_t ds,
						uint8_t fm_ce_se, uint32_t imm)
{
	if (ctrl == NULL || qpn > OPENGDA_MLX5_QPN_MASK || ds == 0u || ds > OPENGDA_MLX5_WQE_MAX_DS ||
	    !opengda_mlx5_fm_ce_se_valid(fm_ce_se))
		return OPENGDA_MLX5_EINVAL;
	ctrl->opmod_idx_opcode = opengda_mlx5_htobe32(((uint32_t)opmod << 24) | ((uint32_t)wqe_index << 8) | opcode);
	ctrl->qpn_ds = opengda_mlx5_htobe32((qpn << 8) | ds);
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id[0] = 0;
	ctrl->dci_stream_channel_id[1] = 0;
	ctrl->fm_ce_se = fm_ce_se;
	ctrl->imm = opengda_mlx5_htobe32(imm);
	return 0;
}

/** @brief Writes a remote address segment (reserved word 0). */
OPENGDA_MLX5_FN void opengda_mlx5_raddr_seg_write(struct opengda_mlx5_wqe_raddr_seg *seg, uint64_t raddr, uint32_t rkey)
{
	seg->raddr = opengda_mlx5_htobe64(raddr);
	seg->rkey = opengda_mlx5_htobe32(rkey);
	seg->reserved = 0;
}

/**
 * @brief Writes a pointer data segment.
 * @return 0, or OPENGDA_MLX5_EINVAL for a NULL @p seg or a @p byte_count with bit 31 set
 *         (that bit would turn the segment into an inline header).
 */
OPENGDA_MLX5_FN int opengda_mlx5_data_seg_write(struct opengda_mlx5_wqe_data_seg *seg, uint32_t byte_count,
						uint32_t lkey, uint64_t addr)
{
	if (seg == NULL || (byte_count & OPENGDA_MLX5_INLINE_SEG) != 0u)
		return OPENGDA_MLX5_EINVAL;
	seg->byte_count = opengda_mlx5_htobe32(byte_count);
	seg->lkey = opengda_mlx5_htobe32(lkey);
	seg->addr = opengda_mlx5_htobe64(addr);
	return 0;
}

/**
 * @brief Writes an Ethernet segment without inline headers (the whole packet in data segments).
 * @return 0, or OPENGDA_MLX5_EINVAL for a NULL @p seg or unknown @p cs_flags bits.
 */
OPENGDA_MLX5_FN int opengda_mlx5_eth_seg_write(struct opengda_mlx5_wqe_eth_seg *seg, uint8_t cs_flags)
{
	if (seg == NULL || (cs_flags & (uint8_t)~(OPENGDA_MLX5_ETH_WQE_L3_CSUM | OPENGDA_MLX5_ETH_WQE_L4_CSUM)) != 0u)
		return OPENGDA_MLX5_EINVAL;
	seg->swp_offs = 0;
	seg->cs_flags = cs_flags;
	seg->swp_flags = 0;
	seg->mss = 0;
	seg->metadata = 0;
	seg->inline_hdr_sz = 0;
	seg->inline_hdr_start[0] = 0;
	seg->inline_hdr_start[1] = 0;
	return 0;
}

/** @brief Inline header bytes of an Ethernet segment. */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_eth_seg_inline_hdr_sz(const struct opengda_mlx5_wqe_eth_seg *seg)
{
	return opengda_mlx5_be16toh(seg->inline_hdr_sz);
}

/**
 * @brief Writes an inline segment (header + payload) into contiguous memory.
 *
 * The header and payload are padded with zero bytes to a multiple of 16 bytes.
 * @param seg   Destination, 16-byte aligned, with room for opengda_mlx5_inline_ds(len) * 16 bytes.
 * @param data  Payload (may be NULL when len is 0).
 * @param len   Payload length, at most OPENGDA_MLX5_INLINE_MAX_LEN.
 * @return The DS units used, or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_inline_seg_write(void *seg, const void *data, uint32_t len)
{
	uint8_t *p = (uint8_t *)seg;
	uint32_t padded = opengda_mlx5_inline_ds(len) * OPENGDA_MLX5_SEND_WQE_DS;
	uint32_t i;

	if (seg == NULL || (data == NULL && len != 0u) || len > OPENGDA_MLX5_INLINE_MAX_LEN)
		return OPENGDA_MLX5_EINVAL;
	((struct opengda_mlx5_wqe_inl_data_seg *)seg)->byte_count = opengda_mlx5_htobe32(len | OPENGDA_MLX5_INLINE_SEG);
	opengda_mlx5_copy_bytes(p + OPENGDA_MLX5_INLINE_HDR_SIZE, data, len);
	for (i = OPENGDA_MLX5_INLINE_HDR_SIZE + len; i < padded; i++)
		p[i] = 0;
	return (int)(padded / OPENGDA_MLX5_SEND_WQE_DS);
}

/**
 * @brief Writes an inline segment that may run past the end of a ring and continue at its start.
 * @param ring        Ring base.
 * @param ring_bytes  Ring size in bytes: a non-zero multiple of 64.
 * @param seg_off     Offset of the inline header in the ring: 16-byte aligned, below ring_bytes.
 * @param data        Payload (may be NULL when len is 0).
 * @param len         Payload length; header + padded payload must fit in the ring and len
 *                    must not exceed OPENGDA_MLX5_INLINE_MAX_LEN.
 * @return The DS units used, or OPENGDA_MLX5_EINVAL. Never writes outside [ring, ring + ring_bytes).
 */
OPENGDA_MLX5_FN int opengda_mlx5_inline_seg_write_ring(void *ring, uint32_t ring_bytes, uint32_t seg_off,
						       const void *data, uint32_t len)
{
	uint8_t *base = (uint8_t *)ring;
	const uint8_t *src = (const uint8_t *)data;
	uint32_t padded = opengda_mlx5_inline_ds(len) * OPENGDA_MLX5_SEND_WQE_DS;
	uint32_t pos, i;

	if (ring == NULL || (data == NULL && len != 0u) || len > OPENGDA_MLX5_INLINE_MAX_LEN || ring_bytes == 0u ||
	    (ring_bytes % OPENGDA_MLX5_SEND_WQE_BB) != 0u || seg_off >= ring_bytes ||
	    (seg_off % OPENGDA_MLX5_SEND_WQE_DS) != 0u || padded > ring_bytes)
		return OPENGDA_MLX5_EINVAL;
	/* The 4-byte header never straddles the end: seg_off is 16-byte aligned. */
	((struct opengda_mlx5_wqe_inl_data_seg *)(base + seg_off))->byte_count =
		opengda_mlx5_htobe32(len | OPENGDA_MLX5_INLINE_SEG);
	pos = seg_off + OPENGDA_MLX5_INLINE_HDR_SIZE;
	for (i = 0; i < padded - OPENGDA_MLX5_INLINE_HDR_SIZE; i++) {
		if (pos == ring_bytes)
			pos = 0;
		base[pos++] = i < len ? src[i] : (uint8_t)0;
	}
	return (int)(padded / OPENGDA_MLX5_SEND_WQE_DS);
}

/** @brief Writes a standard compare-and-swap atomic segment. */
OPENGDA_MLX5_FN void opengda_mlx5_atomic_seg_write_cs(struct opengda_mlx5_wqe_atomic_seg *seg, uint64_t compare,
						      uint64_t swap)
{
	seg->swap_add = opengda_mlx5_htobe64(swap);
	seg->compare = opengda_mlx5_htobe64(compare);
}

/** @brief Writes a standard fetch-and-add atomic segment (compare word 0). */
OPENGDA_MLX5_FN void opengda_mlx5_atomic_seg_write_fa(struct opengda_mlx5_wqe_atomic_seg *seg, uint64_t add)
{
	seg->swap_add = opengda_mlx5_htobe64(add);
	seg->compare = 0;
}

/** @brief Writes a 4-byte masked compare-and-swap segment. */
OPENGDA_MLX5_FN void opengda_mlx5_masked_cs4_seg_write(struct opengda_mlx5_wqe_masked_cs4_seg *seg, uint32_t compare,
						       uint32_t swap, uint32_t compare_mask, uint32_t swap_mask)
{
	seg->swap = opengda_mlx5_htobe32(swap);
	seg->compare = opengda_mlx5_htobe32(compare);
	seg->swap_mask = opengda_mlx5_htobe32(swap_mask);
	seg->compare_mask = opengda_mlx5_htobe32(compare_mask);
}

/** @brief Writes an 8-byte masked compare-and-swap segment (32 bytes). */
OPENGDA_MLX5_FN void opengda_mlx5_masked_cs8_seg_write(struct opengda_mlx5_wqe_masked_cs8_seg *seg, uint64_t compare,
						       uint64_t swap, uint64_t compare_mask, uint64_t swap_mask)
{
	seg->swap = opengda_mlx5_htobe64(swap);
	seg->compare = opengda_mlx5_htobe64(compare);
	seg->swap_mask = opengda_mlx5_htobe64(swap_mask);
	seg->compare_mask = opengda_mlx5_htobe64(compare_mask);
}

/** @brief Writes a 4-byte masked fetch-and-add segment (reserved words 0). */
OPENGDA_MLX5_FN void opengda_mlx5_masked_fa4_seg_write(struct opengda_mlx5_wqe_masked_fa4_seg *seg, uint32_t add,
						       uint32_t field_boundary)
{
	seg->add = opengda_mlx5_htobe32(add);
	seg->field_boundary = opengda_mlx5_htobe32(field_boundary);
	seg->reserved[0] = 0;
	seg->reserved[1] = 0;
}

/** @brief Writes an 8-byte masked fetch-and-add segment. */
OPENGDA_MLX5_FN void opengda_mlx5_masked_fa8_seg_write(struct opengda_mlx5_wqe_masked_fa8_seg *seg, uint64_t add,
						       uint64_t field_boundary)
{
	seg->add = opengda_mlx5_htobe64(add);
	seg->field_boundary = opengda_mlx5_htobe64(field_boundary);
}

/**
 * @brief Writes a wait-on-CQ segment.
 * @return 0, or OPENGDA_MLX5_EINVAL for a NULL @p seg or a @p cqn over 24 bits.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wait_cq_seg_write(struct opengda_mlx5_wqe_wait_cq_seg *seg, uint32_t cqn,
						   uint32_t max_index)
{
	uint32_t i;

	if (seg == NULL || cqn > OPENGDA_MLX5_QPN_MASK)
		return OPENGDA_MLX5_EINVAL;
	for (i = 0; i < sizeof(seg->reserved); i++)
		seg->reserved[i] = 0;
	seg->max_index = opengda_mlx5_htobe32(max_index);
	seg->qpn_cqn = opengda_mlx5_htobe32(cqn);
	return 0;
}

/** @brief Writes a wait-on-data/time segment (32 bytes). */
OPENGDA_MLX5_FN void opengda_mlx5_wait_data_seg_write(struct opengda_mlx5_wqe_wait_data_seg *seg, uint32_t operation,
						      uint32_t lkey, uint64_t va, uint64_t value, uint64_t mask)
{
	seg->operation = opengda_mlx5_htobe32(operation);
	seg->lkey = opengda_mlx5_htobe32(lkey);
	seg->va_high = opengda_mlx5_htobe32((uint32_t)(va >> 32));
	seg->va_low = opengda_mlx5_htobe32((uint32_t)va);
	seg->value = opengda_mlx5_htobe64(value);
	seg->mask = opengda_mlx5_htobe64(mask);
}

/* ------------------------------------------------------------------------------------ */
/* Send queue addressing and WQE recipes (reference/mlx5.md B.5). */

/** @brief A send queue as the recipes see it. */
struct opengda_mlx5_sq {
	void *ring;          /**< First WQEBB; at least 16-byte aligned (hardware: page aligned). */
	uint32_t log_wqebbs; /**< log2 of the ring size in WQEBBs: 0..16. */
	uint32_t qpn;        /**< QP number (24 bits) written into every ctrl segment. */
};

/** @brief Ring size in bytes of @p sq (its log_wqebbs must be valid). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_sq_bytes(const struct opengda_mlx5_sq *sq)
{
	return OPENGDA_MLX5_SEND_WQE_BB << sq->log_wqebbs;
}

/**
 * @brief Address of the WQEBB that producer counter @p pi maps to: ring + (pi & (size - 1)) * 64.
 * @return NULL for a NULL or invalid @p sq.
 */
OPENGDA_MLX5_FN void *opengda_mlx5_sq_wqebb(const struct opengda_mlx5_sq *sq, uint32_t pi)
{
	if (sq == NULL || sq->ring == NULL || sq->log_wqebbs > OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS)
		return NULL;
	return (uint8_t *)sq->ring + ((pi & ((1u << sq->log_wqebbs) - 1u)) << OPENGDA_MLX5_SEND_WQE_SHIFT);
}

/**
 * @brief Address of 16-byte segment @p seg of the WQE at @p wqe_index, wrapping at the ring end.
 *
 * No bounds check beyond the wrap: callers validate with opengda_mlx5_sq_check().
 */
OPENGDA_MLX5_FN void *opengda_mlx5_sq_seg(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint32_t seg)
{
	uint32_t mask = opengda_mlx5_sq_bytes(sq) - 1u;
	uint32_t off = (((uint32_t)wqe_index << OPENGDA_MLX5_SEND_WQE_SHIFT) + seg * OPENGDA_MLX5_SEND_WQE_DS) & mask;

	return (uint8_t *)sq->ring + off;
}

/**
 * @brief Checks that a WQE of @p ds octowords with @p fm_ce_se can be written to @p sq.
 * @return 0, or OPENGDA_MLX5_EINVAL (NULL or misaligned ring, log_wqebbs over 16, qpn over
 *         24 bits, ds 0 or over 63, a WQE larger than the ring, bad fm_ce_se).
 */
OPENGDA_MLX5_FN int opengda_mlx5_sq_check(const struct opengda_mlx5_sq *sq, uint32_t ds, uint8_t fm_ce_se)
{
	if (sq == NULL || sq->ring == NULL || ((uintptr_t)sq->ring % OPENGDA_MLX5_SEND_WQE_DS) != 0u ||
	    sq->log_wqebbs > OPENGDA_MLX5_SQ_MAX_LOG_WQEBBS || sq->qpn > OPENGDA_MLX5_QPN_MASK || ds == 0u ||
	    ds > OPENGDA_MLX5_WQE_MAX_DS || opengda_mlx5_wqebbs_from_ds(ds) > (1u << sq->log_wqebbs) ||
	    !opengda_mlx5_fm_ce_se_valid(fm_ce_se))
		return OPENGDA_MLX5_EINVAL;
	return 0;
}

/** @brief Shared body of the ctrl + raddr + data recipes (RDMA WRITE / WRITE_IMM / READ). */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_rdma_sge(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t opcode,
					      uint8_t fm_ce_se, uint32_t imm, uint64_t raddr, uint32_t rkey,
					      uint64_t laddr, uint32_t lkey, uint32_t len)
{
	const uint8_t ds = 3;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0 || (len & OPENGDA_MLX5_INLINE_SEG) != 0u)
		return OPENGDA_MLX5_EINVAL;
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0), 0,
					  wqe_index, opcode, sq->qpn, ds, fm_ce_se, imm);
	opengda_mlx5_raddr_seg_write((struct opengda_mlx5_wqe_raddr_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 1), raddr,
				     rkey);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2), len,
					  lkey, laddr);
	return ds;
}

/**
 * @brief RDMA WRITE of one local buffer: ctrl + raddr + data, DS 3.
 * @return 3, or OPENGDA_MLX5_EINVAL (see opengda_mlx5_sq_check(); len with bit 31 set).
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_rdma_write(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t laddr,
						uint32_t lkey, uint32_t len)
{
	return opengda_mlx5_wqe_rdma_sge(sq, wqe_index, OPENGDA_MLX5_OPCODE_RDMA_WRITE, fm_ce_se, 0, raddr, rkey,
					 laddr, lkey, len);
}

/** @brief RDMA WRITE with immediate (@p imm in host order): DS 3. @return 3 or OPENGDA_MLX5_EINVAL. */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_rdma_write_imm(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						    uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t laddr,
						    uint32_t lkey, uint32_t len, uint32_t imm)
{
	return opengda_mlx5_wqe_rdma_sge(sq, wqe_index, OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM, fm_ce_se, imm, raddr,
					 rkey, laddr, lkey, len);
}

/** @brief RDMA READ into one local buffer: DS 3. @return 3 or OPENGDA_MLX5_EINVAL. */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_rdma_read(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
					       uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t laddr,
					       uint32_t lkey, uint32_t len)
{
	return opengda_mlx5_wqe_rdma_sge(sq, wqe_index, OPENGDA_MLX5_OPCODE_RDMA_READ, fm_ce_se, 0, raddr, rkey,
					 laddr, lkey, len);
}

/**
 * @brief RDMA WRITE with inline payload: ctrl + raddr + inline.
 *
 * DS = 2 + ceil((4 + len) / 16): 3 for len <= 12, 4 for len <= 28, and so on up to
 * OPENGDA_MLX5_INLINE_MAX_LEN. A WQE longer than one WQEBB that reaches the ring end
 * continues at the ring start.
 * @return The DS count, or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_rdma_write_inline(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						       uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey,
						       const void *data, uint32_t len)
{
	uint32_t ds = 2u + opengda_mlx5_inline_ds(len);
	uint32_t ring_bytes, inl_off;

	if (len > OPENGDA_MLX5_INLINE_MAX_LEN || (data == NULL && len != 0u) ||
	    opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	ring_bytes = opengda_mlx5_sq_bytes(sq);
	inl_off = (uint32_t)((uint8_t *)opengda_mlx5_sq_seg(sq, wqe_index, 2) - (uint8_t *)sq->ring);
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0), 0,
					  wqe_index, OPENGDA_MLX5_OPCODE_RDMA_WRITE, sq->qpn, (uint8_t)ds, fm_ce_se, 0);
	opengda_mlx5_raddr_seg_write((struct opengda_mlx5_wqe_raddr_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 1), raddr,
				     rkey);
	(void)opengda_mlx5_inline_seg_write_ring(sq->ring, ring_bytes, inl_off, data, len);
	return (int)ds;
}

/** @brief Shared body of the ctrl + data recipes (SEND, SEND_IMM, DUMP). */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_ctrl_data(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t opcode,
					       uint8_t fm_ce_se, uint32_t imm, uint64_t laddr, uint32_t lkey,
					       uint32_t len)
{
	const uint8_t ds = 2;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0 || (len & OPENGDA_MLX5_INLINE_SEG) != 0u)
		return OPENGDA_MLX5_EINVAL;
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0), 0,
					  wqe_index, opcode, sq->qpn, ds, fm_ce_se, imm);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 1), len,
					  lkey, laddr);
	return ds;
}

/** @brief SEND of one local buffer: ctrl + data, DS 2. @return 2 or OPENGDA_MLX5_EINVAL. */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_send(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t fm_ce_se,
					  uint64_t laddr, uint32_t lkey, uint32_t len)
{
	return opengda_mlx5_wqe_ctrl_data(sq, wqe_index, OPENGDA_MLX5_OPCODE_SEND, fm_ce_se, 0, laddr, lkey, len);
}

/** @brief SEND with immediate (@p imm in host order): DS 2. @return 2 or OPENGDA_MLX5_EINVAL. */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_send_imm(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
					      uint8_t fm_ce_se, uint64_t laddr, uint32_t lkey, uint32_t len,
					      uint32_t imm)
{
	return opengda_mlx5_wqe_ctrl_data(sq, wqe_index, OPENGDA_MLX5_OPCODE_SEND_IMM, fm_ce_se, imm, laddr, lkey, len);
}

/**
 * @brief DUMP: ctrl + data, DS 2. With fence mode FENCE it is the "flush" WQE NVSHMEM and
 * DOCA post after fetching atomics. @return 2 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_dump(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t fm_ce_se,
					  uint64_t laddr, uint32_t lkey, uint32_t len)
{
	return opengda_mlx5_wqe_ctrl_data(sq, wqe_index, OPENGDA_MLX5_OPCODE_DUMP, fm_ce_se, 0, laddr, lkey, len);
}

/** @brief Writes the ctrl + raddr part shared by the atomic recipes; @p ds already checked. */
OPENGDA_MLX5_FN void opengda_mlx5_wqe_atomic_head(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						  uint8_t opcode, uint8_t opmod, uint8_t ds, uint8_t fm_ce_se,
						  uint64_t raddr, uint32_t rkey)
{
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0),
					  opmod, wqe_index, opcode, sq->qpn, ds, fm_ce_se, 0);
	opengda_mlx5_raddr_seg_write((struct opengda_mlx5_wqe_raddr_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 1), raddr,
				     rkey);
}

/**
 * @brief 8-byte compare-and-swap: ctrl + raddr + atomic + data(8 B result), DS 4.
 * @return 4 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_atomic_cs(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
					       uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t compare,
					       uint64_t swap, uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 4;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_CS, 0, ds, fm_ce_se, raddr, rkey);
	opengda_mlx5_atomic_seg_write_cs((struct opengda_mlx5_wqe_atomic_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2),
					 compare, swap);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 3),
					  OPENGDA_MLX5_ATOMIC_SIZE, lkey, laddr);
	return ds;
}

/**
 * @brief 8-byte fetch-and-add: ctrl + raddr + atomic + data(8 B result), DS 4.
 * @return 4 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_atomic_fa(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
					       uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t add,
					       uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 4;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_FA, 0, ds, fm_ce_se, raddr, rkey);
	opengda_mlx5_atomic_seg_write_fa((struct opengda_mlx5_wqe_atomic_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2),
					 add);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 3),
					  OPENGDA_MLX5_ATOMIC_SIZE, lkey, laddr);
	return ds;
}

/**
 * @brief 4-byte masked compare-and-swap (opmod 0x08): ctrl + raddr + 16 B + data(4 B), DS 4.
 * @return 4 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_masked_cs4(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint32_t compare,
						uint32_t swap, uint32_t compare_mask, uint32_t swap_mask,
						uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 4;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS,
				     OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B, ds, fm_ce_se, raddr, rkey);
	opengda_mlx5_masked_cs4_seg_write(
		(struct opengda_mlx5_wqe_masked_cs4_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2), compare, swap,
		compare_mask, swap_mask);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 3), 4u,
					  lkey, laddr);
	return ds;
}

/**
 * @brief 8-byte masked compare-and-swap (opmod 0x09): ctrl + raddr + 32 B + data(8 B), DS 5,
 * two WQEBBs. The data segment lands in the second WQEBB, which is slot 0 when the WQE
 * starts in the last slot of the ring.
 * @return 5 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_masked_cs8(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t compare,
						uint64_t swap, uint64_t compare_mask, uint64_t swap_mask,
						uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 5;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS,
				     OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B, ds, fm_ce_se, raddr, rkey);
	/* Segments 2-3 end exactly at the end of the first WQEBB, so the 32 bytes never wrap. */
	opengda_mlx5_masked_cs8_seg_write(
		(struct opengda_mlx5_wqe_masked_cs8_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2), compare, swap,
		compare_mask, swap_mask);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 4), 8u,
					  lkey, laddr);
	return ds;
}

/**
 * @brief 4-byte masked fetch-and-add (opmod 0x08): ctrl + raddr + 16 B + data(4 B), DS 4.
 * @return 4 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_masked_fa4(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint32_t add,
						uint32_t field_boundary, uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 4;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA,
				     OPENGDA_MLX5_OPMOD_EXT_ATOMIC_4B, ds, fm_ce_se, raddr, rkey);
	opengda_mlx5_masked_fa4_seg_write(
		(struct opengda_mlx5_wqe_masked_fa4_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2), add, field_boundary);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 3), 4u,
					  lkey, laddr);
	return ds;
}

/**
 * @brief 8-byte masked fetch-and-add (opmod 0x09): ctrl + raddr + 16 B + data(8 B), DS 4.
 * @return 4 or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_masked_fa8(const struct opengda_mlx5_sq *sq, uint16_t wqe_index,
						uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey, uint64_t add,
						uint64_t field_boundary, uint64_t laddr, uint32_t lkey)
{
	const uint8_t ds = 4;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	opengda_mlx5_wqe_atomic_head(sq, wqe_index, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_FA,
				     OPENGDA_MLX5_OPMOD_EXT_ATOMIC_8B, ds, fm_ce_se, raddr, rkey);
	opengda_mlx5_masked_fa8_seg_write(
		(struct opengda_mlx5_wqe_masked_fa8_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 2), add, field_boundary);
	(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 3), 8u,
					  lkey, laddr);
	return ds;
}

/**
 * @brief WAIT until CQ @p cqn reaches index @p max_index: ctrl + wait, DS 2 (opmod CQ_PI).
 * @return 2, or OPENGDA_MLX5_EINVAL (also for a cqn over 24 bits).
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_wait_cq(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t fm_ce_se,
					     uint32_t cqn, uint32_t max_index)
{
	const uint8_t ds = 2;

	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0 || cqn > OPENGDA_MLX5_QPN_MASK)
		return OPENGDA_MLX5_EINVAL;
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0),
					  OPENGDA_MLX5_OPMOD_WAIT_CQ_PI, wqe_index, OPENGDA_MLX5_OPCODE_WAIT, sq->qpn, ds,
					  fm_ce_se, 0);
	(void)opengda_mlx5_wait_cq_seg_write(
		(struct opengda_mlx5_wqe_wait_cq_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 1), cqn, max_index);
	return ds;
}

/**
 * @brief NOP of @p ds octowords (NVSHMEM posts DS 2 with CE always). Only the ctrl segment
 * is written; the NIC ignores the rest of a NOP.
 * @return @p ds, or OPENGDA_MLX5_EINVAL.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_nop(const struct opengda_mlx5_sq *sq, uint16_t wqe_index, uint8_t fm_ce_se,
					 uint8_t ds)
{
	if (opengda_mlx5_sq_check(sq, ds, fm_ce_se) != 0)
		return OPENGDA_MLX5_EINVAL;
	(void)opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)opengda_mlx5_sq_seg(sq, wqe_index, 0), 0,
					  wqe_index, OPENGDA_MLX5_OPCODE_NOP, sq->qpn, ds, fm_ce_se, 0);
	return ds;
}

/* ------------------------------------------------------------------------------------ */
/* Segment accessors (big-endian image in, host order out). */

/** @brief ctrl: opcode (bits [7:0] of the first word). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_opcode(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)opengda_mlx5_be32toh(c->opmod_idx_opcode);
}

/** @brief ctrl: opcode modifier (bits [31:24]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_opmod(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)(opengda_mlx5_be32toh(c->opmod_idx_opcode) >> 24);
}

/** @brief ctrl: WQE index (bits [23:8]). */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_ctrl_wqe_index(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint16_t)(opengda_mlx5_be32toh(c->opmod_idx_opcode) >> 8);
}

/** @brief ctrl: QP number (24 bits). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_ctrl_qpn(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return opengda_mlx5_be32toh(c->qpn_ds) >> 8;
}

/** @brief ctrl: DS, the meaningful 6 bits. */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_ds(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)(opengda_mlx5_be32toh(c->qpn_ds) & OPENGDA_MLX5_WQE_CTRL_DS_MASK);
}

/** @brief ctrl: the whole 8-bit DS byte (bits [7:6] are zero in a well-formed WQE). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_ds_byte(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)opengda_mlx5_be32toh(c->qpn_ds);
}

/** @brief ctrl: fence mode (fm_ce_se [7:5]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_fence(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)(c->fm_ce_se >> OPENGDA_MLX5_FENCE_SHIFT);
}

/** @brief ctrl: completion mode (fm_ce_se [3:2]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_ce(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)((c->fm_ce_se >> OPENGDA_MLX5_CE_SHIFT) & 3u);
}

/** @brief ctrl: solicited event bit (fm_ce_se [1]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_ctrl_se(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return (uint8_t)((c->fm_ce_se >> 1) & 1u);
}

/** @brief ctrl: immediate / invalidation key, host order. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_ctrl_imm(const struct opengda_mlx5_wqe_ctrl_seg *c)
{
	return opengda_mlx5_be32toh(c->imm);
}

/** @brief 1 when the segment starting with @p first_word_be (a big-endian image) is inline data. */
OPENGDA_MLX5_FN int opengda_mlx5_seg_is_inline(uint32_t first_word_be)
{
	return (opengda_mlx5_be32toh(first_word_be) & OPENGDA_MLX5_INLINE_SEG) != 0u;
}

/** @brief Inline segment: payload length (bits [30:0] of the header). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_inline_len(const struct opengda_mlx5_wqe_inl_data_seg *s)
{
	return opengda_mlx5_be32toh(s->byte_count) & ~OPENGDA_MLX5_INLINE_SEG;
}

/** @brief Data segment: byte count. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_data_seg_byte_count(const struct opengda_mlx5_wqe_data_seg *s)
{
	return opengda_mlx5_be32toh(s->byte_count);
}

/** @brief Data segment: local key. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_data_seg_lkey(const struct opengda_mlx5_wqe_data_seg *s)
{
	return opengda_mlx5_be32toh(s->lkey);
}

/** @brief Data segment: local address. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_data_seg_addr(const struct opengda_mlx5_wqe_data_seg *s)
{
	return opengda_mlx5_be64toh(s->addr);
}

/** @brief Remote address segment: remote address. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_raddr_seg_raddr(const struct opengda_mlx5_wqe_raddr_seg *s)
{
	return opengda_mlx5_be64toh(s->raddr);
}

/** @brief Remote address segment: remote key. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_raddr_seg_rkey(const struct opengda_mlx5_wqe_raddr_seg *s)
{
	return opengda_mlx5_be32toh(s->rkey);
}

/** @brief Atomic segment: swap value (CS) or addend (FA). */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_atomic_seg_swap_add(const struct opengda_mlx5_wqe_atomic_seg *s)
{
	return opengda_mlx5_be64toh(s->swap_add);
}

/** @brief Atomic segment: compare value. */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_atomic_seg_compare(const struct opengda_mlx5_wqe_atomic_seg *s)
{
	return opengda_mlx5_be64toh(s->compare);
}

/** @brief Wait-on-CQ segment: CQ index waited for. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_wait_cq_seg_max_index(const struct opengda_mlx5_wqe_wait_cq_seg *s)
{
	return opengda_mlx5_be32toh(s->max_index);
}

/** @brief Wait-on-CQ segment: CQ number (24 bits). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_wait_cq_seg_cqn(const struct opengda_mlx5_wqe_wait_cq_seg *s)
{
	return opengda_mlx5_be32toh(s->qpn_cqn) & OPENGDA_MLX5_QPN_MASK;
}

/* ------------------------------------------------------------------------------------ */
/* CQEs. */

/** @brief CQE opcode from an op_own byte. */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_op_own_opcode(uint8_t op_own)
{
	return (uint8_t)(op_own >> OPENGDA_MLX5_CQE_OPCODE_SHIFT);
}

/** @brief CQE: opcode (op_own [7:4]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_opcode(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_op_own_opcode(cqe->op_own);
}

/** @brief CQE: format (op_own [3:2]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_format(const struct opengda_mlx5_cqe64 *cqe)
{
	return (uint8_t)((cqe->op_own & OPENGDA_MLX5_CQE_FORMAT_MASK) >> OPENGDA_MLX5_CQE_FORMAT_SHIFT);
}

/** @brief CQE: solicited event bit (op_own [1]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_se(const struct opengda_mlx5_cqe64 *cqe)
{
	return (uint8_t)((cqe->op_own & OPENGDA_MLX5_CQE_SE_MASK) >> 1);
}

/** @brief CQE: owner bit (op_own [0]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_owner(const struct opengda_mlx5_cqe64 *cqe)
{
	return (uint8_t)(cqe->op_own & OPENGDA_MLX5_CQE_OWNER_MASK);
}

/** @brief CQE: WQE counter (requester: index of the completed WQE; responder: RQ WQE index). */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_cqe_wqe_counter(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be16toh(cqe->wqe_counter);
}

/** @brief CQE: byte count. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cqe_byte_cnt(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be32toh(cqe->byte_cnt);
}

/** @brief CQE: QP number (sop_drop_qpn [23:0]; same bits in the error view). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cqe_qpn(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be32toh(cqe->sop_drop_qpn) & OPENGDA_MLX5_QPN_MASK;
}

/** @brief CQE: opcode of the completed (or failed) send WQE (sop_drop_qpn [31:24]). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_wqe_opcode(const struct opengda_mlx5_cqe64 *cqe)
{
	return (uint8_t)(opengda_mlx5_be32toh(cqe->sop_drop_qpn) >> 24);
}

/** @brief CQE: user index (srqn_uidx [23:0]). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cqe_user_index(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be32toh(cqe->srqn_uidx) & OPENGDA_MLX5_QPN_MASK;
}

/** @brief CQE: immediate data (or invalidated rkey), host order. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cqe_imm(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be32toh(cqe->imm_inval_pkey);
}

/** @brief CQE: time stamp (not meaningful in an error CQE). */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_cqe_timestamp(const struct opengda_mlx5_cqe64 *cqe)
{
	return opengda_mlx5_be64toh(cqe->timestamp);
}

/** @brief 1 when the CQE is an error CQE (REQ_ERR or RESP_ERR). */
OPENGDA_MLX5_FN int opengda_mlx5_cqe_is_error(const struct opengda_mlx5_cqe64 *cqe)
{
	uint8_t op = opengda_mlx5_cqe_opcode(cqe);

	return op == (uint8_t)OPENGDA_MLX5_CQE_REQ_ERR || op == (uint8_t)OPENGDA_MLX5_CQE_RESP_ERR;
}

/** @brief Error CQE: syndrome (byte 55). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_syndrome(const struct opengda_mlx5_cqe64 *cqe)
{
	return ((const uint8_t *)cqe)[OPENGDA_MLX5_ERR_CQE_SYNDROME];
}

/** @brief Error CQE: vendor syndrome (byte 54). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_vendor_syndrome(const struct opengda_mlx5_cqe64 *cqe)
{
	return ((const uint8_t *)cqe)[OPENGDA_MLX5_ERR_CQE_VENDOR_ERR_SYND];
}

/** @brief Error CQE: hardware error syndrome (byte 52). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_hw_syndrome(const struct opengda_mlx5_cqe64 *cqe)
{
	return ((const uint8_t *)cqe)[OPENGDA_MLX5_ERR_CQE_HW_ERR_SYND];
}

/** @brief Error CQE: hardware syndrome type (byte 53). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_hw_syndrome_type(const struct opengda_mlx5_cqe64 *cqe)
{
	return ((const uint8_t *)cqe)[OPENGDA_MLX5_ERR_CQE_HW_SYND_TYPE];
}

/** @brief Owner bit a valid CQE has for SW consumer index @p ci: (ci >> log_cq_size) & 1. */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_owner_expected(uint32_t ci, uint32_t log_cq_size)
{
	return (uint8_t)((ci >> log_cq_size) & 1u);
}

/** @brief Owner bit the NIC writes into the CQE for its producer index @p pi (0 on the first pass). */
OPENGDA_MLX5_FN uint8_t opengda_mlx5_cqe_hw_owner(uint32_t pi, uint32_t log_cq_size)
{
	return (uint8_t)((pi >> log_cq_size) & 1u);
}

/** @brief Validity test on an op_own byte: opcode != INVALID and owner == expected for @p ci. */
OPENGDA_MLX5_FN int opengda_mlx5_op_own_is_sw_owned(uint8_t op_own, uint32_t ci, uint32_t log_cq_size)
{
	return opengda_mlx5_op_own_opcode(op_own) != (uint8_t)OPENGDA_MLX5_CQE_INVALID &&
	       (op_own & OPENGDA_MLX5_CQE_OWNER_MASK) == opengda_mlx5_cqe_owner_expected(ci, log_cq_size);
}

/**
 * @brief 1 when CQ entry @p cqe (the entry for consumer index @p ci) holds a new CQE.
 *
 * Reads op_own once through a volatile access. No barrier: after a 1, issue a read
 * barrier (host: acquire fence; GPU: fence.acquire or __threadfence) before reading the
 * other fields (reference/mlx5.md B.7).
 */
OPENGDA_MLX5_FN int opengda_mlx5_cqe_is_sw_owned(const struct opengda_mlx5_cqe64 *cqe, uint32_t ci,
						 uint32_t log_cq_size)
{
	uint8_t op_own = *(const volatile uint8_t *)&cqe->op_own;

	return opengda_mlx5_op_own_is_sw_owned(op_own, ci, log_cq_size);
}

/**
 * @brief Address of the CQ entry for index @p ci (64-byte entries).
 * @return NULL for a NULL @p cq or a @p log_cq_size over 24.
 */
OPENGDA_MLX5_FN struct opengda_mlx5_cqe64 *opengda_mlx5_cq_entry(void *cq, uint32_t log_cq_size, uint32_t ci)
{
	if (cq == NULL || log_cq_size > OPENGDA_MLX5_CQ_MAX_LOG_SIZE)
		return NULL;
	return (struct opengda_mlx5_cqe64 *)cq + (ci & ((1u << log_cq_size) - 1u));
}

/**
 * @brief Initialises a CQ of 2^@p log_cq_size entries: zero bytes, op_own = OPENGDA_MLX5_CQE_OP_OWN_INIT.
 * @return 0, or OPENGDA_MLX5_EINVAL for a NULL @p cq or a @p log_cq_size over 24.
 */
OPENGDA_MLX5_FN int opengda_mlx5_cq_init(void *cq, uint32_t log_cq_size)
{
	uint8_t *p = (uint8_t *)cq;
	uint32_t n, i, b;

	if (cq == NULL || log_cq_size > OPENGDA_MLX5_CQ_MAX_LOG_SIZE)
		return OPENGDA_MLX5_EINVAL;
	n = 1u << log_cq_size;
	for (i = 0; i < n; i++, p += sizeof(struct opengda_mlx5_cqe64)) {
		for (b = 0; b < sizeof(struct opengda_mlx5_cqe64) - 1u; b++)
			p[b] = 0;
		p[sizeof(struct opengda_mlx5_cqe64) - 1u] = (uint8_t)OPENGDA_MLX5_CQE_OP_OWN_INIT;
	}
	return 0;
}

/** @brief Every field of a CQE in host order: input of opengda_mlx5_cqe_write(), output of opengda_mlx5_cqe_read(). */
struct opengda_mlx5_cqe_fields {
	uint8_t opcode;          /**< opengda_mlx5_cqe_opcode value (not INVALID). */
	uint8_t wqe_opcode;      /**< Opcode of the completed send WQE (requester), else 0. */
	uint8_t se;              /**< Solicited event bit. */
	uint8_t syndrome;        /**< Error CQEs only. */
	uint8_t vendor_syndrome; /**< Error CQEs only. */
	uint8_t hw_syndrome;     /**< Error CQEs only. */
	uint8_t hw_syndrome_type; /**< Error CQEs only. */
	uint16_t wqe_counter;    /**< WQE index. */
	uint32_t qpn;            /**< QP number, 24 bits. */
	uint32_t user_index;     /**< User index, 24 bits. */
	uint32_t byte_cnt;       /**< Byte count (not in error CQEs). */
	uint32_t imm;            /**< Immediate data (not in error CQEs). */
	uint64_t timestamp;      /**< Time stamp (not in error CQEs). */
	/**
	 * Responder scatter-to-CQE: @p inline_len (1..32) payload bytes at @p inline_data go to bytes
	 * 0-31 of the CQE, with OPENGDA_MLX5_CQE_INLINE_SCATTER_32 in op_own. 0: none.
	 */
	const uint8_t *inline_data;
	uint8_t inline_len;
};

/** @brief Stores @p op_own after every earlier store of this thread becomes visible. */
OPENGDA_MLX5_FN void opengda_mlx5_cqe_publish_op_own(struct opengda_mlx5_cqe64 *cqe, uint8_t op_own)
{
#if defined(__CUDA_ARCH__)
	__threadfence_system();
	*(volatile uint8_t *)&cqe->op_own = op_own;
#elif defined(__GNUC__) || defined(__clang__)
	__atomic_store_n(&cqe->op_own, op_own, __ATOMIC_RELEASE);
#else
#error "opengda_mlx5.h needs GCC/Clang atomics or CUDA for the CQE release store"
#endif
}

/**
 * @brief Writes a whole CQE as the NIC does, op_own last (release ordering).
 *
 * Bytes 0-31 are written 0. For REQ_ERR and RESP_ERR the error layout is used: bytes 36-51
 * are 0 and bytes 52-55 carry hw_syndrome, hw_syndrome_type, vendor_syndrome, syndrome;
 * otherwise imm, byte_cnt and timestamp are written and the syndrome fields ignored.
 * @param owner  Owner bit, normally opengda_mlx5_cqe_hw_owner(pi, log_cq_size).
 * @return 0, or OPENGDA_MLX5_EINVAL (NULL arguments, opcode over 14, owner over 1, qpn or
 *         user_index over 24 bits).
 */
OPENGDA_MLX5_FN int opengda_mlx5_cqe_write(struct opengda_mlx5_cqe64 *cqe, const struct opengda_mlx5_cqe_fields *f,
					   uint8_t owner)
{
	uint8_t *p = (uint8_t *)cqe;
	uint32_t i;
	int err;

	if (cqe == NULL || f == NULL || f->opcode >= (uint8_t)OPENGDA_MLX5_CQE_INVALID || owner > 1u ||
	    f->qpn > OPENGDA_MLX5_QPN_MASK || f->user_index > OPENGDA_MLX5_QPN_MASK)
		return OPENGDA_MLX5_EINVAL;
	if (f->inline_len > sizeof(cqe->resp_info) || (f->inline_len != 0 && f->inline_data == NULL))
		return OPENGDA_MLX5_EINVAL;
	err = f->opcode == (uint8_t)OPENGDA_MLX5_CQE_REQ_ERR || f->opcode == (uint8_t)OPENGDA_MLX5_CQE_RESP_ERR;
	for (i = 0; i < sizeof(cqe->resp_info); i++)
		cqe->resp_info[i] = !err && i < f->inline_len ? f->inline_data[i] : 0;
	cqe->srqn_uidx = opengda_mlx5_htobe32(f->user_index);
	cqe->app = 0;
	cqe->app_op = 0;
	cqe->app_info = 0;
	if (err) {
		cqe->imm_inval_pkey = 0;
		cqe->byte_cnt = 0;
		for (i = 48; i < OPENGDA_MLX5_ERR_CQE_HW_ERR_SYND; i++)
			p[i] = 0;
		p[OPENGDA_MLX5_ERR_CQE_HW_ERR_SYND] = f->hw_syndrome;
		p[OPENGDA_MLX5_ERR_CQE_HW_SYND_TYPE] = f->hw_syndrome_type;
		p[OPENGDA_MLX5_ERR_CQE_VENDOR_ERR_SYND] = f->vendor_syndrome;
		p[OPENGDA_MLX5_ERR_CQE_SYNDROME] = f->syndrome;
	} else {
		cqe->imm_inval_pkey = opengda_mlx5_htobe32(f->imm);
		cqe->byte_cnt = opengda_mlx5_htobe32(f->byte_cnt);
		cqe->timestamp = opengda_mlx5_htobe64(f->timestamp);
	}
	cqe->sop_drop_qpn = opengda_mlx5_htobe32(((uint32_t)f->wqe_opcode << 24) | f->qpn);
	cqe->wqe_counter = opengda_mlx5_htobe16(f->wqe_counter);
	cqe->signature = 0;
	opengda_mlx5_cqe_publish_op_own(cqe, (uint8_t)((f->opcode << OPENGDA_MLX5_CQE_OPCODE_SHIFT) |
						       (!err && f->inline_len != 0 ? OPENGDA_MLX5_CQE_INLINE_SCATTER_32 : 0u) |
						       (f->se ? OPENGDA_MLX5_CQE_SE_MASK : 0u) | owner));
	return 0;
}

/**
 * @brief Reads every field of a CQE (error fields for error CQEs, the others otherwise; the
 * fields that do not apply are returned 0). No ownership check, no barrier.
 */
OPENGDA_MLX5_FN void opengda_mlx5_cqe_read(const struct opengda_mlx5_cqe64 *cqe, struct opengda_mlx5_cqe_fields *f)
{
	int err = opengda_mlx5_cqe_is_error(cqe);

	f->opcode = opengda_mlx5_cqe_opcode(cqe);
	f->wqe_opcode = opengda_mlx5_cqe_wqe_opcode(cqe);
	f->se = opengda_mlx5_cqe_se(cqe);
	f->wqe_counter = opengda_mlx5_cqe_wqe_counter(cqe);
	f->qpn = opengda_mlx5_cqe_qpn(cqe);
	f->user_index = opengda_mlx5_cqe_user_index(cqe);
	f->syndrome = err ? opengda_mlx5_cqe_syndrome(cqe) : (uint8_t)0;
	f->vendor_syndrome = err ? opengda_mlx5_cqe_vendor_syndrome(cqe) : (uint8_t)0;
	f->hw_syndrome = err ? opengda_mlx5_cqe_hw_syndrome(cqe) : (uint8_t)0;
	f->hw_syndrome_type = err ? opengda_mlx5_cqe_hw_syndrome_type(cqe) : (uint8_t)0;
	f->byte_cnt = err ? 0u : opengda_mlx5_cqe_byte_cnt(cqe);
	f->imm = err ? 0u : opengda_mlx5_cqe_imm(cqe);
	f->timestamp = err ? 0u : opengda_mlx5_cqe_timestamp(cqe);
	f->inline_len = 0;
	f->inline_data = NULL;
	if (!err && (cqe->op_own & OPENGDA_MLX5_CQE_INLINE_SCATTER_32)) {
		f->inline_len = (uint8_t)(f->byte_cnt < sizeof(cqe->resp_info) ? f->byte_cnt : sizeof(cqe->resp_info));
		f->inline_data = cqe->resp_info;
	}
}

/* ------------------------------------------------------------------------------------ */
/* Producer and consumer counters. */

/** @brief SQ producer counter after posting a WQE of @p ds octowords at @p pi (16-bit wrap). */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_sq_pi_advance(uint16_t pi, uint32_t ds)
{
	return (uint16_t)(pi + opengda_mlx5_wqebbs_from_ds(ds));
}

/** @brief WQEBBs from counter @p from to counter @p to, modulo 2^16. */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_wqe_counter_distance(uint16_t from, uint16_t to)
{
	return (uint16_t)(to - from);
}

/**
 * @brief 1 when a CQE with @p cqe_wqe_counter retires the WQE at @p wqe_index.
 *
 * One CQE retires its own WQE and every earlier one (completion coalescing). Positions are
 * compared relative to @p oldest, the index of the oldest outstanding WQE, so the test
 * holds across the 16-bit wrap as long as fewer than 2^16 WQEBBs are outstanding.
 */
OPENGDA_MLX5_FN int opengda_mlx5_wqe_index_retired(uint16_t cqe_wqe_counter, uint16_t wqe_index, uint16_t oldest)
{
	return opengda_mlx5_wqe_counter_distance(oldest, wqe_index) <=
	       opengda_mlx5_wqe_counter_distance(oldest, cqe_wqe_counter);
}

/** @brief Next CQ consumer index, kept to 24 bits. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_ci_next(uint32_t ci)
{
	return (ci + 1u) & OPENGDA_MLX5_CQ_CI_MASK;
}

/* ------------------------------------------------------------------------------------ */
/* Doorbell records and UAR doorbells. */

/** @brief Big-endian image of a QP DBR word: producer counter & 0xffff (word OPENGDA_MLX5_SND_DBR or RCV_DBR). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_qp_dbr_value(uint32_t pi)
{
	return opengda_mlx5_htobe32(pi & OPENGDA_MLX5_QP_DBR_MASK);
}

/** @brief Big-endian image of CQ DBR word OPENGDA_MLX5_CQ_SET_CI: ci & 0xffffff. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_dbr_set_ci_value(uint32_t ci)
{
	return opengda_mlx5_htobe32(ci & OPENGDA_MLX5_CQ_CI_MASK);
}

/** @brief Host-order arm word: (sn & 3) << 28 | cmd | ci & 0xffffff. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_arm_word(uint32_t sn, int solicited, uint32_t ci)
{
	return ((sn & 3u) << 28) | (solicited ? OPENGDA_MLX5_CQ_DB_REQ_NOT_SOL : OPENGDA_MLX5_CQ_DB_REQ_NOT) |
	       (ci & OPENGDA_MLX5_CQ_CI_MASK);
}

/** @brief Big-endian image of CQ DBR word OPENGDA_MLX5_CQ_ARM_DB (write it before the UAR doorbell). */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_dbr_arm_value(uint32_t sn, int solicited, uint32_t ci)
{
	return opengda_mlx5_htobe32(opengda_mlx5_cq_arm_word(sn, solicited, ci));
}

/**
 * @brief 8-byte CQ arm doorbell for UAR + 0x20: memory image BE32(arm word), BE32(cqn).
 *
 * Store the returned value with one 64-bit write; its bytes in memory are
 * big-endian ((arm word << 32) | cqn).
 */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_cq_uar_arm_value(uint32_t sn, int solicited, uint32_t ci, uint32_t cqn)
{
	return opengda_mlx5_pack_words(opengda_mlx5_cq_dbr_arm_value(sn, solicited, ci),
				       opengda_mlx5_htobe32(cqn & OPENGDA_MLX5_QPN_MASK));
}

/** @brief From an 8-byte CQ arm doorbell as stored: the host-order arm word. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_uar_arm_word(uint64_t db)
{
	return opengda_mlx5_be32toh(opengda_mlx5_first_word(db));
}

/** @brief From an 8-byte CQ arm doorbell as stored: the CQ number. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_cq_uar_arm_cqn(uint64_t db)
{
	return opengda_mlx5_be32toh(opengda_mlx5_second_word(db)) & OPENGDA_MLX5_QPN_MASK;
}

/**
 * @brief 8-byte QP doorbell as NVSHMEM and DOCA ring it: {BE32(pi << 8), BE32(qpn << 8)}.
 *
 * The NIC inspects only these first 8 bytes of a ctrl segment (WQE index + QPN); opcode
 * and DS are 0. @p pi is the producer counter after the posted WQEs (the next free WQEBB),
 * the same value written to the SQ DBR.
 */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_qp_uar_db_value(uint16_t pi, uint32_t qpn)
{
	return opengda_mlx5_pack_words(opengda_mlx5_htobe32((uint32_t)pi << 8),
				       opengda_mlx5_htobe32((qpn & OPENGDA_MLX5_QPN_MASK) << 8));
}

/**
 * @brief 8-byte QP doorbell as rdma-core rings it: the first 8 bytes of the last WQE's ctrl
 * segment (its WQE index is that WQE's first WQEBB, not the next free one).
 */
OPENGDA_MLX5_FN uint64_t opengda_mlx5_qp_uar_db_from_ctrl(const struct opengda_mlx5_wqe_ctrl_seg *ctrl)
{
	return opengda_mlx5_pack_words(ctrl->opmod_idx_opcode, ctrl->qpn_ds);
}

/** @brief From an 8-byte QP doorbell as stored: the WQE index (bits [23:8] of the first word). */
OPENGDA_MLX5_FN uint16_t opengda_mlx5_qp_uar_db_wqe_index(uint64_t db)
{
	return (uint16_t)(opengda_mlx5_be32toh(opengda_mlx5_first_word(db)) >> 8);
}

/** @brief From an 8-byte QP doorbell as stored: the QP number. */
OPENGDA_MLX5_FN uint32_t opengda_mlx5_qp_uar_db_qpn(uint64_t db)
{
	return opengda_mlx5_be32toh(opengda_mlx5_second_word(db)) >> 8;
}

/**
 * @brief Offset in the UAR page of half @p half of BlueFlame register @p k:
 * 0x800 + k * bf_reg_size + half * bf_reg_size / 2. Doorbells alternate halves (half ^= 1
 * after every ring, plain doorbells included).
 * @param bf_reg_size  Register size (1 << log_bf_reg_size): a power of two, at least 2.
 * @return The offset, or OPENGDA_MLX5_EINVAL (half over 1, bad size, or past the page end).
 */
OPENGDA_MLX5_FN int opengda_mlx5_uar_bf_offset(uint32_t k, uint32_t bf_reg_size, uint32_t half)
{
	uint64_t off;

	if (half > 1u || bf_reg_size < 2u || (bf_reg_size & (bf_reg_size - 1u)) != 0u)
		return OPENGDA_MLX5_EINVAL;
	off = OPENGDA_MLX5_UAR_BF_OFFSET + (uint64_t)k * bf_reg_size + (uint64_t)half * (bf_reg_size / 2u);
	if (off + bf_reg_size / 2u > OPENGDA_MLX5_UAR_PAGE_SIZE)
		return OPENGDA_MLX5_EINVAL;
	return (int)off;
}

#endif /* OPENGDA_MLX5_H_ */
