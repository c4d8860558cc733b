// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: receive path
 *
 * Every RoCEv2 datagram, whether it came through a namespace's UDP socket
 * or was looped back by rmp_net_xmit(), enters rmp_recv() with its data at
 * the UDP header and the IP header still in front. The checks that need no
 * QP run here, in the context that received the packet (softirq, or the
 * sender with bottom halves off): the transport headers' well-formedness
 * and the P_Key. A packet failing any of them is dropped and counted under
 * a counter named for the reason, or as a bad ICRC if its ICRC is wrong
 * too: a corrupted packet counts as one, whatever the corruption hit. The
 * headers are made linear first; a SEND, WRITE or READ response payload in
 * page fragments stays there, any other packet is made linear whole (see
 * "received payloads").
 *
 * A packet that passes is queued to its destination QP (found by number,
 * with a reference); a QP whose queue is full drops it, counted as such
 * without computing the ICRC (the CPU is short already). A short packet
 * alone in the queue is taken in right there if the QP's transport is idle
 * (rmp_qp_kick_atomic()); otherwise the QP's work item is owed a run, at
 * once, or for a packet looped back by a run of this host, at the end of
 * that run (&struct rmp_recv_batch).
 * rmp_recv_process(), in the QP's run, checks what depends on the QP
 * (transport type, for RC and UC the peer's address, for UD the Q_Key),
 * then the ICRC, and hands requests to the responder and responses to the
 * requester. Nothing reaches the transport unchecked; the ICRC, which costs
 * as much as the payload's copy, is computed on the QP's CPU rather than on
 * the one that received the packet (for a loopback or veth peer: the
 * sender's). An RC packet's ICRC is left to the responder or the
 * requester, which take it in the same pass as the copy of the payload
 * where the data's destination does not depend on the packet (see
 * rmp_responder_request() and rmp_requester_response()). A packet looped
 * back from this host (rmp_net_xmit() to a local address) never left
 * memory: it carries no ICRC and none is checked, as the loopback netdev
 * skips checksums.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

#include "rmp_cc.h"
#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_payload.h"
#include "rmp_pkt.h"
#include "rmp_qp.h"
#include "rmp_recv.h"
#include "rmp_requester.h"
#include "rmp_responder.h"
#include "rmp_stats.h"
#include "engine/hdr.h"
#include "engine/icrc.h"

/* Packets queued to one QP, at most. */
#define RMP_RECV_QUEUE_MAX 4096
/* Packets one run of a QP's transport takes from its queue, at most. */
#define RMP_RECV_BUDGET 128
/* The same for a run in the receive path's atomic context. */
#define RMP_RECV_ATOMIC_BUDGET 8
/* Largest packet (UDP header to ICRC) a run in atomic context takes in. */
#define RMP_RECV_INLINE_MAX 256

/* The BTH of a queued packet: linear, its BTH checked by rmp_recv(). */
static const struct rmp_bth *rmp_recv_bth(const struct sk_buff *skb)
{
	return (const void *)(skb->data + sizeof(struct udphdr));
}

/*
 * A packet a run in atomic context takes in: short (an ACK, a small request
 * or response) and not a READ request, whose responses are a stream. Data
 * streams copied in softirq would slow it down until the netdev's backlog
 * overflows and drops packets. Nor a piece of a sprayed SEND before the
 * responder takes them: the work item switches it first (only it may).
 */
static bool rmp_recv_takes_inline(const struct rmp_qp *qp,
				  const struct sk_buff *skb)
{
	u8 opcode = rmp_bth_opcode(rmp_recv_bth(skb));

	return skb->len <= RMP_RECV_INLINE_MAX &&
	       opcode != RMP_OP_RC_READ_REQUEST &&
	       (qp->responder.resp.sp ||
		!(rmp_opcode_info(opcode)->flags & RMP_OPF_SPETH));
}

/* Looped back by rmp_net_xmit(): the packet never left memory. */
static bool rmp_recv_looped(const struct sk_buff *skb)
{
	return skb->pkt_type == PACKET_LOOPBACK;
}

/*
 * rmp_recv_icrc() for a packet in pieces, its headers linear: the CRC of
 * its payload is taken where the bytes are unless @payload_crc gives it,
 * and the pad's and the ICRC are read where they are.
 */
static int rmp_recv_icrc_split(const struct sk_buff *skb,
			       const u32 *payload_crc)
{
	const struct rmp_bth *bth = rmp_recv_bth(skb);
	const struct rmp_opcode_info *info = rmp_opcode_info(bth->opcode);
	const u8 *nh = skb_network_header(skb);
	u32 pad = rmp_bth_pad(bth), tail, icrc, payload, end;
	u8 buf[4];
	const u8 *p;
	int err;

	if (!info)
		return -EINVAL;
	payload = sizeof(struct udphdr) + info->hdr_len;
	end = skb->len - RMP_ICRC_SIZE;
	if (skb->len < RMP_ICRC_SIZE || payload + pad > end)
		return -EINVAL;
	tail = payload_crc ? *payload_crc :
	       rmp_skb_crc32(skb, payload, end - pad - payload, 0);
	tail = rmp_skb_crc32(skb, end - pad, pad, tail);
	err = rmp_icrc_compute_split(nh, skb->len + (skb->data - nh),
				     ip_hdr(skb)->version, tail, &icrc);
	if (err)
		return err;
	p = skb_header_pointer(skb, end, RMP_ICRC_SIZE, buf);
	if (!p || icrc != (p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24))
		return -EBADMSG;
	return 0;
}

/**
 * rmp_recv_icrc() - check the ICRC of a received packet
 * @skb: the packet, its UDP header at skb->data and its transport headers
 *	linear (rmp_recv())
 * @payload_crc: NULL, or the CRC of its payload taken as it was placed
 *
 * A packet looped back by this host carries no ICRC and passes.
 *
 * Return: 0, -EBADMSG for a wrong ICRC, or another error of
 * rmp_icrc_verify().
 */
int rmp_recv_icrc(const struct sk_buff *skb, const u32 *payload_crc)
{
	const u8 *nh = skb_network_header(skb);

	if (rmp_recv_looped(skb))
		return 0;
	if (skb_is_nonlinear(skb))
		return rmp_recv_icrc_split(skb, payload_crc);
	return rmp_icrc_verify(nh, skb_tail_pointer(skb) - nh,
			       ip_hdr(skb)->version, payload_crc);
}

/**
 * rmp_recv_batch_end() - have the QP a batch owes a run to run
 * @batch: the batch; empty afterwards
 *
 * Unless a run of the QP took in everything queued meanwhile.
 */
void rmp_recv_batch_end(struct rmp_recv_batch *batch)
{
	if (!batch->qp)
		return;
	if (!skb_queue_empty_lockless(&batch->qp->rxq))
		rmp_qp_run_soon(batch->qp);
	rmp_qp_put(batch->qp);
	batch->qp = NULL;
}

/*
 * Owe @qp, held by the caller, a run at the end of @batch; a run of it in
 * progress goes again at once, for latency.
 */
static void rmp_recv_batch_add(struct rmp_recv_batch *batch,
			       struct rmp_qp *qp)
{
	rmp_qp_run_again(qp);
	if (batch->qp == qp)
		return;
	rmp_recv_batch_end(batch);
	rmp_qp_hold(qp);
	batch->qp = qp;
}

/* A bulk payload: one that may stay in page fragments (rmp_payload.h). */
static bool rmp_recv_bulk(const struct rmp_opcode_info *info)
{
	return (info->flags & RMP_OPF_PAYLOAD) &&
	       (info->flags & (RMP_OPF_SEND | RMP_OPF_WRITE | RMP_OPF_READ));
}

/*
 * Make what the parsers read linear: the headers of a packet with a bulk
 * payload, which stays where it is; all of any other packet (a packet too
 * short for its headers is made linear too, and found short).
 */
static int rmp_recv_pull(struct sk_buff *skb)
{
	const struct rmp_opcode_info *info;

	if (!skb_is_nonlinear(skb))
		return 0;
	if (skb_has_frag_list(skb) ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) + sizeof(struct rmp_bth)))
		return skb_linearize(skb);
	info = rmp_opcode_info(rmp_bth_opcode(rmp_recv_bth(skb)));
	if (!info || !rmp_recv_bulk(info) ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) + info->hdr_len))
		return skb_linearize(skb);
	return 0;
}

/**
 * rmp_recv() - take in one RoCEv2 datagram
 * @dev: the device it arrived at
 * @skb: the datagram, data at the UDP header; consumed
 * @batch: NULL, or the deliveries of a run sending several packets in a
 *	row (loopback): for a packet left to the destination QP's work item,
 *	a run of that QP in progress goes again at once, and the work item
 *	is scheduled at the end of the batch if the packet is still queued,
 *	so that a stream wakes the worker once per batch, not per packet
 *
 * Must be called with bottom halves disabled.
 */
void rmp_recv(struct rmp_dev *dev, struct sk_buff *skb,
	      struct rmp_recv_batch *batch)
{
	struct rmp_hdr_fields f __uninitialized;
	enum rmp_counter why;
	struct rmp_qp *qp;
	unsigned int len;
	bool inline_ok;
	int ip_version;

	rmp_stats_inc(&dev->stats, RMP_CNT_RX_PACKETS);
	if (rmp_recv_pull(skb)) {
		why = RMP_CNT_RX_DROP_NOMEM;
		goto drop_checked;
	}
	why = RMP_CNT_RX_DROP_MALFORMED;
	if (skb->len < sizeof(struct udphdr) + sizeof(struct rmp_bth) +
		       RMP_ICRC_SIZE)
		goto drop;
	len = skb->len - sizeof(struct udphdr);
	ip_version = ip_hdr(skb)->version;
	if (ip_version != 4 && ip_version != 6)
		goto drop;

	if (rmp_hdr_parse(&f, skb->data + sizeof(struct udphdr),
			  skb_headlen(skb) - sizeof(struct udphdr), len, NULL))
		goto drop;

	/* One partition: the default P_Key, the only entry of the table. */
	why = RMP_CNT_RX_DROP_PKEY;
	if (!rmp_pkey_match(f.bth.pkey, RMP_PKEY_DEFAULT))
		goto drop;

	why = RMP_CNT_RX_DROP_NO_QP;
	qp = rmp_qp_get(dev, f.bth.qpn);
	if (!qp)
		goto drop;
	if (skb_queue_len(&qp->rxq) >= RMP_RECV_QUEUE_MAX) {
		rmp_qp_put(qp);
		why = RMP_CNT_RX_DROP_QP_BUSY;
		goto drop_checked;
	}
	/* The route may be one held only for this softirq. */
	skb_dst_drop(skb);
	/* Decided now: once queued, the skb is the QP's runs'. */
	inline_ok = rmp_recv_takes_inline(qp, skb);
	skb_queue_tail(&qp->rxq, skb);
	/* Taken in here, for latency, if alone in the queue. */
	if (inline_ok && skb_queue_len(&qp->rxq) == 1)
		rmp_qp_kick_atomic(qp);
	else if (batch)
		rmp_recv_batch_add(batch, qp);
	else
		rmp_qp_run_soon(qp);
	rmp_qp_put(qp);
	return;

drop:
	if (rmp_recv_icrc(skb, NULL) == -EBADMSG)
		why = RMP_CNT_RX_DROP_ICRC;
drop_checked:
	rmp_stats_inc(&dev->stats, why);
	kfree_skb(skb);
}

/* The packet comes from the connected QP's peer, to its own address. */
static bool rmp_recv_from_peer(const struct rmp_qp *qp,
			       const struct sk_buff *skb)
{
	const struct rmp_flow *fl = &qp->flow;

	if (ip_hdr(skb)->version == 4)
		return fl->family == AF_INET &&
		       ip_hdr(skb)->saddr == fl->daddr4 &&
		       ip_hdr(skb)->daddr == fl->saddr4;
	return fl->family == AF_INET6 &&
	       ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &fl->daddr6) &&
	       ipv6_addr_equal(&ipv6_hdr(skb)->daddr, &fl->saddr6);
}

/* The packet met congestion on its way: a switch marked it CE. */
static bool rmp_recv_ce(const struct sk_buff *skb)
{
	u8 dsfield = ip_hdr(skb)->version == 4 ?
		     ipv4_get_dsfield(ip_hdr(skb)) :
		     ipv6_get_dsfield(ipv6_hdr(skb));

	return INET_ECN_is_ce(dsfield);
}

/*
 * A CNP: the peer of a connected QP saw the QP's packets congested. Its
 * ICRC is checked here: nothing else reads the packet.
 */
static void rmp_recv_cnp(struct rmp_qp *qp, struct sk_buff *skb)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);
	int err;

	if (!rmp_qp_connected(qp) || !rmp_recv_from_peer(qp, skb)) {
		err = rmp_recv_icrc(skb, NULL);
		rmp_stats_inc(&dev->stats, err == -EBADMSG ?
			      RMP_CNT_RX_DROP_ICRC : RMP_CNT_RX_DROP_QP);
	} else if (rmp_recv_icrc(skb, NULL)) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_ICRC);
	} else {
		rmp_cc_cnp(qp);
	}
}

/* Hand one queued packet to the responder or the requester. */
static void rmp_recv_one(struct rmp_qp *qp, struct sk_buff *skb)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);
	unsigned int len = skb->len - sizeof(struct udphdr);
	const struct udphdr *uh = (const void *)skb->data;
	const struct rmp_opcode_info *info;
	const struct sk_buff *unchecked;
	struct rmp_hdr_fields f __uninitialized;
	struct rmp_payload pl;
	bool conn = rmp_qp_connected(qp), ce;
	u8 qpt;

	/* Checked in rmp_recv(); parsed again for the fields. */
	if (WARN_ON_ONCE(rmp_hdr_parse(&f, skb->data + sizeof(struct udphdr),
				       skb_headlen(skb) - sizeof(struct udphdr),
				       len, NULL)))
		return;
	info = rmp_opcode_info(f.bth.opcode);
	pl = (struct rmp_payload) {
		.skb = skb,
		.off = sizeof(struct udphdr) + f.hdr_len,
		.len = f.payload_len,
	};
	if (info->qpt == RMP_QPT_CNP) {
		rmp_recv_cnp(qp, skb);
		return;
	}

	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
		qpt = RMP_QPT_RC;
		break;
	case IB_QPT_UC:
		qpt = RMP_QPT_UC;
		break;
	default:
		qpt = RMP_QPT_UD;
		break;
	}
	/*
	 * Extension packets only for an RC QP that asked its peer or agreed
	 * with it: a SACK may come before the answer that says the peer
	 * agreed.
	 */
	if (info->qpt == RMP_QPT_EXT && qpt == RMP_QPT_RC &&
	    READ_ONCE(qp->ext) != RMP_EXT_NONE)
		qpt = RMP_QPT_EXT;
	if (info->qpt != qpt || (conn && !rmp_recv_from_peer(qp, skb)))
		goto drop;
	if ((info->flags & RMP_OPF_RESP) && !qp->requester.on)
		goto drop;
	ce = conn && rmp_recv_ce(skb);
	if (ce)
		rmp_cc_congested(qp, f.payload_len);
	/* RC checks the ICRC itself, with the payload's copy where it can. */
	unchecked = qpt == RMP_QPT_RC && !rmp_recv_looped(skb) ? skb : NULL;
	if (!unchecked && rmp_recv_icrc(skb, NULL)) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_ICRC);
		return;
	}
	switch (f.bth.opcode) {
	case RMP_OP_EXT_CREDIT_REQUEST:
		/* The grants it asks for go back its way too. */
		rmp_responder_arrived(qp, ntohs(uh->source));
		rmp_rcc_request(qp, f.bth.psn);
		return;
	case RMP_OP_EXT_GRANT:
		rmp_rcc_grant(qp, f.bth.psn);
		return;
	case RMP_OP_EXT_READ_REPORT:
		rmp_responder_read_report(qp, &f, &pl);
		return;
	}
	if (info->flags & RMP_OPF_REQ)
		rmp_rcc_data(qp, &f, ce);
	if (!conn)
		rmp_responder_ud(qp, skb, &f, &pl);
	else if (info->flags & RMP_OPF_RESP)
		rmp_requester_response(qp, &f, &pl, unchecked);
	else
		rmp_responder_request(qp, &f, &pl, unchecked,
				      ntohs(uh->source), ce);
	return;

drop:
	/* A corrupted packet counts as one, whatever the corruption hit. */
	rmp_stats_inc(&dev->stats, rmp_recv_icrc(skb, NULL) == -EBADMSG ?
				   RMP_CNT_RX_DROP_ICRC : RMP_CNT_RX_DROP_QP);
}

/* The next packet queued to the QP cuts its READ stream short. */
static bool rmp_recv_read_preempted(struct rmp_qp *qp)
{
	const struct rmp_bth *bth;
	struct sk_buff *skb;
	bool preempts = false;

	spin_lock_bh(&qp->rxq.lock);
	skb = skb_peek(&qp->rxq);
	if (skb) {
		bth = rmp_recv_bth(skb);
		preempts = rmp_resp_preempts_read(&qp->responder.resp,
						  rmp_bth_opcode(bth),
						  rmp_bth_psn(bth),
						  rmp_bth_spray(bth));
	}
	spin_unlock_bh(&qp->rxq.lock);
	return preempts;
}

/*
 * The next packet queued to the QP, if any; the usual empty queue is seen
 * without its lock. A packet queued after the look owes the QP a run
 * (rmp_qp_run_again() and the like), which the runs test again after
 * clearing the flag (see rmp_qp_try_run()).
 */
static struct sk_buff *rmp_recv_next(struct rmp_qp *qp)
{
	if (skb_queue_empty_lockless(&qp->rxq))
		return NULL;
	return skb_dequeue(&qp->rxq);
}

/**
 * rmp_recv_process() - take in the packets queued to a QP
 * @qp: the QP, its responder started; in a run of its transport
 * @atomic: the run is in atomic context: it stops at the first packet
 *	rmp_recv_takes_inline() leaves to the work item
 *
 * Return: true if packets are left for the work item: the budget ran out,
 * or in atomic context, a packet is not for it. A packet queued after the
 * queue was seen empty owes the QP a run of its own (see rmp_recv()).
 */
bool rmp_recv_process(struct rmp_qp *qp, bool atomic)
{
	u32 budget = atomic ? RMP_RECV_ATOMIC_BUDGET : RMP_RECV_BUDGET;
	struct sk_buff *skb;
	bool left = false;

	if (atomic && qp->responder.read_pending)
		return true;
	if (rmp_responder_resume(qp) && !rmp_recv_read_preempted(qp))
		return true;
	while ((skb = rmp_recv_next(qp))) {
		if (atomic && !rmp_recv_takes_inline(qp, skb)) {
			skb_queue_head(&qp->rxq, skb);
			left = true;
			break;
		}
		rmp_recv_one(qp, skb);
		consume_skb(skb);
		/* A failed request moved the QP to the error state. */
		if (rmp_qp_state(qp) == IB_QPS_ERR || !--budget) {
			left = !skb_queue_empty_lockless(&qp->rxq);
			break;
		}
		if (qp->responder.read_pending && !rmp_recv_read_preempted(qp))
			return true;
	}
	return left;
}

/**
 * rmp_recv_purge() - drop the packets queued to a QP
 * @qp: the QP, in a state that takes none
 */
void rmp_recv_purge(struct rmp_qp *qp)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&qp->rxq))) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_QP);
		kfree_skb(skb);
	}
}
