/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_gpunetio_verbs_dev.h
 * @brief The QP and CQ as device code sees them, and the WQE segment layouts.
 *
 * The host fills these structs (doca_gpu_verbs_export_qp()) and places them where the executing
 * threads reach them: GPU memory for CUDA kernels, host memory for host threads. Field names are
 * DOCA's where DOCA has the field; the `ogda_` fields are OpenGDA's own machinery (per-slot
 * readiness, bounded waits, error record). Every address in these structs is valid for the
 * threads that run the device code, not necessarily for the CPU. Plain C11 and CUDA.
 *
 * device-code: yes
 */
#ifndef DOCA_GPUNETIO_VERBS_DEV_H
#define DOCA_GPUNETIO_VERBS_DEV_H

#include "doca_gpunetio_verbs_def.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A WQE index returned by the posting functions, to be waited on with wait()/poll_cq_at(). */
typedef uint64_t doca_gpu_dev_verbs_ticket_t;

/** A memory address and the big-endian key of the region it lies in. */
struct doca_gpu_dev_verbs_addr {
	uint64_t addr; /**< Address in the region. */
	uint32_t key;  /**< lkey or rkey, big-endian (htobe32). */
};

/** @name mlx5 WQE segments (big-endian fields, 16 bytes each) */
/** @{ */
struct doca_gpunetio_ib_mlx5_wqe_ctrl_seg {
	uint32_t opmod_idx_opcode; /**< opmod << 24 | wqe_index << 8 | opcode. */
	uint32_t qpn_ds;           /**< qpn << 8 | size in 16-byte units. */
	uint8_t signature;
	uint8_t rsvd[2];
	uint8_t fm_ce_se; /**< Fence mode, completion event mode, solicited event. */
	uint32_t imm;     /**< Immediate data or atomic opmod extension. */
};

struct doca_gpunetio_ib_mlx5_wqe_raddr_seg {
	uint64_t raddr;
	uint32_t rkey;
	uint32_t reserved;
};

struct doca_gpunetio_ib_mlx5_wqe_data_seg {
	uint32_t byte_count;
	uint32_t lkey;
	uint64_t addr;
};

struct doca_gpunetio_ib_mlx5_wqe_atomic_seg {
	uint64_t swap_add;
	uint64_t compare;
};

struct doca_gpunetio_ib_mlx5_wqe_inl_data_seg {
	uint32_t byte_count; /**< Length | DOCA_GPUNETIO_IB_MLX5_INLINE_SEG. */
};

struct doca_gpunetio_ib_mlx5_wqe_wait_seg {
	uint32_t resv[2];
	uint32_t max_index; /**< CQ index to wait for. */
	uint32_t qpn_cqn;   /**< CQ number. */
};

/** Masked fetch-and-add, 4 bytes (ext atomic). */
typedef struct {
	uint32_t add_data;
	uint32_t field_boundary;
	uint64_t reserved;
} doca_gpu_dev_verbs_atomic_32_masked_fa_seg_t;

/** Masked fetch-and-add, 8 bytes. */
typedef struct {
	uint64_t add_data;
	uint64_t field_boundary;
} doca_gpu_dev_verbs_atomic_64_masked_fa_seg_t;

/** Masked compare-and-swap, 4 bytes. */
typedef struct {
	uint32_t swap_data;
	uint32_t compare_data;
	uint32_t swap_mask;
	uint32_t compare_mask;
} doca_gpu_dev_verbs_atomic_32_masked_cs_seg_t;

/** Masked compare-and-swap, 8 bytes: two segments (swap/compare, then their masks). */
typedef struct {
	uint64_t swap;
	uint64_t compare;
} doca_gpu_dev_verbs_atomic_64_masked_cs_seg_t;
/** @} */

/** One 64-byte WQE building block, viewed per WQE kind. */
struct doca_gpu_dev_verbs_wqe {
	union {
		uint8_t inl_data[64];
		struct {
			struct doca_gpunetio_ib_mlx5_wqe_data_seg dseg0, dseg1, dseg2, dseg3;
		} data;
		struct {
			struct doca_gpunetio_ib_mlx5_wqe_ctrl_seg cseg;
			struct doca_gpunetio_ib_mlx5_wqe_raddr_seg rseg;
			struct doca_gpunetio_ib_mlx5_wqe_data_seg dseg0, dseg1;
		} rw;
		struct {
			struct doca_gpunetio_ib_mlx5_wqe_ctrl_seg cseg;
			struct doca_gpunetio_ib_mlx5_wqe_raddr_seg rseg;
			struct doca_gpunetio_ib_mlx5_wqe_atomic_seg aseg;
			struct doca_gpunetio_ib_mlx5_wqe_data_seg dseg;
		} at;
		struct {
			struct doca_gpunetio_ib_mlx5_wqe_ctrl_seg cseg;
			struct doca_gpunetio_ib_mlx5_wqe_data_seg dseg0, dseg1, dseg2;
		} snd;
		struct {
			struct doca_gpunetio_ib_mlx5_wqe_ctrl_seg cseg;
			struct doca_gpunetio_ib_mlx5_wqe_wait_seg wseg;
			uint8_t padding[32];
		} wait;
	};
};

/** CQ flags (doca_gpu_dev_verbs_cq::ogda_flags). */
enum {
	OPENGDA_DEV_CQ_FLAG_COLLAPSED = 1u << 0,    /**< Every CQE lands in entry 0. */
	OPENGDA_DEV_CQ_FLAG_UPDATE_DBREC = 1u << 1, /**< Overrun is checked: polls keep the CI record current. */
};

/** A completion queue as device code polls it. */
struct doca_gpu_dev_verbs_cq {
	uint8_t *cqe_daddr;   /**< First CQE. */
	uint32_t cq_num;      /**< CQ number. */
	uint32_t cqe_num;     /**< Entries (a power of two). */
	uint32_t *dbrec;      /**< CQ doorbell record: word 0 is the consumer index (big-endian). */
	uint64_t cqe_ci;      /**< Every CQE below this index has been seen. */
	uint32_t cqe_mask;    /**< cqe_num - 1. */
	uint8_t cqe_size;     /**< 64. */
	uint8_t cqe_log_num;  /**< log2(cqe_num). */
	uint16_t ogda_flags;  /**< OPENGDA_DEV_CQ_FLAG_*. */
	uint64_t cqe_rsvd;    /**< Index offset after doca_gpu_verbs_reset_tracking_and_memory(). */
	enum doca_gpu_dev_verbs_mem_type mem_type; /**< Where the ring lives. */
	/** First error CQE seen by a poll: 1 << 31 | syndrome << 16 | wqe_counter; 0 = none. */
	uint32_t ogda_first_error;
	uint64_t ogda_wait_timeout_ns; /**< Bound of every wait on this CQ; 0 = wait for ever. */
};

/** A QP's send queue as device code posts to it. */
struct doca_gpu_dev_verbs_qp {
	uint64_t sq_rsvd_index;   /**< Every WQEBB below this index is reserved. */
	uint64_t sq_ready_index;  /**< Every WQEBB below this index is written and published. */
	uint64_t sq_wqe_pi;       /**< Producer index last made known to the NIC. */
	uint32_t sq_num;          /**< QP number. */
	uint32_t sq_num_shift8;   /**< sq_num << 8. */
	uint32_t sq_num_shift8_be;      /**< BE32(sq_num << 8). */
	uint32_t sq_num_shift8_be_1ds;  /**< BE32(sq_num << 8 | 1): ctrl qpn_ds with 1 segment. */
	uint32_t sq_num_shift8_be_2ds;  /**< ... 2 segments. */
	uint32_t sq_num_shift8_be_3ds;  /**< ... 3 segments. */
	uint32_t sq_num_shift8_be_4ds;  /**< ... 4 segments. */
	uint32_t sq_num_shift8_be_5ds;  /**< ... 5 segments. */
	int sq_lock;              /**< Held by the one thread writing the doorbell record and ringing. */
	uint32_t sq_wqe_num;      /**< Ring size in WQEBBs (a power of two). */
	uint32_t sq_wqe_mask;     /**< sq_wqe_num - 1. */
	uint32_t sq_log_wqe_num;  /**< log2(sq_wqe_num). */
	uint8_t *sq_wqe_daddr;    /**< First WQEBB of the ring. */
	uint32_t *sq_dbrec;       /**< Send doorbell record word (DBR + 4); NULL in DBR-less modes. */
	uint64_t *sq_db;          /**< Doorbell (UAR register), BlueFlame register, or proxy mailbox. */
	/**
	 * Per-WQEBB readiness, sq_wqe_num words: slot i holds index + 1 once WQEBB `index` is written.
	 * The thread that completes a contiguous run advances sq_ready_index over it.
	 */
	uint64_t *ogda_ready_slots;
	/**
	 * Host word where ringers publish the producer index for a CPU thread: the proxy mailbox in
	 * CPU_PROXY mode (sq_db points at it too), the DBR-emulation feed in NO_DBR_SW_EMULATED mode;
	 * NULL otherwise.
	 */
	uint64_t *ogda_pi_mailbox;
	uint64_t ogda_wait_timeout_ns; /**< Bound of every wait; 0 = for ever. Export copies it to cq_sq and cq_rq. */
	/**
	 * @name Receive queue (DOCA GPUNetIO SDK field names and order; all 0 when the QP was
	 * exported without a receive CQ). Device code posts 16-byte receive WQEs (one data segment;
	 * the rest of a larger entry is terminated with an invalid-lkey segment).
	 */
	/** @{ */
	uint32_t rq_num;          /**< QP number (the RQ belongs to the QP). */
	uint64_t rq_wqe_pi;       /**< Producer index last written to the RQ doorbell record. */
	uint32_t rq_wqe_num;      /**< Ring size in receive WQEs (a power of two). */
	uint32_t rq_wqe_mask;     /**< rq_wqe_num - 1. */
	uint8_t *rq_wqe_daddr;    /**< First receive WQE. */
	uint32_t *rq_dbrec;       /**< Receive doorbell record word (DBR + 0). */
	uint32_t rcv_wqe_size;    /**< Bytes per receive WQE (16 << log_rq_stride). */
	uint64_t rq_rsvd_index;   /**< Every receive WQE below this index is reserved. */
	uint64_t rq_ready_index;  /**< Every receive WQE below this index is written. */
	int rq_lock;              /**< Held by the thread writing the receive doorbell record. */
	/** @} */
	struct doca_gpu_dev_verbs_cq cq_sq; /**< The send CQ. */
	struct doca_gpu_dev_verbs_cq cq_rq; /**< The receive CQ (one CQE per receive, in RQ order). */
	enum doca_gpu_dev_verbs_nic_handler nic_handler; /**< Handler resolved at export (never AUTO). */
	enum doca_gpu_dev_verbs_mem_type mem_type;       /**< Where the ring lives. */
	enum doca_gpu_verbs_send_dbr_mode_ext send_dbr_mode_ext; /**< Doorbell-record mode. */
	uint32_t ogda_flags;      /**< Reserved for OpenGDA; 0. */
};

/**
 * A contiguous shared receive queue as device code refills it (OpenGDA; the DOCA SDK exports no
 * SRQ). Fields have the names of the QP's receive block. Receives taken from it complete on the
 * receive CQ of the QP that consumed them, so a slot's previous receive is known to be done only
 * by whoever polled that CQ: device code refills a slot after consuming the completion of the
 * receive it held (opengda_gpu_verbs_export_srq() documents the contract).
 */
struct opengda_gpu_dev_verbs_srq {
	uint64_t rq_wqe_pi;       /**< Producer index last written to the SRQ doorbell record. */
	uint64_t rq_rsvd_index;   /**< Every WQE below this index is reserved. */
	uint64_t rq_ready_index;  /**< Every WQE below this index is written. */
	uint32_t rq_num;          /**< SRQ number. */
	uint32_t rq_wqe_num;      /**< Ring size in WQEs (a power of two). */
	uint32_t rq_wqe_mask;     /**< rq_wqe_num - 1. */
	uint32_t rcv_wqe_size;    /**< Bytes per WQE. */
	uint8_t *rq_wqe_daddr;    /**< First WQE. */
	uint32_t *rq_dbrec;       /**< SRQ doorbell record word (producer counter). */
	int rq_lock;              /**< Held by the thread writing the doorbell record. */
	uint64_t ogda_wait_timeout_ns; /**< Bound of every wait; 0 = for ever. */
};

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_VERBS_DEV_H */
