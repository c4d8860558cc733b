// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the multipath scoreboard: SACKs mark PSNs held, the
 * per-path rule and the time rule find the lost ones, dead paths and ACK
 * timeouts give up on what they carried; PSNs near the wrap of the 24-bit
 * space.
 */
#include <kunit/test.h>

#include "../engine/scoreboard.h"

#define US	1000ULL
#define NREC	64U
#define LEN	1024U	/* payload of most packets */

struct sb_env {
	struct rmp_paths ps;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[NREC];
};

static struct sb_env *env_new(struct kunit *test, u32 npaths)
{
	struct rmp_paths_cfg cfg = {
		.npaths = npaths,
		.spray = RMP_SPRAY_RR,
		.sport = 0xc001,
		.seed = 7,
		.dead_after_ns = 1000 * US,
		.probe_every_ns = 500 * US,
		.flowlet_gap_ns = 50 * US,
	};
	struct sb_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, rmp_paths_init(&e->ps, &cfg), 0);
	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->sb, e->rec, NREC), 0);
	return e;
}

/* Send @n PSNs from @base, PSN base + i on path i % npaths. */
static void send_rr(struct sb_env *e, u32 base, u32 n, u64 now)
{
	u32 i;

	for (i = 0; i < n; i++)
		rmp_sb_sent(&e->sb, &e->ps, rmp_psn_add(base, i), LEN,
			    i % e->ps.cfg.npaths, RMP_SB_NO_PROBE, now);
}

/* A SACK of cumulative ack @cum holding the PSNs cum + 2 + i, i in @held. */
static void sack_of(struct rmp_sack *s, u32 cum, const u32 *held, u32 n)
{
	u32 i, hi = cum;

	memset(s, 0, sizeof(*s));
	s->cum_ack = cum;
	for (i = 0; i < n; i++) {
		s->bitmap[held[i] / 64] |= 1ULL << (held[i] % 64);
		if (rmp_psn_after(rmp_psn_add(cum, 2 + held[i]), hi))
			hi = rmp_psn_add(cum, 2 + held[i]);
	}
	s->highest = hi;
	s->nbits = rmp_sack_nbits(cum, hi);
}

static void rmp_sb_init__validates(struct kunit *test)
{
	struct rmp_sb_rec rec[4];
	struct rmp_sb sb;

	KUNIT_EXPECT_EQ(test, rmp_sb_init(&sb, NULL, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_sb_init(&sb, rec, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_sb_init(&sb, rec, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_sb_init(&sb, rec, 2 * RMP_RXWIN_MAX),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_sb_init(&sb, rec, 4), 0);
	KUNIT_EXPECT_EQ(test, sb.mask, 3U);
}

static const u32 bases[] = { 0, 100, RMP_PSN_MASK - 5 };

static void base_desc(const u32 *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "base %#x", *b);
}

KUNIT_ARRAY_PARAM(base, bases, base_desc);

/*
 * 16 PSNs over 4 paths; all but base + 1 (path 1) arrive: three later
 * packets on path 1 arrived, so it is lost. The others are held.
 */
static void rmp_sb_sack__overtaken_on_its_path_is_lost(struct kunit *test)
{
	const u32 base = *(const u32 *)test->param_value;
	struct sb_env *e = env_new(test, 4);
	u32 held[14], i, una = rmp_psn_add(base, 1);
	struct rmp_sack s;

	send_rr(e, base, 16, 10 * US);
	/* base itself is acknowledged cumulatively: cum_ack = base. */
	rmp_sb_acked(&e->sb, &e->ps, base, una, 20 * US);
	for (i = 0; i < 14; i++)
		held[i] = i;	/* base + 2 ... base + 15 */
	sack_of(&s, base, held, 14);
	KUNIT_EXPECT_EQ(test,
			rmp_sb_sack(&e->sb, &e->ps, una,
				    rmp_psn_add(base, 16), &s, 30 * US), 1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_LOST);
	for (i = 2; i < 16; i++)
		KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, rmp_psn_add(base, i)),
				RMP_SB_SACKED);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, una,
					       rmp_psn_add(base, 16)),
			(int)una);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].inflight, 0U);
	KUNIT_EXPECT_EQ(test, e->sb.stats.sacked, 14ULL);

	/* Sent again: in flight, no longer due. */
	rmp_sb_sent(&e->sb, &e->ps, una, LEN, 2, RMP_SB_NO_PROBE, 40 * US);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, una,
					       rmp_psn_add(base, 16)),
			-ENOENT);

	/* All acknowledged: the records are clear, nothing is in flight. */
	rmp_sb_acked(&e->sb, &e->ps, una, rmp_psn_add(base, 16), 50 * US);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, 0U);
	for (i = 0; i < NREC; i++)
		KUNIT_EXPECT_EQ(test, e->rec[i].state, RMP_SB_NONE);
}

/* Fewer than RMP_SB_REORDER later packets on the path: only late. */
static void rmp_sb_sack__reorder_tolerated(struct kunit *test)
{
	struct sb_env *e = env_new(test, 4);
	/* PSN 1 (path 1) missing; of path 1's later PSNs 5, 9, 13 only 5, 9
	 * arrived; the other paths delivered everything.
	 */
	const u32 held[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13 };
	struct rmp_sack s;

	send_rr(e, 0, 16, 0);
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, US);
	sack_of(&s, 0, held, ARRAY_SIZE(held));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 1, 16, &s, 2 * US),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 1), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 13), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, 1, 16), -ENOENT);
}

/* A slow path is not blamed for what faster paths delivered. */
static void rmp_sb_sack__other_paths_do_not_blame(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	u32 held[32], i, n = 0;
	struct rmp_sack s;

	/* 40 PSNs; path 1 (odd PSNs) delivers nothing yet. */
	send_rr(e, 0, 40, 0);
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, US);
	for (i = 2; i < 40; i += 2)
		held[n++] = i - 2;
	sack_of(&s, 0, held, n);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 1, 40, &s, 2 * US),
			0U);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 0U);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].inflight, 20U);
}

/* Bits outside what was sent, or already acknowledged, claim nothing. */
static void rmp_sb_sack__ignores_bits_outside(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	const u32 held[] = { 0, 3, 7, 200 };
	struct rmp_sack s;

	send_rr(e, 10, 4, 0);		/* PSNs 10..13 */
	/* cum_ack 5: bits name PSNs 7, 10, 14, 207. */
	sack_of(&s, 5, held, ARRAY_SIZE(held));
	rmp_sb_sack(&e->sb, &e->ps, 10, 14, &s, US);
	KUNIT_EXPECT_EQ(test, e->sb.stats.sacked, 1ULL);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 10), RMP_SB_SACKED);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 14), RMP_SB_NONE);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 7), RMP_SB_NONE);
}

/* A late packet the SACK shows held after all is no longer due. */
static void rmp_sb_sack__late_arrival_cancels_loss(struct kunit *test)
{
	struct sb_env *e = env_new(test, 1);
	const u32 all_but_1[] = { 0, 1, 2, 3 }, all[] = { 0, 1, 2, 3, 4 };
	struct rmp_sack s;

	send_rr(e, 0, 8, 0);
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, US);
	sack_of(&s, 0, all_but_1, ARRAY_SIZE(all_but_1));	/* 2..5 */
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 1, 8, &s, US), 1U);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 1U);
	/* PSN 1 still shows as a hole; PSN 6 arrived meanwhile. */
	sack_of(&s, 0, all, ARRAY_SIZE(all));
	rmp_sb_sack(&e->sb, &e->ps, 1, 8, &s, 2 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 1U);
	/* Then PSN 1 is acknowledged cumulatively after all. */
	rmp_sb_acked(&e->sb, &e->ps, 1, 7, 3 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, 7, 8), -ENOENT);
}

/*
 * A PSN declared lost that arrives after all, before it was sent again or
 * sooner than half a round trip after, was reordered: the tolerance rises,
 * one place each time, up to its maximum. A loss that is a loss changes
 * nothing.
 */
static void rmp_sb_sack__reordering_raises_tolerance(struct kunit *test)
{
	struct sb_env *e = env_new(test, 1);
	const u32 two_to_five[] = { 0, 1, 2, 3 };
	struct rmp_sack s;
	u32 i;

	/* Path 0's round trip: 100 us. */
	send_rr(e, 0, 1, 0);
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, 100 * US);
	KUNIT_ASSERT_EQ(test, e->ps.path[0].rtt.srtt_ns, 100 * US);

	/* PSN 1 overtaken by 2..5, then acknowledged before it is resent. */
	send_rr(e, 1, 5, 200 * US);
	sack_of(&s, 0, two_to_five, ARRAY_SIZE(two_to_five));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 1, 6, &s, 300 * US),
			1U);
	rmp_sb_acked(&e->sb, &e->ps, 1, 6, 310 * US);
	KUNIT_EXPECT_EQ(test, e->sb.stats.spurious, 1ULL);
	KUNIT_EXPECT_EQ(test, e->sb.reorder, RMP_SB_REORDER + 1);

	/*
	 * Three later ones now make no loss at once, but do once PSN 6 is
	 * two round trips late; four would at once.
	 */
	send_rr(e, 6, 5, 400 * US);
	sack_of(&s, 5, two_to_five, 3);		/* 7, 8, 9 */
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 6, 11, &s, 500 * US),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 6, 11, &s, 590 * US),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 6, 11, &s, 610 * US),
			1U);
	/* Sent again, and acknowledged a round trip later: a real loss. */
	rmp_sb_sent(&e->sb, &e->ps, 6, LEN, 0, RMP_SB_NO_PROBE, 620 * US);
	rmp_sb_acked(&e->sb, &e->ps, 6, 11, 720 * US);
	KUNIT_EXPECT_EQ(test, e->sb.stats.spurious, 1ULL);
	KUNIT_EXPECT_EQ(test, e->sb.reorder, RMP_SB_REORDER + 1);

	/* Sent again, its first copy acknowledged 10 us after: reordering. */
	for (i = 0; i < 2 * RMP_SB_REORDER_MAX; i++) {
		u32 base = 11 + i * 20, n = e->sb.reorder + 2;
		u32 held[RMP_SB_REORDER_MAX + 1], k;
		u64 t = (1 + i) * 1000 * US;

		for (k = 0; k + 1 < n; k++)
			held[k] = k;
		send_rr(e, base, n, t);
		sack_of(&s, rmp_psn_add(base, -1), held, n - 1);
		KUNIT_ASSERT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, base,
						  base + n, &s, t + 100 * US),
				1U);
		rmp_sb_sent(&e->sb, &e->ps, base, LEN, 0, RMP_SB_NO_PROBE, t + 110 * US);
		rmp_sb_acked(&e->sb, &e->ps, base, base + n, t + 120 * US);
	}
	KUNIT_EXPECT_EQ(test, e->sb.reorder, RMP_SB_REORDER_MAX);
	KUNIT_EXPECT_EQ(test, e->sb.stats.spurious,
			1ULL + 2 * RMP_SB_REORDER_MAX);
}

static void rmp_sb_path_dead__moves_its_packets(struct kunit *test)
{
	struct sb_env *e = env_new(test, 4);
	u32 i;

	send_rr(e, 0, 16, 0);
	KUNIT_EXPECT_EQ(test, rmp_sb_path_dead(&e->sb, &e->ps, 0, 16, 2, US),
			4U);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, i),
				(i % 4 == 2 ? RMP_SB_LOST : RMP_SB_SENT) + 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, 0, 16), 2);
	KUNIT_EXPECT_EQ(test, e->sb.stats.dead_moved, 4ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[2].inflight, 0U);
}

/* An ACK timeout gives up on everything without killing any path. */
static void rmp_sb_timeout__blames_no_path(struct kunit *test)
{
	struct sb_env *e = env_new(test, 4);
	u32 i;

	send_rr(e, 0, 16, 0);
	KUNIT_EXPECT_EQ(test, rmp_sb_timeout(&e->sb, &e->ps, 0, 16), 16U);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 16U);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
		KUNIT_EXPECT_EQ(test, e->ps.path[i].inflight, 0U);
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
	}
}

#define ACK_TIMEOUT	(500 * US)

/* A path set of 4 whose PSN 0 was sent on path 0 and delivered at @t. */
static struct sb_env *env_heard_from(struct kunit *test, u64 t)
{
	struct sb_env *e = env_new(test, 4);

	rmp_sb_sent(&e->sb, &e->ps, 0, LEN, 0, RMP_SB_NO_PROBE, t - 10 * US);
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, t);
	return e;
}

/*
 * The requester's ACK timeout: one PSN in flight at a time (a credit window
 * of one packet), path 2 dark. Each of its PSNs was sent just after a
 * delivery on another path and timed out: the third kills path 2.
 */
static void rmp_sb_ack_timeout__dark_path_dies(struct kunit *test)
{
	u64 t = 20 * US;
	struct sb_env *e = env_heard_from(test, t);
	u32 psn, i;

	for (psn = 1; psn <= 3; psn++) {
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, 2));
		rmp_sb_sent(&e->sb, &e->ps, psn, LEN, 2, RMP_SB_NO_PROBE, t + 10 * US);
		t += 10 * US + ACK_TIMEOUT;
		KUNIT_EXPECT_EQ(test,
				rmp_sb_ack_timeout(&e->sb, &e->ps, psn, psn + 1,
						   t, ACK_TIMEOUT), 1U);
		/* Sent again on path 0, and delivered there. */
		rmp_sb_sent(&e->sb, &e->ps, psn, LEN, 0, RMP_SB_NO_PROBE, t);
		t += 10 * US;
		rmp_sb_acked(&e->sb, &e->ps, psn, psn + 1, t);
	}
	KUNIT_EXPECT_FALSE(test, rmp_paths_live(&e->ps, 2));
	KUNIT_EXPECT_EQ(test, e->ps.path[2].stats.lost, 3ULL);
	for (i = 0; i < 4; i++)
		if (i != 2)
			KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
}

/*
 * An ACK timeout while the paths queue: only the PSN sent a whole timeout
 * ago is lost. The dozen sent since, three on every path, may still come
 * and stay in flight; declared lost too, they would have killed every
 * path at once.
 */
static void rmp_sb_ack_timeout__young_psns_stay_in_flight(struct kunit *test)
{
	u64 t = 20 * US;
	struct sb_env *e = env_heard_from(test, t);
	u32 psn, i;

	rmp_sb_sent(&e->sb, &e->ps, 1, LEN, 1, RMP_SB_NO_PROBE, t);
	send_rr(e, 2, 12, t + ACK_TIMEOUT / 2);
	KUNIT_EXPECT_EQ(test,
			rmp_sb_ack_timeout(&e->sb, &e->ps, 1, 14,
					   t + ACK_TIMEOUT, ACK_TIMEOUT), 1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_next_lost(&e->sb, 1, 14), 1);
	for (psn = 2; psn < 14; psn++)
		KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, psn), RMP_SB_SENT);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
}

/*
 * The whole fabric stops after a delivery: what was in flight counts once
 * against its path, what is sent again after the timeout against none;
 * no path dies. And before any delivery, no timeout blames a path.
 */
static void rmp_sb_ack_timeout__outage_kills_nothing(struct kunit *test)
{
	u64 t = 20 * US;
	struct sb_env *e = env_heard_from(test, t);
	u32 round, i;

	send_rr(e, 1, 4, t);
	for (round = 0; round < 4; round++) {
		t += ACK_TIMEOUT;
		KUNIT_EXPECT_EQ(test,
				rmp_sb_ack_timeout(&e->sb, &e->ps, 1, 5, t,
						   ACK_TIMEOUT), 4U);
		send_rr(e, 1, 4, t);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, rmp_paths_live(&e->ps, i));
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 1ULL);
	}

	e = env_new(test, 4);
	send_rr(e, 0, 4, 0);
	KUNIT_EXPECT_EQ(test,
			rmp_sb_ack_timeout(&e->sb, &e->ps, 0, 4, ACK_TIMEOUT,
					   ACK_TIMEOUT), 4U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, e->ps.path[i].stats.lost, 0ULL);
}

/*
 * Bytes: a WRITE of 5000 bytes in 1024-byte pieces (PSNs 0..4, the last
 * 904 bytes) over 2 paths. PSN 1 is lost and sent again on path 0: sent
 * bytes count both copies, delivered bytes each piece once.
 */
static void rmp_sb_sack__bytes_add_up(struct kunit *test)
{
	static const u32 len[] = { LEN, LEN, LEN, LEN, 5000 - 4 * LEN };
	struct sb_env *e = env_new(test, 2);
	const u32 held[] = { 0, 1, 2 };	/* PSNs 2, 3, 4 */
	struct rmp_sack s;
	u32 i;

	for (i = 0; i < 5; i++)
		rmp_sb_sent(&e->sb, &e->ps, i, len[i], i % 2, RMP_SB_NO_PROBE, 0);
	/* PSN 0 acknowledged, 2..4 held, 1 missing: 3 is on its path. */
	rmp_sb_acked(&e->sb, &e->ps, 0, 1, US);
	sack_of(&s, 0, held, ARRAY_SIZE(held));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 1, 5, &s, 2 * US),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_path_dead(&e->sb, &e->ps, 1, 5, 1,
					       3 * US), 1U);
	rmp_sb_sent(&e->sb, &e->ps, 1, LEN, 0, RMP_SB_NO_PROBE, 4 * US);
	rmp_sb_acked(&e->sb, &e->ps, 1, 5, 5 * US);

	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.sent_bytes,
			2ULL * LEN + 904 + LEN);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.delivered_bytes,
			2ULL * LEN + 904 + LEN);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.sent_bytes, 2ULL * LEN);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.delivered_bytes, 1ULL * LEN);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.delivered_bytes +
			e->ps.path[1].stats.delivered_bytes, 5000ULL);
}

/* Losses on a probe count against the probe, not as a live path's. */
static void rmp_sb_sent__probe_losses(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	const u32 held[] = { 0, 1, 2 };
	struct rmp_sack s;

	rmp_sb_sent(&e->sb, &e->ps, 0, LEN, 1, RMP_SB_PROBE_DEAD, 0);
	send_rr(e, 1, 1, 0);	/* PSN 1 on path 0 */
	rmp_sb_sent(&e->sb, &e->ps, 2, LEN, 1, RMP_SB_NO_PROBE, 0);
	rmp_sb_sent(&e->sb, &e->ps, 3, LEN, 1, RMP_SB_NO_PROBE, 0);
	rmp_sb_sent(&e->sb, &e->ps, 4, LEN, 1, RMP_SB_NO_PROBE, 0);
	/* cum_ack before PSN 0; PSNs 2, 3, 4 (path 1) held. */
	sack_of(&s, RMP_PSN_MASK, held, ARRAY_SIZE(held));
	s.bitmap[0] <<= 1;	/* bits name PSNs 2, 3, 4 */
	s.highest = 4;
	s.nbits = rmp_sack_nbits(RMP_PSN_MASK, 4);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 0, 5, &s, US), 1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 0), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].losses, 0);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
}

/*
 * A probe of a path's home is not the path's: it takes no place in the
 * path's count nor its order, so the path's later packets delivered do
 * not show it lost; its delivery is the home's (here no faster than the
 * path's round trip, so it counts against the home) and dates nothing.
 */
static void rmp_sb_sent__home_probe_is_not_the_paths(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	const u32 held[] = { 0, 1, 2, 3 };
	struct rmp_sack s;
	u32 psn;

	e->ps.path[0].home_sport = 0xbeef;
	rmp_sb_sent(&e->sb, &e->ps, 0, LEN, 0, RMP_SB_PROBE_HOME, 0);
	for (psn = 1; psn <= 4; psn++)
		rmp_sb_sent(&e->sb, &e->ps, psn, LEN, 0, RMP_SB_NO_PROBE, 0);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.sent, 4ULL);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 1U);
	/* cum_ack before PSN 0; PSNs 1 to 4 held. */
	sack_of(&s, RMP_PSN_MASK, held, ARRAY_SIZE(held));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, 0, 5, &s, 10 * US),
			0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 0), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].rtt.srtt_ns, 10 * US);

	rmp_sb_acked(&e->sb, &e->ps, 0, 1, 12 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 0U);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].home_failed, 1);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].home_sport, 0xbeef);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.delivered, 4ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].rtt.srtt_ns, 10 * US);
}

/* A probe not delivered within the timeout is lost; a delivered one not. */
static void rmp_sb_probes_expired__unanswered_probes(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	const u64 t = 100 * US;

	rmp_sb_sent(&e->sb, &e->ps, 0, LEN, 1, RMP_SB_PROBE_DEAD, 0);
	rmp_sb_sent(&e->sb, &e->ps, 1, LEN, 0, RMP_SB_NO_PROBE, 0);
	rmp_sb_sent(&e->sb, &e->ps, 2, LEN, 1, RMP_SB_PROBE_DEAD, 10 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 2U);
	KUNIT_EXPECT_EQ(test, rmp_sb_probe_deadline(&e->sb, t), t);
	KUNIT_EXPECT_EQ(test, rmp_sb_probes_expired(&e->sb, &e->ps, 0, 3,
						    t - 1, t), 0U);
	/* The first probe expires; the second is not due yet. */
	KUNIT_EXPECT_EQ(test, rmp_sb_probes_expired(&e->sb, &e->ps, 0, 3, t,
						    t), 1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 0), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, 1), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_probe_deadline(&e->sb, t), 10 * US + t);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
	/* The second arrives in time: nothing is in flight as a probe. */
	rmp_sb_acked(&e->sb, &e->ps, 0, 3, 20 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_probe_deadline(&e->sb, t), 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_sb_probes_expired(&e->sb, &e->ps, 3, 3,
						    10 * t, t), 0U);
}

/*
 * An ECN echo marks what is in flight: the deliveries of PSNs 1, 3, 5
 * (path 1) count as ECN marked; PSNs outside what is in flight, and one
 * already held, are ignored.
 */
static void rmp_sb_ecn__marks_deliveries(struct kunit *test)
{
	struct sb_env *e = env_new(test, 2);
	struct rmp_ecn_echo ce = { .base = 0 };
	const u32 held[] = { 4 };	/* PSN 6 */
	struct rmp_sack s;
	u32 i;

	send_rr(e, 1, 8, 0);		/* PSNs 1..8, odd ones on path 0 */
	sack_of(&s, 0, held, ARRAY_SIZE(held));
	rmp_sb_sack(&e->sb, &e->ps, 1, 9, &s, US);
	for (i = 0; i < 12; i++)
		ce.bitmap[0] |= 1ULL << i;	/* PSNs 0..11 */
	ce.bitmap[0] &= ~(1ULL << 2 | 1ULL << 4 | 1ULL << 8);
	rmp_sb_ecn(&e->sb, 1, 9, &ce);
	KUNIT_EXPECT_EQ(test, e->sb.stats.ecn_echoed, 4ULL);
	rmp_sb_acked(&e->sb, &e->ps, 1, 9, 2 * US);
	/* 1, 3, 5, 7 on path 0 marked; 2, 4, 8 not; 6 held before. */
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.ecn, 4ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.ecn, 0ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.delivered, 4ULL);
	KUNIT_EXPECT_GT(test, e->ps.path[0].ecn, 0U);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].ecn, 0U);

	/* A PSN sent again starts unmarked. */
	send_rr(e, 9, 2, 3 * US);
	ce.base = 9;
	ce.bitmap[0] = 1;
	rmp_sb_ecn(&e->sb, 9, 11, &ce);
	rmp_sb_sent(&e->sb, &e->ps, 9, LEN, 0, RMP_SB_NO_PROBE, 4 * US);
	rmp_sb_acked(&e->sb, &e->ps, 9, 11, 5 * US);
	KUNIT_EXPECT_EQ(test, e->ps.path[0].stats.ecn, 4ULL);
}

/*
 * Round trips learnt: @rounds times, one PSN on each path, from @psn on,
 * acknowledged after @rtt[path]; the next PSN is returned, the clock
 * @now moved on.
 */
static u32 learn_rtts(struct sb_env *e, u32 psn, const u64 *rtt, u32 rounds,
		      u64 *now)
{
	u32 n = e->ps.cfg.npaths, i, k;

	for (k = 0; k < rounds; k++) {
		for (i = 0; i < n; i++)
			rmp_sb_sent(&e->sb, &e->ps, psn + i, LEN, i, RMP_SB_NO_PROBE,
				    *now);
		/* Acknowledged in PSN order, each at its path's time. */
		for (i = 0; i < n; i++)
			rmp_sb_acked(&e->sb, &e->ps, psn + i, psn + i + 1,
				     *now + rtt[i]);
		psn += n;
		*now += 1000 * US;
	}
	return psn;
}

/* When the time rule finds @path's PSN sent at @sent overdue. */
static u64 overdue_at(const struct sb_env *e, u32 path, u64 sent)
{
	const struct rmp_path *p = &e->ps.path[path];

	return sent + p->rtt.srtt_ns + 4ULL * p->rtt.rttvar_ns +
	       (u64)p->rtt.srtt_ns * e->sb.reorder / 4;
}

/*
 * 8 PSNs over 4 paths of equal round trips; the last one on path 1 is
 * missing, every other one held: no later packet on its path shows it
 * lost, but packets sent after it on other paths were delivered. It is
 * lost once its path's round trip, four deviations and the tolerance's
 * quarters have passed: not a nanosecond before, and the SACK said when
 * to look again. Its path is blamed; nothing else is lost.
 */
static void rmp_sb_recheck__last_on_its_path_is_overdue(struct kunit *test)
{
	static const u64 rtt[4] = { 100 * US, 100 * US, 100 * US, 100 * US };
	const u32 held[] = { 0, 1 };	/* base + 6, base + 7 */
	struct sb_env *e = env_new(test, 4);
	u64 now = 0, sent, due;
	u32 base = learn_rtts(e, 0, rtt, 8, &now), una = base + 5;
	u32 end = base + 8;
	struct rmp_sack s;

	KUNIT_EXPECT_EQ(test, e->ps.path[1].rtt.srtt_ns, 100 * US);
	sent = now;
	send_rr(e, base, 8, sent);
	rmp_sb_acked(&e->sb, &e->ps, base, una, sent + 100 * US);
	sack_of(&s, base + 4, held, ARRAY_SIZE(held));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, una, end, &s,
					  sent + 101 * US), 0U);
	due = overdue_at(e, 1, sent);
	KUNIT_EXPECT_EQ(test, e->sb.recheck_ns, due);
	KUNIT_EXPECT_LT(test, due, sent + 200 * US);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, una, end,
					     due - 1), 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_SENT);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, una, end, due),
			1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, e->sb.stats.overdue, 1ULL);
	KUNIT_EXPECT_EQ(test, e->sb.stats.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].losses, 1U);
	KUNIT_EXPECT_EQ(test, e->sb.recheck_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, base + 6), RMP_SB_SACKED);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, base + 7), RMP_SB_SACKED);
}

/*
 * Path 1 takes ten times as long as the others: the fast paths deliver
 * everything sent after its PSNs, which are not lost for it before path
 * 1's own round trip has passed, and are not lost at all once they come.
 */
static void rmp_sb_recheck__slow_path_waits_its_round_trip(struct kunit *test)
{
	static const u64 rtt[4] = { 100 * US, 1000 * US, 100 * US, 100 * US };
	const u32 fast[] = { 0, 1, 2, 4, 5 };	/* all but base + 5 */
	struct sb_env *e = env_new(test, 4);
	u64 now = 0, sent;
	u32 base = learn_rtts(e, 0, rtt, 8, &now), end = base + 8;
	struct rmp_sack s;

	sent = now;
	send_rr(e, base, 8, sent);		/* base + 1, + 5 on path 1 */
	rmp_sb_acked(&e->sb, &e->ps, base, base + 1, sent + 100 * US);
	sack_of(&s, base, fast, ARRAY_SIZE(fast));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, base + 1, end, &s,
					  sent + 110 * US), 0U);
	KUNIT_EXPECT_GE(test, e->sb.recheck_ns, sent + 1000 * US);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, base + 1, end,
					     sent + 999 * US), 0U);
	/* They come: acknowledged, nothing was lost. */
	rmp_sb_acked(&e->sb, &e->ps, base + 1, end, sent + 1000 * US);
	KUNIT_EXPECT_EQ(test, e->sb.nlost, 0U);
	KUNIT_EXPECT_EQ(test, e->sb.stats.overdue, 0ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 0ULL);
}

/*
 * The newest PSN is missing: nothing sent after it can show it lost. Its
 * first copy is lost after twice the wait, no path blamed; the copy sent
 * again is left to the ACK timeout, so a peer that stopped answering gets
 * one copy more of each packet, no more.
 */
static void rmp_sb_recheck__tail_once_without_blame(struct kunit *test)
{
	static const u64 rtt[4] = { 100 * US, 100 * US, 100 * US, 100 * US };
	struct sb_env *e = env_new(test, 4);
	u64 now = 0, sent, due;
	u32 base = learn_rtts(e, 0, rtt, 8, &now), una = base + 7;
	u32 end = base + 8;
	struct rmp_sack s;

	sent = now;
	send_rr(e, base, 8, sent);		/* base + 7 on path 3 */
	rmp_sb_acked(&e->sb, &e->ps, base, una, sent + 100 * US);
	sack_of(&s, base + 6, NULL, 0);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, una, end, &s,
					  sent + 101 * US), 0U);
	due = sent + 2 * (overdue_at(e, 3, sent) - sent);
	KUNIT_EXPECT_EQ(test, e->sb.recheck_ns, due);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, una, end,
					     due - 1), 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, una, end, due),
			1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, e->ps.path[3].stats.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, e->ps.path[3].losses, 0U);
	KUNIT_EXPECT_EQ(test, e->ps.path[3].inflight, 0U);

	/* Sent again, and again nothing after it: no more copies. */
	rmp_sb_sent(&e->sb, &e->ps, una, LEN, 0, RMP_SB_NO_PROBE, due);
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, una, end, &s,
					  due + 1), 0U);
	KUNIT_EXPECT_EQ(test, e->sb.recheck_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, una, end,
					     due + 100 * 1000 * US), 0U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, una), RMP_SB_SENT);
}

/*
 * A probe's PSN is data the QP waits for: overtaken by a packet sent
 * after it on a live path, it is overdue after the round trip its path had
 * before it died, not a whole probe period, and the probe counts lost.
 */
static void rmp_sb_recheck__probe_overdue(struct kunit *test)
{
	static const u64 rtt[4] = { 100 * US, 100 * US, 100 * US, 100 * US };
	const u32 held[] = { 0 };	/* base + 1 */
	struct sb_env *e = env_new(test, 4);
	u64 now = 0, due;
	u32 base = learn_rtts(e, 0, rtt, 8, &now), end = base + 2;
	struct rmp_sack s;

	rmp_sb_sent(&e->sb, &e->ps, base, LEN, 1, RMP_SB_PROBE_DEAD, now);
	rmp_sb_sent(&e->sb, &e->ps, base + 1, LEN, 2, RMP_SB_NO_PROBE, now);
	sack_of(&s, base - 1, held, ARRAY_SIZE(held));
	KUNIT_EXPECT_EQ(test, rmp_sb_sack(&e->sb, &e->ps, base, end, &s,
					  now + 100 * US), 0U);
	due = overdue_at(e, 1, now);
	KUNIT_EXPECT_EQ(test, e->sb.recheck_ns, due);
	KUNIT_EXPECT_LT(test, due, now + e->ps.cfg.probe_every_ns);
	KUNIT_EXPECT_EQ(test, rmp_sb_recheck(&e->sb, &e->ps, base, end, due),
			1U);
	KUNIT_EXPECT_EQ(test, rmp_sb_state(&e->sb, base), RMP_SB_LOST);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 0U);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
}

static struct kunit_case rmp_sb_cases[] = {
	KUNIT_CASE(rmp_sb_init__validates),
	KUNIT_CASE_PARAM(rmp_sb_sack__overtaken_on_its_path_is_lost,
			 base_gen_params),
	KUNIT_CASE(rmp_sb_sack__reorder_tolerated),
	KUNIT_CASE(rmp_sb_sack__other_paths_do_not_blame),
	KUNIT_CASE(rmp_sb_sack__ignores_bits_outside),
	KUNIT_CASE(rmp_sb_sack__late_arrival_cancels_loss),
	KUNIT_CASE(rmp_sb_sack__reordering_raises_tolerance),
	KUNIT_CASE(rmp_sb_path_dead__moves_its_packets),
	KUNIT_CASE(rmp_sb_timeout__blames_no_path),
	KUNIT_CASE(rmp_sb_ack_timeout__dark_path_dies),
	KUNIT_CASE(rmp_sb_ack_timeout__young_psns_stay_in_flight),
	KUNIT_CASE(rmp_sb_ack_timeout__outage_kills_nothing),
	KUNIT_CASE(rmp_sb_sack__bytes_add_up),
	KUNIT_CASE(rmp_sb_ecn__marks_deliveries),
	KUNIT_CASE(rmp_sb_sent__probe_losses),
	KUNIT_CASE(rmp_sb_sent__home_probe_is_not_the_paths),
	KUNIT_CASE(rmp_sb_probes_expired__unanswered_probes),
	KUNIT_CASE(rmp_sb_recheck__last_on_its_path_is_overdue),
	KUNIT_CASE(rmp_sb_recheck__slow_path_waits_its_round_trip),
	KUNIT_CASE(rmp_sb_recheck__tail_once_without_blame),
	KUNIT_CASE(rmp_sb_recheck__probe_overdue),
	{}
};

static struct kunit_suite rmp_sb_suite = {
	.name = "rmp_scoreboard",
	.test_cases = rmp_sb_cases,
};

kunit_test_suite(rmp_sb_suite);
