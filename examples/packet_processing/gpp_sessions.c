/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_packet_processing's TCP session table (gpp_sessions.h). */
#include "gpp_sessions.h"

#include <string.h>

#define MASK ((1u << GPP_SESSIONS_LOG) - 1u)

static uint32_t home(uint32_t ip, uint16_t port)
{
	uint32_t h = (ip ^ ((uint32_t)port << 16 | port)) * 0x9e3779b1u;

	return h >> (32u - GPP_SESSIONS_LOG);
}

struct gpp_session *gpp_sessions_find(struct gpp_sessions *t, uint32_t ip, uint16_t port)
{
	uint32_t i;

	for (i = home(ip, port);; i = (i + 1u) & MASK) {
		struct gpp_session *s = &t->slot[i];

		if (!s->used)
			return NULL;
		if (s->client_ip == ip && s->client_port == port)
			return s;
	}
}

struct gpp_session *gpp_sessions_add(struct gpp_sessions *t, uint32_t ip, uint16_t port)
{
	uint32_t i;

	if (t->count >= (MASK + 1u) / 4u * 3u)
		return NULL;
	for (i = home(ip, port); t->slot[i].used; i = (i + 1u) & MASK)
		;
	memset(&t->slot[i], 0, sizeof(t->slot[i]));
	t->slot[i].client_ip = ip;
	t->slot[i].client_port = port;
	t->slot[i].used = 1;
	t->count++;
	return &t->slot[i];
}

void gpp_sessions_remove(struct gpp_sessions *t, struct gpp_session *s)
{
	uint32_t hole = (uint32_t)(s - t->slot), i, h;

	t->slot[hole].used = 0;
	t->count--;
	/* Move back every later entry of the run whose home is not between the hole and it. */
	for (i = (hole + 1u) & MASK; t->slot[i].used; i = (i + 1u) & MASK) {
		h = home(t->slot[i].client_ip, t->slot[i].client_port);
		if (((i - h) & MASK) >= ((i - hole) & MASK)) {
			t->slot[hole] = t->slot[i];
			t->slot[i].used = 0;
			hole = i;
		}
	}
}
