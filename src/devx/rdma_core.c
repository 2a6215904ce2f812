/* SPDX-License-Identifier: BSD-3-Clause */
#include "devx/rdma_core.h"

#include "core/dl.h"
#include "core/log.h"

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#ifdef OGDA_HAVE_MLX5DV_UMEM_IN
/* The mirror in rdma_core.h must be rdma-core's layout, byte for byte. */
_Static_assert(sizeof(struct ogda_mlx5dv_umem_in) == sizeof(struct mlx5dv_devx_umem_in), "umem_in size");
_Static_assert(offsetof(struct ogda_mlx5dv_umem_in, size) == offsetof(struct mlx5dv_devx_umem_in, size),
	       "umem_in.size");
_Static_assert(offsetof(struct ogda_mlx5dv_umem_in, access) == offsetof(struct mlx5dv_devx_umem_in, access),
	       "umem_in.access");
_Static_assert(offsetof(struct ogda_mlx5dv_umem_in, pgsz_bitmap) ==
		       offsetof(struct mlx5dv_devx_umem_in, pgsz_bitmap),
	       "umem_in.pgsz_bitmap");
_Static_assert(offsetof(struct ogda_mlx5dv_umem_in, comp_mask) == offsetof(struct mlx5dv_devx_umem_in, comp_mask),
	       "umem_in.comp_mask");
_Static_assert(offsetof(struct ogda_mlx5dv_umem_in, dmabuf_fd) == offsetof(struct mlx5dv_devx_umem_in, dmabuf_fd),
	       "umem_in.dmabuf_fd");
_Static_assert(OGDA_MLX5DV_UMEM_MASK_DMABUF == (uint64_t)MLX5DV_UMEM_MASK_DMABUF, "umem dmabuf mask");
#endif

static pthread_once_t ibv_once = PTHREAD_ONCE_INIT;
static doca_error_t ibv_result = DOCA_ERROR_NOT_FOUND;
static pthread_once_t mlx5_once = PTHREAD_ONCE_INIT;
static doca_error_t mlx5_result = DOCA_ERROR_NOT_FOUND;
static struct ogda_rdma_core loaded;
static _Atomic(const struct ogda_rdma_core *) override_table;

static void ibv_load(void)
{
	struct ogda_ibv *v = &loaded.ibv;
	const struct ogda_dl_sym syms[] = {
		{"ibv_get_device_list", (void **)&v->get_device_list, false},
		{"ibv_free_device_list", (void **)&v->free_device_list, false},
		{"ibv_get_device_name", (void **)&v->get_device_name, false},
		{"ibv_get_device_guid", (void **)&v->get_device_guid, false},
		{"ibv_close_device", (void **)&v->close_device, false},
		{"ibv_alloc_pd", (void **)&v->alloc_pd, false},
		{"ibv_dealloc_pd", (void **)&v->dealloc_pd, false},
		{"ibv_reg_mr", (void **)&v->reg_mr, false},
		{"ibv_reg_dmabuf_mr", (void **)&v->reg_dmabuf_mr, true},
		{"ibv_dereg_mr", (void **)&v->dereg_mr, false},
		{"ibv_query_port", (void **)&v->query_port, false},
		{"ibv_query_gid", (void **)&v->query_gid, false},
		{"ibv_create_ah", (void **)&v->create_ah, false},
		{"ibv_destroy_ah", (void **)&v->destroy_ah, false},
		{"ogda_front_mlx5dv_devx_umem_reg_ex", (void **)&v->opengda_front, true},
	};
	void *handle = NULL;

	ibv_result = ogda_runtime_lib_open(OGDA_LIB_IBVERBS, &handle);
	if (ibv_result == DOCA_SUCCESS)
		ibv_result = ogda_dl_resolve(handle, syms, COUNT_OF(syms));
}

/* The flow's context op, reached through rdma-core's inline (no library symbol to resolve). */
static int destroy_flow(struct ibv_flow *flow)
{
	return ibv_destroy_flow(flow);
}

static void mlx5_load(void)
{
	struct ogda_mlx5dv *d = &loaded.dv;
	const struct ogda_dl_sym syms[] = {
		{"mlx5dv_is_supported", (void **)&d->is_supported, false},
		{"mlx5dv_open_device", (void **)&d->open_device, false},
		{"mlx5dv_init_obj", (void **)&d->init_obj, false},
		{"mlx5dv_devx_general_cmd", (void **)&d->devx_general_cmd, false},
		{"mlx5dv_devx_obj_create", (void **)&d->devx_obj_create, false},
		{"mlx5dv_devx_obj_modify", (void **)&d->devx_obj_modify, false},
		{"mlx5dv_devx_obj_query", (void **)&d->devx_obj_query, false},
		{"mlx5dv_devx_obj_destroy", (void **)&d->devx_obj_destroy, false},
		{"mlx5dv_devx_umem_reg", (void **)&d->devx_umem_reg, false},
		{"mlx5dv_devx_umem_dereg", (void **)&d->devx_umem_dereg, false},
		{"mlx5dv_devx_alloc_uar", (void **)&d->devx_alloc_uar, false},
		{"mlx5dv_devx_free_uar", (void **)&d->devx_free_uar, false},
		{"mlx5dv_devx_query_eqn", (void **)&d->devx_query_eqn, false},
		{"mlx5dv_devx_umem_reg_ex", (void **)&d->devx_umem_reg_ex, true},
		{"mlx5dv_devx_create_event_channel", (void **)&d->devx_create_event_channel, true},
		{"mlx5dv_devx_destroy_event_channel", (void **)&d->devx_destroy_event_channel, true},
		{"mlx5dv_devx_subscribe_devx_event", (void **)&d->devx_subscribe_devx_event, true},
		{"mlx5dv_devx_get_event", (void **)&d->devx_get_event, true},
		{"mlx5dv_create_flow_matcher", (void **)&d->create_flow_matcher, true},
		{"mlx5dv_destroy_flow_matcher", (void **)&d->destroy_flow_matcher, true},
		{"mlx5dv_create_flow", (void **)&d->create_flow, true},
	};
	void *handle = NULL;

	mlx5_result = ogda_runtime_lib_open(OGDA_LIB_MLX5, &handle);
	if (mlx5_result == DOCA_SUCCESS)
		mlx5_result = ogda_dl_resolve(handle, syms, COUNT_OF(syms));
	if (mlx5_result == DOCA_SUCCESS && d->create_flow != NULL)
		d->destroy_flow = destroy_flow;
}

void ogda_rdma_core_override(const struct ogda_rdma_core *table)
{
	atomic_store(&override_table, table);
}

doca_error_t ogda_ibv_get(const struct ogda_ibv **out)
{
	const struct ogda_rdma_core *fake;

	if (out == NULL) {
		OGDA_LOG_ERR("out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	fake = atomic_load(&override_table);
	if (fake != NULL) {
		*out = &fake->ibv;
		return DOCA_SUCCESS;
	}
	pthread_once(&ibv_once, ibv_load);
	if (ibv_result == DOCA_SUCCESS)
		*out = &loaded.ibv;
	return ibv_result;
}

doca_error_t ogda_rdma_core_get(const struct ogda_rdma_core **out)
{
	const struct ogda_rdma_core *fake;
	const struct ogda_ibv *v = NULL;
	doca_error_t err;

	if (out == NULL) {
		OGDA_LOG_ERR("out must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	fake = atomic_load(&override_table);
	if (fake != NULL) {
		*out = fake;
		return DOCA_SUCCESS;
	}
	err = ogda_ibv_get(&v);
	if (err != DOCA_SUCCESS)
		return err;
	pthread_once(&mlx5_once, mlx5_load);
	if (mlx5_result == DOCA_SUCCESS)
		*out = &loaded;
	return mlx5_result;
}

/* Keeps every device, or only the mlx5 ones when dv is given. */
static bool keep_device(const struct ogda_mlx5dv *dv, struct ibv_device *device)
{
	return dv == NULL || (dv->is_supported != NULL && dv->is_supported(device));
}

static doca_error_t list_devices(const struct ogda_ibv *v, const struct ogda_mlx5dv *dv,
				 struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why)
{
	static _Thread_local char reason[160];
	struct ibv_device **list;
	size_t found = 0;
	int n = 0;
	int i;

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
	for (i = 0; i < n; i++) {
		if (!keep_device(dv, list[i]))
			continue;
		if (found < max) {
			snprintf(entries[found].name, sizeof(entries[found].name), "%s", v->get_device_name(list[i]));
			entries[found].guid = be64toh(v->get_device_guid(list[i]));
		}
		found++;
	}
	*count = found;
	if (found == 0 && why != NULL)
		*why = dv != NULL ? "rdma-core found no mlx5 devices" : "rdma-core found no RDMA devices";
	v->free_device_list(list);
	return DOCA_SUCCESS;
}

static doca_error_t check_list_args(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why)
{
	if (count == NULL || (entries == NULL && max != 0)) {
		OGDA_LOG_ERR("count must not be NULL, entries must not be NULL when max > 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*count = 0;
	if (why != NULL)
		*why = NULL;
	return DOCA_SUCCESS;
}

static bool have_list_entries(const struct ogda_ibv *v)
{
	return v->get_device_list != NULL && v->free_device_list != NULL && v->get_device_name != NULL &&
	       v->get_device_guid != NULL;
}

doca_error_t ogda_ibdev_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why)
{
	const struct ogda_ibv *v = NULL;
	doca_error_t err = check_list_args(entries, max, count, why);

	if (err != DOCA_SUCCESS)
		return err;
	if (ogda_ibv_get(&v) != DOCA_SUCCESS || !have_list_entries(v)) {
		if (why != NULL)
			*why = "libibverbs.so.1 is not available (rdma-core not installed, or OPENGDA_DISABLE_IBVERBS=1)";
		return DOCA_SUCCESS;
	}
	return list_devices(v, NULL, entries, max, count, why);
}

doca_error_t ogda_ibdev_list_mlx5(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why)
{
	const struct ogda_rdma_core *rc = NULL;
	doca_error_t err = check_list_args(entries, max, count, why);

	if (err != DOCA_SUCCESS)
		return err;
	if (ogda_rdma_core_get(&rc) != DOCA_SUCCESS || !have_list_entries(&rc->ibv) || rc->dv.is_supported == NULL) {
		if (why != NULL)
			*why = "libibverbs.so.1 or libmlx5.so.1 is not available (rdma-core not installed, or "
			       "OPENGDA_DISABLE_IBVERBS=1 / OPENGDA_DISABLE_MLX5=1)";
		return DOCA_SUCCESS;
	}
	return list_devices(&rc->ibv, &rc->dv, entries, max, count, why);
}
