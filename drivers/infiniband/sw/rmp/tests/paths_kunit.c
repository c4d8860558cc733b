// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the path set: entropy values, spraying policies, path
 * death, probing and revival, entropy replacement; time is a fake clock.
 */
#include <kunit/test.h>

#include "../engine/paths.h"

#define US	1000ULL
#define MS	(1000 * US)
#define LEN	1024U	/* payload of most packets */

static const struct rmp_paths_cfg base_cfg = {
	.npaths = 4,
	.spray = RMP_SPRAY_RR,
	.sport = 0xd123,
	.seed = 0x1234,
	.dead_after_ns = 10 * MS,
	.probe_every_ns = 5 * MS,
	.flowlet_gap_ns = 50 * US,
};

/* A path set is too big for a kernel stack. */
static struct rmp_paths *new_set(struct kunit *test)
{
	struct rmp_paths *ps = kunit_kzalloc(test, sizeof(*ps), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ps);
	return ps;
}

static void setup(struct kunit *test, struct rmp_paths *ps, u32 npaths,
		  u8 spray)
{
	struct rmp_paths_cfg cfg = base_cfg;

	cfg.npaths = npaths;
	cfg.spray = spray;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
}

/* Send one packet on @idx at @now and have it delivered @rtt later. */
static void roundtrip(struct rmp_paths *ps, u32 idx, u64 now, u64 rtt,
		      bool ecn)
{
	rmp_paths_sent(ps, idx, LEN, now);
	rmp_paths_delivered(ps, idx, LEN, now + rtt, rtt, ecn);
}

/* @n round trips on @idx from @t, 100 us apart; every @mark-th ECN marked. */
static void traffic(struct rmp_paths *ps, u32 idx, int n, u64 t, u64 rtt,
		    int mark)
{
	int i;

	for (i = 0; i < n; i++)
		roundtrip(ps, idx, t + i * 100 * US, rtt, mark && !(i % mark));
}

/* Live paths in the set. */
static u32 nlive(const struct rmp_paths *ps)
{
	u32 i, n = 0;

	for (i = 0; i < ps->cfg.npaths; i++)
		n += rmp_paths_live(ps, i);
	return n;
}

/* Lose RMP_PATHS_DEAD_LOSSES packets in a row on @idx. */
static void kill_path(struct rmp_paths *ps, u32 idx, u64 now)
{
	int i;

	for (i = 0; i < RMP_PATHS_DEAD_LOSSES; i++) {
		rmp_paths_sent(ps, idx, LEN, now);
		rmp_paths_lost(ps, idx, now, now);
	}
}

/* @got is @want, give or take one. */
static void expect_about(struct kunit *test, u32 got, u32 want)
{
	KUNIT_EXPECT_LE(test, got, want + 1);
	KUNIT_EXPECT_GE(test, got + 1, want);
}

struct init_case {
	const char *desc;
	u32 npaths;
	u8 spray;
	u64 dead_after_ns;
	u64 probe_every_ns;
	u64 flowlet_gap_ns;
	int err;
};

static void init_desc(const struct init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct init_case init_cases[] = {
	{ "no path", 0, RMP_SPRAY_RR, MS, MS, 0, -EINVAL },
	{ "one path", 1, RMP_SPRAY_RR, MS, MS, 0, 0 },
	{ "maximum", RMP_PATHS_MAX, RMP_SPRAY_RR, MS, MS, 0, 0 },
	{ "one over the maximum", RMP_PATHS_MAX + 1, RMP_SPRAY_RR, MS, MS, 0,
	  -EINVAL },
	{ "unknown policy", 4, RMP_SPRAY_NR, MS, MS, 0, -EINVAL },
	{ "no death time", 4, RMP_SPRAY_RR, 0, MS, 0, -EINVAL },
	{ "no probe period", 4, RMP_SPRAY_RR, MS, 0, 0, -EINVAL },
	{ "flowlet without a gap", 4, RMP_SPRAY_FLOWLET, MS, MS, 0, -EINVAL },
	{ "flowlet with a gap", 4, RMP_SPRAY_FLOWLET, MS, MS, US, 0 },
	{ "weighted", 4, RMP_SPRAY_WEIGHTED, MS, MS, 0, 0 },
};

KUNIT_ARRAY_PARAM(init, init_cases, init_desc);

static void rmp_paths_init__validates(struct kunit *test)
{
	const struct init_case *c = test->param_value;
	struct rmp_paths_cfg cfg = base_cfg;
	struct rmp_paths *ps = new_set(test);

	cfg.npaths = c->npaths;
	cfg.spray = c->spray;
	cfg.dead_after_ns = c->dead_after_ns;
	cfg.probe_every_ns = c->probe_every_ns;
	cfg.flowlet_gap_ns = c->flowlet_gap_ns;
	KUNIT_EXPECT_EQ(test, rmp_paths_init(ps, &cfg), c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, nlive(ps), c->npaths);
}

static void rmp_paths_init__distinct_entropy(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test), *again = new_set(test);
	struct rmp_paths *other = new_set(test);
	struct rmp_paths_cfg cfg = base_cfg;
	u32 i, j, differ = 0;

	setup(test, ps, RMP_PATHS_MAX, RMP_SPRAY_RR);
	setup(test, again, RMP_PATHS_MAX, RMP_SPRAY_RR);
	cfg.npaths = RMP_PATHS_MAX;
	cfg.seed = 0x4321;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(other, &cfg), 0);

	KUNIT_EXPECT_EQ(test, ps->path[0].sport, base_cfg.sport);
	for (i = 0; i < RMP_PATHS_MAX; i++) {
		KUNIT_EXPECT_GE(test, ps->path[i].sport, RMP_PATHS_SPORT_MIN);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, ps->path[i].sport,
					ps->path[j].sport);
		/* The same seed gives the same values; another does not. */
		KUNIT_EXPECT_EQ(test, ps->path[i].sport, again->path[i].sport);
		differ += ps->path[i].sport != other->path[i].sport;
	}
	KUNIT_EXPECT_EQ(test, other->path[0].sport, base_cfg.sport);
	KUNIT_EXPECT_GE(test, differ, RMP_PATHS_MAX - 2);
}

/* 64 draws out of 16384 values collide for about one seed in eight. */
static void rmp_paths_init__never_repeats_entropy(struct kunit *test)
{
	struct rmp_paths_cfg cfg = base_cfg;
	u32 seed, i, j, repeats = 0;
	struct rmp_paths *ps = new_set(test);

	cfg.npaths = RMP_PATHS_MAX;
	for (seed = 0; seed < 100; seed++) {
		cfg.seed = seed;
		KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
		for (i = 0; i < RMP_PATHS_MAX; i++)
			for (j = 0; j < i; j++)
				repeats += ps->path[i].sport == ps->path[j].sport;
	}
	KUNIT_EXPECT_EQ(test, repeats, 0);
}

static void rmp_paths_pick__round_robin_is_even(struct kunit *test)
{
	u32 count[RMP_PATHS_MAX] = {}, i;
	struct rmp_paths *ps = new_set(test);

	setup(test, ps, RMP_PATHS_MAX, RMP_SPRAY_RR);
	for (i = 0; i < 100 * RMP_PATHS_MAX; i++)
		count[rmp_paths_pick(ps, i * US)]++;
	for (i = 0; i < RMP_PATHS_MAX; i++)
		KUNIT_EXPECT_EQ(test, count[i], 100);
}

static void rmp_paths_pick__skips_dead_paths(struct kunit *test)
{
	u32 count[4] = {}, i;
	struct rmp_paths *ps = new_set(test);

	setup(test, ps, 4, RMP_SPRAY_RR);
	kill_path(ps, 2, MS);
	KUNIT_ASSERT_FALSE(test, rmp_paths_live(ps, 2));
	KUNIT_EXPECT_EQ(test, nlive(ps), 3);
	for (i = 0; i < 300; i++)
		count[rmp_paths_pick(ps, MS + i * US)]++;
	KUNIT_EXPECT_EQ(test, count[0], 100);
	KUNIT_EXPECT_EQ(test, count[1], 100);
	KUNIT_EXPECT_EQ(test, count[2], 0);
	KUNIT_EXPECT_EQ(test, count[3], 100);
}

/* Control packets count round the live paths only. */
static void rmp_paths_nth_live__wraps_over_live_paths(struct kunit *test)
{
	static const u32 want[] = { 0, 2, 0, 2 };
	struct rmp_paths *ps = new_set(test);
	u32 n;

	setup(test, ps, 4, RMP_SPRAY_RR);
	for (n = 0; n < 8; n++)
		KUNIT_EXPECT_EQ(test, rmp_paths_nth_live(ps, n), n % 4);
	kill_path(ps, 1, MS);
	kill_path(ps, 3, MS);
	for (n = 0; n < 4; n++)
		KUNIT_EXPECT_EQ(test, rmp_paths_nth_live(ps, n), want[n]);
	/* Past 2^32 requests, still a live one. */
	KUNIT_EXPECT_EQ(test, rmp_paths_nth_live(ps, U32_MAX), 2);
}

/*
 * Spray @n packets from *@t, one every 10 us, each delivered @delay[i]
 * packets after it (path i's round trip, in those 10 us steps), none
 * marked; @count[i] counts path i's. The weights stay as they are: no
 * tick.
 */
static void spray(struct kunit *test, struct rmp_paths *ps, u32 n,
		  const u32 *delay, u32 *count, u64 *t)
{
	u32 *sent_at = kunit_kzalloc(test, 4 * n * sizeof(u32), GFP_KERNEL);
	u32 head[4] = {}, tail[4] = {}, step, i, idx;

	KUNIT_ASSERT_NOT_NULL(test, sent_at);
	for (step = 0; step < n; step++, *t += 10 * US) {
		for (i = 0; i < 4; i++) {
			while (head[i] != tail[i] &&
			       sent_at[i * n + head[i]] + delay[i] <= step) {
				head[i]++;
				rmp_paths_delivered(ps, i, LEN, *t,
						    delay[i] * 10 * US, false);
			}
		}
		idx = rmp_paths_pick(ps, *t);
		KUNIT_ASSERT_LT(test, idx, 4U);
		rmp_paths_sent(ps, idx, LEN, *t);
		sent_at[idx * n + tail[idx]++] = step;
		count[idx]++;
	}
}

static void rmp_paths_pick__weighted_avoids_ecn(struct kunit *test)
{
	static const u32 delay[4] = { 16, 16, 16, 16 };
	u32 count[4] = {}, i, w, others;
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;

	setup(test, ps, 4, RMP_SPRAY_WEIGHTED);
	/* Clean paths, nothing in flight: equal shares, in turn. */
	for (i = 0; i < 400; i++)
		count[rmp_paths_pick(ps, t)]++;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, count[i], 100);

	/* Path 1 has every fourth delivery marked: a quarter. */
	traffic(ps, 0, 64, t, 20 * US, 0);
	traffic(ps, 1, 64, t, 20 * US, 4);
	traffic(ps, 2, 64, t, 20 * US, 0);
	traffic(ps, 3, 64, t, 20 * US, 0);
	t += 64 * 100 * US;
	rmp_paths_tick(ps, t);
	w = ps->weight[1];
	KUNIT_EXPECT_LT(test, w, ps->weight[0]);
	KUNIT_EXPECT_EQ(test, ps->weight[0], RMP_PATHS_WEIGHT_MAX);
	/* One epoch of marks is congestion to weigh, not yet a route to leave. */
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 0);

	/*
	 * Equal round trips: each path holds packets in flight in proportion
	 * to its weight, less one, and takes new ones at that rate.
	 */
	memset(count, 0, sizeof(count));
	spray(test, ps, 4000, delay, count, &t);
	kunit_info(test, "weight %u of %u: %u, %u, %u, %u packets\n", w,
		   RMP_PATHS_WEIGHT_MAX, count[0], count[1], count[2],
		   count[3]);
	/* Against the mean of the others (ties go to the path after it). */
	others = count[0] + count[2] + count[3];
	KUNIT_EXPECT_LT(test, count[1] * RMP_PATHS_WEIGHT_MAX * 3, others * w);
	KUNIT_EXPECT_GT(test, count[1] * RMP_PATHS_WEIGHT_MAX * 3 * 4,
			others * w * 3);
}

/*
 * Paths 0 and 1 hashed onto one link, which queues: their packets take
 * four times as long, so they hold more in flight and take fewer new
 * ones, each a third to a quarter of what a path on a free link takes.
 * Equal shares would give that link half the packets.
 */
static void rmp_paths_pick__weighted_avoids_queued_routes(struct kunit *test)
{
	static const u32 delay[4] = { 32, 32, 8, 8 };
	struct rmp_paths *ps = new_set(test);
	u32 count[4] = {};
	u64 t = MS;

	setup(test, ps, 4, RMP_SPRAY_WEIGHTED);
	spray(test, ps, 4000, delay, count, &t);
	kunit_info(test, "%u, %u, %u, %u packets\n", count[0], count[1],
		   count[2], count[3]);
	KUNIT_EXPECT_LE(test, (count[0] + count[1]) * 3, count[2] + count[3]);
	KUNIT_EXPECT_GT(test, (count[0] + count[1]) * 5, count[2] + count[3]);
}

static void rmp_paths_pick__weighted_skips_dead_paths(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u32 count[4] = {}, i;
	u64 t = MS;

	setup(test, ps, 4, RMP_SPRAY_WEIGHTED);
	kill_path(ps, 1, t);
	for (i = 0; i < 300; i++)
		count[rmp_paths_pick(ps, t)]++;
	KUNIT_EXPECT_EQ(test, count[0], 100);
	KUNIT_EXPECT_EQ(test, count[1], 0);
	KUNIT_EXPECT_EQ(test, count[2], 100);
	KUNIT_EXPECT_EQ(test, count[3], 100);
	/* A delivered probe brings it back into the rotation. */
	t += base_cfg.probe_every_ns;
	KUNIT_ASSERT_EQ(test, rmp_paths_probes_due(ps, t), 1ULL << 1);
	roundtrip(ps, 1, t, 20 * US, false);
	memset(count, 0, sizeof(count));
	for (i = 0; i < 400; i++)
		count[rmp_paths_pick(ps, t)]++;
	for (i = 0; i < 4; i++)
		expect_about(test, count[i], 100);
}

static void rmp_paths_pick__weighted_avoids_slow_paths(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;

	setup(test, ps, 2, RMP_SPRAY_WEIGHTED);
	traffic(ps, 0, 32, t, 20 * US, 0);
	traffic(ps, 1, 32, t, 40 * US, 0);
	t += 32 * 100 * US;
	rmp_paths_tick(ps, t);
	/* Twice the RTT: half the weight; not yet a route to leave. */
	KUNIT_EXPECT_EQ(test, ps->weight[0], RMP_PATHS_WEIGHT_MAX);
	KUNIT_EXPECT_EQ(test, ps->weight[1], RMP_PATHS_WEIGHT_MAX / 2);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 0);
}

static void rmp_paths_pick__flowlets(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u32 first, second;
	u64 t = MS;
	int i;

	setup(test, ps, 4, RMP_SPRAY_FLOWLET);
	first = rmp_paths_pick(ps, t);
	rmp_paths_sent(ps, first, LEN, t);
	/* Back to back: the same path, whatever it has in flight. */
	for (i = 0; i < 10; i++) {
		t += 10 * US;
		KUNIT_EXPECT_EQ(test, rmp_paths_pick(ps, t), first);
		rmp_paths_sent(ps, first, LEN, t);
	}
	/* A gap: the path with the fewest packets in flight. */
	t += base_cfg.flowlet_gap_ns;
	second = rmp_paths_pick(ps, t);
	KUNIT_EXPECT_NE(test, second, first);
	KUNIT_EXPECT_EQ(test, ps->path[second].inflight, 0);
	/* A flowlet whose path died moves at once. */
	kill_path(ps, second, t);
	t += US;
	KUNIT_EXPECT_NE(test, rmp_paths_pick(ps, t), second);
}

static void rmp_paths_tick__silent_path_dies(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;

	setup(test, ps, 4, RMP_SPRAY_RR);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	rmp_paths_sent(ps, 2, LEN, t);
	rmp_paths_sent(ps, 2, LEN, t + US);
	/* Nobody delivered: silence is nobody's fault yet. */
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	/* A packet sent with path 2's first arrives: no verdict yet. */
	roundtrip(ps, 0, t, 20 * US, false);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	/* One sent after it arrives; path 2 says nothing. */
	roundtrip(ps, 0, t + US, 20 * US, false);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps),
			t + base_cfg.dead_after_ns);
	rmp_paths_tick(ps, t + base_cfg.dead_after_ns - 1);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 2));
	rmp_paths_tick(ps, t + base_cfg.dead_after_ns);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 2));
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.deaths, 1);
	KUNIT_EXPECT_EQ(test, nlive(ps), 3);
	/* Now the deadline is its first probe. */
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps),
			t + base_cfg.dead_after_ns + base_cfg.probe_every_ns);
}

/*
 * A path set that hears of deliveries late (late_news) times no silence
 * itself: the same silence kills nothing and sets no deadline; its
 * caller kills the path (rmp_paths_silent_kill()), never the last one.
 */
static void rmp_paths_tick__late_news_silence_is_the_callers(struct kunit *test)
{
	struct rmp_paths_cfg cfg = base_cfg;
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;
	u32 i;

	cfg.late_news = true;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
	rmp_paths_sent(ps, 2, LEN, t);
	roundtrip(ps, 0, t, 20 * US, false);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	rmp_paths_tick(ps, t + 100 * cfg.dead_after_ns);
	KUNIT_EXPECT_EQ(test, nlive(ps), 4);
	rmp_paths_silent_kill(ps, 2, t + 100 * cfg.dead_after_ns);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 2));
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.deaths, 1);
	/* Dead already: nothing more. */
	rmp_paths_silent_kill(ps, 2, t + 101 * cfg.dead_after_ns);
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.deaths, 1);
	/* Its probe is the only deadline. */
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps),
			t + 100 * cfg.dead_after_ns + cfg.probe_every_ns);
	for (i = 0; i < 4; i++)
		rmp_paths_silent_kill(ps, i, t + 102 * cfg.dead_after_ns);
	KUNIT_EXPECT_EQ(test, nlive(ps), 1);
}

/*
 * When every path falls silent at once, none is to blame; nor when the
 * first of them speaks again.
 */
static void rmp_paths_tick__all_silent_none_dies(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;
	u32 i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	for (i = 0; i < 4; i++)
		roundtrip(ps, i, t, 20 * US, false);
	for (i = 0; i < 4; i++)
		rmp_paths_sent(ps, i, LEN, t + MS);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	rmp_paths_tick(ps, t + 100 * base_cfg.dead_after_ns);
	KUNIT_EXPECT_EQ(test, nlive(ps), 4);
	/*
	 * The pause ends: path 0's packet, sent with the others, comes
	 * first. The others' are as late as it was: none is silent.
	 */
	rmp_paths_delivered(ps, 0, LEN, t + 101 * base_cfg.dead_after_ns,
			    101 * base_cfg.dead_after_ns - MS, false);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	rmp_paths_tick(ps, t + 101 * base_cfg.dead_after_ns);
	KUNIT_EXPECT_EQ(test, nlive(ps), 4);
}

static void rmp_paths_tick__delivery_restarts_the_clock(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;

	setup(test, ps, 2, RMP_SPRAY_RR);
	rmp_paths_sent(ps, 1, LEN, t + 7 * MS);
	rmp_paths_sent(ps, 1, LEN, t + 7 * MS);
	rmp_paths_delivered(ps, 1, LEN, t + 8 * MS, MS, false);
	/* Path 0 goes on delivering; path 1's silence counts from 8 ms. */
	roundtrip(ps, 0, t + 9 * MS, 20 * US, false);
	rmp_paths_tick(ps, t + 12 * MS);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	rmp_paths_tick(ps, t + 18 * MS);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 1));
}

/*
 * A path whose round trip is longer than the death time (a queue on its
 * route) is silent for its RTT and four deviations before it dies, not
 * for the death time.
 */
static void rmp_paths_tick__slow_path_silence_waits_its_round_trip(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS, rto;

	setup(test, ps, 2, RMP_SPRAY_RR);
	/* Path 1: a 20 ms round trip, then one of 28 ms: srtt 21, rttvar 9.5. */
	roundtrip(ps, 1, t, 20 * MS, false);
	roundtrip(ps, 1, t + 20 * MS, 28 * MS, false);
	rto = rmp_rtt_rto(&ps->path[1].rtt);
	KUNIT_EXPECT_EQ(test, rto, 59 * MS);
	KUNIT_ASSERT_GT(test, rto, base_cfg.dead_after_ns);
	t += 50 * MS;
	rmp_paths_sent(ps, 1, LEN, t);
	roundtrip(ps, 0, t + MS, 20 * US, false);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), t + rto);
	rmp_paths_tick(ps, t + base_cfg.dead_after_ns);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	rmp_paths_tick(ps, t + rto - 1);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	rmp_paths_tick(ps, t + rto);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 1));
}

/*
 * A timer's wait is its own time or the slowest live path's round trip
 * and four deviations, whichever is longer: dead paths and paths with no
 * sample do not count.
 */
static void rmp_paths_wait__slowest_live_path(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);

	setup(test, ps, 3, RMP_SPRAY_RR);
	KUNIT_EXPECT_EQ(test, rmp_paths_wait(ps, 0), 0);
	KUNIT_EXPECT_EQ(test, rmp_paths_wait(ps, MS), MS);
	roundtrip(ps, 0, MS, 2 * MS, false);
	roundtrip(ps, 1, MS, 6 * MS, false);
	/* First samples: rttvar is half the RTT, the RTO three RTTs. */
	KUNIT_EXPECT_EQ(test, rmp_paths_wait(ps, MS), 18 * MS);
	KUNIT_EXPECT_EQ(test, rmp_paths_wait(ps, 20 * MS), 20 * MS);
	rmp_paths_silent_kill(ps, 1, 10 * MS);
	KUNIT_EXPECT_EQ(test, rmp_paths_wait(ps, MS), 6 * MS);
}

static void rmp_paths_lost__losses_in_a_row_kill(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;
	int i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	/* A delivery between losses keeps the path. */
	for (i = 0; i < 10; i++) {
		rmp_paths_sent(ps, 1, LEN, t);
		rmp_paths_lost(ps, 1, t, t);
		rmp_paths_sent(ps, 1, LEN, t);
		rmp_paths_lost(ps, 1, t, t);
		roundtrip(ps, 1, t, 20 * US, false);
	}
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.lost, 20);
	kill_path(ps, 1, t);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 1));
	KUNIT_EXPECT_EQ(test, ps->path[1].inflight, 0);
}

static void rmp_paths_kill__last_path_lives(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;

	setup(test, ps, 2, RMP_SPRAY_RR);
	kill_path(ps, 0, t);
	kill_path(ps, 1, t);
	rmp_paths_sent(ps, 1, LEN, t);
	rmp_paths_tick(ps, t + 100 * MS);
	KUNIT_EXPECT_EQ(test, nlive(ps), 1);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 0));
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	KUNIT_EXPECT_EQ(test, rmp_paths_pick(ps, t), 1);
	/* Path 1 cannot die: only path 0's probes are ever due. */
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps),
			ps->path[0].next_probe_ns);

	setup(test, ps, 1, RMP_SPRAY_RR);
	rmp_paths_sent(ps, 0, LEN, t);
	KUNIT_EXPECT_EQ(test, rmp_paths_deadline(ps), 0);
	kill_path(ps, 0, t);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 0));
	KUNIT_EXPECT_EQ(test, rmp_paths_pick(ps, t), 0);
	KUNIT_EXPECT_EQ(test, rmp_paths_probes_due(ps, t + 100 * MS), 0ULL);
}

static void rmp_paths_probe__revives(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS, died = MS;
	u32 i, count[4] = {};

	setup(test, ps, 4, RMP_SPRAY_RR);
	kill_path(ps, 3, died);
	KUNIT_EXPECT_EQ(test, rmp_paths_probes_due(ps, died), 0ULL);
	t = died + base_cfg.probe_every_ns - 1;
	KUNIT_EXPECT_EQ(test, rmp_paths_probes_due(ps, t), 0ULL);
	t++;
	KUNIT_EXPECT_EQ(test, rmp_paths_probes_due(ps, t), 1ULL << 3);
	/* Not again until a period later. */
	KUNIT_EXPECT_EQ(test, rmp_paths_probes_due(ps, t), 0ULL);
	rmp_paths_sent(ps, 3, LEN, t);
	rmp_paths_delivered(ps, 3, LEN, t + 20 * US, 20 * US, false);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 3));
	KUNIT_EXPECT_EQ(test, ps->path[3].stats.revivals, 1);
	KUNIT_EXPECT_EQ(test, nlive(ps), 4);
	for (i = 0; i < 400; i++)
		count[rmp_paths_pick(ps, t)]++;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, count[i], 100);
}

/*
 * Paths that died together come due together, each is probed once, the
 * lowest first, and one that came back meanwhile is not probed.
 */
static void rmp_paths_probe__all_due_together(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS, due;

	setup(test, ps, 8, RMP_SPRAY_RR);
	kill_path(ps, 5, t);
	kill_path(ps, 2, t);
	kill_path(ps, 6, t);
	t += base_cfg.probe_every_ns;
	due = rmp_paths_probes_due(ps, t);
	KUNIT_EXPECT_EQ(test, due, (1ULL << 2) | (1ULL << 5) | (1ULL << 6));
	KUNIT_EXPECT_EQ(test, rmp_paths_take_probe(ps, &due), 2);
	rmp_paths_sent(ps, 5, LEN, t);
	rmp_paths_delivered(ps, 5, LEN, t + 20 * US, 20 * US, false);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 5));
	KUNIT_EXPECT_EQ(test, rmp_paths_take_probe(ps, &due), 6);
	KUNIT_EXPECT_EQ(test, rmp_paths_take_probe(ps, &due), -ENOENT);
	KUNIT_EXPECT_EQ(test, due, 0ULL);
}

static void rmp_paths_probe__lost_probes_replace_entropy(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t = MS, due;
	int i, idx;
	u16 old;
	u32 j;

	setup(test, ps, 4, RMP_SPRAY_RR);
	kill_path(ps, 2, t);
	old = ps->path[2].sport;
	for (i = 0; i < RMP_PATHS_REPLACE_PROBES; i++) {
		KUNIT_EXPECT_EQ(test, ps->path[2].sport, old);
		t += base_cfg.probe_every_ns;
		due = rmp_paths_probes_due(ps, t);
		idx = rmp_paths_take_probe(ps, &due);
		KUNIT_ASSERT_EQ(test, idx, 2);
		KUNIT_EXPECT_EQ(test, due, 0ULL);
		rmp_paths_sent(ps, idx, LEN, t);
		rmp_paths_probe_lost(ps, idx, t);
	}
	KUNIT_EXPECT_NE(test, ps->path[2].sport, old);
	KUNIT_EXPECT_GE(test, ps->path[2].sport, RMP_PATHS_SPORT_MIN);
	for (j = 0; j < 4; j++)
		if (j != 2)
			KUNIT_EXPECT_NE(test, ps->path[2].sport,
					ps->path[j].sport);
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.replaced, 1);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 2));
	/* Lost data sent before the death is no failed probe. */
	rmp_paths_lost(ps, 2, t, t);
	rmp_paths_lost(ps, 2, t, t);
	rmp_paths_lost(ps, 2, t, t);
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.replaced, 1);
}

/*
 * Path @idx dies at @t and loses its probes until its port is replaced.
 * Return: the time of the replacement.
 */
static u64 give_up_port(struct kunit *test, struct rmp_paths *ps, u32 idx,
			u64 t)
{
	u64 due;
	int i;

	kill_path(ps, idx, t);
	for (i = 0; i < RMP_PATHS_REPLACE_PROBES; i++) {
		t += base_cfg.probe_every_ns;
		due = rmp_paths_probes_due(ps, t);
		KUNIT_ASSERT_EQ(test, rmp_paths_take_probe(ps, &due), (int)idx);
		rmp_paths_sent(ps, idx, LEN, t);
		rmp_paths_probe_lost(ps, idx, t);
	}
	KUNIT_ASSERT_EQ(test, ps->path[idx].stats.replaced, 1);
	return t;
}

/*
 * A path whose probes failed keeps the port it gave up as its home, due a
 * probe every %RMP_PATHS_HOME_EVERY probe periods, not before; once one
 * gets through (the route is back) it takes that port again, live, and
 * has no home any more. A probe sent before the home was taken says
 * nothing.
 */
static void rmp_paths_home__route_back_takes_the_path_home(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 every = RMP_PATHS_HOME_EVERY * base_cfg.probe_every_ns, t, due;
	u16 home;

	setup(test, ps, 4, RMP_SPRAY_RR);
	home = ps->path[1].sport;
	t = give_up_port(test, ps, 1, MS);
	KUNIT_EXPECT_EQ(test, ps->path[1].home_sport, home);
	KUNIT_EXPECT_NE(test, ps->path[1].sport, home);
	KUNIT_EXPECT_LE(test, rmp_paths_deadline(ps), t + every);
	KUNIT_EXPECT_EQ(test, rmp_paths_homes_due(ps, t + every - 1), 0ULL);
	due = rmp_paths_homes_due(ps, t + every);
	KUNIT_EXPECT_EQ(test, due, 1ULL << 1);
	KUNIT_EXPECT_EQ(test, rmp_paths_take_home(ps, &due), 1);
	KUNIT_EXPECT_EQ(test, rmp_paths_take_home(ps, &due), -ENOENT);
	/* Not again until a period later. */
	KUNIT_EXPECT_EQ(test, rmp_paths_homes_due(ps, t + every), 0ULL);

	rmp_paths_home_delivered(ps, 1, t - 1, t + every + MS);
	KUNIT_EXPECT_NE(test, ps->path[1].sport, home);
	rmp_paths_home_delivered(ps, 1, t + every, t + every + MS);
	KUNIT_EXPECT_EQ(test, ps->path[1].sport, home);
	KUNIT_EXPECT_EQ(test, ps->path[1].home_sport, 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.homecomings, 1);
	KUNIT_EXPECT_EQ(test, ps->path[1].rtt.srtt_ns, 0);
	KUNIT_EXPECT_EQ(test, rmp_paths_homes_due(ps, t + 10 * every), 0ULL);
}

/*
 * A home whose probe gets through no faster than half the round trip of
 * the path's current port is congested, not back: the path stays, and
 * the probe counts towards forgetting the home. A faster one takes the
 * path home.
 */
static void rmp_paths_home__congested_home_is_not_taken(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u16 home, fresh;
	u64 t;

	setup(test, ps, 4, RMP_SPRAY_RR);
	home = ps->path[3].sport;
	t = give_up_port(test, ps, 3, MS);
	fresh = ps->path[3].sport;
	rmp_paths_sent(ps, 3, LEN, t);
	rmp_paths_delivered(ps, 3, LEN, t + 40 * MS, 40 * MS, false);
	KUNIT_ASSERT_EQ(test, ps->path[3].rtt.srtt_ns, 40 * MS);
	t += 40 * MS;
	rmp_paths_home_delivered(ps, 3, t, t + 21 * MS);
	KUNIT_EXPECT_EQ(test, ps->path[3].sport, fresh);
	KUNIT_EXPECT_EQ(test, ps->path[3].home_sport, home);
	KUNIT_EXPECT_EQ(test, ps->path[3].home_failed, 1);
	KUNIT_EXPECT_EQ(test, ps->path[3].stats.homecomings, 0);
	rmp_paths_home_delivered(ps, 3, t, t + 20 * MS);
	KUNIT_EXPECT_EQ(test, ps->path[3].sport, home);
	KUNIT_EXPECT_EQ(test, ps->path[3].stats.homecomings, 1);
}

/*
 * Lost probes of a home blame no path; after %RMP_PATHS_HOME_PROBES of
 * them the home is forgotten and no longer due.
 */
static void rmp_paths_home__forgotten_after_lost_probes(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	u64 t;
	u32 i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	t = give_up_port(test, ps, 2, MS);
	/* The path lives on its fresh port meanwhile. */
	rmp_paths_sent(ps, 2, LEN, t);
	rmp_paths_delivered(ps, 2, LEN, t + 20 * US, 20 * US, false);
	KUNIT_ASSERT_TRUE(test, rmp_paths_live(ps, 2));
	for (i = 0; i + 1 < RMP_PATHS_HOME_PROBES; i++)
		rmp_paths_home_lost(ps, 2, t + i);
	KUNIT_EXPECT_NE(test, ps->path[2].home_sport, 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 2));
	KUNIT_EXPECT_EQ(test, ps->path[2].losses, 0);
	rmp_paths_home_lost(ps, 2, t + i);
	KUNIT_EXPECT_EQ(test, ps->path[2].home_sport, 0);
	KUNIT_EXPECT_EQ(test, rmp_paths_homes_due(ps, t + 100 * MS), 0ULL);
}

/*
 * One balance epoch on @n paths from @t: RMP_PATHS_EPOCH round trips each,
 * every @mark[i]-th on path i ECN marked (0: none); then a tick.
 */
static u64 epoch(struct rmp_paths *ps, u32 n, u64 t, const int *mark)
{
	u32 i;

	for (i = 0; i < n; i++)
		traffic(ps, i, RMP_PATHS_EPOCH, t, 20 * US, mark[i]);
	t += RMP_PATHS_EPOCH * 100 * US;
	rmp_paths_tick(ps, t);
	return t;
}

/*
 * Marks light overall (under a thirty-second of the deliveries) but
 * clearly more on some paths, or heavy on most paths and absent on a few:
 * the paths marked more run hot, and one that runs hot
 * %RMP_PATHS_HOT_EPOCHS epochs in a row leaves its route.
 */
static void rmp_paths_tick__leaves_congested_routes(struct kunit *test)
{
	/* 3 deliveries of 32 marked on path 1, none elsewhere. */
	static const int one_hot[4] = { 0, 11, 0, 0 };
	static const int two_hot[8] = { 0, 11, 11, 0, 0, 0, 0, 0 };
	/* 3 and 4 of 32: 7 of 256 in all. */
	static const int two_unequal[8] = { 0, 0, 0, 0, 0, 0, 11, 8 };
	static const int cool[4] = { 0, 0, 0, 0 };
	/* 11 of 32 on six paths, none on two. */
	static const int most_marked[8] = { 3, 3, 3, 3, 3, 3, 0, 0 };
	static const int none8[8] = { 0 };
	struct rmp_paths *ps = new_set(test);
	u16 old;
	u64 t = MS;
	int i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	old = ps->path[1].sport;
	t = epoch(ps, 4, t, one_hot);
	KUNIT_EXPECT_EQ(test, ps->path[1].hot, 1);
	KUNIT_EXPECT_EQ(test, ps->path[1].sport, old);
	t = epoch(ps, 4, t, one_hot);
	KUNIT_EXPECT_NE(test, ps->path[1].sport, old);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 1);
	KUNIT_EXPECT_EQ(test, ps->path[1].ecn, 0);
	KUNIT_EXPECT_EQ(test, ps->path[1].hot, 0);
	for (i = 0; i < 4; i++)
		if (i != 1)
			KUNIT_EXPECT_EQ(test, ps->path[i].stats.replaced, 0);

	/*
	 * Two hot paths: one leaves (the first of equals first); then both
	 * are judged on the epochs after the move only: two more before the
	 * next move.
	 */
	setup(test, ps, 8, RMP_SPRAY_RR);
	t = epoch(ps, 8, t, two_hot);
	t = epoch(ps, 8, t, two_hot);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 1);
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.replaced, 0);
	KUNIT_EXPECT_EQ(test, ps->path[2].hot, 0);
	t = epoch(ps, 8, t, two_hot);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced +
			ps->path[2].stats.replaced, 1);
	t = epoch(ps, 8, t, two_hot);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced +
			ps->path[2].stats.replaced, 2);

	/* Two hot paths: the more marked one leaves first. */
	setup(test, ps, 8, RMP_SPRAY_RR);
	t = epoch(ps, 8, t, two_unequal);
	t = epoch(ps, 8, t, two_unequal);
	KUNIT_EXPECT_EQ(test, ps->path[6].stats.replaced, 0);
	KUNIT_EXPECT_EQ(test, ps->path[7].stats.replaced, 1);

	/*
	 * Most paths marked alike, two not at all (six paths on congested
	 * links, two on a link with room): against the others' fraction no
	 * path stands out, against the coolest path's the marked ones do.
	 */
	setup(test, ps, 8, RMP_SPRAY_RR);
	old = ps->path[0].sport;
	t = epoch(ps, 8, t, most_marked);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.replaced, 1);
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_EQ(test, ps->path[i].stats.replaced, 0);
	/* A move, not a route tried: it stays whatever comes next. */
	t = epoch(ps, 8, t, none8);
	KUNIT_EXPECT_NE(test, ps->path[0].sport, old);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.replaced, 1);

	/* An epoch cool in between starts the count over. */
	setup(test, ps, 4, RMP_SPRAY_RR);
	for (i = 0; i < 4; i++)
		t = epoch(ps, 4, t, i % 2 ? cool : one_hot);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 0);
}

/* @epochs epochs marked as @mark says; the replacements so far, none hot. */
static u32 explored(struct kunit *test, struct rmp_paths *ps, u64 *t,
		    const int *mark, u32 epochs)
{
	u32 i, moved = 0;

	for (i = 0; i < epochs; i++)
		*t = epoch(ps, 4, *t, mark);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, ps->path[i].hot, 0);
		moved += ps->path[i].stats.replaced;
	}
	return moved;
}

/*
 * A thirty-second or more of the deliveries marked on the paths other
 * than the most marked one, none running hot (alike, or not clearly
 * apart): the routes used may not be all there are, and the most marked
 * path tries a fresh one. It keeps it if marked half as much there by the
 * end of the next epoch; else it goes back, and the set waits one epoch
 * marked everywhere more for each route given up in a row (up to
 * RMP_PATHS_EXPLORE_WAIT_MAX) before it tries again: on links loaded
 * alike, a route tried is one path moved onto a link that had its share.
 * Lighter marks, marks on one path alone (weighed first, and left if it
 * runs hot), or marks only on paths that died since, explore nothing; nor
 * does a single path.
 */
static void rmp_paths_tick__explores_when_marked_everywhere(struct kunit *test)
{
	static const int all_hot[4] = { 1, 1, 1, 1 };
	static const int third_most[4] = { 2, 2, 1, 2 };
	static const int third_cool[4] = { 2, 2, 0, 2 };
	/* 1 of 32 on two paths: 2 of 128 in all. */
	static const int light[4] = { 32, 32, 0, 0 };
	/* 4 of 128 in all: just enough. */
	static const int just[4] = { 32, 32, 32, 32 };
	static const int alone[4] = { 0, 1, 0, 0 };
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;
	u16 old, fresh;
	u32 i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	old = ps->path[2].sport;
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, third_most, 1), 1U);
	KUNIT_EXPECT_EQ(test, ps->path[2].stats.replaced, 1);
	KUNIT_EXPECT_NE(test, ps->path[2].sport, old);
	/* No better there: back, and nothing else moves in that epoch. */
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, all_hot, 1), 1U);
	KUNIT_EXPECT_EQ(test, ps->path[2].sport, old);
	/* One epoch's wait, then the first of equals tries. */
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, all_hot, 1), 1U);
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, all_hot, 1), 2U);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.replaced, 1);
	/* Given up again: three epochs' wait now. */
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, all_hot, 4), 2U);
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, all_hot, 1), 3U);

	/* Half as marked or less on the route tried: kept. */
	setup(test, ps, 4, RMP_SPRAY_RR);
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, third_most, 1), 1U);
	fresh = ps->path[2].sport;
	t = epoch(ps, 4, t, third_cool);
	KUNIT_EXPECT_EQ(test, ps->path[2].sport, fresh);
	KUNIT_EXPECT_EQ(test, ps->path[2].tried_from, 0);
	/* The next try comes without a wait. */
	KUNIT_EXPECT_EQ(test, ps->explore_wait, 0);
	KUNIT_EXPECT_EQ(test, ps->explore_backoff, 0);

	setup(test, ps, 4, RMP_SPRAY_RR);
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, light, 8), 0U);
	KUNIT_EXPECT_EQ(test, explored(test, ps, &t, just, 1), 1U);

	setup(test, ps, 4, RMP_SPRAY_RR);
	t = epoch(ps, 4, t, alone);
	KUNIT_EXPECT_EQ(test, ps->path[1].hot, 1);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ps->path[i].stats.replaced, 0);

	/*
	 * An epoch whose marked deliveries were all on paths that died
	 * since shows no live path marked; the live ones delivered unmarked.
	 */
	setup(test, ps, 4, RMP_SPRAY_RR);
	for (i = 0; i < 4; i++)
		traffic(ps, i, RMP_PATHS_EPOCH, t, 20 * US, i < 2);
	t += RMP_PATHS_EPOCH * 100 * US;
	kill_path(ps, 0, t);
	kill_path(ps, 1, t);
	rmp_paths_tick(ps, t);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ps->path[i].stats.replaced, 0);

	/* One path keeps its port. */
	setup(test, ps, 1, RMP_SPRAY_RR);
	for (i = 0; i < 8; i++)
		t = epoch(ps, 1, t, all_hot);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.replaced, 0);
}

/* Links of the modelled fabric, and paths on them: two per link fit. */
#define LINKS		4
#define LINK_FITS	2

/* The link a switch hashes @sport onto, as a fixed stand-in for ECMP. */
static u32 link_of(u16 sport)
{
	return (u32)(sport * 0x9e3779b1U) >> 30;
}

/* Live paths on each link; the number of links that carry none. */
static u32 link_load(const struct rmp_paths *ps, u32 *load)
{
	u32 i, unused = 0;

	memset(load, 0, LINKS * sizeof(*load));
	for (i = 0; i < ps->cfg.npaths; i++)
		if (rmp_paths_live(ps, i))
			load[link_of(ps->path[i].sport)]++;
	for (i = 0; i < LINKS; i++)
		unused += !load[i];
	return unused;
}

/*
 * One epoch on the modelled fabric under round-robin: a link carrying
 * more paths than fit marks one delivery in four of each (three paths),
 * one in two (more); one carrying as many as fit, one in @full (0: none).
 */
static u64 fabric_epoch_full(struct rmp_paths *ps, u64 t, int full)
{
	u32 load[LINKS], i, n;

	link_load(ps, load);
	for (i = 0; i < ps->cfg.npaths; i++) {
		n = load[link_of(ps->path[i].sport)];
		traffic(ps, i, RMP_PATHS_EPOCH, t, 20 * US,
			n < LINK_FITS ? 0 : n == LINK_FITS ? full :
			n == LINK_FITS + 1 ? 4 : 2);
	}
	t += RMP_PATHS_EPOCH * 100 * US;
	rmp_paths_tick(ps, t);
	return t;
}

static u64 fabric_epoch(struct rmp_paths *ps, u64 t)
{
	return fabric_epoch_full(ps, t, 0);
}

/*
 * Eight paths on four links leave a link unused in more than a third of
 * the path sets. The congested links' marks move their paths, and every
 * move is a fresh draw of the link: the unused one is found in a few
 * epochs (one move an epoch, one chance in four each: 4.2 epochs on
 * average over the sets of this model), and then the load evens out, two
 * paths a link. Waiting for a path to run hot two epochs, or for four
 * marked epochs in a row, took 15 on average, 38 at most.
 */
static void rmp_paths_tick__explores_onto_an_unused_link(struct kunit *test)
{
	struct rmp_paths_cfg cfg = base_cfg;
	struct rmp_paths *ps = new_set(test);
	u32 seed, epochs, i, load[LINKS], sets = 0, sum = 0, worst = 0;
	u64 t = MS;

	cfg.npaths = 8;
	for (seed = 1; seed <= 64; seed++) {
		cfg.seed = seed;
		KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
		if (!link_load(ps, load))
			continue;
		sets++;
		for (epochs = 0; epochs < 64 && link_load(ps, load); epochs++)
			t = fabric_epoch(ps, t);
		KUNIT_EXPECT_EQ_MSG(test, link_load(ps, load), 0,
				    "seed %u: a link unused after 64 epochs",
				    seed);
		sum += epochs;
		worst = epochs > worst ? epochs : worst;
		/* Evened out, and then no path moves. */
		for (epochs = 0; epochs < 64; epochs++)
			t = fabric_epoch(ps, t);
		link_load(ps, load);
		for (i = 0; i < LINKS; i++)
			KUNIT_EXPECT_EQ(test, load[i], LINK_FITS);
	}
	KUNIT_ASSERT_GE(test, sets, 16U);
	kunit_info(test, "%u sets with a link unused: found in %u.%02u epochs on average, %u at most\n",
		   sets, sum / sets, sum % sets * 100 / sets, worst);
	KUNIT_EXPECT_LE(test, sum, 6 * sets);
	KUNIT_EXPECT_LE(test, worst, 16U);
}

/* Every link carries as many paths as fit. */
static bool links_even(const struct rmp_paths *ps)
{
	u32 load[LINKS], i;

	link_load(ps, load);
	for (i = 0; i < LINKS; i++)
		if (load[i] != LINK_FITS)
			return false;
	return true;
}

/*
 * The same fabric driven at its capacity, as a receiver granting all of it
 * does: links carrying their share mark lightly (one delivery in sixteen),
 * so every epoch is marked everywhere and the set keeps exploring. Links
 * carrying one path less than another mark nothing, which makes the paths
 * on the fuller links run hot against them; the load evens out, and a
 * route tried from an even spread is marked more, not less, and given up
 * after one epoch: the spread stays even in most epochs (before routes
 * tried were judged, one path moved every epoch, for good).
 */
static void rmp_paths_tick__keeps_an_even_spread(struct kunit *test)
{
	struct rmp_paths_cfg cfg = base_cfg;
	struct rmp_paths *ps = new_set(test);
	u32 seed, epochs, uneven = 0, sets = 0;
	u64 t = MS;

	cfg.npaths = 8;
	for (seed = 1; seed <= 32; seed++) {
		cfg.seed = seed;
		KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
		for (epochs = 0; epochs < 64 && !links_even(ps); epochs++)
			t = fabric_epoch_full(ps, t, 16);
		KUNIT_EXPECT_TRUE_MSG(test, links_even(ps),
				      "seed %u: uneven after 64 epochs", seed);
		sets++;
		for (epochs = 0; epochs < 64; epochs++) {
			t = fabric_epoch_full(ps, t, 16);
			uneven += !links_even(ps);
		}
	}
	kunit_info(test, "uneven in %u of %u epochs once even\n", uneven,
		   sets * 64);
	KUNIT_EXPECT_LE(test, uneven, sets * 64 / 4);
}

/*
 * Packets sent before a path's entropy changed took the old route: late
 * deliveries and losses of theirs neither judge nor kill the new one.
 */
static void rmp_paths_tick__old_route_tells_nothing(struct kunit *test)
{
	static const int one_hot[4] = { 0, 2, 0, 0 };
	struct rmp_paths *ps = new_set(test);
	u64 t = MS, sent;
	int i;

	setup(test, ps, 4, RMP_SPRAY_RR);
	sent = t;
	for (i = 0; i < 2 * RMP_PATHS_DEAD_LOSSES; i++)
		rmp_paths_sent(ps, 1, LEN, sent);
	t = epoch(ps, 4, t + MS, one_hot);
	t = epoch(ps, 4, t, one_hot);
	KUNIT_ASSERT_EQ(test, ps->path[1].stats.replaced, 1);
	/* The old route's packets: slow, marked, then lost. */
	rmp_paths_delivered(ps, 1, LEN, t + 10 * MS, t + 10 * MS - sent, true);
	KUNIT_EXPECT_EQ(test, ps->path[1].rtt.srtt_ns, 0);
	KUNIT_EXPECT_EQ(test, ps->path[1].ecn, 0);
	KUNIT_EXPECT_EQ(test, ps->path[1].epoch_delivered, 0);
	for (i = 0; i < RMP_PATHS_DEAD_LOSSES; i++)
		rmp_paths_lost(ps, 1, sent, t + 10 * MS);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
	KUNIT_EXPECT_EQ(test, ps->path[1].inflight, 2 * RMP_PATHS_DEAD_LOSSES -
			1 - RMP_PATHS_DEAD_LOSSES);
	/* Its own losses do. */
	kill_path(ps, 1, t + 10 * MS);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(ps, 1));
}

/*
 * A route four times slower than the best is left; not by a path set
 * whose round trips are learnt late and in batches (late_news).
 */
static void rmp_paths_tick__leaves_slow_routes(struct kunit *test)
{
	struct rmp_paths_cfg cfg = base_cfg;
	struct rmp_paths *ps = new_set(test);
	u64 t = MS;
	u16 old;
	int i;

	cfg.npaths = 2;
	for (cfg.late_news = false; ; cfg.late_news = true) {
		KUNIT_ASSERT_EQ(test, rmp_paths_init(ps, &cfg), 0);
		old = ps->path[1].sport;
		/* Five times the best RTT: hot one epoch, left after two. */
		for (i = 0; i < RMP_PATHS_HOT_EPOCHS; i++) {
			traffic(ps, 0, RMP_PATHS_EPOCH, t, 20 * US, 0);
			traffic(ps, 1, RMP_PATHS_EPOCH, t, 100 * US, 0);
			t += RMP_PATHS_EPOCH * 100 * US;
			rmp_paths_tick(ps, t);
		}
		KUNIT_EXPECT_EQ(test, ps->path[0].stats.replaced, 0);
		if (cfg.late_news)
			break;
		KUNIT_EXPECT_NE(test, ps->path[1].sport, old);
		KUNIT_EXPECT_EQ(test, ps->path[1].rtt.srtt_ns, 0);
	}
	KUNIT_EXPECT_EQ(test, ps->path[1].sport, old);
	KUNIT_EXPECT_EQ(test, ps->path[1].stats.replaced, 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(ps, 1));
}

/* Bytes: every packet sent counts its payload; only delivered ones count. */
static void rmp_paths_sent__counts_bytes(struct kunit *test)
{
	struct rmp_paths *ps = new_set(test);
	const struct rmp_path_stats *st = &ps->path[1].stats;

	setup(test, ps, 2, RMP_SPRAY_RR);
	rmp_paths_sent(ps, 1, 100, MS);
	rmp_paths_sent(ps, 1, 200, MS);
	rmp_paths_sent(ps, 1, 300, MS);
	rmp_paths_delivered(ps, 1, 100, 2 * MS, MS, false);
	rmp_paths_lost(ps, 1, 2 * MS, 2 * MS);
	rmp_paths_delivered(ps, 1, 300, 2 * MS, MS, true);
	KUNIT_EXPECT_EQ(test, st->sent, 3ULL);
	KUNIT_EXPECT_EQ(test, st->sent_bytes, 600ULL);
	KUNIT_EXPECT_EQ(test, st->delivered, 2ULL);
	KUNIT_EXPECT_EQ(test, st->delivered_bytes, 400ULL);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.sent_bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, ps->path[0].stats.delivered_bytes, 0ULL);
}

static struct kunit_case rmp_paths_cases[] = {
	KUNIT_CASE_PARAM(rmp_paths_init__validates, init_gen_params),
	KUNIT_CASE(rmp_paths_init__distinct_entropy),
	KUNIT_CASE(rmp_paths_init__never_repeats_entropy),
	KUNIT_CASE(rmp_paths_sent__counts_bytes),
	KUNIT_CASE(rmp_paths_pick__round_robin_is_even),
	KUNIT_CASE(rmp_paths_pick__skips_dead_paths),
	KUNIT_CASE(rmp_paths_nth_live__wraps_over_live_paths),
	KUNIT_CASE(rmp_paths_pick__weighted_avoids_ecn),
	KUNIT_CASE(rmp_paths_pick__weighted_avoids_queued_routes),
	KUNIT_CASE(rmp_paths_pick__weighted_skips_dead_paths),
	KUNIT_CASE(rmp_paths_pick__weighted_avoids_slow_paths),
	KUNIT_CASE(rmp_paths_pick__flowlets),
	KUNIT_CASE(rmp_paths_tick__silent_path_dies),
	KUNIT_CASE(rmp_paths_tick__late_news_silence_is_the_callers),
	KUNIT_CASE(rmp_paths_tick__all_silent_none_dies),
	KUNIT_CASE(rmp_paths_tick__delivery_restarts_the_clock),
	KUNIT_CASE(rmp_paths_tick__slow_path_silence_waits_its_round_trip),
	KUNIT_CASE(rmp_paths_wait__slowest_live_path),
	KUNIT_CASE(rmp_paths_lost__losses_in_a_row_kill),
	KUNIT_CASE(rmp_paths_kill__last_path_lives),
	KUNIT_CASE(rmp_paths_probe__revives),
	KUNIT_CASE(rmp_paths_probe__all_due_together),
	KUNIT_CASE(rmp_paths_probe__lost_probes_replace_entropy),
	KUNIT_CASE(rmp_paths_home__route_back_takes_the_path_home),
	KUNIT_CASE(rmp_paths_home__congested_home_is_not_taken),
	KUNIT_CASE(rmp_paths_home__forgotten_after_lost_probes),
	KUNIT_CASE(rmp_paths_tick__leaves_congested_routes),
	KUNIT_CASE(rmp_paths_tick__explores_when_marked_everywhere),
	KUNIT_CASE(rmp_paths_tick__explores_onto_an_unused_link),
	KUNIT_CASE(rmp_paths_tick__keeps_an_even_spread),
	KUNIT_CASE(rmp_paths_tick__old_route_tells_nothing),
	KUNIT_CASE(rmp_paths_tick__leaves_slow_routes),
	{}
};

static struct kunit_suite rmp_paths_suite = {
	.name = "rmp_paths",
	.test_cases = rmp_paths_cases,
};

kunit_test_suite(rmp_paths_suite);
