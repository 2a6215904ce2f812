/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma connections: export gives the next free connection's QP number, GID (the software
 * NIC's fabric endpoint is in it), LID and first PSN; connect takes the peer's and moves the QP to
 * RTS towards it (verbs_qp_connect_rc), granting the context's permissions. The connection
 * manager (rdma_cm.c) exchanges the same details itself. Also the per-connection getters.
 */
#include "rdma/rdma_priv.h"

#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "opengda.h"

#include <string.h>

#define RDMA_PSN_BASE 0x2000u

bool rdma_running(const struct doca_rdma *rdma)
{
	enum doca_ctx_states s;

	(void)doca_ctx_get_state(&rdma->ctx, &s);
	return s == DOCA_CTX_STATE_RUNNING;
}

struct doca_rdma_connection *rdma_conn_take(struct doca_rdma *rdma, const char *func)
{
	struct doca_rdma_connection *c = NULL;
	struct opengda_port_attr port;
	struct doca_verbs_gid gid;
	doca_error_t err;

	for (uint32_t i = 0; i < rdma->nconn && c == NULL; i++)
		if (!rdma->conns[i].exported)
			c = &rdma->conns[i];
	if (c == NULL) {
		OGDA_LOG_ERR("rdma: %s: all %u connections are in use (doca_rdma_set_max_num_connections)", func,
			     rdma->nconn);
		return NULL;
	}
	if ((err = opengda_verbs_query_port(rdma->pd->ctx, 1, &port)) != DOCA_SUCCESS ||
	    (err = opengda_verbs_query_gid(rdma->pd->ctx, 1, rdma->gid_index, &gid)) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("rdma: %s: cannot read the port's address (GID index %u): %s", func, rdma->gid_index,
			     doca_error_get_descr(err));
		return NULL;
	}
	c->local = (struct rdma_conn_details){.magic = RDMA_CONN_MAGIC,
					      .version = RDMA_CONN_VERSION,
					      .lid = port.lid,
					      .psn = RDMA_PSN_BASE + c->id};
	memcpy(c->local.gid, gid.raw, sizeof(c->local.gid));
	if (doca_verbs_qp_get_qpn(c->qp->qp, &c->local.qpn) != DOCA_SUCCESS)
		return NULL;
	c->exported = true;
	return c;
}

doca_error_t rdma_conn_link(struct doca_rdma_connection *c, const struct rdma_conn_details *d)
{
	struct doca_rdma *rdma = c->rdma;
	struct verbs_rc_peer peer = {0};
	doca_error_t err;

	if (d->magic != RDMA_CONN_MAGIC || d->version != RDMA_CONN_VERSION) {
		OGDA_LOG_ERR("rdma: connect: not the details of a doca_rdma_export of this library");
		return DOCA_ERROR_INVALID_VALUE;
	}
	peer.qpn = d->qpn;
	memcpy(peer.gid.raw, d->gid, sizeof(d->gid));
	peer.lid = d->lid;
	peer.sgid_index = rdma->gid_index;
	peer.sq_psn = c->local.psn;
	peer.rq_psn = d->psn;
	peer.allow_remote_write = (rdma->permissions & DOCA_ACCESS_FLAG_RDMA_WRITE) != 0;
	peer.allow_remote_read = (rdma->permissions & DOCA_ACCESS_FLAG_RDMA_READ) != 0;
	peer.allow_remote_atomic = (rdma->permissions & DOCA_ACCESS_FLAG_RDMA_ATOMIC) != 0;
	err = verbs_qp_connect_rc(rdma->pd->ctx, c->qp->qp, &peer);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_INVALID_VALUE ? err : DOCA_ERROR_DRIVER;
	c->connected = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_export(struct doca_rdma *rdma, const void **local_rdma_conn_details,
			      size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection)
{
	struct doca_rdma_connection *c;

	if (rdma == NULL || local_rdma_conn_details == NULL || local_rdma_conn_details_size == NULL ||
	    rdma_connection == NULL) {
		OGDA_LOG_ERR("rdma: export: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!rdma_running(rdma)) {
		OGDA_LOG_ERR("rdma: export: start the context first");
		return DOCA_ERROR_BAD_STATE;
	}
	c = rdma_conn_take(rdma, "export");
	if (c == NULL)
		return DOCA_ERROR_FULL;
	*local_rdma_conn_details = &c->local;
	*local_rdma_conn_details_size = sizeof(c->local);
	*rdma_connection = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details,
			       size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection)
{
	struct doca_rdma_connection *c = rdma_connection;
	struct rdma_conn_details d;

	if (rdma == NULL || remote_rdma_conn_details == NULL || c == NULL || c->rdma != rdma) {
		OGDA_LOG_ERR("rdma: connect: NULL argument or a connection of another context");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (remote_rdma_conn_details_size != sizeof(d)) {
		OGDA_LOG_ERR("rdma: connect: connection details have %zu bytes, not %zu",
			     remote_rdma_conn_details_size, sizeof(d));
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(&d, remote_rdma_conn_details, sizeof(d)); /* rdma_conn_link checks magic and version */
	if (!rdma_running(rdma) || !c->exported || c->connected || c->cm != RDMA_CM_NONE) {
		OGDA_LOG_ERR("rdma: connect: connection %u is %s", c->id,
			     !rdma_running(rdma) ? "of a stopped context"
			     : c->connected      ? "connected already"
			     : c->cm != RDMA_CM_NONE ? "the connection manager's"
						 : "not exported");
		return DOCA_ERROR_BAD_STATE;
	}
	return rdma_conn_link(c, &d);
}

doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id)
{
	if (rdma_connection == NULL || connection_id == NULL) {
		OGDA_LOG_ERR("rdma: rdma_connection and connection_id must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*connection_id = rdma_connection->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection,
						union doca_data connection_user_data)
{
	if (rdma_connection == NULL) {
		OGDA_LOG_ERR("rdma: connection_set_user_data: NULL connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma_connection->user_data = connection_user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection,
						union doca_data *connection_user_data)
{
	if (rdma_connection == NULL || connection_user_data == NULL) {
		OGDA_LOG_ERR("rdma: connection_get_user_data: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*connection_user_data = rdma_connection->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection,
					   struct doca_rdma_addr **addr)
{
	if (rdma_connection == NULL || addr == NULL) {
		OGDA_LOG_ERR("rdma: connection_get_addr: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!rdma_connection->has_peer) {
		OGDA_LOG_ERR("rdma: connection_get_addr: connection %u was not made by the connection manager",
			     rdma_connection->id);
		return DOCA_ERROR_NOT_FOUND;
	}
	*addr = (struct doca_rdma_addr *)&rdma_connection->peer;
	return DOCA_SUCCESS;
}
