/* SPDX-License-Identifier: BSD-3-Clause */
#include "devx/rdma_core.h"

#include "core/dl.h"
#include "core/log.h"

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t ibv_once = PTHREAD_ONCE_INIT;
static doca_error_t ibv_result = DOCA_ERROR_NOT_FOUND;
static struct ogda_ibv ibv;

static void ibv_load(void)
{
	const struct ogda_dl_sym syms[] = {
		{"ibv_get_device_list", (void **)&ibv.get_device_list, false},
		{"ibv_free_device_list", (void **)&ibv.free_device_list, false},
		{"ibv_get_device_name", (void **)&ibv.get_device_name, false},
		{"ibv_get_device_guid", (void **)&ibv.get_device_guid, false},
	};
	void *handle = NULL;

	ibv_result = ogda_runtime_lib_open(OGDA_LIB_IBVERBS, &handle);
	if (ibv_result == DOCA_SUCCESS)
		ibv_result = ogda_dl_resolve(handle, syms, sizeof(syms) / sizeof(syms[0]));
}

doca_error_t ogda_ibv_get(const struct ogda_ibv **out)
{
	if (out == NULL) {
		OGDA_LOG_ERR("out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_once(&ibv_once, ibv_load);
	if (ibv_result == DOCA_SUCCESS)
		*out = &ibv;
	return ibv_result;
}

doca_error_t ogda_ibdev_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why)
{
	static _Thread_local char reason[160];
	const struct ogda_ibv *v = NULL;
	struct ibv_device **list;
	int n = 0;
	int i;

	if (count == NULL || (entries == NULL && max != 0)) {
		OGDA_LOG_ERR("count must not be NULL, entries must not be NULL when max > 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*count = 0;
	if (why != NULL)
		*why = NULL;
	if (ogda_ibv_get(&v) != DOCA_SUCCESS) {
		if (why != NULL)
			*why = "libibverbs.so.1 is not available (rdma-core not installed, or OPENGDA_DISABLE_IBVERBS=1)";
		return DOCA_SUCCESS;
	}
	errno = 0;
	list = v->get_device_list(&n);
	if (list == NULL) {
		int e = errno;

		/* rdma-core returns NULL + ENOSYS when /sys/class/infiniband_verbs is missing. */
		if (e == ENOSYS)
			snprintf(reason, sizeof(reason), "the kernel has no RDMA subsystem (ibv_get_device_list: ENOSYS)");
		else
			snprintf(reason, sizeof(reason), "ibv_get_device_list failed: %s", strerror(e));
		if (e != ENOSYS)
			OGDA_LOG_WARN("%s", reason);
		if (why != NULL)
			*why = reason;
		return DOCA_SUCCESS;
	}
	for (i = 0; i < n && (size_t)i < max; i++) {
		snprintf(entries[i].name, sizeof(entries[i].name), "%s", v->get_device_name(list[i]));
		entries[i].guid = be64toh(v->get_device_guid(list[i]));
	}
	*count = (size_t)n;
	if (n == 0 && why != NULL)
		*why = "rdma-core found no RDMA devices";
	v->free_device_list(list);
	return DOCA_SUCCESS;
}
