// SPDX-License-Identifier: BSD-3-Clause
// The same program as open_put_bw.c, compiled as C++17: the open-release calls it makes resolve
// to OpenGDA's C++ overloads instead of the C11 dispatch macros.
#include "open_put_bw.c"
