/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Library logging: syslog levels, stderr, one line per message with time, level,
 * file:line and function. The level comes from DOCA_GPUNETIO_LOG (0-7); the default
 * is OGDA_LOG_LEVEL_DEFAULT (errors), because silent failures are the worst kind in
 * GPU-initiated networking.
 */
#ifndef OGDA_CORE_LOG_H_
#define OGDA_CORE_LOG_H_

#include <stdbool.h>

/* syslog(3) severities. */
enum ogda_log_level {
	OGDA_LOG_EMERG = 0,
	OGDA_LOG_ALERT = 1,
	OGDA_LOG_CRIT = 2,
	OGDA_LOG_ERR = 3,
	OGDA_LOG_WARNING = 4,
	OGDA_LOG_NOTICE = 5,
	OGDA_LOG_INFO = 6,
	OGDA_LOG_DEBUG = 7,
};

#define OGDA_LOG_LEVEL_DEFAULT OGDA_LOG_ERR
#define OGDA_LOG_ENV "DOCA_GPUNETIO_LOG"

/* Current threshold: messages with level <= threshold are printed. */
int ogda_log_level(void);
/* Sets the threshold; returns false (and changes nothing) outside 0..7. */
bool ogda_log_set_level(int level);
/* Re-reads DOCA_GPUNETIO_LOG; an unparsable value warns and keeps the default. */
void ogda_log_reload_env(void);

void ogda_log_write(int level, const char *file, int line, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define OGDA_LOG(level, ...)                                                                       \
	do {                                                                                       \
		if ((level) <= ogda_log_level())                                                   \
			ogda_log_write((level), __FILE__, __LINE__, __func__, __VA_ARGS__);        \
	} while (0)

#define OGDA_LOG_ERR(...) OGDA_LOG(OGDA_LOG_ERR, __VA_ARGS__)
#define OGDA_LOG_WARN(...) OGDA_LOG(OGDA_LOG_WARNING, __VA_ARGS__)
#define OGDA_LOG_NOTICE(...) OGDA_LOG(OGDA_LOG_NOTICE, __VA_ARGS__)
#define OGDA_LOG_INFO(...) OGDA_LOG(OGDA_LOG_INFO, __VA_ARGS__)
#define OGDA_LOG_DBG(...) OGDA_LOG(OGDA_LOG_DEBUG, __VA_ARGS__)

#endif /* OGDA_CORE_LOG_H_ */
