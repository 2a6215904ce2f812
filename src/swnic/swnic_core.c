/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Software NIC instances: the process-wide registry, the capability model, and lookups
 * of QPs and CQs by number for the data path.
 *
 * An instance is created on its first open and destroyed when its last reference goes
 * (device handles, objects of the device binding, and swnic_find_by_gid() callers all
 * hold references). Creation and destruction of one index are serialised: an open that
 * arrives while the same index is being torn down waits for the teardown to finish, so
 * a new instance never races the old one for its endpoint.
 */
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_steer.h"
#include "swnic/swnic_event.h"

#include "core/env.h"
#include "core/log.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_qpc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t registry_cond = PTHREAD_COND_INITIALIZER;
static struct swnic *registry[SWNIC_MAX_INSTANCES];
/* An open or a close of this index is creating or destroying its instance. */
static bool registry_busy[SWNIC_MAX_INSTANCES];

/*
 * The capability model: a ConnectX-7-like RoCE device with one Ethernet port. The
 * command executor enforces these limits, so what QUERY_HCA_CAP reports is what holds.
 */
static void caps_fill(struct swnic *nic)
{
	struct prm_hca_cap_general *g = &nic->cap_general;
	struct prm_hca_cap_roce *r = &nic->cap_roce;
	struct prm_hca_cap_atomic *a = &nic->cap_atomic;
	struct prm_hca_cap_general_2 *g2 = &nic->cap_general_2;

	memset(g, 0, sizeof(*g));
	g->hca_cap_2 = 1;
	g->vhca_id = (uint16_t)nic->index;
	g->log_max_srq_sz = 15;
	g->log_max_qp_sz = 15;         /* SQ: 32 Ki WQEBBs, RQ: 32 Ki WQEs */
	g->log_max_qp = 16;
	g->log_max_srq = 16;
	g->max_sgl_for_optimized_performance = 8;
	g->log_max_cq_sz = 22;
	g->log_max_cq = 16;
	g->log_max_mkey = 16;
	g->log_max_mrw_sz = 64;
	g->log_max_ra_req_qp = 4;      /* 16 outstanding RDMA READ / atomic as requester */
	g->log_max_ra_res_qp = 4;
	g->gid_table_size = 0;         /* encoding 0: the smallest table; RoCE uses roce_address_table_size */
	g->pkey_table_size = 0;
	g->local_ca_ack_delay = 16;
	g->port_type = PRM_HCA_PORT_TYPE_ETH;
	g->num_ports = 1;
	g->log_max_msg = 30;
	g->cqe_version = 1;
	g->roce = 1;
	g->atomic = 1;
	g->cq_oi = 1;
	g->cq_resize = 0;
	g->cq_moderation = 1;
	g->cd = 1;
	g->xrc = 0;
	g->ud = 0;
	g->uc = 1;
	g->rc = 1;
	g->uar_4k = 1;
	g->uar_sz = 0;
	g->log_pg_sz = 12;
	g->bf = 1;
	g->log_bf_reg_size = 9;        /* SWNIC_UAR_BF_REG_SIZE: two halves of 256 B */
	g->max_wqe_sz_sq = 1024;       /* 16 WQEBBs */
	g->max_wqe_sz_rq = 512;
	g->log_max_transport_domain = 16;
	g->log_max_pd = 16;
	g->basic_cyclic_rcv_wqe = 0;
	g->log_max_rmp = 16;
	g->log_max_wq_sz = 15;
	g->log_max_uctx = 0;
	g->log_max_umem = 16;
	g->log_uar_page_sz = 0;        /* 4 KiB UAR pages */
	g->num_of_uars_per_page = 1;

	memset(r, 0, sizeof(*r));
	r->sw_r_roce_src_udp_port = 1;
	r->qp_ts_format = 0;
	r->l3_type = (1u << 1) | (1u << 2);
	r->roce_version = 1u << PRM_ROCE_VERSION_2;
	r->r_roce_dest_udp_port = 4791;
	r->r_roce_min_src_udp_port = 0xc000;
	r->r_roce_max_src_udp_port = 0xffff;
	r->roce_address_table_size = 1;

	memset(a, 0, sizeof(*a));
	a->atomic_req_8B_endianness_mode = 1;    /* host endianness for 8-byte results */
	a->supported_atomic_req_8B_endianness_mode_1 = 1;
	a->atomic_operations = 0x0f;             /* CS, FA, masked CS, masked FA */
	a->atomic_size_qp = (1u << 2) | (1u << 3); /* 4 and 8 bytes */
	a->atomic_size_dc = 0;

	memset(g2, 0, sizeof(*g2));
	g2->send_dbr_mode_no_dbr_int = 0;
	g2->send_dbr_mode_no_dbr_ext = 1;
	g2->log_max_send_dbr_less_qp_sq = 15;
}

uint32_t swnic_count(void)
{
	long v = 1;

	if (ogda_env_get_long("OPENGDA_SWNIC_COUNT", 0, SWNIC_MAX_INSTANCES, 1, &v) != DOCA_SUCCESS)
		OGDA_LOG_ERR("OPENGDA_SWNIC_COUNT must be a number of software NICs in 0..%u; using 1",
			     SWNIC_MAX_INSTANCES);
	return (uint32_t)v;
}

uint8_t swnic_port_mtu_from_env(void)
{
	long v = 4096;

	if (ogda_env_get_long(SWNIC_ENV_MTU, 256, 4096, 4096, &v) != DOCA_SUCCESS ||
	    (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096)) {
		OGDA_LOG_ERR("%s must be 256, 512, 1024, 2048 or 4096 (the port MTU in bytes); using 4096",
			     SWNIC_ENV_MTU);
		v = 4096;
	}
	switch (v) {
	case 256:
		return PRM_QP_MTU_256;
	case 512:
		return PRM_QP_MTU_512;
	case 1024:
		return PRM_QP_MTU_1024;
	case 2048:
		return PRM_QP_MTU_2048;
	default:
		return PRM_QP_MTU_4096;
	}
}

static void nic_destroy(struct swnic *nic)
{
	/* Outgoing traffic stops first, then incoming, then events, then the objects go. */
	if (nic->engine != NULL)
		swnic_engine_destroy(nic->engine);
	if (nic->fabric != NULL)
		swnic_fabric_destroy(nic->fabric);
	swnic_eth_detach(nic);
	swnic_steer_destroy(nic->steer);
	swnic_events_destroy(nic->events);
	swnic_cmd_release_all(nic);
	swnic_mem_release_all(nic);
	pthread_mutex_destroy(&nic->eth_lock);
	pthread_rwlock_destroy(&nic->lock);
	free(nic);
}

static doca_error_t nic_create(uint32_t index, struct swnic **out)
{
	const struct prm_hca_cap_general *g;
	struct swnic *nic;
	doca_error_t err;

	nic = calloc(1, sizeof(*nic));
	if (nic == NULL)
		return DOCA_ERROR_NO_MEMORY;
	nic->index = index;
	snprintf(nic->name, sizeof(nic->name), "swnic%u", index);
	if (pthread_rwlock_init(&nic->lock, NULL) != 0) {
		free(nic);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	caps_fill(nic);
	g = &nic->cap_general;
	swnic_table_init(&nic->pds, SWNIC_PD_BASE, 1u << g->log_max_pd);
	swnic_table_init(&nic->umems, SWNIC_UMEM_BASE, 1u << g->log_max_umem);
	swnic_table_init(&nic->uars, SWNIC_UAR_BASE, SWNIC_MAX_UARS);
	swnic_table_init(&nic->mrs, SWNIC_MR_INDEX_BASE, 1u << g->log_max_mkey);
	swnic_table_init(&nic->cqs, SWNIC_CQ_BASE, 1u << g->log_max_cq);
	swnic_qpn_table_init(&nic->qps, 1u << g->log_max_qp);
	swnic_table_init(&nic->srqs, SWNIC_SRQ_BASE, 1u << g->log_max_srq);
	swnic_table_init(&nic->tises, SWNIC_TIS_BASE, SWNIC_MAX_TISES);
	swnic_table_init(&nic->tds, SWNIC_TD_BASE, SWNIC_MAX_TDS);
	pthread_mutex_init(&nic->eth_lock, NULL);
	atomic_init(&nic->refs, 1);
	nic->port_mtu = swnic_port_mtu_from_env();

	/* Before the fabric and the engine: both raise events from their threads. */
	err = swnic_events_create(nic, &nic->events);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot create the event registry: %s", nic->name, doca_error_get_name(err));
		nic->events = NULL;
		nic_destroy(nic);
		return err;
	}
	err = swnic_steer_create(nic, &nic->steer);
	if (err != DOCA_SUCCESS) {
		nic->steer = NULL;
		nic_destroy(nic);
		return err;
	}
	err = swnic_fabric_create(nic, &nic->fabric, nic->gid);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot start the fabric endpoint: %s", nic->name, doca_error_get_name(err));
		nic->fabric = NULL;
		nic_destroy(nic);
		return err;
	}
	err = swnic_engine_create(nic, &nic->engine);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot start the engine: %s", nic->name, doca_error_get_name(err));
		nic->engine = NULL;
		nic_destroy(nic);
		return err;
	}
	swnic_eth_attach_from_env(nic);
	OGDA_LOG_DBG("%s: created", nic->name);
	*out = nic;
	return DOCA_SUCCESS;
}

doca_error_t swnic_open(uint32_t index, struct swnic **out)
{
	struct swnic *nic = NULL;
	uint32_t count;
	doca_error_t err;

	if (out == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	count = swnic_count();
	if (index >= count) {
		OGDA_LOG_ERR("software NIC %u does not exist (OPENGDA_SWNIC_COUNT = %u)", index, count);
		return DOCA_ERROR_NOT_FOUND;
	}
	pthread_mutex_lock(&registry_lock);
	while (registry_busy[index])
		pthread_cond_wait(&registry_cond, &registry_lock);
	if (registry[index] != NULL) {
		nic = registry[index];
		atomic_fetch_add(&nic->refs, 1);
		pthread_mutex_unlock(&registry_lock);
		*out = nic;
		return DOCA_SUCCESS;
	}
	registry_busy[index] = true;
	pthread_mutex_unlock(&registry_lock);

	/* Created outside the lock: the engine and fabric start threads that may look up peers. */
	err = nic_create(index, &nic);

	pthread_mutex_lock(&registry_lock);
	if (err == DOCA_SUCCESS)
		registry[index] = nic;
	registry_busy[index] = false;
	pthread_cond_broadcast(&registry_cond);
	pthread_mutex_unlock(&registry_lock);
	if (err == DOCA_SUCCESS)
		*out = nic;
	return err;
}

void swnic_get(struct swnic *nic)
{
	if (nic == NULL) {
		OGDA_LOG_ERR("nic must not be NULL");
		return;
	}
	pthread_mutex_lock(&registry_lock);
	atomic_fetch_add(&nic->refs, 1);
	pthread_mutex_unlock(&registry_lock);
}

void swnic_close(struct swnic *nic)
{
	uint32_t index;

	if (nic == NULL)
		return;
	index = nic->index;
	pthread_mutex_lock(&registry_lock);
	if (atomic_load(&nic->refs) == 0 || index >= SWNIC_MAX_INSTANCES || registry[index] != nic) {
		pthread_mutex_unlock(&registry_lock);
		OGDA_LOG_ERR("%s is not open", nic->name);
		return;
	}
	if (atomic_fetch_sub(&nic->refs, 1) != 1) {
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	registry[index] = NULL;
	registry_busy[index] = true;
	pthread_mutex_unlock(&registry_lock);

	OGDA_LOG_DBG("%s: destroying", nic->name);
	nic_destroy(nic);

	pthread_mutex_lock(&registry_lock);
	registry_busy[index] = false;
	pthread_cond_broadcast(&registry_cond);
	pthread_mutex_unlock(&registry_lock);
}

struct swnic *swnic_find_by_gid(const uint8_t gid[16])
{
	struct swnic *found = NULL;
	uint32_t i;

	if (gid == NULL) {
		OGDA_LOG_ERR("gid must not be NULL");
		return NULL;
	}
	pthread_mutex_lock(&registry_lock);
	for (i = 0; i < SWNIC_MAX_INSTANCES; i++) {
		struct swnic *nic = registry[i];

		if (nic != NULL && memcmp(nic->gid, gid, sizeof(nic->gid)) == 0) {
			atomic_fetch_add(&nic->refs, 1);
			found = nic;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

/*
 * A QP's refs count acquisitions only: DESTROY_QP removes the QP from the table, detaches
 * it from the engine and then waits for them to drain. A CQ's refs also count the QPs that
 * complete to it, so DESTROY_CQ fails while it is acquired.
 */
struct swnic_qp *swnic_qp_acquire(struct swnic *nic, uint32_t qpn)
{
	struct swnic_qp *qp;

	if (nic == NULL)
		return NULL;
	pthread_rwlock_rdlock(&nic->lock);
	qp = swnic_qpn_table_lookup(&nic->qps, qpn);
	if (qp != NULL)
		atomic_fetch_add(&qp->refs, 1);
	pthread_rwlock_unlock(&nic->lock);
	return qp;
}

void swnic_qp_release(struct swnic_qp *qp)
{
	if (qp != NULL)
		atomic_fetch_sub(&qp->refs, 1);
}

struct swnic_cq *swnic_cq_acquire(struct swnic *nic, uint32_t cqn)
{
	struct swnic_cq *cq;

	if (nic == NULL)
		return NULL;
	pthread_rwlock_rdlock(&nic->lock);
	cq = swnic_table_lookup(&nic->cqs, cqn);
	if (cq != NULL)
		atomic_fetch_add(&cq->refs, 1);
	pthread_rwlock_unlock(&nic->lock);
	return cq;
}

void swnic_cq_release(struct swnic_cq *cq)
{
	if (cq != NULL)
		atomic_fetch_sub(&cq->refs, 1);
}
