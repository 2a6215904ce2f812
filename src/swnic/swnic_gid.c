/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_gid.h"

#include "core/log.h"

#include <stdio.h>
#include <string.h>

/* "fd" makes it an IPv6 unique-local address, so it never collides with a routable GID. */
static const uint8_t swnic_gid_prefix[8] = {0xfd, 'O', 'G', 'D', 'A', SWNIC_GID_FORMAT_VERSION, 0x00, 0x00};

doca_error_t swnic_gid_encode(const struct swnic_endpoint *ep, uint8_t gid[16])
{
	if (ep == NULL || gid == NULL) {
		OGDA_LOG_ERR("swnic GID encode: NULL argument (ep %p, gid %p)", (const void *)ep, (void *)gid);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(gid, swnic_gid_prefix, sizeof(swnic_gid_prefix));
	gid[8] = (uint8_t)(ep->nic_index >> 8);
	gid[9] = (uint8_t)ep->nic_index;
	gid[10] = (uint8_t)(ep->port >> 8);
	gid[11] = (uint8_t)ep->port;
	gid[12] = (uint8_t)(ep->ipv4 >> 24);
	gid[13] = (uint8_t)(ep->ipv4 >> 16);
	gid[14] = (uint8_t)(ep->ipv4 >> 8);
	gid[15] = (uint8_t)ep->ipv4;
	return DOCA_SUCCESS;
}

bool swnic_gid_is_swnic(const uint8_t gid[16])
{
	return gid != NULL && memcmp(gid, swnic_gid_prefix, sizeof(swnic_gid_prefix)) == 0;
}

doca_error_t swnic_gid_decode(const uint8_t gid[16], struct swnic_endpoint *ep)
{
	if (gid == NULL || ep == NULL) {
		OGDA_LOG_ERR("swnic GID decode: NULL argument (gid %p, ep %p)", (const void *)gid, (void *)ep);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* A foreign GID is a reachability problem of the QP, not bad input: no error log. */
	if (!swnic_gid_is_swnic(gid)) {
		OGDA_LOG_DBG("GID %02x%02x:%02x%02x:... is not a software NIC GID", gid[0], gid[1], gid[2], gid[3]);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	ep->nic_index = (uint16_t)((gid[8] << 8) | gid[9]);
	ep->port = (uint16_t)((gid[10] << 8) | gid[11]);
	ep->ipv4 = ((uint32_t)gid[12] << 24) | ((uint32_t)gid[13] << 16) | ((uint32_t)gid[14] << 8) | gid[15];
	return DOCA_SUCCESS;
}

void swnic_endpoint_format(const struct swnic_endpoint *ep, char *buf, size_t cap)
{
	if (buf == NULL || cap == 0)
		return;
	if (ep == NULL) {
		snprintf(buf, cap, "(none)");
		return;
	}
	snprintf(buf, cap, "%u.%u.%u.%u:%u", (unsigned)(ep->ipv4 >> 24), (unsigned)((ep->ipv4 >> 16) & 0xff),
		 (unsigned)((ep->ipv4 >> 8) & 0xff), (unsigned)(ep->ipv4 & 0xff), (unsigned)ep->port);
}
