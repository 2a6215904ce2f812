/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_devinfo queries of doca_dev.h: PCI address, network interface, MAC and IPv4 address.
 *
 * A ConnectX answers from sysfs, as rdma-core exposes it: the PCI function is the target of
 * <sysfs>/class/infiniband/<dev>/device, the interface the first entry of its net/ folder, the
 * MAC that interface's address file, the IPv4 address the interface's first one (getifaddrs).
 *
 * The software NIC has no PCI function and no interface of its own. It answers with what it
 * models: a PCI address in domain ffff (bus = NIC index), and its fabric endpoint, the IPv4
 * address in its GID (127.0.0.1 unless OPENGDA_SWNIC_ADDR says otherwise), the MAC its RoCE
 * model derives from that address (02:00 + the four bytes, as resolve_rmac) and the Linux
 * interface that holds that address ("lo" for 127.0.0.1).
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "devx/sw.h"
#include "sdk/sdk_forward.h"
#include "verbs/verbs_priv.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define SWNIC_PCI_DOMAIN 0xffffu

static const char *sysfs_root = "/sys";

void core_devinfo_set_sysfs_root(const char *root);
/* Test seam: answer ConnectX queries from a fake sysfs tree (NULL: the real one). */
void core_devinfo_set_sysfs_root(const char *root)
{
	sysfs_root = root != NULL ? root : "/sys";
}

/* The checks every query starts with: a device, an output, and room for @need bytes. */
static doca_error_t check_out(const struct doca_devinfo *d, const void *out, uint32_t size, uint32_t need,
			      const char *what)
{
	if (d == NULL || out == NULL) {
		OGDA_LOG_ERR("devinfo and the %s buffer must not be NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (size < need) {
		OGDA_LOG_ERR("%s: the %s buffer needs %u bytes, got %u", d->name, what, need, size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* The software NIC's GID (port 1, index 0), through a short-lived open of the NIC. */
static doca_error_t swnic_gid(const struct doca_devinfo *info, uint8_t gid[16])
{
	struct ogda_devx *devx;
	doca_error_t err;

	err = ogda_devx_sw_open(info->swnic_index, &devx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot open the software NIC: %s", info->name, doca_error_get_descr(err));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = devx->ops->query_gid(devx, 1, 0, gid);
	devx->ops->close(devx);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: cannot read the software NIC's GID: %s", info->name, doca_error_get_descr(err));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

/* The PCI function of a ConnectX: the last component of its sysfs device link. */
static doca_error_t hw_pci(const struct doca_devinfo *info, char out[DOCA_DEVINFO_PCI_ADDR_SIZE])
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device", sysfs_root, info->name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		OGDA_LOG_ERR("%s: cannot read %s: %s", info->name, path, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base != NULL ? base + 1 : target;
	if (strlen(base) != DOCA_DEVINFO_PCI_ADDR_SIZE - 1) {
		OGDA_LOG_ERR("%s: %s does not name a PCI function (%s)", info->name, path, base);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	memcpy(out, base, DOCA_DEVINFO_PCI_ADDR_SIZE);
	for (int i = 0; out[i] != '\0'; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return DOCA_SUCCESS;
}

static doca_error_t pci_str(const struct doca_devinfo *info, char out[DOCA_DEVINFO_PCI_ADDR_SIZE])
{
	if (info->swnic) {
		snprintf(out, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:00.0", SWNIC_PCI_DOMAIN, info->swnic_index & 0xffu);
		return DOCA_SUCCESS;
	}
	return hw_pci(info, out);
}

doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	OGDA_SDK_FORWARD(doca_devinfo_get_pci_addr_str, (devinfo, pci_addr_str));
	if (devinfo == NULL || pci_addr_str == NULL) {
		OGDA_LOG_ERR("devinfo and pci_addr_str must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return pci_str(devinfo, pci_addr_str);
}

doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
					    uint8_t *is_equal)
{
	OGDA_SDK_FORWARD(doca_devinfo_is_equal_pci_addr, (devinfo, pci_addr_str, is_equal));
	char mine[DOCA_DEVINFO_PCI_ADDR_SIZE];
	size_t len;
	doca_error_t err;

	if (devinfo == NULL || pci_addr_str == NULL || is_equal == NULL) {
		OGDA_LOG_ERR("devinfo, pci_addr_str and is_equal must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	len = strnlen(pci_addr_str, DOCA_DEVINFO_PCI_ADDR_SIZE);
	if (len != DOCA_DEVINFO_PCI_ADDR_SIZE - 1 && len != DOCA_DEVINFO_PCI_BDF_SIZE - 1) {
		OGDA_LOG_ERR("'%.*s' is neither \"dddd:bb:dd.f\" nor \"bb:dd.f\"", DOCA_DEVINFO_PCI_ADDR_SIZE,
			     pci_addr_str);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = pci_str(devinfo, mine);
	if (err != DOCA_SUCCESS)
		return err;
	/* "bb:dd.f" compares with the bus, device and function of "dddd:bb:dd.f". */
	*is_equal = strcasecmp(mine + (DOCA_DEVINFO_PCI_ADDR_SIZE - len - 1), pci_addr_str) == 0;
	return DOCA_SUCCESS;
}

/* The first interface of a ConnectX (sysfs device/net/). */
static doca_error_t hw_iface(const struct doca_devinfo *info, char *out, size_t cap)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/net", sysfs_root, info->name);
	d = opendir(path);
	if (d == NULL) {
		OGDA_LOG_ERR("%s: cannot list %s: %s", info->name, path, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(out, cap, "%s", e->d_name);
		err = DOCA_SUCCESS;
		break;
	}
	closedir(d);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: %s lists no network interface", info->name, path);
	return err == DOCA_SUCCESS ? err : DOCA_ERROR_OPERATING_SYSTEM;
}

/*
 * Walks the host's IPv4 addresses (getifaddrs): with @ifname, the first address of that interface
 * into *addr; without, the name of the interface holding *addr into @name. Network byte order.
 */
static doca_error_t ifaddr_lookup(const char *dev, const char *ifname, uint32_t *addr, char *name, size_t cap)
{
	struct ifaddrs *ifs, *i;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	if (getifaddrs(&ifs) != 0) {
		OGDA_LOG_ERR("%s: getifaddrs: %s", dev, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	for (i = ifs; i != NULL && err != DOCA_SUCCESS; i = i->ifa_next) {
		uint32_t a;

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = ((const struct sockaddr_in *)(const void *)i->ifa_addr)->sin_addr.s_addr;
		if (ifname != NULL && strcmp(i->ifa_name, ifname) == 0) {
			*addr = a;
			err = DOCA_SUCCESS;
		} else if (ifname == NULL && a == *addr) {
			snprintf(name, cap, "%s", i->ifa_name);
			err = DOCA_SUCCESS;
		}
	}
	freeifaddrs(ifs);
	if (err != DOCA_SUCCESS && ifname != NULL) {
		OGDA_LOG_ERR("%s: interface %s has no IPv4 address", dev, ifname);
	} else if (err != DOCA_SUCCESS) {
		char text[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, addr, text, sizeof(text));
		OGDA_LOG_ERR("%s: no interface of this host holds the software NIC's address %s", dev, text);
	}
	return err;
}

static doca_error_t find_iface(const struct doca_devinfo *info, char *out, size_t cap)
{
	uint8_t gid[16];
	uint32_t addr;
	doca_error_t err;

	if (!info->swnic)
		return hw_iface(info, out, cap);
	err = swnic_gid(info, gid);
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(&addr, gid + 12, 4);
	return ifaddr_lookup(info->name, NULL, &addr, out, cap);
}

doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size)
{
	OGDA_SDK_FORWARD(doca_devinfo_get_iface_name, (devinfo, iface_name, size));
	char name[DOCA_DEVINFO_IFACE_NAME_SIZE];
	doca_error_t err;

	err = check_out(devinfo, iface_name, size, DOCA_DEVINFO_IFACE_NAME_SIZE, "interface name");
	if (err != DOCA_SUCCESS)
		return err;
	err = find_iface(devinfo, name, sizeof(name));
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(iface_name, name, strlen(name) + 1);
	return DOCA_SUCCESS;
}

/* "xx:xx:xx:xx:xx:xx" from <sysfs>/class/net/<iface>/address. */
static doca_error_t hw_mac(const struct doca_devinfo *info, uint8_t mac[6])
{
	char ifname[DOCA_DEVINFO_IFACE_NAME_SIZE], path[PATH_MAX];
	unsigned int b[6];
	doca_error_t err;
	FILE *f;
	int n;

	err = hw_iface(info, ifname, sizeof(ifname));
	if (err != DOCA_SUCCESS)
		return err;
	snprintf(path, sizeof(path), "%s/class/net/%s/address", sysfs_root, ifname);
	f = fopen(path, "r");
	if (f == NULL) {
		OGDA_LOG_ERR("%s: cannot open %s: %s", info->name, path, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	n = fscanf(f, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]);
	fclose(f);
	if (n != 6) {
		OGDA_LOG_ERR("%s: %s holds no Ethernet address", info->name, path);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size)
{
	OGDA_SDK_FORWARD(doca_devinfo_get_mac_addr, (devinfo, mac_addr, size));
	uint8_t gid[16];
	doca_error_t err;

	err = check_out(devinfo, mac_addr, size, DOCA_DEVINFO_MAC_ADDR_SIZE, "MAC address");
	if (err != DOCA_SUCCESS)
		return err;
	if (!devinfo->swnic)
		return hw_mac(devinfo, mac_addr);
	err = swnic_gid(devinfo, gid);
	if (err != DOCA_SUCCESS)
		return err;
	mac_addr[0] = 0x02; /* locally administered, unicast */
	mac_addr[1] = 0x00;
	memcpy(mac_addr + 2, gid + 12, 4);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size)
{
	OGDA_SDK_FORWARD(doca_devinfo_get_ipv4_addr, (devinfo, ipv4_addr, size));
	char ifname[DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint8_t gid[16];
	uint32_t addr;
	doca_error_t err;

	err = check_out(devinfo, ipv4_addr, size, DOCA_DEVINFO_IPV4_ADDR_SIZE, "IPv4 address");
	if (err != DOCA_SUCCESS)
		return err;
	if (devinfo->swnic) {
		err = swnic_gid(devinfo, gid);
		if (err == DOCA_SUCCESS)
			memcpy(ipv4_addr, gid + 12, 4);
		return err;
	}
	err = hw_iface(devinfo, ifname, sizeof(ifname));
	if (err != DOCA_SUCCESS)
		return err;
	err = ifaddr_lookup(devinfo->name, ifname, &addr, NULL, 0);
	if (err == DOCA_SUCCESS)
		memcpy(ipv4_addr, &addr, 4);
	return err;
}
