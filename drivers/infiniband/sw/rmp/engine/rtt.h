/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Round-trip time estimate: the smoothed RTT and its mean deviation from
 * samples, with the gains of TCP's retransmission timer (RFC 6298: 1/8
 * and 1/4), and the longest round trip they explain. A path of a
 * multipath QP keeps one, and so does the requester of a QP on one path:
 * their ACK timers wait at least that long, so that a queue building up
 * on the route is not read as the loss of everything in flight.
 */
#ifndef RMP_ENGINE_RTT_H
#define RMP_ENGINE_RTT_H

#include "compat.h"

/**
 * struct rmp_rtt - a round-trip time estimate
 * @srtt_ns: smoothed round-trip time, 0 before the first sample
 * @rttvar_ns: smoothed mean deviation of the round trips from @srtt_ns
 */
struct rmp_rtt {
	u32 srtt_ns;
	u32 rttvar_ns;
};

/**
 * rmp_rtt_sample() - take one round trip into the estimate
 * @e: the estimate
 * @rtt_ns: from a packet's transmission to its acknowledgment; the
 *	caller leaves out packets sent more than once (Karn)
 */
static inline void rmp_rtt_sample(struct rmp_rtt *e, u64 rtt_ns)
{
	u32 rtt = rtt_ns > U32_MAX ? U32_MAX : rtt_ns;

	if (!e->srtt_ns) {
		e->srtt_ns = rtt;
		e->rttvar_ns = rtt / 2;
		return;
	}
	e->rttvar_ns += ((rtt > e->srtt_ns ? rtt - e->srtt_ns :
			  e->srtt_ns - rtt) / 4) - e->rttvar_ns / 4;
	e->srtt_ns += rtt / 8 - e->srtt_ns / 8;
}

/**
 * rmp_rtt_rto() - the longest round trip an estimate explains
 * @e: the estimate
 *
 * Return: its smoothed RTT plus four mean deviations (ns), 0 before the
 * first sample.
 */
static inline u64 rmp_rtt_rto(const struct rmp_rtt *e)
{
	return e->srtt_ns + 4ULL * e->rttvar_ns;
}

#endif /* RMP_ENGINE_RTT_H */
