// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: receiver credit
 *
 * A switch queue builds up when more data converges on a port than it
 * drains; with receiver credit, the receiver, which sees all the senders
 * converging on its downlink, decides how much each may send, and hands
 * out no more than the downlink absorbs (Homa's grants, NDP's and EQDS's
 * pull, Ultra Ethernet's receiver credit).
 *
 * Sender (struct rmp_credit_tx): a burst, data posted after the sender
 * ran dry, with nothing in flight nor waiting, may send an unscheduled
 * budget at once: short messages need no round trip. Beyond it a packet
 * goes only if its PSN is below the limit the receiver granted. A sender
 * held back asks, telling the PSN after everything posted; it asks again
 * when the receiver is about to run out of what it was told while more
 * was posted, or when no grant came for a period (or four of its usual
 * gaps between grants), twice as long after each request unanswered: a
 * sender waiting for its turn asks a few times, and lost requests and
 * lost grants cost a wait, never a deadlock. Grants carry absolute PSN
 * limits: an old grant, duplicated or late, moves nothing; a grant beyond
 * what was asked is refused.
 *
 * Receiver (struct rmp_credit_rx, one per downlink): the senders that
 * asked, at most %RMP_CREDIT_ACTIVE_MAX of them (the receiver's state is
 * bounded; a sender finding no slot keeps asking), and a pacer that hands
 * out credit, a packet at a time, at the downlink's rate. Each packet of
 * credit goes to one sender that wants more and holds less than a window
 * of unused credit; at most &rmp_credit_rx_cfg.overcommit senders hold
 * unused credit at once. %RMP_CREDIT_FAIR takes them in turn (one that got
 * a window while others wait to start steps aside until its credit is
 * used); %RMP_CREDIT_SRPT takes the one with least left to send. ECN marks
 * on the arriving data mean the queue that builds is inside the fabric,
 * not at the downlink: each &rmp_credit_rx_cfg.ecn_every packets with
 * marks cut the rate by half the smoothed fraction marked (as DCTCP
 * does; none if they arrived faster than granted: a queue is draining),
 * and each without climbs back by 1/64 of the downlink's rate; a
 * period ends after &rmp_credit_rx_cfg.ecn_period_ns too, however few
 * packets came. A sender not heard from for
 * &rmp_credit_rx_cfg.idle_ns leaves the schedule and its unused credit
 * stops counting.
 *
 * The receiver does not send grants itself: it marks the senders whose
 * grant is due (rmp_credit_rx_take_due()), and the caller sends each the
 * limit in &rmp_credit_peer.granted. Times are the caller's, in ns.
 */
#include "credit.h"
#include "psn.h"

/* Pacer tokens of one byte: a kbit/s for a ns gives one token. */
#define RMP_CREDIT_TOKENS_PER_BYTE	8000000LL
/* Gaps between grants a sender waits before it asks again, at least. */
#define RMP_CREDIT_GAPS			4
/* A period without marks raises the rate by the downlink's over 2^this. */
#define RMP_CREDIT_RAISE_SHIFT		6
/* Alpha moves by 1/2^this of the way to each period's marked fraction. */
#define RMP_CREDIT_ALPHA_SHIFT		4

/**
 * rmp_credit_tx_init() - a sender's credit, before its first packet
 * @tx: the sender
 * @unsched: packets a burst may send unscheduled
 * @ask_every_ns: how often a sender held back asks again; 0 for only when
 *	it has news for the receiver, until rmp_credit_tx_ask_every()
 * @psn: the PSN of its first packet
 */
void rmp_credit_tx_init(struct rmp_credit_tx *tx, u32 unsched,
			u64 ask_every_ns, u32 psn)
{
	memset(tx, 0, sizeof(*tx));
	tx->unsched = unsched;
	tx->ask_every_ns = ask_every_ns;
	tx->limit = rmp_psn_mask(psn);
	tx->want = tx->limit;
	tx->posted = tx->limit;
}

/*
 * When a sender held back asks again if no grant comes: a period after it
 * last heard of the receiver, or four of the usual gaps between its
 * grants if longer (a receiver sharing its downlink among many senders
 * grants each rarely), twice that after each request left unanswered.
 */
static u64 rmp_credit_tx_ask_at(const struct rmp_credit_tx *tx)
{
	u64 wait = tx->gap_ns * RMP_CREDIT_GAPS > tx->ask_every_ns ?
		   tx->gap_ns * RMP_CREDIT_GAPS : tx->ask_every_ns;

	return tx->heard_ns + (wait << tx->backoff);
}

/**
 * rmp_credit_tx_may_send() - whether a new packet has credit
 * @tx: the sender
 * @psn: the packet's PSN, one never sent before
 * @una: the oldest PSN not acknowledged (@psn if none is outstanding)
 * @want: the PSN after the last packet posted
 * @now: the time (ns)
 *
 * A packet posted after the sender ran dry (everything posted before it
 * was sent), with nothing in flight before it, from a sender not waiting
 * for credit, starts a burst with the unscheduled budget: a sender that
 * keeps posting while it waits for credit gets none. A packet that
 * must wait makes a request owed (&rmp_credit_tx.ask) if the receiver is
 * about to run out of what it was told (less than a budget's worth of it
 * is left to grant) and more was posted since, or if no grant came for a
 * while (rmp_credit_tx_deadline()).
 *
 * Return: true if the packet may go.
 */
bool rmp_credit_tx_may_send(struct rmp_credit_tx *tx, u32 psn, u32 una,
			    u32 want, u64 now)
{
	bool news, dry = !rmp_psn_after(tx->posted, psn);
	u32 left;

	tx->posted = rmp_psn_mask(want);
	if (tx->in_burst && !rmp_psn_before(psn, tx->burst_end))
		tx->in_burst = false;
	if (rmp_psn_before(psn, tx->limit)) {
		tx->held = false;
		return true;
	}
	/* The budget covers what was posted, no more. */
	if (dry && psn == una && !tx->held && tx->unsched &&
	    rmp_psn_after(want, psn)) {
		left = rmp_psn_sub(want, psn);
		tx->limit = rmp_psn_add(psn, left < tx->unsched ? left :
						  tx->unsched);
		tx->burst_end = tx->limit;
		tx->in_burst = true;
		return true;
	}
	if (!tx->held)
		tx->stalls++;
	tx->held = true;
	news = rmp_psn_after(want, tx->want) &&
	       (!rmp_psn_after(tx->want, tx->limit) ||
		rmp_psn_sub(tx->want, tx->limit) < (tx->unsched ?: 1));
	if (news || (tx->ask_every_ns && now >= rmp_credit_tx_ask_at(tx))) {
		if (rmp_psn_after(want, tx->want))
			tx->want = rmp_psn_mask(want);
		tx->ask = true;
	}
	return false;
}

/**
 * rmp_credit_tx_unscheduled() - whether a packet goes on no one's credit
 * @tx: the sender
 * @psn: a packet rmp_credit_tx_may_send() just let go, sent for the first
 *	time
 *
 * Such packets, the start of a burst, may leave in a class of their own
 * ahead of scheduled data, as Homa's unscheduled packets do: a short
 * message then crosses a queue of scheduled data at once.
 *
 * Return: true if @psn is one of the last burst's unscheduled packets.
 */
bool rmp_credit_tx_unscheduled(const struct rmp_credit_tx *tx, u32 psn)
{
	return tx->in_burst && rmp_psn_before(psn, tx->burst_end);
}

/**
 * rmp_credit_tx_asked() - the request owed was sent
 * @tx: the sender
 * @now: the time (ns)
 *
 * The request carries &rmp_credit_tx.want. Until a grant moves the limit,
 * each request waits twice as long as the one before, up to
 * 2^%RMP_CREDIT_BACKOFF_MAX periods.
 */
void rmp_credit_tx_asked(struct rmp_credit_tx *tx, u64 now)
{
	if (tx->requests && tx->backoff < RMP_CREDIT_BACKOFF_MAX &&
	    tx->ask_every_ns && now >= rmp_credit_tx_ask_at(tx))
		tx->backoff++;
	tx->ask = false;
	tx->heard_ns = now;
	tx->requests++;
}

/**
 * rmp_credit_tx_grant() - take a grant from the receiver
 * @tx: the sender
 * @limit: the PSN limit it grants
 * @asked: the PSN after the last packet posted: no grant goes beyond it
 * @now: the time (ns)
 *
 * Return: 0 if the limit moved; -EALREADY for a grant at or below the
 * limit held (a duplicate, a late one); -EINVAL for one beyond @asked,
 * which is refused and changes nothing.
 */
int rmp_credit_tx_grant(struct rmp_credit_tx *tx, u32 limit, u32 asked,
			u64 now)
{
	limit = rmp_psn_mask(limit);
	/* Half the PSN space or more ahead counts as behind. */
	if (rmp_psn_before_eq(limit, tx->limit)) {
		tx->stale++;
		return -EALREADY;
	}
	if (rmp_psn_after(limit, asked)) {
		tx->refused++;
		return -EINVAL;
	}
	tx->limit = limit;
	if (tx->grants && now > tx->heard_ns)
		tx->gap_ns = (tx->gap_ns * 7 + (now - tx->heard_ns)) / 8;
	tx->heard_ns = now;
	tx->backoff = 0;
	tx->grants++;
	return 0;
}

/**
 * rmp_credit_tx_deadline() - when a sender held back asks again
 * @tx: the sender
 *
 * Return: a time (ns), or %RMP_CREDIT_NEVER if no packet waits for credit
 * or the sender asks only with news.
 */
u64 rmp_credit_tx_deadline(const struct rmp_credit_tx *tx)
{
	return tx->held && tx->ask_every_ns ? rmp_credit_tx_ask_at(tx) :
					      RMP_CREDIT_NEVER;
}

/**
 * rmp_credit_tx_ask_every() - how often a sender held back asks again
 * @tx: the sender
 * @ask_every_ns: the period; 0 for never on its own
 * @now: the time (ns): the first period starts
 */
void rmp_credit_tx_ask_every(struct rmp_credit_tx *tx, u64 ask_every_ns,
			     u64 now)
{
	tx->ask_every_ns = ask_every_ns;
	tx->heard_ns = now;
}

/**
 * rmp_credit_rx_init() - a receiver's scheduler, with no sender
 * @rx: the receiver
 * @cfg: its parameters
 * @now: the time (ns)
 *
 * Return: 0, or -EINVAL for parameters out of range: a zero rate, a floor
 * above it, a zero window, ECN period or burst, an overcommit of 0 or
 * above %RMP_CREDIT_ACTIVE_MAX, an unknown policy, a zero idle time.
 */
int rmp_credit_rx_init(struct rmp_credit_rx *rx,
		       const struct rmp_credit_rx_cfg *cfg, u64 now)
{
	if (!cfg->rate_kbps || !cfg->min_kbps ||
	    cfg->min_kbps > cfg->rate_kbps || !cfg->window ||
	    cfg->window >= RMP_CREDIT_AHEAD_MAX || !cfg->overcommit ||
	    cfg->overcommit > RMP_CREDIT_ACTIVE_MAX ||
	    cfg->policy >= RMP_CREDIT_POLICY_NR || !cfg->idle_ns ||
	    !cfg->ecn_every || !cfg->ecn_period_ns || !cfg->burst_bytes ||
	    cfg->rate_kbps > (1ULL << 32))
		return -EINVAL;
	memset(rx, 0, sizeof(*rx));
	rx->cfg = *cfg;
	rx->rate_kbps = cfg->rate_kbps;
	rx->tokens = (s64)cfg->burst_bytes * RMP_CREDIT_TOKENS_PER_BYTE;
	rx->last_ns = now;
	rx->ecn_since = now;
	return 0;
}

/**
 * rmp_credit_peer_init() - a sender, unknown to its receiver
 * @p: the sender's record at the receiver
 * @pkt_bytes: bytes a packet of credit stands for
 * @psn: the PSN of the sender's first packet
 */
void rmp_credit_peer_init(struct rmp_credit_peer *p, u32 pkt_bytes,
			  u32 psn)
{
	memset(p, 0, sizeof(*p));
	p->pkt_bytes = pkt_bytes ?: 1;
	p->want = rmp_psn_mask(psn);
	p->granted = p->want;
	p->rcvd = p->want;
	p->slot = -1;
}

/* Where the sender's credit starts: what it was granted or sent. */
static u32 rmp_credit_base(const struct rmp_credit_peer *p)
{
	return rmp_psn_after(p->rcvd, p->granted) ? p->rcvd : p->granted;
}

/* Credit granted and not yet used, in packets. */
static u32 rmp_credit_unused(const struct rmp_credit_peer *p)
{
	return rmp_psn_after(p->granted, p->rcvd) ?
	       rmp_psn_sub(p->granted, p->rcvd) : 0;
}

/* Packets the sender asked for and has no credit for yet. */
static u32 rmp_credit_left(const struct rmp_credit_peer *p)
{
	u32 base = rmp_credit_base(p);

	return rmp_psn_after(p->want, base) ? rmp_psn_sub(p->want, base) : 0;
}

static void rmp_credit_unschedule(struct rmp_credit_rx *rx,
				  struct rmp_credit_peer *p)
{
	struct rmp_credit_peer *last = rx->active[--rx->nactive];

	rx->active[p->slot] = last;
	last->slot = p->slot;
	rx->active[rx->nactive] = NULL;
	p->slot = -1;
	p->grant_due = false;
	if (rx->next >= rx->nactive)
		rx->next = 0;
}

static int rmp_credit_schedule(struct rmp_credit_rx *rx,
			       struct rmp_credit_peer *p)
{
	if (p->slot >= 0)
		return 0;
	if (rx->nactive == RMP_CREDIT_ACTIVE_MAX) {
		rx->stats.full++;
		return -ENOSPC;
	}
	p->slot = rx->nactive;
	p->quantum = 0;
	rx->active[rx->nactive++] = p;
	return 0;
}

/**
 * rmp_credit_rx_request() - a sender asks for credit
 * @rx: its receiver
 * @p: the sender
 * @want: the PSN after everything it has to send
 * @now: the time (ns)
 *
 * The sender is scheduled if a slot is free. Its grant is made due if it
 * holds unused credit: it asked, so it may have lost the grant.
 *
 * Return: 0; -EINVAL for a @want behind what arrived or further ahead
 * than %RMP_CREDIT_AHEAD_MAX, which changes nothing; -ENOSPC if every
 * slot is taken (the sender asks again later).
 */
int rmp_credit_rx_request(struct rmp_credit_rx *rx, struct rmp_credit_peer *p,
			  u32 want, u64 now)
{
	want = rmp_psn_mask(want);
	if (rmp_psn_before(want, p->rcvd) ||
	    rmp_psn_sub(want, p->rcvd) >= RMP_CREDIT_AHEAD_MAX)
		return -EINVAL;
	rx->stats.requests++;
	p->last_ns = now;
	if (rmp_psn_after(want, p->want))
		p->want = want;
	if (rmp_credit_unused(p))
		p->grant_due = true;
	return rmp_credit_schedule(rx, p);
}

/*
 * The rate new data arrived at since the last adjustment, kbit/s: the
 * PSNs the senders' highest moved over, packets sent again not counted
 * (a sender that resends much would otherwise seem to send fast).
 */
static u64 rmp_credit_arrival_kbps(const struct rmp_credit_rx *rx, u64 now)
{
	if (now <= rx->ecn_since)
		return rx->rate_kbps;
	return rx->ecn_bytes * RMP_CREDIT_TOKENS_PER_BYTE / (now - rx->ecn_since);
}

/*
 * Adjust the rate to the marks seen over the last ecn_every packets, or
 * the last ecn_period_ns, as DCTCP does: alpha follows the fraction
 * marked; marks cut the rate by alpha / 2, a period without any raises it
 * by 1/64 of the downlink's. A period counts in time too, or a rate cut
 * low would take as long to climb back as it takes to see ecn_every
 * packets at that rate.
 *
 * Marks on data that arrived faster than the rate granted cut nothing:
 * the queue that marked it filled before an earlier cut took effect and
 * is draining. Cutting on would take the rate well under what the
 * fabric carries (in the leaf-spine suite, from 20 Mbit/s to 8 when a
 * fourth of 20 was lost), to climb back a step a period.
 */
static void rmp_credit_ecn_adjust(struct rmp_credit_rx *rx, u64 now)
{
	u64 cut, floor = rx->cfg.min_kbps, top = rx->cfg.rate_kbps;
	u32 frac = rx->ecn_seen ?
		   rx->ecn_marks * RMP_CREDIT_ONE / rx->ecn_seen : 0;

	rx->ecn_alpha += (s32)(frac - rx->ecn_alpha) >> RMP_CREDIT_ALPHA_SHIFT;
	if (rx->ecn_marks) {
		if (rmp_credit_arrival_kbps(rx, now) < rx->rate_kbps) {
			cut = rx->rate_kbps * rx->ecn_alpha /
			      (2 * RMP_CREDIT_ONE);
			rx->rate_kbps = rx->rate_kbps - cut < floor ? floor :
					rx->rate_kbps - cut;
			rx->stats.cuts++;
		}
	} else {
		rx->rate_kbps += top >> RMP_CREDIT_RAISE_SHIFT ?: 1;
		if (rx->rate_kbps > top)
			rx->rate_kbps = top;
	}
	rx->ecn_seen = 0;
	rx->ecn_marks = 0;
	rx->ecn_bytes = 0;
	rx->ecn_since = now;
}

/**
 * rmp_credit_rx_data() - a data packet arrived from a sender
 * @rx: its receiver
 * @p: the sender
 * @psn: the packet's PSN
 * @ce: it arrived CE-marked
 * @now: the time (ns)
 *
 * Any packet counts towards the fraction marked, duplicates and
 * unscheduled ones too: each took its place on the downlink. Only the
 * PSNs it moves the sender's highest over count towards the rate data
 * arrives at (rmp_credit_arrival_kbps()).
 */
void rmp_credit_rx_data(struct rmp_credit_rx *rx, struct rmp_credit_peer *p,
			u32 psn, bool ce, u64 now)
{
	u32 ahead;

	psn = rmp_psn_mask(psn);
	p->last_ns = now;
	ahead = rmp_psn_sub(psn, p->rcvd);
	if (rmp_psn_after_eq(psn, p->rcvd) && ahead < RMP_CREDIT_AHEAD_MAX) {
		rx->ecn_bytes += (u64)(ahead + 1) * p->pkt_bytes;
		p->rcvd = rmp_psn_add(psn, 1);
	}
	if (!rmp_credit_unused(p))
		p->quantum = 0;
	rx->ecn_seen++;
	if (ce) {
		rx->ecn_marks++;
		rx->stats.ecn_marked++;
	}
	if (rx->ecn_seen >= rx->cfg.ecn_every)
		rmp_credit_ecn_adjust(rx, now);
}

/* The pacer's tokens at @now: a full bucket at most. */
static s64 rmp_credit_tokens_at(const struct rmp_credit_rx *rx, u64 now)
{
	s64 full = (s64)rx->cfg.burst_bytes * RMP_CREDIT_TOKENS_PER_BYTE;
	u64 dt = now > rx->last_ns ? now - rx->last_ns : 0;

	/* Past a full bucket's worth, more time adds nothing. */
	if (dt > (u64)(full - rx->tokens) / rx->rate_kbps)
		return full;
	return rx->tokens + (s64)(dt * rx->rate_kbps);
}

/*
 * Count the credit a late tick lost: what the time since the last tick
 * would have given beyond a full bucket, if a sender wanted it then.
 */
static void rmp_credit_count_late(struct rmp_credit_rx *rx, u64 now)
{
	s64 full = (s64)rx->cfg.burst_bytes * RMP_CREDIT_TOKENS_PER_BYTE;
	u64 dt = now > rx->last_ns ? now - rx->last_ns : 0;
	u64 room = (u64)(full - rx->tokens) / rx->rate_kbps;

	if (rx->wanted && dt > room)
		rx->stats.late_bytes += (dt - room) * rx->rate_kbps /
					RMP_CREDIT_TOKENS_PER_BYTE;
}

/* Senders holding unused credit, and senders waiting to get some. */
static void rmp_credit_census(const struct rmp_credit_rx *rx, u32 *holders,
			      u32 *waiters)
{
	const struct rmp_credit_peer *p;
	u32 i;

	*holders = 0;
	*waiters = 0;
	for (i = 0; i < rx->nactive; i++) {
		p = rx->active[i];
		if (rmp_credit_unused(p))
			(*holders)++;
		else if (rmp_credit_left(p))
			(*waiters)++;
	}
}

/* Whether @p may have the next packet of credit. */
static bool rmp_credit_eligible(const struct rmp_credit_rx *rx,
				const struct rmp_credit_peer *p, u32 holders,
				u32 waiters)
{
	u32 unused = rmp_credit_unused(p);

	if (!rmp_credit_left(p) || unused >= rx->cfg.window)
		return false;
	if (!unused && holders >= rx->cfg.overcommit)
		return false;
	/* Fair: a window's turn, then make way for those waiting. */
	return rx->cfg.policy != RMP_CREDIT_FAIR || !waiters ||
	       p->quantum < rx->cfg.window;
}

/* Whether any sender may have the next packet of credit. */
static bool rmp_credit_any_eligible(const struct rmp_credit_rx *rx)
{
	u32 i, holders, waiters;

	rmp_credit_census(rx, &holders, &waiters);
	for (i = 0; i < rx->nactive; i++)
		if (rmp_credit_eligible(rx, rx->active[i], holders, waiters))
			return true;
	return false;
}

/* The sender the next packet of credit goes to, or NULL. */
static struct rmp_credit_peer *rmp_credit_pick(struct rmp_credit_rx *rx)
{
	struct rmp_credit_peer *p, *best = NULL;
	u32 i, idx, holders, waiters;

	rmp_credit_census(rx, &holders, &waiters);
	for (i = 0; i < rx->nactive; i++) {
		idx = (rx->next + i) % rx->nactive;
		p = rx->active[idx];
		if (!rmp_credit_eligible(rx, p, holders, waiters))
			continue;
		if (rx->cfg.policy == RMP_CREDIT_FAIR) {
			rx->next = (idx + 1) % rx->nactive;
			return p;
		}
		if (!best || rmp_credit_left(p) < rmp_credit_left(best))
			best = p;
	}
	return best;
}

/**
 * rmp_credit_rx_tick() - hand out the credit due
 * @rx: the receiver
 * @now: the time (ns)
 *
 * Unschedules the senders idle too long, then grants packet by packet as
 * long as the pacer has tokens and a sender may have them.
 */
void rmp_credit_rx_tick(struct rmp_credit_rx *rx, u64 now)
{
	struct rmp_credit_peer *p;
	u32 i = 0;

	while (i < rx->nactive) {
		p = rx->active[i];
		if (now > p->last_ns && now - p->last_ns >= rx->cfg.idle_ns) {
			rmp_credit_unschedule(rx, p);
			rx->stats.reclaimed++;
			continue;
		}
		i++;
	}
	if (now >= rx->ecn_since + rx->cfg.ecn_period_ns)
		rmp_credit_ecn_adjust(rx, now);
	rmp_credit_count_late(rx, now);
	rx->tokens = rmp_credit_tokens_at(rx, now);
	if (now > rx->last_ns)
		rx->last_ns = now;
	while (rx->tokens >= 0) {
		p = rmp_credit_pick(rx);
		if (!p)
			break;
		p->granted = rmp_psn_add(rmp_credit_base(p), 1);
		p->quantum++;
		p->grant_due = true;
		rx->tokens -= (s64)p->pkt_bytes * RMP_CREDIT_TOKENS_PER_BYTE;
		rx->stats.granted++;
	}
	rx->wanted = rx->tokens < 0 && rmp_credit_any_eligible(rx);
}

/**
 * rmp_credit_rx_take_due() - a sender whose grant is due
 * @rx: the receiver
 *
 * Return: a scheduled sender whose &rmp_credit_peer.grant_due was set,
 * now cleared: the caller sends it &rmp_credit_peer.granted. NULL when
 * none is left.
 */
struct rmp_credit_peer *rmp_credit_rx_take_due(struct rmp_credit_rx *rx)
{
	u32 i;

	for (i = 0; i < rx->nactive; i++) {
		if (rx->active[i]->grant_due) {
			rx->active[i]->grant_due = false;
			return rx->active[i];
		}
	}
	return NULL;
}

/**
 * rmp_credit_rx_deadline() - when the receiver next needs a tick
 * @rx: the receiver
 * @now: the time (ns)
 *
 * Return: @now if credit is due now, or a grant is due again (a sender
 * holding unused credit asked: it may have lost the grant, and a sender
 * holding a window's worth gets no new credit to carry it); else the
 * earlier of the time the pacer allows the next packet of credit (if a
 * sender may have it) and the time the first scheduled sender counts as
 * idle; %RMP_CREDIT_NEVER if no sender is scheduled.
 */
u64 rmp_credit_rx_deadline(const struct rmp_credit_rx *rx, u64 now)
{
	u64 at = RMP_CREDIT_NEVER, t;
	s64 tokens;
	u32 i;

	for (i = 0; i < rx->nactive; i++) {
		if (rx->active[i]->grant_due)
			return now;
		t = rx->active[i]->last_ns + rx->cfg.idle_ns;
		if (t < at)
			at = t;
	}
	if (rmp_credit_any_eligible(rx)) {
		tokens = rmp_credit_tokens_at(rx, now);
		if (tokens >= 0)
			return now;
		t = now + ((u64)-tokens + rx->rate_kbps - 1) / rx->rate_kbps;
		if (t < at)
			at = t;
	}
	return at < now ? now : at;
}

/**
 * rmp_credit_rx_forget() - a sender leaves for good
 * @rx: its receiver
 * @p: the sender (its QP reset or destroyed)
 */
void rmp_credit_rx_forget(struct rmp_credit_rx *rx, struct rmp_credit_peer *p)
{
	if (p->slot >= 0)
		rmp_credit_unschedule(rx, p);
}
