/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * DOCA Verbs resource setup shared by the samples: device selection, context + PD + port
 * query, CQ and QP creation, the RST->INIT->RTR->RTS sequence from a peer's address, and a
 * bounded wait for one completion.
 */
#ifndef SAMPLE_VERBS_H_
#define SAMPLE_VERBS_H_

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_dev.h"
#include "doca_verbs.h"
#include "doca_verbs_bridge.h"
#include "opengda.h"

#define SAMPLE_PORT_NUM 1

/* An open device: context, PD, port attributes and the local GID in use. */
struct sample_dev {
	struct doca_devinfo **list;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	struct doca_verbs_context *ctx;
	struct doca_verbs_pd *pd;
	struct opengda_port_attr port;
	uint32_t gid_index;
	struct doca_verbs_gid gid;
	uint32_t max_qp_wr;
	uint32_t max_cqe;
	uint8_t max_rd_atom;      /* outstanding reads as responder */
	uint8_t max_init_rd_atom; /* outstanding reads as requester */
};

/*
 * Opens the device named name (NULL: the first device of doca_devinfo_create_list(), which
 * honours OPENGDA_DEVICE), creates a context and a PD, queries port 1 and the GID at
 * gid_index. Returns 0, or -1 with an error line (and nothing left open).
 */
int sample_dev_open(const char *name, uint32_t gid_index, struct sample_dev *d);
void sample_dev_close(struct sample_dev *d);

/* Creates a CQ of at least ncqe entries. Returns 0, or -1 with an error line. */
int sample_cq_create(struct sample_dev *d, uint32_t ncqe, struct doca_verbs_cq **cq);

struct sample_qp_cfg {
	uint32_t qp_type; /* DOCA_VERBS_QP_TYPE_RC or _UC */
	uint32_t sq_wr;
	uint32_t rq_wr;
	struct doca_verbs_cq *send_cq;
	struct doca_verbs_cq *recv_cq;
	uint8_t core_direct_master;
};

/* Creates a QP in RST. Returns 0, or -1 with an error line. */
int sample_qp_create(struct sample_dev *d, const struct sample_qp_cfg *cfg, struct doca_verbs_qp **qp);

/* What a QP needs to know about its peer. */
struct sample_peer {
	uint32_t qpn;
	uint32_t psn;                  /* the peer's first send PSN: this side's rq_psn */
	struct doca_verbs_gid gid;
	uint16_t lid;
	enum doca_verbs_mtu_size mtu;  /* the peer port's active MTU */
};

/* The path MTU towards peer: the smaller of both ports' active MTUs. */
enum doca_verbs_mtu_size sample_path_mtu(const struct sample_dev *d, const struct sample_peer *peer);

/*
 * Moves a QP RST->INIT->RTR->RTS towards peer: path MTU from sample_path_mtu();
 * RoCE: IPv4 address type for an IPv4-mapped peer GID, else IPv6; InfiniBand: LID routed.
 * force_ipv6 asks for the IPv6 address type (a warning is printed when the GID is IPv4).
 * Returns 0, or -1 with an error line.
 */
int sample_qp_connect(struct sample_dev *d, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t sq_psn,
		      const struct sample_peer *peer, bool force_ipv6);

/* Reads the QP's path MTU back from the device (QUERY_QP). Returns 0, or -1 with an error line. */
int sample_qp_query_path_mtu(struct doca_verbs_qp *qp, enum doca_verbs_mtu_size *mtu);

/*
 * Waits up to timeout_ms for one completion on cq. A completion with an error status is
 * reported (ibv_wc_status_str, vendor_err, wr_id) and fails the wait. what names the
 * awaited operation in error lines. Returns 0, or -1 with an error line.
 */
int sample_poll_one(struct doca_verbs_cq *cq, int timeout_ms, const char *what, struct ibv_wc *wc);

/* 1 when gid is an IPv4-mapped IPv6 address (::ffff:a.b.c.d). */
bool sample_gid_is_ipv4(const struct doca_verbs_gid *gid);
/* The GID as text (IPv6 notation). */
void sample_gid_str(const struct doca_verbs_gid *gid, char *buf, size_t len);
/* "1024" for DOCA_VERBS_MTU_SIZE_1K_BYTES. */
unsigned int sample_mtu_bytes(enum doca_verbs_mtu_size mtu);

/* The ibv_wc_status of an mlx5 error CQE syndrome (for CQs the sample polls itself). */
enum ibv_wc_status sample_wc_status_from_syndrome(uint8_t syndrome);

#endif /* SAMPLE_VERBS_H_ */
