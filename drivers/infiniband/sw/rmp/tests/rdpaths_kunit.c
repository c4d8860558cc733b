// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the paths of a responder's sprayed READ responses:
 * repairs and reports find a dead path, a probe brings it back, stale and
 * forged reports change nothing; a fake clock, PSNs near the wrap.
 */
#include <kunit/test.h>

#include "../engine/rdpaths.h"

#define US	1000ULL
#define NREC	64U
#define NPATHS	4U
#define LEN	1024U
#define DEAD	(1000 * US)
#define PROBE	(500 * US)

struct rdp_env {
	struct rmp_paths ps;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[NREC];
	struct rmp_rdp d;
	u32 base;
};

static const u32 bases[] = { 0, 100, RMP_PSN_MASK - 5 };

static void base_desc(const u32 *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "base %u", *b);
}

KUNIT_ARRAY_PARAM(base, bases, base_desc);

static struct rdp_env *env_new(struct kunit *test, u32 base)
{
	struct rmp_paths_cfg cfg = {
		.npaths = NPATHS, .spray = RMP_SPRAY_RR, .rtt_blind = true,
		.sport = 0xc001, .seed = 7, .dead_after_ns = DEAD,
		.probe_every_ns = PROBE,
	};
	struct rdp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, rmp_paths_init(&e->ps, &cfg), 0);
	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->sb, e->rec, NREC), 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_init(&e->d, &e->ps, &e->sb, base), 0);
	e->base = base;
	return e;
}

static u32 psn_at(const struct rdp_env *e, u32 i)
{
	return rmp_psn_add(e->base, i);
}

/* Send the responses base + i, i in [from, to): path i % NPATHS each. */
static void send(struct kunit *test, struct rdp_env *e, u32 from, u32 to,
		 u64 now)
{
	u32 i;

	for (i = from; i < to; i++)
		KUNIT_EXPECT_EQ(test,
				rmp_rdp_pick(&e->d, psn_at(e, i), LEN, now),
				i % NPATHS);
}

/*
 * A report: everything before base + @cum received, and of the PSNs
 * base + i for i in [@cum, @hi], those whose bit @held says (bit i - cum).
 */
static void report_of(const struct rdp_env *e, struct rmp_sack *s, u32 cum,
		      u32 hi, u64 held)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	s->cum_ack = psn_at(e, cum - 1);
	s->highest = s->cum_ack;
	for (i = cum + 1; i <= hi; i++) {
		if (!(held >> (i - cum) & 1))
			continue;
		s->bitmap[(i - cum - 1) / 64] |= 1ULL << ((i - cum - 1) % 64);
		s->highest = psn_at(e, i);
	}
	s->nbits = rmp_sack_nbits(s->cum_ack, s->highest);
}

static void rmp_rdp_init__validates(struct kunit *test)
{
	struct rdp_env *e = env_new(test, 0);
	struct rmp_rdp d;

	KUNIT_EXPECT_EQ(test, rmp_rdp_init(&d, NULL, &e->sb, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_rdp_init(&d, &e->ps, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_rdp_init(&d, &e->ps, &e->sb, 0x1000005), 0);
	KUNIT_EXPECT_EQ(test, d.una, 5U);
	KUNIT_EXPECT_EQ(test, d.end, 5U);
	KUNIT_EXPECT_EQ(test, d.probes, 0ULL);
}

/* Round-robin over the live paths; a report delivers, nothing is lost. */
static void rmp_rdp_report__delivers(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	struct rmp_sack s;
	u32 i;

	send(test, e, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, e->d.end, psn_at(e, 8));
	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, 2U);
	/* 0-2 in order, 4 and 6 held. */
	report_of(e, &s, 3, 6, BIT(1) | BIT(3));
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 10 * US),
			0);
	KUNIT_EXPECT_EQ(test, e->d.una, psn_at(e, 3));
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.delivered, 2ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.delivered, 1ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.delivered, 2ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[3].stats.delivered, 0ULL);
	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
	/* The rest; a cumulative part past the responses (WRITEs) too. */
	report_of(e, &s, 12, 12, 0);
	KUNIT_EXPECT_EQ(test,
			rmp_rdp_report(&e->d, &s, psn_at(e, 12), 20 * US), 0);
	KUNIT_EXPECT_EQ(test, e->d.una, psn_at(e, 12));
	KUNIT_EXPECT_EQ(test, e->d.end, psn_at(e, 12));
	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, 0U);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.delivered, 2ULL);
	}
	KUNIT_EXPECT_EQ(test, e->d.stats.reports, 2ULL);
}

/*
 * A repair names what was lost: its first copy counts lost on its path,
 * the copy sent again takes a live path; three in a row kill the path,
 * and what it still carried is lost with it.
 */
static void rmp_rdp_pick__repairs_kill_a_path(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	u32 path, i;

	send(test, e, 0, 16, 0);
	/* PSNs 1, 5, 9 went on path 1; a repair asks for each. */
	for (i = 0; i < 3; i++) {
		path = rmp_rdp_pick(&e->d, psn_at(e, 1 + 4 * i), LEN, 50 * US);
		KUNIT_EXPECT_LT(test, path, NPATHS);
		KUNIT_EXPECT_EQ(test, e->ps.path[1].losses, i < 2 ? i + 1 : 0);
		KUNIT_EXPECT_EQ(test, rmp_paths_live(&e->ps, 1), i < 2);
	}
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 1));
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.deaths, 1ULL);
	KUNIT_EXPECT_EQ(test, e->d.stats.again, 3ULL);
	/* PSN 13, still on it, is lost with it. */
	KUNIT_EXPECT_EQ(test, e->ps.path[1].inflight, 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, psn_at(e, 13)),
			RMP_SB_LOST);
	/* New responses skip it. */
	for (i = 16; i < 24; i++)
		KUNIT_EXPECT_NE(test,
				rmp_rdp_pick(&e->d, psn_at(e, i), LEN, 60 * US),
				1U);
}

/* Losses with deliveries between them are bad luck, not a dead path. */
static void rmp_rdp_report__deliveries_forgive(struct kunit *test)
{
	struct rdp_env *e = env_new(test, 0);
	struct rmp_sack s;
	u32 i, j;

	for (i = 0; i < 4; i++) {
		/* 16 responses; one that took path 1 is asked for again... */
		for (j = 16 * i; j < 16 * i + 16; j++)
			rmp_rdp_pick(&e->d, psn_at(e, j), LEN, i * 10 * US);
		for (j = 16 * i; e->rec[psn_at(e, j) % NREC].path != 1; j++)
			;
		rmp_rdp_pick(&e->d, psn_at(e, j), LEN, i * 10 * US);
		if (i == 3)
			break;
		/* ...then all of them arrived. */
		report_of(e, &s, 16 * i + 16, 16 * i + 16, 0);
		KUNIT_ASSERT_EQ(test,
				rmp_rdp_report(&e->d, &s, psn_at(e, 16 * i + 16),
					       i * 10 * US + US), 0);
	}
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 1));
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.deaths, 0ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 4ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].losses, 1U);
	for (i = 0; i < NPATHS; i++)
		if (i != 1)
			KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
}

/*
 * A path that delivers nothing while the others do dies after
 * dead_after_ns; a probe goes on it every probe period, a report of the
 * probe brings it back; a response sent again never probes.
 */
static void rmp_rdp_pick__silent_dies_probe_revives(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	u64 now = 0, held = 0;
	struct rmp_sack s;
	u32 i;

	send(test, e, 0, 8, now);
	/* Everything but path 2's (PSNs 2 and 6) arrives, and keeps on. */
	for (i = 3; i < 8; i++)
		held |= i % NPATHS != 2 ? BIT(i - 2) : 0;
	report_of(e, &s, 2, 7, held);
	now = 100 * US;
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), now), 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->d.next_tick, DEAD);
	now = DEAD - 1;
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), now), 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	/* A send past the deadline ticks the path set. */
	now = DEAD;
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 8), LEN, now), 2U);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].inflight, 0U);
	KUNIT_EXPECT_EQ(test, e->d.next_tick, DEAD + PROBE);

	/* Not due yet; then the first new response probes, once. */
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 9), LEN,
					   DEAD + PROBE - 1), 2U);
	now = DEAD + PROBE;
	/* PSN 2 asked for again: a live path, whatever is due. */
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 2), LEN, now), 2U);
	KUNIT_EXPECT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 10), LEN, now), 2U);
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 11), LEN, now), 2U);
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.sent, 3ULL);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 2));

	/* The probe arrives: the path is back and takes its turn. */
	report_of(e, &s, 6, 11, BIT(10 - 6));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 12),
					     now + 50 * US), 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.revivals, 1ULL);
	for (i = 12, held = 0; i < 12 + NPATHS; i++)
		held += rmp_rdp_pick(&e->d, psn_at(e, i), LEN,
				     now + 60 * US) == 2;
	KUNIT_EXPECT_EQ(test, held, 1ULL);
}

/* A probe asked for again failed; three of them give the path new entropy. */
static void rmp_rdp_pick__failed_probes_replace(struct kunit *test)
{
	struct rdp_env *e = env_new(test, 0);
	u16 sport = e->ps.path[3].sport;
	u64 now = 0;
	u32 i;

	send(test, e, 0, 12, now);
	for (i = 0; i < 3; i++)
		rmp_rdp_pick(&e->d, psn_at(e, 3 + 4 * i), LEN, now);
	KUNIT_ASSERT_FALSE(test, rmp_paths_live(&e->ps, 3));
	for (i = 0; i < 3; i++) {
		now += PROBE;
		KUNIT_ASSERT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 12 + i),
						   LEN, now), 3U);
		/* The repair of the probe. */
		KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 12 + i),
						   LEN, now + US), 3U);
	}
	KUNIT_EXPECT_EQ(test, e->ps.path[3].stats.replaced, 1ULL);
	KUNIT_EXPECT_NE(test, e->ps.path[3].sport, sport);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 3));
}

/*
 * Stale and forged reports are counted and change nothing: not the
 * paths, not the responses in flight.
 */
static void rmp_rdp_report__stale_and_forged(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	struct rdp_env *was = kunit_kzalloc(test, sizeof(*was), GFP_KERNEL);
	struct rmp_sack s;

	KUNIT_ASSERT_NOT_NULL(test, was);
	send(test, e, 0, 8, 0);
	report_of(e, &s, 2, 2, 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), US), 0);
	memcpy(was, e, sizeof(*was));

	/* Older than the one taken. */
	report_of(e, &s, 1, 6, BIT(5));
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 2 * US),
			-ESTALE);
	/* Past the expected PSN: responses never sent. */
	report_of(e, &s, 9, 9, 0);
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 2 * US),
			-EINVAL);
	report_of(e, &s, 3, 9, BIT(6));
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 2 * US),
			-EINVAL);
	/* Half the PSN space away. */
	report_of(e, &s, 3, 3, 0);
	s.cum_ack = rmp_psn_add(s.cum_ack, RMP_PSN_MASK / 2);
	s.highest = s.cum_ack;
	KUNIT_EXPECT_NE(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 2 * US),
			0);
	KUNIT_EXPECT_EQ(test, e->d.stats.stale + e->d.stats.forged, 4ULL);
	KUNIT_EXPECT_GE(test, e->d.stats.stale, 1ULL);
	KUNIT_EXPECT_GE(test, e->d.stats.forged, 2ULL);
	KUNIT_EXPECT_EQ(test, memcmp(&was->ps, &e->ps, sizeof(e->ps)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(was->rec, e->rec, sizeof(e->rec)), 0);
	KUNIT_EXPECT_EQ(test, was->d.una, e->d.una);
	KUNIT_EXPECT_EQ(test, was->d.end, e->d.end);
	KUNIT_EXPECT_EQ(test, was->d.probes, e->d.probes);
	KUNIT_EXPECT_EQ(test, was->d.stats.reports, e->d.stats.reports);
}

/*
 * With no report for a whole scoreboard of responses, the oldest are
 * forgotten: no path is blamed or credited.
 */
static void rmp_rdp_pick__full_window_forgets(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	u32 i, inflight = 0;
	struct rmp_sack s;

	send(test, e, 0, NREC + 8, 0);
	KUNIT_EXPECT_EQ(test, e->d.una, psn_at(e, 8));
	for (i = 0; i < NPATHS; i++) {
		inflight += e->ps.path[i].inflight;
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.delivered, 0ULL);
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
	}
	KUNIT_EXPECT_EQ(test, inflight, NREC);
	/*
	 * A report lagging behind what was forgotten still counts for what
	 * is watched (PSN 9 held); one older than it is stale.
	 */
	report_of(e, &s, 4, 9, BIT(9 - 4));
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, NREC + 8),
					     US), 0);
	KUNIT_EXPECT_EQ(test, e->d.una, psn_at(e, 8));
	KUNIT_EXPECT_EQ(test, e->ps.path[9 % NPATHS].stats.delivered, 1ULL);
	report_of(e, &s, 3, 3, 0);
	KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, NREC + 8),
					     US), -ESTALE);
	/* One far ahead (after a READ too large to spray): all forgotten. */
	rmp_rdp_pick(&e->d, psn_at(e, 100000), LEN, US);
	for (i = 0, inflight = 0; i < NPATHS; i++)
		inflight += e->ps.path[i].inflight;
	KUNIT_EXPECT_EQ(test, inflight, 1U);
	/* Asked for again below what is watched: a path, no record. */
	KUNIT_EXPECT_LT(test, rmp_rdp_pick(&e->d, psn_at(e, 3), LEN, US),
			NPATHS);
	KUNIT_EXPECT_EQ(test, e->d.stats.again, 0ULL);
}

static struct kunit_case rmp_rdp_cases[] = {
	KUNIT_CASE(rmp_rdp_init__validates),
	KUNIT_CASE_PARAM(rmp_rdp_report__delivers, base_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_pick__repairs_kill_a_path, base_gen_params),
	KUNIT_CASE(rmp_rdp_report__deliveries_forgive),
	KUNIT_CASE_PARAM(rmp_rdp_pick__silent_dies_probe_revives,
			 base_gen_params),
	KUNIT_CASE(rmp_rdp_pick__failed_probes_replace),
	KUNIT_CASE_PARAM(rmp_rdp_report__stale_and_forged, base_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_pick__full_window_forgets, base_gen_params),
	{}
};

static struct kunit_suite rmp_rdp_suite = {
	.name = "rmp_rdpaths",
	.test_cases = rmp_rdp_cases,
};

kunit_test_suite(rmp_rdp_suite);
