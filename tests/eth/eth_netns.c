/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "eth_netns.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int enter(char *why, size_t n)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (uid == 0) {
		if (unshare(CLONE_NEWNET) == 0)
			return 0;
	} else if (unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
		if (write_file("/proc/self/setgroups", "deny") == 0 && write_file("/proc/self/uid_map", map) == 0) {
			snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
			if (write_file("/proc/self/gid_map", map) == 0)
				return 0;
		}
		snprintf(why, n, "cannot map ids in the new user namespace");
		return -1;
	}
	snprintf(why, n, "unshare(CLONE_NEWNET) failed: %s", strerror(errno));
	return -1;
}

int eth_netns_veth_create(void)
{
	return system("ip link add " ETH_NETNS_NIC_IF " type veth peer name " ETH_NETNS_HOST_IF
		      " && ip link set " ETH_NETNS_NIC_IF " up && ip link set " ETH_NETNS_HOST_IF " up"
		      " && ip addr add 10.77.0.2/24 dev " ETH_NETNS_HOST_IF " 2>&1") == 0
		       ? 0
		       : -1;
}

int eth_netns_enter(char *why, size_t n)
{
	if (enter(why, n) != 0)
		return -1;
	if (system("command -v ip >/dev/null 2>&1") != 0) {
		snprintf(why, n, "iproute2 (ip) is not installed");
		return -1;
	}
	if (system("ip link set lo up") != 0 || eth_netns_veth_create() != 0) {
		snprintf(why, n, "cannot create the veth pair " ETH_NETNS_NIC_IF "/" ETH_NETNS_HOST_IF);
		return -1;
	}
	return 0;
}

int eth_netns_if_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0), rc;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	rc = ioctl(s, SIOCGIFHWADDR, &ifr);
	close(s);
	if (rc != 0)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}
