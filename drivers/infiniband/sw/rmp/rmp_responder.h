/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp responder: request packets to placed data, receive completions and
 * responses, driven by the engine's responder (engine/resp.h); and the
 * receive side of UD and GSI QPs.
 */
#ifndef RMP_RESPONDER_H
#define RMP_RESPONDER_H

#include "rmp_stats.h"
#include "rmp_wqe.h"
#include "engine/rdpaths.h"
#include "engine/resp.h"

struct rmp_payload;
struct rmp_qp;
struct sk_buff;

/* Recent requests' source ports a multipath QP's replies take in turn. */
#define RMP_RESPONDER_REPLY_PORTS	8

/**
 * struct rmp_responder_rdh - health of the paths of sprayed READ responses
 * @rdp: the engine's view of them, fed by the requester's reports
 * @seen: what was last seen of the path set, for counting and tracing
 * @sb: the scoreboard of the responses in flight
 * @rec: its records, one per PSN a requester keeps in flight
 */
struct rmp_responder_rdh {
	struct rmp_rdp rdp;
	struct rmp_stats_paths_seen seen;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[];
};

/**
 * struct rmp_responder - a QP's responder state; its transport runs' only
 * @resp: the engine's RC responder
 * @res: READ/atomic resources for @resp, max_dest_rd_atomic of them
 * @wqe: the receive WQE of the SEND (or WRITE with immediate) in progress
 * @wqe_valid: @wqe is taken and not yet completed
 * @wc_status: IB_WC_* status @wqe completes with if the QP fails
 * @ack: an acknowledgment not yet sent; a later one replaces it
 * @ack_pending: @ack is to be sent
 * @read: READ responses still to send
 * @read_pending: @read has responses left; they go out before anything
 *	else is received
 * @on: started (the QP reached RTR since its last RESET)
 * @dqpn: RC: destination QP number
 * @qkey: UD: the Q_Key arriving packets must carry
 * @arrival_sport: RC: UDP source ports of the last
 *	%RMP_RESPONDER_REPLY_PORTS requests, and requests for credit, that
 *	arrived, a ring: a multipath QP's acknowledgments and grants leave
 *	from them in turn (rmp_responder_reply_sport())
 * @arrivals: ports recorded into @arrival_sport, ever
 * @replies: acknowledgments sent from those ports
 * @rd_paths: read spraying with ``paths`` above 1: the paths sprayed READ
 *	responses take, round-robin; NULL for the QP's own port. Kept until
 *	the QP is destroyed
 * @rdh: with @rd_paths and the peer's reports (%RMP_QP_READ_REPORT), the
 *	health of @rd_paths: dead ones are left out; else NULL. Kept until
 *	the QP is destroyed, used while @rdh_on
 * @rdh_on: @rdh is set up for the current connection
 * @spray: send spraying (%RMP_QP_SEND_SPRAY): @resp's state of SENDs in
 *	pieces; NULL before. Kept until the QP is destroyed
 * @peek: send spraying: the receive WQE a piece goes in, copied
 */
struct rmp_responder {
	struct rmp_resp resp;
	struct rmp_resp_res *res;
	struct rmp_recv_wqe wqe;
	bool wqe_valid;
	u8 wc_status;
	struct rmp_resp_reply ack;
	bool ack_pending;
	struct rmp_resp_read read;
	bool read_pending;
	bool on;
	u32 dqpn;
	u32 qkey;
	u16 arrival_sport[RMP_RESPONDER_REPLY_PORTS];
	u32 arrivals;
	u32 replies;
	struct rmp_paths *rd_paths;
	struct rmp_responder_rdh *rdh;
	bool rdh_on;
	struct rmp_resp_spray *spray;
	struct rmp_recv_wqe peek;
};

int rmp_responder_start(struct rmp_qp *qp);
int rmp_responder_alloc(struct rmp_qp *qp);
void rmp_responder_free(struct rmp_qp *qp);
void rmp_responder_request(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
			   const struct rmp_payload *pl,
			   const struct sk_buff *unchecked, u16 sport, bool ce);
void rmp_responder_ud(struct rmp_qp *qp, const struct sk_buff *skb,
		      const struct rmp_hdr_fields *f,
		      const struct rmp_payload *pl);
bool rmp_responder_resume(struct rmp_qp *qp);
void rmp_responder_ack_owed(struct rmp_qp *qp);
void rmp_responder_flush(struct rmp_qp *qp);
void rmp_responder_multipath(struct rmp_qp *qp);
void rmp_responder_arrived(struct rmp_qp *qp, u16 sport);
u16 rmp_responder_reply_sport(const struct rmp_qp *qp, u32 n);
void rmp_responder_read_report(struct rmp_qp *qp,
			       const struct rmp_hdr_fields *f,
			       const struct rmp_payload *pl);

#endif /* RMP_RESPONDER_H */
