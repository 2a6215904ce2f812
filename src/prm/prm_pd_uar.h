/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ALLOC_PD / DEALLOC_PD and ALLOC_UAR / DEALLOC_UAR: 16-byte mailboxes that carry one
 * 24-bit object number (pd or uar, dw2 [23:0]).
 */
#ifndef OGDA_PRM_PD_UAR_H_
#define OGDA_PRM_PD_UAR_H_

#include "doca_error.h"
#include "prm/prm_layout.h"

#include <stddef.h>
#include <stdint.h>

#define PRM_PD_UAR_CMD_SIZE 0x10u

extern const struct prm_layout prm_alloc_pd_in_layout;
extern const struct prm_layout prm_alloc_pd_out_layout;
extern const struct prm_layout prm_dealloc_pd_in_layout;
extern const struct prm_layout prm_dealloc_pd_out_layout;
extern const struct prm_layout prm_alloc_td_in_layout;
extern const struct prm_layout prm_alloc_td_out_layout;
extern const struct prm_layout prm_dealloc_td_in_layout;
extern const struct prm_layout prm_dealloc_td_out_layout;
extern const struct prm_layout prm_alloc_uar_in_layout;
extern const struct prm_layout prm_alloc_uar_out_layout;
extern const struct prm_layout prm_dealloc_uar_in_layout;
extern const struct prm_layout prm_dealloc_uar_out_layout;

/* Ins: the builder writes opcode and uid; the parser checks the opcode. */
doca_error_t prm_alloc_pd_in_build(uint16_t uid, void *in, size_t len);
doca_error_t prm_alloc_pd_in_parse(const void *in, size_t len, uint16_t *uid);
doca_error_t prm_dealloc_pd_in_build(uint16_t uid, uint32_t pdn, void *in, size_t len);
doca_error_t prm_dealloc_pd_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *pdn);
doca_error_t prm_alloc_uar_in_build(uint16_t uid, void *in, size_t len);
doca_error_t prm_alloc_uar_in_parse(const void *in, size_t len, uint16_t *uid);
doca_error_t prm_dealloc_uar_in_build(uint16_t uid, uint32_t uar, void *in, size_t len);
doca_error_t prm_dealloc_uar_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *uar);

/* Outs: builders write status OK; parsers check the status first (prm_cmd_out_check). */
doca_error_t prm_alloc_pd_out_build(uint32_t pdn, void *out, size_t len);
doca_error_t prm_alloc_pd_out_parse(const void *out, size_t len, uint32_t *pdn);
doca_error_t prm_dealloc_pd_out_build(void *out, size_t len);
doca_error_t prm_dealloc_pd_out_parse(const void *out, size_t len);

/* ALLOC_TRANSPORT_DOMAIN / DEALLOC_TRANSPORT_DOMAIN: the domain a TIS belongs to (Ethernet). */
doca_error_t prm_alloc_td_in_build(uint16_t uid, void *in, size_t len);
doca_error_t prm_alloc_td_in_parse(const void *in, size_t len, uint16_t *uid);
doca_error_t prm_alloc_td_out_build(uint32_t td, void *out, size_t len);
doca_error_t prm_alloc_td_out_parse(const void *out, size_t len, uint32_t *td);
doca_error_t prm_dealloc_td_in_build(uint16_t uid, uint32_t td, void *in, size_t len);
doca_error_t prm_dealloc_td_in_parse(const void *in, size_t len, uint16_t *uid, uint32_t *td);
doca_error_t prm_alloc_uar_out_build(uint32_t uar, void *out, size_t len);
doca_error_t prm_alloc_uar_out_parse(const void *out, size_t len, uint32_t *uar);
doca_error_t prm_dealloc_uar_out_build(void *out, size_t len);
doca_error_t prm_dealloc_uar_out_parse(const void *out, size_t len);

#endif /* OGDA_PRM_PD_UAR_H_ */
