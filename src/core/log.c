/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/log.h"

#include "core/env.h"
#include "opengda.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int log_threshold = OGDA_LOG_LEVEL_DEFAULT;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static atomic_bool log_env_read;

static const char *const level_names[] = {"EMERG", "ALERT", "CRIT", "ERR", "WARN", "NOTICE", "INFO", "DEBUG"};

static void log_init_from_env(void)
{
	long level;
	doca_error_t err = ogda_env_get_long(OGDA_LOG_ENV, OGDA_LOG_EMERG, OGDA_LOG_DEBUG, OGDA_LOG_LEVEL_DEFAULT, &level);

	atomic_store_explicit(&log_threshold, (int)level, memory_order_relaxed);
	atomic_store_explicit(&log_env_read, true, memory_order_release);
	if (err != DOCA_SUCCESS)
		ogda_log_write(OGDA_LOG_WARNING, __FILE__, __LINE__, __func__,
			       "%s must be an integer 0-7 (syslog level); using %d", OGDA_LOG_ENV,
			       OGDA_LOG_LEVEL_DEFAULT);
}

int ogda_log_level(void)
{
	pthread_once(&log_once, log_init_from_env);
	return atomic_load_explicit(&log_threshold, memory_order_relaxed);
}

bool ogda_log_set_level(int level)
{
	pthread_once(&log_once, log_init_from_env);
	if (level < OGDA_LOG_EMERG || level > OGDA_LOG_DEBUG)
		return false;
	atomic_store_explicit(&log_threshold, level, memory_order_relaxed);
	return true;
}

void ogda_log_reload_env(void)
{
	/* When this is the first logging call, the one-time initialisation is the read. */
	bool read_before = atomic_load_explicit(&log_env_read, memory_order_acquire);

	pthread_once(&log_once, log_init_from_env);
	if (read_before)
		log_init_from_env();
}

void ogda_log_write(int level, const char *file, int line, const char *func, const char *fmt, ...)
{
	char msg[1024];
	char stamp[32];
	struct timespec ts;
	struct tm tm;
	va_list ap;
	int n;

	if (level < OGDA_LOG_EMERG)
		level = OGDA_LOG_EMERG;
	if (level > OGDA_LOG_DEBUG)
		level = OGDA_LOG_DEBUG;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);

	n = snprintf(msg, sizeof(msg), "%s.%06ldZ [%s] %s:%d %s(): ", stamp, ts.tv_nsec / 1000,
		     level_names[level], file, line, func);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(msg)) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* Truncated messages still end with a newline; one write keeps lines whole across threads. */
	n = (int)strnlen(msg, sizeof(msg) - 2);
	msg[n++] = '\n';
	if (write(STDERR_FILENO, msg, (size_t)n) < 0) {
		/* Nothing sensible to do when stderr is gone. */
	}
}

doca_error_t opengda_log_set_level(int level)
{
	if (!ogda_log_set_level(level)) {
		OGDA_LOG_ERR("log level %d is outside the syslog range 0-7", level);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

int opengda_log_get_level(void)
{
	return ogda_log_level();
}
