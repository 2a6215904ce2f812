/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device under DOCA Core objects: its device interface and protection domain. DOCA gives
 * every doca_dev a PD of its own; ours is made on first use so that opening a device for DOCA
 * Verbs alone issues no extra command.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "verbs/verbs_priv.h"

#include <stdlib.h>

doca_error_t core_dev_resolve(struct doca_dev *dev, struct ogda_devx **devx, struct ogda_devx_pd **pd, uint32_t *pdn)
{
	struct doca_dev_core_pd *mine, *expected = NULL, *cur;
	doca_error_t err;

	if (dev->pd != NULL) { /* doca_verbs_dev_open(): the application's PD */
		*devx = dev->pd->ctx->devx;
		*pd = dev->pd->devx_pd;
		if (pdn != NULL)
			*pdn = dev->pd->pdn;
		return DOCA_SUCCESS;
	}
	*devx = dev->devx;
	cur = atomic_load(&dev->core_pd);
	if (cur == NULL) {
		mine = calloc(1, sizeof(*mine));
		if (mine == NULL)
			return DOCA_ERROR_NO_MEMORY;
		err = dev->devx->ops->pd_alloc(dev->devx, &mine->pd, &mine->pdn);
		if (err != DOCA_SUCCESS) {
			free(mine);
			OGDA_LOG_ERR("%s: cannot allocate the device's protection domain: %s", dev->info.name,
				     doca_error_get_descr(err));
			return DOCA_ERROR_DRIVER;
		}
		/* Two first users at once: one PD wins, the other is given back. */
		if (atomic_compare_exchange_strong(&dev->core_pd, &expected, mine)) {
			cur = mine;
		} else {
			dev->devx->ops->pd_free(mine->pd);
			free(mine);
			cur = expected;
		}
	}
	*pd = cur->pd;
	if (pdn != NULL)
		*pdn = cur->pdn;
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
