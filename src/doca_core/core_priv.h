/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Core (doca_mmap.h, doca_buf_array.h, doca_buf.h, doca_buf_inventory.h, doca_ctx.h,
 * doca_pe.h with its tasks, the doca_devinfo queries of doca_dev.h): what the objects of this
 * folder share with each other and with the libraries built on them (Ethernet queues embed a
 * doca_ctx, DMA tasks a doca_task).
 *
 * Layering: DOCA Core sits above the device interface (devx) and the DOCA device (src/verbs owns
 * struct doca_dev), and uses the GPU handle (src/gpunetio) for device-side handles.
 */
#ifndef OGDA_DOCA_CORE_CORE_PRIV_H_
#define OGDA_DOCA_CORE_CORE_PRIV_H_

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_pe.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ogda_devx;
struct ogda_devx_pd;

/* ---- the device a DOCA Core object works on ---- */

/*
 * The device interface and protection domain of @dev (and its number, when @pdn is not NULL): the PD a doca_verbs_dev_open() device was
 * opened on, or for a doca_dev_open() device its own PD, allocated on first use (thread-safe) and
 * freed by doca_dev_close(). Logs and returns DOCA_ERROR_DRIVER when the PD cannot be allocated.
 */
doca_error_t core_dev_resolve(struct doca_dev *dev, struct ogda_devx **devx, struct ogda_devx_pd **pd, uint32_t *pdn);
/* The device's name for log lines. */
const char *core_dev_name(const struct doca_dev *dev);
/* Started maps registered on the device: doca_dev_close() refuses while any remain. */
void core_dev_use(struct doca_dev *dev);
void core_dev_unuse(struct doca_dev *dev);

/* ---- doca_mmap, for doca_buf_arr ---- */

/* The range of a started map and the key of its first device; DOCA_ERROR_BAD_STATE (not logged)
 * for a map not started or without a device. */
doca_error_t core_mmap_first_key(const struct doca_mmap *mmap, void **addr, size_t *len, uint32_t *mkey);
/* A started map's range; DOCA_ERROR_BAD_STATE (not logged) for a map not started. */
doca_error_t core_mmap_started_range(const struct doca_mmap *mmap, uint8_t **addr, size_t *len);
/* A started doca_buf_arr, or a doca_buf in use, holds the map: doca_mmap_stop() refuses while any do. */
void core_mmap_hold(struct doca_mmap *mmap);
void core_mmap_release(struct doca_mmap *mmap);

/* ---- doca_ctx: the base of every context ---- */

/* What a concrete context (an Ethernet queue, a test context) does on start and stop. */
struct core_ctx_ops {
	const char *kind;                                   /* "eth_txq", ... for log lines */
	bool gpu_datapath_ok;                               /* may set_datapath_on_gpu */
	doca_error_t (*start)(struct doca_ctx *ctx);        /* IDLE -> RUNNING; logs its own failure */
	doca_error_t (*stop)(struct doca_ctx *ctx);         /* RUNNING -> IDLE; logs its own failure */
	/*
	 * Optional: the work doca_pe_progress() does for a RUNNING or STOPPING context (its
	 * completions, say); 1 when it did any. A STOPPING context drains its tasks here.
	 */
	uint8_t (*progress)(struct doca_ctx *ctx);
	/*
	 * Contexts with CPU tasks (task.c): submit posts @task (allocated by the context, checked
	 * IN_FLIGHT by the caller afterwards only on success) and returns the error that leaves it
	 * with the caller; release takes a freed task back into the context's pool.
	 */
	doca_error_t (*task_submit)(struct doca_ctx *ctx, struct doca_task *task);
	void (*task_release)(struct doca_ctx *ctx, struct doca_task *task);
	/*
	 * Optional: whether the context still lends the application something it must give back
	 * before the context may stop (received packet buffers of a CPU receive queue). While it
	 * does, doca_ctx_stop() leaves the context STOPPING, as it does for allocated tasks, and
	 * doca_pe_progress() finishes the stop once it answers false.
	 */
	bool (*busy)(const struct doca_ctx *ctx);
};

struct doca_ctx {
	const struct core_ctx_ops *ops;
	_Atomic int state;                                  /* enum doca_ctx_states */
	struct doca_gpu *gpu;                               /* set_datapath_on_gpu, else NULL */
	union doca_data user_data;
	doca_ctx_state_changed_callback_t state_cb;
	struct doca_pe *pe;                                 /* connected progress engine or NULL */
	struct doca_ctx *pe_next;                           /* in pe's list */
	/*
	 * Tasks (task.c), touched by the thread that drives the engine only: allocated and not
	 * freed (in flight included), and in flight. doca_ctx_stop() leaves a context with tasks
	 * allocated STOPPING until they are completed and freed.
	 */
	size_t tasks_allocated;
	size_t tasks_in_flight;
};

/* Initialises the base of a concrete context (IDLE, no PE). */
void core_ctx_init(struct doca_ctx *ctx, const struct core_ctx_ops *ops);
/*
 * For the concrete destroy: DOCA_ERROR_BAD_STATE (logged) unless the context is IDLE; otherwise
 * disconnects it from its PE, dropping the state changes not yet delivered.
 */
doca_error_t core_ctx_fini(struct doca_ctx *ctx);

/*
 * For a context starting with a CPU data path (no doca_ctx_set_datapath_on_gpu): checks that it is
 * connected to a progress engine (its completions are delivered there) and creates the host
 * handle its queues are built for (*host, destroyed by the context's stop). DOCA_ERROR_BAD_STATE
 * without an engine, or the host handle's error; logged in the context's name.
 */
doca_error_t core_ctx_cpu_datapath(struct doca_ctx *ctx, struct doca_gpu **host);

/* Checks that the context exists and is IDLE (a setter's first step); logs in @func's name. */
doca_error_t core_ctx_check_idle(const struct doca_ctx *ctx, const char *func);

/*
 * For doca_pe_progress(), after the progress of a STOPPING context: once it has no task left
 * allocated, stops it (ops->stop) and reports STOPPING -> IDLE.
 */
void core_ctx_finish_stop(struct doca_ctx *ctx);

/* ---- doca_task: the base every library's task embeds first (task.c) ---- */

enum core_task_state {
	CORE_TASK_FREE = 0,  /* in its context's pool */
	CORE_TASK_ALLOCATED, /* the application's: submit, free, or reuse after completion */
	CORE_TASK_IN_FLIGHT, /* the library's until its completion callback runs */
};

struct doca_task {
	struct doca_ctx *ctx;
	union doca_data user_data;
	doca_error_t status; /* DOCA_ERROR_IN_PROGRESS in flight, then the outcome */
	enum core_task_state state;
};

/* A task taken from @ctx's pool by an *_alloc_init (counts it as allocated). */
void core_task_alloc(struct doca_ctx *ctx, struct doca_task *task, union doca_data user_data);
/* Records the outcome of an in-flight task before its callback runs (it is ALLOCATED again). */
void core_task_done(struct doca_task *task, doca_error_t status);

/* ---- doca_buf and doca_buf_inventory (buf.c, buf_inventory.c) ---- */

struct doca_buf_inventory;

/*
 * A buffer: an element of its inventory, pointing into a started mmap it holds while in use; or,
 * with an owner (owner_put set), a buffer a library lends the application (a received packet):
 * its last doca_buf_dec_refcount() calls owner_put instead of giving it to an inventory.
 */
struct doca_buf {
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	uint8_t *head;          /* [head, head + len) lies in the mmap's range */
	size_t len;
	uint8_t *data;          /* [data, data + data_len) lies in [head, head + len) */
	size_t data_len;
	uint16_t refcount;      /* 0: free, in the inventory */
	struct doca_buf *next;  /* free list */
	void (*owner_put)(struct doca_buf *buf); /* lent buffers: called when the count reaches 0 */
	void *owner;                             /* for owner_put */
};

/* Gives a buffer whose count reached 0 back to its inventory (releases its mmap). */
void core_buf_inventory_put(struct doca_buf *buf);

/* ---- doca_pe, for doca_ctx ---- */

/* Queues a state change of @ctx for delivery by doca_pe_progress(). */
doca_error_t core_pe_post_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states prev,
				enum doca_ctx_states next);
/* Removes @ctx from @pe (list and queued state changes). */
void core_pe_disconnect(struct doca_pe *pe, struct doca_ctx *ctx);

#endif /* OGDA_DOCA_CORE_CORE_PRIV_H_ */
