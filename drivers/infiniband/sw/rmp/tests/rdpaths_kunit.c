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
		.npaths = NPATHS, .spray = RMP_SPRAY_RR, .late_news = true,
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

/* Bits of report_of() for (@cum, @hi]: every PSN there but @path's. */
static u64 held_but(u32 path, u32 cum, u32 hi)
{
	u64 held = 0;
	u32 i;

	for (i = cum + 1; i <= hi; i++)
		held |= i % NPATHS != path ? (1ULL << (i - cum)) : 0;
	return held;
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
 * A repair names what was lost: its first copy, before the newest
 * response reported received, counts lost on its path, the copy sent
 * again takes a live path; three in a row kill the path, and what it
 * still carried is lost with it. One past the newest reported, asked for
 * blindly, blames no path.
 */
static void rmp_rdp_pick__repairs_kill_a_path(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	struct rmp_sack s;
	u32 path, i;

	send(test, e, 0, 20, 0);
	/* Up to 15 came, but path 1's (1, 5, 9, 13). */
	report_of(e, &s, 1, 15, held_but(1, 1, 15));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 20), 40 * US),
			0);
	/* 16 to 19 asked for blindly (the rest of a READ): no loss. */
	for (i = 16; i < 20; i++)
		KUNIT_EXPECT_LT(test, rmp_rdp_pick(&e->d, psn_at(e, i), LEN,
						   45 * US), NPATHS);
	KUNIT_EXPECT_EQ(test, e->d.stats.blind, 4ULL);
	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, i == 1 ? 5U : 1U);
	}
	/* A repair asks for 1, 5, 9. */
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
	for (i = 20; i < 28; i++)
		KUNIT_EXPECT_NE(test,
				rmp_rdp_pick(&e->d, psn_at(e, i), LEN, 60 * US),
				1U);
	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.deaths, (u64)(i == 1));
}

/*
 * A slow requester (a debug kernel under TCG) takes the first responses
 * of a READ, then nothing for its reordering time, and asks for the rest
 * of the READ in case its last responses were lost: they were merely on
 * their way, and the responder, which knows of the first only, sends them
 * again. No path is blamed, none dies (counting each first copy lost, the
 * rule before, killed three paths of four, as the debug kernel's verbs
 * test saw seven of eight die); the copies that arrive count delivered.
 */
static void rmp_rdp_pick__rest_of_a_read_asked_blindly(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	struct rmp_sack s;
	u32 i;

	send(test, e, 0, NREC, 0);
	/* The report as the repair begins: 0 to 15, in order. */
	report_of(e, &s, 16, 16, 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, NREC),
					     5 * US), 0);
	for (i = 16; i < NREC; i++)
		KUNIT_EXPECT_LT(test, rmp_rdp_pick(&e->d, psn_at(e, i), LEN,
						   6 * US), NPATHS);
	KUNIT_EXPECT_EQ(test, e->d.stats.blind, (u64)NREC - 16);
	KUNIT_EXPECT_EQ(test, e->d.stats.again, 0ULL);
	report_of(e, &s, NREC, NREC, 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, NREC),
					     10 * US), 0);
	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.delivered,
				(u64)NREC / NPATHS);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, 0U);
	}
}

/*
 * A response sent again and then reported received may have come by its
 * first copy: its second copy's send time dates nothing, and the
 * responses sent with its first copy, still on their way, are not
 * silent for it. (Dated by the second copy, paths 2 and 3 died.) One
 * sent once dates.
 */
static void rmp_rdp_report__resent_dates_nothing(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	struct rmp_sack s;
	u32 i;

	send(test, e, 0, 8, 0);
	report_of(e, &s, 2, 2, 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 10 * US),
			0);
	/* Long after, the rest of the READ asked for blindly: 2 and 3. */
	KUNIT_EXPECT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 2), LEN, 10 * DEAD),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 3), LEN, 10 * DEAD),
			1U);
	/* Their first copies come; 4 to 7 are still on their way. */
	report_of(e, &s, 4, 4, 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8),
					     10 * DEAD + US), 0);
	KUNIT_EXPECT_EQ(test, e->sb.delivered_sent_ns, 0ULL);
	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
	}
	/*
	 * A response sent once, dead_after_ns after 4 to 7, does date: path
	 * 3, which has delivered nothing since it took 7, is silent (0 and
	 * 1 delivered the copies sent again, 2 the new one).
	 */
	KUNIT_EXPECT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 8), LEN, DEAD), 2U);
	report_of(e, &s, 4, 8, 1ULL << 4);
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 9),
					     10 * DEAD + 2 * US), 0);
	KUNIT_EXPECT_EQ(test, e->sb.delivered_sent_ns, DEAD);
	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, rmp_paths_live(&e->ps, i), i != 3);
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
		/* (reported missing, later ones came) */
		report_of(e, &s, j, 16 * i + 15,
			  ~0ULL >> (63 - (16 * i + 15 - j)) & ~1ULL);
		KUNIT_ASSERT_EQ(test,
				rmp_rdp_report(&e->d, &s, psn_at(e, 16 * i + 16),
					       i * 10 * US), 0);
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
 * A path that delivers nothing dies once a report shows delivered a
 * response sent dead_after_ns after one of its own still in flight; how
 * late the reports come says nothing. A probe goes on it every probe
 * period, a report of the probe brings it back; a response sent again
 * never probes.
 */
static void rmp_rdp_report__silent_dies_probe_revives(struct kunit *test)
{
	struct rdp_env *e = env_new(test, *(const u32 *)test->param_value);
	u64 now, held;
	struct rmp_sack s;
	u32 i;

	send(test, e, 0, 8, 0);
	/* Everything but path 2's (PSNs 2 and 6) arrives. */
	report_of(e, &s, 2, 7, held_but(2, 2, 7));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), 100 * US),
			0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	/* The same news, 100 dead_after_ns later, is no more evidence. */
	now = 100 * DEAD;
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 8), now), 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->d.next_tick, 0ULL);
	/* Responses sent just under dead_after_ns later arrive: not yet. */
	send(test, e, 8, 16, DEAD - 1);
	report_of(e, &s, 2, 15, held_but(2, 2, 15));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 16), now + US),
			0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].inflight, 4U);
	/* One sent dead_after_ns after PSN 2 arrives: path 2 is silent. */
	send(test, e, 16, 17, DEAD);
	report_of(e, &s, 2, 16, held_but(2, 2, 16));
	now += 2 * US;
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 17), now), 0);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.deaths, 1ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[2].inflight, 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, psn_at(e, 14)), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, e->d.next_tick, now + PROBE);
	for (i = 0; i < NPATHS; i++)
		if (i != 2)
			KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));

	/* Not due yet; then the first new response probes, once. */
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 17), LEN,
					   now + PROBE - 1), 2U);
	now += PROBE;
	/* PSN 2 asked for again: a live path, whatever is due. */
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 2), LEN, now), 2U);
	KUNIT_EXPECT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 18), LEN, now), 2U);
	KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 19), LEN, now), 2U);
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.sent, 5ULL);
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 2));

	/* The probe arrives: the path is back and takes its turn. */
	report_of(e, &s, 2, 18, (1ULL << (18 - 2)));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 20),
					     now + 50 * US), 0);
	KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.revivals, 1ULL);
	for (i = 20, held = 0; i < 20 + NPATHS; i++)
		held += rmp_rdp_pick(&e->d, psn_at(e, i), LEN,
				     now + 60 * US) == 2;
	KUNIT_EXPECT_EQ(test, held, 1ULL);
	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.deaths, (u64)(i == 2));
}

/*
 * A requester and the links between, simulated in steps of SIM_STEP. It
 * posts READs of @read_len PSNs, each once the one before is all in. The
 * responder sends up to @tx responses a step, round-robin over its live
 * paths; those that took a dark path are gone, the others queue for the
 * requester, which takes in up to @rx a step (a slow requester, its
 * reports late), repairs nothing, and at the end of a step reports if
 * SIM_EVERY responses came since its last report or a READ is all in. A
 * report reaches the responder @lag later, plus up to @jitter, or, with
 * @burst, at the next multiple of @burst after that: reports held back
 * and let go together.
 */
#define SIM_STEP	(100 * US)
#define SIM_EVERY	16U
#define SIM_MAX		8192U
#define SIM_QUEUE	512U

struct sim_case {
	const char *name;
	u32 read_len;
	u32 tx;
	u32 rx;
	u64 lag;
	u64 jitter;
	u64 burst;
	u64 dark;	/* paths that deliver nothing... */
	u64 dark_from;	/* ...from then on */
	u64 stop_at;	/* no report is sent from then on; 0: never */
	u64 until;	/* the end of the run */
};

struct sim {
	struct rdp_env *e;
	u8 got[SIM_MAX];
	u32 wire[SIM_MAX];	/* responses on their way, FIFO */
	u32 whead, wtail;
	u32 next;		/* the next PSN (offset) the responder sends */
	u32 read_end;		/* the end of the READ being answered */
	u32 una;		/* the requester's oldest missing */
	u32 highest;		/* the requester's highest received, + 1 */
	u32 unreported;
	struct rmp_sack q[SIM_QUEUE];
	u64 at[SIM_QUEUE];
	u32 qhead, qtail;
	u64 died_at[NPATHS];	/* first death, 0 if none */
	u32 rng;
};

/* The requester's report: its window, as rmp_rxwin_sack() encodes it. */
static void sim_report(struct sim *m, const struct sim_case *c, u64 now)
{
	struct rmp_sack *s = &m->q[m->qtail % SIM_QUEUE];
	u64 at = now + c->lag;
	u32 i;

	if (c->jitter) {
		/* xorshift32 */
		m->rng ^= m->rng << 13;
		m->rng ^= m->rng >> 17;
		m->rng ^= m->rng << 5;
		at += m->rng % (c->jitter + 1);
	}
	memset(s, 0, sizeof(*s));
	s->cum_ack = psn_at(m->e, m->una - 1);
	s->highest = psn_at(m->e, m->highest - 1);
	if (m->highest <= m->una)
		s->highest = s->cum_ack;
	s->nbits = rmp_sack_nbits(s->cum_ack, s->highest);
	for (i = 0; i < s->nbits; i++)
		if (m->got[m->una + 1 + i])
			s->bitmap[i / 64] |= 1ULL << (i % 64);
	if (c->burst)
		at = (at / c->burst + 1) * c->burst;
	/* A link keeps its order. */
	if (m->qtail != m->qhead && at < m->at[(m->qtail - 1) % SIM_QUEUE])
		at = m->at[(m->qtail - 1) % SIM_QUEUE];
	m->at[m->qtail++ % SIM_QUEUE] = at;
	m->unreported = 0;
}

static struct sim *sim_run(struct kunit *test, const struct sim_case *c)
{
	struct sim *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u64 now;
	u32 k, path, i, psn;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->e = env_new(test, RMP_PSN_MASK - 100);
	m->rng = 0x2545f491;
	for (now = 0; now < c->until; now += SIM_STEP) {
		while (m->qhead != m->qtail &&
		       m->at[m->qhead % SIM_QUEUE] <= now) {
			KUNIT_ASSERT_EQ(test,
					rmp_rdp_report(&m->e->d,
						       &m->q[m->qhead % SIM_QUEUE],
						       psn_at(m->e, m->read_end),
						       now),
					0);
			m->qhead++;
		}
		/* The next READ, once the last is all in. */
		if (m->una == m->read_end && m->read_end + c->read_len < SIM_MAX)
			m->read_end += c->read_len;
		for (k = 0; k < c->tx && m->next < m->read_end; k++, m->next++) {
			path = rmp_rdp_pick(&m->e->d, psn_at(m->e, m->next),
					    LEN, now);
			if (now < c->dark_from || !(c->dark >> path & 1))
				m->wire[m->wtail++] = m->next;
		}
		for (k = 0; (!c->rx || k < c->rx) && m->whead != m->wtail; k++) {
			psn = m->wire[m->whead++];
			m->got[psn] = 1;
			if (psn >= m->highest)
				m->highest = psn + 1;
			m->unreported++;
			while (m->got[m->una])
				m->una++;
		}
		/* As rmp's requester: at most one report a run. */
		if (m->unreported &&
		    (m->unreported >= SIM_EVERY || m->una == m->read_end) &&
		    (!c->stop_at || now < c->stop_at))
			sim_report(m, c, now);
		KUNIT_ASSERT_LT(test, m->qtail - m->qhead, SIM_QUEUE);
		for (i = 0; i < NPATHS; i++)
			if (!m->died_at[i] && m->e->ps.path[i].stats.deaths)
				m->died_at[i] = now;
	}
	KUNIT_EXPECT_EQ(test, m->e->d.stats.stale + m->e->d.stats.forged, 0ULL);
	return m;
}

static void sim_desc(const struct sim_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

static const struct sim_case late_cases[] = {
	/* name, read_len, tx, rx, lag, jitter, burst, dark, from, stop, until */
	{ "READs of 16, reports in time", 16, 16, 0, 0, 0, 0, 0, 0, 0,
	  200 * DEAD },
	{ "READs of 16, reports 2 dead_after_ns late", 16, 2, 0, 2 * DEAD, 0,
	  0, 0, 0, 0, 200 * DEAD },
	{ "READs over the window, a slow requester", 250, 16, 7, 0, 0, 0, 0,
	  0, 0, 200 * DEAD },
	{ "...answered in bursts", 250, 64, 7, 0, 0, 0, 0, 0, 0, 200 * DEAD },
	{ "...reports jittering", 250, 16, 5, 0, DEAD, 0, 0, 0, 0, 200 * DEAD },
	{ "...reports in bursts", 256, 16, 7, 0, 0, 2 * DEAD, 0, 0, 0,
	  200 * DEAD },
	{ "...reports late, jittering, in bursts", 250, 16, 7, 2 * DEAD, DEAD,
	  2 * DEAD, 0, 0, 0, 200 * DEAD },
	{ "...a slower requester, reports a dead_after_ns late", 256, 16, 3,
	  DEAD, 0, 0, 0, 0, 0, 200 * DEAD },
};

KUNIT_ARRAY_PARAM(late, late_cases, sim_desc);

/*
 * Nothing is lost; the reports come late (a slow requester, a late link),
 * jittering, in bursts: they kill no path. (Silence timed from when the
 * reports come, the path set's own rule, killed paths in five of these:
 * with READs longer than the responder's window and a slow requester, a
 * report comes long after the paths' last news and covers only a few
 * responses still watched, on some of the paths.)
 */
static void rmp_rdp_report__late_reports_kill_nothing(struct kunit *test)
{
	const struct sim_case *c = test->param_value;
	struct sim *m = sim_run(test, c);
	u64 delivered = 0;
	u32 i;

	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_EQ(test, m->e->ps.path[i].stats.deaths, 0ULL);
		KUNIT_EXPECT_EQ(test, m->e->ps.path[i].stats.lost, 0ULL);
		delivered += m->e->ps.path[i].stats.delivered;
	}
	KUNIT_EXPECT_GT(test, m->e->d.stats.reports, 50ULL);
	KUNIT_EXPECT_GT(test, delivered, 0ULL);
	KUNIT_EXPECT_GE(test, m->una, 1000U);
	kunit_info(test, "%s: %llu reports, %llu deliveries of %u responses\n",
		   c->name, (unsigned long long)m->e->d.stats.reports,
		   (unsigned long long)delivered, m->next);
}

static const struct sim_case dark_cases[] = {
	/* name, read_len, tx, rx, lag, jitter, burst, dark, from, stop, until */
	{ "reports in time", 4096, 2, 0, 0, 0, 0, BIT(2), 10 * DEAD, 0,
	  40 * DEAD },
	{ "reports 2 dead_after_ns late", 4096, 2, 0, 2 * DEAD, 0, 0, BIT(2),
	  10 * DEAD, 0, 40 * DEAD },
	{ "reports late, jittering, in bursts", 4096, 2, 0, DEAD / 2, DEAD / 2,
	  DEAD, BIT(2), 10 * DEAD, 0, 40 * DEAD },
};

KUNIT_ARRAY_PARAM(dark, dark_cases, sim_desc);

/*
 * One path dark among four, the requester repairing nothing (only
 * silence can tell), the reports flowing, late or not: it dies, no
 * sooner than dead_after_ns after it went dark and no later than the
 * report of a response sent dead_after_ns after its first lost one
 * (that report due SIM_EVERY responses on, then its lag and burst).
 * The others live.
 */
static void rmp_rdp_report__dark_path_dies(struct kunit *test)
{
	const struct sim_case *c = test->param_value;
	struct sim *m = sim_run(test, c);
	u64 bound = c->dark_from + DEAD + c->lag + c->jitter + c->burst +
		    (SIM_EVERY / c->tx + 2) * SIM_STEP;
	u32 i;

	for (i = 0; i < NPATHS; i++)
		KUNIT_EXPECT_EQ(test, m->e->ps.path[i].stats.deaths,
				(u64)(i == 2));
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&m->e->ps, 2));
	KUNIT_EXPECT_GE(test, m->died_at[2], c->dark_from + DEAD);
	KUNIT_EXPECT_LE(test, m->died_at[2], bound);
	kunit_info(test, "%s: dark at %llu us, dead at %llu us (bound %llu)\n",
		   c->name, (unsigned long long)(c->dark_from / US),
		   (unsigned long long)(m->died_at[2] / US),
		   (unsigned long long)(bound / US));
}

static const struct sim_case stop_cases[] = {
	/* name, read_len, tx, rx, lag, jitter, burst, dark, from, stop, until */
	{ "READs of 16, in time, then none", 16, 4, 0, 0, 0, 0, 0, 0,
	  10 * DEAD, 200 * DEAD },
	{ "READs over the window, a slow requester, then none", 250, 16, 7, 0,
	  0, 0, 0, 0, 10 * DEAD, 200 * DEAD },
	{ "a path dark as they stop", 4096, 2, 0, 0, 0, 0, BIT(1), 10 * DEAD,
	  10 * DEAD, 200 * DEAD },
};

KUNIT_ARRAY_PARAM(stop, stop_cases, sim_desc);

/*
 * The reports stop (the requester has gone quiet, or its reports are
 * lost) while responses keep going: that tells nothing of any one path,
 * and none dies, not even one that went dark as they stopped.
 */
static void rmp_rdp_report__reports_stop_no_deaths(struct kunit *test)
{
	const struct sim_case *c = test->param_value;
	struct sim *m = sim_run(test, c);
	u32 i;

	for (i = 0; i < NPATHS; i++) {
		KUNIT_EXPECT_EQ(test, m->e->ps.path[i].stats.deaths, 0ULL);
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&m->e->ps, i));
	}
	KUNIT_EXPECT_GT(test, m->e->d.stats.reports, 10ULL);
	KUNIT_EXPECT_EQ(test, m->e->d.next_tick, 0ULL);
}

/* A probe asked for again failed; three of them give the path new entropy. */
static void rmp_rdp_pick__failed_probes_replace(struct kunit *test)
{
	struct rdp_env *e = env_new(test, 0);
	u16 sport = e->ps.path[3].sport;
	struct rmp_sack s;
	u64 now = 0;
	u32 i;

	send(test, e, 0, 13, now);
	report_of(e, &s, 3, 12, held_but(3, 3, 12));
	KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s, psn_at(e, 13), now), 0);
	for (i = 0; i < 3; i++)
		rmp_rdp_pick(&e->d, psn_at(e, 3 + 4 * i), LEN, now);
	KUNIT_ASSERT_FALSE(test, rmp_paths_live(&e->ps, 3));
	for (i = 0; i < 3; i++) {
		now += PROBE;
		KUNIT_ASSERT_EQ(test, rmp_rdp_pick(&e->d, psn_at(e, 13 + 2 * i),
						   LEN, now), 3U);
		KUNIT_ASSERT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 14 + 2 * i),
						   LEN, now), 3U);
		/* The one after the probe came, the probe did not... */
		report_of(e, &s, 13 + 2 * i, 14 + 2 * i, 1ULL << 1);
		KUNIT_ASSERT_EQ(test, rmp_rdp_report(&e->d, &s,
						     psn_at(e, 15 + 2 * i),
						     now + US), 0);
		/* ...and the repair of the probe. */
		KUNIT_EXPECT_NE(test, rmp_rdp_pick(&e->d, psn_at(e, 13 + 2 * i),
						   LEN, now + 2 * US), 3U);
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
	KUNIT_CASE_PARAM(rmp_rdp_pick__rest_of_a_read_asked_blindly,
			 base_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_report__resent_dates_nothing, base_gen_params),
	KUNIT_CASE(rmp_rdp_report__deliveries_forgive),
	KUNIT_CASE_PARAM(rmp_rdp_report__silent_dies_probe_revives,
			 base_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_report__late_reports_kill_nothing,
			 late_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_report__dark_path_dies, dark_gen_params),
	KUNIT_CASE_PARAM(rmp_rdp_report__reports_stop_no_deaths,
			 stop_gen_params),
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
