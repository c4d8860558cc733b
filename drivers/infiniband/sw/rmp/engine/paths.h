/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path set of one QP: the entropy values (UDP source ports) its packets
 * are spread over, the health of each, and the choice of one per packet.
 */
#ifndef RMP_ENGINE_PATHS_H
#define RMP_ENGINE_PATHS_H

#include "compat.h"
#include "rtt.h"

/* Paths per QP, at most. */
#define RMP_PATHS_MAX			64
/* Lowest UDP source port a fresh entropy value takes (RoCEv2 practice). */
#define RMP_PATHS_SPORT_MIN		0xc000
/* Losses in a row, with no delivery between, that make a path dead. */
#define RMP_PATHS_DEAD_LOSSES		3
/* Failed probes of a dead path after which its entropy is replaced. */
#define RMP_PATHS_REPLACE_PROBES	3
/*
 * A path whose port was replaced after its probes failed keeps that port
 * as its home, probed every this many probe periods while the path runs
 * on the fresh one; a probe that gets through in half the fresh port's
 * round trip takes the path home (the route is back, and less loaded).
 * After %RMP_PATHS_HOME_PROBES probes lost or slower the home is
 * forgotten.
 */
#define RMP_PATHS_HOME_EVERY		16
#define RMP_PATHS_HOME_PROBES		64
/* Fixed-point one for ECN fractions (rmp_path.ecn). */
#define RMP_PATHS_ONE			1024
/*
 * Deliveries per live path in one balance epoch: how many a path's ECN
 * fraction is judged on against the others' (rmp_paths_tick()).
 */
#define RMP_PATHS_EPOCH			32
/* Epochs in a row a path must run hot before its route is left. */
#define RMP_PATHS_HOT_EPOCHS		2
/* Weight of the best path in %RMP_SPRAY_WEIGHTED. */
#define RMP_PATHS_WEIGHT_MAX		64

/**
 * enum rmp_spray - how rmp_paths_pick() chooses among the live paths
 * @RMP_SPRAY_RR: round-robin, one packet per path in turn
 * @RMP_SPRAY_WEIGHTED: the live path with the fewest packets in flight for
 *	its weight, which falls with the fraction of its deliveries the
 *	receiver saw ECN marked and with its RTT above the best path's: a
 *	path whose route queues (several paths hashed onto one link) holds
 *	more in flight and takes fewer new packets
 * @RMP_SPRAY_FLOWLET: stay on one path while packets follow each other
 *	closely; after a gap of &rmp_paths_cfg.flowlet_gap_ns, move to the
 *	live path with the fewest packets in flight. A gap longer than the
 *	paths' delay difference lets the new path carry on without
 *	reordering.
 * @RMP_SPRAY_NR: number of policies
 */
enum rmp_spray {
	RMP_SPRAY_RR,
	RMP_SPRAY_WEIGHTED,
	RMP_SPRAY_FLOWLET,
	RMP_SPRAY_NR,
};

/**
 * struct rmp_path_stats - counters of one path, for the user
 * @sent: packets sent on it (probes included)
 * @delivered: packets the receiver acknowledged
 * @lost: packets declared lost
 * @ecn: deliveries the receiver saw ECN (CE) marked
 * @deaths: times it was declared dead
 * @revivals: times a probe brought it back
 * @replaced: times its entropy was replaced with a fresh value
 * @homecomings: times a probe of its home port took it back there
 * @sent_bytes: payload bytes sent on it (probes and packets sent again
 *	included)
 * @delivered_bytes: payload bytes of the packets the receiver acknowledged
 */
struct rmp_path_stats {
	u64 sent;
	u64 delivered;
	u64 lost;
	u64 ecn;
	u64 deaths;
	u64 revivals;
	u64 replaced;
	u64 homecomings;
	u64 sent_bytes;
	u64 delivered_bytes;
};

/**
 * struct rmp_path - one path of a QP
 * @sport: its entropy: the UDP source port of its packets
 * @losses: losses since its last delivery
 * @failed_probes: probes lost in a row since it died or its entropy was
 *	last replaced
 * @inflight: packets sent on it that are neither delivered nor lost
 * @rtt: its round trips, from packets sent once
 * @stalled_since: when it last went from nothing in flight to something,
 *	or last delivered with packets still in flight: the start of the
 *	silence rmp_paths_tick() measures, once another path delivered a
 *	packet sent after it
 * @next_probe_ns: when a dead path is probed next
 * @entropy_ns: when @sport took its value: packets sent before took the
 *	old route and say nothing of the new one
 * @epoch_delivered: deliveries in the current balance epoch
 * @epoch_marked: of those, ECN marked
 * @hot: balance epochs in a row it ended clearly more marked than the
 *	other paths
 * @home_failed: probes of @home_sport lost since it became the home
 * @home_sport: the port its probes gave up for a fresh one (0: none),
 *	probed now and then to come back to (%RMP_PATHS_HOME_EVERY)
 * @ecn: smoothed fraction of deliveries ECN marked, in
 *	1/%RMP_PATHS_ONE
 * @home_since_ns: when @home_sport was left: a probe of it sent before
 *	says nothing
 * @home_probe_ns: when @home_sport is probed next
 * @tried_from: the port it left to try a fresh one when the set explored
 *	(0: none), gone back to if the fresh one is no better by the end of
 *	the next balance epoch
 * @tried_marked: the fraction of its deliveries marked in its last epoch
 *	on @tried_from, in 1/%RMP_PATHS_ONE
 * @stats: counters
 */
struct rmp_path {
	u16 sport;
	u8 losses;
	u8 failed_probes;
	u32 inflight;
	struct rmp_rtt rtt;
	u64 stalled_since;
	u64 next_probe_ns;
	u64 entropy_ns;
	u32 epoch_delivered;
	u32 epoch_marked;
	u8 hot;
	u8 home_failed;
	u16 home_sport;
	u32 ecn;
	u64 home_since_ns;
	u64 home_probe_ns;
	u16 tried_from;
	u32 tried_marked;
	struct rmp_path_stats stats;
};

/**
 * struct rmp_paths_cfg - a path set's parameters
 * @npaths: paths, 1 to %RMP_PATHS_MAX
 * @spray: &enum rmp_spray
 * @sport: entropy of path 0: the QP's standard UDP source port, which a
 *	single-path QP keeps
 * @seed: seeds the entropy of the other paths and of replacements (the
 *	QPN is a good one: QPs then spread differently)
 * @dead_after_ns: a live path with packets in flight and no delivery for
 *	this long, or for rmp_rtt_rto() of its estimate if longer, is dead
 * @probe_every_ns: a dead path is probed this often; a probe is lost
 *	after as long, or longer if rmp_paths_wait() says so
 * @flowlet_gap_ns: the gap that ends a flowlet (%RMP_SPRAY_FLOWLET)
 * @late_news: deliveries are learnt of late and in batches (a READ
 *	responder's reports), so the times they are learnt at say nothing of
 *	the route nor of silence: no path's entropy is replaced for its RTT,
 *	and rmp_paths_tick() kills no path for silence; the caller judges
 *	silence by what it knows (rmp_paths_silent_kill())
 */
struct rmp_paths_cfg {
	u32 npaths;
	u8 spray;
	bool late_news;
	u16 sport;
	u32 seed;
	u64 dead_after_ns;
	u64 probe_every_ns;
	u64 flowlet_gap_ns;
};

/**
 * struct rmp_paths - the path set of one QP
 * @cfg: parameters
 * @live_mask: the live paths, bit i for path i; the others are dead: they
 *	stopped delivering and carry only probes, every
 *	&rmp_paths_cfg.probe_every_ns, until one is delivered
 * @cursor: the path %RMP_SPRAY_RR took last, or the current flowlet's
 * @last_pick_ns: when rmp_paths_pick() last chose, for flowlets
 * @delivered_sent_ns: when the newest packet any path delivered was sent
 * @delivered_ns: when any path last delivered a packet
 * @picked: rmp_paths_pick() has chosen before
 * @epoch_delivered: deliveries in the current balance epoch, all paths
 * @explore_wait: epochs marked everywhere left before the set explores
 * @explore_backoff: what @explore_wait starts from after the next route
 *	tried is given up, less one (up to %RMP_PATHS_EXPLORE_WAIT_MAX)
 * @rng: state of the entropy generator
 * @weight: each path's weight in %RMP_SPRAY_WEIGHTED, 1 to
 *	%RMP_PATHS_WEIGHT_MAX
 * @path: the paths, @cfg.npaths of them
 *
 * The weights are apart from the paths so that the tick, which sets them
 * all, writes few cache lines.
 */
struct rmp_paths {
	struct rmp_paths_cfg cfg;
	u64 live_mask;
	u32 cursor;
	u64 last_pick_ns;
	u64 delivered_sent_ns;
	u64 delivered_ns;
	bool picked;
	u32 epoch_delivered;
	u8 explore_wait;
	u8 explore_backoff;
	u32 rng;
	u32 weight[RMP_PATHS_MAX];
	struct rmp_path path[RMP_PATHS_MAX];
};

/**
 * rmp_paths_live() - whether a path carries traffic
 * @ps: the path set
 * @idx: the path
 *
 * Return: true if it is live, false if it is dead.
 */
static inline bool rmp_paths_live(const struct rmp_paths *ps, u32 idx)
{
	return ps->live_mask >> idx & 1;
}

int rmp_paths_init(struct rmp_paths *ps, const struct rmp_paths_cfg *cfg);
u32 rmp_paths_nth_live(const struct rmp_paths *ps, u32 n);
u64 rmp_paths_wait(const struct rmp_paths *ps, u64 least);
u32 rmp_paths_pick(struct rmp_paths *ps, u64 now);
void rmp_paths_sent(struct rmp_paths *ps, u32 idx, u32 bytes, u64 now);
void rmp_paths_delivered(struct rmp_paths *ps, u32 idx, u32 bytes, u64 now,
			 u64 rtt_ns, bool ecn);
void rmp_paths_lost(struct rmp_paths *ps, u32 idx, u64 sent_ns, u64 now);
void rmp_paths_probe_lost(struct rmp_paths *ps, u32 idx, u64 now);
void rmp_paths_forget(struct rmp_paths *ps, u32 idx);
void rmp_paths_tick(struct rmp_paths *ps, u64 now);
void rmp_paths_silent_kill(struct rmp_paths *ps, u32 idx, u64 now);
u64 rmp_paths_probes_due(struct rmp_paths *ps, u64 now);
u64 rmp_paths_homes_due(struct rmp_paths *ps, u64 now);
void rmp_paths_home_delivered(struct rmp_paths *ps, u32 idx, u64 sent_ns,
			      u64 now);
void rmp_paths_home_lost(struct rmp_paths *ps, u32 idx, u64 sent_ns);
u64 rmp_paths_deadline(const struct rmp_paths *ps);

/**
 * rmp_paths_take_probe() - the dead path the next new packet probes
 * @ps: the path set
 * @due: paths due a probe (rmp_paths_probes_due()); the one returned is
 *	taken out, and so are those that came back meanwhile
 *
 * Called for every sprayed packet, hence inline.
 *
 * Return: the lowest path in @due still dead, or -ENOENT if none is.
 */
static inline int rmp_paths_take_probe(const struct rmp_paths *ps,
				       u64 *due)
{
	u32 idx;

	*due &= ~ps->live_mask;
	if (!*due)
		return -ENOENT;
	idx = rmp_ctz64(*due);
	*due &= *due - 1;
	return idx;
}

/**
 * rmp_paths_take_home() - the path whose home port the next new packet
 *	probes
 * @ps: the path set
 * @due: paths whose home is due a probe (rmp_paths_homes_due()); the one
 *	returned is taken out, and so are those that have no home any more
 *
 * Return: the lowest path in @due with a home, or -ENOENT if none has.
 */
static inline int rmp_paths_take_home(const struct rmp_paths *ps, u64 *due)
{
	u32 idx;

	while (*due) {
		idx = rmp_ctz64(*due);
		*due &= *due - 1;
		if (ps->path[idx].home_sport)
			return idx;
	}
	return -ENOENT;
}

#endif /* RMP_ENGINE_PATHS_H */
