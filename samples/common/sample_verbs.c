/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sample_verbs.h"

#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "opengda_mlx5.h"
#include "sample_util.h"

#define PORT_STATE_ACTIVE 4   /* ibv_port_state */
#define SAMPLE_HOP_LIMIT 64
#define SAMPLE_MIN_RNR_TIMER 12 /* 0.64 ms (IB spec table) */
#define SAMPLE_ACK_TIMEOUT 14   /* 4.096 us << 14 = 67 ms */
#define SAMPLE_RETRY_CNT 7
#define SAMPLE_RNR_RETRY 7      /* "infinite" in the IB spec; the device bounds it */
#define SAMPLE_RD_ATOMIC 16     /* outstanding reads wished for, capped by the device */

/* Finds the devinfo named name (NULL: the first). Lists the names when none matches. */
static struct doca_devinfo *pick_device(struct doca_devinfo **list, uint32_t n, const char *name, char *found,
					size_t found_len)
{
	char buf[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char names[256] = "";
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (doca_devinfo_get_ibdev_name(list[i], buf, sizeof(buf)) != DOCA_SUCCESS)
			continue;
		if (name == NULL || strcmp(buf, name) == 0) {
			snprintf(found, found_len, "%s", buf);
			return list[i];
		}
		if (strlen(names) + strlen(buf) + 3 < sizeof(names)) {
			strcat(names, names[0] != '\0' ? ", " : "");
			strcat(names, buf);
		}
	}
	sample_err("no device named '%s' (devices: %s)", name != NULL ? name : "", names[0] != '\0' ? names : "none");
	return NULL;
}

static int query_limits(struct sample_dev *d)
{
	struct doca_verbs_device_attr *a = NULL;
	doca_error_t err = doca_verbs_query_device(d->ctx, &a);

	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_query_device", err);
		return -1;
	}
	d->max_qp_wr = doca_verbs_device_attr_get_max_qp_wr(a);
	d->max_cqe = doca_verbs_device_attr_get_max_cqe(a);
	d->max_rd_atom = doca_verbs_device_attr_get_max_qp_rd_atom(a);
	d->max_init_rd_atom = doca_verbs_device_attr_get_max_qp_init_rd_atom(a);
	(void)doca_verbs_device_attr_free(a);
	return 0;
}

int sample_dev_open(const char *name, uint32_t gid_index, struct sample_dev *d)
{
	struct doca_devinfo *info;
	uint32_t n = 0;
	doca_error_t err;

	memset(d, 0, sizeof(*d));
	d->gid_index = gid_index;
	err = doca_devinfo_create_list(&d->list, &n);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_devinfo_create_list", err);
		return -1;
	}
	info = pick_device(d->list, n, name, d->name, sizeof(d->name));
	if (info == NULL)
		goto fail;
	err = doca_verbs_context_create(info, 0, &d->ctx);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_context_create", err);
		goto fail;
	}
	err = doca_verbs_pd_create(d->ctx, &d->pd);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_pd_create", err);
		goto fail;
	}
	err = opengda_verbs_query_port(d->ctx, SAMPLE_PORT_NUM, &d->port);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_verbs_query_port", err);
		goto fail;
	}
	if (d->port.state != PORT_STATE_ACTIVE)
		fprintf(stderr, "%s: warning: port %d of %s is not active (state %u)\n", sample_prog(), SAMPLE_PORT_NUM,
			d->name, d->port.state);
	if (gid_index >= d->port.gid_tbl_len) {
		sample_err("GID index %u is beyond the GID table of %s (%u entries)", gid_index, d->name,
			   d->port.gid_tbl_len);
		goto fail;
	}
	err = opengda_verbs_query_gid(d->ctx, SAMPLE_PORT_NUM, gid_index, &d->gid);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_verbs_query_gid", err);
		goto fail;
	}
	if (query_limits(d) != 0)
		goto fail;
	return 0;
fail:
	sample_dev_close(d);
	return -1;
}

void sample_dev_close(struct sample_dev *d)
{
	doca_error_t err;

	if (d->pd != NULL && (err = doca_verbs_pd_destroy(d->pd)) != DOCA_SUCCESS)
		sample_err_doca("doca_verbs_pd_destroy", err);
	d->pd = NULL;
	if (d->ctx != NULL && (err = doca_verbs_context_destroy(d->ctx)) != DOCA_SUCCESS)
		sample_err_doca("doca_verbs_context_destroy", err);
	d->ctx = NULL;
	if (d->list != NULL)
		(void)doca_devinfo_destroy_list(d->list);
	d->list = NULL;
}

int sample_cq_create(struct sample_dev *d, uint32_t ncqe, struct doca_verbs_cq **cq)
{
	struct doca_verbs_cq_attr *a = NULL;
	doca_error_t err;

	if (ncqe > d->max_cqe) {
		sample_err("a CQ of %u entries exceeds the device limit of %u", ncqe, d->max_cqe);
		return -1;
	}
	err = doca_verbs_cq_attr_create(&a);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_attr_set_cq_size(a, ncqe);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_cq_create(d->ctx, a, cq);
	if (a != NULL)
		(void)doca_verbs_cq_attr_destroy(a);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("creating a CQ", err);
		return -1;
	}
	return 0;
}

int sample_qp_create(struct sample_dev *d, const struct sample_qp_cfg *cfg, struct doca_verbs_qp **qp)
{
	struct doca_verbs_qp_init_attr *a = NULL;
	doca_error_t err;

	if (cfg->sq_wr > d->max_qp_wr || cfg->rq_wr > d->max_qp_wr) {
		sample_err("a QP of %u send / %u receive WQEs exceeds the device limit of %u", cfg->sq_wr, cfg->rq_wr,
			   d->max_qp_wr);
		return -1;
	}
	err = doca_verbs_qp_init_attr_create(&a);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_pd(a, d->pd);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_qp_type(a, cfg->qp_type);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_send_cq(a, cfg->send_cq);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_receive_cq(a, cfg->recv_cq);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_sq_wr(a, cfg->sq_wr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_rq_wr(a, cfg->rq_wr);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_send_max_sges(a, 1);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_set_receive_max_sges(a, 1);
	if (err == DOCA_SUCCESS && cfg->core_direct_master)
		err = doca_verbs_qp_init_attr_set_core_direct_master(a, 1);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_create(d->ctx, a, qp);
	if (a != NULL)
		(void)doca_verbs_qp_init_attr_destroy(a);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("creating a QP", err);
		return -1;
	}
	return 0;
}

bool sample_gid_is_ipv4(const struct doca_verbs_gid *gid)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

void sample_gid_str(const struct doca_verbs_gid *gid, char *buf, size_t len)
{
	if (inet_ntop(AF_INET6, gid->raw, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

unsigned int sample_mtu_bytes(enum doca_verbs_mtu_size mtu)
{
	return mtu <= DOCA_VERBS_MTU_SIZE_4K_BYTES ? 256u << (unsigned int)mtu : 0u;
}

/* The address of the peer as the link layer wants it. */
static int make_ah(struct sample_dev *d, const struct sample_peer *peer, bool force_ipv6,
		   struct doca_verbs_ah_attr **ah)
{
	doca_error_t err = doca_verbs_ah_attr_create(d->ctx, ah);
	bool ipv4 = sample_gid_is_ipv4(&peer->gid);

	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_ah_attr_create", err);
		return -1;
	}
	if (d->port.link_layer == OPENGDA_LINK_LAYER_INFINIBAND) {
		/* LID routing within the subnet: no GRH. */
		err = doca_verbs_ah_attr_set_addr_type(*ah, DOCA_VERBS_ADDR_TYPE_IB_NO_GRH);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_ah_attr_set_dlid(*ah, peer->lid);
	} else {
		if (force_ipv6 && ipv4)
			fprintf(stderr,
				"%s: warning: --ipv6: GID index %u of %s holds an IPv4 address; using the IPv4 "
				"address type (pick a GID index that holds an IPv6 address)\n",
				sample_prog(), d->gid_index, d->name);
		err = doca_verbs_ah_attr_set_addr_type(*ah, ipv4 ? DOCA_VERBS_ADDR_TYPE_IPv4 : DOCA_VERBS_ADDR_TYPE_IPv6);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_ah_attr_set_gid(*ah, peer->gid);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_ah_attr_set_sgid_index(*ah, (uint8_t)d->gid_index);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_ah_attr_set_hop_limit(*ah, SAMPLE_HOP_LIMIT);
	}
	if (err != DOCA_SUCCESS) {
		sample_err_doca("setting the address of the peer", err);
		(void)doca_verbs_ah_attr_destroy(*ah);
		*ah = NULL;
		return -1;
	}
	return 0;
}

static uint8_t min_u8(uint8_t a, uint8_t b)
{
	return a < b ? a : b;
}

/* RST->INIT: access rights, P_Key index, port. */
static doca_error_t to_init(struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, bool rc)
{
	int mask = DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE |
		   DOCA_VERBS_QP_ATTR_PKEY_INDEX | DOCA_VERBS_QP_ATTR_PORT_NUM;
	doca_error_t err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_INIT);

	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_allow_remote_write(a, 1);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_pkey_index(a, 0);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_port_num(a, SAMPLE_PORT_NUM);
	if (rc) {
		mask |= DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | DOCA_VERBS_QP_ATTR_ATOMIC_MODE;
		if (err == DOCA_SUCCESS)
			err = doca_verbs_qp_attr_set_allow_remote_read(a, 1);
		if (err == DOCA_SUCCESS)
			/* The GPUNetIO examples' fetch-and-add needs 8-byte atomics as responder. */
			err = doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_8BYTES);
	}
	return err != DOCA_SUCCESS ? err : doca_verbs_qp_modify(qp, a, mask);
}

enum doca_verbs_mtu_size sample_path_mtu(const struct sample_dev *d, const struct sample_peer *peer)
{
	/* Never more than either port carries; enum values grow with the size. */
	return d->port.active_mtu < peer->mtu ? d->port.active_mtu : peer->mtu;
}

/* INIT->RTR: the peer's QP, its first PSN, the path MTU and address. */
static doca_error_t to_rtr(struct sample_dev *d, struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, bool rc,
			   const struct sample_peer *peer, struct doca_verbs_ah_attr *ah)
{
	enum doca_verbs_mtu_size mtu = sample_path_mtu(d, peer);
	int mask = DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_RQ_PSN | DOCA_VERBS_QP_ATTR_DEST_QP_NUM |
		   DOCA_VERBS_QP_ATTR_PATH_MTU | DOCA_VERBS_QP_ATTR_AH_ATTR;
	doca_error_t err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTR);

	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_rq_psn(a, peer->psn);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_dest_qp_num(a, peer->qpn);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_path_mtu(a, mtu);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_ah_attr(a, ah);
	if (rc) {
		mask |= DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER;
		if (err == DOCA_SUCCESS)
			err = doca_verbs_qp_attr_set_min_rnr_timer(a, SAMPLE_MIN_RNR_TIMER);
		if (err == DOCA_SUCCESS && d->max_rd_atom > 0) {
			mask |= DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC;
			err = doca_verbs_qp_attr_set_max_dest_rd_atomic(a, min_u8(SAMPLE_RD_ATOMIC, d->max_rd_atom));
		}
	}
	return err != DOCA_SUCCESS ? err : doca_verbs_qp_modify(qp, a, mask);
}

/* RTR->RTS: the first send PSN and, for RC, the retry policy. */
static doca_error_t to_rts(struct sample_dev *d, struct doca_verbs_qp *qp, struct doca_verbs_qp_attr *a, bool rc,
			   uint32_t sq_psn)
{
	int mask = DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_SQ_PSN;
	doca_error_t err = doca_verbs_qp_attr_set_next_state(a, DOCA_VERBS_QP_STATE_RTS);

	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_attr_set_sq_psn(a, sq_psn);
	if (rc) {
		mask |= DOCA_VERBS_QP_ATTR_ACK_TIMEOUT | DOCA_VERBS_QP_ATTR_RETRY_CNT | DOCA_VERBS_QP_ATTR_RNR_RETRY;
		if (err == DOCA_SUCCESS)
			err = doca_verbs_qp_attr_set_ack_timeout(a, SAMPLE_ACK_TIMEOUT);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_qp_attr_set_retry_cnt(a, SAMPLE_RETRY_CNT);
		if (err == DOCA_SUCCESS)
			err = doca_verbs_qp_attr_set_rnr_retry(a, SAMPLE_RNR_RETRY);
		if (err == DOCA_SUCCESS && d->max_init_rd_atom > 0) {
			mask |= DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC;
			err = doca_verbs_qp_attr_set_max_rd_atomic(a, min_u8(SAMPLE_RD_ATOMIC, d->max_init_rd_atom));
		}
	}
	return err != DOCA_SUCCESS ? err : doca_verbs_qp_modify(qp, a, mask);
}

int sample_qp_connect(struct sample_dev *d, struct doca_verbs_qp *qp, uint32_t qp_type, uint32_t sq_psn,
		      const struct sample_peer *peer, bool force_ipv6)
{
	struct doca_verbs_ah_attr *ah = NULL;
	struct doca_verbs_qp_attr *a = NULL;
	bool rc = qp_type == DOCA_VERBS_QP_TYPE_RC;
	const char *step = "RST->INIT";
	doca_error_t err;

	if (make_ah(d, peer, force_ipv6, &ah) != 0)
		return -1;
	err = doca_verbs_qp_attr_create(&a);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_qp_attr_create", err);
		(void)doca_verbs_ah_attr_destroy(ah);
		return -1;
	}
	err = to_init(qp, a, rc);
	if (err == DOCA_SUCCESS) {
		step = "INIT->RTR";
		err = to_rtr(d, qp, a, rc, peer, ah);
	}
	if (err == DOCA_SUCCESS) {
		step = "RTR->RTS";
		err = to_rts(d, qp, a, rc, sq_psn);
	}
	(void)doca_verbs_qp_attr_destroy(a);
	(void)doca_verbs_ah_attr_destroy(ah);
	if (err != DOCA_SUCCESS) {
		char what[64];

		snprintf(what, sizeof(what), "QP %s", step);
		sample_err_doca(what, err);
		return -1;
	}
	return 0;
}

int sample_qp_query_path_mtu(struct doca_verbs_qp *qp, enum doca_verbs_mtu_size *mtu)
{
	struct doca_verbs_qp_init_attr *ia = NULL;
	struct doca_verbs_qp_attr *a = NULL;
	int mask = 0;
	doca_error_t err = doca_verbs_qp_attr_create(&a);

	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_init_attr_create(&ia);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_qp_query(qp, a, ia, &mask);
	if (err == DOCA_SUCCESS)
		*mtu = doca_verbs_qp_attr_get_path_mtu(a);
	if (ia != NULL)
		(void)doca_verbs_qp_init_attr_destroy(ia);
	if (a != NULL)
		(void)doca_verbs_qp_attr_destroy(a);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_verbs_qp_query", err);
		return -1;
	}
	return 0;
}

int sample_poll_one(struct doca_verbs_cq *cq, int timeout_ms, const char *what, struct ibv_wc *wc)
{
	int64_t deadline = sample_now_ms() + timeout_ms;
	unsigned int empty = 0;

	for (;;) {
		int n = doca_verbs_bridge_poll_cq(cq, 1, wc);

		if (n < 0) {
			sample_err("%s: doca_verbs_bridge_poll_cq returned %d", what, n);
			return -1;
		}
		if (n == 1)
			break;
		if ((++empty & 1023u) == 0 && sample_now_ms() >= deadline) {
			sample_err("%s: no completion within %d ms", what, timeout_ms);
			return -1;
		}
		/* Leave the CPU to the NIC's threads (the software NIC runs on the same cores). */
		if (empty > 1024)
			sample_sleep_us(20);
		else
			sched_yield();
	}
	if (wc->status != IBV_WC_SUCCESS) {
		sample_err("%s: completion error: %s (status %d), vendor_err 0x%x, QP 0x%x, wr_id %llu", what,
			   ibv_wc_status_str(wc->status), (int)wc->status, wc->vendor_err, wc->qp_num,
			   (unsigned long long)wc->wr_id);
		return -1;
	}
	return 0;
}

enum ibv_wc_status sample_wc_status_from_syndrome(uint8_t syndrome)
{
	switch (syndrome) {
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR: return IBV_WC_LOC_LEN_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR: return IBV_WC_LOC_QP_OP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR: return IBV_WC_LOC_PROT_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR: return IBV_WC_WR_FLUSH_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_MW_BIND_ERR: return IBV_WC_MW_BIND_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_BAD_RESP_ERR: return IBV_WC_BAD_RESP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR: return IBV_WC_LOC_ACCESS_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR: return IBV_WC_REM_INV_REQ_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR: return IBV_WC_REM_ACCESS_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR: return IBV_WC_REM_OP_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR: return IBV_WC_RETRY_EXC_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR: return IBV_WC_RNR_RETRY_EXC_ERR;
	case OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR: return IBV_WC_REM_ABORT_ERR;
	default: return IBV_WC_GENERAL_ERR;
	}
}
