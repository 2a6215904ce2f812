/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PRM command opcodes, the common command header, and the out-mailbox status.
 *
 * Every *_in starts with opcode (dw0 [31:16]), uid (dw0 [15:0]) and op_mod (dw1 [15:0]);
 * every *_out starts with status (dw0 [31:24]) and syndrome (dw1). Layout tables for each
 * command live in the per-family files (prm_qp.c, prm_cq.c, ...).
 */
#ifndef OGDA_PRM_CMD_H_
#define OGDA_PRM_CMD_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

enum prm_cmd_opcode {
	PRM_CMD_QUERY_HCA_CAP = 0x100,
	PRM_CMD_QUERY_ADAPTER = 0x101,
	PRM_CMD_CREATE_MKEY = 0x200,
	PRM_CMD_CREATE_CQ = 0x400,
	PRM_CMD_DESTROY_CQ = 0x401,
	PRM_CMD_QUERY_CQ = 0x402,
	PRM_CMD_MODIFY_CQ = 0x403,
	PRM_CMD_CREATE_QP = 0x500,
	PRM_CMD_DESTROY_QP = 0x501,
	PRM_CMD_RST2INIT_QP = 0x502,
	PRM_CMD_INIT2RTR_QP = 0x503,
	PRM_CMD_RTR2RTS_QP = 0x504,
	PRM_CMD_RTS2RTS_QP = 0x505,
	PRM_CMD_SQERR2RTS_QP = 0x506,
	PRM_CMD_2ERR_QP = 0x507,
	PRM_CMD_2RST_QP = 0x50a,
	PRM_CMD_QUERY_QP = 0x50b,
	PRM_CMD_SQD_RTS_QP = 0x50c,
	PRM_CMD_INIT2INIT_QP = 0x50e,
	PRM_CMD_CREATE_SRQ = 0x700,
	PRM_CMD_DESTROY_SRQ = 0x701,
	PRM_CMD_QUERY_SRQ = 0x702,
	PRM_CMD_CREATE_DCT = 0x710,
	PRM_CMD_CREATE_TIR = 0x900,
	PRM_CMD_DESTROY_TIR = 0x902,
	PRM_CMD_CREATE_SQ = 0x904,
	PRM_CMD_MODIFY_SQ = 0x905,
	PRM_CMD_DESTROY_SQ = 0x906,
	PRM_CMD_CREATE_RQ = 0x908,
	PRM_CMD_MODIFY_RQ = 0x909,
	PRM_CMD_DESTROY_RQ = 0x90a,
	PRM_CMD_QUERY_RQ = 0x90b,
	PRM_CMD_CREATE_RMP = 0x90c,
	PRM_CMD_MODIFY_RMP = 0x90d,
	PRM_CMD_DESTROY_RMP = 0x90e,
	PRM_CMD_QUERY_RMP = 0x90f,
	PRM_CMD_CREATE_TIS = 0x912,
	PRM_CMD_DESTROY_TIS = 0x914,
	PRM_CMD_CREATE_RQT = 0x916,
	PRM_CMD_DESTROY_RQT = 0x918,
	PRM_CMD_SET_FLOW_TABLE_ROOT = 0x92f,
	PRM_CMD_CREATE_FLOW_TABLE = 0x930,
	PRM_CMD_DESTROY_FLOW_TABLE = 0x931,
	PRM_CMD_CREATE_FLOW_GROUP = 0x933,
	PRM_CMD_DESTROY_FLOW_GROUP = 0x934,
	PRM_CMD_SET_FLOW_TABLE_ENTRY = 0x936,
	PRM_CMD_QUERY_FLOW_TABLE_ENTRY = 0x937,
	PRM_CMD_DELETE_FLOW_TABLE_ENTRY = 0x938,
	PRM_CMD_ALLOC_FLOW_COUNTER = 0x939,
	PRM_CMD_DEALLOC_FLOW_COUNTER = 0x93a,
	PRM_CMD_QUERY_FLOW_COUNTER = 0x93b,
	PRM_CMD_QUERY_NIC_VPORT_CONTEXT = 0x754,
	PRM_CMD_QUERY_ROCE_ADDRESS = 0x760,
	PRM_CMD_QUERY_HCA_VPORT_GID = 0x764,
	PRM_CMD_ALLOC_PD = 0x800,
	PRM_CMD_DEALLOC_PD = 0x801,
	PRM_CMD_ALLOC_UAR = 0x802,
	PRM_CMD_DEALLOC_UAR = 0x803,
	PRM_CMD_ALLOC_TRANSPORT_DOMAIN = 0x816,
	PRM_CMD_DEALLOC_TRANSPORT_DOMAIN = 0x817,
};

/* Out-mailbox status values (dw0 [31:24] of every *_out). */
enum prm_cmd_status {
	PRM_STATUS_OK = 0x00,
	PRM_STATUS_INTERNAL_ERR = 0x01,
	PRM_STATUS_BAD_OP = 0x02,
	PRM_STATUS_BAD_PARAM = 0x03,
	PRM_STATUS_BAD_SYS_STATE = 0x04,
	PRM_STATUS_BAD_RESOURCE = 0x05,
	PRM_STATUS_RESOURCE_BUSY = 0x06,
	PRM_STATUS_EXCEED_LIM = 0x08,
	PRM_STATUS_BAD_RES_STATE = 0x09,
	PRM_STATUS_BAD_INDEX = 0x0a,
	PRM_STATUS_NO_RESOURCES = 0x0f,
	PRM_STATUS_BAD_INPUT_LEN = 0x50,
	PRM_STATUS_BAD_OUTPUT_LEN = 0x51,
	PRM_STATUS_BAD_QP_STATE = 0x10,
	PRM_STATUS_BAD_PKT = 0x30,
	PRM_STATUS_BAD_SIZE = 0x40,
};

/*
 * Common header fields, for the field tables of every command: each *_in layout starts
 * with PRM_CMD_IN_HDR_FIELDS and each *_out layout with PRM_CMD_OUT_HDR_FIELDS.
 */
#define PRM_CMD_IN_HDR_FIELDS                                                                      \
	PRM_BITS("opcode", 0, 31, 16), PRM_BITS("uid", 0, 15, 0), PRM_BITS("op_mod", 1, 15, 0)
#define PRM_CMD_OUT_HDR_FIELDS PRM_BITS("status", 0, 31, 24), PRM_DW("syndrome", 1)

/* The smallest *_in / *_out: the two header words plus dw2..dw3 (an object number or reserved). */
#define PRM_CMD_HDR_SIZE 16u

/* The first 8 bytes of every *_in: opcode, uid, op_mod. */
extern const struct prm_layout prm_cmd_hdr_layout;
/* The first 8 bytes of every *_out: status, syndrome. */
extern const struct prm_layout prm_cmd_out_hdr_layout;

/*
 * Reads the header of an input mailbox (what a command dispatcher looks at first). Any of
 * opcode, op_mod, uid may be NULL. DOCA_ERROR_INVALID_VALUE for a NULL or short buffer.
 */
doca_error_t prm_cmd_in_peek(const void *in, size_t len, uint16_t *opcode, uint16_t *op_mod, uint16_t *uid);

/*
 * Checks that an input mailbox is at least layout->size bytes and carries the expected
 * opcode (used by every *_in parser). DOCA_ERROR_INVALID_VALUE otherwise, logged.
 */
doca_error_t prm_cmd_in_expect(const void *in, size_t len, const struct prm_layout *layout, uint16_t opcode);

/*
 * Reads status and syndrome of an output mailbox (either pointer may be NULL) and maps
 * the status to a doca_error_t:
 *
 *   OK                                              -> DOCA_SUCCESS
 *   INTERNAL_ERR                                    -> DOCA_ERROR_DRIVER
 *   BAD_OP                                          -> DOCA_ERROR_NOT_SUPPORTED
 *   BAD_PARAM, BAD_INPUT_LEN, BAD_OUTPUT_LEN,
 *   BAD_PKT, BAD_SIZE                               -> DOCA_ERROR_INVALID_VALUE
 *   BAD_SYS_STATE, BAD_RES_STATE, BAD_QP_STATE      -> DOCA_ERROR_BAD_STATE
 *   BAD_RESOURCE, BAD_INDEX                         -> DOCA_ERROR_NOT_FOUND
 *   RESOURCE_BUSY                                   -> DOCA_ERROR_IN_USE
 *   EXCEED_LIM                                      -> DOCA_ERROR_FULL
 *   NO_RESOURCES                                    -> DOCA_ERROR_NO_MEMORY
 *   any other value                                 -> DOCA_ERROR_UNKNOWN
 *
 * A failed command is not logged here (see prm_cmd_out_check). A NULL or short buffer
 * returns DOCA_ERROR_INVALID_VALUE (logged) and leaves *status and *syndrome untouched.
 */
doca_error_t prm_cmd_out_status(const void *out, size_t len, uint8_t *status, uint32_t *syndrome);

/* The mapping above on its own. */
doca_error_t prm_cmd_status_to_doca(uint8_t status);

/*
 * For *_out parsers: checks that out holds at least min_len bytes and that the command
 * succeeded; a failure is logged as "CREATE_CQ failed: BAD_PARAM (syndrome 0x...)" and
 * returned mapped as in prm_cmd_out_status.
 */
doca_error_t prm_cmd_out_check(const void *out, size_t len, size_t min_len, uint16_t opcode);

/*
 * Writes status and syndrome into the first 8 bytes of an output mailbox (the reserved
 * bits of dw0 are cleared; the payload after byte 8 is left alone).
 */
doca_error_t prm_cmd_out_set_status(void *out, size_t len, uint8_t status, uint32_t syndrome);

/*
 * Builder and parser of an output mailbox that carries nothing but the header (the
 * DESTROY / DEALLOC family): build zeroes PRM_CMD_HDR_SIZE bytes (status OK); parse is
 * prm_cmd_out_check with that size.
 */
doca_error_t prm_cmd_empty_out_build(void *out, size_t len);
doca_error_t prm_cmd_empty_out_parse(const void *out, size_t len, uint16_t opcode);

/*
 * Builders and parsers of the small mailboxes that name one object (DESTROY_CQ in,
 * CREATE_CQ out, ALLOC_PD out, ...): obj_field is the layout's field holding the number
 * (NULL for an in with nothing but the header, such as ALLOC_PD). In builders write
 * opcode and uid; in parsers check the opcode; out parsers check the status first.
 */
doca_error_t prm_cmd_obj_in_build(const struct prm_layout *layout, uint16_t opcode, void *in, size_t len,
				  uint16_t uid, const char *obj_field, uint32_t obj);
doca_error_t prm_cmd_obj_in_parse(const struct prm_layout *layout, uint16_t opcode, const void *in, size_t len,
				  uint16_t *uid, const char *obj_field, uint32_t *obj);
doca_error_t prm_cmd_obj_out_build(const struct prm_layout *layout, void *out, size_t len, const char *obj_field,
				   uint32_t obj);
doca_error_t prm_cmd_obj_out_parse(const struct prm_layout *layout, uint16_t opcode, const void *out, size_t len,
				   const char *obj_field, uint32_t *obj);

/*
 * Binds a field path of a layout to an unsigned member (1, 2, 4 or 8 bytes) of a
 * parameters struct, so that one table drives both a builder and its parser.
 */
struct prm_param_map {
	const char *path;
	size_t offset;
	size_t size;
};

#define PRM_MAP(type, member, fpath) {(fpath), offsetof(type, member), sizeof(((type *)0)->member)}
#define PRM_MAP_COUNT(map) (sizeof(map) / sizeof((map)[0]))

/* prm_w() of every mapped member; a value too wide for its field is the writer's error. */
void prm_w_map(struct prm_writer *w, const struct prm_param_map *map, size_t n, const void *params);
/* prm_r() into every mapped member; a field value that does not fit its member is an error. */
void prm_r_map(struct prm_reader *r, const struct prm_param_map *map, size_t n, void *params);

/*
 * Builders and parsers driven by a parameter map. In builders write the opcode and then
 * every mapped member; in parsers check the opcode; out builders leave status OK; out
 * parsers check the status first. Parsers fill params (which the caller copies out only
 * on success, so that its own struct is untouched on failure).
 */
doca_error_t prm_cmd_mapped_in_build(const struct prm_layout *layout, uint16_t opcode,
				     const struct prm_param_map *map, size_t n, void *in, size_t len,
				     const void *params);
doca_error_t prm_cmd_mapped_in_parse(const struct prm_layout *layout, uint16_t opcode,
				     const struct prm_param_map *map, size_t n, const void *in, size_t len,
				     void *params);
doca_error_t prm_cmd_mapped_out_build(const struct prm_layout *layout, const struct prm_param_map *map, size_t n,
				      void *out, size_t len, const void *params);
doca_error_t prm_cmd_mapped_out_parse(const struct prm_layout *layout, uint16_t opcode,
				      const struct prm_param_map *map, size_t n, const void *out, size_t len,
				      void *params);

/* "BAD_PARAM", ...; "UNKNOWN_STATUS" for a value not in enum prm_cmd_status. */
const char *prm_cmd_status_name(uint8_t status);
/* "CREATE_CQ", ...; "UNKNOWN_OPCODE" for a value not in enum prm_cmd_opcode. */
const char *prm_cmd_opcode_name(uint16_t opcode);

#endif /* OGDA_PRM_CMD_H_ */
