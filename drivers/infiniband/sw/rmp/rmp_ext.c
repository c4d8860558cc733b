// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: extension negotiation
 *
 * rmp speaks its transport extensions (multipath, receiver credits) only
 * with a peer QP that said it speaks them too; every other peer sees plain
 * RoCEv2, byte for byte. The question is a management datagram, the kind
 * of packet every RDMA device already takes on its QP1 (rdma_cm's
 * connection manager uses the same path): when an RC QP moves from RTR to
 * RTS with the device's ``ext`` knob at ``auto``, rmp sends a Get of
 * attribute %RMP_EXT_ATTR_QP, of its own vendor class %RMP_EXT_MGMT_CLASS,
 * to QP1 of the QP's peer address, naming both QPs.
 *
 * - Another rmp device answers with a Set of the same attribute: the
 *   extensions both QPs speak, or why not (its ``ext`` is off; no such QP
 *   connected to the asker). Answering "agreed" also tells the answering
 *   QP that its peer speaks them: whichever of the two asks last, both
 *   learn it. The answer is a request of its own, not a GetResp, because
 *   Linux's MAD layer matches a response to its request by the GIDs of a
 *   GRH, which RoCEv2 over IPv4 does not carry: it would drop the answer.
 * - A standard device's MAD layer answers an unknown class with a GetResp
 *   of status "unsupported method/attribute", or nothing answers: the QP
 *   stays plain RoCEv2 once the question, retried 8 times 200 ms apart
 *   (a lossy fabric may drop a few), has no answer (over IPv6 the
 *   GetResp ends it sooner).
 * - An rmp peer whose QP is not connected to the asker yet answers "no
 *   such QP": the question is asked again, as if unanswered, since that
 *   QP may reach RTR in the meantime (one that stays in RTR never asks
 *   itself).
 *
 * Answers are accepted only from the QP1 of the peer's own address, for
 * the QP pair asked about. With ``ext`` at ``on`` nothing is asked: every
 * RC peer is taken to be rmp. What a QP learned shows in ``rdma resource
 * show qp -dd`` (``ext``) and the device counters ``ext_asked``,
 * ``ext_agreed`` and ``ext_standard``. The extensions defined so far
 * are multipath (%RMP_EXT_CAP_MULTIPATH), the ECN echo in its SACKs
 * (%RMP_EXT_CAP_ECN_ECHO) and read spraying (%RMP_EXT_CAP_READ_SPRAY),
 * which count only with multipath, the reports of READ responses
 * (%RMP_EXT_CAP_READ_REPORT), which count only with read spraying, send
 * spraying (%RMP_EXT_CAP_SEND_SPRAY), which counts only with multipath,
 * and receiver credit (%RMP_EXT_CAP_CREDIT, offered by a QP whose ``cc``,
 * its own or its device's, is ``rcc``): a QP whose peer agreed to one
 * switches its transport to it (rmp_qp_multipath(), rmp_qp_credit()).
 */
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_qp.h"
#include "engine/hdr.h"

/* Locally administered (U/L bit set): no IEEE-assigned OUI equals it. */
static const u8 rmp_ext_oui[3] = { 0x02, 'r', 'm' };

#define RMP_EXT_TIMEOUT_MS	200
#define RMP_EXT_RETRIES		8

static const char *const rmp_ext_states[] = {
	[RMP_EXT_NONE] = "none",
	[RMP_EXT_ASKING] = "asking",
	[RMP_EXT_AGREED] = "agreed",
};

static atomic_t rmp_ext_tid;

/**
 * rmp_ext_state_name() - how ``rdma resource show`` names a QP's state
 * @state: &enum rmp_ext_state
 *
 * Return: "none", "asking" or "agreed".
 */
const char *rmp_ext_state_name(enum rmp_ext_state state)
{
	return rmp_ext_states[state];
}

static struct rmp_ext_msg *rmp_ext_msg_of(void *mad)
{
	return (struct rmp_ext_msg *)((struct ib_vendor_mad *)mad)->data;
}

/* A send buffer for one MAD of our class; @ah is the caller's. */
static struct ib_mad_send_buf *rmp_ext_mad(struct ib_mad_agent *agent,
					   struct ib_ah *ah, u32 remote_qpn,
					   u16 pkey_index)
{
	struct ib_mad_send_buf *msg;
	struct ib_vendor_mad *mad;

	msg = ib_create_send_mad(agent, remote_qpn, pkey_index, 0,
				 IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(msg))
		return msg;
	mad = msg->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = RMP_EXT_MGMT_CLASS;
	mad->mad_hdr.class_version = RMP_EXT_CLASS_VERSION;
	mad->mad_hdr.attr_id = cpu_to_be16(RMP_EXT_ATTR_QP);
	memcpy(mad->oui, rmp_ext_oui, sizeof(mad->oui));
	msg->ah = ah;
	return msg;
}

static void rmp_ext_free(struct ib_mad_send_buf *msg)
{
	rdma_destroy_ah(msg->ah, 0);
	ib_free_send_mad(msg);
}

/* The extensions a QP speaks: RMP_EXT_CAP_* bits. */
static u32 rmp_ext_caps(const struct rmp_qp *qp)
{
	return RMP_EXT_CAP_MULTIPATH | RMP_EXT_CAP_ECN_ECHO |
	       RMP_EXT_CAP_READ_SPRAY | RMP_EXT_CAP_READ_REPORT |
	       RMP_EXT_CAP_SEND_SPRAY |
	       (rmp_qp_knob(qp, RMP_KNOB_CC) == RMP_CC_RCC ?
		RMP_EXT_CAP_CREDIT : 0);
}

/*
 * The traffic class questions and answers leave with: control traffic,
 * like grants, that must neither wait behind data nor be lost to it.
 */
static u8 rmp_ext_tclass(const struct rmp_dev *dev)
{
	return rmp_knob_get(dev, RMP_KNOB_GRANT_DSCP) << 2;
}

/*
 * Record what @qp learned: the end of its question, or (@answering) its
 * peer's question; @caps are the extensions both speak, if they agreed.
 * Return whether the QP was still asking.
 */
static bool rmp_ext_learn(struct rmp_qp *qp, enum rmp_ext_state state,
			  bool answering, u32 caps)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);
	bool asking, agreed = false;

	mutex_lock(&qp->lock);
	asking = qp->ext == RMP_EXT_ASKING;
	if (answering || asking) {
		agreed = state == RMP_EXT_AGREED && qp->ext != state;
		WRITE_ONCE(qp->ext, state);
	}
	mutex_unlock(&qp->lock);
	if (agreed) {
		rmp_stats_inc(&dev->stats, RMP_CNT_EXT_AGREED);
		caps &= rmp_ext_caps(qp);
		if (caps & RMP_EXT_CAP_MULTIPATH)
			rmp_qp_multipath(qp, caps);
		if (caps & RMP_EXT_CAP_CREDIT)
			rmp_qp_credit(qp);
	}
	if (answering || asking)
		rmp_qp_ext_known(qp);
	return asking;
}

/* The question went unanswered, or a standard device answered it. */
static void rmp_ext_standard(struct rmp_qp *qp)
{
	if (rmp_ext_learn(qp, RMP_EXT_NONE, false, 0))
		rmp_stats_inc(&to_rmp_dev(qp->ibqp.device)->stats,
			      RMP_CNT_EXT_STANDARD);
}

/**
 * rmp_ext_ask() - ask the peer of an RC QP whether it speaks the extensions
 * @qp: the QP, just moved from RTR to RTS; process context
 *
 * Depending on the device's ``ext`` knob: nothing (off), the question
 * (auto), or the extensions taken as agreed (on). A question that cannot be
 * sent leaves the QP plain RoCEv2.
 */
void rmp_ext_ask(struct rmp_qp *qp)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);
	enum rmp_ext_mode mode = rmp_knob_get(dev, RMP_KNOB_EXT);
	struct ib_mad_send_buf *msg;
	struct rdma_ah_attr ah_attr;
	struct ib_mad_agent *agent;
	struct rmp_ext_msg *q;
	struct ib_ah *ah;
	u32 peer;

	if (qp->ibqp.qp_type != IB_QPT_RC || mode == RMP_EXT_OFF)
		return;
	mutex_lock(&qp->lock);
	/* The peer QP's own question may have told it already. */
	if (qp->ext == RMP_EXT_AGREED) {
		mutex_unlock(&qp->lock);
		return;
	}
	WRITE_ONCE(qp->ext, mode == RMP_EXT_ON ? RMP_EXT_AGREED :
						 RMP_EXT_ASKING);
	ah_attr = qp->attr.ah_attr;
	peer = qp->attr.dest_qp_num;
	mutex_unlock(&qp->lock);
	if (mode == RMP_EXT_ON) {
		/* The peer is taken to speak everything this rmp does. */
		rmp_qp_multipath(qp, rmp_ext_caps(qp));
		if (rmp_ext_caps(qp) & RMP_EXT_CAP_CREDIT)
			rmp_qp_credit(qp);
		rmp_qp_ext_known(qp);
		return;
	}
	ah_attr.grh.traffic_class = rmp_ext_tclass(dev);

	mutex_lock(&dev->ext_lock);
	agent = dev->ext_agent;
	if (!agent)
		goto fail;
	ah = rdma_create_ah(agent->qp->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah))
		goto fail;
	msg = rmp_ext_mad(agent, ah, 1, 0);
	if (IS_ERR(msg)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		goto fail;
	}
	((struct ib_mad_hdr *)msg->mad)->method = IB_MGMT_METHOD_GET;
	((struct ib_mad_hdr *)msg->mad)->tid =
		cpu_to_be64((u64)agent->hi_tid << 32 |
			    (u32)atomic_inc_return(&rmp_ext_tid));
	q = rmp_ext_msg_of(msg->mad);
	q->version = RMP_EXT_MSG_VERSION;
	q->asker_qpn = cpu_to_be32(qp->ibqp.qp_num);
	q->peer_qpn = cpu_to_be32(peer);
	q->caps = cpu_to_be32(rmp_ext_caps(qp));
	msg->timeout_ms = RMP_EXT_TIMEOUT_MS;
	msg->retries = RMP_EXT_RETRIES;
	/* By number: a QP destroyed meanwhile need not wait for the answer. */
	msg->context[0] = (void *)(uintptr_t)qp->ibqp.qp_num;
	if (ib_post_send_mad(msg, NULL)) {
		rmp_ext_free(msg);
		goto fail;
	}
	qp->ext_question = msg;
	mutex_unlock(&dev->ext_lock);
	rmp_stats_inc(&dev->stats, RMP_CNT_EXT_ASKED);
	return;

fail:
	mutex_unlock(&dev->ext_lock);
	rmp_ext_learn(qp, RMP_EXT_NONE, false, 0);
}

/* The source GID of a received MAD, from its network header. */
static int rmp_ext_source(const struct ib_mad_recv_wc *wc, union ib_gid *sgid)
{
	union ib_gid dgid;

	if (!(wc->wc->wc_flags & IB_WC_GRH))
		return -EINVAL;
	return ib_get_gids_from_rdma_hdr((union rdma_network_hdr *)
					 wc->recv_buf.grh,
					 wc->wc->network_hdr_type, sgid, &dgid);
}

/*
 * Whether @qp is the RC QP connected to QP @asker at @from: the QP pair
 * a question names. Takes @qp's lock.
 */
static bool rmp_ext_pair(struct rmp_qp *qp, u32 asker,
			 const union ib_gid *from)
{
	enum ib_qp_state state;
	bool ok;

	if (qp->ibqp.qp_type != IB_QPT_RC)
		return false;
	mutex_lock(&qp->lock);
	state = qp->attr.qp_state;
	ok = (state == IB_QPS_RTR || state == IB_QPS_RTS ||
	      state == IB_QPS_SQD) && qp->attr.dest_qp_num == asker &&
	     !memcmp(&qp->attr.ah_attr.grh.dgid, from, sizeof(*from));
	mutex_unlock(&qp->lock);
	return ok;
}

/* Answer a question; the QP asked about learns its peer agreed. */
static void rmp_ext_answer(struct ib_mad_agent *agent,
			   const struct ib_mad_recv_wc *wc,
			   const union ib_gid *from)
{
	struct rmp_dev *dev = agent->context;
	const struct ib_vendor_mad *req = (void *)wc->recv_buf.mad;
	const struct rmp_ext_msg *q = rmp_ext_msg_of((void *)req);
	struct rdma_ah_attr ah_attr;
	u8 status = RMP_EXT_ST_NO_QP;
	struct ib_mad_send_buf *msg;
	u32 caps = 0;
	struct rmp_ext_msg *a;
	struct rmp_qp *qp;
	struct ib_ah *ah;
	u32 asker = be32_to_cpu(q->asker_qpn) & RMP_BTH_QPN_MASK;

	qp = rmp_qp_get(dev, be32_to_cpu(q->peer_qpn) & RMP_BTH_QPN_MASK);
	if (rmp_knob_get(dev, RMP_KNOB_EXT) == RMP_EXT_OFF)
		status = RMP_EXT_ST_REFUSED;
	else if (qp && rmp_ext_pair(qp, asker, from))
		status = RMP_EXT_ST_AGREED;
	if (status == RMP_EXT_ST_AGREED) {
		rmp_ext_learn(qp, RMP_EXT_AGREED, true,
			      be32_to_cpu(q->caps));
		caps = be32_to_cpu(q->caps) & rmp_ext_caps(qp);
	}
	if (qp)
		rmp_qp_put(qp);

	if (ib_init_ah_attr_from_wc(agent->device, agent->port_num, wc->wc,
				    wc->recv_buf.grh, &ah_attr))
		return;
	ah_attr.grh.traffic_class = rmp_ext_tclass(dev);
	ah = rdma_create_ah(agent->qp->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&ah_attr);
	if (IS_ERR(ah))
		return;
	msg = rmp_ext_mad(agent, ah, wc->wc->src_qp, wc->wc->pkey_index);
	if (IS_ERR(msg)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return;
	}
	((struct ib_mad_hdr *)msg->mad)->method = IB_MGMT_METHOD_SET;
	((struct ib_mad_hdr *)msg->mad)->tid = req->mad_hdr.tid;
	a = rmp_ext_msg_of(msg->mad);
	a->version = RMP_EXT_MSG_VERSION;
	a->status = status;
	a->asker_qpn = q->asker_qpn;
	a->peer_qpn = q->peer_qpn;
	if (status == RMP_EXT_ST_AGREED)
		a->caps = cpu_to_be32(caps);
	if (ib_post_send_mad(msg, NULL))
		rmp_ext_free(msg);
}

/*
 * An answer to a question of ours: the QP learns the outcome, and its
 * question, if still out, is called off.
 */
static void rmp_ext_answered(struct ib_mad_agent *agent,
			     const struct ib_mad_recv_wc *wc,
			     const union ib_gid *from)
{
	struct rmp_dev *dev = agent->context;
	const struct rmp_ext_msg *a = rmp_ext_msg_of(wc->recv_buf.mad);
	struct rmp_qp *qp;
	bool agreed;

	qp = rmp_qp_get(dev, be32_to_cpu(a->asker_qpn) & RMP_BTH_QPN_MASK);
	if (!qp)
		return;
	/* Only the peer QP, from its address, speaks for it. */
	if (!rmp_ext_pair(qp, be32_to_cpu(a->peer_qpn), from)) {
		rmp_qp_put(qp);
		return;
	}
	/*
	 * Not connected yet: the peer QP may reach RTR before the question's
	 * retries run out, or ask itself.
	 */
	if (a->version == RMP_EXT_MSG_VERSION &&
	    a->status == RMP_EXT_ST_NO_QP) {
		rmp_qp_put(qp);
		return;
	}
	agreed = a->version == RMP_EXT_MSG_VERSION &&
		 a->status == RMP_EXT_ST_AGREED;
	rmp_ext_learn(qp, agreed ? RMP_EXT_AGREED : RMP_EXT_NONE, false,
		      be32_to_cpu(a->caps));
	mutex_lock(&dev->ext_lock);
	if (qp->ext_question)
		ib_cancel_mad(qp->ext_question);
	mutex_unlock(&dev->ext_lock);
	rmp_qp_put(qp);
}

/* The QP that sent the question @msg, referenced; NULL if gone. */
static struct rmp_qp *rmp_ext_asker(struct ib_mad_agent *agent,
				    const struct ib_mad_send_buf *msg)
{
	return rmp_qp_get(agent->context, (uintptr_t)msg->context[0]);
}

static void rmp_ext_recv(struct ib_mad_agent *agent,
			 struct ib_mad_send_buf *send_buf,
			 struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	struct rmp_qp *qp;
	union ib_gid from;

	if (hdr->attr_id != cpu_to_be16(RMP_EXT_ATTR_QP) ||
	    rmp_ext_source(wc, &from)) {
		ib_free_recv_mad(wc);
		return;
	}
	if (hdr->method == IB_MGMT_METHOD_GET) {
		rmp_ext_answer(agent, wc, &from);
	} else if (hdr->method == IB_MGMT_METHOD_SET) {
		rmp_ext_answered(agent, wc, &from);
	} else if (send_buf && hdr->status) {
		/* A GetResp from a standard device ("unsupported"). */
		qp = rmp_ext_asker(agent, send_buf);
		if (qp) {
			rmp_ext_standard(qp);
			rmp_qp_put(qp);
		}
	}
	ib_free_recv_mad(wc);
}

static void rmp_ext_sent(struct ib_mad_agent *agent,
			 struct ib_mad_send_wc *wc)
{
	struct rmp_dev *dev = agent->context;
	struct rmp_qp *qp = NULL;

	if (wc->send_buf->context[0])
		qp = rmp_ext_asker(agent, wc->send_buf);
	if (qp) {
		mutex_lock(&dev->ext_lock);
		if (qp->ext_question == wc->send_buf)
			qp->ext_question = NULL;
		mutex_unlock(&dev->ext_lock);
		/* Unanswered after the retries: not an rmp peer. */
		rmp_ext_standard(qp);
		rmp_qp_put(qp);
	}
	rmp_ext_free(wc->send_buf);
}

static int rmp_ext_add(struct ib_device *ibdev)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = RMP_EXT_MGMT_CLASS,
		.mgmt_class_version = RMP_EXT_CLASS_VERSION,
	};
	struct ib_mad_agent *agent;
	struct rmp_dev *dev;

	/* ib_core offers every device; an error means "not mine". */
	if (ibdev->ops.dealloc_driver != rmp_dev_dealloc)
		return -EOPNOTSUPP;
	dev = to_rmp_dev(ibdev);
	memcpy(req.oui, rmp_ext_oui, sizeof(req.oui));
	set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	agent = ib_register_mad_agent(ibdev, 1, IB_QPT_GSI, &req, 0,
				      rmp_ext_sent, rmp_ext_recv, dev, 0);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	mutex_lock(&dev->ext_lock);
	dev->ext_agent = agent;
	mutex_unlock(&dev->ext_lock);
	return 0;
}

static void rmp_ext_remove(struct ib_device *ibdev, void *client_data)
{
	struct rmp_dev *dev = to_rmp_dev(ibdev);
	struct ib_mad_agent *agent;

	mutex_lock(&dev->ext_lock);
	agent = dev->ext_agent;
	dev->ext_agent = NULL;
	mutex_unlock(&dev->ext_lock);
	if (agent)
		ib_unregister_mad_agent(agent);
}

static struct ib_client rmp_ext_client = {
	.name = "rmp_ext",
	.add = rmp_ext_add,
	.remove = rmp_ext_remove,
};

/**
 * rmp_ext_register() - take part in the negotiation on every rmp device
 *
 * Registers an ib_core client whose add callback opens the MAD agent of
 * each rmp device as it registers, after ib_core's MAD layer; removal runs
 * before the MAD layer's.
 *
 * Return: 0 or an error of ib_register_client().
 */
int rmp_ext_register(void)
{
	return ib_register_client(&rmp_ext_client);
}

/**
 * rmp_ext_unregister() - close every rmp device's MAD agent
 */
void rmp_ext_unregister(void)
{
	ib_unregister_client(&rmp_ext_client);
}
