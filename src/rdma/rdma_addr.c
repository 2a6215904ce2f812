/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma_addr: where the connection manager (rdma_cm.c) connects to. The text is parsed once
 * into a socket address; a GID is IPv6 text, and an IPv4-mapped GID (the form RoCE v2 gives an
 * IPv4 interface address, ::ffff:a.b.c.d) names that IPv4 host.
 */
#include "rdma/rdma_priv.h"

#include "core/log.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static bool parse(struct doca_rdma_addr *a, const char *text)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&a->sa;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)&a->sa;
	struct in6_addr in6;

	memset(&a->sa, 0, sizeof(a->sa));
	if (a->type == DOCA_RDMA_ADDR_TYPE_IPv4) {
		if (inet_pton(AF_INET, text, &v4->sin_addr) != 1)
			return false;
	} else {
		if (inet_pton(AF_INET6, text, &in6) != 1)
			return false;
		if (a->type == DOCA_RDMA_ADDR_TYPE_GID && IN6_IS_ADDR_V4MAPPED(&in6)) {
			memcpy(&v4->sin_addr, &in6.s6_addr[12], 4);
		} else {
			v6->sin6_family = AF_INET6;
			v6->sin6_addr = in6;
			v6->sin6_port = htons(a->port);
			a->sa_len = sizeof(*v6);
			return true;
		}
	}
	v4->sin_family = AF_INET;
	v4->sin_port = htons(a->port);
	a->sa_len = sizeof(*v4);
	return true;
}

doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type, const char *address, uint16_t port,
				   struct doca_rdma_addr **addr)
{
	struct doca_rdma_addr *a;

	if (address == NULL || addr == NULL || port == 0) {
		OGDA_LOG_ERR("rdma: addr_create: address and addr must not be NULL, port not 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (addr_type != DOCA_RDMA_ADDR_TYPE_IPv4 && addr_type != DOCA_RDMA_ADDR_TYPE_IPv6 &&
	    addr_type != DOCA_RDMA_ADDR_TYPE_GID) {
		OGDA_LOG_ERR("rdma: addr_create: unknown address type %d", (int)addr_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (strlen(address) >= sizeof(a->text)) {
		OGDA_LOG_ERR("rdma: addr_create: address text of %zu characters", strlen(address));
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("rdma: addr_create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->type = addr_type;
	a->port = port;
	strcpy(a->text, address);
	if (!parse(a, address)) {
		OGDA_LOG_ERR("rdma: addr_create: \"%s\" is not %s", address,
			     addr_type == DOCA_RDMA_ADDR_TYPE_IPv4   ? "an IPv4 address"
			     : addr_type == DOCA_RDMA_ADDR_TYPE_IPv6 ? "an IPv6 address"
								     : "a GID (IPv6 text)");
		free(a);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*addr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	if (addr == NULL) {
		OGDA_LOG_ERR("rdma: addr_destroy: NULL address");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(addr);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr, enum doca_rdma_addr_type *addr_type,
				       const char **address, uint16_t *port)
{
	if (addr == NULL || addr_type == NULL || address == NULL || port == NULL) {
		OGDA_LOG_ERR("rdma: addr_get_params: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*addr_type = addr->type;
	*address = addr->text;
	*port = addr->port;
	return DOCA_SUCCESS;
}
