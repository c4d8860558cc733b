// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for receiver credit: the sender's budget and grants, the
 * receiver's checks, and senders sharing one receiver's downlink in a
 * simulated network driven by a fake clock.
 */
#include <kunit/test.h>

#include "../engine/credit.h"
#include "../engine/psn.h"

#define US	1000ULL
#define MS	(1000 * US)

/* ---- Sender ------------------------------------------------------------ */

/* Whether the packet @at past @base may go, with una and want too. */
static bool may(struct rmp_credit_tx *tx, u32 base, u32 at, u32 una,
		u32 want, u64 now)
{
	return rmp_credit_tx_may_send(tx, rmp_psn_add(base, at),
				      rmp_psn_add(base, una),
				      rmp_psn_add(base, want), now);
}

static void rmp_credit_tx__unscheduled_budget(struct kunit *test)
{
	struct rmp_credit_tx tx;
	u32 psn = 0xfffffe, i;

	rmp_credit_tx_init(&tx, 4, 100 * US, psn);
	/* A burst: four packets go with nothing in flight at its start. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, may(&tx, psn, i, 0, 100, 0));
	KUNIT_EXPECT_FALSE(test, may(&tx, psn, 4, 0, 100, 0));
	KUNIT_EXPECT_TRUE(test, tx.ask);
	KUNIT_EXPECT_EQ(test, tx.want, rmp_psn_add(psn, 100));
	KUNIT_EXPECT_EQ(test, tx.stalls, 1ULL);
	rmp_credit_tx_asked(&tx, 0);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_deadline(&tx), 100 * US);
	/* Everything acknowledged, but it waits for credit: no new budget. */
	KUNIT_EXPECT_FALSE(test, may(&tx, psn, 4, 4, 100, 50 * US));
	KUNIT_EXPECT_FALSE(test, tx.ask);
	/* A period later it asks again: its request or the grant was lost. */
	KUNIT_EXPECT_FALSE(test, may(&tx, psn, 4, 4, 100, 100 * US));
	KUNIT_EXPECT_TRUE(test, tx.ask);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, rmp_psn_add(psn, 6),
						  rmp_psn_add(psn, 100), 100 * US),
			0);
	KUNIT_EXPECT_TRUE(test, may(&tx, psn, 5, 4, 6, 100 * US));
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_deadline(&tx), RMP_CREDIT_NEVER);
	/*
	 * Everything posted was sent, everything sent acknowledged: the next
	 * burst has its budget again...
	 */
	KUNIT_EXPECT_TRUE(test, may(&tx, psn, 6, 6, 20, 200 * US));
	KUNIT_EXPECT_EQ(test, tx.limit, rmp_psn_add(psn, 10));
	/* ... as far as what was posted, no further. */
	rmp_credit_tx_init(&tx, 4, 100 * US, psn);
	KUNIT_EXPECT_TRUE(test, may(&tx, psn, 0, 0, 2, 0));
	KUNIT_EXPECT_EQ(test, tx.limit, rmp_psn_add(psn, 2));
	/*
	 * Granted, sent and acknowledged while more was posted: not a new
	 * burst, and no new budget.
	 */
	rmp_credit_tx_init(&tx, 4, 100 * US, psn);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, may(&tx, psn, i, 0, 100, 0));
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, rmp_psn_add(psn, 6),
						  rmp_psn_add(psn, 100), 0), 0);
	for (i = 4; i < 6; i++)
		KUNIT_EXPECT_TRUE(test, may(&tx, psn, i, 0, 100, 0));
	KUNIT_EXPECT_FALSE(test, may(&tx, psn, 6, 6, 100, 10 * US));
	KUNIT_EXPECT_EQ(test, tx.limit, rmp_psn_add(psn, 6));
}

/* Whether the packet @at past @base counts as unscheduled. */
static bool unsched(const struct rmp_credit_tx *tx, u32 base, u32 at)
{
	return rmp_credit_tx_unscheduled(tx, rmp_psn_add(base, at));
}

static void rmp_credit_tx__tells_unscheduled(struct kunit *test)
{
	struct rmp_credit_tx tx;
	u32 psn = 0xfffffd, i;

	rmp_credit_tx_init(&tx, 3, 100 * US, psn);
	KUNIT_EXPECT_FALSE(test, unsched(&tx, psn, 0));
	/* A burst's budget, across the PSN wrap: unscheduled. */
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, may(&tx, psn, i, 0, 10, 0));
		KUNIT_EXPECT_TRUE(test, unsched(&tx, psn, i));
	}
	/* Granted packets are scheduled, the budget's too once past it. */
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, rmp_psn_add(psn, 10),
						  rmp_psn_add(psn, 10), 0), 0);
	for (i = 3; i < 10; i++) {
		KUNIT_EXPECT_TRUE(test, may(&tx, psn, i, 0, 10, 0));
		KUNIT_EXPECT_FALSE(test, unsched(&tx, psn, i));
	}
	KUNIT_EXPECT_FALSE(test, unsched(&tx, psn, 1));
	/* Dry, everything acknowledged: the next burst's budget again. */
	KUNIT_EXPECT_TRUE(test, may(&tx, psn, 10, 10, 12, 0));
	KUNIT_EXPECT_TRUE(test, unsched(&tx, psn, 10));
	KUNIT_EXPECT_TRUE(test, may(&tx, psn, 11, 10, 12, 0));
	KUNIT_EXPECT_TRUE(test, unsched(&tx, psn, 11));
	/* Past its budget, held: the burst is over... */
	KUNIT_EXPECT_FALSE(test, may(&tx, psn, 12, 10, 13, 0));
	/* ... and its PSNs, met again after the wrap, are not unscheduled. */
	KUNIT_EXPECT_FALSE(test, unsched(&tx, psn, 11));
}

/* Held at @at past 0 at @now: whether a request is owed, then sent. */
static bool asks(struct kunit *test, struct rmp_credit_tx *tx, u32 at,
		 u32 want, u64 now)
{
	bool ask;

	KUNIT_EXPECT_FALSE(test, may(tx, 0, at, 0, want, now));
	ask = tx->ask;
	if (ask)
		rmp_credit_tx_asked(tx, now);
	return ask;
}

static void rmp_credit_tx__asks_sparingly(struct kunit *test)
{
	static const u64 waits[] = { 100, 200, 400, 800, 800, 800 };
	struct rmp_credit_tx tx;
	u64 now = 0;
	u32 psn, i;

	rmp_credit_tx_init(&tx, 4, 100 * US, 0);
	for (psn = 0; psn < 4; psn++)
		KUNIT_EXPECT_TRUE(test, may(&tx, 0, psn, 0, 1000, 0));
	/* One request tells the receiver of all 1000 packets posted... */
	KUNIT_EXPECT_TRUE(test, asks(test, &tx, 4, 1000, 0));
	KUNIT_EXPECT_EQ(test, tx.want, 1000U);
	/*
	 * ... and none follows while grants come, a packet at a time, until
	 * less than a budget of what it told is left and more was posted.
	 */
	for (psn = 4; psn < 996; psn++) {
		now += 10 * US;
		KUNIT_ASSERT_EQ(test, rmp_credit_tx_grant(&tx, psn + 1, 2000,
							  now), 0);
		KUNIT_ASSERT_TRUE(test, may(&tx, 0, psn, 0, 2000, now));
		KUNIT_ASSERT_FALSE(test, asks(test, &tx, psn + 1, 2000, now));
	}
	KUNIT_EXPECT_EQ(test, tx.requests, 1ULL);
	KUNIT_ASSERT_EQ(test, rmp_credit_tx_grant(&tx, 997, 2000, now), 0);
	KUNIT_EXPECT_TRUE(test, may(&tx, 0, 996, 0, 2000, now));
	KUNIT_EXPECT_TRUE(test, asks(test, &tx, 997, 2000, now));
	KUNIT_EXPECT_EQ(test, tx.want, 2000U);
	/* No grant comes: it asks again after 1, 2, 4 and then 8 periods. */
	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		KUNIT_EXPECT_EQ(test, rmp_credit_tx_deadline(&tx),
				now + waits[i] * US);
		KUNIT_EXPECT_FALSE(test, asks(test, &tx, 997, 2000,
					      now + waits[i] * US - 1));
		now += waits[i] * US;
		KUNIT_EXPECT_TRUE(test, asks(test, &tx, 997, 2000, now));
	}
	/* A grant: the next wait is one period again. */
	KUNIT_ASSERT_EQ(test, rmp_credit_tx_grant(&tx, 998, 2000, now), 0);
	KUNIT_EXPECT_TRUE(test, may(&tx, 0, 997, 0, 2000, now));
	KUNIT_EXPECT_FALSE(test, asks(test, &tx, 998, 2000, now));
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_deadline(&tx), now + 100 * US);
}

static void rmp_credit_tx_grant__absolute_limits(struct kunit *test)
{
	struct rmp_credit_tx tx;

	rmp_credit_tx_init(&tx, 0, 100 * US, 100);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 110, 200, 0), 0);
	/* Replayed, duplicated, reordered: nothing moves. */
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 110, 200, 0), -EALREADY);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 105, 200, 0), -EALREADY);
	KUNIT_EXPECT_EQ(test, tx.limit, 110U);
	/* Beyond what was posted: refused; half the PSN space away: old. */
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 201, 200, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 110 + (1 << 23),
						  0xffffff, 0), -EALREADY);
	KUNIT_EXPECT_EQ(test, tx.limit, 110U);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, 200, 200, 0), 0);
	KUNIT_EXPECT_EQ(test, tx.grants, 2ULL);
	KUNIT_EXPECT_EQ(test, tx.stale, 3ULL);
	KUNIT_EXPECT_EQ(test, tx.refused, 1ULL);
	/* No budget at all: every packet waits for a grant. */
	KUNIT_EXPECT_FALSE(test, rmp_credit_tx_may_send(&tx, 200, 200, 201,
							0));
}

/* ---- Receiver checks --------------------------------------------------- */

static const struct rmp_credit_rx_cfg base_cfg = {
	.rate_kbps = 1000000,
	.min_kbps = 10000,
	.window = 8,
	.overcommit = 8,
	.policy = RMP_CREDIT_FAIR,
	.idle_ns = 2 * MS,
	.ecn_every = 32,
	.ecn_period_ns = 300 * US,
	.burst_bytes = 2200,
};

/* A case changes one field of base_cfg. */
enum cfg_field {
	F_NONE, F_RATE, F_MIN, F_WINDOW, F_OVERCOMMIT, F_POLICY, F_IDLE,
	F_ECN_EVERY, F_ECN_PERIOD, F_BURST,
};

struct init_case {
	const char *name;
	enum cfg_field field;
	u64 value;
	int ret;
};

static const struct init_case init_cases[] = {
	{ "defaults", F_NONE, 0, 0 },
	{ "SRPT", F_POLICY, RMP_CREDIT_SRPT, 0 },
	{ "most overcommit", F_OVERCOMMIT, RMP_CREDIT_ACTIVE_MAX, 0 },
	{ "no rate", F_RATE, 0, -EINVAL },
	{ "floor above the rate", F_MIN, 2000000, -EINVAL },
	{ "no window", F_WINDOW, 0, -EINVAL },
	{ "no overcommit", F_OVERCOMMIT, 0, -EINVAL },
	{ "overcommit above the slots", F_OVERCOMMIT,
	  RMP_CREDIT_ACTIVE_MAX + 1, -EINVAL },
	{ "unknown policy", F_POLICY, RMP_CREDIT_POLICY_NR, -EINVAL },
	{ "no idle time", F_IDLE, 0, -EINVAL },
	{ "no ECN packets", F_ECN_EVERY, 0, -EINVAL },
	{ "no ECN period", F_ECN_PERIOD, 0, -EINVAL },
	{ "no burst", F_BURST, 0, -EINVAL },
};

static void change(struct rmp_credit_rx_cfg *cfg, enum cfg_field field,
		   u64 v)
{
	switch (field) {
	case F_NONE:
		break;
	case F_RATE:
		cfg->rate_kbps = v;
		break;
	case F_MIN:
		cfg->min_kbps = v;
		break;
	case F_WINDOW:
		cfg->window = v;
		break;
	case F_OVERCOMMIT:
		cfg->overcommit = v;
		break;
	case F_POLICY:
		cfg->policy = v;
		break;
	case F_IDLE:
		cfg->idle_ns = v;
		break;
	case F_ECN_EVERY:
		cfg->ecn_every = v;
		break;
	case F_ECN_PERIOD:
		cfg->ecn_period_ns = v;
		break;
	case F_BURST:
		cfg->burst_bytes = v;
		break;
	}
}

static void init_desc(const struct init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(init, init_cases, init_desc);

static void rmp_credit_rx_init__validates(struct kunit *test)
{
	const struct init_case *c = test->param_value;
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct rmp_credit_rx *rx = kunit_kzalloc(test, sizeof(*rx),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rx);
	change(&cfg, c->field, c->value);
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_init(rx, &cfg, 0), c->ret);
}

static void rmp_credit_rx_request__checks(struct kunit *test)
{
	struct rmp_credit_rx *rx = kunit_kzalloc(test, sizeof(*rx),
						 GFP_KERNEL);
	struct rmp_credit_peer p;

	KUNIT_ASSERT_NOT_NULL(test, rx);
	KUNIT_ASSERT_EQ(test, rmp_credit_rx_init(rx, &base_cfg, 0), 0);
	rmp_credit_peer_init(&p, 1100, 0xfffff0);
	rmp_credit_rx_data(rx, &p, 0xfffff4, false, 0);
	KUNIT_EXPECT_EQ(test, p.rcvd, 0xfffff5U);
	/* Behind what arrived, or half the PSN space ahead: refused. */
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_request(rx, &p, 0xfffff2, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			rmp_credit_rx_request(rx, &p, 0x7ffff5, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.slot, -1);
	KUNIT_EXPECT_EQ(test, rx->stats.requests, 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_request(rx, &p, 5, 0), 0);
	KUNIT_EXPECT_EQ(test, rx->nactive, 1U);
	/*
	 * A bucket of two packets: those granted at once, across the wrap,
	 * and one more that the bucket then owes.
	 */
	rmp_credit_rx_tick(rx, 0);
	KUNIT_EXPECT_EQ(test, p.granted, 0xfffff8U);
	KUNIT_EXPECT_LT(test, rx->tokens, 0LL);
	KUNIT_EXPECT_PTR_EQ(test, rmp_credit_rx_take_due(rx), &p);
	KUNIT_EXPECT_NULL(test, rmp_credit_rx_take_due(rx));
	/* Nothing due before the pacer allows the next one. */
	KUNIT_EXPECT_GT(test, rmp_credit_rx_deadline(rx, 0), 0ULL);
	/*
	 * Asking again makes the grant due again, at once, pacer or not: it
	 * may have been lost, and no new credit would carry it.
	 */
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_request(rx, &p, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_deadline(rx, 1), 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, rmp_credit_rx_take_due(rx), &p);
	KUNIT_EXPECT_GT(test, rmp_credit_rx_deadline(rx, 1), 1ULL);
	rmp_credit_rx_forget(rx, &p);
	KUNIT_EXPECT_EQ(test, rx->nactive, 0U);
	KUNIT_EXPECT_EQ(test, rmp_credit_rx_deadline(rx, 0), RMP_CREDIT_NEVER);
}

/*
 * A tick that comes late loses the credit its lateness would have given
 * beyond a full bucket, and counts it; with nobody wanting credit, or on
 * time, nothing is lost.
 */
static void rmp_credit_rx_tick__late_counted(struct kunit *test)
{
	struct rmp_credit_rx *rx = kunit_kzalloc(test, sizeof(*rx),
						 GFP_KERNEL);
	struct rmp_credit_peer p;
	u64 at, late;

	KUNIT_ASSERT_NOT_NULL(test, rx);
	KUNIT_ASSERT_EQ(test, rmp_credit_rx_init(rx, &base_cfg, 0), 0);
	rmp_credit_peer_init(&p, 1100, 0);
	/* Idle a millisecond: nobody wanted credit, nothing lost. */
	rmp_credit_rx_tick(rx, MS);
	KUNIT_EXPECT_EQ(test, rx->stats.late_bytes, 0ULL);
	KUNIT_ASSERT_EQ(test, rmp_credit_rx_request(rx, &p, 100000, MS), 0);
	rmp_credit_rx_tick(rx, MS);
	/* On time: nothing lost. */
	at = rmp_credit_rx_deadline(rx, MS);
	rmp_credit_rx_tick(rx, at);
	KUNIT_EXPECT_EQ(test, rx->stats.late_bytes, 0ULL);
	/* A millisecond late at 1 Gbit/s: 125000 bytes, less the bucket. */
	at = rmp_credit_rx_deadline(rx, at);
	rmp_credit_rx_tick(rx, at + MS);
	late = rx->stats.late_bytes;
	KUNIT_EXPECT_GE(test, late, 125000ULL - 2 * base_cfg.burst_bytes);
	KUNIT_EXPECT_LE(test, late, 125000ULL);
}

/* ---- Simulated network -------------------------------------------------- */

/*
 * Senders -> one switch queue that drains at the link's rate (marking CE
 * above a depth) -> the receiver; data, acknowledgments, requests and
 * grants each take &sim.delay one way (SIM_DELAY unless a case says).
 * Time moves in SIM_STEP steps; a sender puts at most one packet on its
 * wire per step.
 */
#define SIM_SENDERS	72
#define SIM_STEP	(1 * US)
#define SIM_DELAY	(10 * US)
#define SIM_PKT		1100U
#define SIM_PIPE	256
#define SIM_QUEUE	4096
#define SIM_UNSCHED	4

struct sim_ev {
	u64 at;
	u32 a;
	u32 b;
};

struct sim_pipe {
	struct sim_ev ev[SIM_PIPE];
	u32 head;
	u32 tail;
};

struct sim_sender {
	struct rmp_credit_tx tx;
	struct rmp_credit_peer peer;
	struct sim_pipe grants;
	struct sim_pipe acks;
	u32 next;
	u32 una;
	u32 post;
	u32 total;
	u64 done_at;
	u64 delivered;
	bool endless;
};

struct sim {
	struct rmp_credit_rx rx;
	struct sim_sender s[SIM_SENDERS];
	struct sim_pipe requests;
	struct sim_pipe arrivals;
	struct sim_ev queue[SIM_QUEUE];
	u32 qhead;
	u32 qtail;
	u32 n;
	u64 now;
	u64 delay;
	u64 busy_ns;
	u64 jitter_ns;
	u64 next_run;
	u64 link_kbps;
	u64 link_credit;
	u32 mark_above;
	u32 grant_loss;
	u32 seed;
	u32 qmax;
	u64 qsum;
	u64 steps;
	u32 max_active;
};

static void pipe_push(struct kunit *test, struct sim_pipe *p, u64 at, u32 a,
		      u32 b)
{
	KUNIT_ASSERT_LT(test, p->head - p->tail, (u32)SIM_PIPE);
	p->ev[p->head++ % SIM_PIPE] = (struct sim_ev){ at, a, b };
}

static bool pipe_pop(struct sim_pipe *p, u64 now, struct sim_ev *ev)
{
	if (p->head == p->tail || p->ev[p->tail % SIM_PIPE].at > now)
		return false;
	*ev = p->ev[p->tail++ % SIM_PIPE];
	return true;
}

static u32 sim_rand(struct sim *sim)
{
	sim->seed = sim->seed * 1103515245 + 12345;
	return sim->seed >> 8;
}

static struct sim *sim_new(struct kunit *test, u32 n,
			   const struct rmp_credit_rx_cfg *cfg)
{
	struct sim *sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sim);
	KUNIT_ASSERT_EQ(test, rmp_credit_rx_init(&sim->rx, cfg, 0), 0);
	sim->n = n;
	sim->delay = SIM_DELAY;
	sim->link_kbps = cfg->rate_kbps;
	sim->mark_above = SIM_QUEUE;
	sim->seed = 1;
	for (i = 0; i < n; i++) {
		rmp_credit_tx_init(&sim->s[i].tx, SIM_UNSCHED, 100 * US,
				   0xfff000 + i);
		rmp_credit_peer_init(&sim->s[i].peer, SIM_PKT, 0xfff000 + i);
		sim->s[i].next = 0xfff000 + i;
		sim->s[i].una = sim->s[i].next;
		sim->s[i].post = sim->s[i].next;
	}
	return sim;
}

/* Sender @i has @pkts packets more to send, or endless ones. */
static void sim_post(struct sim *sim, u32 i, u32 pkts, bool endless)
{
	struct sim_sender *s = &sim->s[i];

	s->endless = endless;
	s->total += pkts;
	s->done_at = 0;
	s->post = rmp_psn_add(s->post, pkts);
}

static void sim_senders(struct kunit *test, struct sim *sim)
{
	struct sim_sender *s;
	struct sim_ev ev;
	u32 i;

	for (i = 0; i < sim->n; i++) {
		s = &sim->s[i];
		while (pipe_pop(&s->grants, sim->now, &ev))
			rmp_credit_tx_grant(&s->tx, ev.a, s->post, sim->now);
		while (pipe_pop(&s->acks, sim->now, &ev))
			s->una = ev.a;
		if (s->endless && rmp_psn_sub(s->post, s->next) < 64)
			s->post = rmp_psn_add(s->post, 64);
		if (s->next != s->post &&
		    rmp_credit_tx_may_send(&s->tx, s->next, s->una, s->post,
					   sim->now)) {
			KUNIT_ASSERT_LT(test, sim->qhead - sim->qtail,
					(u32)SIM_QUEUE);
			sim->queue[sim->qhead++ % SIM_QUEUE] = (struct sim_ev){
				0, i, s->next };
			s->next = rmp_psn_add(s->next, 1);
		}
		if (s->tx.ask) {
			pipe_push(test, &sim->requests, sim->now + sim->delay,
				  i, s->tx.want);
			rmp_credit_tx_asked(&s->tx, sim->now);
		}
	}
}

static void sim_link(struct kunit *test, struct sim *sim)
{
	struct sim_ev *pkt;
	u32 depth = sim->qhead - sim->qtail;

	if (depth > sim->qmax)
		sim->qmax = depth;
	sim->qsum += depth;
	if (!depth) {
		sim->link_credit = 0;
		return;
	}
	/* Bits the link moves per step: kbit/s times us. */
	sim->link_credit += sim->link_kbps * (SIM_STEP / US);
	while (sim->qhead != sim->qtail &&
	       sim->link_credit >= SIM_PKT * 8 * 1000ULL) {
		sim->link_credit -= SIM_PKT * 8 * 1000ULL;
		pkt = &sim->queue[sim->qtail++ % SIM_QUEUE];
		/* CE if the queue stood above the mark as it left. */
		pipe_push(test, &sim->arrivals, sim->now + sim->delay, pkt->a,
			  pkt->b | (depth > sim->mark_above ? 1U << 31 : 0));
		depth--;
	}
}

static struct sim_sender *sim_sender_of(struct sim *sim,
					const struct rmp_credit_peer *p)
{
	u32 i = 0;

	while (&sim->s[i].peer != p)
		i++;
	return &sim->s[i];
}

/*
 * The receiving host: takes in requests and data, then ticks. With
 * &sim.busy_ns, a host too busy to run more often than that: what
 * arrived meanwhile waits for it.
 */
static void sim_receiver(struct kunit *test, struct sim *sim)
{
	struct rmp_credit_peer *p;
	struct sim_sender *s;
	struct sim_ev ev;
	u32 psn;

	if (sim->busy_ns && sim->now % sim->busy_ns)
		return;
	if (sim->jitter_ns) {
		if (sim->now < sim->next_run)
			return;
		sim->next_run = sim->now + sim_rand(sim) % sim->jitter_ns;
	}
	while (pipe_pop(&sim->requests, sim->now, &ev))
		rmp_credit_rx_request(&sim->rx, &sim->s[ev.a].peer, ev.b,
				      sim->now);
	while (pipe_pop(&sim->arrivals, sim->now, &ev)) {
		s = &sim->s[ev.a];
		psn = ev.b & ~(1U << 31);
		rmp_credit_rx_data(&sim->rx, &s->peer, psn, ev.b >> 31,
				   sim->now);
		s->delivered++;
		if (s->delivered == s->total)
			s->done_at = sim->now;
		pipe_push(test, &s->acks, sim->now + sim->delay,
			  rmp_psn_add(psn, 1), 0);
	}
	rmp_credit_rx_tick(&sim->rx, sim->now);
	while ((p = rmp_credit_rx_take_due(&sim->rx))) {
		s = sim_sender_of(sim, p);
		if (sim_rand(sim) % 1000 < sim->grant_loss)
			continue;
		pipe_push(test, &s->grants, sim->now + sim->delay, p->granted,
			  0);
	}
	KUNIT_ASSERT_GT(test, rmp_credit_rx_deadline(&sim->rx, sim->now),
			sim->now);
	if (sim->rx.nactive > sim->max_active)
		sim->max_active = sim->rx.nactive;
}

static void sim_run(struct kunit *test, struct sim *sim, u64 until)
{
	while (sim->now < until) {
		sim->now += SIM_STEP;
		sim->steps++;
		sim_senders(test, sim);
		sim_link(test, sim);
		sim_receiver(test, sim);
	}
}

/* Packets the link carries in @ns at full rate. */
static u64 sim_capacity(const struct sim *sim, u64 ns)
{
	return sim->link_kbps * (ns / US) / (SIM_PKT * 8 * 1000ULL);
}

static void sim_reset_counts(struct sim *sim)
{
	u32 i;

	for (i = 0; i < sim->n; i++)
		sim->s[i].delivered = 0;
	sim->qmax = 0;
	sim->qsum = 0;
	sim->steps = 0;
}

/*
 * @n endless senders into a receiver that runs every @busy_ns, or at
 * random gaps of up to @jitter_ns (0: every step): 5 ms to settle, then
 * 40 ms counted.
 */
static struct sim *sim_loaded(struct kunit *test, u32 n,
			      const struct rmp_credit_rx_cfg *cfg, u64 busy_ns,
			      u64 jitter_ns)
{
	struct sim *sim = sim_new(test, n, cfg);
	u32 i;

	sim->busy_ns = busy_ns;
	sim->jitter_ns = jitter_ns;
	for (i = 0; i < n; i++)
		sim_post(sim, i, 0, true);
	sim_run(test, sim, 5 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 45 * MS);
	return sim;
}

/* Packets delivered, all senders together, since the counts were reset. */
static u64 sim_delivered(const struct sim *sim)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < sim->n; i++)
		sum += sim->s[i].delivered;
	return sum;
}

/* Every sender got its share of @cap packets within @pct percent. */
static void expect_fair(struct kunit *test, struct sim *sim, u32 from,
			u32 to, u64 cap, u32 pct)
{
	u64 share = cap / (to - from), total = 0;
	u32 i;

	for (i = from; i < to; i++) {
		total += sim->s[i].delivered;
		KUNIT_EXPECT_TRUE_MSG(test, sim->s[i].delivered * 100 >=
				      share * (100 - pct) &&
				      sim->s[i].delivered * 100 <=
				      share * (100 + pct),
				      "sender %u: %llu packets, share %llu", i,
				      (unsigned long long)sim->s[i].delivered,
				      (unsigned long long)share);
	}
	KUNIT_EXPECT_GE(test, total * 100, cap * 90);
}

struct share_case {
	const char *name;
	u32 senders;
	u32 overcommit;
	u8 policy;
	u64 delay;
};

static const struct share_case share_cases[] = {
	{ "4 senders", 4, 8, RMP_CREDIT_FAIR, SIM_DELAY },
	{ "4 senders, overcommit 2", 4, 2, RMP_CREDIT_FAIR, SIM_DELAY },
	{ "16 senders, overcommit 4", 16, 4, RMP_CREDIT_FAIR, SIM_DELAY },
	/* A round trip longer than a window takes at the link's rate. */
	{ "6 senders, overcommit 4, long round trip", 6, 4, RMP_CREDIT_FAIR,
	  100 * US },
};

static void share_desc(const struct share_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(share, share_cases, share_desc);

/*
 * Endless senders share the downlink evenly, fill it, and the switch
 * queue stays within the unscheduled bursts and a window or so.
 */
static void rmp_credit__shares_converge(struct kunit *test)
{
	const struct share_case *c = test->param_value;
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct sim *sim;
	u32 i;

	cfg.overcommit = c->overcommit;
	cfg.policy = c->policy;
	sim = sim_new(test, c->senders, &cfg);
	sim->delay = c->delay;
	for (i = 0; i < c->senders; i++)
		sim_post(sim, i, 0, true);
	sim_run(test, sim, 5 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 45 * MS);
	expect_fair(test, sim, 0, c->senders, sim_capacity(sim, 40 * MS), 10);
	KUNIT_EXPECT_LE(test, sim->qmax, c->overcommit * cfg.window + 2);
	kunit_info(test, "%s: queue peak %u, mean %llu.%02llu packets\n",
		   c->name, sim->qmax,
		   (unsigned long long)(sim->qsum / sim->steps),
		   (unsigned long long)(sim->qsum * 100 / sim->steps % 100));
}

/*
 * Credit never goes out faster than the downlink: over any 1 ms, what is
 * granted fits in the link's capacity plus the pacer's bucket.
 */
static void rmp_credit__never_above_the_link(struct kunit *test)
{
	struct sim *sim = sim_new(test, 8, &base_cfg);
	u64 last = 0, bound;
	u32 i;

	for (i = 0; i < 8; i++)
		sim_post(sim, i, 0, true);
	bound = sim_capacity(sim, MS) + base_cfg.burst_bytes / SIM_PKT + 1;
	for (i = 1; i <= 30; i++) {
		sim_run(test, sim, i * MS);
		KUNIT_EXPECT_LE(test, sim->rx.stats.granted - last, bound);
		last = sim->rx.stats.granted;
	}
}

/*
 * Grants and requests are lost: every transfer still completes, the
 * senders asking again for what they lost.
 */
static void rmp_credit__lost_grants_recover(struct kunit *test)
{
	struct sim *sim = sim_new(test, 3, &base_cfg);
	u32 i;

	sim->grant_loss = 300;
	for (i = 0; i < 3; i++)
		sim_post(sim, i, 2000, false);
	sim_run(test, sim, 200 * MS);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ_MSG(test, sim->s[i].delivered, 2000ULL,
				    "sender %u", i);
		KUNIT_EXPECT_GT(test, sim->s[i].tx.requests, 1ULL);
	}
}

/* A sender joins, the two share; it leaves, the other has it all again. */
static void rmp_credit__senders_join_and_leave(struct kunit *test)
{
	struct sim *sim = sim_new(test, 2, &base_cfg);

	sim_post(sim, 0, 0, true);
	sim_run(test, sim, 10 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 20 * MS);
	expect_fair(test, sim, 0, 1, sim_capacity(sim, 10 * MS), 10);

	sim_post(sim, 1, 0, true);
	sim_run(test, sim, 25 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 45 * MS);
	expect_fair(test, sim, 0, 2, sim_capacity(sim, 20 * MS), 10);

	/* It stops posting; once idle, it leaves the schedule. */
	sim->s[1].endless = false;
	sim_run(test, sim, 50 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 60 * MS);
	expect_fair(test, sim, 0, 1, sim_capacity(sim, 10 * MS), 10);
	KUNIT_EXPECT_EQ(test, sim->rx.nactive, 1U);
	KUNIT_EXPECT_GE(test, sim->rx.stats.reclaimed, 1ULL);
}

/* A short transfer among long ones: SRPT finishes it first. */
static u64 short_among_long(struct kunit *test, u8 policy)
{
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct sim *sim;

	cfg.policy = policy;
	sim = sim_new(test, 3, &cfg);
	sim_post(sim, 0, 100000, false);
	sim_post(sim, 1, 100000, false);
	sim_run(test, sim, 5 * MS);
	sim_post(sim, 2, 300, false);
	sim_run(test, sim, 30 * MS);
	KUNIT_ASSERT_EQ(test, sim->s[2].delivered, 300ULL);
	return sim->s[2].done_at - 5 * MS;
}

static void rmp_credit__srpt_finishes_short_first(struct kunit *test)
{
	u64 fair = short_among_long(test, RMP_CREDIT_FAIR);
	u64 srpt = short_among_long(test, RMP_CREDIT_SRPT);
	u64 alone = 300 * SIM_PKT * 8 * 1000ULL / base_cfg.rate_kbps * US;

	kunit_info(test, "300 packets: %llu us fair, %llu us SRPT, %llu alone\n",
		   (unsigned long long)(fair / US),
		   (unsigned long long)(srpt / US),
		   (unsigned long long)(alone / US));
	KUNIT_EXPECT_LT(test, srpt * 10, fair * 7);
	KUNIT_EXPECT_LT(test, srpt * 10, alone * 13);
}

/*
 * A receiver that runs only every 50 us (a busy host, a late timer), six
 * packets' time at the link's rate: each run grants what the time since
 * the last one owes, up to a window (as the module's pacer does), so the
 * link stays full, with a queue within the windows granted. The credit
 * in flight must cover the wait too: four windows.
 */
static void rmp_credit__busy_receiver_keeps_the_link_full(struct kunit *test)
{
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct sim *sim;

	cfg.overcommit = 4;
	cfg.burst_bytes = cfg.window * SIM_PKT;
	sim = sim_loaded(test, 4, &cfg, 50 * US, 0);
	/*
	 * Shares drift further than with a receiver running every step:
	 * one sender of four got 0.79 of its share, the others 1.06.
	 */
	expect_fair(test, sim, 0, 4, sim_capacity(sim, 40 * MS), 25);
	KUNIT_EXPECT_LE(test, sim->qmax, cfg.overcommit * cfg.window);
	KUNIT_EXPECT_EQ(test, sim->rx.stats.late_bytes, 0ULL);
}

/*
 * A receiver that runs at random gaps of up to 100 us, more than a
 * window's time at the link's rate: with a bucket of the credit the
 * windows may hold (rcc_overcommit of them, as the module sets it), what
 * a late run grants refills the pipe and the link stays full, the queue
 * within those windows. With a bucket of one window, as the module had,
 * late runs lose credit and the link idles.
 */
static void rmp_credit__jittery_receiver_keeps_the_link_full(struct kunit *test)
{
	struct rmp_credit_rx_cfg cfg = base_cfg;
	u64 cap, got, one_window;
	struct sim *sim;

	cfg.overcommit = 4;
	cfg.burst_bytes = cfg.window * SIM_PKT;
	sim = sim_loaded(test, 6, &cfg, 0, 100 * US);
	one_window = sim_delivered(sim);
	cap = sim_capacity(sim, 40 * MS);
	KUNIT_EXPECT_GT(test, sim->rx.stats.late_bytes, 0ULL);
	KUNIT_EXPECT_LT(test, one_window, cap * 95 / 100);

	cfg.burst_bytes = cfg.overcommit * cfg.window * SIM_PKT;
	sim = sim_loaded(test, 6, &cfg, 0, 100 * US);
	got = sim_delivered(sim);
	KUNIT_EXPECT_GE(test, got, cap * 98 / 100);
	KUNIT_EXPECT_LE(test, sim->qmax, cfg.overcommit * cfg.window);
	KUNIT_EXPECT_EQ(test, sim->rx.stats.late_bytes, 0ULL);
	kunit_info(test, "delivered %llu and %llu of %llu packets\n",
		   (unsigned long long)one_window, (unsigned long long)got,
		   (unsigned long long)cap);
}

/*
 * The fabric's bottleneck is half the downlink: ECN marks on arriving
 * data bring the granted rate down to it, and the queue stays short.
 */
static void rmp_credit__ecn_finds_the_bottleneck(struct kunit *test)
{
	struct sim *sim = sim_new(test, 4, &base_cfg);
	u32 i;

	sim->link_kbps = base_cfg.rate_kbps / 2;
	sim->mark_above = 4;
	for (i = 0; i < 4; i++)
		sim_post(sim, i, 0, true);
	sim_run(test, sim, 20 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 60 * MS);
	KUNIT_EXPECT_GT(test, sim->rx.stats.cuts, 0ULL);
	KUNIT_EXPECT_LE(test, sim->rx.rate_kbps, base_cfg.rate_kbps * 3 / 4);
	expect_fair(test, sim, 0, 4, sim_capacity(sim, 40 * MS), 15);
	KUNIT_EXPECT_LE(test, sim->qsum / sim->steps, 8ULL);
	kunit_info(test, "granted rate %llu kbit/s, queue peak %u, mean %llu\n",
		   (unsigned long long)sim->rx.rate_kbps, sim->qmax,
		   (unsigned long long)(sim->qsum / sim->steps));
}

/* A period of @ecn_every marked packets, @gap ns apart, into @rx. */
static u64 marked_period(struct rmp_credit_rx *rx, struct rmp_credit_peer *p,
			 u32 *psn, u64 now, u64 gap)
{
	u32 i;

	for (i = 0; i < rx->cfg.ecn_every; i++) {
		now += gap;
		rmp_credit_rx_data(rx, p, (*psn)++, true, now);
	}
	return now;
}

/*
 * Marks on data that arrived slower than the rate granted cut it by half
 * the smoothed fraction marked; marks on data that arrived faster (a
 * queue filled before an earlier cut, draining) cut nothing.
 */
static void rmp_credit_rx_data__marks_while_a_queue_drains_cut_nothing(struct kunit *test)
{
	struct rmp_credit_rx rx;
	struct rmp_credit_peer p;
	u32 psn = 100;
	u64 now;

	KUNIT_ASSERT_EQ(test, rmp_credit_rx_init(&rx, &base_cfg, 0), 0);
	rmp_credit_peer_init(&p, 1100, psn);
	/* 1100 bytes every 17.6 us: 500 Mbit/s, half the rate granted. */
	now = marked_period(&rx, &p, &psn, 0, 17600);
	KUNIT_EXPECT_EQ(test, rx.stats.cuts, 1ULL);
	/* Alpha, a sixteenth of the way to all marked: a 32nd cut. */
	KUNIT_EXPECT_EQ(test, rx.rate_kbps, 1000000ULL - 1000000ULL / 32);

	rx.rate_kbps = 400000;
	marked_period(&rx, &p, &psn, now, 17600);
	KUNIT_EXPECT_EQ(test, rx.stats.cuts, 1ULL);
	KUNIT_EXPECT_EQ(test, rx.rate_kbps, 400000ULL);
}

/*
 * The fabric loses a quarter of its capacity under one sender (a spine
 * of four goes dark): the data queues, its marks cut the granted rate,
 * and they go on while the queue drains. Cuts that stop once the data
 * arrives faster than granted leave the rate near what the fabric still
 * carries, and from 2 ms after the loss the sender gets most of it; cuts
 * on every marked period took it to two thirds of the link left, to
 * climb back one step a period.
 */
static void rmp_credit__ecn_follows_a_shrinking_bottleneck(struct kunit *test)
{
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct sim *sim;
	u64 got, cap;

	cfg.window = 32;
	cfg.overcommit = 2;
	cfg.burst_bytes = SIM_PKT;
	sim = sim_new(test, 1, &cfg);
	sim->delay = 40 * US;
	sim->mark_above = 2;
	sim_post(sim, 0, 0, true);
	sim_run(test, sim, 10 * MS);
	sim->link_kbps = cfg.rate_kbps * 3 / 4;
	sim_run(test, sim, 12 * MS);
	sim_reset_counts(sim);
	sim_run(test, sim, 18 * MS);
	got = sim_delivered(sim);
	cap = sim_capacity(sim, 6 * MS);
	KUNIT_EXPECT_GE(test, got * 100, cap * 85);
	kunit_info(test, "delivered %llu of %llu packets, granted rate %llu kbit/s, %llu cuts\n",
		   (unsigned long long)got, (unsigned long long)cap,
		   (unsigned long long)sim->rx.rate_kbps,
		   (unsigned long long)sim->rx.stats.cuts);
}

/*
 * More senders than slots: the receiver's state stays bounded, the
 * senders left out ask again, and every transfer completes.
 */
static void rmp_credit__more_senders_than_slots(struct kunit *test)
{
	struct rmp_credit_rx_cfg cfg = base_cfg;
	struct sim *sim;
	u32 i;

	cfg.idle_ns = 500 * US;
	sim = sim_new(test, SIM_SENDERS, &cfg);
	for (i = 0; i < SIM_SENDERS; i++)
		sim_post(sim, i, 40, false);
	sim_run(test, sim, 200 * MS);
	for (i = 0; i < SIM_SENDERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, sim->s[i].delivered, 40ULL,
				    "sender %u", i);
	KUNIT_EXPECT_GT(test, sim->rx.stats.full, 0ULL);
	KUNIT_EXPECT_EQ(test, sim->max_active, (u32)RMP_CREDIT_ACTIVE_MAX);
}

static struct kunit_case rmp_credit_cases[] = {
	KUNIT_CASE(rmp_credit_tx__unscheduled_budget),
	KUNIT_CASE(rmp_credit_tx__tells_unscheduled),
	KUNIT_CASE(rmp_credit_tx__asks_sparingly),
	KUNIT_CASE(rmp_credit_tx_grant__absolute_limits),
	KUNIT_CASE_PARAM(rmp_credit_rx_init__validates, init_gen_params),
	KUNIT_CASE(rmp_credit_rx_request__checks),
	KUNIT_CASE(rmp_credit_rx_tick__late_counted),
	KUNIT_CASE_PARAM(rmp_credit__shares_converge, share_gen_params),
	KUNIT_CASE(rmp_credit__never_above_the_link),
	KUNIT_CASE(rmp_credit__lost_grants_recover),
	KUNIT_CASE(rmp_credit__senders_join_and_leave),
	KUNIT_CASE(rmp_credit__srpt_finishes_short_first),
	KUNIT_CASE(rmp_credit__busy_receiver_keeps_the_link_full),
	KUNIT_CASE(rmp_credit__jittery_receiver_keeps_the_link_full),
	KUNIT_CASE(rmp_credit_rx_data__marks_while_a_queue_drains_cut_nothing),
	KUNIT_CASE(rmp_credit__ecn_finds_the_bottleneck),
	KUNIT_CASE(rmp_credit__ecn_follows_a_shrinking_bottleneck),
	KUNIT_CASE(rmp_credit__more_senders_than_slots),
	{}
};

static struct kunit_suite rmp_credit_suite = {
	.name = "rmp_credit",
	.test_cases = rmp_credit_cases,
};

kunit_test_suite(rmp_credit_suite);
