// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: DCQCN rate control
 *
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015) is RoCE's congestion control. Switches mark
 * packets CE as their queues build. The receiver, the notification point,
 * answers CE marks with CNPs, at most one per QP per interval
 * (rmp_cnp_gate_pass()). The sender, the reaction point, cuts the QP's
 * rate on a CNP and raises it again while none comes: struct rmp_dcqcn is
 * one QP's reaction point, with the pacer that holds the QP to its rate.
 *
 * The reaction point keeps a current rate Rc, a target rate Rt (where
 * recovery heads: the rate before the last cut) and alpha, its estimate
 * of how congested the path is, 1 at first. A CNP sets Rt = Rc, cuts Rc
 * by the fraction alpha / 2 and raises alpha to (1 - g) alpha + g. Each
 * alpha period K with no CNP, alpha decays to (1 - g) alpha.
 *
 * Rate-increase events come from a timer, every period T, and from a byte
 * counter, every B bytes sent; a cut restarts both and zeroes the count
 * of events each keeps (its stage). While neither count exceeds F, an
 * event is fast recovery: Rc = (Rt + Rc) / 2, half the way back to where
 * the cut came from. When one count exceeds F, additive increase: Rt grows
 * by R_AI first, probing for more. When both do, hyper increase: Rt grows
 * by i R_HAI first, i being the smaller count less F, so a flow that has
 * both waited and sent long without a CNP grows ever faster. Rt and Rc
 * stay at or below the line rate, and Rc at or above the floor. At the
 * line rate there is nothing left to raise: the timers stop.
 *
 * The pacer is a token bucket filled at Rc up to a depth of burst bytes.
 * A packet may leave while the bucket is not negative, even one larger
 * than what is left: the bucket goes negative and the next waits until
 * it is repaid, so big packets never stall.
 *
 * Design notes:
 *
 * - Alpha needs no timer. Its decays count from the last CNP, so alpha at
 *   any time follows from alpha just after that CNP and the periods since:
 *   times (1 - g)^n, raised by squaring in 32-bit fractions. Ticking every
 *   period or once after many periods gives the same alpha.
 * - The rate events that are due run before a CNP or a sent packet is
 *   taken in (rmp_dcqcn_cnp() and rmp_dcqcn_sent() catch up first), so
 *   that events count in the order they happened and a busy QP need not be
 *   ticked; rmp_dcqcn_deadline() tells an idle one when to come back.
 * - Catching up is bounded, and exact but in one case. Events due at
 *   once are stepped through until the rest may be leapt over: each
 *   moving Rt by the same step, and the distance from Rc to Rt settled to
 *   that step (each event halves what it is off by), so that each moves
 *   both rates by the step until Rt meets the line rate, and then halves
 *   what is left of Rc's way there. That takes F events and some 30 more.
 *   The one case where the step keeps changing is hyper increase while
 *   the source catching up has the smaller count, so that i still grows:
 *   a flow that sent B over a hundred times since its last cut, then went
 *   quiet. Past %RMP_DCQCN_EXACT events at once, the rest are leapt over
 *   all the same, i kept where it was: the rate then climbs slower than
 *   stepping would make it, never faster.
 * - Midpoints round up, so that Rc reaches Rt, and the line rate, rather
 *   than stopping one kbit/s short.
 * - Tokens are 1/8,000,000 bytes: a kbit/s for one ns is one token, so a
 *   refill is a product, exact, with no division. Every product is
 *   bounded: rates below 2^30 kbit/s, counts below 2^32, a bucket below
 *   2^53 tokens.
 * - No floating point, no clock: times come from the caller, in ns. A time
 *   earlier than one already seen counts as no time passing.
 */
#include "dcqcn.h"

/* One in 32-bit fixed point, for (1 - g)^n. */
#define RMP_DCQCN_FRAC_ONE	BIT(32)
/* Debt the bucket may carry: the largest debit twice over. */
#define RMP_DCQCN_DEBT_MAX	((s64)1 << 56)

static u64 rmp_dcqcn_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 rmp_dcqcn_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

static u64 rmp_dcqcn_sat_add(u64 a, u64 b)
{
	return a + b < a ? RMP_DCQCN_NEVER : a + b;
}

static u32 rmp_dcqcn_sat_add32(u32 a, u64 b)
{
	return b >= U32_MAX - a ? U32_MAX : a + (u32)b;
}

/**
 * rmp_dcqcn_cfg_default() - parameters for a link
 * @cfg: filled in
 * @line_kbps: the link's rate, kbit/s
 *
 * The paper's g (1/256), K (55 us), T (55 us) and F (5); on a line so
 * slow that 55 us is less than it takes to carry a dozen 1 KiB packets,
 * K and T are that time instead: a flow's CNPs come packets apart, and
 * with K shorter alpha decays to nothing between two of them, each cut
 * is tiny and the queue stays full (seen at 20 Mbit/s). T is the
 * paper's rather than the 300 us some NICs use: recovery and fairness
 * between flows come from the timer (each flow's R_AI steps are alike,
 * its cuts proportional), and a QP that sends needs no timer of its own,
 * since sending runs the events due. B is the paper's 10 MB on 40 Gbit/s
 * scaled to the link: what the line carries in 2 ms, 64 KiB at least, so
 * that the timer leads and the byte counter only speeds up a flow that
 * sent much since its last cut; a B much smaller lets the faster of two
 * flows recover faster and keep its lead. R_AI a thousandth of the line
 * (the paper's 40 Mbit/s on 40 Gbit/s) and R_HAI ten times that, as NICs;
 * a floor of 1 Mbit/s, as NICs; a bucket of what the line carries in
 * 20 us, 64 KiB at least, for a sender that is woken that late; and cuts
 * at most every 4 us, as NICs.
 */
void rmp_dcqcn_cfg_default(struct rmp_dcqcn_cfg *cfg, u64 line_kbps)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->line_kbps = line_kbps;
	cfg->min_kbps = rmp_dcqcn_min(RMP_DCQCN_DEF_MIN_KBPS, line_kbps);
	cfg->g_shift = RMP_DCQCN_DEF_G_SHIFT;
	cfg->alpha_period_ns = rmp_dcqcn_max(RMP_DCQCN_DEF_PERIOD_US * 1000,
					     RMP_DCQCN_PERIOD_BYTES *
					     RMP_DCQCN_TOKENS_PER_BYTE /
					     line_kbps);
	cfg->rate_period_ns = cfg->alpha_period_ns;
	cfg->byte_threshold = rmp_dcqcn_max(65536, line_kbps * 2000000 /
					    RMP_DCQCN_TOKENS_PER_BYTE);
	cfg->fast_stages = RMP_DCQCN_DEF_FAST_STAGES;
	cfg->ai_kbps = rmp_dcqcn_max(line_kbps / 1000, 1);
	cfg->hai_kbps = rmp_dcqcn_min(10 * cfg->ai_kbps, line_kbps);
	cfg->burst_bytes = rmp_dcqcn_max(65536, line_kbps * 20000 /
					 RMP_DCQCN_TOKENS_PER_BYTE);
	cfg->cut_interval_ns = 4000;
}

/**
 * rmp_dcqcn_cfg_check() - whether parameters make sense
 * @cfg: the parameters
 *
 * Return: 0, or -EINVAL for a parameter out of the range
 * &struct rmp_dcqcn_cfg gives it.
 */
int rmp_dcqcn_cfg_check(const struct rmp_dcqcn_cfg *cfg)
{
	if (!cfg->line_kbps || cfg->line_kbps > RMP_DCQCN_LINE_MAX ||
	    !cfg->min_kbps || cfg->min_kbps > cfg->line_kbps ||
	    !cfg->g_shift || cfg->g_shift > RMP_DCQCN_G_SHIFT_MAX ||
	    !cfg->alpha_period_ns || !cfg->rate_period_ns ||
	    !cfg->byte_threshold || !cfg->fast_stages ||
	    cfg->fast_stages > RMP_DCQCN_STAGES_MAX ||
	    !cfg->ai_kbps || cfg->ai_kbps > cfg->line_kbps ||
	    cfg->hai_kbps < cfg->ai_kbps || cfg->hai_kbps > cfg->line_kbps ||
	    !cfg->burst_bytes || cfg->burst_bytes > RMP_DCQCN_BURST_MAX)
		return -EINVAL;
	return 0;
}

/**
 * rmp_dcqcn_init() - start a QP at the line rate, its bucket full
 * @d: the reaction point
 * @cfg: its parameters, which rmp_dcqcn_cfg_check() accepts
 * @now: the time (ns)
 */
void rmp_dcqcn_init(struct rmp_dcqcn *d, const struct rmp_dcqcn_cfg *cfg,
		    u64 now)
{
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->rc_kbps = cfg->line_kbps;
	d->rt_kbps = cfg->line_kbps;
	d->alpha = RMP_DCQCN_ALPHA_ONE;
	d->alpha_base = RMP_DCQCN_ALPHA_ONE;
	d->alpha_start = now;
	d->rate_start = now;
	d->tokens = cfg->burst_bytes * RMP_DCQCN_TOKENS_PER_BYTE;
	d->pacer_last = now;
}

/* The bucket at @now, from what it held at the last refill. */
static s64 rmp_dcqcn_tokens(const struct rmp_dcqcn *d, u64 now)
{
	s64 cap = d->cfg.burst_bytes * RMP_DCQCN_TOKENS_PER_BYTE;
	u64 dt, room;

	if (now <= d->pacer_last || d->tokens >= cap)
		return d->tokens;
	dt = now - d->pacer_last;
	room = cap - d->tokens;
	/* Full already: no product that could overflow. */
	if (dt > room / d->rc_kbps)
		return cap;
	return d->tokens + (s64)(dt * d->rc_kbps);
}

/* Bring the bucket up to @now at the rate it has been filling at. */
static void rmp_dcqcn_refill(struct rmp_dcqcn *d, u64 now)
{
	d->tokens = rmp_dcqcn_tokens(d, now);
	d->pacer_last = rmp_dcqcn_max(d->pacer_last, now);
}

/* @alpha times (1 - g)^@n, g = 1 / 2^@g_shift. */
static u32 rmp_dcqcn_decay(u32 alpha, u32 g_shift, u64 n)
{
	u64 f = RMP_DCQCN_FRAC_ONE - (RMP_DCQCN_FRAC_ONE >> g_shift);
	u64 r = RMP_DCQCN_FRAC_ONE;

	/* Both below 2^32 + 1, so neither product overflows. */
	while (n && r) {
		if (n & 1)
			r = r * f >> 32;
		f = f * f >> 32;
		n >>= 1;
	}
	return (u64)alpha * r >> 32;
}

/* How much an event that leaves the stages at @t and @b raises Rt. */
static u64 rmp_dcqcn_growth(const struct rmp_dcqcn *d, u32 t, u32 b)
{
	u32 f = d->cfg.fast_stages;

	if (t > f && b > f)
		return (u64)((t < b ? t : b) - f) * d->cfg.hai_kbps;
	if (t > f || b > f)
		return d->cfg.ai_kbps;
	return 0;
}

/* Count @n events of the phase the stages @t and @b are in. */
static void rmp_dcqcn_count(struct rmp_dcqcn *d, u32 t, u32 b, u64 n)
{
	u32 f = d->cfg.fast_stages;

	if (t > f && b > f)
		d->stats.hyper += n;
	else if (t > f || b > f)
		d->stats.additive += n;
	else
		d->stats.fast += n;
	d->stats.increases += n;
}

/* Rc half the way to Rt, rounded up. */
static void rmp_dcqcn_halve_gap(struct rmp_dcqcn *d)
{
	d->rc_kbps = d->rt_kbps - (d->rt_kbps - d->rc_kbps) / 2;
}

/* One rate-increase event, from the timer or the byte counter. */
static void rmp_dcqcn_step(struct rmp_dcqcn *d, bool timer)
{
	if (timer)
		d->timer_stage = rmp_dcqcn_sat_add32(d->timer_stage, 1);
	else
		d->byte_stage = rmp_dcqcn_sat_add32(d->byte_stage, 1);
	d->rt_kbps = rmp_dcqcn_min(d->rt_kbps +
				   rmp_dcqcn_growth(d, d->timer_stage,
						    d->byte_stage),
				   d->cfg.line_kbps);
	rmp_dcqcn_halve_gap(d);
	rmp_dcqcn_count(d, d->timer_stage, d->byte_stage, 1);
}

/*
 * Whether the events of one source from here on may be leapt over: each
 * moves Rt by the same step, and the distance from Rc to Rt has settled to
 * that step (each event halves what it is off by), so each moves Rc by the
 * step as well; or Rt meets the line rate at the next one. Until then the
 * events are stepped through: F at most, then some 30 while the distance
 * settles; and for as long as hyper increase grows its step, unless
 * @force.
 */
static bool rmp_dcqcn_may_leap(const struct rmp_dcqcn *d, bool timer,
			       bool force)
{
	u32 t = rmp_dcqcn_sat_add32(d->timer_stage, timer);
	u32 b = rmp_dcqcn_sat_add32(d->byte_stage, !timer);
	u32 f = d->cfg.fast_stages;
	u64 step = rmp_dcqcn_growth(d, t, b), gap = d->rt_kbps - d->rc_kbps;

	/* Fast recovery; or this source is yet to pass F and turn the phase. */
	if (!step || (timer ? t : b) <= f)
		return false;
	if (step > d->cfg.line_kbps - d->rt_kbps)
		return true;
	/* Hyper increase while this source's count is the smaller: i grows. */
	if (b > f && t > f && (timer ? t < b : b < t))
		return force;
	return gap <= step && gap + 1 >= step;
}

/*
 * @n events of one source at once: each moves Rt and Rc by the step of
 * the first, until Rt meets the line rate; then each halves what is left
 * between Rc and the line rate. Exact once rmp_dcqcn_may_leap() says so
 * unforced; see the design notes for when it is not.
 */
static void rmp_dcqcn_leap(struct rmp_dcqcn *d, bool timer, u64 n)
{
	u64 line = d->cfg.line_kbps, step, k, done;
	u32 t = d->timer_stage, b = d->byte_stage;

	step = rmp_dcqcn_growth(d, rmp_dcqcn_sat_add32(t, timer),
				rmp_dcqcn_sat_add32(b, !timer));
	/* Never 0: past F events of this source, the step is R_AI or more. */
	if (!step)
		return;
	k = (line - d->rt_kbps) / step;
	done = rmp_dcqcn_min(n, k);
	d->rt_kbps += done * step;
	d->rc_kbps += done * step;
	if (done < n) {
		d->rt_kbps = line;
		while (done < n && d->rc_kbps < line) {
			rmp_dcqcn_halve_gap(d);
			done++;
		}
	}
	/* Events past the line rate count for nothing, as when stepping. */
	if (timer)
		d->timer_stage = rmp_dcqcn_sat_add32(t, done);
	else
		d->byte_stage = rmp_dcqcn_sat_add32(b, done);
	rmp_dcqcn_count(d, d->timer_stage, d->byte_stage, done);
}

/* @n rate-increase events of one source, due at once. */
static void rmp_dcqcn_increase(struct rmp_dcqcn *d, bool timer, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		if (d->rc_kbps >= d->cfg.line_kbps)
			return;
		if (n - i > 1 &&
		    rmp_dcqcn_may_leap(d, timer, i >= RMP_DCQCN_EXACT))
			break;
		rmp_dcqcn_step(d, timer);
	}
	if (i < n && d->rc_kbps < d->cfg.line_kbps)
		rmp_dcqcn_leap(d, timer, n - i);
}

/* Alpha's decays and the rate timer's events due by @now. */
static void rmp_dcqcn_timers(struct rmp_dcqcn *d, u64 now)
{
	u64 n;

	if (d->has_cut && now > d->alpha_start) {
		n = (now - d->alpha_start) / d->cfg.alpha_period_ns;
		if (n > d->alpha_periods) {
			d->alpha_periods = n;
			d->alpha = rmp_dcqcn_decay(d->alpha_base,
						   d->cfg.g_shift, n);
		}
	}
	if (d->rc_kbps >= d->cfg.line_kbps || now <= d->rate_start)
		return;
	n = (now - d->rate_start) / d->cfg.rate_period_ns;
	if (n <= d->rate_periods)
		return;
	/* The bucket filled at the old rate until now. */
	rmp_dcqcn_refill(d, now);
	d->stats.timer_events += n - d->rate_periods;
	rmp_dcqcn_increase(d, true, n - d->rate_periods);
	d->rate_periods = n;
}

/**
 * rmp_dcqcn_tick() - run the timers that are due
 * @d: the reaction point
 * @now: the time (ns)
 *
 * Any number of periods may have passed since the last call; the work is
 * bounded all the same (see the design notes). Call it at
 * rmp_dcqcn_deadline(), or whenever convenient.
 */
void rmp_dcqcn_tick(struct rmp_dcqcn *d, u64 now)
{
	rmp_dcqcn_timers(d, now);
}

/**
 * rmp_dcqcn_cnp() - a CNP came for the QP: cut its rate
 * @d: the reaction point
 * @now: the time (ns)
 *
 * Rt becomes Rc, Rc is cut by alpha / 2 (not below the floor), alpha
 * grows towards 1, and the timer and byte counter start over. A CNP
 * within &rmp_dcqcn_cfg.cut_interval_ns of the last cut only restarts
 * alpha's decay: congestion goes on, but the cut already answered it.
 */
void rmp_dcqcn_cnp(struct rmp_dcqcn *d, u64 now)
{
	u64 since = now > d->last_cut ? now - d->last_cut : 0, cut;

	rmp_dcqcn_timers(d, now);
	d->stats.cnps++;
	d->alpha_base = d->alpha;
	d->alpha_start = rmp_dcqcn_max(d->alpha_start, now);
	d->alpha_periods = 0;
	if (d->has_cut && since < d->cfg.cut_interval_ns)
		return;

	rmp_dcqcn_refill(d, now);
	d->rt_kbps = d->rc_kbps;
	/* Below 2^30 times 2^20: no overflow. */
	cut = d->rc_kbps * d->alpha >> (RMP_DCQCN_ALPHA_SHIFT + 1);
	d->rc_kbps -= cut;
	if (d->rc_kbps < d->cfg.min_kbps) {
		d->rc_kbps = d->cfg.min_kbps;
		d->stats.floored++;
	}
	d->alpha += (RMP_DCQCN_ALPHA_ONE - d->alpha) >> d->cfg.g_shift;
	d->alpha_base = d->alpha;
	d->timer_stage = 0;
	d->byte_stage = 0;
	d->bytes = 0;
	d->rate_start = d->alpha_start;
	d->rate_periods = 0;
	d->last_cut = d->alpha_start;
	d->has_cut = true;
	d->stats.cuts++;
}

/**
 * rmp_dcqcn_may_send() - whether the pacer lets a packet leave now
 * @d: the reaction point
 * @now: the time (ns)
 *
 * Return: true if the bucket, filled up to @now, is not negative; a
 * packet of any size may then leave.
 */
bool rmp_dcqcn_may_send(const struct rmp_dcqcn *d, u64 now)
{
	return rmp_dcqcn_tokens(d, now) >= 0;
}

/**
 * rmp_dcqcn_next_send() - when the pacer next lets a packet leave
 * @d: the reaction point
 * @now: the time (ns)
 *
 * At the current rate: a cut or an increase before then moves it.
 *
 * Return: @now if a packet may leave now, else the first time (ns) at
 * which rmp_dcqcn_may_send() is true.
 */
u64 rmp_dcqcn_next_send(const struct rmp_dcqcn *d, u64 now)
{
	u64 from = rmp_dcqcn_max(now, d->pacer_last);
	s64 tokens = rmp_dcqcn_tokens(d, from);

	if (tokens >= 0)
		return now;
	return rmp_dcqcn_sat_add(from, ((u64)-tokens + d->rc_kbps - 1) /
				       d->rc_kbps);
}

/**
 * rmp_dcqcn_sent() - a packet left: pay for it, count its bytes
 * @d: the reaction point
 * @bytes: its size on the wire
 * @now: the time (ns)
 *
 * Runs the timers due first. Every &rmp_dcqcn_cfg.byte_threshold bytes
 * sent below the line rate make a rate-increase event.
 */
void rmp_dcqcn_sent(struct rmp_dcqcn *d, u32 bytes, u64 now)
{
	u64 n;

	rmp_dcqcn_timers(d, now);
	rmp_dcqcn_refill(d, now);
	d->tokens -= (s64)((u64)bytes * RMP_DCQCN_TOKENS_PER_BYTE);
	if (d->tokens < -RMP_DCQCN_DEBT_MAX)
		d->tokens = -RMP_DCQCN_DEBT_MAX;
	d->stats.packets++;
	d->stats.bytes += bytes;
	if (d->rc_kbps >= d->cfg.line_kbps)
		return;
	d->bytes += bytes;
	if (d->bytes < d->cfg.byte_threshold)
		return;
	n = d->bytes / d->cfg.byte_threshold;
	d->bytes %= d->cfg.byte_threshold;
	d->stats.byte_events += n;
	rmp_dcqcn_increase(d, false, n);
}

/**
 * rmp_dcqcn_deadline() - when the reaction point next needs attention
 * @d: the reaction point
 * @now: the time (ns)
 *
 * The earlier of the pacer's opening, if it is closed (whether a packet
 * waits for it is the caller's business), and the rate timer's next
 * expiry, if the rate is below the line rate. Alpha has no timer: it is
 * brought up to date when next needed.
 *
 * Return: a time (ns) after @now, or @now if a timer is due, or
 * %RMP_DCQCN_NEVER if the pacer is open and the rate at the line rate.
 */
u64 rmp_dcqcn_deadline(const struct rmp_dcqcn *d, u64 now)
{
	u64 at = rmp_dcqcn_next_send(d, now), due;

	if (at == now)
		at = RMP_DCQCN_NEVER;
	if (d->rc_kbps < d->cfg.line_kbps) {
		/* Not past now: periods * T is at most now - start. */
		due = rmp_dcqcn_sat_add(d->rate_start + d->rate_periods *
					d->cfg.rate_period_ns,
					d->cfg.rate_period_ns);
		at = rmp_dcqcn_min(at, rmp_dcqcn_max(due, now));
	}
	return at;
}

/**
 * rmp_dcqcn_rate() - the QP's current rate
 * @d: the reaction point
 *
 * Return: Rc, kbit/s, as of the last call that changed it.
 */
u64 rmp_dcqcn_rate(const struct rmp_dcqcn *d)
{
	return d->rc_kbps;
}

/**
 * rmp_cnp_gate_pass() - whether a CE-marked packet should make its QP
 *	send a CNP
 * @g: the QP's gate
 * @interval_ns: at most one CNP this often (%RMP_CNP_INTERVAL_NS)
 * @now: the time (ns) the packet arrived
 *
 * The first CE mark always passes; after that, one per @interval_ns.
 *
 * Return: true if the QP sends a CNP now (the gate remembers it).
 */
bool rmp_cnp_gate_pass(struct rmp_cnp_gate *g, u64 interval_ns, u64 now)
{
	u64 elapsed = now > g->last_ns ? now - g->last_ns : 0;

	if (g->sent_any && elapsed < interval_ns)
		return false;
	g->last_ns = rmp_dcqcn_max(g->last_ns, now);
	g->sent_any = true;
	return true;
}
