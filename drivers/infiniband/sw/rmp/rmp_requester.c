// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: requester
 *
 * The requester turns send WQEs into packets and responses into
 * completions. Every decision (PSNs, what to send next, retransmission,
 * what a response acknowledges, when a WQE is finished) is the engine's
 * (engine/req.c); this file moves the data and talks to the rest of the
 * kernel. Only the runs of the QP's transport execute it (see
 * "Concurrency" in Documentation/rmp/design.rst), so it takes no lock of
 * its own.
 *
 * A send WQE is taken from the ring straight into the slot the engine will
 * give it, and keeps its ring slot until it completes, in order. Payload is
 * gathered from the WQE's regions at the moment each packet is built, so a
 * retransmission sends the memory as it is then, as hardware does. A WQE
 * that fails a local check (invalid WQE, bad lkey, a UD message over the
 * MTU) is failed through the engine, which completes the WQEs before it
 * first and then moves the QP to the error state.
 *
 * The ICRC of a response is checked here. The READ response the engine
 * waits for (rmp_req_will_place(); with read spraying, any response of a
 * READ not received yet) is placed and checked in one pass; if the check
 * fails, the engine never sees it, and the response that replaces it
 * places the same bytes again before the WQE can complete.
 * Any other response is checked before the engine sees it.
 */
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "rmp_cq.h"
#include "rmp_dev.h"
#include "rmp_knob.h"
#include "rmp_mr.h"
#include "rmp_mw.h"
#include "rmp_net.h"
#include "rmp_payload.h"
#include "rmp_pkt.h"
#include "rmp_qp.h"
#include "rmp_recv.h"
#include "rmp_requester.h"

/* WQEs taken and packets sent by one run of the transport, at most. */
#define RMP_REQUESTER_BUDGET 64
/*
 * PSNs outstanding per QP, at most: several bandwidth-delay products of a
 * 100 Gb/s link with 1 KiB packets, and well below the 1000 packets a
 * Linux receiver queues per CPU before it drops (netdev_max_backlog), so
 * that one QP's burst (a window of READ responses included) fits.
 */
#define RMP_REQUESTER_WINDOW 256
/*
 * Multipath: a path with packets in flight and no delivery for this long
 * is dead; a dead path is probed this often. Well above the round trips of
 * a fabric, and of an emulated one, and short next to the 200 ms a
 * failover may take.
 */
#define RMP_REQUESTER_PATH_DEAD_NS	(50 * NSEC_PER_MSEC)
#define RMP_REQUESTER_PATH_PROBE_NS	(20 * NSEC_PER_MSEC)
#define RMP_REQUESTER_FLOWLET_GAP_NS	(50 * NSEC_PER_USEC)
/*
 * Read spraying: a READ response missing this long while others came is
 * asked for again. Above the reordering of a fabric's paths and the gaps
 * between a responder's batches of responses (a guest under TCG included),
 * short next to an ACK timeout.
 */
#define RMP_REQUESTER_READ_REORDER_NS	(4 * NSEC_PER_MSEC)

/*
 * RC request opcodes by send opcode and position in the message. UC's are
 * the same operations with the transport bits 001 (IBTA 9.2.1); UC has
 * neither READ, atomics nor SEND with invalidate.
 */
#define RMP_UC_OPCODE(rc) (RMP_OP_UC_SEND_FIRST | (rc))

static const u8 rmp_rc_opcode[][4] = {
	[IB_WR_SEND] = {
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY,
	},
	[IB_WR_SEND_WITH_IMM] = {
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST_IMM,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY_IMM,
	},
	[IB_WR_SEND_WITH_INV] = {
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST_INV,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY_INV,
	},
	[IB_WR_RDMA_WRITE] = {
		[RMP_REQ_FIRST] = RMP_OP_RC_WRITE_FIRST,
		[RMP_REQ_MIDDLE] = RMP_OP_RC_WRITE_MIDDLE,
		[RMP_REQ_LAST] = RMP_OP_RC_WRITE_LAST,
		[RMP_REQ_ONLY] = RMP_OP_RC_WRITE_ONLY,
	},
	[IB_WR_RDMA_WRITE_WITH_IMM] = {
		[RMP_REQ_FIRST] = RMP_OP_RC_WRITE_FIRST,
		[RMP_REQ_MIDDLE] = RMP_OP_RC_WRITE_MIDDLE,
		[RMP_REQ_LAST] = RMP_OP_RC_WRITE_LAST_IMM,
		[RMP_REQ_ONLY] = RMP_OP_RC_WRITE_ONLY_IMM,
	},
	[IB_WR_RDMA_READ] = {
		[RMP_REQ_ONLY] = RMP_OP_RC_READ_REQUEST,
	},
	[IB_WR_ATOMIC_CMP_AND_SWP] = {
		[RMP_REQ_ONLY] = RMP_OP_RC_COMPARE_SWAP,
	},
	[IB_WR_ATOMIC_FETCH_AND_ADD] = {
		[RMP_REQ_ONLY] = RMP_OP_RC_FETCH_ADD,
	},
	[RMP_UVERBS_WR_ATOMIC_WRITE] = {
		[RMP_REQ_ONLY] = RMP_OP_RC_ATOMIC_WRITE,
	},
};

static const u8 rmp_requester_wc_status[] = {
	[RMP_REQ_OK] = IB_WC_SUCCESS,
	[RMP_REQ_ERR_FLUSH] = IB_WC_WR_FLUSH_ERR,
	[RMP_REQ_ERR_RETRY_EXC] = IB_WC_RETRY_EXC_ERR,
	[RMP_REQ_ERR_RNR_RETRY_EXC] = IB_WC_RNR_RETRY_EXC_ERR,
	[RMP_REQ_ERR_REM_INV_REQ] = IB_WC_REM_INV_REQ_ERR,
	[RMP_REQ_ERR_REM_ACCESS] = IB_WC_REM_ACCESS_ERR,
	[RMP_REQ_ERR_REM_OP] = IB_WC_REM_OP_ERR,
	[RMP_REQ_ERR_REM_INV_RD_REQ] = IB_WC_REM_INV_RD_REQ_ERR,
	[RMP_REQ_ERR_BAD_RESP] = IB_WC_BAD_RESP_ERR,
};

static struct rmp_dev *rmp_qp_dev(const struct rmp_qp *qp)
{
	return to_rmp_dev(qp->ibqp.device);
}

/**
 * rmp_requester_alloc() - allocate a QP's requester
 * @qp: the QP, its send queue made
 *
 * Return: 0 or -ENOMEM.
 */
int rmp_requester_alloc(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;

	rq->nslots = roundup_pow_of_two(rmp_queue_capacity(&qp->sq.queue));
	rq->ring = kvcalloc(rq->nslots, sizeof(*rq->ring), GFP_KERNEL);
	rq->slots = kvcalloc(rq->nslots, sizeof(*rq->slots), GFP_KERNEL);
	if (!rq->ring || !rq->slots) {
		rmp_requester_free(qp);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rmp_requester_free() - free a QP's requester
 * @qp: the QP, its work item stopped
 */
void rmp_requester_free(struct rmp_qp *qp)
{
	kvfree(qp->requester.ring);
	kvfree(qp->requester.slots);
	kvfree(qp->requester.mp);
	rmp_cc_free(qp);
	qp->requester.ring = NULL;
	qp->requester.slots = NULL;
	qp->requester.mp = NULL;
}

/**
 * rmp_requester_paths_cfg() - the path set a QP sprays over
 * @qp: the RC QP
 * @sport: its UDP source port, path 0's
 * @cfg: filled in: ``paths`` and ``spray`` (the QP's or its device's,
 *	rmp_qp_knob()), entropy values drawn from the QPN, the periods
 *
 * The requester's, and the responder's for READ responses (read
 * spraying): both start with the same entropy values.
 */
void rmp_requester_paths_cfg(struct rmp_qp *qp, u16 sport,
			     struct rmp_paths_cfg *cfg)
{
	*cfg = (struct rmp_paths_cfg) {
		.npaths = rmp_qp_knob(qp, RMP_KNOB_PATHS),
		.spray = rmp_qp_knob(qp, RMP_KNOB_SPRAY),
		.sport = sport,
		.seed = qp->ibqp.qp_num,
		.dead_after_ns = RMP_REQUESTER_PATH_DEAD_NS,
		.probe_every_ns = RMP_REQUESTER_PATH_PROBE_NS,
		.flowlet_gap_ns = RMP_REQUESTER_FLOWLET_GAP_NS,
	};
}

/**
 * rmp_requester_multipath() - spray from now on, if ``paths`` says so
 * @qp: the RC QP, its requester started, its peer agreed to multipath;
 *	process context
 *
 * With ``paths`` above 1 (the QP's or its device's, rmp_qp_knob()), the
 * WRITEs not yet sent are sprayed over that many paths (see the
 * engine's requester), and with send spraying (%RMP_QP_SEND_SPRAY) the
 * SENDs too. With read spraying (%RMP_QP_READ_SPRAY), whatever
 * ``paths`` is, the READs not yet sent ask for their responses to
 * be sprayed and take them in any order, and with reports
 * (%RMP_QP_READ_REPORT) the responses received are reported. A run
 * calls it while the QP's %RMP_QP_MULTIPATH flag is set; once it has
 * done what the knobs ask, it does nothing until they change
 * (rmp_knob_epoch()).
 */
void rmp_requester_multipath(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;
	u32 epoch = rmp_knob_epoch();
	struct rmp_paths_cfg cfg;

	if (rq->mp_epoch == epoch || rq->req.state != RMP_REQ_RUN)
		return;
	if (!rq->req.rd_spray && test_bit(RMP_QP_READ_SPRAY, &qp->flags))
		rmp_req_read_spray(&rq->req, RMP_REQUESTER_READ_REORDER_NS);
	if (rq->req.rd_spray && !rq->req.rd_report &&
	    test_bit(RMP_QP_READ_REPORT, &qp->flags))
		rmp_req_read_reports(&rq->req);
	rmp_requester_paths_cfg(qp, rq->req.sport, &cfg);
	if (rq->req.paths || cfg.npaths < 2) {
		rq->mp_epoch = epoch;
		return;
	}
	if (!rq->mp) {
		rq->mp = kvzalloc(struct_size(rq->mp, rec,
					      RMP_REQUESTER_WINDOW),
				  GFP_KERNEL);
		if (!rq->mp)
			return;
	}
	if (rmp_paths_init(&rq->mp->paths, &cfg) ||
	    rmp_sb_init(&rq->mp->sb, rq->mp->rec, RMP_REQUESTER_WINDOW))
		return;
	rmp_stats_paths_start(&rq->mp->seen, &rq->mp->paths);
	rmp_req_multipath(&rq->req, &rq->mp->paths, &rq->mp->sb);
	if (test_bit(RMP_QP_SEND_SPRAY, &qp->flags))
		rmp_req_send_spray(&rq->req);
	rq->mp_epoch = epoch;
}

/**
 * rmp_requester_start() - start the requester from the QP's attributes
 * @qp: the QP, in RTS (or a later state) for the first time since RESET
 *
 * Return: 0, or an error of rmp_req_init() for attributes it refuses.
 */
int rmp_requester_start(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;
	const struct ib_qp_attr *a = &qp->attr;
	struct rmp_req_cfg cfg = {
		.lqpn = qp->ibqp.qp_num,
		.max_inflight = RMP_REQUESTER_WINDOW,
	};
	u32 sq_psn;
	int err;

	mutex_lock(&qp->lock);
	if (qp->ibqp.qp_type == IB_QPT_UC) {
		cfg.qpt = RMP_QPT_UC;
		cfg.mtu = ib_mtu_enum_to_int(a->path_mtu);
		cfg.flow_label = qp->av.flow_label;
		cfg.rqpn = a->dest_qp_num;
	} else if (qp->ibqp.qp_type == IB_QPT_RC) {
		cfg.qpt = RMP_QPT_RC;
		cfg.mtu = ib_mtu_enum_to_int(a->path_mtu);
		cfg.retry_cnt = a->retry_cnt;
		cfg.rnr_retry = a->rnr_retry;
		cfg.timeout = a->timeout;
		cfg.max_rd_atomic = a->max_rd_atomic;
		cfg.flow_label = qp->av.flow_label;
		cfg.rqpn = a->dest_qp_num;
	} else {
		cfg.qpt = RMP_QPT_UD;
		cfg.mtu = ib_mtu_enum_to_int(rmp_dev_active_mtu(rmp_qp_dev(qp)));
	}
	sq_psn = a->sq_psn;
	rq->dqpn = a->dest_qp_num;
	rq->qkey = a->qkey;
	mutex_unlock(&qp->lock);

	err = rmp_req_init(&rq->req, rq->ring, rq->nslots, &cfg, sq_psn) ?:
	      rmp_cc_start(qp);
	if (err)
		return err;
	rmp_rcc_asking(qp);
	memset(&rq->seen, 0, sizeof(rq->seen));
	rq->mp_epoch = 0;
	rq->on = true;
	return 0;
}

static int rmp_requester_post(struct rmp_requester *rq,
			      const struct rmp_send_wqe *wqe)
{
	u32 flags = wqe->wr.send_flags & IB_SEND_FENCE ? RMP_REQ_F_FENCE : 0;
	enum rmp_req_kind kind;

	if (wqe->wr.opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		flags |= RMP_REQ_F_IMM;

	switch (wqe->wr.opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		kind = RMP_REQ_SEND;
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		kind = RMP_REQ_WRITE;
		break;
	case IB_WR_RDMA_READ:
		kind = RMP_REQ_READ;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		kind = RMP_REQ_ATOMIC;
		break;
	case RMP_UVERBS_WR_ATOMIC_WRITE:
		kind = RMP_REQ_ATOMIC_WRITE;
		break;
	default:
		kind = RMP_REQ_LOCAL;
		break;
	}
	return rmp_req_post(&rq->req, kind, wqe->length, flags);
}

/*
 * Take new WQEs from the send queue into the engine. A WQE the engine
 * refuses (a UD message over the MTU, a READ or atomic on a QP without
 * max_rd_atomic) or that failed its checks when taken is posted as a LOCAL
 * WQE that fails when its turn comes, so that it completes in order.
 */
static bool rmp_requester_take(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;
	u32 budget = RMP_REQUESTER_BUDGET;
	struct rmp_send_slot *slot;
	int err;

	while (budget--) {
		slot = &rq->slots[rmp_req_next_slot(&rq->req)];
		err = rmp_wqe_take_send(qp, &slot->wqe);
		if (err == -ENOENT)
			return false;
		slot->wc_status = IB_WC_SUCCESS;
		if (!err && rmp_requester_post(rq, &slot->wqe) >= 0)
			continue;
		if (err)
			slot->wc_status = IB_WC_LOC_QP_OP_ERR;
		else if (!rmp_qp_connected(qp))
			slot->wc_status = IB_WC_LOC_LEN_ERR;
		else
			slot->wc_status = IB_WC_LOC_QP_OP_ERR;
		err = rmp_req_post(&rq->req, RMP_REQ_LOCAL, 0, 0);
		/* The engine's ring is as deep as the send queue. */
		if (WARN_ON_ONCE(err < 0))
			return false;
	}
	return true;
}

static void rmp_requester_fail(struct rmp_qp *qp, u32 slot, u8 wc_status)
{
	qp->requester.slots[slot].wc_status = wc_status;
	rmp_req_fail(&qp->requester.req, slot, RMP_REQ_ERR_LOCAL);
}

/* Execute a LOCAL WQE: memory registration, invalidation, window binding. */
static void rmp_requester_local(struct rmp_qp *qp, u32 slot)
{
	struct rmp_send_slot *s = &qp->requester.slots[slot];
	const struct rxe_send_wr *wr = &s->wqe.wr;
	struct rmp_dev *dev = rmp_qp_dev(qp);
	struct ib_pd *pd = qp->ibqp.pd;
	struct rmp_mw_bind_attr bind;
	u8 status = IB_WC_LOC_PROT_ERR;
	int err;

	if (s->wc_status != IB_WC_SUCCESS) {
		rmp_requester_fail(qp, slot, s->wc_status);
		return;
	}
	switch (wr->opcode) {
	case IB_WR_REG_MR:
		err = rmp_mr_fast_reg(to_rmp_mr(wr->wr.reg.mr), pd,
				      wr->wr.reg.key, wr->wr.reg.access);
		break;
	case IB_WR_LOCAL_INV:
		err = rmp_key_invalidate(dev, pd, qp->ibqp.qp_num,
					 wr->ex.invalidate_rkey, false);
		break;
	case IB_WR_BIND_MW:
		bind = (struct rmp_mw_bind_attr) {
			.mw_rkey = wr->wr.mw.mw_rkey,
			.new_rkey = wr->wr.mw.rkey,
			.mr_lkey = wr->wr.mw.mr_lkey,
			.addr = wr->wr.mw.addr,
			.length = wr->wr.mw.length,
			.access = wr->wr.mw.access,
		};
		err = rmp_mw_bind(dev, pd, qp->ibqp.qp_num, &bind);
		status = IB_WC_MW_BIND_ERR;
		break;
	default:
		err = -EINVAL;
		status = IB_WC_LOC_QP_OP_ERR;
		break;
	}
	if (err)
		rmp_requester_fail(qp, slot, status);
}

/*
 * Send spraying: the opcode of a piece of a SEND, or of a WRITE with
 * immediate data, whose pieces but the last are WRITE ONLYs; 0 for a
 * sprayed packet that is no such piece.
 */
static u8 rmp_requester_piece_opcode(const struct rmp_send_wqe *wqe,
				     const struct rmp_req_pkt *pkt)
{
	const struct rxe_send_wr *wr = &wqe->wr;

	if (wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		return pkt->offset + pkt->len == wqe->length ?
		       RMP_OP_EXT_WRITE_PIECE_LAST_IMM : RMP_OP_RC_WRITE_ONLY;
	if (pkt->kind != RMP_REQ_SEND)
		return 0;
	if (!(pkt->pos & RMP_REQ_LAST))
		return RMP_OP_EXT_SEND_PIECE;
	if (wr->opcode == IB_WR_SEND_WITH_IMM)
		return RMP_OP_EXT_SEND_PIECE_LAST_IMM;
	if (wr->opcode == IB_WR_SEND_WITH_INV)
		return RMP_OP_EXT_SEND_PIECE_LAST_INV;
	return RMP_OP_EXT_SEND_PIECE_LAST;
}

static void rmp_requester_headers(const struct rmp_qp *qp,
				  const struct rmp_req_pkt *pkt,
				  struct rmp_hdr_fields *f)
{
	const struct rmp_requester *rq = &qp->requester;
	const struct rmp_send_wqe *wqe = &rq->slots[pkt->slot].wqe;
	const struct rxe_send_wr *wr = &wqe->wr;
	u32 flags;

	memset(f, 0, sizeof(*f));
	f->bth.opcode = pkt->sprayed ? rmp_requester_piece_opcode(wqe, pkt) : 0;
	if (f->bth.opcode) {
		f->bth.qpn = rq->dqpn;
		f->speth.ssn = pkt->ssn;
		f->speth.offset = pkt->offset;
	} else if (rmp_qp_connected(qp)) {
		f->bth.opcode = rmp_rc_opcode[wr->opcode][pkt->pos];
		if (qp->ibqp.qp_type == IB_QPT_UC)
			f->bth.opcode = RMP_UC_OPCODE(f->bth.opcode);
		f->bth.qpn = rq->dqpn;
	} else {
		f->bth.opcode = wr->opcode == IB_WR_SEND_WITH_IMM ?
				RMP_OP_UD_SEND_ONLY_IMM : RMP_OP_UD_SEND_ONLY;
		f->bth.qpn = wr->wr.ud.remote_qpn;
		/* A Q_Key with the high bit set means "the QP's own". */
		f->deth.qkey = wr->wr.ud.remote_qkey & BIT(31) ?
			       rq->qkey : wr->wr.ud.remote_qkey;
		f->deth.sqpn = qp->ibqp.qp_num;
	}
	f->bth.pkey = RMP_PKEY_DEFAULT;
	f->bth.psn = pkt->psn;
	f->bth.ackreq = pkt->ackreq;
	f->bth.spray = pkt->spray;
	flags = rmp_opcode_info(f->bth.opcode)->flags;
	f->bth.se = (flags & RMP_OPF_LAST) &&
		    (flags & (RMP_OPF_SEND | RMP_OPF_IMMDT)) &&
		    (wr->send_flags & IB_SEND_SOLICITED);
	if (flags & RMP_OPF_RETH) {
		f->reth.va = wqe->iova + pkt->offset;
		f->reth.rkey = wr->wr.rdma.rkey;
		/* A sprayed WRITE packet's RETH names its own piece. */
		f->reth.len = pkt->kind == RMP_REQ_READ ||
			      pkt->pos == RMP_REQ_ONLY ? pkt->len :
							 wqe->length;
	}
	if (flags & RMP_OPF_ATMETH) {
		f->atmeth.va = wqe->iova;
		f->atmeth.rkey = wr->wr.atomic.rkey;
		if (wr->opcode == IB_WR_ATOMIC_CMP_AND_SWP) {
			f->atmeth.swap_add = wr->wr.atomic.swap;
			f->atmeth.compare = wr->wr.atomic.compare_add;
		} else {
			f->atmeth.swap_add = wr->wr.atomic.compare_add;
		}
	}
	if (flags & RMP_OPF_IMMDT)
		f->imm = wr->ex.imm_data;
	if (flags & RMP_OPF_IETH)
		f->ieth.rkey = wr->ex.invalidate_rkey;
}

/* Build and send one request packet. */
static void rmp_requester_send(struct rmp_qp *qp,
			       const struct rmp_req_pkt *pkt)
{
	const struct rmp_send_wqe *wqe = &qp->requester.slots[pkt->slot].wqe;
	struct rmp_dev *dev = rmp_qp_dev(qp);
	const struct rmp_flow *fl = &qp->flow;
	struct dst_cache *routes = &qp->routes;
	u16 sport = pkt->sport;
	u32 payload_crc = 0, *crc = &payload_crc;
	struct rmp_hdr_fields f __uninitialized;
	struct rmp_flow own_fl __uninitialized;
	struct rmp_pkt_src src;
	struct sk_buff *skb;
	u32 len = 0;

	if (pkt->kind == RMP_REQ_SEND || pkt->kind == RMP_REQ_WRITE ||
	    pkt->kind == RMP_REQ_ATOMIC_WRITE)
		len = pkt->len;
	if (rmp_qp_connected(qp)) {
		/* Looped back: no ICRC to take the payload's CRC for. */
		if (qp->peer_local)
			crc = NULL;
		/* Its route stays the QP's: the DSCP chooses none. */
		if (pkt->unsched && rmp_rcc_ahead_flow(qp, &own_fl))
			fl = &own_fl;
	} else {
		rmp_av_to_flow(&wqe->av, &own_fl);
		fl = &own_fl;
		routes = NULL;
		sport = rmp_req_udp_sport(wqe->av.flow_label, qp->ibqp.qp_num,
					  wqe->wr.wr.ud.remote_qpn);
	}
	rmp_requester_headers(qp, pkt, &f);
	src = (struct rmp_pkt_src) {
		.buf = wqe->num_sge ? NULL : wqe->inline_data,
		.pd = qp->ibqp.pd,
		.sge = wqe->sge,
		.num_sge = wqe->num_sge,
		.at = pkt->offset,
	};
	skb = rmp_pkt_new_from(dev, fl, &f, &src, len, crc);
	if (PTR_ERR(skb) == -ENOMEM) {
		/* Lost like a packet on the wire; RC sends it again. */
		rmp_stats_inc(&dev->stats, RMP_CNT_TX_DROP);
		return;
	}
	if (IS_ERR(skb)) {
		rmp_requester_fail(qp, pkt->slot, IB_WC_LOC_PROT_ERR);
		return;
	}
	rmp_net_xmit(dev, fl, routes, sport, skb, crc, &qp->deliveries);
}

static bool rmp_requester_xmit(struct rmp_qp *qp, u64 now)
{
	u32 budget = RMP_REQUESTER_BUDGET;
	struct rmp_req_pkt pkt;

	while (budget--) {
		if (rmp_req_next(&qp->requester.req, now, &pkt))
			return false;
		if (pkt.kind == RMP_REQ_LOCAL)
			rmp_requester_local(qp, pkt.slot);
		else
			rmp_requester_send(qp, &pkt);
	}
	return true;
}

/*
 * Complete finished WQEs in order and give their ring slots back. A slot is
 * given back before its completion is posted: a process that polls the
 * completion may post again at once, and must find the slot free.
 */
static void rmp_requester_complete(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;
	struct rmp_cq *cq = to_rmp_cq(qp->ibqp.send_cq);
	const struct rmp_send_slot *s;
	struct rmp_req_done done;
	struct ib_wc wc;

	while (!rmp_req_complete(&rq->req, &done)) {
		s = &rq->slots[done.slot];
		rmp_wqe_retire_send(qp);
		if (done.status != RMP_REQ_OK ||
		    s->wqe.wr.send_flags & IB_SEND_SIGNALED) {
			wc = (struct ib_wc) {
				.wr_id = s->wqe.wr.wr_id,
				.status = done.status == RMP_REQ_ERR_LOCAL ?
					  s->wc_status :
					  rmp_requester_wc_status[done.status],
				.opcode = rmp_wqe_wc_opcode(s->wqe.wr.opcode),
				.byte_len = s->wqe.length,
				.qp = &qp->ibqp,
				.port_num = 1,
			};
			rmp_cq_post(cq, &wc, false);
		}
	}
}

/*
 * Complete what is finished; a WQE that failed moves the QP to ERR first:
 * a process that polls it must find the QP there. Returns whether one did.
 */
static bool rmp_requester_finish(struct rmp_qp *qp)
{
	bool failed = qp->requester.req.state == RMP_REQ_ERROR;

	if (failed)
		rmp_qp_set_error(qp);
	rmp_requester_complete(qp);
	return failed;
}

/*
 * Multipath: count path deaths, revivals and replacements, and PSNs echoed
 * CE marked, since last time, and trace the changes seen (one per path
 * and run at most).
 */
static void rmp_requester_count_paths(struct rmp_qp *qp, struct rmp_stats *st)
{
	struct rmp_requester_mp *mp = qp->requester.mp;

	rmp_stats_paths(st, dev_name(&qp->ibqp.device->dev), qp->ibqp.qp_num,
			&mp->paths, &mp->seen);
	rmp_stats_add(st, RMP_CNT_RX_ECN_ECHOES,
		      mp->sb.stats.ecn_echoed - mp->seen_ecn_echoed);
	mp->seen_ecn_echoed = mp->sb.stats.ecn_echoed;
}

/* Add what the engine counted since last time to the device's counters. */
static void rmp_requester_count(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;
	const struct rmp_req_stats *s = &rq->req.stats;
	struct rmp_req_stats *seen = &rq->seen;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;

	rmp_stats_add(st, RMP_CNT_TX_RETRANSMITS, s->retrans - seen->retrans);
	rmp_stats_add(st, RMP_CNT_TX_ACKED, s->acked - seen->acked);
	rmp_stats_add(st, RMP_CNT_ACK_TIMEOUTS, s->timeouts - seen->timeouts);
	rmp_stats_add(st, RMP_CNT_RX_SEQ_NAKS, s->seq_naks - seen->seq_naks);
	rmp_stats_add(st, RMP_CNT_RX_RNR_NAKS, s->rnr_naks - seen->rnr_naks);
	rmp_stats_add(st, RMP_CNT_RX_STALE_RESPONSES,
		      s->dup_rsps + s->ghost_rsps + s->bad_rsps -
		      seen->dup_rsps - seen->ghost_rsps - seen->bad_rsps);
	rmp_stats_add(st, RMP_CNT_TX_SPRAYED, s->sprayed - seen->sprayed);
	rmp_stats_add(st, RMP_CNT_TX_SELECTIVE_RETRANSMITS,
		      s->sel_retrans - seen->sel_retrans);
	rmp_stats_add(st, RMP_CNT_RX_READ_OOO, s->rd_ooo - seen->rd_ooo);
	rmp_stats_add(st, RMP_CNT_TX_READ_REPAIRS,
		      s->rd_repairs - seen->rd_repairs);
	rmp_stats_add(st, RMP_CNT_TX_READ_REPORTS,
		      s->rd_reports - seen->rd_reports);
	*seen = *s;
	if (rq->req.paths)
		rmp_requester_count_paths(qp, st);
	rmp_cc_count(qp);
}

/*
 * Read spraying with reports: tell the responder which READ responses
 * came, when one is due (rmp_req_read_report()): the SACK block of the
 * window of responses, after a BTH of opcode %RMP_OP_EXT_READ_REPORT
 * whose PSN is the block's cumulative part.
 */
static void rmp_requester_report(struct rmp_qp *qp)
{
	struct rmp_dev *dev = rmp_qp_dev(qp);
	/* Every run looks: nothing is cleared unless a report is due. */
	u8 block[RMP_SACK_WIRE_MAX] __uninitialized;
	struct rmp_hdr_fields f __uninitialized;
	struct rmp_sack s __uninitialized;
	struct sk_buff *skb;
	void *payload;
	u16 sport;
	int len;

	if (rmp_req_read_report(&qp->requester.req, &s, &sport))
		return;
	len = rmp_sack_encode(&s, block, sizeof(block));
	if (WARN_ON_ONCE(len < 0))
		return;
	f = (struct rmp_hdr_fields) {
		.bth.opcode = RMP_OP_EXT_READ_REPORT,
		.bth.pkey = RMP_PKEY_DEFAULT,
		.bth.qpn = qp->requester.dqpn,
		.bth.psn = s.cum_ack,
	};
	skb = rmp_pkt_new(dev, &qp->flow, &f, len, &payload);
	if (!skb) {
		rmp_stats_inc(&dev->stats, RMP_CNT_TX_DROP);
		return;
	}
	memcpy(payload, block, len);
	rmp_net_xmit(dev, &qp->flow, &qp->routes, sport, skb, NULL,
		     &qp->deliveries);
}

/**
 * rmp_requester_run() - one round of the requester
 * @qp: the QP, its requester started
 * @take: take new WQEs from the send queue (not in SQD)
 * @send: take and transmit; false in a run in atomic context, which only
 *	acts on an expired timer and completes: the QP's transmissions stay
 *	with the work item and the doorbell
 *
 * Acts on an expired timer, takes WQEs, transmits what the engine allows,
 * completes what is finished, and moves the QP to the error state when a
 * WQE failed.
 *
 * Return: true if work is left for another run (without @send: if a WQE
 * taken has packets to transmit).
 */
bool rmp_requester_run(struct rmp_qp *qp, bool take, bool send)
{
	struct rmp_requester *rq = &qp->requester;
	u64 now = rq->answered_at ?: ktime_get_ns();
	u64 deadline = rmp_req_deadline(&rq->req);
	bool more = false, failed;

	rq->answered_at = 0;
	if (deadline && now >= deadline)
		rmp_req_timer(&rq->req, now);
	if (rq->req.rd_report)
		rmp_requester_report(qp);
	if (send) {
		if (take)
			more = rmp_requester_take(qp);
		more |= rmp_requester_xmit(qp, now);
		more |= rmp_rcc_ask(qp);
	} else {
		/* WQEs not yet taken come with a kick of their own. */
		more = rmp_req_unsent(&rq->req);
	}
	failed = rmp_requester_finish(qp);
	rmp_requester_count(qp);
	return more && !failed;
}

/* Place READ response data in the WQE's buffers. */
static int rmp_requester_place(struct rmp_qp *qp,
			       const struct rmp_req_rsp *rsp,
			       const struct rmp_payload *pl, u32 *crc)
{
	const struct rmp_send_wqe *wqe = &qp->requester.slots[rsp->slot].wqe;
	struct rmp_payload part = { pl->skb, pl->off, rsp->len };

	return rmp_payload_to_sgl(&part, rmp_qp_dev(qp), qp->ibqp.pd,
				  wqe->sge, wqe->num_sge, rsp->offset, crc);
}

/* Place an atomic's result, the word as it was, in the WQE's buffer. */
static int rmp_requester_place_orig(struct rmp_qp *qp,
				    const struct rmp_req_rsp *rsp, u64 orig)
{
	const struct rmp_send_wqe *wqe = &qp->requester.slots[rsp->slot].wqe;

	return rmp_mr_copy_sgl(rmp_qp_dev(qp), qp->ibqp.pd, wqe->sge,
			       wqe->num_sge, rsp->offset, &orig, sizeof(orig),
			       RMP_COPY_TO_MR, NULL);
}

/*
 * A SACK (multipath): its blocks decoded, SACK then ECN echo if it says
 * one follows, which must fill the payload exactly; then the engine's.
 * An echo is taken in only from a peer that agreed to ECN echo.
 */
static void rmp_requester_sack(struct rmp_qp *qp,
			       const struct rmp_hdr_fields *f,
			       const struct rmp_payload *pl)
{
	const u8 *payload = rmp_payload_linear(pl);
	struct rmp_requester *rq = &qp->requester;
	struct rmp_stats *st = &rmp_qp_dev(qp)->stats;
	struct rmp_ecn_echo ce __uninitialized;
	struct rmp_sack sack __uninitialized;
	int len, ce_len = 0;

	len = rmp_sack_decode(&sack, payload, f->payload_len);
	if (len >= 0 && sack.ecn)
		ce_len = rmp_ecn_echo_decode(&ce, payload + len,
					     f->payload_len - len);
	if (len < 0 || ce_len < 0 || len + ce_len != (int)f->payload_len) {
		rmp_stats_inc(st, RMP_CNT_RX_DROP_MALFORMED);
		return;
	}
	rmp_stats_inc(st, RMP_CNT_RX_SACKS);
	rmp_req_sack(&rq->req, rq->answered_at, f, &sack,
		     sack.ecn && test_bit(RMP_QP_ECN_ECHO, &qp->flags) ?
		     &ce : NULL);
}

/**
 * rmp_requester_response() - act on a response packet (RC)
 * @qp: the QP, its requester started
 * @f: the packet's headers
 * @pl: its payload
 * @unchecked: the packet, if its ICRC is still to be checked; else NULL
 *
 * READ response data and atomic results are placed in the WQE's buffers;
 * completions and further transmission follow in rmp_requester_run().
 */
void rmp_requester_response(struct rmp_qp *qp, const struct rmp_hdr_fields *f,
			    const struct rmp_payload *pl,
			    const struct sk_buff *unchecked)
{
	struct rmp_requester *rq = &qp->requester;
	u32 payload_crc = 0;
	struct rmp_req_rsp rsp;
	bool placed = false;
	int err = 0;

	if (unchecked) {
		placed = rmp_req_will_place(&rq->req, f, &rsp);
		if (placed)
			err = rmp_requester_place(qp, &rsp, pl, &payload_crc);
		/* Not all of the payload placed: its CRC is read apart. */
		if (rmp_recv_icrc(unchecked, placed && !err ? &payload_crc :
							      NULL)) {
			rmp_stats_inc(&rmp_qp_dev(qp)->stats,
				      RMP_CNT_RX_DROP_ICRC);
			return;
		}
	}
	if (!rq->answered_at)
		rq->answered_at = ktime_get_ns();
	if (f->bth.opcode == RMP_OP_EXT_SACK) {
		rmp_requester_sack(qp, f, pl);
	} else {
		rmp_req_ack(&rq->req, rq->answered_at, f, &rsp);
		if (WARN_ON_ONCE(placed && rsp.action != RMP_REQ_RSP_READ))
			return;
		if (rsp.action == RMP_REQ_RSP_READ && !placed)
			err = rmp_requester_place(qp, &rsp, pl, NULL);
		else if (rsp.action == RMP_REQ_RSP_ATOMIC)
			err = rmp_requester_place_orig(qp, &rsp,
						       f->atmack.orig);
		if (err)
			rmp_requester_fail(qp, rsp.slot, IB_WC_LOC_PROT_ERR);
	}
	/*
	 * Completions go out as the response that finishes them arrives,
	 * before a request arriving after it is handled: a send completes
	 * before the reply to it is received, as with a NIC (perftest's -e
	 * waits for one event, then polls one CQ, and loses count if a
	 * receive's event comes first).
	 */
	rmp_requester_finish(qp);
}

/**
 * rmp_requester_flush() - finish every WQE the requester holds
 * @qp: the QP, in ERR or SQE
 *
 * WQEs not yet finished complete with a flush error, all of them give
 * their ring slots back, and the requester stops: it starts afresh when the
 * QP next reaches RTS.
 */
void rmp_requester_flush(struct rmp_qp *qp)
{
	struct rmp_requester *rq = &qp->requester;

	if (!rq->on)
		return;
	rmp_req_flush(&rq->req);
	rmp_requester_complete(qp);
	rmp_requester_count(qp);
	rq->on = false;
}
