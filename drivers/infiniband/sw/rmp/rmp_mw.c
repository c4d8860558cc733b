// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: memory windows
 *
 * A window is allocated unbound, with its own index in the key space that
 * memory regions use. A BIND_MW work request (ibv_bind_mw() for type 1,
 * ibv_post_send() for type 2; the Soft-RoCE ABI carries both the same way)
 * binds it to a range of a region and gives it the rkey the request names,
 * which must keep the window's index. Rules rmp enforces:
 *
 * - the QP, the window and the region are in one PD;
 * - the region is valid, was registered with IB_ACCESS_MW_BIND and contains
 *   the range; remote write or atomic through the window needs local write
 *   on the region;
 * - the window grants only remote read, write and atomic (zero-based
 *   windows are not supported);
 * - a type 2 window must be unbound to be bound, and is then tied to the
 *   binding QP: only requests arriving on that QP may use it, and only that
 *   QP's SEND with invalidate or a local invalidate in its PD unbinds it;
 * - a type 1 window may be rebound at any time; a zero-length bind unbinds
 *   it. A zero-length bind of a type 2 window binds it to nothing.
 *
 * A region counts its bound windows and cannot be deregistered or
 * invalidated while any is bound. Deallocating a window unbinds it.
 */
#include <linux/rcupdate.h>

#include "rmp_dev.h"
#include "rmp_mr.h"
#include "rmp_mw.h"
#include "rmp_verbs.h"

#define RMP_MW_ACCESS (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
		       IB_ACCESS_REMOTE_ATOMIC)

/* Detaches @mw from its region; @mw->lock held. */
static void rmp_mw_unbind(struct rmp_mw *mw)
{
	struct rmp_mr *mr = mw->mr;

	if (mr) {
		spin_lock(&mr->lock);
		mr->num_mw--;
		spin_unlock(&mr->lock);
	}
	mw->mr = NULL;
	mw->bound = false;
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
}

/**
 * rmp_alloc_mw() - ib_device_ops.alloc_mw
 * @ibmw: window allocated by ib_core, with its type and PD set
 * @udata: unused
 *
 * Return: 0, -EINVAL for a type other than 1 or 2, or -ENOMEM.
 */
int rmp_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibmw->device);
	struct rmp_mw *mw = to_rmp_mw(ibmw);
	unsigned long flags;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	if (atomic_inc_return(&dev->num_mws) > RMP_MAX_MW) {
		atomic_dec(&dev->num_mws);
		return -ENOMEM;
	}
	spin_lock_init(&mw->lock);
	err = rmp_key_add(dev, &mw->kobj, RMP_KEY_MW);
	if (err) {
		atomic_dec(&dev->num_mws);
		return err;
	}
	spin_lock_irqsave(&mw->lock, flags);
	mw->key = rmp_key_make(mw->kobj.index);
	spin_unlock_irqrestore(&mw->lock, flags);
	ibmw->rkey = mw->key;
	return 0;
}

/**
 * rmp_dealloc_mw() - ib_device_ops.dealloc_mw
 * @ibmw: window
 *
 * Unbinds the window once no datapath user holds it. ib_core frees @ibmw
 * when this returns, so this also waits out an RCU grace period.
 *
 * Return: 0.
 */
int rmp_dealloc_mw(struct ib_mw *ibmw)
{
	struct rmp_dev *dev = to_rmp_dev(ibmw->device);
	struct rmp_mw *mw = to_rmp_mw(ibmw);
	unsigned long flags;

	rmp_key_remove(dev, &mw->kobj);
	synchronize_rcu();
	spin_lock_irqsave(&mw->lock, flags);
	rmp_mw_unbind(mw);
	spin_unlock_irqrestore(&mw->lock, flags);
	atomic_dec(&dev->num_mws);
	return 0;
}

/**
 * rmp_mw_resolve() - check a remote access through a window
 * @mw: referenced window
 * @pd: protection domain of the responder QP
 * @qpn: number of the responder QP
 * @rkey: rkey from the request
 * @va: first address accessed
 * @len: bytes accessed
 * @access: IB_ACCESS_REMOTE_* the access needs
 *
 * Called by rmp_mr_lookup_rkey(), whose return convention this follows.
 *
 * Return: the region @mw is bound to, with a reference, or an ERR_PTR:
 * -EINVAL if @mw is unbound or @rkey stale, -EACCES for the wrong PD or QP
 * or missing access, -ERANGE outside the window.
 */
struct rmp_mr *rmp_mw_resolve(struct rmp_mw *mw, struct ib_pd *pd, u32 qpn,
			      u32 rkey, u64 va, u64 len, int access)
{
	struct rmp_mr *mr = NULL;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&mw->lock, flags);
	if (!mw->bound || mw->key != rkey)
		err = -EINVAL;
	else if (mw->ibmw.pd != pd ||
		 (mw->ibmw.type == IB_MW_TYPE_2 && mw->qpn != qpn))
		err = -EACCES;
	else if ((mw->access & access) != access)
		err = -EACCES;
	else if (!mw->mr || !rmp_range_ok(mw->addr, mw->length, va, len))
		err = -ERANGE;
	else
		mr = mw->mr;
	if (mr)
		rmp_mr_get(mr);
	spin_unlock_irqrestore(&mw->lock, flags);
	return err ? ERR_PTR(err) : mr;
}

/**
 * rmp_mw_invalidate() - invalidate a type 2 window
 * @mw: referenced window
 * @pd: protection domain of the QP
 * @qpn: number of the QP
 * @key: key to invalidate
 * @remote: from a SEND with invalidate received on QP @qpn
 *
 * Called by rmp_key_invalidate(), whose rules and return values apply.
 *
 * Return: 0 or a negative errno.
 */
int rmp_mw_invalidate(struct rmp_mw *mw, struct ib_pd *pd, u32 qpn, u32 key,
		      bool remote)
{
	unsigned long flags;
	int err = 0;

	if (mw->ibmw.type != IB_MW_TYPE_2)
		return -EINVAL;
	spin_lock_irqsave(&mw->lock, flags);
	if (!mw->bound || mw->key != key)
		err = -EINVAL;
	else if (mw->ibmw.pd != pd || (remote && mw->qpn != qpn))
		err = -EACCES;
	else
		rmp_mw_unbind(mw);
	spin_unlock_irqrestore(&mw->lock, flags);
	return err;
}

/* @mw->lock held; @mr referenced, or NULL for a zero-length bind. */
static int rmp_mw_bind_locked(struct rmp_mw *mw, struct rmp_mr *mr, u32 qpn,
			      const struct rmp_mw_bind_attr *attr)
{
	bool type2 = mw->ibmw.type == IB_MW_TYPE_2;
	int err = 0;

	if (mw->key != attr->mw_rkey || (type2 && mw->bound))
		return -EINVAL;
	if (mr) {
		spin_lock(&mr->lock);
		if (mr->dying || !mr->valid)
			err = -EINVAL;
		else if (attr->access &
			 (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC) &&
			 !(mr->access & IB_ACCESS_LOCAL_WRITE))
			err = -EACCES;
		else
			mr->num_mw++;
		spin_unlock(&mr->lock);
		if (err)
			return err;
	}
	rmp_mw_unbind(mw);
	mw->key = attr->new_rkey;
	mw->mr = mr;
	mw->addr = attr->addr;
	mw->length = attr->length;
	mw->access = attr->access & RMP_MW_ACCESS;
	mw->qpn = qpn;
	mw->bound = type2 || attr->length;
	return 0;
}

/**
 * rmp_mw_bind() - execute a BIND_MW work request
 * @dev: device
 * @pd: protection domain of the QP that executes the request
 * @qpn: number of that QP; a type 2 window becomes tied to it
 * @attr: the request
 *
 * Applies the rules in the "memory windows" DOC section. On failure the
 * window is unchanged.
 *
 * Return: 0; -EINVAL for an unknown or stale window key, a new rkey with
 * another index, bad access flags, a bound type 2 window or an invalid or
 * dying region; -EACCES for another PD or a region without
 * IB_ACCESS_MW_BIND (or without local write for a writable window);
 * -ERANGE for a range outside the region. The transport completes the
 * request with IB_WC_MW_BIND_ERR.
 */
int rmp_mw_bind(struct rmp_dev *dev, struct ib_pd *pd, u32 qpn,
		const struct rmp_mw_bind_attr *attr)
{
	struct rmp_key_obj *kobj;
	struct rmp_mr *mr = NULL;
	struct rmp_mw *mw;
	unsigned long flags;
	int err;

	/*
	 * Applications pass their regions' flags along; local write means
	 * nothing for a window, which only grants remote access.
	 */
	if (rmp_key_index(attr->new_rkey) != rmp_key_index(attr->mw_rkey) ||
	    attr->access & ~(RMP_MW_ACCESS | IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	kobj = rmp_key_get(dev, attr->mw_rkey);
	if (!kobj)
		return -EINVAL;
	err = -EINVAL;
	if (kobj->kind != RMP_KEY_MW)
		goto out;
	mw = container_of(kobj, struct rmp_mw, kobj);
	err = -EACCES;
	if (mw->ibmw.pd != pd)
		goto out;
	if (attr->length) {
		mr = rmp_mr_lookup_lkey(dev, pd, attr->mr_lkey, attr->addr,
					attr->length, IB_ACCESS_MW_BIND);
		if (IS_ERR(mr)) {
			err = PTR_ERR(mr);
			mr = NULL;
			goto out;
		}
	}
	spin_lock_irqsave(&mw->lock, flags);
	err = rmp_mw_bind_locked(mw, mr, qpn, attr);
	spin_unlock_irqrestore(&mw->lock, flags);
out:
	if (mr)
		rmp_mr_put(mr);
	rmp_key_put(kobj);
	return err;
}
