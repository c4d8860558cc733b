/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp shared receive queues.
 */
#ifndef RMP_SRQ_H
#define RMP_SRQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "rmp_queue.h"

/**
 * struct rmp_srq - shared receive queue
 * @ibsrq: ib_core object (first, as ib_core allocates it)
 * @queue: ring of &struct rxe_recv_wqe plus @max_sge scatter entries
 * @lock: serialises the consumers (the runs of the QPs sharing the SRQ),
 *	a kernel poster, resize and the limit
 * @srq_num: number in &rmp_dev.srqs
 * @max_sge: scatter entries a WQE may have
 * @limit: armed limit, 0 when disarmed
 */
struct rmp_srq {
	struct ib_srq ibsrq;
	struct rmp_queue queue;
	spinlock_t lock; /* consumers, kernel poster, resize, limit */
	u32 srq_num;
	u32 max_sge;
	u32 limit;
};

static inline struct rmp_srq *to_rmp_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rmp_srq, ibsrq);
}

int rmp_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int rmp_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int rmp_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int rmp_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int rmp_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

#endif /* RMP_SRQ_H */
