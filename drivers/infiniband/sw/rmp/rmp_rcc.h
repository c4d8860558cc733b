/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp receiver credit (cc=rcc) in the module: each device's scheduler,
 * granting its senders from a timer, and both sides of each agreeing QP.
 * The decisions are the engine's (engine/credit.h).
 */
#ifndef RMP_RCC_H
#define RMP_RCC_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>

#include "engine/credit.h"

struct rmp_dev;
struct rmp_qp;
struct rmp_hdr_fields;
struct rmp_flow;

/**
 * struct rmp_rcc_dev - a device's credit scheduler, for its downlink
 * @lock: guards everything here and the QPs' &rmp_rcc_qp.peer and
 *	&rmp_rcc_qp.rx_on
 * @rx: the scheduler
 * @timer: grants the credit due, in softirq
 * @timer_at: when @timer was last set for (ns)
 * @seen: @rx's counters already added to the device's
 */
struct rmp_rcc_dev {
	spinlock_t lock; /* see above */
	struct rmp_credit_rx rx;
	struct hrtimer timer;
	u64 timer_at;
	struct rmp_credit_rx_stats seen;
};

/**
 * struct rmp_rcc_qp - receiver credit of an RC QP whose peer agreed to it
 * @peer: as the receiver: the peer as a sender, in the device's scheduler
 * @tx: as the sender: the credit the peer grants (the transport runs')
 * @rx_on: @peer is in use
 * @gone: the QP is being destroyed: it never joins the scheduler again
 * @tx_on: the requester sends on @tx
 * @tx_asking: @tx is on while the QP asks its peer whether it agrees:
 *	the requester keeps to its unscheduled budget, and asks for no credit
 * @seen_stalls: @tx's stalls already added to the device's counters
 */
struct rmp_rcc_qp {
	struct rmp_credit_peer peer;
	struct rmp_credit_tx tx;
	bool rx_on;
	bool gone;
	bool tx_on;
	bool tx_asking;
	u64 seen_stalls;
};

void rmp_rcc_dev_init(struct rmp_dev *dev);
void rmp_rcc_dev_exit(struct rmp_dev *dev);
void rmp_rcc_asking(struct rmp_qp *qp);
void rmp_rcc_start(struct rmp_qp *qp);
void rmp_rcc_stop(struct rmp_qp *qp, bool gone);
void rmp_rcc_data(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
		  bool ce);
void rmp_rcc_request(struct rmp_qp *qp, u32 want);
void rmp_rcc_grant(struct rmp_qp *qp, u32 limit);
bool rmp_rcc_ask(struct rmp_qp *qp);
bool rmp_rcc_ahead_flow(struct rmp_qp *qp, struct rmp_flow *fl);

#endif /* RMP_RCC_H */
