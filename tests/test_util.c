/* SPDX-License-Identifier: BSD-3-Clause */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int saved_stderr = -1;
static FILE *capture_file;

void stderr_capture_begin(void)
{
	fflush(stderr);
	capture_file = tmpfile();
	if (capture_file == NULL)
		abort();
	saved_stderr = dup(STDERR_FILENO);
	if (saved_stderr < 0 || dup2(fileno(capture_file), STDERR_FILENO) < 0)
		abort();
}

const char *stderr_capture_end(char *buf, size_t cap)
{
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	saved_stderr = -1;
	rewind(capture_file);
	n = fread(buf, 1, cap - 1, capture_file);
	buf[n] = '\0';
	fclose(capture_file);
	capture_file = NULL;
	return buf;
}

int test_log_one_err(const char *log, const char *needle)
{
	const char *nl = strchr(log, '\n');

	return nl != NULL && nl[1] == '\0' && strstr(log, "[ERR]") != NULL && strstr(log, needle) != NULL;
}
