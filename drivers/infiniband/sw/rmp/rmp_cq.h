/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp completion queues.
 */
#ifndef RMP_CQ_H
#define RMP_CQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "rmp_queue.h"

/**
 * struct rmp_cq - completion queue
 * @ibcq: ib_core object (first, as ib_core allocates it)
 * @queue: ring of &struct ib_uverbs_wc (user CQ) or &struct ib_wc (kernel)
 * @lock: serialises rmp's producer side, notification arming, resize and,
 *	for a kernel CQ, polling
 * @user: the ring is mapped by a process and holds &struct ib_uverbs_wc
 * @notify: the armed notification, 0 or IB_CQ_SOLICITED or IB_CQ_NEXT_COMP
 * @overflowed: an entry was lost to a full ring; the CQ is in error
 */
struct rmp_cq {
	struct ib_cq ibcq;
	struct rmp_queue queue;
	spinlock_t lock; /* producer side, arming, resize, kernel polls */
	bool user;
	u8 notify;
	bool overflowed;
};

static inline struct rmp_cq *to_rmp_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct rmp_cq, ibcq);
}

int rmp_cq_post(struct rmp_cq *cq, const struct ib_wc *wc, bool solicited);
int rmp_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq);

int rmp_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int rmp_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int rmp_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int rmp_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int rmp_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

#endif /* RMP_CQ_H */
