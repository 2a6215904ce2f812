/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Events of the software NIC: event channels, subscriptions, and the events the NIC raises
 * (docs/swnic.md, "Events").
 *
 * A channel is an eventfd (non-blocking, close-on-exec) plus a queue of struct
 * ogda_devx_event. The fd is readable (poll / epoll POLLIN) exactly while the queue holds
 * an event: the counter is written when the queue becomes non-empty and drained when it
 * becomes empty, both under the channel's lock. Consumers poll the fd and read events with
 * swnic_event_read(); reading the fd itself is not needed (it only clears readiness early).
 *
 * A subscription ties (channel, object, event types, cookie); at most one per (channel,
 * object). It ends when the object is destroyed (the destroy commands call
 * swnic_event_forget) or the channel is destroyed. An event raised on an object goes to
 * every channel subscribed to that object for that type, and nowhere else.
 *
 * Event types by object: CQ: COMP, CQ_ERROR; QP: WQ_CATAS_ERROR, WQ_INVAL_REQ_ERROR,
 * WQ_ACCESS_ERROR; RMP: SRQ_CATAS_ERROR (accepted; the model never moves an RMP to ERR
 * by itself, so it is never raised).
 *
 * Completion events need the CQ to be armed (swnic_cq_arm.c). While any CQ has a COMP
 * subscription, a scan thread of the NIC looks at the subscribed CQs' arm doorbells and
 * fires those armed with a qualifying CQE already written; CQE production checks at once.
 * The scan sleeps between passes (20 us, doubling to 1 ms while nothing changes); it
 * never spins, and it does not run while no CQ is subscribed to COMP.
 *
 * Thread safety: every function may be called from any thread. Raising takes the
 * registry's lock and the channel's lock: it may be called with a QP's locks held, never
 * with nic->lock or a CQ's lock held (the lock order is in swnic_event.c).
 */
#ifndef OGDA_SWNIC_EVENT_H_
#define OGDA_SWNIC_EVENT_H_

#include "devx/devx.h"
#include "doca_error.h"
#include "swnic/swnic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds of object events are raised on. */
enum swnic_event_obj {
	SWNIC_EVOBJ_CQ = 1,
	SWNIC_EVOBJ_QP,
	SWNIC_EVOBJ_RMP,
};

/* Pending events a channel holds at most; later ones are dropped (logged once per burst). */
#define SWNIC_EVENT_QUEUE_MAX 65536u

/* Scan intervals of the arm scan thread. */
#define SWNIC_EVENT_SCAN_MIN_NS 20000ull
#define SWNIC_EVENT_SCAN_MAX_NS 1000000ull

struct swnic_event_channel;

/* ---- the NIC's registry (created and destroyed with the instance) ---- */

doca_error_t swnic_events_create(struct swnic *nic, struct swnic_events **events);
/* Stops the scan thread and drops what is left. Every channel must be gone already. */
void swnic_events_destroy(struct swnic_events *events);

/* ---- channels ---- */

/*
 * A new channel of nic; *fd is its eventfd (owned by the channel). The channel holds a
 * reference on nic (swnic_get) until it is destroyed.
 */
doca_error_t swnic_event_channel_create(struct swnic *nic, struct swnic_event_channel **ch, int *fd);
/* Ends the channel's subscriptions, drops its pending events, closes its fd. */
doca_error_t swnic_event_channel_destroy(struct swnic_event_channel *ch);

/*
 * Subscribes ch to the events in types[0 .. ntypes) (enum ogda_devx_event_type values)
 * raised on the object kind / num of the channel's NIC.
 * DOCA_ERROR_INVALID_VALUE: NULL, no types, a type the object kind never raises.
 * DOCA_ERROR_NOT_FOUND: no such object. DOCA_ERROR_ALREADY_EXIST: ch already has a
 * subscription on that object.
 */
doca_error_t swnic_event_subscribe(struct swnic_event_channel *ch, enum swnic_event_obj kind, uint32_t num,
				   const uint16_t *types, size_t ntypes, uint64_t cookie);

/* The oldest pending event; DOCA_ERROR_AGAIN when none is pending. Never blocks. */
doca_error_t swnic_event_read(struct swnic_event_channel *ch, struct ogda_devx_event *ev);

/* Pending events of ch (for tests and logs). */
uint32_t swnic_event_pending(struct swnic_event_channel *ch);

/* ---- raising (the engine, the responder, CQE production) ---- */

/*
 * Queues {cookie, type, syndrome, num} on every channel subscribed to type on the object.
 * Cheap when nothing is subscribed on the NIC. nic may be NULL (nothing happens).
 */
void swnic_event_raise(struct swnic *nic, enum swnic_event_obj kind, uint32_t num, uint8_t type, uint8_t syndrome);

/*
 * The object is being destroyed: its subscriptions end. For a CQ, call it after the CQ
 * left the NIC's table and before it is freed (the scan stops looking at it).
 */
void swnic_event_forget(struct swnic *nic, enum swnic_event_obj kind, uint32_t num);

/* ---- CQ arming (swnic_cq_arm.c) ---- */

/* At CREATE_CQ, before the CQ is visible: remembers the arm doorbell words as they are. */
void swnic_cq_arm_init(struct swnic_cq *cq);

/* At every CQE write, under cq->lock: notes solicited (SE) and error CQEs at index. */
void swnic_cq_arm_note_cqe(struct swnic_cq *cq, uint32_t index, bool solicited_or_error);

/*
 * Under cq->lock: applies the arming rule (docs/swnic.md). True when the CQ is armed and a
 * CQE that satisfies the arm exists: the CQ is then disarmed, and the caller raises one
 * COMP event (after releasing cq->lock). *changed (may be NULL) tells whether any arm
 * input changed since the last look (the scan speeds up then).
 */
bool swnic_cq_arm_check_locked(struct swnic_cq *cq, bool *changed);

#endif /* OGDA_SWNIC_EVENT_H_ */
