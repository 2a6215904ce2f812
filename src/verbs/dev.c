/* SPDX-License-Identifier: BSD-3-Clause */
/* Device discovery (doca_dev.h): ConnectX devices from rdma-core, then the software NICs. */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "devx/hw.h"
#include "devx/sw.h"
#include "swnic/swnic.h"
#include "sdk/sdk_forward.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VERBS_MAX_HW_DEVICES 64u

/* The list is one allocation: the NULL-terminated pointer array, then the entries. */
static doca_error_t list_alloc(uint32_t n, struct doca_devinfo ***list)
{
	struct doca_devinfo **arr;
	struct doca_devinfo *entries;

	arr = calloc(1, (n + 1u) * sizeof(*arr) + n * sizeof(*entries));
	if (arr == NULL)
		return DOCA_ERROR_NO_MEMORY;
	entries = (struct doca_devinfo *)(void *)(arr + n + 1u);
	for (uint32_t i = 0; i < n; i++)
		arr[i] = &entries[i];
	*list = arr;
	return DOCA_SUCCESS;
}

/* OPENGDA_DEVICE: move the named device to the front. */
static void apply_default_device(struct doca_devinfo **list, uint32_t n)
{
	const char *want = getenv(OPENGDA_DEVICE_ENV);
	struct doca_devinfo *chosen;

	if (want == NULL || want[0] == '\0')
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(list[i]->name, want) != 0)
			continue;
		chosen = list[i];
		memmove(&list[1], &list[0], i * sizeof(list[0]));
		list[0] = chosen;
		return;
	}
	OGDA_LOG_WARN("%s=%s names no device; the list keeps its order", OPENGDA_DEVICE_ENV, want);
}

doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	OGDA_SDK_FORWARD(doca_devinfo_create_list, (dev_list, nb_devs));
	struct ogda_ibdev_entry hw[VERBS_MAX_HW_DEVICES];
	size_t nhw = 0;
	uint32_t nsw, n;
	struct doca_devinfo **list;
	doca_error_t err;

	if (dev_list == NULL || nb_devs == NULL) {
		OGDA_LOG_ERR("dev_list and nb_devs must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ogda_devx_hw_list(hw, VERBS_MAX_HW_DEVICES, &nhw) != DOCA_SUCCESS)
		nhw = 0; /* logged by the lister; software NICs are still usable */
	if (nhw > VERBS_MAX_HW_DEVICES)
		nhw = VERBS_MAX_HW_DEVICES;
	nsw = swnic_count();
	n = (uint32_t)nhw + nsw;
	if (n == 0) {
		OGDA_LOG_ERR("no device: rdma-core found no mlx5 device and OPENGDA_SWNIC_COUNT is 0");
		return DOCA_ERROR_NOT_FOUND;
	}
	err = list_alloc(n, &list);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("cannot allocate the device list");
		return err;
	}
	for (size_t i = 0; i < nhw; i++)
		snprintf(list[i]->name, sizeof(list[i]->name), "%s", hw[i].name);
	for (uint32_t i = 0; i < nsw; i++) {
		struct doca_devinfo *d = list[nhw + i];

		d->swnic = true;
		d->swnic_index = i;
		snprintf(d->name, sizeof(d->name), "swnic%u", i);
	}
	apply_default_device(list, n);
	*dev_list = list;
	*nb_devs = n;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	OGDA_SDK_FORWARD(doca_devinfo_destroy_list, (dev_list));
	if (dev_list == NULL) {
		OGDA_LOG_ERR("dev_list must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(dev_list);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size)
{
	OGDA_SDK_FORWARD(doca_devinfo_get_ibdev_name, (devinfo, ibdev_name, size));
	size_t len;

	if (devinfo == NULL || ibdev_name == NULL) {
		OGDA_LOG_ERR("devinfo and ibdev_name must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	len = strlen(devinfo->name);
	if (size <= len) {
		OGDA_LOG_ERR("%s: a buffer of %u bytes cannot hold the name (%zu bytes with its NUL)", devinfo->name,
			     size, len + 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(ibdev_name, devinfo->name, len + 1);
	return DOCA_SUCCESS;
}

doca_error_t opengda_devinfo_is_swnic(const struct doca_devinfo *devinfo, bool *is_swnic)
{
	if (devinfo == NULL || is_swnic == NULL) {
		OGDA_LOG_ERR("devinfo and is_swnic must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_swnic = devinfo->swnic;
	return DOCA_SUCCESS;
}

doca_error_t verbs_devinfo_open_devx(const struct doca_devinfo *info, struct ogda_devx **devx)
{
	doca_error_t err;

	if (info->swnic)
		err = ogda_devx_sw_open(info->swnic_index, devx);
	else
		err = ogda_devx_hw_open(info->name, devx);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("%s: cannot open the device: %s", info->name, doca_error_get_descr(err));
	return err;
}

doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	OGDA_SDK_FORWARD(doca_dev_open, (devinfo, dev));
	struct doca_dev *d;
	doca_error_t err;

	if (devinfo == NULL || dev == NULL) {
		OGDA_LOG_ERR("devinfo and dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		OGDA_LOG_ERR("%s: out of memory", devinfo->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	d->info = *devinfo;
	err = verbs_devinfo_open_devx(devinfo, &d->devx);
	if (err != DOCA_SUCCESS) {
		free(d);
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_DRIVER;
	}
	*dev = d;
	return DOCA_SUCCESS;
}

doca_error_t doca_dev_close(struct doca_dev *dev)
{
	OGDA_SDK_FORWARD(doca_dev_close, (dev));
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (atomic_load(&dev->core_users) != 0) {
		OGDA_LOG_ERR("%s: %u started doca_mmap(s) still use the device; stop them first", dev->info.name,
			     atomic_load(&dev->core_users));
		return DOCA_ERROR_IN_USE;
	}
	if (atomic_load(&dev->core_pd) != NULL) {
		dev->devx->ops->pd_free(atomic_load(&dev->core_pd)->pd);
		free(atomic_load(&dev->core_pd));
	}
	if (dev->pd != NULL) {
		atomic_fetch_sub(&dev->pd->users, 1);
		verbs_ctx_child_del(dev->pd->ctx);
	}
	if (dev->devx != NULL)
		dev->devx->ops->close(dev->devx);
	free(dev);
	return DOCA_SUCCESS;
}

struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev)
{
	OGDA_SDK_FORWARD(doca_dev_as_devinfo, (dev));
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return NULL;
	}
	return (struct doca_devinfo *)&dev->info;
}

doca_error_t doca_verbs_dev_open(struct doca_verbs_pd *verbs_pd, struct doca_dev **dev)
{
	OGDA_SDK_FORWARD(doca_verbs_dev_open, (verbs_pd, dev));
	struct doca_dev *d;

	if (verbs_pd == NULL || dev == NULL) {
		OGDA_LOG_ERR("verbs_pd and dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		OGDA_LOG_ERR("out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	d->info = verbs_pd->ctx->info;
	d->pd = verbs_pd;
	atomic_fetch_add(&verbs_pd->users, 1);
	verbs_ctx_child_add(verbs_pd->ctx);
	*dev = d;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_dev_close(struct doca_dev *dev)
{
	OGDA_SDK_FORWARD(doca_verbs_dev_close, (dev));
	if (dev == NULL) {
		OGDA_LOG_ERR("dev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dev->pd == NULL) {
		OGDA_LOG_ERR("%s: this device was opened with doca_dev_open(): close it with doca_dev_close()",
			     dev->info.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return doca_dev_close(dev);
}
