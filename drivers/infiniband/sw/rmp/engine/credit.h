/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receiver-driven credit (rcc): a receiver admits its senders' data at the
 * rate its downlink absorbs; a sender sends an unscheduled budget, then
 * only what it was granted.
 */
#ifndef RMP_ENGINE_CREDIT_H
#define RMP_ENGINE_CREDIT_H

#include "compat.h"

/* Senders a receiver schedules at once, at most: its state is bounded. */
#define RMP_CREDIT_ACTIVE_MAX	64
/* Largest grant ahead of what a sender asked: the PSN window's half. */
#define RMP_CREDIT_AHEAD_MAX	BIT(23)
/* Fixed-point one for the marked fraction (&rmp_credit_rx.ecn_alpha). */
#define RMP_CREDIT_ONE		1024
/* rmp_credit_rx_deadline(), rmp_credit_tx_deadline(): nothing to do. */
#define RMP_CREDIT_NEVER	(~0ULL)
/*
 * A sender asking again with nothing granted in between waits twice as
 * long each time, up to 2^this periods: a sender the receiver keeps
 * waiting for its turn asks a few times, not once a period.
 */
#define RMP_CREDIT_BACKOFF_MAX	3

/**
 * enum rmp_credit_policy - whom a receiver grants first
 * @RMP_CREDIT_FAIR: round-robin over the senders that want more; a
 *	sender that used up a window's worth while others wait steps aside
 *	until its credit is used, so every sender gets its turn
 * @RMP_CREDIT_SRPT: the sender with the least left to send first
 *	(shortest remaining processing time): short messages finish fast
 * @RMP_CREDIT_POLICY_NR: number of policies
 */
enum rmp_credit_policy {
	RMP_CREDIT_FAIR,
	RMP_CREDIT_SRPT,
	RMP_CREDIT_POLICY_NR,
};

/**
 * struct rmp_credit_tx - a sender's credit
 * @unsched: packets a burst may send before it has credit
 * @ask_every_ns: while held back, how often it asks again; 0: never on
 *	its own, only with news
 * @limit: the PSN before which packets may go: the grant, or the
 *	unscheduled budget of the current burst
 * @want: the PSN limit it asked for last
 * @posted: the PSN after what was posted when a packet last asked to go
 * @burst_end: the PSN after the unscheduled packets of the last burst
 * @in_burst: the packets up to @burst_end are not all sent yet
 * @heard_ns: when it last asked, or a grant last moved @limit
 * @gap_ns: the time between two grants that moved @limit, smoothed: the
 *	sender asks again only after four of them without a grant (or a
 *	period, if longer)
 * @backoff: requests since a grant last moved @limit, up to
 *	%RMP_CREDIT_BACKOFF_MAX: the next waits 2^@backoff periods
 * @held: a packet waits for credit
 * @ask: a request is owed to the receiver (rmp_credit_tx_asked() clears
 *	it)
 * @grants: grants taken
 * @stale: grants that moved nothing (old, duplicated or reordered)
 * @refused: grants beyond what was asked, dropped
 * @requests: requests made
 * @stalls: times a packet had to wait for credit
 */
struct rmp_credit_tx {
	u32 unsched;
	u64 ask_every_ns;
	u32 limit;
	u32 want;
	u32 posted;
	u32 burst_end;
	bool in_burst;
	u64 heard_ns;
	u64 gap_ns;
	u8 backoff;
	bool held;
	bool ask;
	u64 grants;
	u64 stale;
	u64 refused;
	u64 requests;
	u64 stalls;
};

/**
 * struct rmp_credit_peer - what a receiver knows of one sender
 * @pkt_bytes: bytes one packet of credit stands for (its MTU and headers)
 * @want: the PSN limit the sender asked for
 * @granted: the PSN limit granted so far
 * @rcvd: the PSN after the last data that arrived from it
 * @quantum: packets granted since it last held no credit
 * @last_ns: when it was last heard from
 * @slot: its index in &rmp_credit_rx.active, -1 while not scheduled
 * @grant_due: its grant should be sent (it moved, or the sender asked)
 * @known: @want and @granted hold values
 */
struct rmp_credit_peer {
	u32 pkt_bytes;
	u32 want;
	u32 granted;
	u32 rcvd;
	u32 quantum;
	u64 last_ns;
	int slot;
	bool grant_due;
	bool known;
};

/**
 * struct rmp_credit_rx_cfg - a receiver's parameters
 * @rate_kbps: the downlink's rate, kbit/s: credit goes out no faster
 * @min_kbps: the floor ECN marks cut the granted rate to
 * @window: packets of credit a sender may hold unused, at most (about a
 *	bandwidth-delay product)
 * @overcommit: senders holding credit at once, at most
 * @policy: &enum rmp_credit_policy
 * @idle_ns: a sender not heard from this long is unscheduled and its
 *	unused credit no longer counts
 * @ecn_every: data packets between two adjustments of the rate to the
 *	ECN marks seen
 * @ecn_period_ns: time between two adjustments, at most: fewer packets
 *	than @ecn_every arriving in it (the rate was cut low) count as well
 * @burst_bytes: credit the pacer may hand out back to back: also the
 *	most a tick that comes late makes up for
 */
struct rmp_credit_rx_cfg {
	u64 rate_kbps;
	u64 min_kbps;
	u32 window;
	u32 overcommit;
	u8 policy;
	u64 idle_ns;
	u32 ecn_every;
	u64 ecn_period_ns;
	u32 burst_bytes;
};

/**
 * struct rmp_credit_rx_stats - a receiver's counters
 * @granted: packets of credit granted
 * @requests: requests taken
 * @full: requests of senders that found every slot taken
 * @reclaimed: senders unscheduled for idleness
 * @ecn_marked: data packets that arrived CE-marked
 * @cuts: times ECN marks cut the rate
 * @late_bytes: credit the pacer could not grant while senders wanted it,
 *	because a tick came later than rmp_credit_rx_deadline() asked, by
 *	more than the bucket holds (a host too busy to run its timer)
 */
struct rmp_credit_rx_stats {
	u64 granted;
	u64 requests;
	u64 full;
	u64 reclaimed;
	u64 ecn_marked;
	u64 cuts;
	u64 late_bytes;
};

/**
 * struct rmp_credit_rx - a receiver's credit scheduler
 * @cfg: parameters
 * @active: the senders scheduled, @nactive of them first
 * @nactive: entries used in @active
 * @holders: senders in @active holding credit not yet used
 * @next: round-robin cursor into @active
 * @rate_kbps: the rate credit goes out at: &rmp_credit_rx_cfg.rate_kbps,
 *	less what ECN marks took
 * @tokens: the pacer's bucket, bytes times 8,000,000 (a kbit/s for a ns
 *	is one token); negative while a grant larger than what was left is
 *	repaid
 * @last_ns: when @tokens was last brought up to date
 * @ecn_seen: data packets since the last adjustment
 * @ecn_marks: of those, CE-marked
 * @ecn_since: when the rate was last adjusted (ns)
 * @ecn_alpha: the smoothed fraction marked, in 1/%RMP_CREDIT_ONE
 * @ecn_bytes: bytes of the new PSNs the senders' data reached since the
 *	last adjustment
 * @wanted: the last tick left a sender wanting credit the pacer had no
 *	tokens for
 * @stats: counters
 */
struct rmp_credit_rx {
	struct rmp_credit_rx_cfg cfg;
	struct rmp_credit_peer *active[RMP_CREDIT_ACTIVE_MAX];
	u32 nactive;
	u32 holders;
	u32 next;
	u64 rate_kbps;
	s64 tokens;
	u64 last_ns;
	u32 ecn_seen;
	u32 ecn_marks;
	u64 ecn_since;
	u32 ecn_alpha;
	u64 ecn_bytes;
	bool wanted;
	struct rmp_credit_rx_stats stats;
};

void rmp_credit_tx_init(struct rmp_credit_tx *tx, u32 unsched,
			u64 ask_every_ns, u32 psn);
bool rmp_credit_tx_may_send(struct rmp_credit_tx *tx, u32 psn, u32 una,
			    u32 want, u64 now);
bool rmp_credit_tx_unscheduled(const struct rmp_credit_tx *tx, u32 psn);
void rmp_credit_tx_asked(struct rmp_credit_tx *tx, u64 now);
int rmp_credit_tx_grant(struct rmp_credit_tx *tx, u32 limit, u32 asked,
			u64 now);
u64 rmp_credit_tx_deadline(const struct rmp_credit_tx *tx);
void rmp_credit_tx_ask_every(struct rmp_credit_tx *tx, u64 ask_every_ns,
			     u64 now);

int rmp_credit_rx_init(struct rmp_credit_rx *rx,
		       const struct rmp_credit_rx_cfg *cfg, u64 now);
void rmp_credit_peer_init(struct rmp_credit_peer *p, u32 pkt_bytes,
			  u32 psn);
int rmp_credit_rx_request(struct rmp_credit_rx *rx, struct rmp_credit_peer *p,
			  u32 want, u64 now);
void rmp_credit_rx_data(struct rmp_credit_rx *rx, struct rmp_credit_peer *p,
			u32 psn, bool ce, u64 now);
void rmp_credit_rx_tick(struct rmp_credit_rx *rx, u64 now);
struct rmp_credit_peer *rmp_credit_rx_take_due(struct rmp_credit_rx *rx);
u64 rmp_credit_rx_deadline(const struct rmp_credit_rx *rx, u64 now);
void rmp_credit_rx_forget(struct rmp_credit_rx *rx, struct rmp_credit_peer *p);

#endif /* RMP_ENGINE_CREDIT_H */
