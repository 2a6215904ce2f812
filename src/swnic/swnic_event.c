/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Event channels and subscriptions of the software NIC, the raising of events, and the
 * scan that fires armed CQs (see swnic_event.h for the contract).
 *
 * The registry (struct swnic_events, one per NIC) holds every subscription in one list
 * under its lock. Raising walks the list and appends to the matching channels' queues;
 * raisers skip the lock entirely while the NIC has no subscription at all, so the data
 * path pays one atomic load when nobody listens.
 *
 * Locks, outermost first: nic->lock (subscribe looks the object up and inserts under it,
 * so a destroy cannot slip in between) > qp->lock (responders raise while holding it) >
 * events->lock > cq->lock (the scan) > channel->lock. CQE production decides under
 * cq->lock and raises after releasing it; nobody takes nic->lock or a QP lock while
 * holding events->lock.
 */
#include "swnic/swnic_event.h"

#include "core/log.h"
#include "swnic/swnic_ctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define TYPE_BIT(t) (1u << (t))
#define QUEUE_INITIAL 16u

struct ev_sub {
	struct swnic_event_channel *ch;
	enum swnic_event_obj kind;
	uint32_t num;
	uint32_t types;            /* TYPE_BIT of each subscribed type (all types are below 32) */
	uint64_t cookie;
	struct swnic_cq *cq;       /* CQ subscriptions: the CQ the arm scan looks at */
	struct ev_sub *next;
};

struct swnic_events {
	struct swnic *nic;
	pthread_mutex_t lock;
	pthread_cond_t cond;       /* wakes the scan: a COMP subscription, or stop */
	struct ev_sub *subs;
	atomic_uint nsubs;         /* raisers skip the lock while 0 */
	uint32_t ncomp;            /* subscriptions with COMP: the scan works while non-zero */
	pthread_t scan_tid;
	bool scan_started;
	bool stop;
};

struct swnic_event_channel {
	struct swnic *nic;
	int fd;                    /* eventfd: counter non-zero exactly while count > 0 */
	pthread_mutex_t lock;
	struct ogda_devx_event *q; /* ring of cap entries, oldest at head */
	uint32_t cap, head, count;
	bool dropping;             /* the queue was full: logged once until it drains */
	uint64_t dropped;
};

static const char *kind_name(enum swnic_event_obj kind)
{
	switch (kind) {
	case SWNIC_EVOBJ_CQ:
		return "CQ";
	case SWNIC_EVOBJ_QP:
		return "QP";
	case SWNIC_EVOBJ_RMP:
		return "RMP";
	}
	return "?";
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case OGDA_DEVX_EVENT_COMP:
		return "COMP";
	case OGDA_DEVX_EVENT_CQ_ERROR:
		return "CQ_ERROR";
	case OGDA_DEVX_EVENT_WQ_CATAS_ERROR:
		return "WQ_CATAS_ERROR";
	case OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR:
		return "WQ_INVAL_REQ_ERROR";
	case OGDA_DEVX_EVENT_WQ_ACCESS_ERROR:
		return "WQ_ACCESS_ERROR";
	case OGDA_DEVX_EVENT_SRQ_CATAS_ERROR:
		return "SRQ_CATAS_ERROR";
	default:
		return "?";
	}
}

/* The types an object kind raises; 0 for an unknown kind. */
static uint32_t types_of_kind(enum swnic_event_obj kind)
{
	switch (kind) {
	case SWNIC_EVOBJ_CQ:
		return TYPE_BIT(OGDA_DEVX_EVENT_COMP) | TYPE_BIT(OGDA_DEVX_EVENT_CQ_ERROR);
	case SWNIC_EVOBJ_QP:
		return TYPE_BIT(OGDA_DEVX_EVENT_WQ_CATAS_ERROR) | TYPE_BIT(OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR) |
		       TYPE_BIT(OGDA_DEVX_EVENT_WQ_ACCESS_ERROR);
	case SWNIC_EVOBJ_RMP:
		return TYPE_BIT(OGDA_DEVX_EVENT_SRQ_CATAS_ERROR);
	}
	return 0;
}

/* ---- channel queue ---- */

/* Room for one more event: grows the ring (doubling) up to SWNIC_EVENT_QUEUE_MAX. */
static bool queue_reserve(struct swnic_event_channel *ch)
{
	struct ogda_devx_event *q;
	uint32_t cap, i;

	if (ch->count < ch->cap)
		return true;
	if (ch->cap >= SWNIC_EVENT_QUEUE_MAX)
		return false;
	cap = ch->cap != 0 ? ch->cap * 2u : QUEUE_INITIAL;
	q = malloc((size_t)cap * sizeof(*q));
	if (q == NULL)
		return false;
	for (i = 0; i < ch->count; i++)
		q[i] = ch->q[(ch->head + i) % ch->cap];
	free(ch->q);
	ch->q = q;
	ch->cap = cap;
	ch->head = 0;
	return true;
}

static void channel_push(struct swnic_event_channel *ch, const struct ogda_devx_event *e)
{
	uint64_t one = 1;

	pthread_mutex_lock(&ch->lock);
	if (!queue_reserve(ch)) {
		ch->dropped++;
		if (!ch->dropping)
			OGDA_LOG_ERR("%s: event channel fd %d holds %u unread events: %s event on 0x%x dropped "
				     "(read the channel)",
				     ch->nic->name, ch->fd, ch->count, type_name(e->type), e->obj_num);
		ch->dropping = true;
		pthread_mutex_unlock(&ch->lock);
		return;
	}
	ch->q[(ch->head + ch->count) % ch->cap] = *e;
	ch->count++;
	/* The queue went from empty to not empty: the fd becomes readable. */
	if (ch->count == 1u && write(ch->fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		OGDA_LOG_ERR("%s: event channel fd %d: eventfd write: %s", ch->nic->name, ch->fd, strerror(errno));
	pthread_mutex_unlock(&ch->lock);
}

/* ---- subscriptions ---- */

static void sub_unlink_locked(struct swnic_events *ev, struct ev_sub **link)
{
	struct ev_sub *s = *link;

	*link = s->next;
	if (s->types & TYPE_BIT(OGDA_DEVX_EVENT_COMP)) {
		ev->ncomp--;
		if (s->cq != NULL)
			atomic_fetch_sub_explicit(&s->cq->comp_subs, 1, memory_order_relaxed);
	}
	atomic_fetch_sub_explicit(&ev->nsubs, 1, memory_order_release);
	free(s);
}

/* Removes every subscription for which match() holds. */
static uint32_t subs_remove_locked(struct swnic_events *ev, bool (*match)(const struct ev_sub *, const void *),
				   const void *arg)
{
	struct ev_sub **link = &ev->subs;
	uint32_t n = 0;

	while (*link != NULL) {
		if (match(*link, arg)) {
			sub_unlink_locked(ev, link);
			n++;
		} else {
			link = &(*link)->next;
		}
	}
	return n;
}

static bool sub_of_channel(const struct ev_sub *s, const void *arg)
{
	return s->ch == arg;
}

struct obj_ref {
	enum swnic_event_obj kind;
	uint32_t num;
};

static bool sub_of_object(const struct ev_sub *s, const void *arg)
{
	const struct obj_ref *o = arg;

	return s->kind == o->kind && s->num == o->num;
}

static void raise_locked(struct swnic_events *ev, enum swnic_event_obj kind, uint32_t num, uint8_t type,
			 uint8_t syndrome)
{
	struct ev_sub *s;

	for (s = ev->subs; s != NULL; s = s->next) {
		struct ogda_devx_event e;

		if (s->kind != kind || s->num != num || !(s->types & TYPE_BIT(type)))
			continue;
		memset(&e, 0, sizeof(e));
		e.cookie = s->cookie;
		e.type = type;
		e.syndrome = syndrome;
		e.obj_num = num;
		channel_push(s->ch, &e);
		OGDA_LOG_DBG("%s: %s event on %s 0x%x (syndrome 0x%02x) -> channel fd %d", ev->nic->name,
			     type_name(type), kind_name(kind), num, (unsigned)syndrome, s->ch->fd);
	}
}

/* ---- the arm scan ---- */

/* One pass over the CQs subscribed to COMP; true when an arm input changed or a CQ fired. */
static bool scan_locked(struct swnic_events *ev)
{
	bool activity = false;
	struct ev_sub *s;

	for (s = ev->subs; s != NULL; s = s->next) {
		bool fire, changed = false;

		if (s->cq == NULL || !(s->types & TYPE_BIT(OGDA_DEVX_EVENT_COMP)))
			continue;
		pthread_mutex_lock(&s->cq->lock);
		fire = swnic_cq_arm_check_locked(s->cq, &changed);
		pthread_mutex_unlock(&s->cq->lock);
		activity |= changed || fire;
		if (fire)
			raise_locked(ev, SWNIC_EVOBJ_CQ, s->cq->cqn, OGDA_DEVX_EVENT_COMP, 0);
	}
	return activity;
}

static void timespec_after(struct timespec *ts, uint64_t ns)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ns += (uint64_t)ts->tv_nsec;
	ts->tv_sec += (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

/* Sleeps while no CQ is subscribed to COMP; otherwise scans, backing off while idle. */
static void *scan_main(void *arg)
{
	struct swnic_events *ev = arg;
	uint64_t interval = SWNIC_EVENT_SCAN_MIN_NS;

	pthread_mutex_lock(&ev->lock);
	while (!ev->stop) {
		struct timespec ts;

		if (ev->ncomp == 0) {
			pthread_cond_wait(&ev->cond, &ev->lock);
			interval = SWNIC_EVENT_SCAN_MIN_NS;
			continue;
		}
		if (scan_locked(ev))
			interval = SWNIC_EVENT_SCAN_MIN_NS;
		else if (interval < SWNIC_EVENT_SCAN_MAX_NS)
			interval = interval * 2u > SWNIC_EVENT_SCAN_MAX_NS ? SWNIC_EVENT_SCAN_MAX_NS : interval * 2u;
		timespec_after(&ts, interval);
		(void)pthread_cond_timedwait(&ev->cond, &ev->lock, &ts);
	}
	pthread_mutex_unlock(&ev->lock);
	return NULL;
}

/* Starts the scan on the first COMP subscription (ev->lock held). */
static doca_error_t scan_start_locked(struct swnic_events *ev)
{
	int err;

	if (ev->scan_started)
		return DOCA_SUCCESS;
	err = pthread_create(&ev->scan_tid, NULL, scan_main, ev);
	if (err != 0) {
		OGDA_LOG_ERR("%s: cannot start the CQ arm scan thread: %s", ev->nic->name, strerror(err));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	ev->scan_started = true;
	return DOCA_SUCCESS;
}

/* ---- registry ---- */

doca_error_t swnic_events_create(struct swnic *nic, struct swnic_events **events)
{
	struct swnic_events *ev;
	pthread_condattr_t ca;

	if (nic == NULL || events == NULL) {
		OGDA_LOG_ERR("nic and events must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ev->nic = nic;
	atomic_init(&ev->nsubs, 0);
	if (pthread_mutex_init(&ev->lock, NULL) != 0) {
		free(ev);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (pthread_condattr_init(&ca) != 0) {
		pthread_mutex_destroy(&ev->lock);
		free(ev);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (pthread_cond_init(&ev->cond, &ca) != 0) {
		pthread_condattr_destroy(&ca);
		pthread_mutex_destroy(&ev->lock);
		free(ev);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	pthread_condattr_destroy(&ca);
	*events = ev;
	return DOCA_SUCCESS;
}

void swnic_events_destroy(struct swnic_events *ev)
{
	if (ev == NULL)
		return;
	pthread_mutex_lock(&ev->lock);
	ev->stop = true;
	pthread_cond_broadcast(&ev->cond);
	pthread_mutex_unlock(&ev->lock);
	if (ev->scan_started)
		pthread_join(ev->scan_tid, NULL);
	/* Channels hold the NIC open, so none is left; drop whatever a caller leaked anyway. */
	while (ev->subs != NULL)
		sub_unlink_locked(ev, &ev->subs);
	pthread_cond_destroy(&ev->cond);
	pthread_mutex_destroy(&ev->lock);
	free(ev);
}

/* ---- channels ---- */

doca_error_t swnic_event_channel_create(struct swnic *nic, struct swnic_event_channel **out, int *fd)
{
	struct swnic_event_channel *ch;

	if (nic == NULL || out == NULL || fd == NULL) {
		OGDA_LOG_ERR("nic, ch and fd must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (nic->events == NULL) {
		OGDA_LOG_ERR("%s has no event registry", nic->name);
		return DOCA_ERROR_BAD_STATE;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ch->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ch->fd < 0) {
		OGDA_LOG_ERR("%s: event channel: eventfd: %s", nic->name, strerror(errno));
		free(ch);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (pthread_mutex_init(&ch->lock, NULL) != 0) {
		close(ch->fd);
		free(ch);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	swnic_get(nic);
	ch->nic = nic;
	*out = ch;
	*fd = ch->fd;
	OGDA_LOG_DBG("%s: event channel fd %d created", nic->name, ch->fd);
	return DOCA_SUCCESS;
}

doca_error_t swnic_event_channel_destroy(struct swnic_event_channel *ch)
{
	struct swnic_events *ev;
	struct swnic *nic;
	uint32_t n;

	if (ch == NULL) {
		OGDA_LOG_ERR("ch must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nic = ch->nic;
	ev = nic->events;
	/* After this no raiser can reach the channel: they find it only through subscriptions. */
	pthread_mutex_lock(&ev->lock);
	n = subs_remove_locked(ev, sub_of_channel, ch);
	pthread_mutex_unlock(&ev->lock);
	OGDA_LOG_DBG("%s: event channel fd %d destroyed: %u subscriptions ended, %u events dropped unread, "
		     "%llu lost to a full queue",
		     nic->name, ch->fd, n, ch->count, (unsigned long long)ch->dropped);
	close(ch->fd);
	free(ch->q);
	pthread_mutex_destroy(&ch->lock);
	free(ch);
	swnic_close(nic);
	return DOCA_SUCCESS;
}

/*
 * Looks the object up (nic->lock and ev->lock held); for a CQ subscribed to COMP, counts
 * the subscription on it.
 */
static doca_error_t find_object_locked(struct swnic *nic, enum swnic_event_obj kind, uint32_t num, bool comp,
				       struct swnic_cq **cq)
{
	void *obj = NULL;

	*cq = NULL;
	switch (kind) {
	case SWNIC_EVOBJ_CQ:
		obj = swnic_table_lookup(&nic->cqs, num);
		*cq = obj; /* the executor's CQ object starts with its struct swnic_cq */
		if (*cq != NULL && comp)
			atomic_fetch_add_explicit(&(*cq)->comp_subs, 1, memory_order_relaxed);
		break;
	case SWNIC_EVOBJ_QP:
		obj = swnic_qpn_table_lookup(&nic->qps, num);
		break;
	case SWNIC_EVOBJ_RMP:
		obj = swnic_table_lookup(&nic->srqs, num);
		break;
	}
	return obj != NULL ? DOCA_SUCCESS : DOCA_ERROR_NOT_FOUND;
}

doca_error_t swnic_event_subscribe(struct swnic_event_channel *ch, enum swnic_event_obj kind, uint32_t num,
				   const uint16_t *types, size_t ntypes, uint64_t cookie)
{
	uint32_t allowed = types_of_kind(kind), mask = 0;
	struct swnic_events *ev;
	struct ev_sub *s, *it;
	doca_error_t err;
	size_t i;

	if (ch == NULL || types == NULL || ntypes == 0) {
		OGDA_LOG_ERR("subscribe: ch and types must not be NULL, ntypes not 0 (ch %p, types %p, ntypes %zu)",
			     (void *)ch, (const void *)types, ntypes);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (allowed == 0) {
		OGDA_LOG_ERR("%s: subscribe: unknown object kind %d", ch->nic->name, (int)kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < ntypes; i++) {
		if (types[i] >= 32u || !(allowed & TYPE_BIT(types[i]))) {
			OGDA_LOG_ERR("%s: subscribe: a %s never raises event type 0x%x", ch->nic->name, kind_name(kind),
				     (unsigned)types[i]);
			return DOCA_ERROR_INVALID_VALUE;
		}
		mask |= TYPE_BIT(types[i]);
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return DOCA_ERROR_NO_MEMORY;
	s->ch = ch;
	s->kind = kind;
	s->num = num;
	s->types = mask;
	s->cookie = cookie;

	ev = ch->nic->events;
	/* The table lock is held until the subscription is in: DESTROY_* then finds it to forget. */
	pthread_rwlock_rdlock(&ch->nic->lock);
	pthread_mutex_lock(&ev->lock);
	for (it = ev->subs; it != NULL; it = it->next) {
		if (it->ch == ch && it->kind == kind && it->num == num) {
			pthread_mutex_unlock(&ev->lock);
			pthread_rwlock_unlock(&ch->nic->lock);
			free(s);
			OGDA_LOG_ERR("%s: subscribe: channel fd %d is already subscribed to %s 0x%x", ch->nic->name,
				     ch->fd, kind_name(kind), num);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	if (mask & TYPE_BIT(OGDA_DEVX_EVENT_COMP)) {
		err = scan_start_locked(ev);
		if (err != DOCA_SUCCESS) {
			pthread_mutex_unlock(&ev->lock);
			pthread_rwlock_unlock(&ch->nic->lock);
			free(s);
			return err;
		}
	}
	err = find_object_locked(ch->nic, kind, num, (mask & TYPE_BIT(OGDA_DEVX_EVENT_COMP)) != 0, &s->cq);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_unlock(&ev->lock);
		pthread_rwlock_unlock(&ch->nic->lock);
		free(s);
		OGDA_LOG_ERR("%s: subscribe: no %s 0x%x", ch->nic->name, kind_name(kind), num);
		return err;
	}
	s->next = ev->subs;
	ev->subs = s;
	atomic_fetch_add_explicit(&ev->nsubs, 1, memory_order_release);
	if (mask & TYPE_BIT(OGDA_DEVX_EVENT_COMP)) {
		ev->ncomp++;
		pthread_cond_broadcast(&ev->cond);
	}
	pthread_mutex_unlock(&ev->lock);
	pthread_rwlock_unlock(&ch->nic->lock);
	OGDA_LOG_DBG("%s: channel fd %d subscribed to %s 0x%x, types 0x%x, cookie 0x%llx", ch->nic->name, ch->fd,
		     kind_name(kind), num, mask, (unsigned long long)cookie);
	return DOCA_SUCCESS;
}

doca_error_t swnic_event_read(struct swnic_event_channel *ch, struct ogda_devx_event *ev)
{
	uint64_t v;

	if (ch == NULL || ev == NULL) {
		OGDA_LOG_ERR("ch and ev must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&ch->lock);
	if (ch->count == 0) {
		pthread_mutex_unlock(&ch->lock);
		return DOCA_ERROR_AGAIN;
	}
	*ev = ch->q[ch->head];
	ch->head = (ch->head + 1u) % ch->cap;
	ch->count--;
	if (ch->count == 0) {
		/* Empty: the fd stops being readable (EAGAIN if the consumer already drained it). */
		(void)!read(ch->fd, &v, sizeof(v));
		ch->head = 0;
		ch->dropping = false;
	}
	pthread_mutex_unlock(&ch->lock);
	return DOCA_SUCCESS;
}

uint32_t swnic_event_pending(struct swnic_event_channel *ch)
{
	uint32_t n;

	if (ch == NULL)
		return 0;
	pthread_mutex_lock(&ch->lock);
	n = ch->count;
	pthread_mutex_unlock(&ch->lock);
	return n;
}

/* ---- raising ---- */

void swnic_event_raise(struct swnic *nic, enum swnic_event_obj kind, uint32_t num, uint8_t type, uint8_t syndrome)
{
	struct swnic_events *ev;

	if (nic == NULL || nic->events == NULL || type >= 32u)
		return;
	ev = nic->events;
	if (atomic_load_explicit(&ev->nsubs, memory_order_acquire) == 0)
		return;
	pthread_mutex_lock(&ev->lock);
	raise_locked(ev, kind, num, type, syndrome);
	pthread_mutex_unlock(&ev->lock);
}

void swnic_event_forget(struct swnic *nic, enum swnic_event_obj kind, uint32_t num)
{
	struct obj_ref o = {kind, num};
	struct swnic_events *ev;
	uint32_t n;

	if (nic == NULL || nic->events == NULL)
		return;
	ev = nic->events;
	pthread_mutex_lock(&ev->lock);
	n = subs_remove_locked(ev, sub_of_object, &o);
	pthread_mutex_unlock(&ev->lock);
	if (n != 0)
		OGDA_LOG_DBG("%s: %s 0x%x destroyed: %u subscriptions ended", nic->name, kind_name(kind), num, n);
}
