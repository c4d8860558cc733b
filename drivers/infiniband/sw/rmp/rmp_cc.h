/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp congestion control towards any RoCEv2 peer: ECN-capable marking,
 * CNPs for congestion seen, and a DCQCN-style rate for congestion the peer
 * reports (engine/dcqcn.h holds the decisions).
 */
#ifndef RMP_CC_H
#define RMP_CC_H

#include "engine/dcqcn.h"

struct rmp_qp;

/**
 * struct rmp_cc - a connected QP's congestion control state; its
 * transport runs' only
 * @gate: limits the CNPs sent to the peer
 * @dcqcn: the requester's rate, with ``cc`` at ``dcqcn`` when it started;
 *	else NULL
 * @seen: @dcqcn's counters already added to the device's
 */
struct rmp_cc {
	struct rmp_cnp_gate gate;
	struct rmp_dcqcn *dcqcn;
	struct rmp_dcqcn_stats seen;
};

void rmp_cc_mark_flow(struct rmp_qp *qp);
void rmp_cc_congested(struct rmp_qp *qp, bool payload);
void rmp_cc_cnp(struct rmp_qp *qp);
int rmp_cc_start(struct rmp_qp *qp);
void rmp_cc_count(struct rmp_qp *qp);
void rmp_cc_free(struct rmp_qp *qp);

#endif /* RMP_CC_H */
