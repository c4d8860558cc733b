// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for 24-bit PSN arithmetic.
 */
#include <kunit/test.h>

#include "../engine/psn.h"

struct psn_arith_case {
	const char *desc;
	u32 psn;
	u32 n;
	u32 want;
};

static void psn_arith_desc(const struct psn_arith_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct psn_arith_case psn_mask_cases[] = {
	{ "zero", 0, 0, 0 },
	{ "max", 0xffffff, 0, 0xffffff },
	{ "bit 24 dropped", 0x1000000, 0, 0 },
	{ "all ones", 0xffffffff, 0, 0xffffff },
	{ "high byte garbage", 0xab123456, 0, 0x123456 },
};

KUNIT_ARRAY_PARAM(psn_mask, psn_mask_cases, psn_arith_desc);

static void rmp_psn_mask__drops_high_bits(struct kunit *test)
{
	const struct psn_arith_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rmp_psn_mask(c->psn), c->want);
}

static const struct psn_arith_case psn_add_cases[] = {
	{ "plain", 100, 5, 105 },
	{ "zero step", 0x123456, 0, 0x123456 },
	{ "max plus one wraps to zero", 0xffffff, 1, 0 },
	{ "wraps past zero", 0xfffffe, 5, 3 },
	{ "full circle", 0x42, 0x1000000, 0x42 },
	{ "step with high bits", 7, 0xff000001, 8 },
	{ "input above 24 bits", 0x1000005, 1, 6 },
};

KUNIT_ARRAY_PARAM(psn_add, psn_add_cases, psn_arith_desc);

static void rmp_psn_add__wraps(struct kunit *test)
{
	const struct psn_arith_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rmp_psn_add(c->psn, c->n), c->want);
}

static const struct psn_arith_case psn_sub_cases[] = {
	{ "plain", 105, 5, 100 },
	{ "zero minus one wraps to max", 0, 1, 0xffffff },
	{ "wraps below zero", 3, 5, 0xfffffe },
	{ "full circle", 0x42, 0x1000000, 0x42 },
	{ "to zero", 0xffffff, 0xffffff, 0 },
};

KUNIT_ARRAY_PARAM(psn_sub, psn_sub_cases, psn_arith_desc);

static void rmp_psn_sub__wraps(struct kunit *test)
{
	const struct psn_arith_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rmp_psn_sub(c->psn, c->n), c->want);
}

struct psn_cmp_case {
	const char *desc;
	u32 a;
	u32 b;
	s32 diff;
	bool before;
	bool after;
};

static void psn_cmp_desc(const struct psn_cmp_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct psn_cmp_case psn_cmp_cases[] = {
	{ "equal", 0x1234, 0x1234, 0, false, false },
	{ "one before", 9, 10, -1, true, false },
	{ "one after", 10, 9, 1, false, true },
	{ "max before zero", 0xffffff, 0, -1, true, false },
	{ "zero after max", 0, 0xffffff, 1, false, true },
	{ "across wrap by 16", 0xfffff8, 8, -16, true, false },
	{ "largest forward distance", 0x7fffff, 0, 0x7fffff, false, true },
	{ "half space is before", 0x800000, 0, -0x800000, true, false },
	{ "half space, other way", 0, 0x800000, -0x800000, true, false },
	{ "just past half space", 0x800001, 0, -0x7fffff, true, false },
	{ "high bits ignored", 0xff000005, 4, 1, false, true },
};

KUNIT_ARRAY_PARAM(psn_cmp, psn_cmp_cases, psn_cmp_desc);

static void rmp_psn_diff__sign_extends(struct kunit *test)
{
	const struct psn_cmp_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rmp_psn_diff(c->a, c->b), c->diff);
}

static void rmp_psn_before__half_space_rule(struct kunit *test)
{
	const struct psn_cmp_case *c = test->param_value;
	bool equal = rmp_psn_mask(c->a) == rmp_psn_mask(c->b);

	KUNIT_EXPECT_EQ(test, rmp_psn_before(c->a, c->b), c->before);
	KUNIT_EXPECT_EQ(test, rmp_psn_after(c->a, c->b), c->after);
	KUNIT_EXPECT_EQ(test, rmp_psn_before_eq(c->a, c->b), c->before || equal);
	KUNIT_EXPECT_EQ(test, rmp_psn_after_eq(c->a, c->b), c->after || equal);
}

struct psn_window_case {
	const char *desc;
	u32 psn;
	u32 start;
	u32 len;
	bool in;
};

static void psn_window_desc(const struct psn_window_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct psn_window_case psn_window_cases[] = {
	{ "first", 100, 100, 10, true },
	{ "last", 109, 100, 10, true },
	{ "one past last", 110, 100, 10, false },
	{ "one before first", 99, 100, 10, false },
	{ "empty window", 100, 100, 0, false },
	{ "single slot", 100, 100, 1, true },
	{ "wrap: first", 0xfffffc, 0xfffffc, 8, true },
	{ "wrap: max", 0xffffff, 0xfffffc, 8, true },
	{ "wrap: zero", 0, 0xfffffc, 8, true },
	{ "wrap: last", 3, 0xfffffc, 8, true },
	{ "wrap: one past last", 4, 0xfffffc, 8, false },
	{ "wrap: one before first", 0xfffffb, 0xfffffc, 8, false },
	{ "whole space", 0x123456, 0x654321, 0x1000000, true },
};

KUNIT_ARRAY_PARAM(psn_window, psn_window_cases, psn_window_desc);

static void rmp_psn_in_window__edges(struct kunit *test)
{
	const struct psn_window_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rmp_psn_in_window(c->psn, c->start, c->len),
			c->in);
}

/* Sample points chosen around the places where wrap bugs hide. */
static const u32 psn_samples[] = {
	0, 1, 2, 0x7ffffe, 0x7fffff, 0x800000, 0x800001,
	0xfffffe, 0xffffff, 0x123456, 0xabcdef,
};

static void rmp_psn_add__sub_is_inverse(struct kunit *test)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(psn_samples); i++) {
		for (j = 0; j < ARRAY_SIZE(psn_samples); j++) {
			u32 a = psn_samples[i], n = psn_samples[j];

			KUNIT_EXPECT_EQ(test,
					rmp_psn_sub(rmp_psn_add(a, n), n), a);
			KUNIT_EXPECT_EQ(test,
					rmp_psn_diff(rmp_psn_add(a, n), a),
					rmp_psn_diff(n, 0));
		}
	}
}

static void rmp_psn_before__antisymmetric(struct kunit *test)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(psn_samples); i++) {
		for (j = 0; j < ARRAY_SIZE(psn_samples); j++) {
			u32 a = psn_samples[i], b = psn_samples[j];
			u32 dist = rmp_psn_sub(a, b);

			if (dist == RMP_PSN_HALF)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, rmp_psn_before(a, b),
					    rmp_psn_after(b, a),
					    "a=%#x b=%#x", a, b);
			KUNIT_EXPECT_EQ_MSG(test, rmp_psn_before(a, b),
					    dist >= RMP_PSN_HALF,
					    "a=%#x b=%#x", a, b);
		}
	}
}

static void rmp_psn_in_window__matches_diff(struct kunit *test)
{
	u32 start = 0xfffff0, len = 0x40;
	u32 psn;

	/* Walk a stretch that starts before the window and ends after it. */
	for (psn = 0xffffe0; psn != 0x60; psn = rmp_psn_add(psn, 1)) {
		s32 d = rmp_psn_diff(psn, start);

		KUNIT_EXPECT_EQ_MSG(test, rmp_psn_in_window(psn, start, len),
				    d >= 0 && d < (s32)len, "psn=%#x", psn);
	}
}

static struct kunit_case rmp_psn_cases[] = {
	KUNIT_CASE_PARAM(rmp_psn_mask__drops_high_bits, psn_mask_gen_params),
	KUNIT_CASE_PARAM(rmp_psn_add__wraps, psn_add_gen_params),
	KUNIT_CASE_PARAM(rmp_psn_sub__wraps, psn_sub_gen_params),
	KUNIT_CASE_PARAM(rmp_psn_diff__sign_extends, psn_cmp_gen_params),
	KUNIT_CASE_PARAM(rmp_psn_before__half_space_rule, psn_cmp_gen_params),
	KUNIT_CASE_PARAM(rmp_psn_in_window__edges, psn_window_gen_params),
	KUNIT_CASE(rmp_psn_add__sub_is_inverse),
	KUNIT_CASE(rmp_psn_before__antisymmetric),
	KUNIT_CASE(rmp_psn_in_window__matches_diff),
	{}
};

static struct kunit_suite rmp_psn_suite = {
	.name = "rmp_psn",
	.test_cases = rmp_psn_cases,
};

kunit_test_suites(&rmp_psn_suite);
