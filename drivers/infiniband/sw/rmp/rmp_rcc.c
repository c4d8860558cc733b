// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: receiver credit in the module
 *
 * Two RC QPs whose devices both have ``cc`` at ``rcc`` agree on receiver
 * credit (%RMP_EXT_CAP_CREDIT) when they agree on the extensions; the
 * work item of each then starts both sides (rmp_rcc_start()):
 *
 * - As the sender, the requester sends new SEND and WRITE data only on
 *   credit (rmp_req_credit()): a burst's unscheduled budget
 *   (``rcc_unsched``), then what the peer granted. Held back, it asks
 *   with a credit request (opcode 0xC2), again each ``rcc_ask_period``
 *   while still held back.
 * - As the receiver, the QP is one sender of its device's scheduler
 *   (struct rmp_rcc_dev), which grants credit at the port's rate
 *   (``link_rate``), less what ECN marks on arriving data take, to at
 *   most ``rcc_overcommit`` senders at once, each holding at most
 *   ``rcc_window`` unused, in the order ``rcc_policy`` says. Arriving
 *   data, and the scheduler's timer when none arrives, send the grants
 *   (opcode 0xC1) at once, with DSCP ``grant_dscp``: no data queued in
 *   rmp is ever ahead of them.
 *
 * Concurrency: the scheduler and every QP's record in it are under the
 * device's &rmp_rcc_dev.lock, taken by the QPs' transport runs (data and
 * requests arriving), the timer, and the QP's start and stop. Grants are
 * sent with the lock released, holding a reference on each QP granted; a
 * QP leaves the scheduler before destroy_qp waits for its references
 * (rmp_rcc_stop()).
 * The sender's side is its transport runs' alone.
 */
#include <linux/ktime.h>
#include <net/inet_ecn.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_pkt.h"
#include "rmp_qp.h"
#include "rmp_rcc.h"
#include "engine/hdr.h"
#include "engine/psn.h"
#include "engine/req.h"

/* Grants sent per expiry of the timer, at most; more are due at once. */
#define RMP_RCC_BATCH		16
/* Arriving data packets between two adjustments to their ECN marks. */
#define RMP_RCC_ECN_EVERY	32

static struct rmp_dev *rmp_qp_dev(const struct rmp_qp *qp)
{
	return to_rmp_dev(qp->ibqp.device);
}

/* Bytes a packet of credit stands for on a path of @mtu. */
static u32 rmp_rcc_pkt_bytes(u32 mtu)
{
	return mtu + RMP_REQ_PKT_OVERHEAD;
}

/* The scheduler's parameters from the knobs; while it schedules nobody. */
static void rmp_rcc_configure(struct rmp_dev *dev)
{
	u32 mtu = ib_mtu_enum_to_int(rmp_dev_active_mtu(dev));
	u32 pkt = rmp_rcc_pkt_bytes(mtu);
	u64 rate = (u64)rmp_dev_link_mbps(dev) * 1000;
	u32 window = max_t(u32, 1, rmp_knob_get(dev, RMP_KNOB_RCC_WINDOW) *
			   1024 / pkt);
	u32 overcommit = rmp_knob_get(dev, RMP_KNOB_RCC_OVERCOMMIT);
	struct rmp_credit_rx_cfg cfg = {
		.rate_kbps = rate,
		.min_kbps = max_t(u64, rate >> 6, 1),
		.window = window,
		.overcommit = overcommit,
		.policy = rmp_knob_get(dev, RMP_KNOB_RCC_POLICY),
		.idle_ns = (u64)rmp_knob_get(dev, RMP_KNOB_RCC_IDLE) *
			   NSEC_PER_USEC,
		.ecn_every = RMP_RCC_ECN_EVERY,
		/* As long as the downlink takes to carry those, at most. */
		.ecn_period_ns = div64_u64((u64)RMP_RCC_ECN_EVERY * pkt * 8 *
					   NSEC_PER_MSEC, rate),
		/*
		 * A tick the host runs late owes the credit of the time it
		 * lost, up to what the windows hold: the data the senders
		 * sent meanwhile arrived, so what it grants at once refills
		 * a pipe that drained. The queue it can build stays what
		 * the windows allow, rcc_overcommit of them, whatever the
		 * bucket.
		 */
		.burst_bytes = min_t(u64, (u64)overcommit * window * pkt,
				     U32_MAX),
	};

	/* The knobs' ranges make every setting one the engine takes. */
	WARN_ON_ONCE(rmp_credit_rx_init(&dev->rcc.rx, &cfg, ktime_get_ns()));
}

/* Have the timer fire by @at, the scheduler's deadline; under the lock. */
static void rmp_rcc_arm(struct rmp_rcc_dev *d, u64 at)
{
	if (at == RMP_CREDIT_NEVER ||
	    (hrtimer_is_queued(&d->timer) && d->timer_at <= at))
		return;
	d->timer_at = at;
	hrtimer_start(&d->timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

/*
 * Send the peer of @qp a credit packet, a grant or a request, from UDP
 * source port @sport. Multipath spreads both over the paths in use, or a
 * route that fails, either way, would hold back all of them and the data
 * on every path with them: grants leave from the ports the last requests
 * came on, in turn (rmp_responder_reply_sport(), counted by the limit
 * granted, which moves with each), requests from the live paths in turn
 * (rmp_req_control_sport()).
 */
static void rmp_rcc_send(struct rmp_qp *qp, u8 opcode, u32 psn, u16 sport,
			 enum rmp_counter counter)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct rmp_hdr_fields f = {};

	f.bth.opcode = opcode;
	f.bth.qpn = qp->responder.dqpn;
	f.bth.psn = psn;
	rmp_pkt_send_control(dev, &qp->flow,
			     rmp_knob_get(dev, RMP_KNOB_GRANT_DSCP), sport, &f,
			     counter);
}

/* Add what the scheduler did since last time to the counters; locked. */
static void rmp_rcc_count(struct rmp_dev *dev)
{
	const struct rmp_credit_rx_stats *now = &dev->rcc.rx.stats;
	struct rmp_credit_rx_stats *seen = &dev->rcc.seen;

	rmp_stats_add(&dev->stats, RMP_CNT_CC_CREDIT_GRANTED,
		      now->granted - seen->granted);
	rmp_stats_add(&dev->stats, RMP_CNT_CC_CREDIT_CUTS,
		      now->cuts - seen->cuts);
	rmp_stats_add(&dev->stats, RMP_CNT_CC_CREDIT_LATE_BYTES,
		      now->late_bytes - seen->late_bytes);
	*seen = *now;
}

/*
 * Bring the scheduler up to @now and take the grants due, up to
 * %RMP_RCC_BATCH of them: their QPs, held, into @due and their limits
 * into @limit. Under the lock. Returns how many.
 */
static u32 rmp_rcc_tick(struct rmp_rcc_dev *d, u64 now, struct rmp_qp **due,
			u32 *limit)
{
	struct rmp_credit_peer *p;
	u32 n = 0;

	rmp_credit_rx_tick(&d->rx, now);
	while (n < RMP_RCC_BATCH && (p = rmp_credit_rx_take_due(&d->rx))) {
		due[n] = container_of(p, struct rmp_qp, rcc.peer);
		limit[n] = p->granted;
		rmp_qp_hold(due[n++]);
	}
	rmp_rcc_count(container_of(d, struct rmp_dev, rcc));
	return n;
}

/* Send the @n grants rmp_rcc_tick() took, unlocked, and let their QPs go. */
static void rmp_rcc_send_grants(struct rmp_qp **due, const u32 *limit, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		rmp_rcc_send(due[i], RMP_OP_EXT_GRANT, limit[i],
			     rmp_responder_reply_sport(due[i], limit[i]),
			     RMP_CNT_TX_GRANTS);
		rmp_qp_put(due[i]);
	}
}

static enum hrtimer_restart rmp_rcc_timer_fn(struct hrtimer *timer)
{
	struct rmp_rcc_dev *d = container_of(timer, struct rmp_rcc_dev, timer);
	struct rmp_qp *due[RMP_RCC_BATCH];
	u32 limit[RMP_RCC_BATCH], n;
	u64 now, at;

	spin_lock(&d->lock);
	now = ktime_get_ns();
	n = rmp_rcc_tick(d, now, due, limit);
	at = n == RMP_RCC_BATCH ? now : rmp_credit_rx_deadline(&d->rx, now);
	d->timer_at = at;
	spin_unlock(&d->lock);

	rmp_rcc_send_grants(due, limit, n);
	if (at == RMP_CREDIT_NEVER)
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, ns_to_ktime(at));
	return HRTIMER_RESTART;
}

/**
 * rmp_rcc_dev_init() - a new device's credit scheduler, scheduling nobody
 * @dev: the device, zeroed
 *
 * Its parameters are taken from the knobs when its first sender starts.
 */
void rmp_rcc_dev_init(struct rmp_dev *dev)
{
	struct rmp_rcc_dev *d = &dev->rcc;

	spin_lock_init(&d->lock);
	hrtimer_init(&d->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	d->timer.function = rmp_rcc_timer_fn;
}

/**
 * rmp_rcc_dev_exit() - stop a device's credit scheduler
 * @dev: the device, with no QP left
 */
void rmp_rcc_dev_exit(struct rmp_dev *dev)
{
	hrtimer_cancel(&dev->rcc.timer);
	WARN_ON_ONCE(dev->rcc.rx.nactive);
}

/* The requester sends new data on @qp's credit from now on. */
static void rmp_rcc_tx_start(struct rmp_qp *qp, u64 ask_every_ns)
{
	struct rmp_requester *rq = &qp->requester;
	struct rmp_rcc_qp *c = &qp->rcc;
	u32 unsched;

	unsched = DIV_ROUND_UP(rmp_qp_knob(qp, RMP_KNOB_RCC_UNSCHED) * 1024,
			       rq->req.mtu);
	rmp_credit_tx_init(&c->tx, unsched, ask_every_ns, rq->req.next_psn);
	c->seen_stalls = 0;
	rmp_req_credit(&rq->req, &c->tx);
	c->tx_on = true;
}

/* How often a sender held back asks again, from the knob. */
static u64 rmp_rcc_ask_period(const struct rmp_qp *qp)
{
	return (u64)rmp_knob_get(rmp_qp_dev(qp), RMP_KNOB_RCC_ASK_PERIOD) *
	       NSEC_PER_USEC;
}

/**
 * rmp_rcc_asking() - hold a new QP to its unscheduled budget while it asks
 * @qp: an RC QP whose requester just started; in a run of its work item
 *
 * With ``cc`` at ``rcc``, until the peer answers whether it agrees to
 * receiver credit, a QP sends what it would send before its first grant,
 * no more: a burst of new QPs does not flood the receiver's downlink
 * before the receiver can schedule them. rmp_rcc_ask() lets it go if the
 * peer does not agree.
 */
void rmp_rcc_asking(struct rmp_qp *qp)
{
	if (rmp_qp_knob(qp, RMP_KNOB_CC) != RMP_CC_RCC ||
	    READ_ONCE(qp->ext) != RMP_EXT_ASKING ||
	    test_bit(RMP_QP_EXT_KNOWN, &qp->flags) || qp->rcc.tx_on)
		return;
	/* It cannot ask for credit yet: the peer may be a standard one. */
	rmp_rcc_tx_start(qp, 0);
	qp->rcc.tx_asking = true;
}

/**
 * rmp_rcc_start() - start receiver credit on both sides of a QP
 * @qp: an RC QP whose peer agreed to it; in a run of its work item
 *
 * The receiving side once the responder started, the sending side once
 * the requester did. Cheap once both are on: a run calls it while the
 * QP's %RMP_QP_CREDIT flag is set.
 */
void rmp_rcc_start(struct rmp_qp *qp)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct rmp_requester *rq = &qp->requester;
	struct rmp_rcc_dev *d = &dev->rcc;
	struct rmp_rcc_qp *c = &qp->rcc;
	struct rmp_resp *resp = &qp->responder.resp;

	if (!READ_ONCE(c->rx_on) && qp->responder.on) {
		spin_lock_bh(&d->lock);
		if (!c->gone) {
			if (!d->rx.nactive) {
				rmp_rcc_count(dev);
				rmp_rcc_configure(dev);
				memset(&d->seen, 0, sizeof(d->seen));
			}
			rmp_credit_peer_init(&c->peer,
					     rmp_rcc_pkt_bytes(resp->mtu),
					     rmp_resp_epsn(resp));
			WRITE_ONCE(c->rx_on, true);
		}
		spin_unlock_bh(&d->lock);
	}
	if ((c->tx_on && !c->tx_asking) || !rq->on ||
	    rq->req.state != RMP_REQ_RUN)
		return;
	/* Asking, it kept to its budget: it goes on from there. */
	if (c->tx_on)
		rmp_credit_tx_ask_every(&c->tx, rmp_rcc_ask_period(qp),
					ktime_get_ns());
	else
		rmp_rcc_tx_start(qp, rmp_rcc_ask_period(qp));
	c->tx_asking = false;
	/* Credit replaces the DCQCN rate the QP may have started with. */
	rmp_req_pace(&rq->req, NULL);
}

/**
 * rmp_rcc_stop() - a QP leaves receiver credit
 * @qp: the QP: moving to RESET, in a run of its work item; or being
 *	destroyed (@gone), before destroy_qp waits for its references
 * @gone: the QP never joins the scheduler again
 */
void rmp_rcc_stop(struct rmp_qp *qp, bool gone)
{
	struct rmp_rcc_dev *d = &rmp_qp_dev(qp)->rcc;
	struct rmp_rcc_qp *c = &qp->rcc;

	spin_lock_bh(&d->lock);
	if (c->rx_on)
		rmp_credit_rx_forget(&d->rx, &c->peer);
	WRITE_ONCE(c->rx_on, false);
	c->gone |= gone;
	spin_unlock_bh(&d->lock);
	/* The requester's engine forgets @tx when it starts again. */
	if (!gone) {
		c->tx_on = false;
		c->tx_asking = false;
	}
}

/**
 * rmp_rcc_data() - a request packet arrived from the peer
 * @qp: the QP, in a run of its transport
 * @f: its headers
 * @ce: it arrived CE-marked
 *
 * A READ request stands for all the PSNs of its responses.
 */
void rmp_rcc_data(struct rmp_qp *qp, const struct rmp_hdr_fields *f, bool ce)
{
	struct rmp_rcc_dev *d = &rmp_qp_dev(qp)->rcc;
	/* Only the n taken are read: not cleared for every request packet. */
	struct rmp_qp *due[RMP_RCC_BATCH] __uninitialized;
	u32 limit[RMP_RCC_BATCH] __uninitialized;
	u32 psn = f->bth.psn, pkts, n = 0;
	struct rmp_rcc_qp *c = &qp->rcc;
	u64 now, at;

	if (!READ_ONCE(c->rx_on))
		return;
	if (f->bth.opcode == RMP_OP_RC_READ_REQUEST) {
		pkts = DIV_ROUND_UP(f->reth.len, qp->responder.resp.mtu);
		psn = rmp_psn_add(psn, pkts ? pkts - 1 : 0);
	}
	spin_lock_bh(&d->lock);
	if (c->rx_on) {
		now = ktime_get_ns();
		rmp_credit_rx_data(&d->rx, &c->peer, psn, ce, now);
		/*
		 * Arriving data clocks the grants that replace it, as in
		 * Homa and NDP: they need not wait for the timer, which a
		 * busy host runs late.
		 */
		at = rmp_credit_rx_deadline(&d->rx, now);
		if (at <= now) {
			n = rmp_rcc_tick(d, now, due, limit);
			at = rmp_credit_rx_deadline(&d->rx, now);
		}
		rmp_rcc_arm(d, at);
	}
	spin_unlock_bh(&d->lock);
	rmp_rcc_send_grants(due, limit, n);
}

/**
 * rmp_rcc_request() - the peer asks for credit
 * @qp: the QP, in a run of its transport
 * @want: the PSN after everything the peer has to send
 *
 * A request for a QP not granting, or that the scheduler refuses, is
 * dropped and counted.
 */
void rmp_rcc_request(struct rmp_qp *qp, u32 want)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct rmp_rcc_dev *d = &dev->rcc;
	int err = -EINVAL;
	u64 now;

	rmp_stats_inc(&dev->stats, RMP_CNT_RX_CREDIT_REQUESTS);
	spin_lock_bh(&d->lock);
	if (qp->rcc.rx_on) {
		now = ktime_get_ns();
		err = rmp_credit_rx_request(&d->rx, &qp->rcc.peer, want, now);
		/* A sender left out for want of a slot asks again. */
		rmp_rcc_arm(d, rmp_credit_rx_deadline(&d->rx, now));
	}
	spin_unlock_bh(&d->lock);
	if (err == -EINVAL)
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_QP);
}

/**
 * rmp_rcc_grant() - the peer grants credit
 * @qp: the QP, in a run of its transport
 * @limit: the PSN limit granted
 *
 * A grant for a QP not sending on credit, or beyond what it asked for, is
 * dropped and counted; an old one changes nothing.
 */
void rmp_rcc_grant(struct rmp_qp *qp, u32 limit)
{
	struct rmp_requester *rq = &qp->requester;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;
	int err = -EINVAL;

	if (qp->rcc.tx_on)
		err = rmp_credit_tx_grant(&qp->rcc.tx, limit,
					  rq->req.post_psn, ktime_get_ns());
	if (err == -EINVAL) {
		rmp_stats_inc(st, RMP_CNT_RX_DROP_QP);
		return;
	}
	if (err) {
		rmp_stats_inc(st, RMP_CNT_RX_STALE_GRANTS);
		return;
	}
	rmp_stats_inc(st, RMP_CNT_RX_GRANTS);
	/* Like a response, it gives the requester work. */
	if (!rq->answered_at)
		rq->answered_at = ktime_get_ns();
}

/**
 * rmp_rcc_ask() - send the credit request owed, if one is
 * @qp: the QP, in a run of its work item, after its requester sent
 *
 * Return: true if the requester may send more now: the QP asked its peer
 * whether it agrees to credit, and learned it does not.
 */
bool rmp_rcc_ask(struct rmp_qp *qp)
{
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;
	struct rmp_rcc_qp *c = &qp->rcc;

	if (!c->tx_on)
		return false;
	rmp_stats_add(st, RMP_CNT_CC_CREDIT_STALLS,
		      c->tx.stalls - c->seen_stalls);
	c->seen_stalls = c->tx.stalls;
	if (c->tx_asking) {
		if (!test_bit(RMP_QP_EXT_KNOWN, &qp->flags))
			return false;
		/* Pairs with the barrier in rmp_qp_ext_known(). */
		smp_rmb();
		if (test_bit(RMP_QP_CREDIT, &qp->flags))
			return false;
		/* A standard peer: DCQCN alone paces the QP. */
		rmp_req_credit(&qp->requester.req, NULL);
		c->tx_on = false;
		c->tx_asking = false;
		return true;
	}
	if (c->tx.ask) {
		rmp_rcc_send(qp, RMP_OP_EXT_CREDIT_REQUEST, c->tx.want,
			     rmp_req_control_sport(&qp->requester.req,
						   c->tx.requests),
			     RMP_CNT_TX_CREDIT_REQUESTS);
		rmp_credit_tx_asked(&c->tx, ktime_get_ns());
	}
	return false;
}

/**
 * rmp_rcc_ahead_flow() - the class of a packet that goes ahead of data
 * @qp: an RC QP
 * @fl: filled in with @qp's flow, its DSCP ``rcc_unsched_dscp``, its ECN
 *	bits unchanged
 *
 * A burst's unscheduled packets, and the acknowledgments of a QP on
 * credit, which must not fall behind the next request they answer, leave
 * in that class, between the grants' and scheduled data's (a switch
 * serves it ahead of data). Only between QPs agreed on credit: a standard
 * peer sees the QP's own class.
 *
 * Return: true if @fl was filled in; false if the QP is not on credit or
 * the knob is 0.
 */
bool rmp_rcc_ahead_flow(struct rmp_qp *qp, struct rmp_flow *fl)
{
	u32 dscp = rmp_knob_get(rmp_qp_dev(qp), RMP_KNOB_RCC_UNSCHED_DSCP);

	if (!dscp || !test_bit(RMP_QP_CREDIT, &qp->flags))
		return false;
	*fl = qp->flow;
	fl->tclass = dscp << 2 | (qp->flow.tclass & INET_ECN_MASK);
	return true;
}
