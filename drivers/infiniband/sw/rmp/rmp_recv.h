/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp receive path: from a UDP datagram to the QP it is for.
 */
#ifndef RMP_RECV_H
#define RMP_RECV_H

#include <linux/skbuff.h>

struct rmp_dev;
struct rmp_qp;

void rmp_recv(struct rmp_dev *dev, struct sk_buff *skb);
bool rmp_recv_process(struct rmp_qp *qp, bool atomic);
int rmp_recv_icrc(const struct sk_buff *skb, const u32 *payload_crc);
void rmp_recv_purge(struct rmp_qp *qp);

#endif /* RMP_RECV_H */
