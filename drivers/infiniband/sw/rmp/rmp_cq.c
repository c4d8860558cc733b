// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: completion queues
 *
 * A CQ is a ring rmp produces into: &struct ib_uverbs_wc entries that the
 * process polls directly for a user CQ, &struct ib_wc entries that
 * rmp_poll_cq() hands out for a kernel one. Completions are posted by the
 * runs of the QPs' transport with rmp_cq_post(); a full ring loses the
 * completion, puts the CQ in error and raises IB_EVENT_CQ_ERR once.
 */
#include <rdma/ib_user_verbs.h>

#include <rdma/restrack.h>

#include "rmp_cq.h"
#include "rmp_dev.h"
#include "rmp_verbs.h"

static size_t rmp_cqe_size(bool user)
{
	return user ? sizeof(struct ib_uverbs_wc) : sizeof(struct ib_wc);
}

/*
 * A process reads wc_flags as libibverbs' enum ibv_wc_flags, which agrees
 * with enum ib_wc_flags on GRH and WITH_IMM only: its "with invalidate" is
 * bit 3 (bit 2 is IP_CSUM_OK there), and the kernel-only flags (network
 * header type, SMAC, VLAN) have no place in it.
 */
#define RMP_UWC_WITH_INV BIT(3)

static u32 rmp_wc_flags_to_user(int flags)
{
	u32 uflags = flags & (IB_WC_GRH | IB_WC_WITH_IMM);

	if (flags & IB_WC_WITH_INVALIDATE)
		uflags |= RMP_UWC_WITH_INV;
	return uflags;
}

static void rmp_cqe_to_user(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	*uwc = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = rmp_wc_flags_to_user(wc->wc_flags),
		.pkey_index = wc->pkey_index,
		.slid = ib_lid_cpu16(wc->slid),
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE)
		uwc->ex.invalidate_rkey = wc->ex.invalidate_rkey;
	else
		uwc->ex.imm_data = wc->ex.imm_data;
}

static void rmp_cq_overflow(struct rmp_cq *cq)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

/**
 * rmp_fill_res_cq_entry() - the ib_device_ops.fill_res_cq_entry callback
 * @msg: the netlink message of ``rdma -dd resource show cq``
 * @ibcq: the CQ
 *
 * Adds the completions waiting to be polled, and whether the CQ overflowed
 * (completions were lost and IB_EVENT_CQ_ERR raised).
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rmp_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq)
{
	struct rmp_cq *cq = to_rmp_cq(ibcq);
	struct nlattr *table;
	unsigned long flags;
	u32 queued;
	bool overflowed;

	spin_lock_irqsave(&cq->lock, flags);
	queued = rmp_queue_count(&cq->queue);
	overflowed = cq->overflowed;
	spin_unlock_irqrestore(&cq->lock, flags);

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "queued", queued) ||
	    rdma_nl_put_driver_u32(msg, "overflowed", overflowed)) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

/**
 * rmp_cq_post() - post a completion
 * @cq: the CQ
 * @wc: the completion in kernel form; @wc->qp must be set
 * @solicited: the completion is for a solicited event
 *
 * Calls the CQ's completion handler if a notification was armed and this
 * completion matches it. Must not be called with a lock the handler might
 * take; callable from any context.
 *
 * Return: 0, or -ENOSPC if the CQ was full (or already in error) and the
 * completion was lost.
 */
int rmp_cq_post(struct rmp_cq *cq, const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	bool notify, first_overflow = false;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->overflowed || rmp_queue_full(&cq->queue)) {
		first_overflow = !cq->overflowed;
		cq->overflowed = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first_overflow)
			rmp_cq_overflow(cq);
		return -ENOSPC;
	}
	slot = rmp_queue_producer_slot(&cq->queue);
	if (cq->user)
		rmp_cqe_to_user(slot, wc);
	else
		memcpy(slot, wc, sizeof(*wc));
	rmp_queue_produce(&cq->queue);
	notify = cq->notify == IB_CQ_NEXT_COMP ||
		 (cq->notify == IB_CQ_SOLICITED && solicited);
	if (notify)
		cq->notify = 0;
	spin_unlock_irqrestore(&cq->lock, flags);

	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

static int rmp_cq_check_size(int cqe)
{
	return cqe < 1 || cqe >= RMP_MAX_CQE ? -EINVAL : 0;
}

/**
 * rmp_create_cq() - ib_device_ops.create_cq: a CQ and its ring
 * @ibcq: allocated by ib_core; its cqe is set to the entries the ring holds,
 *	which may be more than asked for
 * @attr: entries (1 to %RMP_MAX_CQE - 1), completion vector, no flags
 * @udata: for a user CQ, whose response carries the ring's mmap offset and
 *	size; NULL for a kernel CQ
 *
 * Sleeps.
 *
 * Return: 0; -EOPNOTSUPP for creation flags; -EINVAL for a bad size or
 * vector or a user response too short; -ENOMEM when the device has
 * %RMP_MAX_CQ CQs or memory is short; -EFAULT if the response cannot be
 * copied out.
 */
int rmp_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibcq->device);
	struct rmp_cq *cq = to_rmp_cq(ibcq);
	struct rxe_create_cq_resp resp = {};
	u32 num = attr->cqe;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (rmp_cq_check_size(attr->cqe) ||
	    attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (atomic_inc_return(&dev->num_cqs) > RMP_MAX_CQ) {
		err = -ENOMEM;
		goto err_count;
	}

	spin_lock_init(&cq->lock);
	cq->user = !!udata;
	err = rmp_queue_init(&cq->queue, udata, RMP_QUEUE_RMP_PRODUCES, &num,
			     rmp_cqe_size(cq->user), &resp.mi);
	if (err)
		goto err_count;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_queue;
	}
	ibcq->cqe = num;
	return 0;

err_queue:
	rmp_queue_destroy(&cq->queue);
err_count:
	atomic_dec(&dev->num_cqs);
	return err;
}

/**
 * rmp_destroy_cq() - ib_device_ops.destroy_cq
 * @ibcq: the CQ; ib_core has made sure no QP uses it, and frees it
 * @udata: unused
 *
 * The ring is freed now, or when the process unmaps it for a user CQ.
 *
 * Return: 0.
 */
int rmp_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rmp_cq *cq = to_rmp_cq(ibcq);

	/* ib_core refuses while a QP uses the CQ, so nothing posts to it. */
	rmp_queue_destroy(&cq->queue);
	atomic_dec(&to_rmp_dev(ibcq->device)->num_cqs);
	return 0;
}

/**
 * rmp_resize_cq() - ib_device_ops.resize_cq: move a CQ into a new ring
 * @ibcq: the CQ
 * @cqe: entries wanted, 1 to %RMP_MAX_CQE - 1; @ibcq->cqe becomes what the
 *	new ring holds
 * @udata: for a user CQ, whose response carries the new ring's mmap offset
 *	and size; NULL for a kernel CQ
 *
 * The new ring is allocated first, so the CQ's lock is held only while the
 * waiting completions are copied across, in order. Sleeps.
 *
 * Return: 0; -EINVAL for a bad @cqe, a user response too short, or more
 * completions waiting than the new ring holds (the CQ is then unchanged);
 * -ENOMEM; -EFAULT if the response cannot be copied out.
 */
int rmp_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rmp_cq *cq = to_rmp_cq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct rmp_queue new;
	u32 num = cqe;
	int err;

	if (rmp_cq_check_size(cqe))
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	err = rmp_queue_resize_prepare(&new, &cq->queue, udata, &num,
				       &resp.mi);
	if (err)
		return err;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto out;
	}
	spin_lock_irq(&cq->lock);
	err = rmp_queue_resize_commit(&cq->queue, &new);
	if (!err)
		ibcq->cqe = num;
	spin_unlock_irq(&cq->lock);
out:
	rmp_queue_destroy(&new);
	return err;
}

/**
 * rmp_poll_cq() - ib_device_ops.poll_cq: take completions off a kernel CQ
 * @ibcq: a kernel CQ (a process polls its own ring)
 * @num_entries: room in @wc
 * @wc: where the completions go, oldest first
 *
 * Callable from any context.
 *
 * Return: the number of completions taken, 0 if the CQ was empty.
 */
int rmp_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct rmp_cq *cq = to_rmp_cq(ibcq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num_entries && !rmp_queue_empty(&cq->queue); n++) {
		memcpy(&wc[n], rmp_queue_consumer_slot(&cq->queue),
		       sizeof(*wc));
		rmp_queue_consume(&cq->queue);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * rmp_req_notify_cq() - ib_device_ops.req_notify_cq: arm a CQ's handler
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, maybe with
 *	IB_CQ_REPORT_MISSED_EVENTS
 *
 * The next completion that matches calls the CQ's completion handler once.
 * An armed IB_CQ_NEXT_COMP stays so if IB_CQ_SOLICITED is asked for.
 * Callable from any context.
 *
 * Return: 1 if IB_CQ_REPORT_MISSED_EVENTS was given and completions are
 * already waiting, else 0.
 */
int rmp_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rmp_cq *cq = to_rmp_cq(ibcq);
	unsigned long irqflags;
	int missed = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* NEXT_COMP covers SOLICITED: never narrow an armed request. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    !rmp_queue_empty(&cq->queue))
		missed = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}
