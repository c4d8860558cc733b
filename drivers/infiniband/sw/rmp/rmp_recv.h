/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp receive path: from a UDP datagram to the QP it is for.
 */
#ifndef RMP_RECV_H
#define RMP_RECV_H

#include <linux/skbuff.h>

struct rmp_dev;
struct rmp_qp;

/**
 * struct rmp_recv_batch - deliveries of one sending run, for rmp_recv()
 * @qp: the QP its last packet was queued to, held, whose run is owed
 *	until rmp_recv_batch_end() (or a packet for another QP); or NULL
 */
struct rmp_recv_batch {
	struct rmp_qp *qp;
};

void rmp_recv(struct rmp_dev *dev, struct sk_buff *skb,
	      struct rmp_recv_batch *batch);
void rmp_recv_batch_end(struct rmp_recv_batch *batch);
bool rmp_recv_process(struct rmp_qp *qp, bool atomic);
int rmp_recv_icrc(const struct sk_buff *skb, const u32 *payload_crc);
void rmp_recv_purge(struct rmp_qp *qp);

#endif /* RMP_RECV_H */
