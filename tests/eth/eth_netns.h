/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A network namespace of the process's own with a veth pair in it, for the Ethernet tests and
 * the Ethernet benchmark: the software NIC's port sends on one end, Linux receives on the other.
 * Call before any thread exists (unshare of a user namespace refuses a threaded process).
 */
#ifndef OGDA_TESTS_ETH_ETH_NETNS_H_
#define OGDA_TESTS_ETH_ETH_NETNS_H_

#include <stddef.h>
#include <stdint.h>

#define ETH_NETNS_NIC_IF "ogda0"   /* the software NIC's end */
#define ETH_NETNS_HOST_IF "ogda1"  /* the Linux end, 10.77.0.2/24 */
#define ETH_NETNS_HOST_IP 0x0a4d0002u

/*
 * Enters a new network namespace (and a user namespace when not root), brings lo up and makes
 * the veth pair. 0, or -1 with the reason in why (no namespaces, no iproute2, no veth).
 */
int eth_netns_enter(char *why, size_t n);
/* (Re)makes the veth pair and the Linux end's address in the current namespace: 0 or -1. */
int eth_netns_veth_create(void);

/* The MAC address of interface ifname; 0 or -1. */
int eth_netns_if_mac(const char *ifname, uint8_t mac[6]);

#endif /* OGDA_TESTS_ETH_ETH_NETNS_H_ */
