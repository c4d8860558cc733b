// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: congestion control with standard peers
 *
 * rmp takes both roles of RoCEv2 congestion control (DCQCN), so it works
 * with any RoCEv2 peer that does:
 *
 * - Its connected QPs' packets leave ECN-capable (ECT(0)) when the
 *   device's ``ecn`` knob is on at RTR, unless the QP's traffic class
 *   already sets the ECN field: a switch whose queue builds up marks them
 *   Congestion Experienced (CE) instead of dropping them.
 * - Notification point: a CE-marked packet carrying payload makes the QP
 *   send its peer QP a CNP (BTH opcode 0x81, BECN set, 16 reserved bytes),
 *   at most one per ``cnp_interval``, with DSCP ``cnp_dscp``. A standard
 *   peer slows down; so does rmp. A QP granting receiver credit sends
 *   none: its scheduler takes the marks into account.
 * - Reaction point: with ``cc`` at ``dcqcn`` (or at ``rcc``, until the
 *   peer agrees to receiver credit) when the QP reaches RTS, its
 *   requester paces its packets at a rate that each CNP cuts and that
 *   climbs back over time (engine/dcqcn.h), from the port's rate
 *   (rmp_dev_link_mbps()); the ``dcqcn_*`` knobs are its parameters.
 *
 * Everything here runs in the QP's transport runs (rmp_qp.c), like the
 * rest of the transport.
 */
#include <linux/slab.h>
#include <net/inet_ecn.h>

#include "rmp_cc.h"
#include "rmp_dev.h"
#include "rmp_pkt.h"
#include "rmp_qp.h"

static struct rmp_dev *rmp_qp_dev(const struct rmp_qp *qp)
{
	return to_rmp_dev(qp->ibqp.device);
}

/* A knob in us, in ns. */
static u64 rmp_cc_ns(const struct rmp_dev *dev, enum rmp_knob_id id)
{
	return (u64)rmp_knob_get(dev, id) * NSEC_PER_USEC;
}

/**
 * rmp_cc_mark_flow() - make a QP's packets ECN-capable, if the device says
 * @qp: a connected QP whose &rmp_qp.flow was just set, at RTR
 */
void rmp_cc_mark_flow(struct rmp_qp *qp)
{
	u8 *tclass = &qp->flow.tclass;

	memset(&qp->cc.gate, 0, sizeof(qp->cc.gate));
	if (rmp_knob_get(rmp_qp_dev(qp), RMP_KNOB_ECN) &&
	    !(*tclass & INET_ECN_MASK))
		*tclass |= INET_ECN_ECT_0;
}

/* Tell the peer QP that its packets met congestion. */
static void rmp_cc_send_cnp(struct rmp_qp *qp)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct rmp_hdr_fields f = {};

	f.bth.opcode = RMP_OP_CNP;
	f.bth.becn = true;
	f.bth.qpn = qp->responder.dqpn;
	rmp_pkt_send_control(dev, &qp->flow,
			     rmp_knob_get(dev, RMP_KNOB_CNP_DSCP), qp->sport,
			     &f, RMP_CNT_TX_CNPS);
}

/**
 * rmp_cc_congested() - a packet from the peer arrived marked CE
 * @qp: the connected QP it is for, its responder started
 * @payload: it carries payload (data a sender can slow down)
 */
void rmp_cc_congested(struct rmp_qp *qp, bool payload)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	u64 interval = rmp_cc_ns(dev, RMP_KNOB_CNP_INTERVAL);

	rmp_stats_inc(&dev->stats, RMP_CNT_RX_ECN_MARKED);
	/* Receiver credit answers the marks itself, with fewer grants. */
	if (payload && !READ_ONCE(qp->rcc.rx_on) &&
	    rmp_cnp_gate_pass(&qp->cc.gate, interval, ktime_get_ns()))
		rmp_cc_send_cnp(qp);
}

/**
 * rmp_cc_cnp() - a CNP from the peer arrived
 * @qp: the connected QP it names
 */
void rmp_cc_cnp(struct rmp_qp *qp)
{
	rmp_stats_inc(&rmp_qp_dev(qp)->stats, RMP_CNT_RX_CNPS);
	if (qp->cc.dcqcn)
		rmp_dcqcn_cnp(qp->cc.dcqcn, ktime_get_ns());
}

/**
 * rmp_cc_start() - pace the requester as ``cc`` says (rmp_qp_knob())
 * @qp: the QP, its requester just started (rmp_req_init()); process
 *	context
 *
 * Return: 0, or -ENOMEM.
 */
int rmp_cc_start(struct rmp_qp *qp)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct rmp_dcqcn_cfg cfg;
	u64 line;
	u32 val;

	/* With rcc, DCQCN until the peer agrees to receiver credit. */
	if (!rmp_qp_connected(qp) ||
	    rmp_qp_knob(qp, RMP_KNOB_CC) == RMP_CC_NONE)
		return 0;
	if (!qp->cc.dcqcn) {
		qp->cc.dcqcn = kzalloc(sizeof(*qp->cc.dcqcn), GFP_KERNEL);
		if (!qp->cc.dcqcn)
			return -ENOMEM;
	}
	line = (u64)rmp_dev_link_mbps(dev) * 1000;
	rmp_dcqcn_cfg_default(&cfg, line);
	cfg.min_kbps = min_t(u64, line,
			     rmp_knob_get(dev, RMP_KNOB_DCQCN_MIN_RATE));
	cfg.g_shift = rmp_knob_get(dev, RMP_KNOB_DCQCN_G_SHIFT);
	/* 0: the engine's choice for the line rate. */
	cfg.alpha_period_ns = rmp_cc_ns(dev, RMP_KNOB_DCQCN_ALPHA_PERIOD) ?:
			      cfg.alpha_period_ns;
	cfg.rate_period_ns = rmp_cc_ns(dev, RMP_KNOB_DCQCN_RATE_PERIOD) ?:
			     cfg.rate_period_ns;
	cfg.fast_stages = rmp_knob_get(dev, RMP_KNOB_DCQCN_FAST_STAGES);
	val = rmp_knob_get(dev, RMP_KNOB_DCQCN_BYTE_THRESHOLD);
	if (val)
		cfg.byte_threshold = (u64)val * 1024;
	val = rmp_knob_get(dev, RMP_KNOB_DCQCN_AI_RATE);
	if (val)
		cfg.ai_kbps = min_t(u64, line, val);
	val = rmp_knob_get(dev, RMP_KNOB_DCQCN_HAI_RATE);
	cfg.hai_kbps = clamp_t(u64, val ?: cfg.hai_kbps, cfg.ai_kbps, line);
	/* The knobs' ranges make every setting one the engine takes. */
	if (WARN_ON_ONCE(rmp_dcqcn_cfg_check(&cfg)))
		return 0;
	rmp_dcqcn_init(qp->cc.dcqcn, &cfg, ktime_get_ns());
	memset(&qp->cc.seen, 0, sizeof(qp->cc.seen));
	rmp_req_pace(&qp->requester.req, qp->cc.dcqcn);
	return 0;
}

/**
 * rmp_cc_count() - add what the rate did since last time to the counters
 * @qp: the QP
 */
void rmp_cc_count(struct rmp_qp *qp)
{
	const struct rmp_dcqcn *d = qp->cc.dcqcn;
	struct rmp_dcqcn_stats *seen = &qp->cc.seen;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;

	if (!d || !qp->requester.req.pacer)
		return;
	rmp_stats_add(st, RMP_CNT_CC_RATE_CUTS, d->stats.cuts - seen->cuts);
	rmp_stats_add(st, RMP_CNT_CC_RATE_RAISES,
		      d->stats.increases - seen->increases);
	*seen = d->stats;
}

/**
 * rmp_cc_free() - free a QP's congestion control state
 * @qp: the QP, its work item stopped
 */
void rmp_cc_free(struct rmp_qp *qp)
{
	kfree(qp->cc.dcqcn);
	qp->cc.dcqcn = NULL;
}
