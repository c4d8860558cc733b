// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for DCQCN: the reaction point's cuts, alpha, the three
 * phases of increase and their catching up, the pacer, the deadline, the
 * notification point's gate, and two flows sharing a link; time is a fake
 * clock.
 */
#include <kunit/test.h>

#include "../engine/dcqcn.h"

#define US	1000ULL
#define MS	(1000 * US)
#define SEC	(1000 * MS)
#define T0	MS
/* 10 Gbit/s, in kbit/s. */
#define LINE	10000000ULL

static void setup_cfg(struct kunit *test, struct rmp_dcqcn *d,
		      const struct rmp_dcqcn_cfg *cfg)
{
	KUNIT_ASSERT_EQ(test, rmp_dcqcn_cfg_check(cfg), 0);
	rmp_dcqcn_init(d, cfg, T0);
}

static void setup(struct kunit *test, struct rmp_dcqcn *d, u64 line)
{
	struct rmp_dcqcn_cfg cfg;

	rmp_dcqcn_cfg_default(&cfg, line);
	setup_cfg(test, d, &cfg);
}

/*
 * @n CNPs from @t, 10 us apart: past the cut interval, within K and T of
 * each other, so alpha stays 1 and each halves the rate. Return: the time
 * of the last.
 */
static u64 cut(struct rmp_dcqcn *d, int n, u64 t)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			t += 10 * US;
		rmp_dcqcn_cnp(d, t);
	}
	return t;
}

/* @got is @want give or take @tol. */
static void expect_near(struct kunit *test, u64 got, u64 want, u64 tol)
{
	KUNIT_EXPECT_LE(test, got, want + tol);
	KUNIT_EXPECT_GE(test, got + tol, want);
}

/* (1 - 1/2^g)^n in 1/RMP_DCQCN_ALPHA_ONE, step by step in 40 bits. */
static u64 decayed(u32 g, u64 n)
{
	u64 e = 1ULL << 40;

	while (n--)
		e -= e >> g;
	return e >> (40 - RMP_DCQCN_ALPHA_SHIFT);
}

static u32 xorshift(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

struct line_case {
	const char *desc;
	u64 line_kbps;
};

static void line_desc(const struct line_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct line_case line_cases[] = {
	{ "1 kbit/s", 1 },
	{ "1 Mbit/s", 1000 },
	{ "20 Mbit/s", 20000 },
	{ "1 Gbit/s", 1000000 },
	{ "10 Gbit/s", 10000000 },
	{ "100 Gbit/s", 100000000 },
	{ "800 Gbit/s", 800000000 },
	{ "the largest", RMP_DCQCN_LINE_MAX },
};

KUNIT_ARRAY_PARAM(line, line_cases, line_desc);

static void rmp_dcqcn_cfg_default__passes(struct kunit *test)
{
	const struct line_case *c = test->param_value;
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn d;
	u64 slow;

	rmp_dcqcn_cfg_default(&cfg, c->line_kbps);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, cfg.line_kbps, c->line_kbps);
	KUNIT_EXPECT_EQ(test, cfg.g_shift, 8);
	KUNIT_EXPECT_EQ(test, cfg.fast_stages, 5);
	KUNIT_EXPECT_GE(test, cfg.burst_bytes, 65536);
	/* K and T: 55 us, or what a slower line takes to carry 12 KiB. */
	slow = 12288ULL * 8000000 / c->line_kbps;
	KUNIT_EXPECT_EQ(test, cfg.alpha_period_ns, slow > 55000 ? slow : 55000);
	KUNIT_EXPECT_EQ(test, cfg.rate_period_ns, cfg.alpha_period_ns);
	rmp_dcqcn_init(&d, &cfg, T0);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), c->line_kbps);
	KUNIT_EXPECT_EQ(test, d.alpha, RMP_DCQCN_ALPHA_ONE);
	KUNIT_EXPECT_TRUE(test, rmp_dcqcn_may_send(&d, T0));
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, T0), RMP_DCQCN_NEVER);
}

enum cfg_field {
	F_LINE, F_MIN, F_G, F_K, F_T, F_B, F_F, F_AI, F_HAI, F_BURST, F_CUT,
};

struct cfg_case {
	const char *desc;
	enum cfg_field field;
	u64 value;
	int err;
};

static void cfg_desc(const struct cfg_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

/* Against the defaults for LINE: R_AI 10 Mbit/s, R_HAI 100 Mbit/s. */
static const struct cfg_case cfg_cases[] = {
	{ "no line rate", F_LINE, 0, -EINVAL },
	{ "line rate above the largest", F_LINE, RMP_DCQCN_LINE_MAX + 1,
	  -EINVAL },
	{ "largest line rate", F_LINE, RMP_DCQCN_LINE_MAX, 0 },
	{ "line rate below R_HAI", F_LINE, 99999, -EINVAL },
	{ "no floor", F_MIN, 0, -EINVAL },
	{ "floor above the line rate", F_MIN, LINE + 1, -EINVAL },
	{ "floor at the line rate", F_MIN, LINE, 0 },
	{ "g shift 0", F_G, 0, -EINVAL },
	{ "g shift 1", F_G, 1, 0 },
	{ "g shift 16", F_G, 16, 0 },
	{ "g shift 17", F_G, 17, -EINVAL },
	{ "no alpha period", F_K, 0, -EINVAL },
	{ "no rate period", F_T, 0, -EINVAL },
	{ "no byte threshold", F_B, 0, -EINVAL },
	{ "one byte threshold", F_B, 1, 0 },
	{ "no fast stage", F_F, 0, -EINVAL },
	{ "most fast stages", F_F, RMP_DCQCN_STAGES_MAX, 0 },
	{ "too many fast stages", F_F, RMP_DCQCN_STAGES_MAX + 1, -EINVAL },
	{ "no R_AI", F_AI, 0, -EINVAL },
	{ "R_AI above R_HAI", F_AI, 100001, -EINVAL },
	{ "R_AI at R_HAI", F_AI, 100000, 0 },
	{ "R_HAI below R_AI", F_HAI, 9999, -EINVAL },
	{ "R_HAI above the line rate", F_HAI, LINE + 1, -EINVAL },
	{ "R_HAI at the line rate", F_HAI, LINE, 0 },
	{ "no bucket", F_BURST, 0, -EINVAL },
	{ "one-byte bucket", F_BURST, 1, 0 },
	{ "largest bucket", F_BURST, RMP_DCQCN_BURST_MAX, 0 },
	{ "bucket above the largest", F_BURST, RMP_DCQCN_BURST_MAX + 1,
	  -EINVAL },
	{ "cut on every CNP", F_CUT, 0, 0 },
};

KUNIT_ARRAY_PARAM(cfg, cfg_cases, cfg_desc);

static void rmp_dcqcn_cfg_check__validates(struct kunit *test)
{
	const struct cfg_case *c = test->param_value;
	struct rmp_dcqcn_cfg cfg;

	rmp_dcqcn_cfg_default(&cfg, LINE);
	switch (c->field) {
	case F_LINE:
		cfg.line_kbps = c->value;
		break;
	case F_MIN:
		cfg.min_kbps = c->value;
		break;
	case F_G:
		cfg.g_shift = c->value;
		break;
	case F_K:
		cfg.alpha_period_ns = c->value;
		break;
	case F_T:
		cfg.rate_period_ns = c->value;
		break;
	case F_B:
		cfg.byte_threshold = c->value;
		break;
	case F_F:
		cfg.fast_stages = c->value;
		break;
	case F_AI:
		cfg.ai_kbps = c->value;
		break;
	case F_HAI:
		cfg.hai_kbps = c->value;
		break;
	case F_BURST:
		cfg.burst_bytes = c->value;
		break;
	case F_CUT:
		cfg.cut_interval_ns = c->value;
		break;
	}
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_cfg_check(&cfg), c->err);
}

static void rmp_dcqcn_cnp__first_halves(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t = T0 + 3 * MS;

	setup(test, &d, LINE);
	rmp_dcqcn_cnp(&d, t);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 2);
	KUNIT_EXPECT_EQ(test, d.rt_kbps, LINE);
	/* (1 - g) 1 + g is 1 again. */
	KUNIT_EXPECT_EQ(test, d.alpha, RMP_DCQCN_ALPHA_ONE);
	KUNIT_EXPECT_EQ(test, d.stats.cnps, 1);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 1);
	/* The rate timer runs from the cut. */
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, t),
			t + d.cfg.rate_period_ns);
}

static void rmp_dcqcn_cnp__shrinks_to_the_floor(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 want = LINE, t = T0;
	int i;

	setup(test, &d, LINE);
	for (i = 0; i < 20; i++) {
		rmp_dcqcn_cnp(&d, t);
		KUNIT_EXPECT_EQ(test, d.rt_kbps, want);
		want -= want / 2;
		if (want < d.cfg.min_kbps)
			want = d.cfg.min_kbps;
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), want);
		KUNIT_EXPECT_GE(test, rmp_dcqcn_rate(&d), d.cfg.min_kbps);
		t += 10 * US;
	}
	/* 10 Gbit/s halved 14 times is below 1 Mbit/s. */
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), d.cfg.min_kbps);
	KUNIT_EXPECT_EQ(test, d.stats.floored, 7);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 20);
}

static void rmp_dcqcn_cnp__cut_interval(struct kunit *test)
{
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn d;
	u64 t = T0;

	setup(test, &d, LINE);
	rmp_dcqcn_cnp(&d, t);
	rmp_dcqcn_cnp(&d, t + d.cfg.cut_interval_ns - 1);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 2);
	KUNIT_EXPECT_EQ(test, d.stats.cnps, 2);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 1);
	rmp_dcqcn_cnp(&d, t + d.cfg.cut_interval_ns);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 4);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 2);

	/* Without an interval, CNPs at one instant cut each. */
	rmp_dcqcn_cfg_default(&cfg, LINE);
	cfg.cut_interval_ns = 0;
	setup_cfg(test, &d, &cfg);
	rmp_dcqcn_cnp(&d, t);
	rmp_dcqcn_cnp(&d, t);
	rmp_dcqcn_cnp(&d, t);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 8);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 3);
}

/* A CNP inside the cut interval still holds alpha's decay off. */
static void rmp_dcqcn_cnp__ignored_one_holds_alpha(struct kunit *test)
{
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn d;
	u64 t = T0, k;

	rmp_dcqcn_cfg_default(&cfg, LINE);
	cfg.cut_interval_ns = 100 * US;
	setup_cfg(test, &d, &cfg);
	k = cfg.alpha_period_ns;
	rmp_dcqcn_cnp(&d, t);
	rmp_dcqcn_cnp(&d, t + k / 2);
	rmp_dcqcn_tick(&d, t + k);
	KUNIT_EXPECT_EQ(test, d.alpha, RMP_DCQCN_ALPHA_ONE);
	rmp_dcqcn_tick(&d, t + k / 2 + k);
	KUNIT_EXPECT_EQ(test, d.alpha, decayed(8, 1));
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 1);
}

struct alpha_case {
	const char *desc;
	u32 g_shift;
};

static void alpha_desc(const struct alpha_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct alpha_case alpha_cases[] = {
	{ "g 1/256", 8 },
	{ "g 1/16", 4 },
	{ "g 1/65536", 16 },
};

KUNIT_ARRAY_PARAM(alpha, alpha_cases, alpha_desc);

static void rmp_dcqcn_alpha__decays(struct kunit *test)
{
	static const u64 periods[] = { 1, 2, 10, 100, 1000, 5000 };
	const struct alpha_case *c = test->param_value;
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn d;
	u64 t = T0, k, want;
	size_t i;

	rmp_dcqcn_cfg_default(&cfg, LINE);
	cfg.g_shift = c->g_shift;
	setup_cfg(test, &d, &cfg);
	k = cfg.alpha_period_ns;
	/* No CNP yet: alpha stays 1 for the first one. */
	rmp_dcqcn_tick(&d, t + 100 * k);
	KUNIT_EXPECT_EQ(test, d.alpha, RMP_DCQCN_ALPHA_ONE);
	t += 100 * k;
	rmp_dcqcn_cnp(&d, t);
	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		/* A ns short of n periods, n - 1 decays; then n. */
		rmp_dcqcn_tick(&d, t + periods[i] * k - 1);
		want = decayed(c->g_shift, periods[i] - 1);
		expect_near(test, d.alpha, want, want / 1000 + 2);
		rmp_dcqcn_tick(&d, t + periods[i] * k);
		want = decayed(c->g_shift, periods[i]);
		expect_near(test, d.alpha, want, want / 1000 + 2);
	}
	KUNIT_EXPECT_EQ(test, d.alpha_periods, 5000);
	/* Long enough, and nothing is left. */
	rmp_dcqcn_tick(&d, t + 100000000 * k);
	KUNIT_EXPECT_EQ(test, d.alpha, 0);
	/* Then a CNP no longer cuts, and raises alpha by g. */
	rmp_dcqcn_cnp(&d, t + 100000000 * k);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE);
	KUNIT_EXPECT_EQ(test, d.alpha, RMP_DCQCN_ALPHA_ONE >> c->g_shift);
}

static void rmp_dcqcn_cnp__cuts_by_half_alpha(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t = T0, k, rate, want;
	u32 alpha;

	setup(test, &d, LINE);
	k = d.cfg.alpha_period_ns;
	rmp_dcqcn_cnp(&d, t);
	/* 100 alpha periods: alpha near (255/256)^100, about 0.68. */
	t += 100 * k;
	rmp_dcqcn_tick(&d, t);
	alpha = d.alpha;
	expect_near(test, alpha, decayed(8, 100), decayed(8, 100) / 1000);
	rate = rmp_dcqcn_rate(&d);
	rmp_dcqcn_cnp(&d, t);
	KUNIT_EXPECT_EQ(test, d.rt_kbps, rate);
	/* Rc (1 - alpha / 2), to a kbit/s. */
	want = rate - rate * alpha / (2 * RMP_DCQCN_ALPHA_ONE);
	expect_near(test, rmp_dcqcn_rate(&d), want, 1);
	/* About 0.66 of the rate, not a half. */
	KUNIT_EXPECT_GT(test, rmp_dcqcn_rate(&d), rate * 65 / 100);
	KUNIT_EXPECT_LT(test, rmp_dcqcn_rate(&d), rate * 67 / 100);
	/* (1 - g) alpha + g. */
	expect_near(test, d.alpha,
		    alpha + (RMP_DCQCN_ALPHA_ONE - alpha) / 256, 1);
}

static void rmp_dcqcn_tick__fast_recovery(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t, p, rc;
	u32 k;

	setup(test, &d, LINE);
	t = cut(&d, 1, T0);
	p = d.cfg.rate_period_ns;
	/* Each period halves the way back to 10 Gbit/s. */
	for (k = 1; k <= d.cfg.fast_stages; k++) {
		rmp_dcqcn_tick(&d, t + k * p - 1);
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d),
				LINE - ((LINE / 2) >> (k - 1)));
		rmp_dcqcn_tick(&d, t + k * p);
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d),
				LINE - ((LINE / 2) >> k));
		KUNIT_EXPECT_EQ(test, d.rt_kbps, LINE);
	}
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), 9843750);
	KUNIT_EXPECT_EQ(test, d.stats.fast, 5);
	KUNIT_EXPECT_EQ(test, d.stats.additive, 0);
	/* Then additive; and a cut brings fast recovery back. */
	rmp_dcqcn_tick(&d, t + 7 * p);
	KUNIT_EXPECT_EQ(test, d.stats.additive, 2);
	t += 7 * p;
	rmp_dcqcn_cnp(&d, t);
	KUNIT_EXPECT_EQ(test, d.timer_stage, 0);
	rc = rmp_dcqcn_rate(&d);
	rmp_dcqcn_tick(&d, t + p);
	KUNIT_EXPECT_EQ(test, d.stats.fast, 6);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d),
			d.rt_kbps - (d.rt_kbps - rc) / 2);
}

/* One rate-increase event and the growth of Rt it must bring. */
struct event {
	bool timer;
	u64 ai;
	u64 hai;
};

static void rmp_dcqcn_tick__additive_then_hyper(struct kunit *test)
{
	/* F = 5; each line is the event's stages after it (timer, bytes). */
	static const struct event events[] = {
		{ true, 0, 0 },		/* 1, 0: fast recovery */
		{ true, 0, 0 },		/* 2, 0 */
		{ true, 0, 0 },		/* 3, 0 */
		{ true, 0, 0 },		/* 4, 0 */
		{ true, 0, 0 },		/* 5, 0 */
		{ true, 1, 0 },		/* 6, 0: additive */
		{ true, 1, 0 },		/* 7, 0 */
		{ true, 1, 0 },		/* 8, 0 */
		{ false, 1, 0 },	/* 8, 1: still additive */
		{ false, 1, 0 },	/* 8, 2 */
		{ false, 1, 0 },	/* 8, 3 */
		{ false, 1, 0 },	/* 8, 4 */
		{ false, 1, 0 },	/* 8, 5 */
		{ false, 0, 1 },	/* 8, 6: hyper, i = 1 */
		{ false, 0, 2 },	/* 8, 7: i = 2 */
		{ false, 0, 3 },	/* 8, 8: i = 3 */
		{ false, 0, 3 },	/* 8, 9: i = min - F = 3 */
		{ true, 0, 4 },		/* 9, 9: i = 4 */
	};
	struct rmp_dcqcn d;
	u64 t, p, rt, rc;
	u32 periods = 0;
	size_t i;

	setup(test, &d, LINE);
	/* Rt half the line rate, away from the ceiling. */
	t = cut(&d, 2, T0);
	KUNIT_ASSERT_EQ(test, d.rt_kbps, LINE / 2);
	p = d.cfg.rate_period_ns;
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		rt = d.rt_kbps;
		rc = rmp_dcqcn_rate(&d);
		if (events[i].timer) {
			rmp_dcqcn_tick(&d, t + ++periods * p);
		} else {
			/* A byte event, at the same instant. */
			rmp_dcqcn_sent(&d, d.cfg.byte_threshold,
				       t + periods * p);
		}
		KUNIT_EXPECT_EQ(test, d.rt_kbps,
				rt + events[i].ai * d.cfg.ai_kbps +
				events[i].hai * d.cfg.hai_kbps);
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d),
				d.rt_kbps - (d.rt_kbps - rc) / 2);
	}
	KUNIT_EXPECT_EQ(test, d.stats.fast, 5);
	KUNIT_EXPECT_EQ(test, d.stats.additive, 8);
	KUNIT_EXPECT_EQ(test, d.stats.hyper, 5);
	KUNIT_EXPECT_EQ(test, d.stats.timer_events, 9);
	KUNIT_EXPECT_EQ(test, d.stats.byte_events, 9);
}

static void rmp_dcqcn_tick__back_to_line_then_quiet(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t, p, increases, n = 0;

	setup(test, &d, LINE);
	t = cut(&d, 20, T0);
	KUNIT_ASSERT_EQ(test, rmp_dcqcn_rate(&d), d.cfg.min_kbps);
	p = d.cfg.rate_period_ns;
	while (rmp_dcqcn_rate(&d) < LINE && n < 100000) {
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, t), t + p);
		t += p;
		rmp_dcqcn_tick(&d, t);
		n++;
		KUNIT_EXPECT_LE(test, rmp_dcqcn_rate(&d), d.rt_kbps);
	}
	/* From the floor, R_AI a period: about a thousand periods. */
	KUNIT_EXPECT_GT(test, n, 900);
	KUNIT_EXPECT_LT(test, n, 1100);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE);
	KUNIT_EXPECT_EQ(test, d.rt_kbps, LINE);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, t), RMP_DCQCN_NEVER);
	increases = d.stats.increases;
	rmp_dcqcn_tick(&d, t + 100 * p);
	rmp_dcqcn_sent(&d, 100 * d.cfg.byte_threshold, t + 100 * p);
	KUNIT_EXPECT_EQ(test, d.stats.increases, increases);
	KUNIT_EXPECT_EQ(test, d.stats.byte_events, 0);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE);
}

/* Time enough to go back to the line rate a thousand times over. */
static void rmp_dcqcn_tick__long_gap_is_bounded(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t;

	setup(test, &d, LINE);
	t = cut(&d, 20, T0);
	rmp_dcqcn_tick(&d, t + (1ULL << 62));
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE);
	KUNIT_EXPECT_EQ(test, d.alpha, 0);
	/* Counting only the events it took to get there. */
	KUNIT_EXPECT_LT(test, d.timer_stage, 1100);
	KUNIT_EXPECT_EQ(test, d.stats.increases, d.timer_stage);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, t + (1ULL << 62)),
			RMP_DCQCN_NEVER);
}

static void rmp_dcqcn_sent__byte_counter(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t, sent = 0, b;

	setup(test, &d, LINE);
	b = d.cfg.byte_threshold;
	/* At the line rate bytes count for nothing. */
	rmp_dcqcn_sent(&d, 10 * b, T0);
	KUNIT_EXPECT_EQ(test, d.stats.byte_events, 0);
	t = cut(&d, 1, T0 + 10 * US);
	/* A fast sender, all at one instant: no timer event. */
	while (sent + 4096 <= b) {
		rmp_dcqcn_sent(&d, 4096, t);
		sent += 4096;
	}
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 2);
	rmp_dcqcn_sent(&d, 4096, t);
	KUNIT_EXPECT_EQ(test, d.stats.byte_events, 1);
	KUNIT_EXPECT_EQ(test, d.stats.timer_events, 0);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE - LINE / 4);
	/* Four more fast recoveries, then additive on bytes alone. */
	rmp_dcqcn_sent(&d, 5 * b, t);
	KUNIT_EXPECT_EQ(test, d.stats.byte_events, 6);
	KUNIT_EXPECT_EQ(test, d.stats.fast, 5);
	KUNIT_EXPECT_EQ(test, d.stats.additive, 1);
	KUNIT_EXPECT_EQ(test, d.byte_stage, 6);
	/* A cut starts the byte counter over. */
	rmp_dcqcn_cnp(&d, t + 10 * US);
	KUNIT_EXPECT_EQ(test, d.byte_stage, 0);
	KUNIT_EXPECT_EQ(test, d.bytes, 0);
}

/* A CNP first runs the increases due before it. */
static void rmp_dcqcn_cnp__catches_up_first(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t;

	setup(test, &d, LINE);
	t = cut(&d, 1, T0);
	rmp_dcqcn_cnp(&d, t + 3 * d.cfg.rate_period_ns + 1);
	KUNIT_EXPECT_EQ(test, d.stats.fast, 3);
	KUNIT_EXPECT_EQ(test, d.rt_kbps, LINE - LINE / 16);
	/* Alpha decayed three periods: a little less than half off. */
	KUNIT_EXPECT_GE(test, rmp_dcqcn_rate(&d), d.rt_kbps / 2);
	KUNIT_EXPECT_LT(test, rmp_dcqcn_rate(&d), d.rt_kbps / 2 + 100000);
}

struct pace_case {
	const char *desc;
	u64 line_kbps;
	int cuts;
	u32 packet;
};

static void pace_desc(const struct pace_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct pace_case pace_cases[] = {
	{ "1 Gbit/s, 1500 B", 1000000, 0, 1500 },
	{ "10 Gbit/s, 4096 B", LINE, 0, 4096 },
	{ "1.25 Gbit/s of 10, 4096 B", LINE, 3, 4096 },
	{ "about 5 Mbit/s of 10 Gbit/s, 1024 B", LINE, 11, 1024 },
	{ "the 1 Mbit/s floor, 64 B", LINE, 20, 64 },
	{ "100 Gbit/s, 64 KiB", 100000000, 0, 65536 },
	{ "800 Gbit/s, 64 KiB", 800000000, 0, 65536 },
	{ "400 Gbit/s of 800, 9000 B", 800000000, 1, 9000 },
};

KUNIT_ARRAY_PARAM(pace, pace_cases, pace_desc);

/* A rate that stays: no increase from the timer or the bytes. */
static void setup_frozen(struct kunit *test, struct rmp_dcqcn *d,
			 u64 line, int cuts)
{
	struct rmp_dcqcn_cfg cfg;

	rmp_dcqcn_cfg_default(&cfg, line);
	cfg.rate_period_ns = 1000 * SEC;
	cfg.byte_threshold = ~0ULL;
	setup_cfg(test, d, &cfg);
	cut(d, cuts, T0);
}

static void rmp_dcqcn_pacer__holds_the_rate(struct kunit *test)
{
	const struct pace_case *c = test->param_value;
	u64 t = T0 + MS, start, bytes = 0, want, next;
	struct rmp_dcqcn d;

	setup_frozen(test, &d, c->line_kbps, c->cuts);
	/* Empty the bucket first: it is no part of the rate. */
	while (rmp_dcqcn_may_send(&d, t))
		rmp_dcqcn_sent(&d, c->packet, t);
	start = t;
	while (t < start + SEC) {
		if (rmp_dcqcn_may_send(&d, t)) {
			rmp_dcqcn_sent(&d, c->packet, t);
			bytes += c->packet;
			continue;
		}
		next = rmp_dcqcn_deadline(&d, t);
		KUNIT_ASSERT_GT(test, next, t);
		KUNIT_ASSERT_EQ(test, next, rmp_dcqcn_next_send(&d, t));
		/* It opens at the deadline, not a ns sooner. */
		KUNIT_ASSERT_FALSE(test, rmp_dcqcn_may_send(&d, next - 1));
		KUNIT_ASSERT_TRUE(test, rmp_dcqcn_may_send(&d, next));
		t = next;
	}
	/* kbit/s for a second, in bytes. */
	want = rmp_dcqcn_rate(&d) * 1000 / 8;
	expect_near(test, bytes, want, want / 100);
}

static void rmp_dcqcn_pacer__bursts_are_bounded(struct kunit *test)
{
	static const u64 idle[] = { 0, 1, 10 * US, SEC, 3600 * SEC,
				    1ULL << 62 };
	struct rmp_dcqcn d;
	u64 t = T0, burst, bytes;
	u32 pkt = 4096;
	size_t i;

	setup(test, &d, 800000000);
	burst = d.cfg.burst_bytes;
	for (i = 0; i < ARRAY_SIZE(idle); i++) {
		t += idle[i];
		bytes = 0;
		while (rmp_dcqcn_may_send(&d, t)) {
			rmp_dcqcn_sent(&d, pkt, t);
			bytes += pkt;
		}
		KUNIT_EXPECT_LE(test, bytes, burst + pkt);
		if (idle[i] >= SEC)
			KUNIT_EXPECT_GE(test, bytes, burst);
	}
}

/* No window of a bursty sender carries more than a bucket beyond rate. */
static void rmp_dcqcn_pacer__windows_are_bounded(struct kunit *test)
{
	const u32 n = 4000, span = 400;
	u64 *at = kunit_kzalloc(test, n * sizeof(*at), GFP_KERNEL);
	u64 *sum = kunit_kzalloc(test, n * sizeof(*sum), GFP_KERNEL);
	struct rmp_dcqcn d;
	u64 t = T0 + MS, limit, total = 0;
	u32 i, j, rng = 7, len, pkt = 9000;

	KUNIT_ASSERT_NOT_NULL(test, at);
	KUNIT_ASSERT_NOT_NULL(test, sum);
	setup_frozen(test, &d, LINE, 2);
	for (i = 0; i < n; i++) {
		/* Back to back mostly, now and then a pause. */
		if (!(xorshift(&rng) % 16))
			t += xorshift(&rng) % (200 * US);
		if (!rmp_dcqcn_may_send(&d, t))
			t = rmp_dcqcn_next_send(&d, t);
		len = 64 + xorshift(&rng) % (pkt - 64);
		rmp_dcqcn_sent(&d, len, t);
		at[i] = t;
		total += len;
		sum[i] = total;
	}
	/* Bytes sent from packet i to packet j, both in. */
	for (i = 1; i < n; i++) {
		for (j = i; j < n && j < i + span; j++) {
			limit = d.cfg.burst_bytes + pkt +
				(at[j] - at[i]) * rmp_dcqcn_rate(&d) /
				RMP_DCQCN_TOKENS_PER_BYTE;
			KUNIT_ASSERT_LE(test, sum[j] - sum[i - 1], limit);
		}
	}
}

static void rmp_dcqcn_pacer__big_packet_goes(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t = T0, open;

	setup(test, &d, LINE);
	KUNIT_ASSERT_EQ(test, d.cfg.burst_bytes, 65536);
	rmp_dcqcn_sent(&d, 65000, t);
	/* 536 bytes left: a 64 KiB packet still goes. */
	KUNIT_EXPECT_TRUE(test, rmp_dcqcn_may_send(&d, t));
	rmp_dcqcn_sent(&d, 65536, t);
	KUNIT_EXPECT_FALSE(test, rmp_dcqcn_may_send(&d, t));
	/* 65000 bytes of debt at 10 Gbit/s: 52 us. */
	open = rmp_dcqcn_next_send(&d, t);
	KUNIT_EXPECT_EQ(test, open, t + 52 * US);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_deadline(&d, t), open);
	KUNIT_EXPECT_FALSE(test, rmp_dcqcn_may_send(&d, open - 1));
	KUNIT_EXPECT_TRUE(test, rmp_dcqcn_may_send(&d, open));
}

static void rmp_dcqcn__time_going_back(struct kunit *test)
{
	struct rmp_dcqcn d;
	u64 t = T0 + MS;
	s64 tokens;

	setup(test, &d, LINE);
	t = cut(&d, 1, t);
	/* A full bucket, and 1000 bytes more. */
	rmp_dcqcn_sent(&d, 66536, t + 10 * US);
	tokens = d.tokens;
	/* Earlier than seen: no time passed, no refill, no event. */
	KUNIT_EXPECT_FALSE(test, rmp_dcqcn_may_send(&d, t));
	rmp_dcqcn_tick(&d, t - 10 * US);
	rmp_dcqcn_sent(&d, 100, t);
	KUNIT_EXPECT_EQ(test, d.tokens,
			tokens - (s64)(100 * RMP_DCQCN_TOKENS_PER_BYTE));
	KUNIT_EXPECT_EQ(test, d.stats.increases, 0);
	KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE / 2);
	KUNIT_EXPECT_GT(test, rmp_dcqcn_next_send(&d, t), t + 10 * US);
	/* A CNP from the past counts from the last cut, not before it. */
	rmp_dcqcn_cnp(&d, t - 1 * US);
	KUNIT_EXPECT_EQ(test, d.stats.cuts, 1);
	KUNIT_EXPECT_EQ(test, d.rate_start, t);
	KUNIT_EXPECT_GT(test, rmp_dcqcn_deadline(&d, t - 1 * US),
			t + 10 * US);
}

struct catch_case {
	const char *desc;
	u64 periods;
	u64 ai_kbps;
	u64 hai_kbps;
	u32 byte_events;
	bool exact;
};

static void catch_desc(const struct catch_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct catch_case catch_cases[] = {
	{ "3 periods, fast recovery", 3, 10, 100, 0, true },
	{ "7 periods, into additive", 7, 10, 100, 0, true },
	{ "200 periods, additive", 200, 10, 100, 0, true },
	{ "100000 periods, additive", 100000, 10, 100, 0, true },
	{ "2000 periods, to the line rate", 2000, 10000, 100000, 0, true },
	{ "1000 periods, hyper at a steady step", 1000, 10, 100, 7, true },
	{ "5000 periods, hyper to the line rate", 5000, 10, 10000, 7,
	  true },
	{ "1000 periods, hyper speeding up then steady", 1000, 1, 1, 120,
	  true },
	{ "2000 periods, hyper speeding up", 2000, 1, 1, 1000, false },
};

KUNIT_ARRAY_PARAM(catch, catch_cases, catch_desc);

/* Ticking once after many periods, against ticking every period. */
static void rmp_dcqcn_tick__catching_up(struct kunit *test)
{
	const struct catch_case *c = test->param_value;
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn every, once;
	u64 t, p, i;
	u32 e;

	rmp_dcqcn_cfg_default(&cfg, LINE);
	cfg.ai_kbps = c->ai_kbps;
	cfg.hai_kbps = c->hai_kbps;
	setup_cfg(test, &every, &cfg);
	setup_cfg(test, &once, &cfg);
	t = cut(&every, 3, T0);
	cut(&once, 3, T0);
	for (e = 0; e < c->byte_events; e++) {
		rmp_dcqcn_sent(&every, cfg.byte_threshold, t);
		rmp_dcqcn_sent(&once, cfg.byte_threshold, t);
	}
	p = cfg.rate_period_ns;
	for (i = 1; i <= c->periods; i++)
		rmp_dcqcn_tick(&every, t + i * p);
	rmp_dcqcn_tick(&once, t + c->periods * p);

	KUNIT_EXPECT_EQ(test, once.timer_stage, every.timer_stage);
	KUNIT_EXPECT_EQ(test, once.byte_stage, every.byte_stage);
	KUNIT_EXPECT_EQ(test, once.alpha, every.alpha);
	/* At the line rate, ticks no longer count periods. */
	if (rmp_dcqcn_rate(&every) < LINE)
		KUNIT_EXPECT_EQ(test, once.rate_periods, every.rate_periods);
	if (c->exact) {
		KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&once),
				rmp_dcqcn_rate(&every));
		KUNIT_EXPECT_EQ(test, once.rt_kbps, every.rt_kbps);
		KUNIT_EXPECT_EQ(test, once.stats.increases,
				every.stats.increases);
		KUNIT_EXPECT_EQ(test, once.stats.additive,
				every.stats.additive);
		KUNIT_EXPECT_EQ(test, once.stats.hyper, every.stats.hyper);
	} else {
		/* Slower than stepping, never faster; but up all the same. */
		KUNIT_EXPECT_LE(test, rmp_dcqcn_rate(&once),
				rmp_dcqcn_rate(&every));
		KUNIT_EXPECT_LE(test, once.rt_kbps, every.rt_kbps);
		KUNIT_EXPECT_GT(test, rmp_dcqcn_rate(&once),
				rmp_dcqcn_rate(&every) / 2);
	}
	KUNIT_EXPECT_LE(test, rmp_dcqcn_rate(&once), once.rt_kbps);
	KUNIT_EXPECT_LE(test, once.rt_kbps, LINE);
}

/*
 * The same at random: steps, F, cuts, byte events before the pause and
 * the pause itself. Exact unless the byte counter ran so far ahead that
 * hyper increase still speeds up %RMP_DCQCN_EXACT periods into the pause.
 */
static void rmp_dcqcn_tick__catching_up_at_random(struct kunit *test)
{
	struct rmp_dcqcn_cfg cfg;
	struct rmp_dcqcn every, once;
	u32 rng = 99, s, e, events, cuts, inexact = 0;
	u64 t, p, i, periods;

	for (s = 0; s < 300; s++) {
		rmp_dcqcn_cfg_default(&cfg, LINE);
		cfg.ai_kbps = 1 + xorshift(&rng) % 2000;
		cfg.hai_kbps = cfg.ai_kbps * (1 + xorshift(&rng) % 10);
		cfg.fast_stages = 1 + xorshift(&rng) % 8;
		events = xorshift(&rng) % 200;
		cuts = 1 + xorshift(&rng) % 12;
		periods = 1 + xorshift(&rng) % 3000;
		setup_cfg(test, &every, &cfg);
		setup_cfg(test, &once, &cfg);
		t = cut(&every, cuts, T0);
		cut(&once, cuts, T0);
		for (e = 0; e < events; e++) {
			rmp_dcqcn_sent(&every, cfg.byte_threshold, t);
			rmp_dcqcn_sent(&once, cfg.byte_threshold, t);
		}
		p = cfg.rate_period_ns;
		for (i = 1; i <= periods; i++)
			rmp_dcqcn_tick(&every, t + i * p);
		rmp_dcqcn_tick(&once, t + periods * p);
		KUNIT_EXPECT_LE(test, rmp_dcqcn_rate(&once), once.rt_kbps);
		if (events <= RMP_DCQCN_EXACT) {
			KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&once),
					rmp_dcqcn_rate(&every));
			KUNIT_EXPECT_EQ(test, once.rt_kbps, every.rt_kbps);
			KUNIT_EXPECT_EQ(test, once.timer_stage,
					every.timer_stage);
			KUNIT_EXPECT_EQ(test, once.stats.additive,
					every.stats.additive);
			KUNIT_EXPECT_EQ(test, once.stats.hyper,
					every.stats.hyper);
			continue;
		}
		KUNIT_EXPECT_LE(test, rmp_dcqcn_rate(&once),
				rmp_dcqcn_rate(&every));
		KUNIT_EXPECT_LE(test, once.rt_kbps, every.rt_kbps);
		inexact += once.rt_kbps != every.rt_kbps;
	}
	/* Some were cases of the approximation, not all. */
	KUNIT_EXPECT_GT(test, inexact, 0);
	KUNIT_EXPECT_LT(test, inexact, 100);
}

/*
 * Random CNPs, sends and pauses: the deadline is never in the past, and
 * it is exact: nothing is due a ns before it, something is at it.
 */
static void rmp_dcqcn_deadline__neither_early_nor_late(struct kunit *test)
{
	struct rmp_dcqcn d, c;
	u64 t = T0, at;
	u32 i, r, rng = 1;
	bool open;

	setup(test, &d, LINE);
	for (i = 0; i < 20000; i++) {
		r = xorshift(&rng);
		if (!(r % 64))
			rmp_dcqcn_cnp(&d, t);
		if ((r & 2) && rmp_dcqcn_may_send(&d, t))
			rmp_dcqcn_sent(&d, 64 + r % 9000, t);
		at = rmp_dcqcn_deadline(&d, t);
		KUNIT_ASSERT_GE(test, at, t);
		open = rmp_dcqcn_may_send(&d, t);
		if (at == RMP_DCQCN_NEVER) {
			KUNIT_EXPECT_TRUE(test, open);
			KUNIT_EXPECT_EQ(test, rmp_dcqcn_rate(&d), LINE);
			t += r % (100 * US);
			continue;
		}
		if (at > t) {
			c = d;
			rmp_dcqcn_tick(&c, at - 1);
			KUNIT_EXPECT_EQ(test, c.rate_periods, d.rate_periods);
			KUNIT_EXPECT_TRUE(test, open ||
					  !rmp_dcqcn_may_send(&d, at - 1));
		}
		c = d;
		rmp_dcqcn_tick(&c, at);
		KUNIT_EXPECT_TRUE(test, c.rate_periods != d.rate_periods ||
				  (!open && rmp_dcqcn_may_send(&d, at)));
		/* Wake at the deadline, or somewhat before it. */
		t = (r & 4) ? at : t + (at - t) / 2;
		rmp_dcqcn_tick(&d, t);
	}
	KUNIT_EXPECT_GT(test, d.stats.cuts, 100);
	KUNIT_EXPECT_GT(test, d.stats.increases, 1000);
}

static void rmp_cnp_gate_pass__one_per_interval(struct kunit *test)
{
	struct rmp_cnp_gate g = {};
	u64 t, iv = RMP_CNP_INTERVAL_NS;
	u32 passed = 0;

	/* The first CE passes, even at time 0. */
	KUNIT_EXPECT_TRUE(test, rmp_cnp_gate_pass(&g, iv, 0));
	KUNIT_EXPECT_FALSE(test, rmp_cnp_gate_pass(&g, iv, 0));
	KUNIT_EXPECT_FALSE(test, rmp_cnp_gate_pass(&g, iv, iv - 1));
	KUNIT_EXPECT_TRUE(test, rmp_cnp_gate_pass(&g, iv, iv));
	KUNIT_EXPECT_FALSE(test, rmp_cnp_gate_pass(&g, iv, iv + 1));
	/* Time going back passes nothing. */
	KUNIT_EXPECT_FALSE(test, rmp_cnp_gate_pass(&g, iv, iv / 2));
	KUNIT_EXPECT_TRUE(test, rmp_cnp_gate_pass(&g, iv, 2 * iv));

	/* A CE every microsecond for a millisecond: 20 CNPs. */
	memset(&g, 0, sizeof(g));
	for (t = 0; t < MS; t += US)
		passed += rmp_cnp_gate_pass(&g, iv, T0 + t);
	KUNIT_EXPECT_EQ(test, passed, 20);

	/* No interval: every CE. */
	memset(&g, 0, sizeof(g));
	KUNIT_EXPECT_TRUE(test, rmp_cnp_gate_pass(&g, 0, T0));
	KUNIT_EXPECT_TRUE(test, rmp_cnp_gate_pass(&g, 0, T0));
}

struct share_case {
	const char *desc;
	u64 line_kbps;
	int cuts;
};

static void share_desc(const struct share_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct share_case share_cases[] = {
	{ "10 Gbit/s, one at a sixteenth", LINE, 4 },
	{ "100 Gbit/s, one at the floor", 100000000, 20 },
	{ "1 Gbit/s, one at a quarter", 1000000, 2 },
};

KUNIT_ARRAY_PARAM(share, share_cases, share_desc);

/*
 * Two flows on a link of the line rate C, one slow at the start. Each
 * CNP interval, every flow sends its rate's worth; if the two together
 * went over C, the switch marked them both and each receiver's gate lets
 * a CNP through. DCQCN's cuts are proportional and its increases alike,
 * so the flows come together, and together they keep the link near full.
 */
static void rmp_dcqcn__two_flows_converge(struct kunit *test)
{
	const struct share_case *c = test->param_value;
	const u64 step = RMP_CNP_INTERVAL_NS, steps = 1500 * MS / step;
	const u64 cap = c->line_kbps;
	struct rmp_cnp_gate gate[2] = {};
	struct rmp_dcqcn f[2];
	u64 t = T0, rate[2], mean[2] = {}, n = 0, i;
	int k;

	for (k = 0; k < 2; k++)
		setup(test, &f[k], cap);
	t = cut(&f[0], c->cuts, t);
	KUNIT_ASSERT_LT(test, rmp_dcqcn_rate(&f[0]) * 3, cap);
	for (i = 0; i < steps; i++) {
		for (k = 0; k < 2; k++) {
			rate[k] = rmp_dcqcn_rate(&f[k]);
			rmp_dcqcn_sent(&f[k], rate[k] * step /
				       RMP_DCQCN_TOKENS_PER_BYTE, t);
		}
		t += step;
		for (k = 0; k < 2; k++) {
			rmp_dcqcn_tick(&f[k], t);
			if (rate[0] + rate[1] > cap &&
			    rmp_cnp_gate_pass(&gate[k], step, t))
				rmp_dcqcn_cnp(&f[k], t);
		}
		/* The last quarter second. */
		if (i >= steps - 250 * MS / step) {
			mean[0] += rate[0];
			mean[1] += rate[1];
			n++;
		}
	}
	mean[0] /= n;
	mean[1] /= n;
	KUNIT_EXPECT_LE(test, mean[0] * 10, mean[1] * 12);
	KUNIT_EXPECT_LE(test, mean[1] * 10, mean[0] * 12);
	KUNIT_EXPECT_GE(test, (mean[0] + mean[1]) * 100, cap * 90);
	KUNIT_EXPECT_LE(test, (mean[0] + mean[1]) * 100, cap * 101);
	KUNIT_EXPECT_GT(test, f[0].stats.cuts, 100);
	KUNIT_EXPECT_EQ(test, f[0].stats.cuts - c->cuts, f[1].stats.cuts);
	kunit_info(test, "%s: %llu and %llu kbit/s, %llu cuts\n", c->desc,
		   (unsigned long long)mean[0], (unsigned long long)mean[1],
		   (unsigned long long)f[1].stats.cuts);
}

static struct kunit_case rmp_dcqcn_cases[] = {
	KUNIT_CASE_PARAM(rmp_dcqcn_cfg_default__passes, line_gen_params),
	KUNIT_CASE_PARAM(rmp_dcqcn_cfg_check__validates, cfg_gen_params),
	KUNIT_CASE(rmp_dcqcn_cnp__first_halves),
	KUNIT_CASE(rmp_dcqcn_cnp__shrinks_to_the_floor),
	KUNIT_CASE(rmp_dcqcn_cnp__cut_interval),
	KUNIT_CASE(rmp_dcqcn_cnp__ignored_one_holds_alpha),
	KUNIT_CASE_PARAM(rmp_dcqcn_alpha__decays, alpha_gen_params),
	KUNIT_CASE(rmp_dcqcn_cnp__cuts_by_half_alpha),
	KUNIT_CASE(rmp_dcqcn_tick__fast_recovery),
	KUNIT_CASE(rmp_dcqcn_tick__additive_then_hyper),
	KUNIT_CASE(rmp_dcqcn_tick__back_to_line_then_quiet),
	KUNIT_CASE(rmp_dcqcn_tick__long_gap_is_bounded),
	KUNIT_CASE(rmp_dcqcn_sent__byte_counter),
	KUNIT_CASE(rmp_dcqcn_cnp__catches_up_first),
	KUNIT_CASE_PARAM(rmp_dcqcn_pacer__holds_the_rate, pace_gen_params),
	KUNIT_CASE(rmp_dcqcn_pacer__bursts_are_bounded),
	KUNIT_CASE(rmp_dcqcn_pacer__windows_are_bounded),
	KUNIT_CASE(rmp_dcqcn_pacer__big_packet_goes),
	KUNIT_CASE(rmp_dcqcn__time_going_back),
	KUNIT_CASE_PARAM(rmp_dcqcn_tick__catching_up, catch_gen_params),
	KUNIT_CASE(rmp_dcqcn_tick__catching_up_at_random),
	KUNIT_CASE(rmp_dcqcn_deadline__neither_early_nor_late),
	KUNIT_CASE(rmp_cnp_gate_pass__one_per_interval),
	KUNIT_CASE_PARAM(rmp_dcqcn__two_flows_converge, share_gen_params),
	{}
};

static struct kunit_suite rmp_dcqcn_suite = {
	.name = "rmp_dcqcn",
	.test_cases = rmp_dcqcn_cases,
};

kunit_test_suite(rmp_dcqcn_suite);
