/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared fixture of the DOCA Verbs API tests: a context on the software NIC "swnic0" with
 * a PD, CQs, QPs, and a connected pair of QPs brought to RTS with the attribute masks
 * doca_verbs.h documents. Every helper asserts (cmocka) that its calls succeed, so a test
 * body only holds what it checks.
 *
 * Tests that use the fixture run with OPENGDA_SWNIC_ADDR= (loopback fabric) and
 * OPENGDA_DISABLE_CUDA=1 (queue memory is host memory); see tests/verbs/CMakeLists.txt.
 */
#ifndef OGDA_TESTS_VERBS_VERBS_FIXTURE_H_
#define OGDA_TESTS_VERBS_VERBS_FIXTURE_H_

#include "doca_dev.h"
#include "doca_verbs.h"
#include "doca_verbs_bridge.h"
#include "opengda.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VFX_A(x) DOCA_VERBS_QP_ATTR_##x

/* Required attribute masks per transition (doca_verbs.h, "QP attribute mask bits"). */
#define VFX_MASK_RST2INIT_RC                                                                                  \
	(VFX_A(NEXT_STATE) | VFX_A(ALLOW_REMOTE_WRITE) | VFX_A(ALLOW_REMOTE_READ) | VFX_A(ATOMIC_MODE) |      \
	 VFX_A(PKEY_INDEX) | VFX_A(PORT_NUM))
#define VFX_MASK_RST2INIT_UC (VFX_A(NEXT_STATE) | VFX_A(ALLOW_REMOTE_WRITE) | VFX_A(PKEY_INDEX) | VFX_A(PORT_NUM))
#define VFX_MASK_INIT2RTR_RC                                                                                  \
	(VFX_A(NEXT_STATE) | VFX_A(RQ_PSN) | VFX_A(DEST_QP_NUM) | VFX_A(PATH_MTU) | VFX_A(AH_ATTR) |          \
	 VFX_A(MIN_RNR_TIMER))
#define VFX_MASK_INIT2RTR_UC (VFX_A(NEXT_STATE) | VFX_A(RQ_PSN) | VFX_A(DEST_QP_NUM) | VFX_A(PATH_MTU) | VFX_A(AH_ATTR))
#define VFX_MASK_RTR2RTS_RC                                                                                   \
	(VFX_A(NEXT_STATE) | VFX_A(SQ_PSN) | VFX_A(ACK_TIMEOUT) | VFX_A(RETRY_CNT) | VFX_A(RNR_RETRY))
#define VFX_MASK_RTR2RTS_UC (VFX_A(NEXT_STATE) | VFX_A(SQ_PSN))

/* Values the connect helpers apply (tests compare queries with them). */
#define VFX_PSN_BASE 0x1000u   /* QP i sends from VFX_PSN_BASE + i; its peer expects that */
#define VFX_MIN_RNR_TIMER 12u
#define VFX_ACK_TIMEOUT 14u
#define VFX_RETRY_CNT 7u
#define VFX_RNR_RETRY 7u
#define VFX_HOP_LIMIT 64u
#define VFX_TRAFFIC_CLASS 0u

/* Default sizes of the fixture's queues. */
#define VFX_CQ_SIZE 64u
#define VFX_SQ_WR 16u
#define VFX_RQ_WR 16u

struct vfx {
	struct doca_devinfo **list;         /* the device list (kept until vfx_close) */
	uint32_t ndev;
	struct doca_devinfo *info;          /* swnic0 */
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	struct doca_verbs_gid gid;          /* port 1, GID index 0 */
	enum doca_verbs_mtu_size port_mtu;  /* active MTU of port 1 */
};

/* The list entry named name, or NULL. */
struct doca_devinfo *vfx_find_devinfo(struct doca_devinfo **list, uint32_t n, const char *name);

/* Opens a context on swnic0 and a PD in it. */
void vfx_open(struct vfx *f);
/* Destroys the PD and the context (asserting both succeed) and frees the list. */
void vfx_close(struct vfx *f);

/* A CQ of size entries; cc and cq_context may be NULL. */
struct doca_verbs_cq *vfx_cq(struct vfx *f, uint32_t size, struct doca_verbs_comp_channel *cc, void *cq_context);

/* Init attributes for a QP of the fixture's PD (caller destroys them). */
struct doca_verbs_qp_init_attr *vfx_qp_init_attr(struct vfx *f, uint32_t qp_type, struct doca_verbs_cq *send_cq,
						  struct doca_verbs_cq *recv_cq, uint32_t sq_wr, uint32_t rq_wr);

/* A QP in RST with the attributes of vfx_qp_init_attr(). */
struct doca_verbs_qp *vfx_qp(struct vfx *f, uint32_t qp_type, struct doca_verbs_cq *send_cq,
			     struct doca_verbs_cq *recv_cq, uint32_t sq_wr, uint32_t rq_wr);

/* AH attributes naming the fixture's own GID (loopback), sgid_index 0 (caller destroys them). */
struct doca_verbs_ah_attr *vfx_ah(struct vfx *f);

/* Fresh QP attributes (caller destroys them). */
struct doca_verbs_qp_attr *vfx_attr(void);

/* Fills attr with everything a transition of the connect helpers needs (values above). */
void vfx_attr_fill_init(struct doca_verbs_qp_attr *attr);
void vfx_attr_fill_rtr(struct doca_verbs_qp_attr *attr, struct doca_verbs_ah_attr *ah, uint32_t dest_qpn,
		       uint32_t rq_psn, enum doca_verbs_mtu_size mtu);
void vfx_attr_fill_rts(struct doca_verbs_qp_attr *attr, uint32_t sq_psn);

/* The transitions with their required masks for qp_type (asserting success). */
void vfx_qp_to_init(struct doca_verbs_qp *qp, uint32_t qp_type);
void vfx_qp_to_rtr(struct vfx *f, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t dest_qpn, uint32_t rq_psn);
void vfx_qp_to_rts(struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t sq_psn);

/* RST -> INIT -> RTR -> RTS, connected to dest_qpn on the same NIC. */
void vfx_qp_connect(struct vfx *f, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t dest_qpn, uint32_t rq_psn,
		    uint32_t sq_psn);

/* Two QPs of one type, each with its own CQ (send and receive), connected to each other in RTS. */
struct vfx_pair {
	uint32_t qp_type;
	struct doca_verbs_cq *cq[2];
	struct doca_verbs_qp *qp[2];
	uint32_t qpn[2];
};

/* QP i sends with PSN VFX_PSN_BASE + i. cc may be NULL (CQs without a completion channel). */
void vfx_pair_create(struct vfx *f, uint32_t qp_type, struct doca_verbs_comp_channel *cc, struct vfx_pair *p);
void vfx_pair_destroy(struct vfx_pair *p);

/* A registered host buffer (filled with fill), local write + remote write/read/atomic. */
struct vfx_buf {
	uint8_t *addr;
	size_t len;
	struct opengda_mr *mr;
	uint32_t lkey, rkey;
};
void vfx_buf_create(struct vfx *f, size_t len, uint8_t fill, struct vfx_buf *b);
void vfx_buf_destroy(struct vfx_buf *b);

/* Polls cq through the bridge until n completions arrived or timeout_ms passed; returns how many. */
int vfx_poll(struct doca_verbs_cq *cq, struct ibv_wc *wc, int n, int timeout_ms);

/* Waits until fd is readable (poll POLLIN): true when it is within timeout_ms. */
bool vfx_fd_readable(int fd, int timeout_ms);

/* Whether a log line captured from stderr holds every string of the NULL-terminated list. */
bool vfx_log_has(const char *log, const char *const *needles);

#endif /* OGDA_TESTS_VERBS_VERBS_FIXTURE_H_ */
