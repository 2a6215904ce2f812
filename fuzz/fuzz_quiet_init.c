/* SPDX-License-Identifier: BSD-3-Clause */
/* The libFuzzer start-up of the targets that need nothing but quiet library logs. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet_logs();
	return 0;
}
