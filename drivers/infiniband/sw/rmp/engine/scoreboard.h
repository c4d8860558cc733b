/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multipath requester scoreboard: the path each sprayed PSN took, which
 * the receiver holds (SACK), and which are lost and due again.
 */
#ifndef RMP_ENGINE_SCOREBOARD_H
#define RMP_ENGINE_SCOREBOARD_H

#include "compat.h"
#include "psn.h"
#include "paths.h"
#include "rxwin.h"

/*
 * A sprayed PSN is lost once a packet sent this many places after it on the
 * same path was delivered: a path keeps its packets in order, so a later
 * one arriving means the earlier one is not merely late. More than one
 * tolerates a link that reorders a little. Each loss the rule declares
 * that turns out to be reordering (the PSN arrives after all) raises the
 * QP's tolerance by one, up to %RMP_SB_REORDER_MAX; a PSN overtaken by
 * fewer is still lost once it is two of its path's round trips late.
 */
#define RMP_SB_REORDER		3
#define RMP_SB_REORDER_MAX	16

/**
 * enum rmp_sb_state - what the requester knows of one PSN
 * @RMP_SB_NONE: not sprayed, or acknowledged
 * @RMP_SB_SENT: sprayed and neither acknowledged nor declared lost
 * @RMP_SB_SACKED: held by the receiver (a SACK said so); never sent again
 * @RMP_SB_LOST: declared lost, waiting to be sent again
 */
enum rmp_sb_state {
	RMP_SB_NONE,
	RMP_SB_SENT,
	RMP_SB_SACKED,
	RMP_SB_LOST,
};

/**
 * enum rmp_sb_probe - what a PSN probes, if anything
 * @RMP_SB_NO_PROBE: nothing: it went on a live path's port
 * @RMP_SB_PROBE_DEAD: its path, which is dead, on the path's port
 * @RMP_SB_PROBE_HOME: its path's home port (&rmp_path.home_sport): its
 *	fate is the home's, not the path's
 */
enum rmp_sb_probe {
	RMP_SB_NO_PROBE,
	RMP_SB_PROBE_DEAD,
	RMP_SB_PROBE_HOME,
};

/**
 * struct rmp_sb_rec - one PSN's record
 * @sent_ns: when it was last sent
 * @stamp: its place in its path's sending order, from &rmp_sb.stamp
 * @seq: its place in the QP's sending order, from &rmp_sb.seq
 * @len: its payload (bytes)
 * @path: the path it last took
 * @state: &enum rmp_sb_state
 * @probe: &enum rmp_sb_probe, while it is still in flight
 * @ce: the receiver echoed it CE marked (it is still in flight)
 * @resent: it was sent more than once: a delivery may be its first
 *	copy's, so its send time dates nothing
 * @overtaken: it was declared lost by the per-path rule (overtaken on its
 *	path), since it was first sent
 */
struct rmp_sb_rec {
	u64 sent_ns;
	u32 stamp;
	u32 seq;
	u16 len;
	u8 path;
	u8 state;
	u8 probe;
	bool ce;
	bool resent;
	bool overtaken;
};

/**
 * struct rmp_sb_stats - scoreboard counters
 * @sacks: SACKs taken in
 * @sacked: PSNs a SACK reported held beyond the cumulative ACK
 * @lost: PSNs declared lost by the loss rules: overtaken on their path,
 *	or overdue
 * @overdue: of those, PSNs found lost by time: overtaken on any path and
 *	late for their path's round trip, or the newest, twice as late
 * @spurious: of those, PSNs that arrived after all: found acknowledged
 *	before they were sent again, or sooner after it than half their
 *	path's round trip
 * @dead_moved: PSNs declared lost because their path died
 * @ecn_echoed: PSNs in flight an ECN echo reported CE marked
 */
struct rmp_sb_stats {
	u64 sacks;
	u64 sacked;
	u64 lost;
	u64 overdue;
	u64 spurious;
	u64 dead_moved;
	u64 ecn_echoed;
};

/**
 * struct rmp_sb - scoreboard of one QP
 * @rec: records, @mask + 1 of them, indexed by PSN modulo their number;
 *	owned by the caller
 * @mask: records minus one
 * @nlost: records in state %RMP_SB_LOST
 * @nprobes: probes in flight (records in state %RMP_SB_SENT with
 *	&rmp_sb_rec.probe)
 * @probe_sent_ns: when the oldest of them was sent, or earlier
 * @stamp: per path, the stamp its next packet gets
 * @delivered: per path, one past the highest stamp delivered
 * @seq: the place in the QP's sending order its next packet gets
 * @delivered_seq: one past the highest place delivered among PSNs sent
 *	once (&rmp_sb_rec.resent), 0 before the first
 * @delivered_sent_ns: the latest send time among the deliveries of PSNs
 *	sent once, 0 before the first
 * @recheck_ns: when a PSN in flight that a later one overtook becomes
 *	overdue (rmp_sb_recheck()), 0 if none waits
 * @reorder: places a later packet on its path must be ahead for a PSN to
 *	be lost, %RMP_SB_REORDER to %RMP_SB_REORDER_MAX
 * @stats: counters
 *
 * The records cover the PSNs from the oldest unacknowledged one on, at
 * most @mask + 1 of them: the requester keeps no more in flight.
 */
struct rmp_sb {
	struct rmp_sb_rec *rec;
	u32 mask;
	u32 nlost;
	u32 nprobes;
	u64 probe_sent_ns;
	u32 stamp[RMP_PATHS_MAX];
	u32 delivered[RMP_PATHS_MAX];
	u32 seq;
	u32 delivered_seq;
	u64 delivered_sent_ns;
	u64 recheck_ns;
	u32 reorder;
	struct rmp_sb_stats stats;
};

int rmp_sb_init(struct rmp_sb *sb, struct rmp_sb_rec *rec, u32 nrec);
void rmp_sb_sent(struct rmp_sb *sb, struct rmp_paths *ps, u32 psn,
		 u32 len, u32 path, enum rmp_sb_probe probe, u64 now);
void rmp_sb_acked(struct rmp_sb *sb, struct rmp_paths *ps, u32 from,
		  u32 to, u64 now);
u32 rmp_sb_sack(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end,
		const struct rmp_sack *s, u64 now);
u32 rmp_sb_recheck(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end,
		   u64 now);
void rmp_sb_ecn(struct rmp_sb *sb, u32 una, u32 end,
		const struct rmp_ecn_echo *ce);
u32 rmp_sb_path_dead(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
		     u32 end, u32 path, u64 now);
u32 rmp_sb_timeout(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end);
u32 rmp_sb_ack_timeout(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
		       u32 end, u64 now, u64 timeout);
u32 rmp_sb_probes_expired(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
			  u32 end, u64 now, u64 timeout);
int rmp_sb_next_lost(const struct rmp_sb *sb, u32 una, u32 end);

/**
 * rmp_sb_probe_deadline() - when the oldest probe in flight expires
 * @sb: scoreboard
 * @timeout: how long a probe may take (ns)
 *
 * Return: the time (ns) rmp_sb_probes_expired() has work, or 0 if no
 * probe is in flight.
 */
static inline u64 rmp_sb_probe_deadline(const struct rmp_sb *sb, u64 timeout)
{
	return sb->nprobes ? sb->probe_sent_ns + timeout : 0;
}

/**
 * rmp_sb_state() - what the scoreboard knows of a PSN
 * @sb: scoreboard
 * @psn: a PSN in flight
 *
 * Return: &enum rmp_sb_state.
 */
static inline enum rmp_sb_state rmp_sb_state(const struct rmp_sb *sb,
					     u32 psn)
{
	return (enum rmp_sb_state)sb->rec[psn & sb->mask].state;
}

#endif /* RMP_ENGINE_SCOREBOARD_H */
