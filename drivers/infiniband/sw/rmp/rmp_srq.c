// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: shared receive queues
 *
 * An SRQ is a receive ring that several QPs take from, each from the runs
 * of its own transport, so its consumer side is under the SRQ's lock,
 * unlike a QP's receive queue. The limit event is raised by
 * rmp_wqe_take_recv(). Resizing moves the WQEs present into a new ring;
 * the provider holds its own lock over the verb, and the new ring's mmap
 * information is written to the address it passes in
 * &struct rxe_modify_srq_cmd.
 */
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <rdma/uverbs_ioctl.h>

#include "rmp_dev.h"
#include "rmp_srq.h"
#include "rmp_verbs.h"
#include "rmp_wqe.h"

static size_t rmp_srq_wqe_size(u32 max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

static bool rmp_srq_bad_max_wr(u32 max_wr)
{
	return !max_wr || max_wr >= RMP_MAX_SRQ_WR;
}

/**
 * rmp_create_srq() - ib_device_ops.create_srq: an SRQ and its ring
 * @ibsrq: allocated by ib_core
 * @init: a basic SRQ: WQEs (1 to %RMP_MAX_SRQ_WR - 1), scatter entries
 *	(up to %RMP_MAX_SGE) and a limit no larger than the WQEs, 0 for none;
 *	its max_wr is updated to what the ring holds, which may be more
 * @udata: for a user SRQ, whose response carries the ring's mmap offset
 *	and size and the SRQ's number; NULL for a kernel SRQ
 *
 * Sleeps.
 *
 * Return: 0; -EOPNOTSUPP for another SRQ type; -EINVAL for a size or limit
 * out of range, or a user request with nonzero input or a response too
 * short; -ENOMEM when no SRQ number is free or memory is short; -EFAULT if
 * the response cannot be copied out.
 */
int rmp_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibsrq->device);
	struct rmp_srq *srq = to_rmp_srq(ibsrq);
	struct rxe_create_srq_resp resp = {};
	u32 num = init->attr.max_wr;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (rmp_srq_bad_max_wr(num) || init->attr.max_sge > RMP_MAX_SGE ||
	    init->attr.srq_limit > num)
		return -EINVAL;
	if (udata && (udata->outlen < sizeof(resp) ||
		      !ib_is_udata_cleared(udata, 0, udata->inlen)))
		return -EINVAL;

	spin_lock_init(&srq->lock);
	srq->max_sge = init->attr.max_sge;
	srq->limit = init->attr.srq_limit;
	err = rmp_queue_init(&srq->queue, udata, RMP_QUEUE_RMP_CONSUMES, &num,
			     rmp_srq_wqe_size(srq->max_sge), &resp.mi);
	if (err)
		return err;
	err = xa_alloc_cyclic(&dev->srqs, &srq->srq_num, srq,
			      XA_LIMIT(1, RMP_MAX_SRQ), &dev->next_srq,
			      GFP_KERNEL);
	if (err < 0) {
		err = err == -EBUSY ? -ENOMEM : err;
		goto err_queue;
	}
	if (udata) {
		resp.srq_num = srq->srq_num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_xa;
	}
	init->attr.max_wr = num;
	return 0;

err_xa:
	xa_erase(&dev->srqs, srq->srq_num);
err_queue:
	rmp_queue_destroy(&srq->queue);
	return err;
}

static int rmp_srq_resize(struct rmp_srq *srq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct mminfo mi = {};
	struct rmp_queue new;
	u32 num = attr->max_wr;
	int err;

	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (err)
			return err;
	}
	err = rmp_queue_resize_prepare(&new, &srq->queue, udata, &num, &mi);
	if (err)
		return err;
	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		err = -EFAULT;
		goto out;
	}
	spin_lock_irq(&srq->lock);
	err = rmp_queue_resize_commit(&srq->queue, &new);
	if (!err && mask & IB_SRQ_LIMIT)
		srq->limit = attr->srq_limit;
	spin_unlock_irq(&srq->lock);
out:
	rmp_queue_destroy(&new);
	return err;
}

/**
 * rmp_modify_srq() - ib_device_ops.modify_srq: resize an SRQ or arm its limit
 * @ibsrq: the SRQ
 * @attr: the new max_wr and srq_limit
 * @mask: IB_SRQ_MAX_WR, IB_SRQ_LIMIT or both
 * @udata: for a user SRQ resized, the provider's command with the address
 *	the new ring's mmap information is written to; NULL from the kernel
 *
 * A limit, checked against the new size if there is one, arms
 * IB_EVENT_SRQ_LIMIT_REACHED (0 disarms it). A resize allocates the new ring
 * first and holds the SRQ's lock only while the WQEs present move across,
 * in order; its limit is taken only if the resize succeeds. Sleeps.
 *
 * Return: 0; -EINVAL for another mask bit, a size out of range, a limit
 * above the size, a user command too short, or more WQEs present than the
 * new ring holds (the SRQ is then unchanged); -EFAULT if the command cannot
 * be read or the mmap information written; -ENOMEM.
 */
int rmp_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rmp_srq *srq = to_rmp_srq(ibsrq);
	u32 max_wr = rmp_queue_capacity(&srq->queue);

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		if (rmp_srq_bad_max_wr(attr->max_wr))
			return -EINVAL;
		max_wr = attr->max_wr;
	}
	if (mask & IB_SRQ_LIMIT && attr->srq_limit > max_wr)
		return -EINVAL;

	if (mask & IB_SRQ_MAX_WR)
		return rmp_srq_resize(srq, attr, mask, udata);
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_irq(&srq->lock);
		srq->limit = attr->srq_limit;
		spin_unlock_irq(&srq->lock);
	}
	return 0;
}

/**
 * rmp_query_srq() - ib_device_ops.query_srq
 * @ibsrq: the SRQ
 * @attr: filled in with the WQEs the ring holds, the scatter entries a WQE
 *	may have and the armed limit (0 once it fired or if none was armed)
 *
 * Return: 0.
 */
int rmp_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rmp_srq *srq = to_rmp_srq(ibsrq);

	spin_lock_irq(&srq->lock);
	attr->max_wr = rmp_queue_capacity(&srq->queue);
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irq(&srq->lock);
	return 0;
}

/**
 * rmp_destroy_srq() - ib_device_ops.destroy_srq
 * @ibsrq: the SRQ; ib_core has made sure no QP uses it, and frees it
 * @udata: unused
 *
 * Gives up the SRQ's number and its ring (a mapped ring when the process
 * unmaps it).
 *
 * Return: 0.
 */
int rmp_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct rmp_srq *srq = to_rmp_srq(ibsrq);

	/* ib_core refuses while a QP uses the SRQ, so nothing takes from it. */
	xa_erase(&to_rmp_dev(ibsrq->device)->srqs, srq->srq_num);
	rmp_queue_destroy(&srq->queue);
	return 0;
}

/**
 * rmp_post_srq_recv() - ib_device_ops.post_srq_recv (kernel SRQs)
 * @ibsrq: the SRQ
 * @wr: the WRs to post
 * @bad_wr: set to the first WR not posted
 *
 * Callable from any context.
 *
 * Return: 0; -EINVAL for a WR with too many scatter entries or a total
 * length beyond 32 bits, or a user SRQ (whose process writes its ring
 * itself); -ENOMEM when the ring is full.
 */
int rmp_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rmp_srq *srq = to_rmp_srq(ibsrq);
	unsigned long flags;
	int err = 0;

	/* A process writes its SRQ's ring itself. */
	if (ibsrq->uobject) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		err = rmp_wqe_put_recv(&srq->queue, srq->max_sge, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}
