/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's PRM command executor (swnic_cmd*.c), driven as src/devx/sw.c drives
 * it: swnic_cmd_exec() on byte images of in and out mailboxes.
 *
 * Each input runs on a fresh instance (swnic_open / swnic_close), so that nothing one
 * input creates is seen by the next and LeakSanitizer can check that closing the NIC frees
 * every object the commands created. The random source (QPNs, key variants) is a counter
 * restarted for each input, so an input means the same thing on every run and the first QP
 * an input creates is SWNIC_QPN_MIN, the number the seeds name. The instance starts with what the devx layer would
 * have set up without commands: PD 0x10, UAR page 0x20 and one host arena registered as
 * umem 0x30 (FUZZ_ARENA_SIZE bytes), so that CREATE_CQ / QP / RMP images can succeed.
 *
 * Input: a sequence of commands, each
 *   u16 inlen, u16 outlen (big-endian), then inlen bytes of in mailbox
 * (a short last command takes what is left). Both mailboxes are heap blocks of exactly
 * their length, so a read or write past either is an AddressSanitizer report. fuzz/seeds.c
 * writes the seed corpus in this format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "prm/prm_cmd.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_random.h"

#define FUZZ_ARENA_SIZE (256u << 10)
#define FUZZ_MAX_OUT 0x2000u
#define FUZZ_MAX_COMMANDS 64u

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The random source: 0, 1, 2, ... one 32-bit draw after another, from 0 for every input. */
static uint32_t next_draw;

static void counting_source(void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t k;

	for (k = 0; k < len; k += sizeof(next_draw)) {
		size_t n = len - k < sizeof(next_draw) ? len - k : sizeof(next_draw);

		memcpy(p + k, &next_draw, n);
		next_draw++;
	}
}

/* Queue memory is host memory here; the CUDA driver is not asked. */
static enum ogda_mem_kind host_only(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return OGDA_MEM_HOST;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* One instance, no CUDA; a failed command logs an error, which would drown the fuzzer. */
	setenv("OPENGDA_SWNIC_COUNT", "1", 1);
	setenv("OPENGDA_DISABLE_CUDA", "1", 1);
	fuzz_quiet_logs();
	swnic_mem_set_kind_probe(host_only);
	swnic_random_set_source(counting_source);
	return 0;
}

/* The executor's contract (swnic_ctl.h): the return value is the status it wrote. */
static void run_command(struct swnic *nic, struct fuzz_cursor *c)
{
	uint16_t inlen = fuzz_be16(c);
	uint16_t outlen = (uint16_t)(fuzz_be16(c) % (FUZZ_MAX_OUT + 1u));
	size_t got;
	uint8_t *in = fuzz_take(c, inlen, &got);
	uint8_t *out = malloc(outlen > 0 ? outlen : 1);
	uint32_t syndrome = 0;
	uint8_t status = 0;
	doca_error_t err;

	FUZZ_CHECK(out != NULL);
	memset(out, 0xa5, outlen);
	err = swnic_cmd_exec(nic, in, got, out, outlen);
	if (outlen < PRM_CMD_HDR_SIZE / 2u) {
		FUZZ_CHECK(err == DOCA_ERROR_INVALID_VALUE);
	} else {
		FUZZ_CHECK(prm_cmd_out_status(out, outlen, &status, &syndrome) == err);
		FUZZ_CHECK(prm_cmd_status_to_doca(status) == err);
		FUZZ_CHECK((status == PRM_STATUS_OK) == (syndrome == 0));
	}
	free(in);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cursor c = {data, size};
	struct swnic *nic = NULL;
	uint32_t pdn, uar, umem, n;
	uint8_t *uar_page, *arena;

	next_draw = 0;
	FUZZ_CHECK(swnic_open(0, &nic) == DOCA_SUCCESS);
	FUZZ_CHECK(swnic_pd_alloc(nic, &pdn) == DOCA_SUCCESS);
	FUZZ_CHECK(swnic_uar_alloc(nic, OGDA_DEVX_UAR_BF, &uar, &uar_page) == DOCA_SUCCESS);
	arena = aligned_alloc(4096, FUZZ_ARENA_SIZE);
	FUZZ_CHECK(arena != NULL);
	memset(arena, 0, FUZZ_ARENA_SIZE);
	FUZZ_CHECK(swnic_umem_register(nic, arena, FUZZ_ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, &umem) == DOCA_SUCCESS);
	/* The seeds name these numbers; the tables hand them out from their bases. */
	FUZZ_CHECK(pdn == SWNIC_PD_BASE && uar == SWNIC_UAR_BASE && umem == SWNIC_UMEM_BASE);

	for (n = 0; n < FUZZ_MAX_COMMANDS && c.left >= 4; n++)
		run_command(nic, &c);

	/* Closing the only reference destroys every QP, CQ, RMP, MR, PD, UAR and umem. */
	swnic_close(nic);
	free(arena);
	return 0;
}
