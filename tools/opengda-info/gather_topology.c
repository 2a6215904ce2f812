/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * opengda-info: ConnectX NICs in sysfs (<sysfs>/class/infiniband/<dev>/device is their PCI
 * function) and, for every GPU x NIC pair, the PCIe category and the ACS control of each
 * bridge on the path (config space; beyond its first 64 bytes only root can read it).
 */
#include "info.h"
#include "parse.h"
#include "pci_topo.h"
#include "sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MELLANOX_VENDOR 0x15b3
#define PCI_CONFIG_MAX 4096

/* Where the trailing number of a name starts (its length when there is none). */
static size_t trailing_digits(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isdigit((unsigned char)s[n - 1]))
		n--;
	return n;
}

/* "mlx5_2" before "mlx5_10". */
static int cmp_nic(const void *a, const void *b)
{
	const char *x = ((const struct info_nic *)a)->name, *y = ((const struct info_nic *)b)->name;
	size_t px = trailing_digits(x), py = trailing_digits(y);

	if (px == py && strncmp(x, y, px) == 0 && x[px] != '\0' && y[py] != '\0') {
		unsigned long nx = strtoul(x + px, NULL, 10), ny = strtoul(y + py, NULL, 10);

		if (nx != ny)
			return nx < ny ? -1 : 1;
	}
	return strcmp(x, y);
}

void info_gather_nics(struct info_report *r)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	if (!info_path(path, sizeof(path), r->opts.sysfs_root, "class/infiniband") || (d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL && r->nnics < INFO_MAX_NICS) {
		struct info_nic *n = &r->nics[r->nnics];
		const char *base;
		char *real;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(n->name))
			continue;
		if (!info_path(path, sizeof(path), r->opts.sysfs_root, "class/infiniband/%s/device", e->d_name))
			continue;
		real = realpath(path, NULL);
		if (real == NULL)
			continue; /* no PCI function behind it (a software RDMA device) */
		base = strrchr(real, '/');
		base = base != NULL ? base + 1 : real;
		memset(n, 0, sizeof(*n));
		if (info_is_bdf(base) && info_path(path, sizeof(path), real, "vendor") &&
		    info_read_long(path, -1) == MELLANOX_VENDOR) {
			snprintf(n->name, sizeof(n->name), "%.*s", (int)sizeof(n->name) - 1, e->d_name);
			snprintf(n->bdf, sizeof(n->bdf), "%s", base);
			info_path(path, sizeof(path), real, "numa_node");
			n->numa_node = (int)info_read_long(path, -1);
			for (int i = 0; i < r->ndevs; i++)
				n->offered |= !r->devs[i].swnic && strcmp(r->devs[i].name, n->name) == 0;
			r->nnics++;
		}
		free(real);
	}
	closedir(d);
	qsort(r->nics, (size_t)r->nnics, sizeof(r->nics[0]), cmp_nic);
}

static bool resolve_chain(const struct info_report *r, const char *bdf, struct info_pci_chain *c)
{
	char path[512];
	char *real;
	bool ok;

	if (bdf[0] == '\0' || !info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s", bdf))
		return false;
	real = realpath(path, NULL);
	if (real == NULL)
		return false;
	ok = info_pci_chain_parse(real, c);
	free(real);
	return ok;
}

static void read_acs(const struct info_report *r, struct info_bridge *b)
{
	uint8_t *cfg = malloc(PCI_CONFIG_MAX);
	char path[512];
	ssize_t n;

	if (cfg == NULL)
		return;
	n = info_path(path, sizeof(path), r->opts.sysfs_root, "bus/pci/devices/%s/config", b->bdf)
		    ? info_read_bytes(path, cfg, PCI_CONFIG_MAX)
		    : -1;
	b->acs = n < 0 ? INFO_ACS_UNREADABLE : info_acs_parse(cfg, (size_t)n, &b->acs_ctl);
	free(cfg);
}

void info_gather_topology(struct info_report *r)
{
	struct info_pci_chain *gc = calloc(INFO_MAX_GPUS, sizeof(*gc));
	struct info_pci_chain *nc = calloc(INFO_MAX_NICS, sizeof(*nc));
	bool gok[INFO_MAX_GPUS], nok[INFO_MAX_NICS];

	if (gc == NULL || nc == NULL)
		goto out;
	for (int g = 0; g < r->ngpus; g++)
		gok[g] = resolve_chain(r, r->gpus[g].bdf, &gc[g]);
	for (int n = 0; n < r->nnics; n++)
		nok[n] = resolve_chain(r, r->nics[n].bdf, &nc[n]);
	for (int g = 0; g < r->ngpus; g++) {
		for (int n = 0; n < r->nnics && r->npairs < INFO_MAX_PAIRS; n++) {
			struct info_pair *p = &r->pairs[r->npairs++];

			memset(p, 0, sizeof(*p));
			p->gpu = g;
			p->nic = n;
			if (!gok[g] || !nok[n])
				continue; /* INFO_TOPO_UNKNOWN */
			p->topo = info_topo_classify(&gc[g], &nc[n], r->gpus[g].numa_node, r->nics[n].numa_node,
						     p->bridges, INFO_MAX_BRIDGES, &p->nbridges);
			if (p->nbridges > INFO_MAX_BRIDGES)
				p->nbridges = INFO_MAX_BRIDGES;
			for (int b = 0; b < p->nbridges; b++)
				read_acs(r, &p->bridges[b]);
		}
	}
out:
	free(gc);
	free(nc);
}
