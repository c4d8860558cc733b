// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: responder
 *
 * The responder executes the requests a QP receives. For RC, the engine's
 * responder (engine/resp.c) judges each packet (sequence, duplicates,
 * opcode order, lengths, permissions) and says what to answer; this file
 * does the execution the engine asks for: it takes the receive WQE of a
 * SEND, checks R_Keys, places data, runs atomics, reads READ data, writes
 * receive completions and sends the replies. Only the runs of the QP's
 * transport execute it.
 *
 * Nothing from the network is written anywhere but through an lkey of a
 * receive WQE or an R_Key the requester named, each checked for the exact
 * bytes written (rmp_mr_copy_sgl(), rmp_mr_lookup_rkey()).
 *
 * The ICRC of an RC request is checked here. A SEND, or a WRITE after its
 * first packet, that the engine is about to execute is placed and checked
 * in one pass over its payload; if the check fails, the engine forgets the
 * packet (rmp_resp_discard()) and nothing else happens: no reply, no
 * completion. The bytes it placed lie in the message in progress, where
 * the genuine packet, retransmitted, places them again before the message
 * can complete. Every other request is checked before it is judged.
 *
 * UC requests go through the same engine in its UC mode and are placed
 * the same way, but nothing is answered: a message that cannot be received
 * whole (a packet lost, no receive WQE, an R_Key violation) is dropped, and
 * a receive WQE it took stays for the next message; one taken from an SRQ
 * completes with IB_WC_REM_INV_REQ_ERR instead, as it belongs to no QP
 * (IBTA error classes D1 and E, as rxe reads them).
 *
 * ACKs are coalesced: an ACK waits in the responder until a different reply
 * must go out or the receive batch ends, and a later ACK replaces it (they
 * are cumulative). The run that wrote a receive completion sends it at the
 * end of its batch, before its requester transmits, and only a run
 * transmits: an application's answer to a message, however fast it is
 * posted, leaves after the message's ACK, and a requester completes its send
 * before the receive of the answer, as on a hardware RNIC. The completion
 * does not wait for the ACK to be built and sent. NAKs and atomic ACKs go
 * out at once, in order; READ responses in batches, before anything
 * received later is looked at.
 *
 * UD and GSI QPs have no transport state: a packet with the right Q_Key
 * takes a receive WQE, which gets the IP header in its first 40 bytes (the
 * GRH area; an IPv4 header in the last 20 of them) and then the payload.
 * Without a receive WQE the packet is dropped and counted.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <rdma/ib_pack.h>

#include "rmp_cq.h"
#include "rmp_dev.h"
#include "rmp_mr.h"
#include "rmp_net.h"
#include "rmp_payload.h"
#include "rmp_pkt.h"
#include "rmp_qp.h"
#include "rmp_recv.h"
#include "rmp_responder.h"
#include "engine/icrc.h"
#include "engine/req.h"

/* READ response packets sent per run of the transport, at most. */
#define RMP_RESPONDER_READ_BUDGET 64
/*
 * Read reports: sprayed responses watched in flight, at most. An rmp
 * requester keeps no more PSNs in flight (RMP_REQUESTER_WINDOW); beyond
 * them the oldest are forgotten.
 */
#define RMP_RESPONDER_READ_WINDOW 256

static struct rmp_dev *rmp_qp_dev(const struct rmp_qp *qp)
{
	return to_rmp_dev(qp->ibqp.device);
}

/**
 * rmp_responder_start() - start the responder from the QP's attributes
 * @qp: the QP, in RTR (or a later state) for the first time since RESET
 *
 * For RC and UC, also fixes the path (&rmp_qp.flow, &rmp_qp.sport) both
 * directions of the QP use.
 *
 * Return: 0, -ENOMEM, or an error of rmp_resp_init().
 */
int rmp_responder_start(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	const struct ib_qp_attr *a = &qp->attr;
	struct rmp_resp_config cfg = {};
	u32 nres;
	int err;

	rs->wqe_valid = false;
	rs->ack_pending = false;
	rs->read_pending = false;
	rs->rdh_on = false;
	mutex_lock(&qp->lock);
	rs->qkey = a->qkey;
	rs->dqpn = a->dest_qp_num;
	if (!rmp_qp_connected(qp)) {
		mutex_unlock(&qp->lock);
		rs->on = true;
		return 0;
	}
	cfg.uc = qp->ibqp.qp_type == IB_QPT_UC;
	cfg.epsn = a->rq_psn;
	cfg.mtu = ib_mtu_enum_to_int(a->path_mtu);
	cfg.min_rnr_timer = a->min_rnr_timer;
	if (a->qp_access_flags & IB_ACCESS_REMOTE_WRITE)
		cfg.access |= RMP_RESP_ALLOW_WRITE;
	if (a->qp_access_flags & IB_ACCESS_REMOTE_READ)
		cfg.access |= RMP_RESP_ALLOW_READ;
	if (a->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC)
		cfg.access |= RMP_RESP_ALLOW_ATOMIC;
	nres = cfg.uc ? 0 : a->max_dest_rd_atomic;
	rmp_av_to_flow(&qp->av, &qp->flow);
	rmp_cc_mark_flow(qp);
	dst_cache_reset(&qp->routes);
	qp->sport = rmp_req_udp_sport(qp->av.flow_label, qp->ibqp.qp_num,
				      a->dest_qp_num);
	rs->arrivals = 0;
	qp->peer_local = rmp_net_is_local(rmp_qp_dev(qp), &qp->flow);
	mutex_unlock(&qp->lock);

	kfree(rs->res);
	rs->res = NULL;
	if (nres) {
		rs->res = kcalloc(nres, sizeof(*rs->res), GFP_KERNEL);
		if (!rs->res)
			return -ENOMEM;
	}
	err = rmp_resp_init(&rs->resp, &cfg, rs->res, nres);
	if (err)
		return err;
	rs->on = true;
	return 0;
}

/*
 * Read reports: the health of the paths of sprayed responses, from the
 * requester's reports (engine/rdpaths.c). Without memory for it, they go
 * round-robin over every path, as with a peer that sends no reports.
 */
static void rmp_responder_read_health(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_responder_rdh *rdh = rs->rdh;

	if (!rdh) {
		rdh = kvzalloc(struct_size(rdh, rec, RMP_RESPONDER_READ_WINDOW),
			       GFP_KERNEL);
		if (!rdh)
			return;
		rs->rdh = rdh;
	}
	if (rmp_sb_init(&rdh->sb, rdh->rec, RMP_RESPONDER_READ_WINDOW) ||
	    rmp_rdp_init(&rdh->rdp, rs->rd_paths, &rdh->sb,
			 rmp_resp_epsn(&rs->resp)))
		return;
	rmp_stats_paths_start(&rdh->seen, rs->rd_paths);
	rs->rdh_on = true;
}

/*
 * Read spraying: the responses asked to be sprayed take the paths of a
 * set of the responder's own, if ``paths`` asks for more than one,
 * round-robin; with the peer's reports (%RMP_QP_READ_REPORT), only the
 * live ones, dead ones being probed (Documentation/rmp/design.rst, "Read
 * spraying").
 */
static void rmp_responder_read_spray(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	bool reports = test_bit(RMP_QP_READ_REPORT, &qp->flags);
	struct rmp_paths_cfg cfg;

	rmp_resp_read_spray(&rs->resp);
	rmp_requester_paths_cfg(qp, qp->sport, &cfg);
	cfg.spray = RMP_SPRAY_RR;
	/* Reports come late and in batches: not a clock of the paths. */
	cfg.late_news = true;
	if (cfg.npaths < 2)
		return;
	if (!rs->rd_paths)
		rs->rd_paths = kzalloc(sizeof(*rs->rd_paths), GFP_KERNEL);
	if (rs->rd_paths && rmp_paths_init(rs->rd_paths, &cfg)) {
		kfree(rs->rd_paths);
		rs->rd_paths = NULL;
	}
	if (rs->rd_paths && reports)
		rmp_responder_read_health(qp);
}

/**
 * rmp_responder_multipath() - accept sprayed WRITEs from now on
 * @qp: the RC QP, its responder started, its peer agreed to multipath;
 *	process context
 *
 * With read spraying (%RMP_QP_READ_SPRAY), also spray the responses of
 * the READs that ask for it; with send spraying (%RMP_QP_SEND_SPRAY),
 * take SENDs in pieces. A run calls it while the QP's %RMP_QP_MULTIPATH
 * flag is set; only the first call after the responder started acts.
 */
void rmp_responder_multipath(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;

	if (qp->ibqp.qp_type != IB_QPT_RC || rmp_resp_sacks(&rs->resp))
		return;
	rmp_resp_multipath(&rs->resp, test_bit(RMP_QP_ECN_ECHO, &qp->flags));
	if (!rs->resp.rd_spray && test_bit(RMP_QP_READ_SPRAY, &qp->flags))
		rmp_responder_read_spray(qp);
	/* Offered only with the memory for it (rmp_responder_alloc()). */
	if (!rs->resp.sp && rs->spray &&
	    test_bit(RMP_QP_SEND_SPRAY, &qp->flags))
		rmp_resp_send_spray(&rs->resp, rs->spray);
}

/**
 * rmp_responder_alloc() - allocate what a new QP's responder may need
 * @qp: the QP being created; process context
 *
 * Send spraying: an RC QP offers it (rmp_ext.c), so it holds the state
 * for it from the start: the question and the answer may come before the
 * responder starts. With an SRQ, that includes room for the receive WQEs
 * it may take ahead of their turn (rmp_wqe_ahead_alloc()).
 *
 * Return: 0 or -ENOMEM.
 */
int rmp_responder_alloc(struct rmp_qp *qp)
{
	if (qp->ibqp.qp_type != IB_QPT_RC)
		return 0;
	qp->responder.spray = kvzalloc(sizeof(*qp->responder.spray),
				       GFP_KERNEL);
	if (!qp->responder.spray)
		return -ENOMEM;
	return qp->srq ? rmp_wqe_ahead_alloc(qp) : 0;
}

/**
 * rmp_responder_free() - free a QP's responder
 * @qp: the QP, its work item stopped
 */
void rmp_responder_free(struct rmp_qp *qp)
{
	kfree(qp->responder.res);
	qp->responder.res = NULL;
	kfree(qp->responder.rd_paths);
	qp->responder.rd_paths = NULL;
	kvfree(qp->responder.rdh);
	qp->responder.rdh = NULL;
	kvfree(qp->responder.spray);
	qp->responder.spray = NULL;
	rmp_wqe_ahead_free(qp);
	qp->responder.rdh_on = false;
}

/*
 * Send a response from UDP source port @sport whose payload, if any, is
 * @len bytes at @va in @mr, or else at @buf. An acknowledgment (@ack) of a
 * QP on credit goes ahead of data (rmp_rcc_ahead_flow()): the peer's next
 * request, which may go there too, must not overtake it.
 */
static void rmp_responder_xmit(struct rmp_qp *qp, u16 sport, bool ack,
			       struct rmp_hdr_fields *f, struct rmp_mr *mr,
			       u64 va, const void *buf, u32 len)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	u32 payload_crc = 0, *crc = qp->peer_local ? NULL : &payload_crc;
	const struct rmp_flow *fl = &qp->flow;
	struct rmp_flow ahead __uninitialized;
	struct sk_buff *skb;

	/* Its route stays the QP's: the DSCP chooses none. */
	if (ack && rmp_rcc_ahead_flow(qp, &ahead))
		fl = &ahead;
	f->bth.pkey = RMP_PKEY_DEFAULT;
	f->bth.qpn = qp->responder.dqpn;
	skb = rmp_pkt_new_from(dev, fl, f, &(struct rmp_pkt_src) {
				       .buf = buf, .mr = mr, .at = buf ? 0 : va,
			       }, len, crc);
	if (PTR_ERR(skb) == -ENOMEM)
		rmp_stats_inc(&dev->stats, RMP_CNT_TX_DROP);
	/* Otherwise the region shrank under the READ: send nothing. */
	if (IS_ERR(skb))
		return;
	rmp_net_xmit(dev, fl, &qp->routes, sport, skb, crc, &qp->deliveries);
}

/**
 * rmp_responder_arrived() - note the UDP source port a request came from
 * @qp: an RC QP, in a run of its transport
 * @sport: the port
 */
void rmp_responder_arrived(struct rmp_qp *qp, u16 sport)
{
	struct rmp_responder *rs = &qp->responder;

	WRITE_ONCE(rs->arrival_sport[rs->arrivals % RMP_RESPONDER_REPLY_PORTS],
		   sport);
	WRITE_ONCE(rs->arrivals, rs->arrivals + 1);
}

/**
 * rmp_responder_reply_sport() - the UDP source port of a reply
 * @qp: an RC QP
 * @n: which reply, counted by the caller: consecutive ones take
 *	consecutive ports
 *
 * For acknowledgments and grants. Multipath: the ports of the requests
 * that arrived last, in turn, so replies spread over the paths in use
 * and a route that failed, either way, takes only its share of them
 * along. Not the port of the request a reply answers: a requester that
 * sprays round-robin and asks for an acknowledgment every so many
 * packets puts every such request on the same path, and its replies would
 * all take one route back.
 *
 * Return: that port, or the QP's own without multipath.
 */
u16 rmp_responder_reply_sport(const struct rmp_qp *qp, u32 n)
{
	const struct rmp_responder *rs = &qp->responder;
	u32 seen = READ_ONCE(rs->arrivals);

	if (!rmp_resp_sacks(&rs->resp) || !seen)
		return qp->sport;
	if (seen > RMP_RESPONDER_REPLY_PORTS)
		seen = RMP_RESPONDER_REPLY_PORTS;
	return READ_ONCE(rs->arrival_sport[n % seen]);
}

/*
 * Multipath: an ACK goes out as a SACK of the window as it is now, which
 * acknowledges at least what the ACK did, with ECN echo followed by the CE
 * marks taken since the last one.
 */
static void rmp_responder_send_sack(struct rmp_qp *qp,
				    const struct rmp_resp_reply *r)
{
	struct rmp_resp *resp = &qp->responder.resp;
	u8 block[RMP_SACK_WIRE_MAX + RMP_ECN_ECHO_WIRE_MAX] __uninitialized;
	struct rmp_ecn_echo ce __uninitialized;
	struct rmp_hdr_fields f = {};
	struct rmp_sack s __uninitialized;
	int len, ce_len;

	if (WARN_ON_ONCE(rmp_resp_sack(resp, &s, &ce)))
		return;
	len = rmp_sack_encode(&s, block, RMP_SACK_WIRE_MAX);
	if (len >= 0 && s.ecn) {
		ce_len = rmp_ecn_echo_encode(&ce, block + len,
					     RMP_ECN_ECHO_WIRE_MAX);
		len = ce_len < 0 ? ce_len : len + ce_len;
	}
	if (WARN_ON_ONCE(len < 0))
		return;
	f.bth.opcode = RMP_OP_EXT_SACK;
	f.bth.psn = s.cum_ack;
	f.aeth.syndrome = r->syndrome;
	f.aeth.msn = resp->msn;
	rmp_responder_xmit(qp,
			   rmp_responder_reply_sport(qp, qp->responder.replies++),
			   true, &f, NULL, 0, block, len);
}

static void rmp_responder_send_ack(struct rmp_qp *qp,
				   const struct rmp_resp_reply *r)
{
	struct rmp_hdr_fields f = {};

	if (r->kind == RMP_RESP_REPLY_ACK &&
	    rmp_aeth_syn_type(r->syndrome) == RMP_AETH_ACK &&
	    rmp_resp_sacks(&qp->responder.resp)) {
		rmp_responder_send_sack(qp, r);
		return;
	}
	f.bth.opcode = r->kind == RMP_RESP_REPLY_ATOMIC_ACK ?
		       RMP_OP_RC_ATOMIC_ACKNOWLEDGE : RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = r->psn;
	f.aeth.syndrome = r->syndrome;
	f.aeth.msn = r->msn;
	f.atmack.orig = r->orig;
	rmp_responder_xmit(qp,
			   rmp_responder_reply_sport(qp, qp->responder.replies++),
			   true, &f, NULL, 0, NULL, 0);
}

/*
 * The source port of a READ response: read spraying, the next path of the
 * responder's set for one to be sprayed (with reports, by the paths'
 * health, at @now); else the QP's.
 */
static u16 rmp_responder_read_sport(struct rmp_qp *qp,
				    const struct rmp_resp_read_pkt *pkt,
				    u64 now)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_paths *ps = rs->rd_paths;

	if (!pkt->sprayed || !ps)
		return qp->sport;
	rmp_stats_inc(&rmp_qp_dev(qp)->stats, RMP_CNT_TX_READ_SPRAYED);
	if (rs->rdh_on)
		return ps->path[rmp_rdp_pick(&rs->rdh->rdp, pkt->psn, pkt->len,
					     now)].sport;
	/* Round-robin needs no clock. */
	return ps->path[rmp_paths_pick(ps, 0)].sport;
}

/* Read reports: count and trace what happened to the response paths. */
static void rmp_responder_count_paths(struct rmp_qp *qp)
{
	struct rmp_responder_rdh *rdh = qp->responder.rdh;

	rmp_stats_paths(&rmp_qp_dev(qp)->stats,
			dev_name(&qp->ibqp.device->dev), qp->ibqp.qp_num,
			qp->responder.rd_paths, &rdh->seen);
}

/**
 * rmp_responder_read_report() - take in a report of READ responses
 * @qp: the RC QP; in a run of its transport
 * @f: the packet's headers, opcode %RMP_OP_EXT_READ_REPORT, its ICRC
 *	checked, from the QP's peer
 * @pl: its payload, linear
 *
 * Taken only by a QP whose peer agreed to send reports and whose READ
 * responses are sprayed (``rx_drop_qp`` otherwise). The payload must be
 * one SACK block, exactly, without ECN echo, whose cumulative part is the
 * BTH's PSN (``rx_drop_malformed`` otherwise); a report the engine finds
 * stale or forged is ``rx_bad_read_reports``. Nothing is sent in reply.
 */
void rmp_responder_read_report(struct rmp_qp *qp,
			       const struct rmp_hdr_fields *f,
			       const struct rmp_payload *pl)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;
	struct rmp_sack s;
	int len;

	if (!rs->rdh_on) {
		rmp_stats_inc(st, RMP_CNT_RX_DROP_QP);
		return;
	}
	len = rmp_sack_decode(&s, rmp_payload_linear(pl), pl->len);
	if (len < 0 || len != (int)f->payload_len || s.ecn ||
	    s.cum_ack != f->bth.psn) {
		rmp_stats_inc(st, RMP_CNT_RX_DROP_MALFORMED);
		return;
	}
	if (rmp_rdp_report(&rs->rdh->rdp, &s, rmp_resp_epsn(&rs->resp),
			   ktime_get_ns())) {
		rmp_stats_inc(st, RMP_CNT_RX_BAD_READ_REPORTS);
		return;
	}
	rmp_stats_inc(st, RMP_CNT_RX_READ_REPORTS);
	rmp_responder_count_paths(qp);
}

/*
 * Send the next batch of a READ's responses (or of the part a duplicate
 * asks for). The R_Key is checked again for what is left: a region
 * deregistered meanwhile gets no more responses, and the requester's
 * retries run out.
 */
static void rmp_responder_send_read(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_resp_read *cur = &rs->read;
	u32 budget = RMP_RESPONDER_READ_BUDGET;
	u64 now = rs->rdh_on && cur->sprayed ? ktime_get_ns() : 0;
	struct rmp_resp_read_pkt pkt;
	struct rmp_hdr_fields f;
	struct rmp_mr *mr = NULL;

	rs->read_pending = false;
	if (cur->left) {
		mr = rmp_mr_lookup_rkey(rmp_qp_dev(qp), qp->ibqp.pd,
					qp->ibqp.qp_num, cur->rkey, cur->va,
					cur->left, IB_ACCESS_REMOTE_READ);
		if (IS_ERR(mr))
			return;
	}
	while (budget-- && rmp_resp_read_next(cur, &pkt)) {
		memset(&f, 0, sizeof(f));
		f.bth.opcode = pkt.opcode;
		f.bth.psn = pkt.psn;
		f.aeth.syndrome = pkt.syndrome;
		f.aeth.msn = pkt.msn;
		rmp_responder_xmit(qp, rmp_responder_read_sport(qp, &pkt, now),
				   false, &f, mr, pkt.va, NULL, pkt.len);
	}
	if (now)
		rmp_responder_count_paths(qp);
	rs->read_pending = cur->npkts;
	if (mr)
		rmp_mr_put(mr);
}

/**
 * rmp_responder_resume() - go on sending a READ's responses
 * @qp: the QP, its responder started
 *
 * A READ's responses go out in batches, one per run of the transport, so
 * that a large READ neither holds the CPU nor floods the path at once;
 * the requests after it wait until all are sent, except a duplicate READ
 * (rmp_resp_preempts_read()).
 *
 * Return: true if responses are still left.
 */
bool rmp_responder_resume(struct rmp_qp *qp)
{
	if (qp->responder.read_pending)
		rmp_responder_send_read(qp);
	return qp->responder.read_pending;
}

static void rmp_responder_send_pending_ack(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;

	if (!rs->ack_pending)
		return;
	rs->ack_pending = false;
	rmp_responder_send_ack(qp, &rs->ack);
}

static void rmp_responder_reply(struct rmp_qp *qp, struct rmp_resp_reply *r)
{
	struct rmp_responder *rs = &qp->responder;

	switch (r->kind) {
	case RMP_RESP_REPLY_NONE:
		return;
	case RMP_RESP_REPLY_ACK:
		if (r->syndrome >> RMP_AETH_TYPE_SHIFT == RMP_AETH_ACK) {
			rs->ack = *r;
			rs->ack_pending = true;
			return;
		}
		if (r->syndrome >> RMP_AETH_TYPE_SHIFT == RMP_AETH_RNR_NAK)
			rmp_stats_inc(&rmp_qp_dev(qp)->stats,
				      RMP_CNT_TX_RNR_NAKS);
		else if (r->syndrome != rmp_aeth_syn_nak(RMP_NAK_PSN_SEQ))
			rmp_stats_inc(&rmp_qp_dev(qp)->stats,
				      RMP_CNT_TX_ERROR_NAKS);
		break;
	default:
		break;
	}
	rmp_responder_send_pending_ack(qp);
	if (r->kind == RMP_RESP_REPLY_READ) {
		rs->read = r->read;
		rmp_responder_send_read(qp);
	} else {
		rmp_responder_send_ack(qp, r);
	}
}

/* Remember how the receive WQE completes if @status fails the QP. */
static enum rmp_resp_status rmp_responder_fails(struct rmp_qp *qp,
						u8 wc_status,
						enum rmp_resp_status status)
{
	qp->responder.wc_status = wc_status;
	return status;
}

/* Take the receive WQE a SEND or a WRITE with immediate consumes. */
static enum rmp_resp_status rmp_responder_take_wqe(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	int err;

	if (rs->wqe_valid)
		return RMP_RESP_OK;
	err = rmp_wqe_take_recv(qp, &rs->wqe);
	if (err == -ENOENT)
		return RMP_RESP_RNR;
	rs->wqe_valid = true;
	rs->wc_status = IB_WC_WR_FLUSH_ERR;
	if (err)
		return rmp_responder_fails(qp, IB_WC_LOC_QP_OP_ERR,
					   RMP_RESP_REM_OP);
	return RMP_RESP_OK;
}

/*
 * Place the payload of a SEND at @offset in receive WQE @wqe. On failure
 * *@wc_status says how the WQE completes.
 */
static enum rmp_resp_status
rmp_responder_place(struct rmp_qp *qp, const struct rmp_recv_wqe *wqe,
		    u32 offset, const struct rmp_payload *pl, u32 *crc,
		    u8 *wc_status)
{
	if ((u64)offset + pl->len > wqe->length) {
		*wc_status = IB_WC_LOC_LEN_ERR;
		return RMP_RESP_REM_INVALID;
	}
	if (pl->len && rmp_payload_to_sgl(pl, rmp_qp_dev(qp), qp->ibqp.pd,
					  wqe->sge, wqe->num_sge, offset,
					  crc)) {
		*wc_status = IB_WC_LOC_PROT_ERR;
		return RMP_RESP_REM_OP;
	}
	return RMP_RESP_OK;
}

static enum rmp_resp_status
rmp_responder_send(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
		   const struct rmp_payload *pl, const struct rmp_resp_out *out,
		   u32 flags, u32 *crc)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_dev *dev = rmp_qp_dev(qp);
	enum rmp_resp_status st;
	u8 wc_status;

	st = rmp_responder_take_wqe(qp);
	if (st != RMP_RESP_OK)
		return st;
	st = rmp_responder_place(qp, &rs->wqe, out->offset, pl, crc,
				 &wc_status);
	if (st != RMP_RESP_OK)
		return rmp_responder_fails(qp, wc_status, st);
	if (out->last && (flags & RMP_OPF_IETH) &&
	    rmp_key_invalidate(dev, qp->ibqp.pd, qp->ibqp.qp_num,
			       f->ieth.rkey, true))
		return rmp_responder_fails(qp, IB_WC_REM_INV_REQ_ERR,
					   RMP_RESP_REM_INVALID);
	return RMP_RESP_OK;
}

static enum rmp_resp_status
rmp_responder_write(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
		    const struct rmp_payload *pl, const struct rmp_resp_out *out,
		    u32 flags, u32 *crc)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	u32 len = pl->len;
	enum rmp_resp_status st;
	struct rmp_mr *mr;
	int err;

	if (out->last && (flags & RMP_OPF_IMMDT)) {
		st = rmp_responder_take_wqe(qp);
		if (st != RMP_RESP_OK)
			return st;
	}
	if (!len)
		return RMP_RESP_OK;
	mr = rmp_mr_lookup_rkey(dev, qp->ibqp.pd, qp->ibqp.qp_num, out->rkey,
				out->va, len, IB_ACCESS_REMOTE_WRITE);
	if (IS_ERR(mr))
		return rmp_responder_fails(qp, IB_WC_REM_ACCESS_ERR,
					   RMP_RESP_REM_ACCESS);
	err = rmp_payload_to_mr(pl, mr, out->va, crc);
	rmp_mr_put(mr);
	return err ? rmp_responder_fails(qp, IB_WC_REM_ACCESS_ERR,
					 RMP_RESP_REM_ACCESS) : RMP_RESP_OK;
}

/*
 * Send spraying: place a piece of a SEND in the receive WQE the engine
 * names, left in the queue until the SEND completes
 * (rmp_responder_sent()); or the last piece of a WRITE with immediate
 * data, by its RETH, once that receive WQE is there. A piece in its turn
 * that fails takes the WQE, which then completes with the failure's
 * status as the QP fails.
 */
static enum rmp_resp_status
rmp_responder_piece(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
		    const struct rmp_payload *pl, const struct rmp_resp_out *out,
		    u32 flags)
{
	struct rmp_responder *rs = &qp->responder;
	bool in_turn = f->bth.psn == rmp_resp_epsn(&rs->resp);
	enum rmp_resp_status st;
	u8 wc_status;
	int err;

	err = rmp_wqe_peek_recv(qp, out->rq_idx, &rs->peek);
	if (err == -ENOENT)
		return RMP_RESP_RNR;
	if (err) {
		wc_status = IB_WC_LOC_QP_OP_ERR;
		st = RMP_RESP_REM_OP;
	} else if (flags & RMP_OPF_WRITE) {
		st = rmp_responder_write(qp, f, pl, out, flags, NULL);
		if (st == RMP_RESP_OK)
			return st;
		wc_status = IB_WC_REM_ACCESS_ERR;
	} else {
		st = rmp_responder_place(qp, &rs->peek, out->offset, pl, NULL,
					 &wc_status);
		if (st == RMP_RESP_OK)
			return st;
	}
	if (in_turn && rmp_responder_take_wqe(qp) == RMP_RESP_OK)
		rmp_responder_fails(qp, wc_status, st);
	return st;
}

static enum rmp_resp_status rmp_responder_read(struct rmp_qp *qp,
					       const struct rmp_hdr_fields *f)
{
	struct rmp_mr *mr;

	if (!f->reth.len)
		return RMP_RESP_OK;
	mr = rmp_mr_lookup_rkey(rmp_qp_dev(qp), qp->ibqp.pd, qp->ibqp.qp_num,
				f->reth.rkey, f->reth.va, f->reth.len,
				IB_ACCESS_REMOTE_READ);
	if (IS_ERR(mr))
		return RMP_RESP_REM_ACCESS;
	rmp_mr_put(mr);
	return RMP_RESP_OK;
}

/* An 8-byte operation on the word at @va, which @rkey grants @access to. */
static enum rmp_resp_status rmp_responder_word(struct rmp_qp *qp, u32 rkey,
					       u64 va, int access,
					       enum rmp_atomic_op op,
					       u64 compare_add, u64 swap,
					       u64 *orig)
{
	struct rmp_mr *mr;
	int err;

	mr = rmp_mr_lookup_rkey(rmp_qp_dev(qp), qp->ibqp.pd, qp->ibqp.qp_num,
				rkey, va, sizeof(u64), access);
	if (IS_ERR(mr))
		return RMP_RESP_REM_ACCESS;
	err = rmp_mr_atomic(mr, va, op, compare_add, swap, orig);
	rmp_mr_put(mr);
	if (err == -EINVAL)
		return RMP_RESP_REM_INVALID;
	return err ? RMP_RESP_REM_ACCESS : RMP_RESP_OK;
}

/* Compare-and-swap, fetch-and-add or ATOMIC WRITE. */
static enum rmp_resp_status rmp_responder_atomic(struct rmp_qp *qp,
						 const struct rmp_hdr_fields *f,
						 const struct rmp_payload *pl,
						 u64 *orig)
{
	u64 value;

	switch (f->bth.opcode) {
	case RMP_OP_RC_ATOMIC_WRITE:
		/* The bytes land as they came, like a WRITE's payload. */
		memcpy(&value, rmp_payload_linear(pl), sizeof(value));
		return rmp_responder_word(qp, f->reth.rkey, f->reth.va,
					  IB_ACCESS_REMOTE_WRITE,
					  RMP_ATOMIC_WRITE, 0, value, orig);
	case RMP_OP_RC_COMPARE_SWAP:
		return rmp_responder_word(qp, f->atmeth.rkey, f->atmeth.va,
					  IB_ACCESS_REMOTE_ATOMIC,
					  RMP_ATOMIC_CMP_SWAP,
					  f->atmeth.compare,
					  f->atmeth.swap_add, orig);
	default:
		return rmp_responder_word(qp, f->atmeth.rkey, f->atmeth.va,
					  IB_ACCESS_REMOTE_ATOMIC,
					  RMP_ATOMIC_FETCH_ADD,
					  f->atmeth.swap_add, 0, orig);
	}
}

/*
 * Execute a request. With @crc, the payload's CRC is added to *@crc as it
 * is placed: all of it if RMP_RESP_OK is returned.
 */
static enum rmp_resp_status
rmp_responder_execute(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
		      const struct rmp_payload *pl, const struct rmp_resp_out *out,
		      u64 *orig, u32 *crc)
{
	u32 flags = rmp_opcode_info(f->bth.opcode)->flags;

	if (flags & RMP_OPF_SPETH)
		return rmp_responder_piece(qp, f, pl, out, flags);
	if (flags & RMP_OPF_SEND)
		return rmp_responder_send(qp, f, pl, out, flags, crc);
	if (flags & RMP_OPF_WRITE)
		return rmp_responder_write(qp, f, pl, out, flags, crc);
	if (flags & RMP_OPF_READ)
		return rmp_responder_read(qp, f);
	return rmp_responder_atomic(qp, f, pl, orig);
}

/*
 * Post the completion of a receive WQE of an RC or UC message: @wc holds
 * its own fields, the QP's are added; immediate data @imm or invalidated
 * R_Key @rkey as the message's opcode @flags say.
 */
static void rmp_responder_post_recv(struct rmp_qp *qp, struct ib_wc *wc,
				    u32 flags, __be32 imm, u32 rkey, bool se)
{
	wc->qp = &qp->ibqp;
	wc->src_qp = qp->responder.dqpn;
	wc->port_num = 1;
	if (flags & RMP_OPF_IMMDT) {
		wc->wc_flags |= IB_WC_WITH_IMM;
		wc->ex.imm_data = imm;
	}
	if (flags & RMP_OPF_IETH) {
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = rkey;
	}
	rmp_cq_post(to_rmp_cq(qp->ibqp.recv_cq), wc, se);
}

/* Complete the receive WQE of a message that just ended. */
static void rmp_responder_complete(struct rmp_qp *qp,
				   const struct rmp_hdr_fields *f,
				   const struct rmp_resp_out *out, u32 flags)
{
	struct rmp_responder *rs = &qp->responder;
	struct ib_wc wc = {
		.wr_id = rs->wqe.wr_id,
		.status = IB_WC_SUCCESS,
		.opcode = flags & RMP_OPF_WRITE ? IB_WC_RECV_RDMA_WITH_IMM :
						  IB_WC_RECV,
		.byte_len = out->offset + f->payload_len,
	};

	rs->wqe_valid = false;
	rmp_responder_post_recv(qp, &wc, flags, f->imm, f->ieth.rkey,
				f->bth.se);
}

/*
 * Send spraying: a SEND whose pieces were all placed completes the next
 * receive WQE, taken now. Its invalidation happens now too, in order; an
 * R_Key that cannot be invalidated fails the QP, too late for a NAK.
 * Return whether the QP is still fine.
 */
static bool rmp_responder_sent(struct rmp_qp *qp,
			       const struct rmp_resp_sent *sent)
{
	u32 flags = rmp_opcode_info(sent->opcode)->flags;
	struct rmp_responder *rs = &qp->responder;
	struct ib_wc wc = {
		.status = IB_WC_SUCCESS,
		.opcode = flags & RMP_OPF_WRITE ? IB_WC_RECV_RDMA_WITH_IMM :
						  IB_WC_RECV,
		.byte_len = sent->len,
	};
	__be32 imm;

	memcpy(&imm, &sent->data, sizeof(imm));
	/* The WQE was posted when its pieces were placed. */
	if (rmp_wqe_take_recv(qp, &rs->peek))
		wc.status = IB_WC_LOC_QP_OP_ERR;
	else if ((flags & RMP_OPF_IETH) &&
		 rmp_key_invalidate(rmp_qp_dev(qp), qp->ibqp.pd,
				    qp->ibqp.qp_num, sent->data, true))
		wc.status = IB_WC_REM_INV_REQ_ERR;
	wc.wr_id = rs->peek.wr_id;
	rmp_responder_post_recv(qp, &wc, flags, imm, sent->data, sent->se);
	return wc.status == IB_WC_SUCCESS;
}

/* UC: a message was dropped; see "responder" above for its receive WQE. */
static void rmp_responder_abort(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	struct ib_wc wc = {
		.wr_id = rs->wqe.wr_id,
		.status = IB_WC_REM_INV_REQ_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.src_qp = rs->dqpn,
		.port_num = 1,
	};

	if (!rs->wqe_valid || !qp->srq)
		return;
	rs->wqe_valid = false;
	rmp_cq_post(to_rmp_cq(qp->ibqp.recv_cq), &wc, false);
}

/*
 * Whether a request's payload is placed as its ICRC is checked (see
 * "responder" above): a SEND without IETH or a WRITE after its first
 * packet, which the engine will execute (rmp_resp_will_execute()).
 */
static bool rmp_responder_checks_late(const struct rmp_responder *rs,
				      const struct rmp_hdr_fields *f,
				      const struct rmp_resp_in *in)
{
	u32 flags = rmp_opcode_info(f->bth.opcode)->flags;

	return f->payload_len && (flags & (RMP_OPF_SEND | RMP_OPF_WRITE)) &&
	       !(flags & (RMP_OPF_RETH | RMP_OPF_IETH)) &&
	       rmp_resp_will_execute(&rs->resp, in);
}

/**
 * rmp_responder_request() - execute and answer an RC or UC request packet
 * @qp: the QP, its responder started
 * @f: the packet's headers
 * @pl: its payload
 * @unchecked: the packet, if its ICRC is still to be checked; else NULL
 * @sport: its UDP source port
 * @ce: it arrived CE marked
 */
void rmp_responder_request(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
			   const struct rmp_payload *pl,
			   const struct sk_buff *unchecked, u16 sport, bool ce)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;
	enum rmp_resp_status status;
	u32 payload_crc = 0, *crc = NULL;
	u8 wc_status = rs->wc_status;
	struct rmp_resp_sent sent __uninitialized;
	struct rmp_resp_out out;
	struct rmp_resp_in in __uninitialized;
	bool completes = false;
	bool ahead;
	u64 orig = 0;
	u32 flags;

	rmp_resp_in_from_hdr(&in, f);
	in.ce = ce;
	/* Multipath: a sprayed WRITE may be executed ahead of its turn. */
	ahead = qp->ibqp.qp_type == IB_QPT_RC &&
		in.psn != rmp_resp_epsn(&rs->resp);
	if (unchecked) {
		if (rmp_responder_checks_late(rs, f, &in))
			crc = &payload_crc;
		else if (rmp_recv_icrc(unchecked, NULL))
			goto corrupt;
	}
	rmp_resp_packet(&rs->resp, &in, &out);
	if (WARN_ON_ONCE(crc && out.verdict != RMP_RESP_EXECUTE))
		return;
	if (out.aborted)
		rmp_responder_abort(qp);
	switch (out.verdict) {
	case RMP_RESP_EXECUTE:
		flags = rmp_opcode_info(f->bth.opcode)->flags;
		status = rmp_responder_execute(qp, f, pl, &out, &orig, crc);
		/* Not all of the payload placed: its CRC is read apart. */
		if (crc && rmp_recv_icrc(unchecked, status == RMP_RESP_OK ?
						    crc : NULL)) {
			/* Nothing it did counts, a failure included. */
			rs->wc_status = IB_WC_WR_FLUSH_ERR;
			rmp_resp_discard(&rs->resp);
			goto corrupt;
		}
		rmp_resp_executed(&rs->resp, status, orig, &out);
		if (ahead && status == RMP_RESP_OK) {
			rmp_stats_inc(st, RMP_CNT_RX_HELD);
		} else if (ahead) {
			/* Dropped unanswered, as if never received. */
			rs->wc_status = wc_status;
			rmp_stats_inc(st, RMP_CNT_RX_DROP_QP);
			return;
		}
		if (out.aborted) {
			if (status == RMP_RESP_RNR)
				rmp_stats_inc(st, RMP_CNT_RX_DROP_NO_WQE);
			rmp_responder_abort(qp);
		}
		completes = out.last &&
			    (flags & (RMP_OPF_SEND | RMP_OPF_IMMDT));
		break;
	case RMP_RESP_DUPLICATE:
		rmp_stats_inc(st, RMP_CNT_RX_DUP_REQUESTS);
		break;
	case RMP_RESP_OUT_OF_SEQ:
		rmp_stats_inc(st, RMP_CNT_RX_OUT_OF_SEQ);
		break;
	case RMP_RESP_INVALID:
		break;
	default:
		rmp_stats_inc(st, RMP_CNT_RX_DROP_QP);
		return;
	}
	rmp_responder_arrived(qp, sport);
	rmp_responder_reply(qp, &out.reply);
	if (completes)
		rmp_responder_complete(qp, f, &out, flags);
	/* Once one fails, the WQEs of those after it are flushed. */
	if (rs->resp.ssn_done != rs->resp.ssn) {
		while (!out.error && rmp_resp_take_sent(&rs->resp, &sent))
			out.error = !rmp_responder_sent(qp, &sent);
	}
	if (out.error) {
		rmp_responder_send_pending_ack(qp);
		rmp_qp_set_error(qp);
	}
	return;

corrupt:
	rmp_stats_inc(st, RMP_CNT_RX_DROP_ICRC);
}

/**
 * rmp_responder_ack_owed() - acknowledge every request executed so far
 * @qp: the QP, its responder started
 *
 * Sends the ACK that covers them, if one is owed. Called by every run at
 * the end of its receive batch, before its requester transmits (see
 * "responder" above).
 */
void rmp_responder_ack_owed(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_resp_reply r __uninitialized;

	if (qp->ibqp.qp_type == IB_QPT_RC &&
	    rmp_resp_flush_ack(&rs->resp, &r)) {
		rs->ack = r;
		rs->ack_pending = true;
	}
	rmp_responder_send_pending_ack(qp);
}

/**
 * rmp_responder_ud() - deliver a UD or GSI packet
 * @qp: the QP, its responder started
 * @skb: the packet, for its IP header
 * @f: the packet's headers
 * @pl: its payload
 */
void rmp_responder_ud(struct rmp_qp *qp, const struct sk_buff *skb,
		      const struct rmp_hdr_fields *f,
		      const struct rmp_payload *pl)
{
	struct rmp_responder *rs = &qp->responder;
	struct rmp_dev *dev = rmp_qp_dev(qp);
	u8 grh[sizeof(struct ib_grh)] = {};
	bool v4 = ip_hdr(skb)->version == 4;
	u32 len = sizeof(grh) + f->payload_len;
	struct ib_wc wc = {
		.opcode = IB_WC_RECV,
		.byte_len = len,
		.qp = &qp->ibqp,
		.src_qp = f->deth.sqpn,
		.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE,
		.network_hdr_type = v4 ? RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6,
		.port_num = 1,
	};
	struct rmp_recv_wqe *wqe = &rs->wqe;
	int err;

	if (f->deth.qkey != rs->qkey) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_QP);
		return;
	}
	err = rmp_wqe_take_recv(qp, wqe);
	if (err == -ENOENT) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_NO_WQE);
		return;
	}
	wc.wr_id = wqe->wr_id;
	if (v4)
		memcpy(grh + sizeof(grh) - sizeof(struct iphdr), ip_hdr(skb),
		       sizeof(struct iphdr));
	else
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
	if (err)
		wc.status = IB_WC_LOC_QP_OP_ERR;
	else if (len > wqe->length)
		wc.status = IB_WC_LOC_LEN_ERR;
	else if (rmp_mr_copy_sgl(dev, qp->ibqp.pd, wqe->sge, wqe->num_sge, 0,
				 grh, sizeof(grh), RMP_COPY_TO_MR, NULL) ||
		 rmp_payload_to_sgl(pl, dev, qp->ibqp.pd, wqe->sge,
				    wqe->num_sge, sizeof(grh), NULL))
		wc.status = IB_WC_LOC_PROT_ERR;
	if (f->bth.opcode == RMP_OP_UD_SEND_ONLY_IMM) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = f->imm;
	}
	rmp_cq_post(to_rmp_cq(qp->ibqp.recv_cq), &wc, f->bth.se);
}

/**
 * rmp_responder_flush() - complete the receive WQE in progress
 * @qp: the QP, in ERR
 *
 * A SEND cut short by an error completes its receive WQE with the status
 * the failure called for, or a flush error. The responder stops; it starts
 * afresh when the QP next reaches RTR.
 */
void rmp_responder_flush(struct rmp_qp *qp)
{
	struct rmp_responder *rs = &qp->responder;
	struct ib_wc wc = {
		.wr_id = rs->wqe.wr_id,
		.status = rs->wc_status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	if (rs->wqe_valid && rmp_qp_connected(qp)) {
		rs->wqe_valid = false;
		rmp_cq_post(to_rmp_cq(qp->ibqp.recv_cq), &wc, false);
	}
	rs->read_pending = false;
	rs->on = false;
}
