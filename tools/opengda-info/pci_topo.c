/* SPDX-License-Identifier: BSD-3-Clause */
#include "pci_topo.h"

#include "parse.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* "pci" + domain + ":" + bus, as sysfs names a host bridge. */
static bool is_host_bridge(const char *s, size_t n)
{
	static const char shape[] = "pcihhhh:hh";

	if (n != sizeof(shape) - 1 || strncmp(s, "pci", 3) != 0)
		return false;
	for (size_t i = 3; i < n; i++) {
		if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	}
	return true;
}

bool info_pci_chain_parse(const char *path, struct info_pci_chain *chain)
{
	const char *p = path;
	bool in_host = false;

	if (path == NULL || chain == NULL)
		return false;
	memset(chain, 0, sizeof(*chain));
	while (*p != '\0') {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (!in_host && is_host_bridge(p, n)) {
			memcpy(chain->host, p, n);
			chain->host[n] = '\0';
			in_host = true;
		} else if (in_host) {
			char comp[INFO_BDF_LEN];

			if (n >= sizeof(comp))
				break; /* not a PCI function: the device path ends here */
			memcpy(comp, p, n);
			comp[n] = '\0';
			if (!info_is_bdf(comp) || chain->n == INFO_PCI_MAX_DEPTH)
				break;
			for (size_t i = 0; i < n; i++)
				comp[i] = (char)tolower((unsigned char)comp[i]);
			memcpy(chain->fn[chain->n++], comp, n + 1);
		}
		p += n;
	}
	return in_host && chain->n > 0;
}

static void add_bridge(struct info_bridge *bridges, int max, int *nbridges, const char *bdf)
{
	if (*nbridges < max && bridges != NULL) {
		memset(&bridges[*nbridges], 0, sizeof(bridges[0]));
		snprintf(bridges[*nbridges].bdf, sizeof(bridges[0].bdf), "%s", bdf);
		bridges[*nbridges].acs = INFO_ACS_UNREADABLE;
	}
	(*nbridges)++;
}

enum info_topo info_topo_classify(const struct info_pci_chain *gpu, const struct info_pci_chain *nic, int gpu_numa,
				  int nic_numa, struct info_bridge *bridges, int max, int *nbridges)
{
	int gb, nb, k = 0, from_g, from_n, total = 0;
	enum info_topo topo;

	if (nbridges != NULL)
		*nbridges = 0;
	if (gpu == NULL || nic == NULL || gpu->n < 1 || nic->n < 1)
		return INFO_TOPO_UNKNOWN;
	gb = gpu->n - 1; /* bridges above each device */
	nb = nic->n - 1;
	if (strcmp(gpu->host, nic->host) != 0) {
		topo = gpu_numa >= 0 && nic_numa >= 0 && gpu_numa != nic_numa ? INFO_TOPO_SYS : INFO_TOPO_NODE;
		from_g = 0;
		from_n = 0;
	} else {
		while (k < gb && k < nb && strcmp(gpu->fn[k], nic->fn[k]) == 0)
			k++;
		if (k == 0) {
			topo = INFO_TOPO_PHB;
			from_g = 0;
			from_n = 0;
		} else {
			/* Below the common bridge each side crosses at most one more (a switch's downstream port). */
			topo = gb - k <= 1 && nb - k <= 1 ? INFO_TOPO_PIX : INFO_TOPO_PXB;
			from_g = k - 1; /* the common bridge, listed once */
			from_n = k;
		}
	}
	for (int i = from_g; i < gb; i++)
		add_bridge(bridges, max, &total, gpu->fn[i]);
	for (int i = from_n; i < nb; i++)
		add_bridge(bridges, max, &total, nic->fn[i]);
	if (nbridges != NULL)
		*nbridges = total;
	return topo;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

enum info_acs info_acs_parse(const uint8_t *cfg, size_t len, uint16_t *ctl)
{
	size_t off = 0x100;

	if (ctl != NULL)
		*ctl = 0;
	if (cfg == NULL || len < 0x104)
		return INFO_ACS_UNREADABLE;
	/* Each capability header: id [15:0], version [19:16], next offset [31:20]; 0x100 upwards. */
	for (int hops = 0; hops < (4096 - 0x100) / 4; hops++) {
		uint32_t hdr;

		if (off + 4 > len)
			return INFO_ACS_ABSENT;
		hdr = le32(cfg + off);
		if (hdr == 0 || hdr == 0xffffffffu)
			return INFO_ACS_ABSENT;
		if ((hdr & 0xffffu) == INFO_PCI_EXT_CAP_ACS) {
			if (off + 8 > len)
				return INFO_ACS_UNREADABLE;
			if (ctl != NULL)
				*ctl = (uint16_t)(cfg[off + 6] | cfg[off + 7] << 8);
			return INFO_ACS_PRESENT;
		}
		if ((hdr >> 20) < 0x100 || (hdr >> 20) <= off)
			return INFO_ACS_ABSENT; /* the list ends (or would loop back) */
		off = hdr >> 20;
	}
	return INFO_ACS_ABSENT;
}

void info_acs_ctl_format(uint16_t ctl, char *buf, size_t len)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} bits[] = {
		{INFO_ACS_CTL_SRC_VALID, "SrcValid"},     {INFO_ACS_CTL_TRANS_BLOCK, "TransBlk"},
		{INFO_ACS_CTL_REQ_REDIR, "ReqRedir"},     {INFO_ACS_CTL_CMPLT_REDIR, "CmpltRedir"},
		{INFO_ACS_CTL_UPSTREAM_FWD, "UpstreamFwd"}, {INFO_ACS_CTL_EGRESS_CTRL, "EgressCtrl"},
		{INFO_ACS_CTL_DIRECT_TRANS, "DirectTrans"},
	};
	size_t used = 0;

	if (buf == NULL || len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		int n;

		if (!(ctl & bits[i].bit))
			continue;
		n = snprintf(buf + used, len - used, "%s%s+", used ? " " : "", bits[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
	if (used == 0)
		snprintf(buf, len, "none");
}
