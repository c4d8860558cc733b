// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: work queue entries
 *
 * Send and receive queues hold WQEs in the Soft-RoCE user ABI layout
 * (&struct rxe_send_wqe, &struct rxe_recv_wqe, each followed by its
 * scatter/gather list or inline data). A process writes them into its
 * mapped rings itself; for kernel consumers rmp_post_send() and
 * rmp_post_recv() write the same layout, so the transport reads one kind of
 * ring.
 *
 * The transport never works on a WQE in the ring: rmp_wqe_take_send() and
 * rmp_wqe_take_recv() copy it into kernel memory (&struct rmp_send_wqe,
 * &struct rmp_recv_wqe) and validate the copy once: opcode allowed for the
 * QP type and for the poster (REG_MR only from the kernel, whose WQE carries
 * a kernel pointer), scatter/gather entries within the QP's capacity,
 * lengths summed without overflow, inline data within its capacity. A
 * process rewriting its ring afterwards changes nothing rmp uses.
 *
 * A taken send WQE keeps its ring slot until the transport retires it with
 * rmp_wqe_retire_send(), so the ring's depth bounds the WQEs outstanding. A
 * receive WQE is consumed when it is taken. A piece of a sprayed SEND that
 * arrives ahead of its turn names a receive WQE further down the queue,
 * which it is placed in but which is taken only when its SEND completes
 * (rmp_wqe_peek_recv()); on an SRQ the QP takes every WQE up to that one
 * and holds them (&struct rmp_recv_ahead), so no other QP of the SRQ takes
 * them meanwhile.
 */
#include <linux/bits.h>
#include <linux/slab.h>

#include "rmp_cq.h"
#include "rmp_dev.h"
#include "rmp_qp.h"
#include "rmp_srq.h"
#include "rmp_wqe.h"
#include "engine/hdr.h"

/* Largest message: the max_msg_sz reported by query_port. */
#define RMP_MAX_MSG_SIZE BIT_ULL(31)

#define RMP_SEND_FLAGS (IB_SEND_FENCE | IB_SEND_SIGNALED | \
			IB_SEND_SOLICITED | IB_SEND_INLINE)

enum {
	RMP_WR_RC = BIT(0),	/* allowed on an RC QP */
	RMP_WR_UD = BIT(1),	/* allowed on a UD or GSI QP */
	RMP_WR_KERNEL = BIT(2),	/* a kernel consumer may post it */
	RMP_WR_USER = BIT(3),	/* a process may post it */
	RMP_WR_INLINE = BIT(4),	/* may carry inline data */
	RMP_WR_ATOMIC = BIT(5),	/* one 8-byte local buffer, aligned target */
	RMP_WR_UC = BIT(6),	/* allowed on a UC QP */
	RMP_WR_WORD = BIT(7),	/* 8 bytes in the WQE, aligned target */
};

#define RMP_WR_ANY (RMP_WR_KERNEL | RMP_WR_USER)
/* UC has SEND and RDMA WRITE, each with immediate, and the local WRs. */
#define RMP_WR_CONN (RMP_WR_RC | RMP_WR_UC)

/**
 * struct rmp_wr_info - what rmp knows of a send opcode
 * @flags: RMP_WR_* bits
 * @wc_opcode: the opcode of its completion
 */
struct rmp_wr_info {
	u8 flags;
	u8 wc_opcode;
};

static const struct rmp_wr_info rmp_wr_table[] = {
	[IB_WR_RDMA_WRITE] = { RMP_WR_CONN | RMP_WR_ANY | RMP_WR_INLINE,
			       IB_WC_RDMA_WRITE },
	[IB_WR_RDMA_WRITE_WITH_IMM] = { RMP_WR_CONN | RMP_WR_ANY |
					RMP_WR_INLINE, IB_WC_RDMA_WRITE },
	[IB_WR_SEND] = { RMP_WR_CONN | RMP_WR_UD | RMP_WR_ANY | RMP_WR_INLINE,
			 IB_WC_SEND },
	[IB_WR_SEND_WITH_IMM] = { RMP_WR_CONN | RMP_WR_UD | RMP_WR_ANY |
				  RMP_WR_INLINE, IB_WC_SEND },
	[IB_WR_SEND_WITH_INV] = { RMP_WR_RC | RMP_WR_ANY | RMP_WR_INLINE,
				  IB_WC_SEND },
	[IB_WR_RDMA_READ] = { RMP_WR_RC | RMP_WR_ANY, IB_WC_RDMA_READ },
	[IB_WR_ATOMIC_CMP_AND_SWP] = { RMP_WR_RC | RMP_WR_ANY | RMP_WR_ATOMIC,
				       IB_WC_COMP_SWAP },
	[IB_WR_ATOMIC_FETCH_AND_ADD] = { RMP_WR_RC | RMP_WR_ANY |
					 RMP_WR_ATOMIC, IB_WC_FETCH_ADD },
	[IB_WR_LOCAL_INV] = { RMP_WR_CONN | RMP_WR_ANY, IB_WC_LOCAL_INV },
	[IB_WR_BIND_MW] = { RMP_WR_CONN | RMP_WR_USER, IB_WC_BIND_MW },
	[IB_WR_REG_MR] = { RMP_WR_CONN | RMP_WR_KERNEL, IB_WC_REG_MR },
	[RMP_UVERBS_WR_ATOMIC_WRITE] = { RMP_WR_RC | RMP_WR_USER | RMP_WR_WORD,
					 RMP_UVERBS_WC_ATOMIC_WRITE },
};

static const struct rmp_wr_info *rmp_wr_lookup(u32 opcode)
{
	if (opcode >= ARRAY_SIZE(rmp_wr_table) || !rmp_wr_table[opcode].flags)
		return NULL;
	return &rmp_wr_table[opcode];
}

/**
 * rmp_wqe_wc_opcode() - the completion opcode of a send opcode
 * @opcode: an IB_WR_* value (the user ABI uses the same numbers)
 *
 * Return: the IB_WC_* opcode, IB_WC_SEND for an unknown one.
 */
enum ib_wc_opcode rmp_wqe_wc_opcode(u32 opcode)
{
	const struct rmp_wr_info *info = rmp_wr_lookup(opcode);

	return info ? info->wc_opcode : IB_WC_SEND;
}

/*
 * The checks every send WQE passes, posted by the kernel or taken from a
 * process's ring. @num_sge is already known to be within the QP's capacity
 * unless the data is inline.
 */
static int rmp_wqe_check_send(const struct rmp_qp *qp, u32 opcode, u32 flags,
			      u32 num_sge, u64 length, u64 iova)
{
	const struct rmp_wr_info *info = rmp_wr_lookup(opcode);
	u8 type = qp->ibqp.qp_type == IB_QPT_RC ? RMP_WR_RC :
		  qp->ibqp.qp_type == IB_QPT_UC ? RMP_WR_UC : RMP_WR_UD;
	u8 poster = qp->user ? RMP_WR_USER : RMP_WR_KERNEL;

	if (!info || !(info->flags & type) || !(info->flags & poster))
		return -EINVAL;
	if (flags & ~RMP_SEND_FLAGS || length > RMP_MAX_MSG_SIZE)
		return -EINVAL;
	if (flags & IB_SEND_INLINE)
		return info->flags & RMP_WR_INLINE &&
		       length <= qp->sq.max_inline ? 0 : -EINVAL;
	if (info->flags & RMP_WR_ATOMIC &&
	    (num_sge != 1 || length < sizeof(u64) || iova % sizeof(u64)))
		return -EINVAL;
	if (info->flags & RMP_WR_WORD &&
	    (length != sizeof(u64) || iova % sizeof(u64)))
		return -EINVAL;
	return 0;
}

static u64 rmp_wr_iova(const struct ib_send_wr *wr)
{
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return rdma_wr(wr)->remote_addr;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return atomic_wr(wr)->remote_addr;
	default:
		return 0;
	}
}

/* The operation-specific part of a kernel send WR. */
static void rmp_wqe_fill_send(struct rmp_qp *qp, struct rxe_send_wqe *wqe,
			      const struct ib_send_wr *wr)
{
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wqe->wr.ex.imm_data = wr->ex.imm_data;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	default:
		break;
	}

	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
		break;
	case IB_WR_REG_MR:
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
		break;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		if (rmp_qp_connected(qp))
			break;
		wqe->wr.wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		wqe->wr.wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
		wqe->wr.wr.ud.pkey_index = ud_wr(wr)->pkey_index;
		wqe->wr.wr.ud.ah_num = to_rmp_ah(ud_wr(wr)->ah)->ah_num;
		break;
	default:
		break;
	}
}

/* Write a kernel WR's gather/scatter list and lengths into a ring WQE. */
static void rmp_wqe_fill_dma(struct rxe_dma_info *dma, const struct ib_sge *sg,
			     int num_sge, u64 length)
{
	int i;

	for (i = 0; i < num_sge; i++) {
		dma->sge[i].addr = sg[i].addr;
		dma->sge[i].length = sg[i].length;
		dma->sge[i].lkey = sg[i].lkey;
	}
	dma->length = length;
	dma->resid = length;
	dma->num_sge = num_sge;
}

/* Write one kernel send WR into the send ring; the caller holds sq.lock. */
static int rmp_post_one_send(struct rmp_qp *qp, const struct ib_send_wr *wr)
{
	struct rmp_queue *q = &qp->sq.queue;
	struct rxe_send_wqe *wqe;
	u64 length = 0;
	u8 *data;
	int i, err;

	if (wr->num_sge < 0 || wr->num_sge > qp->sq.max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		length += wr->sg_list[i].length;
	err = rmp_wqe_check_send(qp, wr->opcode, wr->send_flags, wr->num_sge,
				 length, rmp_wr_iova(wr));
	if (err)
		return err;
	if (!rmp_qp_connected(qp) &&
	    (!ud_wr(wr)->ah || ud_wr(wr)->ah->pd != qp->ibqp.pd))
		return -EINVAL;
	if (rmp_queue_full(q))
		return -ENOMEM;

	wqe = rmp_queue_producer_slot(q);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	rmp_wqe_fill_send(qp, wqe, wr);
	wqe->iova = rmp_wr_iova(wr);
	if (wr->send_flags & IB_SEND_INLINE) {
		data = wqe->dma.inline_data;
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			data += wr->sg_list[i].length;
		}
		wqe->dma.length = length;
		wqe->dma.resid = length;
		wqe->dma.num_sge = wr->num_sge;
	} else {
		rmp_wqe_fill_dma(&wqe->dma, wr->sg_list, wr->num_sge, length);
	}
	rmp_queue_produce(q);
	return 0;
}

/**
 * rmp_post_send() - the ib_device_ops.post_send callback
 * @ibqp: the QP
 * @wr: kernel: the WRs to post; user: NULL, the provider's doorbell after
 *	it wrote WQEs into the mapped ring
 * @bad_wr: set to the first WR not posted
 *
 * Return: 0, -EINVAL for a WR that is invalid or a QP state in which
 * nothing may be posted (RESET, INIT, RTR), -ENOMEM when the ring is full.
 */
int rmp_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rmp_qp *qp = to_rmp_qp(ibqp);
	enum ib_qp_state state = rmp_qp_state(qp);
	unsigned long flags;
	int err = 0;

	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR || (qp->user && wr)) {
		*bad_wr = wr;
		return -EINVAL;
	}
	if (qp->user) {
		/*
		 * The doorbell takes what the process posted and sends it,
		 * unless the QP's transport is running elsewhere: that run
		 * then goes again (Soft-RoCE's does the same).
		 */
		rmp_qp_kick(qp);
		return 0;
	}

	spin_lock_irqsave(&qp->sq.lock, flags);
	for (; wr; wr = wr->next) {
		err = rmp_post_one_send(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	rmp_qp_schedule(qp);
	return err;
}

/**
 * rmp_wqe_put_recv() - write one kernel receive WR into a receive ring
 * @q: a QP's receive ring or an SRQ's ring, whose lock the caller holds
 * @max_sge: scatter entries a WQE of @q may have
 * @wr: the WR (its next pointer is not followed)
 *
 * Return: 0, -EINVAL for too many scatter entries or a total length beyond
 * 32 bits, -ENOMEM when the ring is full.
 */
int rmp_wqe_put_recv(struct rmp_queue *q, u32 max_sge,
		     const struct ib_recv_wr *wr)
{
	struct rxe_recv_wqe *wqe;
	u64 length = 0;
	int i;

	if (wr->num_sge < 0 || wr->num_sge > max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		length += wr->sg_list[i].length;
	if (length > U32_MAX)
		return -EINVAL;
	if (rmp_queue_full(q))
		return -ENOMEM;

	wqe = rmp_queue_producer_slot(q);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	rmp_wqe_fill_dma(&wqe->dma, wr->sg_list, wr->num_sge, length);
	rmp_queue_produce(q);
	return 0;
}

/**
 * rmp_post_recv() - the ib_device_ops.post_recv callback (kernel QPs)
 * @ibqp: the QP
 * @wr: the WRs to post
 * @bad_wr: set to the first WR not posted
 *
 * Return: 0, -EINVAL for an invalid WR, a QP in RESET, a QP that uses an SRQ
 * or a user QP (whose process writes its ring itself), -ENOMEM when the ring
 * is full.
 */
int rmp_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rmp_qp *qp = to_rmp_qp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->user || qp->srq || rmp_qp_state(qp) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq.lock, flags);
	for (; wr; wr = wr->next) {
		err = rmp_wqe_put_recv(&qp->rq.queue, qp->rq.max_sge, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->rq.lock, flags);
	rmp_qp_schedule(qp);
	return err;
}

/**
 * rmp_wqe_take_send() - take the next send WQE into kernel memory
 * @qp: the QP; in a run of its transport only
 * @wqe: the copy
 *
 * The WQE's slot stays in use until rmp_wqe_retire_send(). On -EINVAL the
 * WQE is taken all the same and @wqe->wr holds its wr_id, opcode and flags,
 * for the completion with an error.
 *
 * Return: 0, -ENOENT if there is no WQE to take, -EINVAL if the WQE is
 * invalid (see "work queue entries" in rmp_wqe.c), or names an AH that is
 * not one of the QP's protection domain.
 */
int rmp_wqe_take_send(struct rmp_qp *qp, struct rmp_send_wqe *wqe)
{
	struct rmp_wq *sq = &qp->sq;
	const struct rxe_send_wqe *slot;
	u64 length = 0;
	u32 num_sge, i;
	int err;

	if (sq->next == rmp_queue_producer(&sq->queue))
		return -ENOENT;
	slot = rmp_queue_slot(&sq->queue, sq->next);
	sq->next = rmp_queue_next(&sq->queue, sq->next);

	memcpy(&wqe->wr, &slot->wr, sizeof(wqe->wr));
	if (qp->sig_all)
		wqe->wr.send_flags |= IB_SEND_SIGNALED;
	wqe->iova = READ_ONCE(slot->iova);
	wqe->length = 0;
	wqe->num_sge = 0;
	num_sge = READ_ONCE(slot->dma.num_sge);
	if (wqe->wr.opcode == RMP_UVERBS_WR_ATOMIC_WRITE) {
		length = READ_ONCE(slot->dma.length);
		memcpy(wqe->inline_data, slot->dma.inline_data, sizeof(u64));
		num_sge = 0;
	} else if (wqe->wr.send_flags & IB_SEND_INLINE) {
		length = READ_ONCE(slot->dma.length);
		if (length > sq->max_inline)
			return -EINVAL;
		memcpy(wqe->inline_data, slot->dma.inline_data, length);
		num_sge = 0;
	} else {
		if (num_sge > sq->max_sge)
			return -EINVAL;
		memcpy(wqe->sge, slot->dma.sge, num_sge * sizeof(wqe->sge[0]));
		for (i = 0; i < num_sge; i++)
			length += wqe->sge[i].length;
	}
	err = rmp_wqe_check_send(qp, wqe->wr.opcode, wqe->wr.send_flags,
				 num_sge, length, wqe->iova);
	if (err)
		return err;
	wqe->length = length;
	wqe->num_sge = num_sge;
	if (rmp_qp_connected(qp))
		return 0;
	return rmp_ah_lookup_av(to_rmp_dev(qp->ibqp.device),
				wqe->wr.wr.ud.ah_num, qp->ibqp.pd, &wqe->av);
}

/**
 * rmp_wqe_retire_send() - free the oldest taken send WQE's slot
 * @qp: the QP; in a run of its transport only, once the WQE is complete
 */
void rmp_wqe_retire_send(struct rmp_qp *qp)
{
	struct rmp_queue *q = &qp->sq.queue;

	if (WARN_ON_ONCE(rmp_queue_consumer(q) == qp->sq.next))
		return;
	rmp_queue_consume(q);
}

static int rmp_wqe_copy_recv(const struct rxe_recv_wqe *slot, u32 max_sge,
			     struct rmp_recv_wqe *wqe)
{
	u64 length = 0;
	u32 num_sge, i;

	wqe->wr_id = READ_ONCE(slot->wr_id);
	wqe->length = 0;
	wqe->num_sge = 0;
	num_sge = READ_ONCE(slot->dma.num_sge);
	if (num_sge > max_sge)
		return -EINVAL;
	memcpy(wqe->sge, slot->dma.sge, num_sge * sizeof(wqe->sge[0]));
	for (i = 0; i < num_sge; i++)
		length += wqe->sge[i].length;
	if (length > U32_MAX)
		return -EINVAL;
	wqe->length = length;
	wqe->num_sge = num_sge;
	return 0;
}

static void rmp_srq_limit_event(struct rmp_srq *srq)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

static int rmp_wqe_take_srq(struct rmp_srq *srq, struct rmp_recv_wqe *wqe)
{
	unsigned long flags;
	bool limit = false;
	int err;

	spin_lock_irqsave(&srq->lock, flags);
	if (rmp_queue_empty(&srq->queue)) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return -ENOENT;
	}
	err = rmp_wqe_copy_recv(rmp_queue_consumer_slot(&srq->queue),
				srq->max_sge, wqe);
	rmp_queue_consume(&srq->queue);
	if (srq->limit && rmp_queue_count(&srq->queue) < srq->limit) {
		srq->limit = 0;
		limit = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);

	if (limit)
		rmp_srq_limit_event(srq);
	return err;
}

/* Slot @i of the WQEs held ahead, counted from the oldest. */
static struct rmp_recv_wqe *rmp_ahead_slot(const struct rmp_recv_ahead *ah,
					   u32 i)
{
	return (void *)(ah->slots +
			(ah->first + i) % RMP_SPETH_MSGS * ah->stride);
}

/* Copy out the held WQE in slot @i: its header and its scatter entries. */
static int rmp_ahead_copy(const struct rmp_recv_ahead *ah, u32 i,
			  struct rmp_recv_wqe *wqe)
{
	const struct rmp_recv_wqe *held = rmp_ahead_slot(ah, i);

	memcpy(wqe, held, offsetof(struct rmp_recv_wqe, sge) +
			  held->num_sge * sizeof(held->sge[0]));
	return ah->bad & BIT_ULL((ah->first + i) % RMP_SPETH_MSGS) ? -EINVAL :
								   0;
}

/* Forget the oldest WQE held ahead. */
static void rmp_ahead_pop(struct rmp_recv_ahead *ah)
{
	ah->bad &= ~BIT_ULL(ah->first);
	ah->first = (ah->first + 1) % RMP_SPETH_MSGS;
	ah->count--;
}

/**
 * rmp_wqe_take_recv() - take the next receive WQE into kernel memory
 * @qp: the QP; in a run of its transport only
 * @wqe: the copy
 *
 * Takes from the QP's SRQ if it has one: the oldest WQE it holds ahead
 * if any, else the SRQ's next, and then raises IB_EVENT_SRQ_LIMIT_REACHED
 * if that leaves fewer WQEs than the armed limit. The WQE is consumed; on
 * -EINVAL @wqe->wr_id is valid, for the completion with an error.
 *
 * Return: 0, -ENOENT if there is none, -EINVAL if it has too many scatter
 * entries or a total length beyond 32 bits.
 */
int rmp_wqe_take_recv(struct rmp_qp *qp, struct rmp_recv_wqe *wqe)
{
	struct rmp_recv_ahead *ah = &qp->ahead;
	struct rmp_queue *q = &qp->rq.queue;
	int err;

	if (ah->count) {
		err = rmp_ahead_copy(ah, 0, wqe);
		rmp_ahead_pop(ah);
		return err;
	}
	if (qp->srq)
		return rmp_wqe_take_srq(qp->srq, wqe);
	if (rmp_queue_empty(q))
		return -ENOENT;
	err = rmp_wqe_copy_recv(rmp_queue_consumer_slot(q), qp->rq.max_sge,
				wqe);
	rmp_queue_consume(q);
	return err;
}

/*
 * Take WQEs from the QP's SRQ until it holds @idx + 1: the slot a WQE is
 * copied into has room for the SRQ's max_sge entries, all that
 * rmp_wqe_take_srq() copies.
 */
static int rmp_ahead_fill(struct rmp_qp *qp, u32 idx)
{
	struct rmp_recv_ahead *ah = &qp->ahead;
	u32 slot;
	int err;

	if (!ah->slots || idx >= RMP_SPETH_MSGS)
		return -ENOENT;
	while (ah->count <= idx) {
		err = rmp_wqe_take_srq(qp->srq, rmp_ahead_slot(ah, ah->count));
		if (err == -ENOENT)
			return err;
		slot = (ah->first + ah->count) % RMP_SPETH_MSGS;
		if (err)
			ah->bad |= BIT_ULL(slot);
		ah->count++;
	}
	return 0;
}

/**
 * rmp_wqe_peek_recv() - copy a receive WQE without taking it
 * @qp: the QP; in a run of its transport only
 * @idx: WQEs before it in the receive queue
 * @wqe: the copy, validated as rmp_wqe_take_recv() does
 *
 * For a piece of a sprayed SEND that arrives before its turn: the WQE is
 * taken when the SEND completes. A process that rewrites a posted WQE
 * meanwhile only moves its own data between its own buffers. A QP with an
 * SRQ takes the WQEs up to the one named from the SRQ now, at most
 * %RMP_SPETH_MSGS, and holds them until then (&struct rmp_recv_ahead).
 *
 * Return: 0, -ENOENT if fewer than @idx + 1 WQEs are posted, -EINVAL as
 * rmp_wqe_take_recv().
 */
int rmp_wqe_peek_recv(struct rmp_qp *qp, u32 idx, struct rmp_recv_wqe *wqe)
{
	struct rmp_queue *q = &qp->rq.queue;
	int err;

	if (qp->srq) {
		err = rmp_ahead_fill(qp, idx);
		return err ? err : rmp_ahead_copy(&qp->ahead, idx, wqe);
	}
	if (rmp_queue_count(q) <= idx)
		return -ENOENT;
	return rmp_wqe_copy_recv(rmp_queue_slot(q, rmp_queue_consumer(q) + idx),
				 qp->rq.max_sge, wqe);
}

/**
 * rmp_wqe_ahead_alloc() - make room for the WQEs an RC QP may take ahead
 * @qp: the QP being created, with an SRQ; process context
 *
 * %RMP_SPETH_MSGS slots of 16 bytes and 16 for each of the SRQ's scatter
 * entries.
 *
 * Return: 0 or -ENOMEM.
 */
int rmp_wqe_ahead_alloc(struct rmp_qp *qp)
{
	struct rmp_recv_ahead *ah = &qp->ahead;

	ah->stride = offsetof(struct rmp_recv_wqe, sge) +
		     qp->srq->max_sge * sizeof(struct rxe_sge);
	ah->slots = kvcalloc(RMP_SPETH_MSGS, ah->stride, GFP_KERNEL);
	return ah->slots ? 0 : -ENOMEM;
}

/**
 * rmp_wqe_ahead_free() - free what rmp_wqe_ahead_alloc() made room for
 * @qp: the QP, its work item stopped
 */
void rmp_wqe_ahead_free(struct rmp_qp *qp)
{
	kvfree(qp->ahead.slots);
	qp->ahead.slots = NULL;
	qp->ahead.count = 0;
}

/**
 * rmp_wqe_flush_send() - complete untaken send WQEs with a flush error
 * @qp: the QP, in ERR or SQE; in a run of its transport only, after the
 *	transport retired the WQEs it had taken
 *
 * Every WQE is completed, signalled or not. At most a ring's worth is done
 * per call, so that a process posting without pause cannot hold the worker.
 *
 * Return: true if WQEs are left.
 */
bool rmp_wqe_flush_send(struct rmp_qp *qp)
{
	struct rmp_wq *sq = &qp->sq;
	struct rmp_cq *cq = to_rmp_cq(qp->ibqp.send_cq);
	u32 budget = rmp_queue_capacity(&sq->queue);
	const struct rxe_send_wqe *slot;
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	if (WARN_ON_ONCE(sq->next != rmp_queue_consumer(&sq->queue)))
		return false;
	while (sq->next != rmp_queue_producer(&sq->queue)) {
		if (!budget--)
			return true;
		slot = rmp_queue_slot(&sq->queue, sq->next);
		wc.wr_id = READ_ONCE(slot->wr.wr_id);
		wc.opcode = rmp_wqe_wc_opcode(READ_ONCE(slot->wr.opcode));
		sq->next = rmp_queue_next(&sq->queue, sq->next);
		rmp_queue_consume(&sq->queue);
		rmp_cq_post(cq, &wc, false);
	}
	return false;
}

/**
 * rmp_wqe_flush_recv() - complete receive WQEs with a flush error
 * @qp: the QP, in ERR; in a run of its transport only
 *
 * A QP that receives from an SRQ flushes only the WQEs it took ahead of
 * their turn (&struct rmp_recv_ahead): the others stay in the SRQ for the
 * other QPs.
 *
 * Return: true if WQEs are left (see rmp_wqe_flush_send()).
 */
bool rmp_wqe_flush_recv(struct rmp_qp *qp)
{
	struct rmp_queue *q = &qp->rq.queue;
	struct rmp_cq *cq = to_rmp_cq(qp->ibqp.recv_cq);
	struct rmp_recv_ahead *ah = &qp->ahead;
	u32 budget;
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	while (ah->count) {
		wc.wr_id = rmp_ahead_slot(ah, 0)->wr_id;
		rmp_ahead_pop(ah);
		rmp_cq_post(cq, &wc, false);
	}
	if (qp->srq)
		return false;
	budget = rmp_queue_capacity(q);
	while (!rmp_queue_empty(q)) {
		if (!budget--)
			return true;
		wc.wr_id = READ_ONCE(((struct rxe_recv_wqe *)
				      rmp_queue_consumer_slot(q))->wr_id);
		rmp_queue_consume(q);
		rmp_cq_post(cq, &wc, false);
	}
	return false;
}

static void rmp_wqe_discard_ring(struct rmp_queue *q)
{
	u32 budget = rmp_queue_capacity(q);

	while (!rmp_queue_empty(q) && budget--)
		rmp_queue_consume(q);
}

/**
 * rmp_wqe_discard() - drop every WQE without completing it
 * @qp: the QP, in RESET; in a run of its transport only
 *
 * The WQEs the QP took ahead from its SRQ are lost with it, as one it was
 * receiving into is.
 */
void rmp_wqe_discard(struct rmp_qp *qp)
{
	rmp_wqe_discard_ring(&qp->sq.queue);
	qp->sq.next = rmp_queue_consumer(&qp->sq.queue);
	if (!qp->srq)
		rmp_wqe_discard_ring(&qp->rq.queue);
	qp->ahead.count = 0;
	qp->ahead.bad = 0;
}
