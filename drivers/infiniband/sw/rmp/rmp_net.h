/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp networking: per-namespace RoCEv2 UDP sockets and the receive hook.
 */
#ifndef RMP_NET_H
#define RMP_NET_H

struct rmp_dev;

/* IANA-assigned RoCEv2 UDP destination port. */
#define RMP_ROCE_UDP_PORT 4791

int rmp_net_attach(struct rmp_dev *dev);
void rmp_net_detach(struct rmp_dev *dev);
int rmp_net_init(void);
void rmp_net_exit(void);

#endif /* RMP_NET_H */
