/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: the PCIe path between a GPU and a NIC, from their resolved sysfs device paths
 * (/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0), named as `nvidia-smi topo -m` names it,
 * and the ACS control of the bridges on it. Pure functions: no I/O.
 */
#ifndef OGDA_TOOLS_INFO_PCI_TOPO_H_
#define OGDA_TOOLS_INFO_PCI_TOPO_H_

#include "info.h"

#include <stddef.h>
#include <stdint.h>

#define INFO_PCI_MAX_DEPTH 16

/* A device path: its host bridge ("pci0000:00") and the PCI functions from the root port down to it. */
struct info_pci_chain {
	char host[32];
	int n;                     /* functions in fn[]; the last is the device itself */
	char fn[INFO_PCI_MAX_DEPTH][INFO_BDF_LEN];
};

/* Splits a resolved path; false when it has no host bridge component or no function below it. */
bool info_pci_chain_parse(const char *path, struct info_pci_chain *chain);

/*
 * The category, and the bridges the traffic crosses (up to max; *nbridges counts them):
 *  - PIX: the two hang below one bridge, or below one PCIe switch (the upstream port and
 *    one downstream port on each side), as nvidia-smi counts a switch as one bridge;
 *  - PXB: below a common bridge, through more bridges than that, not through the host bridge;
 *  - PHB: the same host bridge, reached through it (different root ports);
 *  - NODE: different host bridges on one NUMA node (or NUMA unknown);
 *  - SYS: different NUMA nodes.
 * The bridges listed have bdf set and acs = INFO_ACS_UNREADABLE (the caller reads them).
 */
enum info_topo info_topo_classify(const struct info_pci_chain *gpu, const struct info_pci_chain *nic, int gpu_numa,
				  int nic_numa, struct info_bridge *bridges, int max, int *nbridges);

/* ACS control register bits (PCIe base spec, ACS extended capability, control at +6). */
#define INFO_ACS_CTL_SRC_VALID 0x0001u
#define INFO_ACS_CTL_TRANS_BLOCK 0x0002u
#define INFO_ACS_CTL_REQ_REDIR 0x0004u
#define INFO_ACS_CTL_CMPLT_REDIR 0x0008u
#define INFO_ACS_CTL_UPSTREAM_FWD 0x0010u
#define INFO_ACS_CTL_EGRESS_CTRL 0x0020u
#define INFO_ACS_CTL_DIRECT_TRANS 0x0040u
/* Bits that send peer-to-peer traffic up to the root complex (or block it) instead of across. */
#define INFO_ACS_CTL_REDIRECTS (INFO_ACS_CTL_REQ_REDIR | INFO_ACS_CTL_CMPLT_REDIR | INFO_ACS_CTL_EGRESS_CTRL)

#define INFO_PCI_EXT_CAP_ACS 0x000Du

/*
 * Finds the ACS capability in config space bytes (len as read: 64 for a non-root reader,
 * 256 or 4096 for root). Fewer than 0x104 bytes: UNREADABLE. No capability: ABSENT.
 */
enum info_acs info_acs_parse(const uint8_t *cfg, size_t len, uint16_t *ctl);

/* lspci-style names of the set bits ("ReqRedir+ CmpltRedir+"), "none" for 0. */
void info_acs_ctl_format(uint16_t ctl, char *buf, size_t len);

#endif /* OGDA_TOOLS_INFO_PCI_TOPO_H_ */
