/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rdma-core (libibverbs.so.1 and libmlx5.so.1) loaded at run time. Only the types come from
 * the installed headers; the libraries are dlopen'd, so OpenGDA runs where rdma-core is
 * absent. Every entry point the library calls goes through one table, struct
 * ogda_rdma_core, which tests can replace as a whole (ogda_rdma_core_override) to run the
 * ConnectX code over a fake.
 *
 * Entry points that old rdma-core releases lack are optional: their slot is NULL, and the
 * operation that needs one returns DOCA_ERROR_NOT_SUPPORTED. Callers check every slot they
 * use, including the ones loaded as required, because an override may leave any of them
 * NULL.
 */
#ifndef OGDA_DEVX_RDMA_CORE_H_
#define OGDA_DEVX_RDMA_CORE_H_

#include "doca_error.h"

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* libibverbs.so.1 */
struct ogda_ibv {
	/* Device list: required (the table does not load without them). */
	struct ibv_device **(*get_device_list)(int *num_devices);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *device);
	__be64 (*get_device_guid)(struct ibv_device *device);

	int (*close_device)(struct ibv_context *context);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	int (*dealloc_pd)(struct ibv_pd *pd);
	/* The exported ibv_reg_mr (verbs.h wraps it in a macro that may pick ibv_reg_mr_iova2). */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access);
	/* rdma-core 34+; optional. */
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd,
					int access);
	int (*dereg_mr)(struct ibv_mr *mr);
	/*
	 * The exported ibv_query_port. verbs.h turns ibv_query_port() into an inline wrapper that
	 * passes a zeroed struct ibv_port_attr to this symbol (declared with a compatibility
	 * struct of the same leading layout); the provider fills the whole struct.
	 */
	int (*query_port)(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr);
	int (*query_gid)(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid);
	struct ibv_ah *(*create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr);
	int (*destroy_ah)(struct ibv_ah *ah);
	/*
	 * Present (non-NULL) only in OpenGDA's own rdma-core front end (src/rdmacore_front): the
	 * "device" behind it is the software NIC, not a ConnectX, whatever its name says.
	 */
	void (*opengda_front)(void);
};

/*
 * rdma-core's struct mlx5dv_devx_umem_in (mlx5dv.h, rdma-core 35+), mirrored so that the
 * library builds against headers that predate it; the layout is rdma-core's ABI. When the
 * installed headers have it, rdma_core.c checks at compile time that both layouts agree
 * (OGDA_HAVE_MLX5DV_UMEM_IN, set by src/devx/CMakeLists.txt).
 */
struct ogda_mlx5dv_umem_in {
	void *addr;            /* with a dmabuf: the offset into the dmabuf */
	size_t size;
	uint32_t access;
	uint64_t pgsz_bitmap;  /* page sizes the driver may use for the device's translation */
	uint64_t comp_mask;
	int dmabuf_fd;
};

/* MLX5DV_UMEM_MASK_DMABUF (an enumerator in mlx5dv.h, which #ifdef cannot test). */
#define OGDA_MLX5DV_UMEM_MASK_DMABUF (1ull << 0)

/*
 * MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED (rdma-core 45+): a UAR page of its own with uncached
 * mapping. Older libraries refuse the flag (EOPNOTSUPP / EINVAL).
 */
#ifdef MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED
#define OGDA_MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED
#else
#define OGDA_MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED (1u << 31)
#endif

/* libmlx5.so.1 */
struct ogda_mlx5dv {
	/* Required: without these the table reports the library as absent. */
	bool (*is_supported)(struct ibv_device *device);
	struct ibv_context *(*open_device)(struct ibv_device *device, struct mlx5dv_context_attr *attr);
	int (*init_obj)(struct mlx5dv_obj *obj, uint64_t obj_type);
	int (*devx_general_cmd)(struct ibv_context *context, const void *in, size_t inlen, void *out, size_t outlen);
	struct mlx5dv_devx_obj *(*devx_obj_create)(struct ibv_context *context, const void *in, size_t inlen, void *out,
						   size_t outlen);
	int (*devx_obj_modify)(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
	int (*devx_obj_query)(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
	int (*devx_obj_destroy)(struct mlx5dv_devx_obj *obj);
	struct mlx5dv_devx_umem *(*devx_umem_reg)(struct ibv_context *context, void *addr, size_t size,
						  uint32_t access);
	int (*devx_umem_dereg)(struct mlx5dv_devx_umem *umem);
	struct mlx5dv_devx_uar *(*devx_alloc_uar)(struct ibv_context *context, uint32_t flags);
	void (*devx_free_uar)(struct mlx5dv_devx_uar *uar);
	int (*devx_query_eqn)(struct ibv_context *context, uint32_t vector, uint32_t *eqn);

	/* Optional. */
	struct mlx5dv_devx_umem *(*devx_umem_reg_ex)(struct ibv_context *context, struct ogda_mlx5dv_umem_in *in);
	struct mlx5dv_devx_event_channel *(*devx_create_event_channel)(
		struct ibv_context *context, enum mlx5dv_devx_create_event_channel_flags flags);
	void (*devx_destroy_event_channel)(struct mlx5dv_devx_event_channel *channel);
	int (*devx_subscribe_devx_event)(struct mlx5dv_devx_event_channel *channel, struct mlx5dv_devx_obj *obj,
					 uint16_t events_sz, uint16_t events_num[], uint64_t cookie);
	ssize_t (*devx_get_event)(struct mlx5dv_devx_event_channel *channel,
				  struct mlx5dv_devx_async_event_hdr *event_data, size_t event_resp_len);
	/*
	 * Steering rules in the kernel-owned tables (rx_root_attach). destroy_flow is not a symbol:
	 * rdma-core destroys a flow with the inline ibv_destroy_flow (a context op), so the loaded
	 * table points it at a function that calls that; a test double gives its own.
	 */
	struct mlx5dv_flow_matcher *(*create_flow_matcher)(struct ibv_context *context,
							   struct mlx5dv_flow_matcher_attr *attr);
	int (*destroy_flow_matcher)(struct mlx5dv_flow_matcher *matcher);
	struct ibv_flow *(*create_flow)(struct mlx5dv_flow_matcher *matcher, struct mlx5dv_flow_match_parameters *value,
					size_t num_actions, struct mlx5dv_flow_action_attr actions_attr[]);
	int (*destroy_flow)(struct ibv_flow *flow);
};

struct ogda_rdma_core {
	struct ogda_ibv ibv;
	struct ogda_mlx5dv dv;
};

/* Loads libibverbs.so.1 once. DOCA_ERROR_NOT_FOUND when absent or disabled. */
doca_error_t ogda_ibv_get(const struct ogda_ibv **ibv);

/*
 * The whole table: libibverbs.so.1 and libmlx5.so.1, loaded once (or the override).
 * DOCA_ERROR_NOT_FOUND when either library is absent, disabled (OPENGDA_DISABLE_IBVERBS,
 * OPENGDA_DISABLE_MLX5) or lacks a required entry point.
 */
doca_error_t ogda_rdma_core_get(const struct ogda_rdma_core **rc);

/*
 * Test seam: every later ogda_ibv_get / ogda_rdma_core_get (and so every device list and
 * open) returns this table instead of the loaded libraries; NULL goes back to them. The
 * table must outlive every device opened through it. Objects keep the table they were
 * created with, so switching does not affect devices already open.
 */
void ogda_rdma_core_override(const struct ogda_rdma_core *table);

#define OGDA_IBDEV_NAME_MAX 64

struct ogda_ibdev_entry {
	char name[OGDA_IBDEV_NAME_MAX];
	uint64_t guid; /* host order */
};

/*
 * Lists the RDMA devices rdma-core sees, up to max entries; *count is the number found.
 * No libibverbs, or a kernel without the RDMA subsystem (ibv_get_device_list returns NULL
 * with ENOSYS), means zero devices and DOCA_SUCCESS: that is a machine without NICs, not an
 * error. *why (optional) gets a one-line explanation when the count is zero.
 */
doca_error_t ogda_ibdev_list(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why);

/*
 * The same, keeping only the devices libmlx5 drives (mlx5dv_is_supported). No libmlx5:
 * zero devices and DOCA_SUCCESS.
 */
doca_error_t ogda_ibdev_list_mlx5(struct ogda_ibdev_entry *entries, size_t max, size_t *count, const char **why);

#endif /* OGDA_DEVX_RDMA_CORE_H_ */
