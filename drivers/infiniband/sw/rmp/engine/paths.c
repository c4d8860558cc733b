// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: path set
 *
 * A QP sprays its packets over a set of paths. A path is an entropy value,
 * the UDP source port: switches hash it with the rest of the 5-tuple to
 * pick an ECMP next hop, so different values take different routes through
 * the fabric without the fabric knowing. Path 0 keeps the QP's standard
 * source port; the others get values drawn from a generator seeded per QP,
 * all distinct, in the range RoCEv2 devices use (0xC000 and up).
 *
 * The engine is told about every packet, with its payload's size: sent on
 * a path (rmp_paths_sent()), delivered, with its round-trip time and whether the
 * receiver saw it ECN marked (rmp_paths_delivered()), or lost
 * (rmp_paths_lost()); and it is ticked (rmp_paths_tick()). From that it
 * keeps per path the packets in flight, a smoothed RTT, a smoothed
 * fraction of ECN-marked deliveries and counters, of packets and of
 * payload bytes.
 *
 * A live path dies after %RMP_PATHS_DEAD_LOSSES losses with no delivery
 * between, or when it has had packets in flight and delivered nothing for
 * &rmp_paths_cfg.dead_after_ns, or for its smoothed RTT and four mean
 * deviations if that is longer (a queue on its route, not a failure),
 * while another path delivered packets sent after its silence began. Its
 * traffic moves to the other paths at once (rmp_paths_pick() no longer
 * returns it); it is probed every &rmp_paths_cfg.probe_every_ns
 * (rmp_paths_probes_due()), and a delivered probe brings it back. After
 * %RMP_PATHS_REPLACE_PROBES lost probes in a row (rmp_paths_probe_lost())
 * its entropy is replaced, in case the route, not the link, is what
 * failed. The port given up stays the path's home: while the path runs
 * on the fresh one, a new packet goes from the home every
 * %RMP_PATHS_HOME_EVERY probe periods (rmp_paths_homes_due()), and the
 * first that gets through in half the fresh port's round trip
 * (rmp_paths_home_delivered()) takes the path back there. A link that
 * came back thus gets its paths again, as many as before, where fresh
 * ports would have left it to chance (they land on the links left, and
 * only exploring finds the link again). After %RMP_PATHS_HOME_PROBES
 * lost or slower ones (rmp_paths_home_lost(), which blames no path) the
 * home is forgotten. A path set that learns late
 * (&rmp_paths_cfg.late_news) keeps no home.
 * The last live path never dies, and silence kills no path while no path
 * delivers what was sent since: when every path stops delivering, the
 * fault is not one path's (the peer, its link, the whole fabric), and the
 * transport's own timeouts deal with it. A path set that learns of
 * deliveries late and in batches (&rmp_paths_cfg.late_news: a READ
 * responder's reports) cannot time silence by when it hears of them; its
 * caller judges silence and kills the path (rmp_paths_silent_kill()).
 *
 * Paths also share routes: a few entropy values may hash onto one link
 * while another carries none, and spraying then loads that link with
 * several paths' shares. The deliveries are judged in balance epochs of
 * %RMP_PATHS_EPOCH per live path: a path whose deliveries in an epoch
 * were ECN marked clearly more often than the other paths' together
 * (twice their fraction and a thirty-second more), or than the coolest
 * other path's (twice its fraction and an eighth more: when most paths
 * share congested links, their fraction hides the links that are not),
 * or whose smoothed RTT is four times the best path's (unless round trips
 * come late, with &rmp_paths_cfg.late_news), runs hot; one that runs hot
 * %RMP_PATHS_HOT_EPOCHS epochs in a row leaves its route, the most marked
 * first, then the slowest, one path at a time: after a move, every path
 * is judged on the epochs that follow it only. When a thirty-second or
 * more of the other paths' deliveries were marked too, not only the most
 * marked one's (marks on one path alone are weighed, and left to the rule
 * above), the most marked of two live paths or more leaves at the end of
 * the epoch if it runs hot: a fresh port lands on a link no path used with
 * that link's share of the chances only (one in four for one spine of
 * four), so moving does not wait. Marks everywhere and no path hot show
 * no route better than another, but the routes in use may not be all
 * there are: the paths can all hash onto a few links while another carries
 * nothing (a link that came back after its paths took fresh entropy, or
 * one no entropy value drew), and a route that is not used is never
 * measured. So the most marked path then tries a fresh port (explores),
 * and keeps it only if its deliveries there are marked half as often or
 * less by the end of the next epoch; otherwise it goes back to its port,
 * and the set waits an epoch marked everywhere more for each try given up
 * in a row (%RMP_PATHS_EXPLORE_WAIT_MAX at most) before it tries again. On
 * links loaded alike (an even spread of a QP driven at the fabric's
 * capacity) a try moves a path onto a link that had its share, is marked
 * more there and comes back: the spread stays even but for one epoch in a
 * few. A single path keeps its port: one route is as good as another for
 * it. Leaving a route is taking a fresh entropy value (a new route,
 * probably, which may also be a link that came back); the estimates start
 * over, and what the packets sent before on the old value tell is not held
 * against the new one: their deliveries and losses count, but feed no
 * estimate and kill nothing.
 *
 * Nothing here allocates, sleeps or reads a clock: times come from the
 * caller, so tests drive a path set with a fake clock.
 */
#include "paths.h"

/*
 * A path runs hot at twice the others' ECN fraction and this much more;
 * an epoch explores with this fraction of the other paths' marked.
 */
#define RMP_PATHS_HOT_MARGIN	(RMP_PATHS_ONE / 32)
/*
 * A path also runs hot at twice the coolest other path's ECN fraction and
 * this much more: when most paths share congested links, the others'
 * fraction hides the links that are not.
 */
#define RMP_PATHS_COOL_MARGIN	(RMP_PATHS_ONE / 8)
/*
 * Epochs an exploring set waits, at most, after a route tried was given
 * up, before it tries another: the wait doubles with each one given up.
 */
#define RMP_PATHS_EXPLORE_WAIT_MAX	4
/* A live path's entropy is replaced at this many times the best RTT. */
#define RMP_PATHS_RTT_BAD	4

/* xorshift32: cheap, and the same sequence in the kernel and in tests. */
static u32 rmp_paths_random(struct rmp_paths *ps)
{
	u32 x = ps->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ps->rng = x;
	return x;
}

static bool rmp_paths_sport_used(const struct rmp_paths *ps, u16 sport)
{
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++)
		if (ps->path[i].sport == sport)
			return true;
	return false;
}

/* A fresh entropy value, used by no path of the set. */
static u16 rmp_paths_fresh_sport(struct rmp_paths *ps)
{
	u16 sport;

	/* 64 values in use at most, out of 16384: few draws are needed. */
	do {
		sport = RMP_PATHS_SPORT_MIN +
			rmp_paths_random(ps) % (0x10000 - RMP_PATHS_SPORT_MIN);
	} while (rmp_paths_sport_used(ps, sport));
	return sport;
}

/* Give @p a fresh entropy value; what was learnt of the old one goes. */
static void rmp_paths_take_port(struct rmp_path *p, u16 sport, u64 now)
{
	p->sport = sport;
	p->entropy_ns = now;
	p->failed_probes = 0;
	p->losses = 0;
	p->rtt = (struct rmp_rtt){ 0 };
	p->ecn = 0;
	p->hot = 0;
	p->tried_from = 0;
}

static void rmp_paths_replace(struct rmp_paths *ps, struct rmp_path *p,
			      u64 now)
{
	rmp_paths_take_port(p, rmp_paths_fresh_sport(ps), now);
	p->stats.replaced++;
}

/* A packet sent at @sent_ns took @p's current route. */
static bool rmp_paths_current(const struct rmp_path *p, u64 sent_ns)
{
	return sent_ns >= p->entropy_ns;
}

/**
 * rmp_paths_init() - set up a path set, every path live
 * @ps: the path set
 * @cfg: its parameters
 *
 * Return: 0, or -EINVAL for a parameter out of range.
 */
int rmp_paths_init(struct rmp_paths *ps, const struct rmp_paths_cfg *cfg)
{
	u32 i;

	if (!cfg->npaths || cfg->npaths > RMP_PATHS_MAX ||
	    cfg->spray >= RMP_SPRAY_NR || !cfg->dead_after_ns ||
	    !cfg->probe_every_ns ||
	    (cfg->spray == RMP_SPRAY_FLOWLET && !cfg->flowlet_gap_ns))
		return -EINVAL;

	memset(ps, 0, sizeof(*ps));
	ps->cfg = *cfg;
	/* xorshift32 must not start at 0. */
	ps->rng = cfg->seed ^ 0x9e3779b9;
	if (!ps->rng)
		ps->rng = 1;
	ps->live_mask = ~0ULL >> (RMP_PATHS_MAX - cfg->npaths);
	ps->cursor = cfg->npaths - 1;
	/* Path 0 first, so that the others avoid its value. */
	for (i = 0; i < cfg->npaths; i++) {
		ps->weight[i] = RMP_PATHS_WEIGHT_MAX;
		ps->path[i].sport = i ? rmp_paths_fresh_sport(ps) : cfg->sport;
	}
	return 0;
}

/* Live paths in the set. */
static u32 rmp_paths_nlive(const struct rmp_paths *ps)
{
	u64 m = ps->live_mask;
	u32 n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/**
 * rmp_paths_nth_live() - a live path, counting round the set
 * @ps: the path set
 * @n: which: 0 is the live path of lowest index, and @n wraps round the
 *	live paths
 *
 * For packets that are not sprayed but should not all take one route.
 *
 * Return: the index of the live path.
 */
u32 rmp_paths_nth_live(const struct rmp_paths *ps, u32 n)
{
	u32 i;

	n %= rmp_paths_nlive(ps);
	for (i = 0;; i++)
		if (rmp_paths_live(ps, i) && !n--)
			return i;
}

/**
 * rmp_paths_wait() - how long a timer waits, at least, for what the live
 *	paths carry
 * @ps: the path set
 * @least: the timer's own time (ns)
 *
 * What a packet on any live path may take before its lateness says
 * something: the timers that would otherwise misread a queue that builds
 * up for a loss (the requester's ACK timer, a probe's wait) run this long
 * if it is longer than their own time.
 *
 * Return: the largest rmp_rtt_rto() of a live path, or @least if larger
 * (ns).
 */
u64 rmp_paths_wait(const struct rmp_paths *ps, u64 least)
{
	u64 wait = least;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++)
		if (rmp_paths_live(ps, i) &&
		    rmp_rtt_rto(&ps->path[i].rtt) > wait)
			wait = rmp_rtt_rto(&ps->path[i].rtt);
	return wait;
}

/* The live path after @from in index order, wrapping; @from if none. */
static u32 rmp_paths_next_live(const struct rmp_paths *ps, u32 from)
{
	u32 i, idx;

	for (i = 1; i <= ps->cfg.npaths; i++) {
		idx = (from + i) % ps->cfg.npaths;
		if (rmp_paths_live(ps, idx))
			return idx;
	}
	return from;
}

/*
 * The live path with the fewest packets in flight for its weight (all
 * weights equal with @weighted false), rotating on ties: the one after
 * the cursor first. Loads compare as (in flight + 1) / weight, crossed
 * out: no division.
 */
static u32 rmp_paths_pick_least(const struct rmp_paths *ps, bool weighted)
{
	u32 i, idx = ps->cursor, best = ps->cursor, w, best_w = 1;
	u64 load, best_load = 0;
	bool found = false;

	for (i = 0; i < ps->cfg.npaths; i++) {
		if (++idx == ps->cfg.npaths)
			idx = 0;
		if (!rmp_paths_live(ps, idx))
			continue;
		w = weighted ? ps->weight[idx] : 1;
		load = ps->path[idx].inflight + 1ULL;
		if (!found || load * best_w < best_load * w) {
			best = idx;
			best_load = load;
			best_w = w;
		}
		found = true;
	}
	return best;
}

/**
 * rmp_paths_pick() - choose the path of the next packet
 * @ps: the path set
 * @now: the time (ns)
 *
 * Return: the index of a live path.
 */
u32 rmp_paths_pick(struct rmp_paths *ps, u64 now)
{
	bool same_flowlet;

	switch (ps->cfg.spray) {
	case RMP_SPRAY_WEIGHTED:
		ps->cursor = rmp_paths_pick_least(ps, true);
		break;
	case RMP_SPRAY_FLOWLET:
		same_flowlet = ps->picked &&
			       now - ps->last_pick_ns < ps->cfg.flowlet_gap_ns &&
			       rmp_paths_live(ps, ps->cursor);
		if (!same_flowlet)
			ps->cursor = rmp_paths_pick_least(ps, false);
		break;
	default:
		ps->cursor = rmp_paths_next_live(ps, ps->cursor);
		break;
	}
	ps->last_pick_ns = now;
	ps->picked = true;
	return ps->cursor;
}

/**
 * rmp_paths_sent() - a packet left on a path
 * @ps: the path set
 * @idx: the path
 * @bytes: its payload
 * @now: the time (ns)
 */
void rmp_paths_sent(struct rmp_paths *ps, u32 idx, u32 bytes, u64 now)
{
	struct rmp_path *p = &ps->path[idx];

	p->stats.sent++;
	p->stats.sent_bytes += bytes;
	if (!p->inflight++)
		p->stalled_since = now;
}

static void rmp_paths_kill(struct rmp_paths *ps, u32 idx, u64 now)
{
	struct rmp_path *p = &ps->path[idx];

	/* The last live path: no bit set but this one. */
	if (!(ps->live_mask & (ps->live_mask - 1)))
		return;
	ps->live_mask &= ~(1ULL << idx);
	p->losses = 0;
	p->failed_probes = 0;
	p->next_probe_ns = now + ps->cfg.probe_every_ns;
	p->stats.deaths++;
}

/* A packet sent on @p is accounted for, delivered or lost. */
static void rmp_paths_resolved(struct rmp_path *p)
{
	if (p->inflight)
		p->inflight--;
}

/* A dead path that got a packet through is live again. */
static void rmp_paths_revive(struct rmp_paths *ps, u32 idx)
{
	if (rmp_paths_live(ps, idx))
		return;
	ps->live_mask |= 1ULL << idx;
	ps->path[idx].stats.revivals++;
}

/**
 * rmp_paths_delivered() - a packet sent on a path was acknowledged
 * @ps: the path set
 * @idx: the path
 * @bytes: its payload
 * @now: the time (ns)
 * @rtt_ns: from its transmission to its acknowledgment
 * @ecn: the receiver saw it ECN marked
 *
 * A delivery on a dead path (a probe, or a packet that was late) brings it
 * back, unless the packet was sent before the path's entropy was replaced.
 */
void rmp_paths_delivered(struct rmp_paths *ps, u32 idx, u32 bytes, u64 now,
			 u64 rtt_ns, bool ecn)
{
	struct rmp_path *p = &ps->path[idx];
	s32 mark = ecn ? RMP_PATHS_ONE : 0;

	rmp_paths_resolved(p);
	p->stalled_since = now;
	ps->delivered_ns = now;
	if (now - rtt_ns > ps->delivered_sent_ns)
		ps->delivered_sent_ns = now - rtt_ns;
	p->stats.delivered++;
	p->stats.delivered_bytes += bytes;
	if (ecn)
		p->stats.ecn++;
	if (!rmp_paths_current(p, now - rtt_ns))
		return;
	p->losses = 0;
	p->epoch_delivered++;
	p->epoch_marked += ecn;
	ps->epoch_delivered++;
	p->ecn += (mark - (s32)p->ecn) / 8;
	rmp_rtt_sample(&p->rtt, rtt_ns);
	rmp_paths_revive(ps, idx);
}

/**
 * rmp_paths_lost() - a packet sent on a path was declared lost
 * @ps: the path set
 * @idx: the path
 * @sent_ns: when the packet was sent
 * @now: the time (ns)
 *
 * Enough losses in a row on its current route kill a live path. Not for
 * probes: see rmp_paths_probe_lost().
 */
void rmp_paths_lost(struct rmp_paths *ps, u32 idx, u64 sent_ns, u64 now)
{
	struct rmp_path *p = &ps->path[idx];

	rmp_paths_resolved(p);
	p->stats.lost++;
	if (rmp_paths_live(ps, idx) && rmp_paths_current(p, sent_ns) &&
	    ++p->losses >= RMP_PATHS_DEAD_LOSSES)
		rmp_paths_kill(ps, idx, now);
}

/**
 * rmp_paths_forget() - a packet sent on a path is no longer awaited
 * @ps: the path set
 * @idx: the path
 *
 * For a packet given up for no fault of its path (the transport's ACK
 * timeout, which blames no path): it leaves the path's count in flight
 * and nothing else changes.
 */
void rmp_paths_forget(struct rmp_paths *ps, u32 idx)
{
	rmp_paths_resolved(&ps->path[idx]);
}

/* @p's home is due its next probe %RMP_PATHS_HOME_EVERY periods on. */
static void rmp_paths_home_later(const struct rmp_paths *ps,
				 struct rmp_path *p, u64 now)
{
	p->home_probe_ns = now + RMP_PATHS_HOME_EVERY * ps->cfg.probe_every_ns;
}

/**
 * rmp_paths_probe_lost() - a probe of a dead path was declared lost
 * @ps: the path set
 * @idx: the path
 * @now: the time (ns)
 *
 * After %RMP_PATHS_REPLACE_PROBES of them in a row, the path gets a fresh
 * entropy value for its next probes.
 */
void rmp_paths_probe_lost(struct rmp_paths *ps, u32 idx, u64 now)
{
	struct rmp_path *p = &ps->path[idx];

	rmp_paths_resolved(p);
	p->stats.lost++;
	if (rmp_paths_live(ps, idx) ||
	    ++p->failed_probes < RMP_PATHS_REPLACE_PROBES)
		return;
	/*
	 * The first port given up is the home: the others never worked.
	 * A path set that learns late (READ responses) has none yet.
	 */
	if (!p->home_sport && !ps->cfg.late_news) {
		p->home_sport = p->sport;
		p->home_failed = 0;
		p->home_since_ns = now;
		rmp_paths_home_later(ps, p, now);
	}
	rmp_paths_replace(ps, p, now);
}

/**
 * rmp_paths_homes_due() - the paths whose home port is due a probe
 * @ps: the path set
 * @now: the time (ns)
 *
 * The caller sends one new packet from each home port
 * (rmp_paths_take_home()) and reports it with rmp_paths_home_delivered()
 * or rmp_paths_home_lost(), not as the path's own; each home's next probe
 * is then due %RMP_PATHS_HOME_EVERY probe periods later.
 *
 * Return: bit i set for path i, 0 if no home probe is due.
 */
u64 rmp_paths_homes_due(struct rmp_paths *ps, u64 now)
{
	u64 due = 0;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		struct rmp_path *p = &ps->path[i];

		if (p->home_sport && p->home_probe_ns <= now) {
			rmp_paths_home_later(ps, p, now);
			due |= 1ULL << i;
		}
	}
	return due;
}

/**
 * rmp_paths_home_delivered() - a probe of a path's home port got through
 * @ps: the path set
 * @idx: the path
 * @sent_ns: when the probe was sent
 * @now: the time (ns)
 *
 * The route is back: the path takes its home port again, live, its
 * estimates started over, and has no home any more, if the probe's round
 * trip took at most half the smoothed one of the path's current port
 * (or that port has none yet). A home no faster than that is congested,
 * not back from a failure (probes are lost in a queue that overflows as
 * on a dark link): going there would undo what balance did, so the probe
 * counts as a lost one (rmp_paths_home_lost()). A probe sent before the
 * home was taken says nothing.
 */
void rmp_paths_home_delivered(struct rmp_paths *ps, u32 idx, u64 sent_ns,
			      u64 now)
{
	struct rmp_path *p = &ps->path[idx];

	if (!p->home_sport || sent_ns < p->home_since_ns)
		return;
	if (p->rtt.srtt_ns && 2 * (now - sent_ns) > p->rtt.srtt_ns) {
		rmp_paths_home_lost(ps, idx, sent_ns);
		return;
	}
	rmp_paths_take_port(p, p->home_sport, now);
	p->home_sport = 0;
	p->stats.homecomings++;
	rmp_paths_revive(ps, idx);
}

/**
 * rmp_paths_home_lost() - a probe of a path's home port was lost
 * @ps: the path set
 * @idx: the path
 * @sent_ns: when the probe was sent
 *
 * The path itself is not blamed; after %RMP_PATHS_HOME_PROBES such losses
 * the home is forgotten.
 */
void rmp_paths_home_lost(struct rmp_paths *ps, u32 idx, u64 sent_ns)
{
	struct rmp_path *p = &ps->path[idx];

	if (p->home_sport && sent_ns >= p->home_since_ns &&
	    ++p->home_failed >= RMP_PATHS_HOME_PROBES)
		p->home_sport = 0;
}

/*
 * A path whose silence counts: packets in flight, and another path
 * delivered a packet sent after its silence began. Deliveries of packets
 * sent before do not count: after a pause of the whole QP (its
 * acknowledgments held up, its CPU taken), the first that come would
 * otherwise find every path that has not delivered yet silent.
 */
static bool rmp_paths_silent(const struct rmp_paths *ps,
			     const struct rmp_path *p)
{
	return p->inflight && ps->delivered_sent_ns > p->stalled_since;
}

/*
 * When a silent path dies: &rmp_paths_cfg.dead_after_ns into its silence,
 * or later if its own round trip explains a longer one (a queue on its
 * route).
 */
static u64 rmp_paths_dies_at(const struct rmp_paths *ps,
			     const struct rmp_path *p)
{
	u64 wait = rmp_rtt_rto(&p->rtt);

	if (wait < ps->cfg.dead_after_ns)
		wait = ps->cfg.dead_after_ns;
	return p->stalled_since + wait;
}

/* Best smoothed RTT among the live paths, 0 before any sample. */
static u32 rmp_paths_best_srtt(const struct rmp_paths *ps)
{
	const struct rmp_path *p;
	u32 i, srtt = 0;

	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (rmp_paths_live(ps, i) && p->rtt.srtt_ns &&
		    (!srtt || p->rtt.srtt_ns < srtt))
			srtt = p->rtt.srtt_ns;
	}
	return srtt;
}

/* The fraction of @p's deliveries in the epoch that were marked. */
static u64 rmp_paths_marked(const struct rmp_path *p)
{
	return (u64)p->epoch_marked * RMP_PATHS_ONE / p->epoch_delivered;
}

/*
 * @p's marks in the epoch, in fractions of %RMP_PATHS_ONE, against the
 * other live paths' (@delivered, @marked in all) and the coolest other's
 * (@cool, U64_MAX if none delivered): clearly more than either; or its RTT
 * against the best (@best_srtt).
 */
static bool rmp_paths_hot(const struct rmp_path *p, u32 delivered,
			  u32 marked, u64 cool, u32 best_srtt)
{
	u64 mine, rest;

	if (best_srtt && p->rtt.srtt_ns / RMP_PATHS_RTT_BAD > best_srtt)
		return true;
	if (!p->epoch_delivered || delivered == p->epoch_delivered)
		return false;
	mine = rmp_paths_marked(p);
	rest = (u64)(marked - p->epoch_marked) * RMP_PATHS_ONE /
	       (delivered - p->epoch_delivered);
	return mine >= 2 * rest + RMP_PATHS_HOT_MARGIN ||
	       (cool != U64_MAX && mine >= 2 * cool + RMP_PATHS_COOL_MARGIN);
}

/* @p is a hotter path to leave than @than (NULL: none yet). */
static bool rmp_paths_hotter(const struct rmp_path *p,
			     const struct rmp_path *than)
{
	u64 mine, theirs;

	if (!than)
		return true;
	mine = (u64)p->epoch_marked * than->epoch_delivered;
	theirs = (u64)than->epoch_marked * p->epoch_delivered;
	return mine > theirs ||
	       (mine == theirs && p->rtt.srtt_ns > than->rtt.srtt_ns);
}

/*
 * The epoch's marks are not @hottest's alone: a thirty-second or more of
 * the other live paths' deliveries (@delivered, @marked in all) were
 * marked too.
 */
static bool rmp_paths_marked_elsewhere(const struct rmp_path *hottest,
				       u32 delivered, u32 marked)
{
	u32 rest = delivered - hottest->epoch_delivered;
	u32 rest_marked = marked - hottest->epoch_marked;

	return rest && (u64)rest_marked * RMP_PATHS_ONE >=
		       (u64)rest * RMP_PATHS_HOT_MARGIN;
}

/* Start the epoch's counts over. */
static void rmp_paths_epoch_reset(struct rmp_paths *ps)
{
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		ps->path[i].epoch_delivered = 0;
		ps->path[i].epoch_marked = 0;
	}
	ps->epoch_delivered = 0;
}

/*
 * Judge the route a path tried in the epoch that ends: kept if its
 * deliveries were marked clearly less (half) than on the route it left,
 * else the path goes back, and the set waits longer before it explores
 * again. Return: true if the path went back (the epoch's move).
 */
static bool rmp_paths_judge_trial(struct rmp_paths *ps, u64 now)
{
	struct rmp_path *p;
	u16 from;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (!p->tried_from)
			continue;
		from = p->tried_from;
		p->tried_from = 0;
		if (!rmp_paths_live(ps, i))
			return false;
		if (p->epoch_delivered &&
		    2 * rmp_paths_marked(p) < p->tried_marked) {
			ps->explore_backoff = 0;
			return false;
		}
		if (!rmp_paths_sport_used(ps, from))
			rmp_paths_take_port(p, from, now);
		ps->explore_backoff = ps->explore_backoff * 2 + 1;
		if (ps->explore_backoff > RMP_PATHS_EXPLORE_WAIT_MAX)
			ps->explore_backoff = RMP_PATHS_EXPLORE_WAIT_MAX;
		ps->explore_wait = ps->explore_backoff;
		return true;
	}
	return false;
}

/*
 * End of a balance epoch: a route tried in it is judged; each live path
 * runs hot or cools down; the hottest that ran hot long enough leaves its
 * route, or, in an epoch marked everywhere, the most marked: at once if it
 * runs hot, else to try a route (explore) when the set is not waiting.
 * The counts start over.
 */
static void rmp_paths_balance(struct rmp_paths *ps, u64 now)
{
	struct rmp_path *p, *leave = NULL, *hottest = NULL;
	u32 i, delivered = 0, marked = 0, best_srtt, coolest = U32_MAX;
	/* The two lowest fractions marked among the live paths. */
	u64 cool[2] = { U64_MAX, U64_MAX }, frac;
	bool explore = false;
	u16 from;

	if (rmp_paths_judge_trial(ps, now))
		goto moved;

	/* Round trips learnt late say nothing of the route. */
	best_srtt = ps->cfg.late_news ? 0 : rmp_paths_best_srtt(ps);

	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (!rmp_paths_live(ps, i))
			continue;
		delivered += p->epoch_delivered;
		marked += p->epoch_marked;
		if (!p->epoch_delivered)
			continue;
		frac = rmp_paths_marked(p);
		if (frac < cool[0]) {
			cool[1] = cool[0];
			cool[0] = frac;
			coolest = i;
		} else if (frac < cool[1]) {
			cool[1] = frac;
		}
	}
	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (!rmp_paths_live(ps, i) ||
		    !rmp_paths_hot(p, delivered, marked, cool[i == coolest],
				   best_srtt))
			p->hot = 0;
		else if (p->hot < RMP_PATHS_HOT_EPOCHS)
			p->hot++;
		if (p->hot >= RMP_PATHS_HOT_EPOCHS && rmp_paths_hotter(p, leave))
			leave = p;
		if (rmp_paths_live(ps, i) && p->epoch_delivered &&
		    rmp_paths_hotter(p, hottest))
			hottest = p;
	}
	if (!leave && hottest &&
	    rmp_paths_marked_elsewhere(hottest, delivered, marked)) {
		if (hottest->hot) {
			leave = hottest;
		} else if (!ps->explore_wait) {
			leave = hottest;
			explore = true;
			leave->tried_marked = rmp_paths_marked(leave);
		} else {
			ps->explore_wait--;
		}
	}
	if (!leave) {
		rmp_paths_epoch_reset(ps);
		return;
	}
	from = leave->sport;
	rmp_paths_replace(ps, leave, now);
	if (explore)
		leave->tried_from = from;
moved:
	rmp_paths_epoch_reset(ps);
	/*
	 * The queues the move relieves take a while to drain: judge the
	 * others again only on epochs that start after it.
	 */
	for (i = 0; i < ps->cfg.npaths; i++)
		ps->path[i].hot = 0;
}

/* Weight of a live path: less for ECN marks and for RTT above the best. */
static u32 rmp_paths_weight(const struct rmp_path *p, u32 best_srtt)
{
	u64 w = (u64)RMP_PATHS_WEIGHT_MAX * (RMP_PATHS_ONE - p->ecn) /
		RMP_PATHS_ONE;

	if (best_srtt && p->rtt.srtt_ns > best_srtt)
		w = w * best_srtt / p->rtt.srtt_ns;
	return w ? w : 1;
}

/**
 * rmp_paths_tick() - act on time: silent paths die, congested routes are
 *	left, weights follow the estimates
 * @ps: the path set
 * @now: the time (ns)
 *
 * Call it at rmp_paths_deadline() and whenever convenient (once per run of
 * the transport); it costs one pass over the paths.
 */
void rmp_paths_tick(struct rmp_paths *ps, u64 now)
{
	struct rmp_path *p;
	u32 i, best_srtt;

	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (rmp_paths_live(ps, i) && !ps->cfg.late_news &&
		    rmp_paths_silent(ps, p) && now >= rmp_paths_dies_at(ps, p))
			rmp_paths_kill(ps, i, now);
	}
	if (ps->epoch_delivered >= RMP_PATHS_EPOCH * rmp_paths_nlive(ps))
		rmp_paths_balance(ps, now);
	best_srtt = rmp_paths_best_srtt(ps);
	for (i = 0; i < ps->cfg.npaths; i++)
		if (rmp_paths_live(ps, i))
			ps->weight[i] = rmp_paths_weight(&ps->path[i], best_srtt);
}

/**
 * rmp_paths_silent_kill() - the caller found a live path silent
 * @ps: the path set, with &rmp_paths_cfg.late_news
 * @idx: the path
 * @now: the time (ns)
 *
 * It dies as a path silent for &rmp_paths_cfg.dead_after_ns does, unless
 * it is dead already or the last live one.
 */
void rmp_paths_silent_kill(struct rmp_paths *ps, u32 idx, u64 now)
{
	if (rmp_paths_live(ps, idx))
		rmp_paths_kill(ps, idx, now);
}

/**
 * rmp_paths_probes_due() - the dead paths to probe now
 * @ps: the path set
 * @now: the time (ns)
 *
 * The caller sends one packet on each (rmp_paths_take_probe()) and reports
 * it like any other; each path's next probe is then due a period later.
 * Paths that died together come due together, so all of them are returned.
 *
 * Return: bit i set for path i, 0 if no probe is due.
 */
u64 rmp_paths_probes_due(struct rmp_paths *ps, u64 now)
{
	u64 due = 0;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		if (!rmp_paths_live(ps, i) && ps->path[i].next_probe_ns <= now) {
			ps->path[i].next_probe_ns = now + ps->cfg.probe_every_ns;
			due |= 1ULL << i;
		}
	}
	return due;
}

/**
 * rmp_paths_deadline() - when the path set next has work
 * @ps: the path set
 *
 * Return: the earliest time (ns) a live path whose silence counts would
 * be declared dead or a dead one probed, or 0 if neither can happen (the
 * last live path is never declared dead; with &rmp_paths_cfg.late_news
 * only the caller declares a path silent).
 */
u64 rmp_paths_deadline(const struct rmp_paths *ps)
{
	/* The last live path never dies: no deadline of its own. */
	bool last = !(ps->live_mask & (ps->live_mask - 1));
	const struct rmp_path *p;
	u64 at, first = 0;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		if (p->home_sport && (!first || p->home_probe_ns < first))
			first = p->home_probe_ns;
		if (rmp_paths_live(ps, i) &&
		    (ps->cfg.late_news || !rmp_paths_silent(ps, p) || last))
			continue;
		at = rmp_paths_live(ps, i) ? rmp_paths_dies_at(ps, p) :
					p->next_probe_ns;
		if (!first || at < first)
			first = at;
	}
	return first;
}
