/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sample_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "opengda.h"

static const char *g_prog = "sample";
static char g_first_error[512];

void sample_set_prog(const char *name)
{
	if (name != NULL)
		g_prog = name;
}

const char *sample_prog(void)
{
	return g_prog;
}

void sample_err(const char *fmt, ...)
{
	char line[sizeof(g_first_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (g_first_error[0] == '\0')
		snprintf(g_first_error, sizeof(g_first_error), "%s", line);
	fprintf(stderr, "%s: error: %s\n", g_prog, line);
	fflush(stderr);
}

const char *sample_first_error(void)
{
	return g_first_error[0] != '\0' ? g_first_error : "unknown error";
}

void sample_info(const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", g_prog);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void sample_err_doca(const char *what, doca_error_t err)
{
	sample_err("%s: %s (%s)", what, doca_error_get_name(err), doca_error_get_descr(err));
}

int64_t sample_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sample_sleep_us(unsigned int us)
{
	struct timespec ts = {.tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int sample_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, int allow_suffix, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (s == NULL || *s == '\0' || *s == '-' || *s == '+' || *s == ' ') {
		sample_err("%s: '%s' is not a number", opt, s != NULL ? s : "");
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s) {
		sample_err("%s: '%s' is not a number", opt, s);
		return -1;
	}
	if (allow_suffix && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'k': case 'K': mult = 1ull << 10; end++; break;
		case 'm': case 'M': mult = 1ull << 20; end++; break;
		case 'g': case 'G': mult = 1ull << 30; end++; break;
		default: break;
		}
	}
	if (*end != '\0') {
		sample_err("%s: '%s' is not a number%s", opt, s, allow_suffix ? " (suffixes: K, M, G)" : "");
		return -1;
	}
	if (v > UINT64_MAX / mult || v * mult < min || v * mult > max) {
		sample_err("%s: %s is out of range [%llu, %llu]", opt, s, (unsigned long long)min,
			   (unsigned long long)max);
		return -1;
	}
	*out = (uint64_t)v * mult;
	return 0;
}

int sample_apply_log_level(const char *opt, const char *s)
{
	uint64_t v;
	int level;
	doca_error_t err;

	if (sample_parse_u64(opt, s, 0, 70, 0, &v) != 0)
		return -1;
	if (v <= 7) {
		level = (int)v;
	} else {
		switch (v) {
		case 10: level = 0; break; /* DISABLE: only emergencies, which the library never logs */
		case 20: level = 2; break; /* CRITICAL */
		case 30: level = 3; break; /* ERROR */
		case 40: level = 4; break; /* WARNING */
		case 50: level = 6; break; /* INFO */
		case 60: level = 7; break; /* DEBUG */
		case 70: level = 7; break; /* TRACE: the library's most detailed level is DEBUG */
		default:
			sample_err("%s: %s is not a level (10, 20, 30, 40, 50, 60, 70, or a syslog level 0..7)", opt, s);
			return -1;
		}
	}
	err = opengda_log_set_level(level);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_log_set_level", err);
		return -1;
	}
	return 0;
}

void sample_print_version(void)
{
	printf("%s (OpenGDA %s)\n", g_prog, opengda_version_string());
	fflush(stdout);
}
