/* SPDX-License-Identifier: BSD-3-Clause */
/* Expected images shared by the flow steering golden tests. */
#ifndef OGDA_TESTS_PRM_FLOW_EXPECT_H_
#define OGDA_TESTS_PRM_FLOW_EXPECT_H_

#include "prm/prm_flow_match.h"

#include <stddef.h>
#include <stdint.h>

/* Distinct non-zero values in every field of an L2-L4 header set. */
void prm_test_fill_match(struct prm_match_lyr_2_4 *m);
/* The bytes of prm_test_fill_match()'s set, written into exp at base (other bytes untouched). */
void prm_test_expect_match(uint8_t *exp, size_t base);

#endif /* OGDA_TESTS_PRM_FLOW_EXPECT_H_ */
