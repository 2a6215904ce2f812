/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's GID: its fabric endpoint, written where RoCE puts a GID, so that
 * applications connect software NICs with the QPN + GID they already exchange.
 *
 *   bytes 0-7    fd 4f 47 44 41 01 00 00   IPv6 ULA prefix "fd", "OGDA", format version 1
 *   bytes 8-9    NIC index within its process (BE16)
 *   bytes 10-11  TCP port of the NIC's fabric listener (BE16)
 *   bytes 12-15  IPv4 address of the listener
 */
#ifndef OGDA_SWNIC_GID_H_
#define OGDA_SWNIC_GID_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWNIC_GID_FORMAT_VERSION 1u

/* A software NIC's fabric endpoint. */
struct swnic_endpoint {
	uint32_t ipv4;       /* host byte order: 127.0.0.1 is 0x7f000001 */
	uint16_t port;       /* host byte order */
	uint16_t nic_index;
};

/* Writes the GID of ep. */
doca_error_t swnic_gid_encode(const struct swnic_endpoint *ep, uint8_t gid[16]);
/* True when gid carries the software NIC prefix and format version 1. */
bool swnic_gid_is_swnic(const uint8_t gid[16]);
/* DOCA_ERROR_NOT_CONNECTED when gid is not a software NIC GID (e.g. a RoCE GID). */
doca_error_t swnic_gid_decode(const uint8_t gid[16], struct swnic_endpoint *ep);
/* "a.b.c.d:port" for log lines; always NUL-terminates buf. */
void swnic_endpoint_format(const struct swnic_endpoint *ep, char *buf, size_t cap);

#endif /* OGDA_SWNIC_GID_H_ */
