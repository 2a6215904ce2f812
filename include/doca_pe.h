/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_pe.h
 * @brief DOCA Core progress engine: the CPU thread's loop that delivers a context's events.
 *
 * Contexts connected to an engine report their state changes through it, and do their CPU-side
 * work in it (an Ethernet send queue's completion events, say): doca_pe_progress()
 * runs the callbacks on the calling thread, in the order the changes happened. Later libraries
 * deliver their CPU-side events (send errors, notifications) the same way. An engine is driven
 * by one thread at a time; contexts may change state on other threads (the queue is locked).
 */
#ifndef DOCA_PE_H_
#define DOCA_PE_H_

#include <stdint.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
/** @brief A progress engine. */
struct doca_pe;

/**
 * @brief Creates an engine.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_NO_MEMORY.
 */
doca_error_t doca_pe_create(struct doca_pe **pe);

/**
 * @brief Destroys an engine with no context connected.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_IN_USE while contexts are
 *         connected (destroy them first).
 */
doca_error_t doca_pe_destroy(struct doca_pe *pe);

/**
 * @brief Connects an IDLE context; it stays connected until it is destroyed.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE for NULL; DOCA_ERROR_BAD_STATE when the context is
 *         not IDLE; DOCA_ERROR_ALREADY_EXIST when it is connected to an engine already.
 */
doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

/**
 * @brief Delivers the pending events: runs the state callback of each queued state change.
 * @return 1 if an event was delivered, 0 if none was pending (and for a NULL engine, logged).
 */
uint8_t doca_pe_progress(struct doca_pe *pe);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PE_H_ */
