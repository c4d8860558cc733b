// SPDX-License-Identifier: GPL-2.0
/*
 * The definitions of rmp's tracepoints (rmp_trace.h).
 */
#define CREATE_TRACE_POINTS
#include "rmp_trace.h"
