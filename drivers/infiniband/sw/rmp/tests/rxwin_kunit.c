// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the responder receive window and the SACK.
 */
#include <kunit/test.h>

#include "../engine/rxwin.h"

#define IN	RMP_RXWIN_NEW_IN_ORDER
#define OOO	RMP_RXWIN_NEW_OUT_OF_ORDER
#define DUP	RMP_RXWIN_DUPLICATE
#define BEY	RMP_RXWIN_BEYOND

/* PSN at signed distance @off from @base. */
static u32 at(u32 base, s32 off)
{
	return rmp_psn_add(base, (u32)off);
}

static u32 min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static u32 sack_bit(const struct rmp_sack *s, u32 i)
{
	return s->bitmap[i / 64] >> (i % 64) & 1;
}

struct init_case {
	const char *desc;
	u32 epsn;
	u32 size;
	int err;
};

static void init_desc(const struct init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct init_case init_cases[] = {
	{ "zero size", 5, 0, -EINVAL },
	{ "size one", 5, 1, -EINVAL },
	{ "below minimum", 5, 32, -EINVAL },
	{ "minimum", 5, RMP_RXWIN_MIN, 0 },
	{ "not a power of two", 5, 96, -EINVAL },
	{ "maximum", 5, RMP_RXWIN_MAX, 0 },
	{ "maximum plus one word", 5, RMP_RXWIN_MAX + 64, -EINVAL },
	{ "twice the maximum", 5, 2 * RMP_RXWIN_MAX, -EINVAL },
	{ "top bit", 5, 0x80000000U, -EINVAL },
	{ "epsn zero: highest wraps", 0, 128, 0 },
	{ "epsn above 24 bits is masked", 0x1000007, 256, 0 },
};

KUNIT_ARRAY_PARAM(init, init_cases, init_desc);

static void rmp_rxwin_init__validates_size(struct kunit *test)
{
	const struct init_case *c = test->param_value;
	struct rmp_rxwin w;
	int err;

	memset(&w, 0xa5, sizeof(w));
	err = rmp_rxwin_init(&w, c->epsn, c->size);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (err) {
		KUNIT_EXPECT_EQ(test, w.size, 0xa5a5a5a5U);
		return;
	}
	KUNIT_EXPECT_EQ(test, w.epsn, rmp_psn_mask(c->epsn));
	KUNIT_EXPECT_EQ(test, w.size, c->size);
	KUNIT_EXPECT_EQ(test, w.held, 0U);
	KUNIT_EXPECT_EQ(test, w.highest, rmp_psn_sub(c->epsn, 1));
	KUNIT_EXPECT_FALSE(test, rmp_rxwin_has(&w, c->epsn));
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 0U);
}

struct accept_case {
	const char *desc;
	u32 epsn;
	u32 size;
	s32 pre[2];
	u32 npre;
	s32 off;
	enum rmp_rxwin_verdict want;
};

static void accept_desc(const struct accept_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct accept_case accept_cases[] = {
	{ "in order at epsn", 100, 64, {}, 0, 0, IN },
	{ "next after epsn", 100, 64, {}, 0, 1, OOO },
	{ "last slot", 100, 64, {}, 0, 63, OOO },
	{ "beyond at exactly epsn+size", 100, 64, {}, 0, 64, BEY },
	{ "beyond at half space minus one", 100, 64, {}, 0, 0x7fffff, BEY },
	{ "duplicate one before epsn", 100, 64, {}, 0, -1, DUP },
	{ "duplicate half space behind", 100, 64, {}, 0, -0x800000, DUP },
	{ "duplicate inside window", 100, 64, { 5 }, 1, 5, DUP },
	{ "duplicate at epsn not advanced", 100, 64, { 0 }, 1, 0, DUP },
	{ "neighbour of held is new", 100, 64, { 5 }, 1, 6, OOO },
	{ "large window last slot", 100, 1024, {}, 0, 1023, OOO },
	{ "large window beyond", 100, 1024, {}, 0, 1024, BEY },
	{ "wrap: in order at max", 0xffffff, 64, {}, 0, 0, IN },
	{ "wrap: zero after max", 0xffffff, 64, {}, 0, 1, OOO },
	{ "wrap: beyond across zero", 0xfffff0, 64, {}, 0, 64, BEY },
	{ "wrap: last slot across zero", 0xfffff0, 64, {}, 0, 63, OOO },
	{ "wrap: duplicate behind zero", 2, 64, {}, 0, -5, DUP },
	{ "wrap: held across zero", 0xfffffe, 64, { 3, 1 }, 2, 3, DUP },
};

KUNIT_ARRAY_PARAM(accept, accept_cases, accept_desc);

static void rmp_rxwin_accept__verdicts(struct kunit *test)
{
	const struct accept_case *c = test->param_value;
	u32 psn = at(c->epsn, c->off);
	struct rmp_rxwin w, before;
	u32 i;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, c->size), 0);
	for (i = 0; i < c->npre; i++)
		KUNIT_ASSERT_NE(test, rmp_rxwin_accept(&w, at(c->epsn, c->pre[i])),
				DUP);
	before = w;

	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, psn), c->want);
	if (c->want == DUP || c->want == BEY) {
		KUNIT_EXPECT_EQ(test, memcmp(&w, &before, sizeof(w)), 0);
		KUNIT_EXPECT_EQ(test, rmp_rxwin_has(&w, psn), c->want == DUP);
		return;
	}
	KUNIT_EXPECT_EQ(test, w.held, before.held + 1);
	KUNIT_EXPECT_EQ(test, w.epsn, before.epsn);
	KUNIT_EXPECT_TRUE(test, rmp_rxwin_has(&w, psn));
	KUNIT_EXPECT_EQ(test, w.highest,
			rmp_psn_after(psn, before.highest) ? psn : before.highest);
}

static void rmp_rxwin_advance__in_order_stream(struct kunit *test)
{
	u32 epsn = 0xffff00, psn = epsn;
	struct rmp_sack s;
	struct rmp_rxwin w;
	u8 buf[RMP_SACK_WIRE_MAX];
	u32 i;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, epsn, 1024), 0);
	for (i = 0; i < 600; i++, psn = rmp_psn_add(psn, 1)) {
		KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, psn), IN);
		KUNIT_ASSERT_EQ(test, rmp_rxwin_advance(&w), 1U);
		KUNIT_ASSERT_EQ(test, w.held, 0U);
		KUNIT_ASSERT_EQ(test, w.highest, psn);
		KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
		KUNIT_ASSERT_EQ(test, s.cum_ack, psn);
		KUNIT_ASSERT_EQ(test, s.nbits, 0U);
		/* An ACK with nothing held carries only the header. */
		KUNIT_ASSERT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)),
				(int)RMP_SACK_WIRE_MIN);
	}
	KUNIT_EXPECT_EQ(test, w.epsn, at(epsn, 600));
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(epsn, 599)), DUP);
}

#define SCRIPT_MAX 10

struct script_case {
	const char *desc;
	u32 epsn;
	u32 size;
	u32 n;
	s32 arrive[SCRIPT_MAX];
	enum rmp_rxwin_verdict verdict[SCRIPT_MAX];
	u32 advance[SCRIPT_MAX];
	u32 held;
};

static void script_desc(const struct script_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct script_case script_cases[] = {
	{ "reverse of four", 50, 64, 4,
	  { 3, 2, 1, 0 }, { OOO, OOO, OOO, IN }, { 0, 0, 0, 4 }, 0 },
	{ "pairs swapped", 50, 64, 4,
	  { 1, 0, 3, 2 }, { OOO, IN, OOO, IN }, { 0, 2, 0, 2 }, 0 },
	{ "head arrives last", 50, 64, 6,
	  { 5, 1, 4, 2, 3, 0 }, { OOO, OOO, OOO, OOO, OOO, IN },
	  { 0, 0, 0, 0, 0, 6 }, 0 },
	{ "duplicates interleaved", 50, 64, 5,
	  { 2, 2, 0, 0, 1 }, { OOO, DUP, IN, DUP, IN }, { 0, 0, 1, 0, 2 }, 0 },
	{ "beyond, then inside after advance", 50, 64, 4,
	  { 64, 0, 64, 1 }, { BEY, IN, OOO, IN }, { 0, 1, 0, 1 }, 1 },
	{ "wrap: reverse across zero", 0xfffffd, 64, 5,
	  { 4, 3, 2, 1, 0 }, { OOO, OOO, OOO, OOO, IN }, { 0, 0, 0, 0, 5 }, 0 },
	{ "four paths, path 0 slow", 0xfffffe, 64, 8,
	  { 1, 2, 3, 5, 6, 7, 0, 4 }, { OOO, OOO, OOO, OOO, OOO, OOO, IN, IN },
	  { 0, 0, 0, 0, 0, 0, 4, 4 }, 0 },
};

KUNIT_ARRAY_PARAM(script, script_cases, script_desc);

static void rmp_rxwin_advance__reorder_scripts(struct kunit *test)
{
	const struct script_case *c = test->param_value;
	u32 total = 0, i;
	struct rmp_rxwin w;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, c->size), 0);
	for (i = 0; i < c->n; i++) {
		u32 psn = at(c->epsn, c->arrive[i]);

		KUNIT_EXPECT_EQ_MSG(test, rmp_rxwin_accept(&w, psn),
				    c->verdict[i], "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rmp_rxwin_advance(&w), c->advance[i],
				    "step %u", i);
		total += c->advance[i];
		KUNIT_EXPECT_EQ_MSG(test, w.epsn, at(c->epsn, total),
				    "step %u", i);
	}
	KUNIT_EXPECT_EQ(test, w.held, c->held);
	if (!c->held)
		KUNIT_EXPECT_EQ(test, w.highest, at(w.epsn, -1));
}

struct run_case {
	const char *desc;
	u32 epsn;
	u32 size;
	u32 run;
};

static void run_desc(const struct run_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct run_case run_cases[] = {
	{ "63 from slot 0", 0x1000, 1024, 63 },
	{ "64 from slot 0", 0x1000, 1024, 64 },
	{ "65 from slot 0", 0x1000, 1024, 65 },
	{ "63 from slot 1", 0x1001, 1024, 63 },
	{ "64 from slot 63", 0x103f, 1024, 64 },
	{ "65 from slot 63", 0x103f, 1024, 65 },
	{ "128 from slot 32", 0x1020, 1024, 128 },
	{ "129 from slot 63", 0x103f, 1024, 129 },
	{ "whole one-word window from its middle", 0x20, 64, 64 },
	{ "whole window from near the bitmap end", 0x13e8, 1024, 1024 },
	{ "wrap: 65 across 0xffffff", 0xffffe0, 1024, 65 },
	{ "wrap: 1023 across zero", 0xfffe00, 1024, 1023 },
};

KUNIT_ARRAY_PARAM(run, run_cases, run_desc);

static void rmp_rxwin_advance__word_boundaries(struct kunit *test)
{
	const struct run_case *c = test->param_value;
	bool straggler = c->run + 1 < c->size;
	struct rmp_rxwin w;
	u32 k;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, c->size), 0);
	for (k = 1; k < c->run; k++)
		KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, k)), OOO);
	/* One PSN after a one-PSN gap must stop the run. */
	if (straggler)
		KUNIT_ASSERT_EQ(test,
				rmp_rxwin_accept(&w, at(c->epsn, c->run + 1)),
				OOO);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 0U);

	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, c->epsn), IN);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), c->run);
	KUNIT_EXPECT_EQ(test, w.epsn, at(c->epsn, c->run));
	KUNIT_EXPECT_EQ(test, w.held, straggler ? 1U : 0U);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 0U);

	/* Slots passed over are free for the next lap of the window. */
	for (k = 0; k < c->size; k++)
		KUNIT_ASSERT_EQ_MSG(test, rmp_rxwin_has(&w, at(w.epsn, k)),
				    straggler && k == 1, "k=%u", k);
}

struct fill_case {
	const char *desc;
	u32 epsn;
	u32 size;
};

static void fill_desc(const struct fill_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct fill_case fill_cases[] = {
	{ "64 at zero", 0, 64 },
	{ "256 at max", 0xffffff, 256 },
	{ "1024 mid-space", 0x400123, 1024 },
	{ "wrap: 1024 across zero", 0xfffe80, 1024 },
};

KUNIT_ARRAY_PARAM(fill, fill_cases, fill_desc);

static void rmp_rxwin_advance__window_full_then_drains(struct kunit *test)
{
	const struct fill_case *c = test->param_value;
	u32 size = c->size, k, holes = 0;
	struct rmp_rxwin w;
	struct rmp_sack s;
	int off;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, size), 0);
	for (k = size - 1; k >= 1; k--)
		KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, k)), OOO);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, size)), BEY);
	KUNIT_EXPECT_EQ(test, w.held, size - 1);
	KUNIT_EXPECT_EQ(test, w.highest, at(c->epsn, size - 1));
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 0U);

	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.nbits, min_u32(size - 1, RMP_SACK_MAX_BITS));
	rmp_sack_for_each_hole(&s, off) {
		KUNIT_EXPECT_EQ(test, off, 0);
		holes++;
	}
	KUNIT_EXPECT_EQ(test, holes, 1U);

	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, c->epsn), IN);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), size);
	KUNIT_EXPECT_EQ(test, w.epsn, at(c->epsn, size));
	KUNIT_EXPECT_EQ(test, w.held, 0U);
	KUNIT_EXPECT_EQ(test, w.highest, at(c->epsn, size - 1));
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, size)), IN);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, 2 * size - 1)),
			OOO);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, 2 * size)), BEY);
}

static void rmp_rxwin_advance__gap_at_window_end(struct kunit *test)
{
	const struct fill_case *c = test->param_value;
	u32 size = c->size, last = size - 1, k;
	struct rmp_rxwin w;
	struct rmp_sack s;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, size), 0);
	for (k = 0; k < last; k++)
		KUNIT_ASSERT_NE(test, rmp_rxwin_accept(&w, at(c->epsn, k)), DUP);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), last);
	KUNIT_EXPECT_EQ(test, w.epsn, at(c->epsn, last));
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.cum_ack, at(c->epsn, last - 1));
	KUNIT_EXPECT_EQ(test, s.highest, s.cum_ack);
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 0), -ENOENT);

	/* The window now reaches almost a whole lap further. */
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, last + last)),
			OOO);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, last + size)),
			BEY);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 0U);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, last)), IN);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 1U);
	KUNIT_EXPECT_EQ(test, w.held, 1U);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.highest, at(c->epsn, 2 * last));
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 0), 0);
}

/*
 * SACK patterns: offset k from epsn is received when recv(k) holds for
 * 1 <= k < limit; epsn itself never is, so the window cannot advance.
 */
struct pattern_case {
	const char *desc;
	u32 epsn;
	u32 size;
	u32 limit;
	bool (*recv)(u32 k);
};

static bool pat_none(u32 k __always_unused)
{
	return false;
}

static bool pat_head_hole(u32 k)
{
	return k < 10;
}

static bool pat_alternate(u32 k)
{
	return k & 1;
}

static bool pat_dead_path(u32 k)
{
	return k % 64;
}

static bool pat_two_slow_paths(u32 k)
{
	return k % 64 != 5 && k % 64 != 40;
}

static bool pat_far(u32 k)
{
	return k == 700;
}

static bool pat_tail(u32 k)
{
	return k >= 1000;
}

static bool pat_last_bit(u32 k)
{
	return k == 3 || k == RMP_SACK_MAX_BITS;
}

static bool pat_past_bits(u32 k)
{
	return k == 3 || k == RMP_SACK_MAX_BITS + 1;
}

static bool pat_word_edges(u32 k)
{
	return k == 63 || k == 64 || k == 65 || k == 127 || k == 128;
}

static bool pat_last_slot(u32 k)
{
	return k == 63;
}

static void pattern_desc(const struct pattern_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct pattern_case pattern_cases[] = {
	{ "nothing held", 0x1000, 1024, 1024, pat_none },
	{ "one hole at head", 0x1000, 64, 64, pat_head_hole },
	{ "alternate", 0x1000, 128, 100, pat_alternate },
	{ "wrap: alternate across zero", 0xffffc0, 128, 100, pat_alternate },
	{ "dead path of 64: more holes than bits", 0x1000, 1024, 1024,
	  pat_dead_path },
	{ "wrap: dead path across zero", 0xfffe10, 1024, 1024, pat_dead_path },
	{ "two slow paths of 64", 0x1234, 1024, 512, pat_two_slow_paths },
	{ "single far packet", 0x1000, 1024, 1024, pat_far },
	{ "dense tail at window end", 0x1000, 1024, 1024, pat_tail },
	{ "highest on the last bit", 0x1000, 512, 512, pat_last_bit },
	{ "highest one past the bitmap", 0x1000, 512, 512, pat_past_bits },
	{ "wrap: word edges from max", 0xffffff, 256, 256, pat_word_edges },
	{ "last slot of smallest window", 0x40, 64, 64, pat_last_slot },
};

KUNIT_ARRAY_PARAM(pattern, pattern_cases, pattern_desc);

static bool pat_recv(const struct pattern_case *c, u32 k)
{
	return k >= 1 && k < c->limit && c->recv(k);
}

/* Highest received offset, 0 when nothing is held. */
static u32 pat_highest(const struct pattern_case *c)
{
	u32 k, top = 0;

	for (k = 1; k < c->limit; k++)
		if (pat_recv(c, k))
			top = k;
	return top;
}

static u32 pat_nbits(const struct pattern_case *c)
{
	return min_u32(pat_highest(c), RMP_SACK_MAX_BITS);
}

/* Builds the window (newest first, to reorder) and its SACK. */
static void pat_build(struct kunit *test, const struct pattern_case *c,
		      struct rmp_rxwin *w, struct rmp_sack *s)
{
	u32 k;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(w, c->epsn, c->size), 0);
	for (k = c->limit - 1; k >= 1; k--)
		if (pat_recv(c, k))
			KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(w, at(c->epsn, k)),
					OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_advance(w), 0U);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(w, s), 0);
}

static void rmp_rxwin_sack__matches_model(struct kunit *test)
{
	const struct pattern_case *c = test->param_value;
	u32 top = pat_highest(c), nbits = pat_nbits(c), i;
	struct rmp_rxwin w;
	struct rmp_sack s;

	pat_build(test, c, &w, &s);
	KUNIT_EXPECT_EQ(test, s.cum_ack, at(c->epsn, -1));
	KUNIT_EXPECT_EQ(test, s.highest, top ? at(c->epsn, top) : s.cum_ack);
	KUNIT_EXPECT_EQ(test, s.nbits, nbits);
	for (i = 0; i < RMP_SACK_MAX_BITS; i++)
		KUNIT_EXPECT_EQ_MSG(test, sack_bit(&s, i),
				    (u32)(i < nbits && pat_recv(c, i + 1)),
				    "bit %u", i);
}

static void rmp_sack_next_hole__matches_window(struct kunit *test)
{
	const struct pattern_case *c = test->param_value;
	bool reported[RMP_SACK_MAX_BITS + 1] = {};
	u32 nbits = pat_nbits(c), k;
	struct rmp_rxwin w;
	struct rmp_sack s;
	int off, prev = -1;

	pat_build(test, c, &w, &s);
	rmp_sack_for_each_hole(&s, off) {
		KUNIT_ASSERT_GT(test, off, prev);
		KUNIT_ASSERT_LE(test, off, (int)nbits);
		reported[off] = true;
		prev = off;
	}
	/* Every PSN the SACK describes: a hole exactly when not received. */
	if (!pat_highest(c)) {
		KUNIT_EXPECT_EQ(test, prev, -1);
		return;
	}
	for (k = 0; k <= nbits; k++)
		KUNIT_EXPECT_EQ_MSG(test, reported[k],
				    !rmp_rxwin_has(&w, at(c->epsn, k)),
				    "offset %u", k);
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, nbits + 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 0xffffffffU), -ENOENT);
}

static void rmp_sack_has__matches_window(struct kunit *test)
{
	const struct pattern_case *c = test->param_value;
	u32 top = pat_highest(c), nbits = pat_nbits(c);
	struct rmp_rxwin w;
	struct rmp_sack s;
	s32 k;

	pat_build(test, c, &w, &s);
	for (k = -3; k < (s32)c->limit + 3; k++) {
		u32 psn = at(c->epsn, k);
		bool want = k < 0 || (top && (u32)k == top) ||
			    (k > 0 && (u32)k <= nbits && pat_recv(c, k));

		KUNIT_EXPECT_EQ_MSG(test, rmp_sack_has(&s, psn), want,
				    "offset %d", k);
		/* Never claims more than the responder holds. */
		if (want)
			KUNIT_EXPECT_TRUE_MSG(test, rmp_rxwin_has(&w, psn),
					      "offset %d", k);
	}
}

static void rmp_sack_encode__round_trip(struct kunit *test)
{
	const struct pattern_case *c = test->param_value;
	u8 buf[RMP_SACK_WIRE_MAX + 8];
	u32 nbits = pat_nbits(c), i, words = 0;
	struct rmp_sack s, d;
	struct rmp_rxwin w;
	int len;

	pat_build(test, c, &w, &s);
	for (i = 0; i < nbits; i++)
		if (pat_recv(c, i + 1))
			words = i / 32 + 1;

	/* Odd offset: the block need not be aligned. */
	len = rmp_sack_encode(&s, buf + 1, sizeof(buf) - 1);
	KUNIT_ASSERT_EQ(test, len, (int)(RMP_SACK_WIRE_MIN + 4 * words));
	KUNIT_EXPECT_EQ(test, buf[1], RMP_SACK_VERSION);
	KUNIT_EXPECT_EQ(test, buf[2], words);

	memset(&d, 0xa5, sizeof(d));
	KUNIT_ASSERT_EQ(test, rmp_sack_decode(&d, buf + 1, len), len);
	KUNIT_EXPECT_EQ(test, d.cum_ack, s.cum_ack);
	KUNIT_EXPECT_EQ(test, d.highest, s.highest);
	KUNIT_EXPECT_EQ(test, d.nbits, s.nbits);
	for (i = 0; i < ARRAY_SIZE(s.bitmap); i++)
		KUNIT_EXPECT_EQ_MSG(test, d.bitmap[i], s.bitmap[i], "word %u", i);

	/* One byte short of the block is refused both ways. */
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, len - 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, rmp_sack_decode(&d, buf + 1, len - 1), -EINVAL);
}

static void rmp_rxwin_sack__more_holes_than_bits(struct kunit *test)
{
	u32 epsn = 0xfffff0, k, holes = 0;
	struct rmp_rxwin w;
	struct rmp_sack s;
	int off;

	/* 64 paths, path 0 dead: every 64th PSN missing across the window. */
	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, epsn, 1024), 0);
	for (k = 1; k < 1024; k++)
		if (k % 64)
			KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(epsn, k)),
					OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.cum_ack, at(epsn, -1));
	KUNIT_EXPECT_EQ(test, s.highest, at(epsn, 1023));
	KUNIT_EXPECT_EQ(test, s.nbits, RMP_SACK_MAX_BITS);
	/* Holes 0, 64, 128, 192, 256 are reported; 320 and on are not yet. */
	rmp_sack_for_each_hole(&s, off) {
		KUNIT_EXPECT_EQ(test, off % 64, 0);
		holes++;
	}
	KUNIT_EXPECT_EQ(test, holes, 5U);
	KUNIT_EXPECT_FALSE(test, rmp_sack_has(&s, at(epsn, 320)));
	KUNIT_EXPECT_FALSE(test, rmp_sack_has(&s, at(epsn, 321)));
	KUNIT_EXPECT_TRUE(test, rmp_sack_has(&s, at(epsn, 1023)));

	/* Repairing the head slides the bitmap over the next hole. */
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, epsn), IN);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 64U);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.cum_ack, at(epsn, 63));
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 1), 64);
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 193), 256);
	KUNIT_EXPECT_EQ(test, rmp_sack_next_hole(&s, 257), -ENOENT);
}

static void rmp_rxwin_sack__refuses_unadvanced(struct kunit *test)
{
	struct rmp_rxwin w;
	struct rmp_sack s;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, 0xffffff, 64), 0);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, 3), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, 0xffffff), IN);
	s.cum_ack = 0x123;
	KUNIT_EXPECT_EQ(test, rmp_rxwin_sack(&w, &s), -EAGAIN);
	KUNIT_EXPECT_EQ(test, s.cum_ack, 0x123U);
	KUNIT_EXPECT_EQ(test, rmp_rxwin_advance(&w), 1U);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.cum_ack, 0xffffffU);
	KUNIT_EXPECT_EQ(test, s.highest, 3U);
	KUNIT_EXPECT_EQ(test, s.nbits, 3U);
	KUNIT_EXPECT_EQ(test, s.bitmap[0], 0x4ULL);
}

static void rmp_sack_encode__wire_layout(struct kunit *test)
{
	static const u8 want[] = {
		0x01, 0x02, 0x00, 0x00,		/* version, 2 words */
		0x00, 0x00, 0x00, 0x0f,		/* cum_ack */
		0x00, 0x00, 0x00, 0x33,		/* highest */
		0x00, 0x00, 0x00, 0x0a,		/* epsn + 2, epsn + 4 */
		0x00, 0x00, 0x00, 0x04,		/* epsn + 35 */
	};
	u8 buf[RMP_SACK_WIRE_MAX + 1];
	struct rmp_rxwin w;
	struct rmp_sack s;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, 0x10, 64), 0);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, 0x12), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, 0x14), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, 0x33), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(&w, &s), 0);

	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test, rmp_sack_encode(&s, buf + 1, sizeof(buf) - 1),
			(int)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(buf + 1, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 0xee);
	KUNIT_EXPECT_EQ(test, buf[1 + sizeof(want)], 0xee);
}

static void rmp_sack_encode__refuses_malformed(struct kunit *test)
{
	const struct rmp_sack good = {
		.cum_ack = 0x10, .highest = 0x14, .nbits = 3, .bitmap = { 0x5 },
	};
	u8 buf[RMP_SACK_WIRE_MAX];
	struct rmp_sack s;

	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&good, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&good, buf, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&good, buf, 15), -ENOSPC);

	s = good;
	s.nbits = 4;
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), -EINVAL);
	s = good;
	s.bitmap[0] = 0x1;
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), -EINVAL);
	s = good;
	s.bitmap[3] = 0x1;
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), -EINVAL);
	s = good;
	s.cum_ack |= 0x1000000;
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), -EINVAL);
	s = good;
	s.highest = 0x11;
	s.nbits = 0;
	s.bitmap[0] = 0;
	KUNIT_EXPECT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), -EINVAL);
}

/*
 * Wire blocks, described field by field and serialised by hand so the
 * layout is checked independently of struct rmp_sack_wire.  The base block:
 * cum_ack 0x10, highest 0x14, one word 0b101 (0x12 and 0x14 received, 0x11
 * and 0x13 missing).
 */
#define WIRE_WORDS	9

struct wire_img {
	u8 version;
	u8 nwords;
	u16 rsvd;
	u32 cum_ack;
	u32 highest;
	u32 words[WIRE_WORDS];
};

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void wire_put(const struct wire_img *img, u8 buf[48])
{
	u32 j;

	buf[0] = img->version;
	buf[1] = img->nwords;
	buf[2] = img->rsvd >> 8;
	buf[3] = img->rsvd;
	put_be32(buf + 4, img->cum_ack);
	put_be32(buf + 8, img->highest);
	for (j = 0; j < WIRE_WORDS; j++)
		put_be32(buf + 12 + 4 * j, img->words[j]);
}

struct wire_bad_case {
	const char *desc;
	struct wire_img img;
	u32 len;
};

static void wire_bad_desc(const struct wire_bad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct wire_bad_case decode_bad_cases[] = {
	{ "empty", { 1, 1, 0, 0x10, 0x14, { 5 } }, 0 },
	{ "truncated header", { 1, 1, 0, 0x10, 0x14, { 5 } }, 11 },
	{ "truncated bitmap", { 1, 1, 0, 0x10, 0x14, { 5 } }, 15 },
	{ "version 0", { 0, 1, 0, 0x10, 0x14, { 5 } }, 16 },
	{ "version 2", { 2, 1, 0, 0x10, 0x14, { 5 } }, 16 },
	{ "reserved set", { 1, 1, 0x0001, 0x10, 0x14, { 5 } }, 16 },
	{ "unknown flag", { 1, 1, 0x4000, 0x10, 0x14, { 5 } }, 16 },
	{ "nine words",
	  { 1, 9, 0, 0x10, 0x14, { 5, 1, 1, 1, 1, 1, 1, 1, 1 } }, 48 },
	{ "255 words", { 1, 255, 0, 0x10, 0x14, { 5 } }, 48 },
	{ "trailing zero word", { 1, 2, 0, 0x10, 0x14, { 5, 0 } }, 20 },
	{ "cum_ack high byte set",
	  { 1, 1, 0, 0x01000010, 0x14, { 5 } }, 16 },
	{ "highest high byte set",
	  { 1, 1, 0, 0x10, 0x80000014, { 5 } }, 16 },
	{ "highest before cum_ack", { 1, 0, 0, 0x10, 0x0f, {} }, 12 },
	{ "highest is cum_ack + 1", { 1, 0, 0, 0x10, 0x11, {} }, 12 },
	{ "highest beyond the largest window",
	  { 1, 0, 0, 0x10, 0x10 + RMP_RXWIN_MAX + 1, {} }, 12 },
	{ "bit after highest", { 1, 1, 0, 0x10, 0x14, { 0xd } }, 16 },
	{ "word after highest", { 1, 2, 0, 0x10, 0x14, { 5, 1 } }, 20 },
	{ "highest's bit clear", { 1, 1, 0, 0x10, 0x14, { 1 } }, 16 },
	{ "bitmap with nothing held", { 1, 1, 0, 0x10, 0x10, { 1 } }, 16 },
	{ "wrap: highest behind cum_ack across zero",
	  { 1, 0, 0, 0x000002, 0xfffff0, {} }, 12 },
	{ "all ones", { 0xff, 0xff, 0xffff, 0xffffffff, 0xffffffff,
			{ [0 ... WIRE_WORDS - 1] = 0xffffffff } }, 48 },
};

KUNIT_ARRAY_PARAM(decode_bad, decode_bad_cases, wire_bad_desc);

static void rmp_sack_decode__rejects(struct kunit *test)
{
	const struct wire_bad_case *c = test->param_value;
	struct rmp_sack s, before;
	u8 buf[48];

	wire_put(&c->img, buf);
	memset(&s, 0xa5, sizeof(s));
	before = s;
	KUNIT_EXPECT_EQ(test, rmp_sack_decode(&s, buf, c->len), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&s, &before, sizeof(s)), 0);
}

struct wire_good_case {
	const char *desc;
	struct wire_img img;
	u32 len;
	int ret;
	u32 nbits;
	u64 bitmap0;
};

static void wire_good_desc(const struct wire_good_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct wire_good_case decode_good_cases[] = {
	{ "base", { 1, 1, 0, 0x10, 0x14, { 5 } }, 16, 16, 3, 0x5 },
	{ "bytes after the block are ignored",
	  { 1, 1, 0, 0x10, 0x14, { 5, 0xffffffff, 7 } }, 48, 16, 3, 0x5 },
	{ "nothing held", { 1, 0, 0, 0x10, 0x10, {} }, 12, 12, 0, 0 },
	{ "wrap: across zero", { 1, 1, 0, 0xfffffe, 0x000002, { 5 } }, 16,
	  16, 3, 0x5 },
	{ "highest past the bitmap, bitmap empty",
	  { 1, 0, 0, 0x10, 0x10 + 700, {} }, 12, 12, RMP_SACK_MAX_BITS, 0 },
	{ "highest at the edge of the largest window",
	  { 1, 0, 0, 0x10, 0x10 + RMP_RXWIN_MAX, {} }, 12, 12,
	  RMP_SACK_MAX_BITS, 0 },
	{ "second word", { 1, 2, 0, 0x10, 0x10 + 36, { 0, 4 } }, 20, 20, 35,
	  0x400000000ULL },
};

KUNIT_ARRAY_PARAM(decode_good, decode_good_cases, wire_good_desc);

static void rmp_sack_decode__accepts(struct kunit *test)
{
	const struct wire_good_case *c = test->param_value;
	u8 buf[48], again[RMP_SACK_WIRE_MAX];
	struct rmp_sack s;
	u32 i;

	wire_put(&c->img, buf);
	memset(&s, 0xa5, sizeof(s));
	KUNIT_ASSERT_EQ(test, rmp_sack_decode(&s, buf, c->len), c->ret);
	KUNIT_EXPECT_EQ(test, s.cum_ack, c->img.cum_ack);
	KUNIT_EXPECT_EQ(test, s.highest, c->img.highest);
	KUNIT_EXPECT_EQ(test, s.nbits, c->nbits);
	KUNIT_EXPECT_EQ(test, s.bitmap[0], c->bitmap0);
	for (i = 1; i < ARRAY_SIZE(s.bitmap); i++)
		KUNIT_EXPECT_EQ(test, s.bitmap[i], 0ULL);

	/* Canonical: encoding gives back the same bytes. */
	KUNIT_ASSERT_EQ(test, rmp_sack_encode(&s, again, sizeof(again)), c->ret);
	KUNIT_EXPECT_EQ(test, memcmp(again, buf, c->ret), 0);
}

/*
 * Property: a random permutation of a PSN range, fed through a window
 * (PSNs beyond it are dropped and offered again later, like
 * retransmissions, with duplicates mixed in) is delivered exactly once
 * and in order; SACKs along the way report exactly the missing PSNs.
 */
#define RAND_MAX_PSNS	4096

enum { ST_NONE, ST_HELD, ST_DELIVERED };

static u8 rand_state[RAND_MAX_PSNS];
static u32 rand_pending[RAND_MAX_PSNS];

struct rand_case {
	const char *desc;
	u32 seed;
	u32 epsn;
	u32 size;
	u32 n;
};

static void rand_desc(const struct rand_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct rand_case rand_cases[] = {
	{ "64 window, 2000 PSNs", 1, 0x100, 64, 2000 },
	{ "wrap: 1024 window across zero", 0xdeadbeef, 0xfffc00, 1024, 4096 },
	{ "wrap: 256 window from max", 7, 0xffffff, 256, 3000 },
	{ "128 window around the half space", 12345, 0x7fff80, 128, 1500 },
	{ "512 window from zero", 99, 0, 512, 4096 },
};

KUNIT_ARRAY_PARAM(rand, rand_cases, rand_desc);

static u32 xorshift32(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static void rand_advance(struct kunit *test, const struct rand_case *c,
			 struct rmp_rxwin *w, u32 *delivered)
{
	u32 got = rmp_rxwin_advance(w), k;

	for (k = *delivered; k < *delivered + got; k++) {
		KUNIT_ASSERT_EQ_MSG(test, rand_state[k], ST_HELD, "offset %u", k);
		rand_state[k] = ST_DELIVERED;
	}
	*delivered += got;
	KUNIT_ASSERT_EQ(test, w->epsn, at(c->epsn, *delivered));
	if (*delivered < c->n)
		KUNIT_ASSERT_EQ(test, rand_state[*delivered], ST_NONE);
}

static void rand_check_sack(struct kunit *test, const struct rand_case *c,
			    const struct rmp_rxwin *w, u32 delivered)
{
	u8 buf[RMP_SACK_WIRE_MAX];
	struct rmp_sack s, d;
	u32 holes = 0, want = 0, k;
	int off, len;

	if (rmp_rxwin_has(w, w->epsn)) {
		KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(w, &s), -EAGAIN);
		return;
	}
	KUNIT_ASSERT_EQ(test, rmp_rxwin_sack(w, &s), 0);
	rmp_sack_for_each_hole(&s, off) {
		KUNIT_ASSERT_LT(test, delivered + off, c->n);
		KUNIT_ASSERT_EQ(test, rand_state[delivered + off], ST_NONE);
		holes++;
	}
	if (w->held) {
		for (k = 0; k <= s.nbits; k++)
			want += rand_state[delivered + k] == ST_NONE;
	}
	KUNIT_ASSERT_EQ(test, holes, want);

	len = rmp_sack_encode(&s, buf, sizeof(buf));
	KUNIT_ASSERT_GE(test, len, (int)RMP_SACK_WIRE_MIN);
	KUNIT_ASSERT_EQ(test, rmp_sack_decode(&d, buf, len), len);
	KUNIT_ASSERT_EQ(test, d.highest, s.highest);
	KUNIT_ASSERT_EQ(test, d.nbits, s.nbits);
}

static void rmp_rxwin_advance__random_permutation(struct kunit *test)
{
	const struct rand_case *c = test->param_value;
	u32 seed = c->seed, npend = c->n, delivered = 0, held = 0;
	u32 passes = 0, i;
	struct rmp_rxwin w;

	KUNIT_ASSERT_LE(test, c->n, (u32)RAND_MAX_PSNS);
	memset(rand_state, ST_NONE, sizeof(rand_state));
	for (i = 0; i < c->n; i++)
		rand_pending[i] = i;
	for (i = c->n - 1; i > 0; i--) {
		u32 j = xorshift32(&seed) % (i + 1), t = rand_pending[i];

		rand_pending[i] = rand_pending[j];
		rand_pending[j] = t;
	}

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, c->size), 0);
	while (delivered < c->n) {
		u32 kept = 0;

		passes++;
		KUNIT_ASSERT_LE(test, passes, c->n);
		for (i = 0; i < npend; i++) {
			u32 off = rand_pending[i], r, dup;
			enum rmp_rxwin_verdict v, want;

			v = rmp_rxwin_accept(&w, at(c->epsn, off));
			if (off - delivered >= c->size) {
				KUNIT_ASSERT_EQ(test, v, BEY);
				rand_pending[kept++] = off;
			} else {
				want = off == delivered ? IN : OOO;
				KUNIT_ASSERT_EQ(test, v, want);
				rand_state[off] = ST_HELD;
				held++;
			}

			r = xorshift32(&seed);
			dup = (r >> 8) % c->n;
			if (r % 8 == 0 && rand_state[dup] != ST_NONE)
				KUNIT_ASSERT_EQ(test,
						rmp_rxwin_accept(&w, at(c->epsn, dup)),
						DUP);
			if (r % 4 == 1) {
				u32 before = delivered;

				rand_advance(test, c, &w, &delivered);
				held -= delivered - before;
			}
			if (r % 64 == 2)
				rand_check_sack(test, c, &w, delivered);
			KUNIT_ASSERT_EQ(test, w.held, held);
		}
		npend = kept;
		i = delivered;
		rand_advance(test, c, &w, &delivered);
		held -= delivered - i;
	}

	KUNIT_EXPECT_EQ(test, npend, 0U);
	KUNIT_EXPECT_EQ(test, w.held, 0U);
	KUNIT_EXPECT_EQ(test, w.epsn, at(c->epsn, c->n));
	for (i = 0; i < c->n; i++)
		KUNIT_ASSERT_EQ_MSG(test, rand_state[i], ST_DELIVERED,
				    "offset %u", i);
}

/* A SACK that says an ECN echo follows: the flag, both ways. */
static void rmp_sack_encode__ecn_flag(struct kunit *test)
{
	struct rmp_sack s = {
		.cum_ack = 0x10, .highest = 0x14, .nbits = 3, .bitmap = { 0x5 },
		.ecn = true,
	}, t;
	u8 buf[RMP_SACK_WIRE_MAX];

	KUNIT_ASSERT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, buf[2], RMP_SACK_F_ECN);
	KUNIT_EXPECT_EQ(test, buf[3], 0);
	KUNIT_ASSERT_EQ(test, rmp_sack_decode(&t, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_TRUE(test, t.ecn);
	s.ecn = false;
	KUNIT_ASSERT_EQ(test, rmp_sack_encode(&s, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, buf[2], 0);
	KUNIT_ASSERT_EQ(test, rmp_sack_decode(&t, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_FALSE(test, t.ecn);
}

/*
 * Marks taken out of order, an earlier one moving the base back a word;
 * one too far refused; the block cut to the words in use, read back the
 * same and encoded again to the same bytes.
 */
static void rmp_ecn_echo_note__encode_decode(struct kunit *test)
{
	static const u32 marks[] = { 100, 130, 70, 32, 255 };
	static const u8 want[] = {
		0x07, 0x00, 0x00, 0x20,		/* 7 words from PSN 32 */
		0x00, 0x00, 0x00, 0x01,		/* 32 */
		0x00, 0x00, 0x00, 0x40,		/* 70 */
		0x00, 0x00, 0x00, 0x10,		/* 100 */
		0x00, 0x00, 0x00, 0x04,		/* 130 */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x00,		/* 255 */
	};
	u8 buf[RMP_ECN_ECHO_WIRE_MAX + 1], again[RMP_ECN_ECHO_WIRE_MAX];
	struct rmp_ecn_echo e = {}, d, before;
	u32 i, psn;

	KUNIT_EXPECT_TRUE(test, rmp_ecn_echo_empty(&e));
	KUNIT_EXPECT_EQ(test, rmp_ecn_echo_encode(&e, buf, sizeof(buf)),
			-EINVAL);
	for (i = 0; i < ARRAY_SIZE(marks); i++)
		KUNIT_ASSERT_EQ(test, rmp_ecn_echo_note(&e, marks[i]), 0);
	KUNIT_EXPECT_EQ(test, e.base, 0U);
	before = e;
	KUNIT_EXPECT_EQ(test, rmp_ecn_echo_note(&e, 256), -ENOSPC);
	KUNIT_EXPECT_EQ(test, memcmp(&e, &before, sizeof(e)), 0);

	memset(buf, 0xee, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rmp_ecn_echo_encode(&e, buf, sizeof(want) - 1),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, rmp_ecn_echo_encode(&e, buf, sizeof(buf)),
			(int)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(buf, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, buf[sizeof(want)], 0xee);

	KUNIT_ASSERT_EQ(test, rmp_ecn_echo_decode(&d, buf, sizeof(buf)),
			(int)sizeof(want));
	KUNIT_EXPECT_EQ(test, d.base, 32U);
	for (psn = 0; psn < 400; psn++)
		KUNIT_EXPECT_EQ(test, rmp_ecn_echo_has(&d, psn), rmp_ecn_echo_has(&e, psn));
	KUNIT_ASSERT_EQ(test, rmp_ecn_echo_encode(&d, again, sizeof(again)),
			(int)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(again, want, sizeof(want)), 0);

	/* Across the wrap of the PSN space. */
	memset(&e, 0, sizeof(e));
	KUNIT_ASSERT_EQ(test, rmp_ecn_echo_note(&e, 0xfffffe), 0);
	KUNIT_ASSERT_EQ(test, rmp_ecn_echo_note(&e, 3), 0);
	KUNIT_EXPECT_EQ(test, e.base, 0xffffc0U);
	KUNIT_EXPECT_TRUE(test, rmp_ecn_echo_has(&e, 0xfffffe));
	KUNIT_EXPECT_TRUE(test, rmp_ecn_echo_has(&e, 3));
	KUNIT_EXPECT_FALSE(test, rmp_ecn_echo_has(&e, 2));
}

struct echo_bad_case {
	const char *desc;
	u8 bytes[12];
	u32 len;
};

static void echo_bad_desc(const struct echo_bad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct echo_bad_case echo_bad_cases[] = {
	{ "empty", { 1, 0, 0, 0, 0, 0, 0, 1 }, 0 },
	{ "truncated header", { 1, 0, 0, 0, 0, 0, 0, 1 }, 3 },
	{ "truncated bitmap", { 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1 }, 11 },
	{ "no words", { 0, 0, 0, 0, 0, 0, 0, 1 }, 8 },
	{ "nine words", { 9, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1 }, 12 },
	{ "first word zero", { 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 12 },
	{ "last word zero", { 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0 }, 12 },
	{ "all ones", { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0xff, 0xff }, 12 },
};

KUNIT_ARRAY_PARAM(echo_bad, echo_bad_cases, echo_bad_desc);

static void rmp_ecn_echo_decode__rejects(struct kunit *test)
{
	const struct echo_bad_case *c = test->param_value;
	struct rmp_ecn_echo e, before;

	memset(&e, 0xa5, sizeof(e));
	before = e;
	KUNIT_EXPECT_EQ(test, rmp_ecn_echo_decode(&e, c->bytes, c->len),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&e, &before, sizeof(e)), 0);
}

struct move_case {
	const char *desc;
	u32 epsn;
	s32 to;		/* the new expected PSN, from epsn */
	u32 held_after;
};

static const struct move_case move_cases[] = {
	{ "backwards: nothing moves", 100, -5, 3 },
	{ "to where it is", 100, 0, 3 },
	{ "over the first hole", 100, 2, 3 },
	{ "over one held PSN", 100, 4, 2 },
	{ "over all but the last", 100, 8, 1 },
	{ "past everything", 100, 20, 0 },
	{ "past a whole window, across the wrap", 0xfffff0, 5000, 0 },
};

static void move_desc(const struct move_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

KUNIT_ARRAY_PARAM(move, move_cases, move_desc);

/*
 * PSNs 3, 7 and 9 after epsn held; moving forgets those passed and keeps
 * the others.
 */
static void rmp_rxwin_move__forgets_what_it_passes(struct kunit *test)
{
	const struct move_case *c = test->param_value;
	u32 to = c->to > 0 ? at(c->epsn, c->to) : c->epsn, k;
	struct rmp_rxwin w;

	KUNIT_ASSERT_EQ(test, rmp_rxwin_init(&w, c->epsn, RMP_RXWIN_MIN), 0);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, 3)), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, 7)), OOO);
	KUNIT_ASSERT_EQ(test, rmp_rxwin_accept(&w, at(c->epsn, 9)), OOO);
	rmp_rxwin_move(&w, at(c->epsn, c->to));
	KUNIT_EXPECT_EQ(test, w.epsn, to);
	KUNIT_EXPECT_EQ(test, w.held, c->held_after);
	KUNIT_EXPECT_EQ(test, w.highest,
			c->held_after ? at(c->epsn, 9) : rmp_psn_sub(to, 1));
	for (k = 0; k < 12; k++)
		KUNIT_EXPECT_EQ(test, rmp_rxwin_has(&w, at(c->epsn, k)),
				(s32)k < c->to || k == 3 || k == 7 || k == 9);
	/* Its new expected PSN is taken in order. */
	KUNIT_EXPECT_EQ(test, rmp_rxwin_accept(&w, to), IN);
	KUNIT_EXPECT_GE(test, rmp_rxwin_advance(&w), 1U);
}

static struct kunit_case rmp_rxwin_cases[] = {
	KUNIT_CASE_PARAM(rmp_rxwin_init__validates_size, init_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_accept__verdicts, accept_gen_params),
	KUNIT_CASE(rmp_rxwin_advance__in_order_stream),
	KUNIT_CASE_PARAM(rmp_rxwin_advance__reorder_scripts,
			 script_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_advance__word_boundaries, run_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_advance__window_full_then_drains,
			 fill_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_advance__gap_at_window_end, fill_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_move__forgets_what_it_passes,
			 move_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_sack__matches_model, pattern_gen_params),
	KUNIT_CASE(rmp_rxwin_sack__more_holes_than_bits),
	KUNIT_CASE(rmp_rxwin_sack__refuses_unadvanced),
	KUNIT_CASE_PARAM(rmp_sack_next_hole__matches_window,
			 pattern_gen_params),
	KUNIT_CASE_PARAM(rmp_sack_has__matches_window, pattern_gen_params),
	KUNIT_CASE_PARAM(rmp_sack_encode__round_trip, pattern_gen_params),
	KUNIT_CASE(rmp_sack_encode__wire_layout),
	KUNIT_CASE(rmp_sack_encode__refuses_malformed),
	KUNIT_CASE_PARAM(rmp_sack_decode__rejects, decode_bad_gen_params),
	KUNIT_CASE_PARAM(rmp_sack_decode__accepts, decode_good_gen_params),
	KUNIT_CASE(rmp_sack_encode__ecn_flag),
	KUNIT_CASE(rmp_ecn_echo_note__encode_decode),
	KUNIT_CASE_PARAM(rmp_ecn_echo_decode__rejects, echo_bad_gen_params),
	KUNIT_CASE_PARAM(rmp_rxwin_advance__random_permutation,
			 rand_gen_params),
	{}
};

static struct kunit_suite rmp_rxwin_suite = {
	.name = "rmp_rxwin",
	.test_cases = rmp_rxwin_cases,
};

kunit_test_suites(&rmp_rxwin_suite);
