/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read spraying, the responder's side: the paths its READ responses take
 * and their health, learnt from the requester's reports.
 */
#ifndef RMP_ENGINE_RDPATHS_H
#define RMP_ENGINE_RDPATHS_H

#include "compat.h"
#include "psn.h"
#include "paths.h"
#include "scoreboard.h"

/**
 * struct rmp_rdp_stats - counters of a responder's READ response paths
 * @reports: reports taken in
 * @stale: reports dropped: their cumulative part is older than one taken
 * @forged: reports dropped: they claim PSNs the responder never took
 * @again: responses sent again (a repair asked for them) while their
 *	first copy was still in flight, before the newest one reported
 *	received: lost on their path
 * @blind: responses sent again while their first copy was still in
 *	flight, at or past the newest one reported received (the rest of a
 *	READ, asked for in case its last responses were lost; a READ asked
 *	for again after an ACK timeout): their first copy blames no path
 */
struct rmp_rdp_stats {
	u64 reports;
	u64 stale;
	u64 forged;
	u64 again;
	u64 blind;
};

/**
 * struct rmp_rdp - a responder's sprayed READ responses and their paths
 * @ps: the path set, owned by the caller
 * @sb: a scoreboard of the responses in flight, owned by the caller
 * @una: the oldest response PSN not yet known to be delivered
 * @end: one past the newest response PSN sent
 * @reported: one past the cumulative part of the newest report taken
 * @seen: one past the highest response PSN a report showed received
 * @probes: the dead paths due a probe, bit i for path i: each takes the
 *	next response sent for the first time, the lowest first
 * @next_tick: when the path set next has work (a probe coming due), ns;
 *	0 if it has none
 * @stats: counters
 */
struct rmp_rdp {
	struct rmp_paths *ps;
	struct rmp_sb *sb;
	u32 una;
	u32 end;
	u32 reported;
	u32 seen;
	u64 probes;
	u64 next_tick;
	struct rmp_rdp_stats stats;
};

int rmp_rdp_init(struct rmp_rdp *d, struct rmp_paths *ps, struct rmp_sb *sb,
		 u32 psn);
u32 rmp_rdp_pick(struct rmp_rdp *d, u32 psn, u32 len, u64 now);
int rmp_rdp_report(struct rmp_rdp *d, const struct rmp_sack *s, u32 epsn,
		   u64 now);

#endif /* RMP_ENGINE_RDPATHS_H */
