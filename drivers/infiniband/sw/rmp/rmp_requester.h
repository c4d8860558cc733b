/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp requester and completer: send WQEs to packets, responses to
 * completions, driven by the engine's requester (engine/req.h).
 */
#ifndef RMP_REQUESTER_H
#define RMP_REQUESTER_H

#include "rmp_stats.h"
#include "rmp_wqe.h"
#include "engine/req.h"

struct sk_buff;

struct rmp_payload;
struct rmp_qp;

/**
 * struct rmp_requester_mp - a multipath requester's path set and scoreboard
 * @paths: the path set
 * @seen: what was last seen of @paths, for counting and tracing
 * @seen_ecn_echoed: PSNs echoed CE marked already added
 * @sb: the scoreboard
 * @rec: its records, one per PSN the requester keeps in flight
 */
struct rmp_requester_mp {
	struct rmp_paths paths;
	struct rmp_stats_paths_seen seen;
	u64 seen_ecn_echoed;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[];
};

/**
 * struct rmp_send_slot - a send WQE in the requester's hands
 * @wqe: the private copy taken from the send queue
 * @wc_status: IB_WC_* status of a WQE that failed locally, else
 *	IB_WC_SUCCESS
 */
struct rmp_send_slot {
	struct rmp_send_wqe wqe;
	u8 wc_status;
};

/**
 * struct rmp_requester - a QP's requester state; its transport runs' only
 * @req: the engine's requester
 * @ring: the engine's per-WQE metadata, @nslots entries
 * @slots: the WQEs, indexed like @ring
 * @nslots: a power of two no smaller than the send queue's capacity
 * @on: started (the QP reached RTS since its last RESET)
 * @answered_at: when the first response since the last rmp_requester_run()
 *	was taken in (ns; 0: none yet); that run reads the clock no more
 * @dqpn: RC: destination QP number
 * @qkey: UD: the QP's Q_Key, for WQEs that ask for it
 * @seen: engine counters already added to the device's
 * @mp: multipath state, allocated when the QP first sprays, kept until
 *	the QP is destroyed; the engine uses it while &rmp_req.paths is set
 * @mp_epoch: the knobs' epoch (rmp_knob_epoch()) whose multipath settings
 *	rmp_requester_multipath() took up since the requester started, or 0
 */
struct rmp_requester {
	struct rmp_req req;
	struct rmp_req_wqe *ring;
	struct rmp_send_slot *slots;
	u32 nslots;
	bool on;
	u64 answered_at;
	u32 dqpn;
	u32 qkey;
	struct rmp_req_stats seen;
	struct rmp_requester_mp *mp;
	u32 mp_epoch;
};

int rmp_requester_alloc(struct rmp_qp *qp);
void rmp_requester_free(struct rmp_qp *qp);
int rmp_requester_start(struct rmp_qp *qp);
bool rmp_requester_run(struct rmp_qp *qp, bool take, bool send);
void rmp_requester_response(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
			    const struct rmp_payload *pl,
			    const struct sk_buff *unchecked);
void rmp_requester_flush(struct rmp_qp *qp);
void rmp_requester_paths_cfg(struct rmp_qp *qp, u16 sport,
			     struct rmp_paths_cfg *cfg);
void rmp_requester_multipath(struct rmp_qp *qp);

#endif /* RMP_REQUESTER_H */
