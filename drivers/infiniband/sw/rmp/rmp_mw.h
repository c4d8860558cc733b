/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp memory windows.
 */
#ifndef RMP_MW_H
#define RMP_MW_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "rmp_mr.h"

/**
 * struct rmp_mw - memory window
 * @ibmw: ib_core object (first, as ib_core allocates it)
 * @kobj: entry in the device's key space
 * @lock: protects the fields below; nests outside &rmp_mr.lock
 * @key: current rkey
 * @bound: a bind has succeeded and no invalidation or unbind followed
 * @mr: region the window is bound to; NULL when unbound or bound with
 *	length 0. A region cannot be deregistered while a window counts in
 *	its &rmp_mr.num_mw, so @mr needs no reference.
 * @addr: first address of the window, in @mr's address space
 * @length: length of the window
 * @access: IB_ACCESS_REMOTE_* granted through the window
 * @qpn: QP a bound type 2 window belongs to
 */
struct rmp_mw {
	struct ib_mw ibmw;
	struct rmp_key_obj kobj;
	spinlock_t lock; /* see the kernel-doc above */
	u32 key;
	bool bound;
	struct rmp_mr *mr;
	u64 addr;
	u64 length;
	int access;
	u32 qpn;
};

static inline struct rmp_mw *to_rmp_mw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct rmp_mw, ibmw);
}

/**
 * struct rmp_mw_bind_attr - a BIND_MW work request
 * @mw_rkey: the window's current rkey
 * @new_rkey: rkey the window has after the bind (same index)
 * @mr_lkey: lkey of the region to bind to (ignored when @length is 0)
 * @addr: first address of the window in the region's address space
 * @length: length of the window; 0 unbinds a type 1 window
 * @access: IB_ACCESS_REMOTE_{READ,WRITE,ATOMIC} to grant
 */
struct rmp_mw_bind_attr {
	u32 mw_rkey;
	u32 new_rkey;
	u32 mr_lkey;
	u64 addr;
	u64 length;
	int access;
};

int rmp_mw_bind(struct rmp_dev *dev, struct ib_pd *pd, u32 qpn,
		const struct rmp_mw_bind_attr *attr);
struct rmp_mr *rmp_mw_resolve(struct rmp_mw *mw, struct ib_pd *pd, u32 qpn,
			      u32 rkey, u64 va, u64 len, int access);
int rmp_mw_invalidate(struct rmp_mw *mw, struct ib_pd *pd, u32 qpn, u32 key,
		      bool remote);

int rmp_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int rmp_dealloc_mw(struct ib_mw *ibmw);

#endif /* RMP_MW_H */
