/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An ordered record of what reached a device: the PRM command bytes of general / object
 * commands, and the arguments of the calls that carry no command bytes (PD, UMEM, UAR, MR,
 * destroys). The fake rdma-core records at the rdma-core level, the device-op recorder
 * (sw_record.h) at the device-op level, in the same vocabulary, so that two records can be
 * compared entry by entry.
 */
#ifndef OGDA_TESTS_DEVX_CMD_LOG_H_
#define OGDA_TESTS_DEVX_CMD_LOG_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum cmd_log_kind {
	CMD_GENERAL,     /* bytes: the in mailbox */
	CMD_CREATE,      /* bytes: the in mailbox */
	CMD_MODIFY,      /* bytes: the in mailbox */
	CMD_QUERY,       /* bytes: the in mailbox */
	CMD_DESTROY,     /* arg0: create opcode << 32 | object number */
	CMD_PD_ALLOC,
	CMD_PD_FREE,     /* arg0: pdn */
	CMD_UMEM_REG,    /* arg0: length, arg1: access */
	CMD_UMEM_DEREG,  /* arg0: umem id */
	CMD_UAR_ALLOC,   /* arg0: enum ogda_devx_uar_type */
	CMD_UAR_FREE,    /* arg0: page id */
	CMD_MR_REG,      /* arg0: length, arg1: access */
	CMD_MR_DEREG,    /* arg0: lkey */
	CMD_RESOLVE,     /* next-hop MAC: bytes = dgid, arg0 = sgid index, arg1 = port */
	CMD_RESULT,      /* results log: arg0 = doca_error_t, arg1 = a number, bytes = an out mailbox */
	CMD_RX_ROOT,     /* receive root: arg0 = flow table id, arg1 = 1 attached / 0 detached */
};

struct cmd_log_entry {
	enum cmd_log_kind kind;
	uint8_t *bytes;
	size_t len;
	uint64_t arg0;
	uint64_t arg1;
};

struct cmd_log {
	pthread_mutex_t lock;
	struct cmd_log_entry *e;
	size_t n;
	size_t cap;
};

void cmd_log_init(struct cmd_log *log);
void cmd_log_clear(struct cmd_log *log);    /* drops every entry, keeps the log usable */
void cmd_log_fini(struct cmd_log *log);

void cmd_log_add(struct cmd_log *log, enum cmd_log_kind kind, const void *bytes, size_t len, uint64_t arg0,
		 uint64_t arg1);

/* The opcode of a bytes entry (dw0 [31:16]); 0 for an entry without bytes. */
uint16_t cmd_log_opcode(const struct cmd_log_entry *e);

/* Number of entries of a kind (and, for bytes entries, opcode; 0 = any). */
size_t cmd_log_count(const struct cmd_log *log, enum cmd_log_kind kind, uint16_t opcode);

/*
 * Fails the running cmocka test unless both logs hold the same entries in the same order,
 * byte for byte; the message names the first differing entry and byte.
 */
void cmd_log_assert_equal(const struct cmd_log *a, const struct cmd_log *b);

/* The same, leaving out of both logs the entries whose kind has its bit (1u << kind) in skip. */
void cmd_log_assert_equal_skipping(const struct cmd_log *a, const struct cmd_log *b, uint32_t skip);

/*
 * The number of the object a create command made (prm_created_obj_id: the out mailbox's
 * number, a flow table entry's flow_index from the in mailbox). 0, or -1 for a command that
 * creates nothing the device bindings know.
 */
int cmd_log_created_id(const void *in, size_t inlen, const void *out, size_t outlen, uint32_t *id);

const char *cmd_log_kind_name(enum cmd_log_kind kind);

/* Prints every entry to stderr (kind, opcode, length, arguments): the diagnosis of a mismatch. */
void cmd_log_dump(const struct cmd_log *log, const char *title);

#endif /* OGDA_TESTS_DEVX_CMD_LOG_H_ */
