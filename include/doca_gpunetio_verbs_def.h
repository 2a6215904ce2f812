/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_verbs_def.h
 * @brief Constants and enumerations shared by the GPUNetIO host API and the device data path.
 *
 * Names and values are those of DOCA GPUNetIO, so host and device code written for DOCA compiles
 * unchanged; additions carry the `OPENGDA_` prefix (one exception: the BLOCK execution scope, which
 * DOCA lacks, extends DOCA's own enumeration). Plain C11 and CUDA.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_VERBS_DEF_H
#define DOCA_GPUNETIO_VERBS_DEF_H

#include <limits.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @name Version of this API (major << 16 | minor << 8 | patch), as DOCA encodes it. */
/** @{ */
#define DOCA_GPUNETIO_VERSION_MAJOR 2
#define DOCA_GPUNETIO_VERSION_MINOR 0
#define DOCA_GPUNETIO_VERSION_PATCH 1
#define DOCA_GPUNETIO_VERSION_MAJOR_SHIFT 16
#define DOCA_GPUNETIO_VERSION_MINOR_SHIFT 8
#define DOCA_GPUNETIO_VERSION_PATCH_SHIFT 0
#define DOCA_GPUNETIO_MAKE_VERSION(major, minor, patch)                                                   \
	(((uint32_t)(major) << DOCA_GPUNETIO_VERSION_MAJOR_SHIFT) |                                       \
	 ((uint32_t)(minor) << DOCA_GPUNETIO_VERSION_MINOR_SHIFT) |                                       \
	 ((uint32_t)(patch) << DOCA_GPUNETIO_VERSION_PATCH_SHIFT))
#define DOCA_GPUNETIO_VERSION                                                                             \
	DOCA_GPUNETIO_MAKE_VERSION(DOCA_GPUNETIO_VERSION_MAJOR, DOCA_GPUNETIO_VERSION_MINOR,              \
				   DOCA_GPUNETIO_VERSION_PATCH)
/** Version of the device headers a kernel was compiled with (pass it to the host check). */
#define DOCA_GPUNETIO_DEVICE_CODE_VERSION DOCA_GPUNETIO_VERSION
/** Version of the host headers an application was compiled with. */
#define DOCA_GPUNETIO_HOST_CODE_VERSION DOCA_GPUNETIO_VERSION
/** Oldest device-code version the library accepts: the device struct layout is from 2.0.0. */
#define DOCA_GPUNETIO_MIN_COMPAT_DEVICE_CODE_VERSION DOCA_GPUNETIO_MAKE_VERSION(2, 0, 0)
/** Oldest host-code version the library accepts. */
#define DOCA_GPUNETIO_MIN_COMPAT_HOST_CODE_VERSION DOCA_GPUNETIO_MAKE_VERSION(2, 0, 0)
/** @} */

#define DOCA_GPUNETIO_VERBS_WARP_SIZE 32             /**< Threads per warp. */
#define DOCA_GPUNETIO_VERBS_WARP_FULL_MASK 0xffffffffu /**< All lanes of a warp. */
#define DOCA_GPUNETIO_VERBS_PAGE_SIZE 65536          /**< GPU page size: alignment of GPU queue memory. */
#define DOCA_GPUNETIO_VERBS_CQE_CI_MASK 0xFFFFFF     /**< The CQ consumer index is 24 bits. */
#define DOCA_GPUNETIO_VERBS_WQE_PI_MASK 0xFFFF       /**< The SQ producer index is 16 bits. */
#define DOCA_GPUNETIO_IB_MLX5_WQE_SQ_SHIFT 6         /**< log2 of the 64-byte WQE building block. */
/** Memory keys are passed to the device functions already big-endian (htobe32(mr->lkey)). */
#define DOCA_GPUNETIO_VERBS_MKEY_SWAPPED 1
#define DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE 28       /**< Inline bytes that fit one 64-byte WQE. */
#define DOCA_GPUNETIO_VERBS_MLX5_CQE_OPCODE_SHIFT 4  /**< CQE opcode position in op_own. */
#define DOCA_GPUNETIO_VERBS_CQE_SIZE 64              /**< Bytes per CQE. */
#define DOCA_GPUNETIO_VERBS_WQE_IDX_SHIFT 8          /**< WQE index position in opmod_idx_opcode. */
#define DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT 30
/** Largest message one WQE carries (1 GiB); put/get split larger transfers. */
#define DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE (1ULL << DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT)
#define DOCA_GPUNETIO_4_BYTE_ATOMIC_EXT_OPMOD 0x08000000u /**< opmod of a 4-byte masked atomic. */
#define DOCA_GPUNETIO_8_BYTE_ATOMIC_EXT_OPMOD 0x09000000u /**< opmod of an 8-byte masked atomic. */

/** mlx5 send opcodes (ctrl segment, bits 7:0 of opmod_idx_opcode). */
enum {
	DOCA_GPUNETIO_IB_MLX5_OPCODE_NOP = 0x00,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND_INVAL = 0x01,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE = 0x08,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_WRITE_IMM = 0x09,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND = 0x0a,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_SEND_IMM = 0x0b,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_TSO = 0x0e,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_WAIT = 0x0f,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_RDMA_READ = 0x10,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_CS = 0x11,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_FA = 0x12,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_CS = 0x14,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_ATOMIC_MASKED_FA = 0x15,
	DOCA_GPUNETIO_IB_MLX5_OPCODE_DUMP = 0x23,
};

/** Completion-event modes (CE field of fm_ce_se). */
enum {
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ON_CQE_ERROR = 0x0,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ON_FIRST_CQE_ERROR = 0x1,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ALWAYS = 0x2,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_AND_EQE = 0x3,
};

/** Fence modes (FM field of fm_ce_se). */
enum {
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_NO_FENCE = 0x0,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_INITIATOR_SMALL_FENCE = 0x1,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_FENCE = 0x2,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_STRONG_ORDERING = 0x3,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_FENCE_AND_INITIATOR_SMALL_FENCE = 0x4,
};

/** fm_ce_se byte values for the WQE builders' ctrl_flags argument. */
enum doca_gpu_dev_verbs_wqe_ctrl_flags {
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ALWAYS << 2,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_ERROR_UPDATE = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ON_CQE_ERROR << 2,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_FIRST_CQE_ERROR = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ON_FIRST_CQE_ERROR
							    << 2,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_SOLICITED = 1 << 1,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FENCE = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_FENCE << 5,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_INITIATOR_SMALL_FENCE
							       << 5,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_STRONG_ORDERING = DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_STRONG_ORDERING << 5,
	DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CQ_UPDATE_FENCE =
		DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_CE_CQE_ALWAYS << 2 | DOCA_GPUNETIO_IB_MLX5_WQE_CTRL_FM_FENCE << 5,
};

/** Words of a QP doorbell record. */
enum {
	DOCA_GPUNETIO_IB_MLX5_RCV_DBR = 0,
	DOCA_GPUNETIO_IB_MLX5_SND_DBR = 1,
};

/** Where a queue resource lives. */
enum doca_gpu_dev_verbs_mem_type {
	DOCA_GPUNETIO_VERBS_MEM_TYPE_AUTO = 0, /**< Let the library choose. */
	DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST = 1, /**< Host memory (mapped for the GPU when a GPU runs the code). */
	DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU = 2,  /**< GPU memory. */
	DOCA_GPUNETIO_VERBS_MEM_TYPE_MAX = INT_MAX,
};

/** How the send doorbell record is kept. */
enum doca_gpu_verbs_send_dbr_mode_ext {
	DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_VALID_DBR = 0,         /**< Write the record, then ring. */
	DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_HW = 1,         /**< The NIC needs no record (DBR-less QP). */
	DOCA_GPUNETIO_VERBS_SEND_DBR_MODE_EXT_NO_DBR_SW_EMULATED = 2, /**< The GPU rings; a CPU thread keeps the record. */
};

/** Queue of a QP a device operation uses. */
enum doca_gpu_dev_verbs_qp_type {
	DOCA_GPUNETIO_VERBS_QP_SQ = 0, /**< The send queue. */
	DOCA_GPUNETIO_VERBS_QP_RQ = 1, /**< The receive queue (two-sided receives posted by device code). */
};

/** log2 of a send WQE building block (64 bytes). */
#define DOCA_GPUNETIO_MLX5_WQE_SQ_SHIFT 6
/** log2 of a receive WQE as device code posts it: one 16-byte data segment. */
#define DOCA_GPUNETIO_MLX5_WQE_RQ_SHIFT 4
/** CQE op_own bit: the responder scattered up to 32 payload bytes into the CQE (bytes 0-31). */
#define DOCA_GPUNETIO_MLX5_INLINE_SCATTER_32 0x4
/** CQE op_own bit: up to 64 payload bytes in the 64 bytes before the CQE (128-byte CQEs only). */
#define DOCA_GPUNETIO_MLX5_INLINE_SCATTER_64 0x8

/**
 * Which threads cooperate in one call. BLOCK is an OpenGDA addition: every thread of the CTA
 * calls the function together and the block posts with one reservation and one doorbell.
 */
enum doca_gpu_dev_verbs_exec_scope {
	DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD = 0, /**< Each calling thread posts its own operation. */
	DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP = 1,   /**< The 32 lanes of a warp call together. */
	DOCA_GPUNETIO_VERBS_EXEC_SCOPE_BLOCK = 2,  /**< All threads of a block call together. */
};

/** Scope of a memory fence. */
enum doca_gpu_dev_verbs_sync_scope {
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS = 0,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU = 1,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA = 2,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_THREAD = 3, /**< No fence. */
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_MAX = INT_MAX,
};

/** Which threads may use one QP concurrently. */
enum doca_gpu_dev_verbs_resource_sharing_mode {
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE = 0, /**< One thread (or one warp/block call) at a time. */
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA = 1,       /**< Threads of one CTA. */
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU = 2,       /**< Any thread of the GPU. */
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_MAX = INT_MAX,
};

/** Bits of the NIC handler values. */
enum {
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_CPU_PROXY = 1 << 0,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_GPU_SM = 1 << 1,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_BF = 1 << 2,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_NO_DBR = 1 << 3,
};

/** Who rings the NIC's doorbell. */
enum doca_gpu_dev_verbs_nic_handler {
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO = 0, /**< Device code reads the QP's handler at run time. */
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY = DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_CPU_PROXY,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB = DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_GPU_SM,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF =
		DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_GPU_SM | DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_BF,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR =
		DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_GPU_SM | DOCA_GPUNETIO_VERBS_NIC_HANDLER_FLAG_NO_DBR,
};

/** Code-path options for device calls; combine with bitwise or. */
enum doca_gpu_dev_verbs_gpu_code_opt {
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT = 0,
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE = 1 << 0, /**< st.async release doorbell (sm_100+). */
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_AVAILABILITY_CHECK = 1 << 1, /**< Do not wait for ring space. */
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_SKIP_DB_RINGING = 1 << 2,  /**< Publish, but leave the doorbell to a later call. */
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_CPU_PROXY_UPDATE_PI = 1 << 3, /**< Proxy mode: also advance sq_wqe_pi. */
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_MAX = INT_MAX,
};

/** Signal operations of put_signal / signal. */
enum doca_gpu_dev_verbs_signal_op {
	DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD = 0,
};

/** Blocking behaviour of get. */
enum doca_gpu_dev_verbs_blocking_mode {
	DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED = 0,
	DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED = 1,
};

/**
 * Memory-consistency fence ("MCST") after reads. ENABLED appends a DUMP WQE after the reads so
 * their data is visible in GPU memory once the DUMP's completion is seen (what DOCA's code does;
 * its header comments have the two values the other way round); DISABLED posts no DUMP and
 * trusts the platform's ordering (GPUDirect RDMA writes ordering).
 */
enum doca_gpu_dev_verbs_mcst_mode {
	DOCA_GPUNETIO_VERBS_MCST_DISABLED = 0,
	DOCA_GPUNETIO_VERBS_MCST_ENABLED = 1,
};

/** DUMP behaviour for callers that choose it per call. */
enum doca_gpu_dev_verbs_dump_mode {
	DOCA_GPUNETIO_VERBS_DUMP = 0,
	DOCA_GPUNETIO_VERBS_NODUMP = 1,
	DOCA_GPUNETIO_VERBS_DUMP_AUTO = 2,
};

/** Operand size of the masked (extended) atomics. */
enum doca_gpu_dev_verbs_atomic_ext_bytes {
	DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_4 = 4,
	DOCA_GPUNETIO_VERBS_ATOMIC_EXT_BYTES_8 = 8,
};

/**
 * How mark_wqes_ready publishes. Accepted for compatibility: OpenGDA records readiness per slot
 * and never makes a thread wait for another thread's slots, so every mode behaves the same.
 */
enum doca_gpu_dev_verbs_qp_ready_mode {
	DOCA_GPUNETIO_VERBS_READY_MODE_DEFAULT = 0,
	DOCA_GPUNETIO_VERBS_READY_MODE_ATOMIC_CAS = 1,
	DOCA_GPUNETIO_VERBS_READY_MODE_LD_ST = 2,
};

/** Counts of 16-byte segments of the fixed-size WQEs. */
enum {
	DOCA_GPUNETIO_VERBS_WQE_SEG_CNT_RDMA_WRITE_INL_MIN = 3,
	DOCA_GPUNETIO_VERBS_WQE_SEG_CNT_RDMA_WRITE_INL_MAX = 4,
	DOCA_GPUNETIO_VERBS_WQE_SEG_CNT_ATOMIC_FA_CAS = 4,
	DOCA_GPUNETIO_VERBS_WQE_SEG_CNT_WAIT = 2,
};

/** First word of an inline data segment carries this bit. */
enum {
	DOCA_GPUNETIO_IB_MLX5_INLINE_SEG = (int)0x80000000u,
};

/** CQE opcodes (op_own >> 4) and the owner bit. */
enum {
	DOCA_GPUNETIO_IB_MLX5_CQE_OWNER_MASK = 1,
	DOCA_GPUNETIO_IB_MLX5_CQE_REQ = 0,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESP_WR_IMM = 1,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESP_SEND = 2,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESP_SEND_IMM = 3,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESP_SEND_INV = 4,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESIZE_CQ = 5,
	DOCA_GPUNETIO_IB_MLX5_CQE_NO_PACKET = 6,
	DOCA_GPUNETIO_IB_MLX5_CQE_SIG_ERR = 12,
	DOCA_GPUNETIO_IB_MLX5_CQE_REQ_ERR = 13,
	DOCA_GPUNETIO_IB_MLX5_CQE_RESP_ERR = 14,
	DOCA_GPUNETIO_IB_MLX5_CQE_INVALID = 15,
};

/**
 * @name Device error returns (OpenGDA)
 * Polls and waits return 0, EBUSY (poll_one: not yet) or a negative value. A negative value whose
 * low byte is EIO comes from an error CQE and carries its syndrome in bits 15:8, so callers that
 * only test `< 0` or `!= 0` keep working; -ETIMEDOUT comes from a bounded wait.
 */
/** @{ */
#define OPENGDA_DEV_EIO 5
#define OPENGDA_DEV_EBUSY 16
#define OPENGDA_DEV_ETIMEDOUT 110
#define OPENGDA_DEV_EINVAL 22 /**< -EINVAL: a receive on a QP exported without a receive queue of its own. */
#define OPENGDA_DEV_CQE_ERROR(syndrome) (-(int)((((uint32_t)(syndrome) & 0xffu) << 8) | OPENGDA_DEV_EIO))
#define OPENGDA_DEV_IS_CQE_ERROR(rc) ((rc) < 0 && ((-(rc)) & 0xff) == OPENGDA_DEV_EIO)
#define OPENGDA_DEV_CQE_ERROR_SYNDROME(rc) ((uint8_t)(((-(rc)) >> 8) & 0xff))
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_VERBS_DEF_H */
