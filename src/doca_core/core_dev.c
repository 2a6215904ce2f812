/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device under DOCA Core objects: its device interface and protection domain. DOCA gives
 * every doca_dev a PD of its own; ours is a DOCA Verbs PD made on first use
 * (verbs_dev_lib_pd), so that opening a device for DOCA Verbs alone issues no extra command and
 * the QPs of doca_dma and doca_rdma live on the PD their mmaps are registered on.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "verbs/verbs_priv.h"

doca_error_t core_dev_resolve(struct doca_dev *dev, struct ogda_devx **devx, struct ogda_devx_pd **pd, uint32_t *pdn)
{
	struct doca_verbs_pd *vpd;
	doca_error_t err = verbs_dev_lib_pd(dev, &vpd);

	if (err != DOCA_SUCCESS)
		return err;
	*devx = vpd->ctx->devx;
	*pd = vpd->devx_pd;
	if (pdn != NULL)
		*pdn = vpd->pdn;
	return DOCA_SUCCESS;
}

const char *core_dev_name(const struct doca_dev *dev)
{
	return dev->info.name;
}

void core_dev_use(struct doca_dev *dev)
{
	atomic_fetch_add(&dev->core_users, 1);
}

void core_dev_unuse(struct doca_dev *dev)
{
	atomic_fetch_sub(&dev->core_users, 1);
}
