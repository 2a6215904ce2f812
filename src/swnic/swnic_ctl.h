/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's control path: the PRM command executor, memory registration, and the
 * identifiers and syndromes they use. The device binding (src/devx/sw.c) and the tests use
 * this header; the data path (engine, fabric, responder) needs only swnic.h.
 *
 * Object numbers. Every table hands out numbers from its own base, so that a number of
 * one kind passed where another is expected does not silently name an object:
 *   pdn 0x10.., UAR page_id 0x20.., umem id 0x30.., cqn 0x80.., rmpn (srqn) 0x180...
 * QPNs are drawn at random in [0x200, 0xffffff) (swnic_qpn_alloc.h): a peer on the
 * fabric cannot find live QPs by counting.
 * Memory keys are (index << 8) | variant, index from 2 (so 0 and MLX5_INVALID_LKEY 0x100
 * are never keys) and an 8-bit variant drawn at random (getrandom) at each registration,
 * as mlx5 mkeys carry one: a remote peer cannot guess a valid rkey from the index alone,
 * and lookups compare the whole key. A reused index never gets its previous variant, so
 * a key kept after its MR was deregistered does not resolve to the next MR in that slot.
 * lkey and rkey are the same value, as on mlx5.
 *
 * Command failures. A failed command leaves its out mailbox zeroed up to the command's out
 * size, with the PRM status and one of the syndromes below, and logs one line that names
 * the command and the reason. BAD_PARAM is used for values the model rejects and for
 * objects a command names that do not exist; BAD_QP_STATE for a QP transition from the
 * wrong state; BAD_RES_STATE for destroying an object still in use and for an RMP in the
 * wrong state; BAD_INPUT_LEN / BAD_OUTPUT_LEN for mailboxes shorter than the command;
 * BAD_OP for an opcode the model does not execute; NO_RESOURCES when a table is full.
 */
#ifndef OGDA_SWNIC_SWNIC_CTL_H_
#define OGDA_SWNIC_SWNIC_CTL_H_

#include "devx/devx.h"
#include "doca_error.h"
#include "swnic/swnic.h"

#include <stddef.h>
#include <stdint.h>

/* ---- model identifiers ---- */
#define SWNIC_PORT_NUM 1u            /* the one port (vhca_port_num, ibv port numbering) */
#define SWNIC_EQN 0u                 /* the completion EQ every CQ names in cqc.c_eqn */
#define SWNIC_MAX_INSTANCES 16u      /* upper bound of OPENGDA_SWNIC_COUNT */

#define SWNIC_PD_BASE 0x10u
#define SWNIC_UAR_BASE 0x20u
#define SWNIC_UMEM_BASE 0x30u
#define SWNIC_CQ_BASE 0x80u
#define SWNIC_SRQ_BASE 0x180u
#define SWNIC_MR_INDEX_BASE 2u
#define SWNIC_MAX_UARS 4096u
#define SWNIC_TIS_BASE 0x200u
#define SWNIC_MAX_TISES 1024u
#define SWNIC_TD_BASE 0x300u
#define SWNIC_MAX_TDS 1024u
#define SWNIC_ENV_ETH_IFACE "OPENGDA_SWNIC_ETH_IFACE" /* interface(s) of the Ethernet ports */

/* ---- command syndromes (out mailbox dw1), one per reason ---- */
enum swnic_cmd_syndrome {
	SWNIC_SYND_NONE = 0x0000,
	/* any command */
	SWNIC_SYND_UNKNOWN_OPCODE = 0x0001,    /* BAD_OP: opcode not executed by the model */
	SWNIC_SYND_IN_TOO_SHORT = 0x0002,      /* BAD_INPUT_LEN */
	SWNIC_SYND_OUT_TOO_SHORT = 0x0003,     /* BAD_OUTPUT_LEN */
	SWNIC_SYND_MALFORMED = 0x0004,         /* BAD_PARAM: a field did not decode */
	SWNIC_SYND_TABLE_FULL = 0x0005,        /* NO_RESOURCES: the model's log_max_* limit */
	SWNIC_SYND_NO_MEMORY = 0x0006,         /* NO_RESOURCES: host allocation failed */
	SWNIC_SYND_BAD_OP_MOD = 0x0007,        /* BAD_PARAM */
	SWNIC_SYND_OTHER_FUNCTION = 0x0008,    /* BAD_PARAM: other_function / other_vport */
	SWNIC_SYND_INTERNAL = 0x0009,          /* INTERNAL_ERR: the engine refused the object */
	/* capabilities, GIDs */
	SWNIC_SYND_BAD_CAP_TYPE = 0x0101,      /* BAD_PARAM: capability page not modelled */
	SWNIC_SYND_BAD_GID_INDEX = 0x0102,     /* BAD_PARAM: GID table has one entry */
	SWNIC_SYND_BAD_PORT = 0x0103,          /* BAD_PARAM: vhca_port_num / port_num not 1 */
	/* PD, UAR */
	SWNIC_SYND_BAD_PD = 0x0201,            /* BAD_PARAM: no such PD */
	SWNIC_SYND_PD_IN_USE = 0x0202,         /* BAD_RES_STATE: MRs, QPs or RMPs use it */
	SWNIC_SYND_BAD_UAR = 0x0203,           /* BAD_PARAM: no such UAR page */
	SWNIC_SYND_UAR_IN_USE = 0x0204,        /* BAD_RES_STATE */
	/* queue placement (CQ, QP, RMP) */
	SWNIC_SYND_UMEM_REQUIRED = 0x0301,     /* BAD_PARAM: *_umem_valid must be 1 */
	SWNIC_SYND_BAD_UMEM = 0x0302,          /* BAD_PARAM: no such umem */
	SWNIC_SYND_UMEM_RANGE = 0x0303,        /* BAD_PARAM: the queue does not fit in its umem */
	SWNIC_SYND_UMEM_NOT_HOST = 0x0304,     /* BAD_PARAM: queue memory must be host-visible */
	SWNIC_SYND_DBR_REQUIRED = 0x0305,      /* BAD_PARAM: dbr_umem_valid must be 1 */
	SWNIC_SYND_BAD_DBR_UMEM = 0x0306,      /* BAD_PARAM: no such DBR umem */
	SWNIC_SYND_DBR_RANGE = 0x0307,         /* BAD_PARAM: the DBR does not fit in its umem */
	SWNIC_SYND_DBR_ALIGN = 0x0308,         /* BAD_PARAM: DBR not 8-byte (RMP: 4-byte) aligned */
	SWNIC_SYND_DBR_NOT_HOST = 0x0309,      /* BAD_PARAM: DBR memory must be host-visible */
	/* CQ */
	SWNIC_SYND_BAD_CQN = 0x0401,           /* BAD_PARAM: no such CQ */
	SWNIC_SYND_CQ_IN_USE = 0x0402,         /* BAD_RES_STATE: QPs complete to it */
	SWNIC_SYND_BAD_CQE_SIZE = 0x0403,      /* BAD_PARAM: cqe_sz not 0 (64 B) or 1 (128 B) */
	SWNIC_SYND_BAD_CQ_SIZE = 0x0404,       /* BAD_PARAM: log_cq_size above log_max_cq_sz */
	SWNIC_SYND_CQE_COMP = 0x0405,          /* BAD_PARAM: CQE compression not modelled */
	SWNIC_SYND_BAD_EQN = 0x0406,           /* BAD_PARAM: c_eqn is not SWNIC_EQN */
	SWNIC_SYND_CQ_RESIZE = 0x0407,         /* BAD_PARAM: MODIFY_CQ resize (cq_resize = 0) */
	SWNIC_SYND_BAD_FIELD_SELECT = 0x0408,  /* BAD_PARAM: modify_field_select bit not modelled */
	/* QP */
	SWNIC_SYND_BAD_QPN = 0x0501,           /* BAD_PARAM: no such QP */
	SWNIC_SYND_BAD_ST = 0x0502,            /* BAD_PARAM: service type other than RC / UC */
	SWNIC_SYND_BAD_SQ_SIZE = 0x0503,       /* BAD_PARAM: log_sq_size above log_max_qp_sz (the 4-bit
						  field cannot exceed today's cap of 15) */
	SWNIC_SYND_BAD_RQ_SIZE = 0x0504,       /* BAD_PARAM: RQ WQE above max_wqe_sz_rq (or log_rq_size
						  above log_max_qp_sz) */
	SWNIC_SYND_BAD_RQ_TYPE = 0x0505,       /* BAD_PARAM: rq_type not regular, SRQ or zero */
	SWNIC_SYND_BAD_SRQN = 0x0506,          /* BAD_PARAM: rq_type SRQ with no such RMP */
	SWNIC_SYND_BAD_SEND_DBR_MODE = 0x0507, /* BAD_PARAM: NO_DBR_INT (cap is 0) or value 3 */
	SWNIC_SYND_CD_SLAVE = 0x0508,          /* BAD_PARAM: cd_slave_send/receive not modelled */
	SWNIC_SYND_BAD_MTU = 0x0509,           /* BAD_PARAM: mtu not 256..4096, or above the port's
						  MTU (OPENGDA_SWNIC_MTU) */
	SWNIC_SYND_BAD_REMOTE_QPN = 0x050a,    /* BAD_PARAM: INIT2RTR without remote_qpn */
	SWNIC_SYND_BAD_RGID = 0x050b,          /* BAD_PARAM: INIT2RTR without rgid (RoCE) */
	SWNIC_SYND_BAD_MSG_MAX = 0x050c,       /* BAD_PARAM: log_msg_max above log_max_msg */
	SWNIC_SYND_BAD_ATOMIC_MODE = 0x050d,   /* BAD_PARAM: atomic_mode beyond 8 bytes */
	SWNIC_SYND_BAD_RA_MAX = 0x050e,        /* BAD_PARAM: log_rra_max / log_sra_max above caps */
	SWNIC_SYND_BAD_PKEY_INDEX = 0x050f,    /* BAD_PARAM: pkey_index not 0 */
	SWNIC_SYND_BAD_GID_REF = 0x0510,       /* BAD_PARAM: src_addr_index not 0 */
	SWNIC_SYND_QP_STATE = 0x0511,          /* BAD_QP_STATE: transition from the wrong state */
	SWNIC_SYND_BAD_CQ_REF = 0x0512,        /* BAD_PARAM: cqn_snd / cqn_rcv names no CQ */
	SWNIC_SYND_NO_QUEUE = 0x0513,          /* BAD_PARAM: no_sq and no RQ */
	/* RMP (SRQ) */
	SWNIC_SYND_BAD_TISN = 0x0a01,          /* BAD_PARAM: no such TIS */
	SWNIC_SYND_TIS_IN_USE = 0x0a02,        /* BAD_RES_STATE: SQs send through it */
	SWNIC_SYND_BAD_SQN = 0x0a03,           /* BAD_PARAM: no such Ethernet SQ */
	SWNIC_SYND_SQ_STATE = 0x0a04,          /* BAD_RES_STATE: wrong current state / transition */
	SWNIC_SYND_BAD_SQ_WQ = 0x0a05,         /* BAD_PARAM: SQ wq not cyclic with 64-byte stride */
	SWNIC_SYND_BAD_TD = 0x0a06,            /* BAD_PARAM: no such transport domain */
	SWNIC_SYND_TD_IN_USE = 0x0a07,         /* BAD_RES_STATE: TISs belong to it */
	SWNIC_SYND_BAD_RMPN = 0x0901,          /* BAD_PARAM: no such RMP */
	SWNIC_SYND_RMP_IN_USE = 0x0902,        /* BAD_RES_STATE: QPs are attached */
	SWNIC_SYND_BAD_WQ_TYPE = 0x0903,       /* BAD_PARAM: striding WQs not modelled */
	SWNIC_SYND_BAD_WQ_SIZE = 0x0904,       /* BAD_PARAM: log_wq_sz above log_max_srq_sz */
	SWNIC_SYND_BAD_WQ_STRIDE = 0x0905,     /* BAD_PARAM: stride not 16..512 bytes */
	SWNIC_SYND_BAD_RMP_STATE = 0x0906,     /* BAD_PARAM: state value not RST/RDY/ERR */
	SWNIC_SYND_RMP_STATE = 0x0907,         /* BAD_RES_STATE: wrong current state / transition */
	SWNIC_SYND_BAD_RQN = 0x0b01,           /* BAD_PARAM: no such Ethernet RQ */
	SWNIC_SYND_RQ_IN_USE = 0x0b02,         /* BAD_RES_STATE: TIRs or RQTs name it */
	SWNIC_SYND_RQ_STATE = 0x0b03,          /* BAD_RES_STATE: wrong current state / transition */
	SWNIC_SYND_BAD_RQ_WQ = 0x0b04,         /* BAD_PARAM: RQ wq not cyclic, stride or size outside the model */
	SWNIC_SYND_BAD_RQTN = 0x0b05,          /* BAD_PARAM: no such RQT, or a bad RQ list */
	SWNIC_SYND_RQT_IN_USE = 0x0b06,        /* BAD_RES_STATE: TIRs spread over it */
	SWNIC_SYND_BAD_TIRN = 0x0b07,          /* BAD_PARAM: no such TIR, or a bad dispatch / hash */
	SWNIC_SYND_TIR_IN_USE = 0x0b08,        /* BAD_RES_STATE: flow table entries forward to it */
	SWNIC_SYND_BAD_FT = 0x0b09,            /* BAD_PARAM: no such flow table, or a bad type / level / size */
	SWNIC_SYND_FT_IN_USE = 0x0b0a,         /* BAD_RES_STATE: groups, entries or tables name it, or it is the root */
	SWNIC_SYND_BAD_FG = 0x0b0b,            /* BAD_PARAM: no such group, a bad range, or criteria not modelled */
	SWNIC_SYND_FG_IN_USE = 0x0b0c,         /* BAD_RES_STATE: entries belong to it */
	SWNIC_SYND_BAD_FTE = 0x0b0d,           /* BAD_PARAM: index outside its group, bad action or destination */
	SWNIC_SYND_BAD_COUNTER = 0x0b0e,       /* BAD_PARAM: no such flow counter */
	SWNIC_SYND_COUNTER_IN_USE = 0x0b0f,    /* BAD_RES_STATE: entries count into it */
};

/* ---- instance (swnic_core.c) ---- */

/* Takes one more reference on an open instance (released with swnic_close()). */
void swnic_get(struct swnic *nic);

/*
 * The port MTU knob: OPENGDA_SWNIC_MTU in bytes (256, 512, 1024, 2048 or 4096; default
 * 4096), as enum prm_qp_mtu (1..5, the ibv_mtu numbering). Any other value logs an error
 * and gives 4096. Read once per instance, when it is created (struct swnic.port_mtu).
 */
#define SWNIC_ENV_MTU "OPENGDA_SWNIC_MTU"
uint8_t swnic_port_mtu_from_env(void);

/* ---- command executor (swnic_cmd.c) ---- */

/*
 * Executes one PRM command from its byte image, as the device firmware would, and writes
 * the out mailbox. Returns prm_cmd_status_to_doca() of the status written. A NULL pointer,
 * or an out mailbox too short to hold even the status (8 bytes), returns
 * DOCA_ERROR_INVALID_VALUE without executing anything. Thread-safe.
 */
doca_error_t swnic_cmd_exec(struct swnic *nic, const void *in, size_t inlen, void *out, size_t outlen);

/* ---- memory registration (swnic_mem.c) ---- */

/* PD numbers; swnic_pd_free: DOCA_ERROR_NOT_FOUND, DOCA_ERROR_IN_USE while MRs/QPs/RMPs use it. */
doca_error_t swnic_pd_alloc(struct swnic *nic, uint32_t *pdn);
doca_error_t swnic_pd_free(struct swnic *nic, uint32_t pdn);

/* A zeroed 4 KiB host page; swnic_uar_free: DOCA_ERROR_IN_USE while a CQ or QP names it. */
doca_error_t swnic_uar_alloc(struct swnic *nic, enum ogda_devx_uar_type type, uint32_t *page_id, uint8_t **page);
doca_error_t swnic_uar_free(struct swnic *nic, uint32_t page_id);

/* Queue memory ranges; swnic_umem_deregister: DOCA_ERROR_IN_USE while a queue lies in it. */
doca_error_t swnic_umem_register(struct swnic *nic, void *addr, size_t len, uint32_t access, uint32_t *umem_id);
doca_error_t swnic_umem_deregister(struct swnic *nic, uint32_t umem_id);

/*
 * Data memory regions. access: enum ogda_devx_access; REMOTE_WRITE and REMOTE_ATOMIC need
 * LOCAL_WRITE (as ibv_reg_mr). swnic_mr_deregister takes the lkey; a stale or unknown key
 * is DOCA_ERROR_NOT_FOUND.
 */
doca_error_t swnic_mr_register(struct swnic *nic, uint32_t pdn, void *addr, size_t len, uint32_t access,
			       uint32_t *lkey, uint32_t *rkey);
doca_error_t swnic_mr_deregister(struct swnic *nic, uint32_t lkey);

/*
 * Where [addr, addr + len) lives: OGDA_MEM_GPU when the CUDA driver reports device memory
 * (cuPointerGetAttribute MEMORY_TYPE) at its first or last byte, OGDA_MEM_HOST otherwise
 * (and always without a CUDA driver).
 */
enum ogda_mem_kind swnic_mem_kind(const void *addr, size_t len);

/* Replaces the memory kind probe (NULL restores the CUDA one); a seam for tests. */
typedef enum ogda_mem_kind (*swnic_mem_kind_probe_fn)(const void *addr, size_t len);
void swnic_mem_set_kind_probe(swnic_mem_kind_probe_fn probe);

/* ---- instance teardown (called by swnic_close once the engine and fabric are gone) ---- */
void swnic_cmd_release_all(struct swnic *nic);  /* QPs, CQs, RMPs, TISs, transport domains */

/*
 * At creation: zeroes the port's counters and attaches the Ethernet port named for this NIC in
 * OPENGDA_SWNIC_ETH_IFACE (a
 * comma-separated list, entry i for swnic<i>; empty entries attach nothing). A failure is
 * logged as an error and leaves the port unattached.
 */
void swnic_eth_attach_from_env(struct swnic *nic);
void swnic_mem_release_all(struct swnic *nic);  /* MRs, PDs, UARs, umems */

#endif /* OGDA_SWNIC_SWNIC_CTL_H_ */
