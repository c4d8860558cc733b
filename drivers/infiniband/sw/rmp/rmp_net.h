/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp networking: per-namespace RoCEv2 UDP sockets, the receive hook, and
 * transmission through the kernel's routing and neighbour layers.
 */
#ifndef RMP_NET_H
#define RMP_NET_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/skbuff.h>

struct dst_cache;
struct rmp_dev;
struct rmp_recv_batch;

/* IANA-assigned RoCEv2 UDP destination port. */
#define RMP_ROCE_UDP_PORT 4791

/**
 * struct rmp_flow - the IP addressing and marking of a packet
 * @family: AF_INET or AF_INET6
 * @saddr4: IPv4 source (AF_INET)
 * @daddr4: IPv4 destination (AF_INET)
 * @saddr6: IPv6 source (AF_INET6)
 * @daddr6: IPv6 destination (AF_INET6)
 * @tclass: IPv4 TOS or IPv6 traffic class: DSCP and ECN bits
 * @hop_limit: TTL or hop limit; 0 takes the route's default
 * @flow_label: IPv6 flow label (20 bits)
 */
struct rmp_flow {
	int family;
	union {
		struct {
			__be32 saddr4;
			__be32 daddr4;
		};
		struct {
			struct in6_addr saddr6;
			struct in6_addr daddr6;
		};
	};
	u8 tclass;
	u8 hop_limit;
	u32 flow_label;
};

struct sk_buff *rmp_net_alloc_skb(struct rmp_dev *dev,
				  const struct rmp_flow *fl, size_t len);
bool rmp_net_is_local(struct rmp_dev *dev, const struct rmp_flow *fl);
int rmp_net_xmit(struct rmp_dev *dev, const struct rmp_flow *fl,
		 struct dst_cache *routes, u16 sport, struct sk_buff *skb,
		 const u32 *payload_crc, struct rmp_recv_batch *batch);
int rmp_net_attach(struct rmp_dev *dev);
void rmp_net_detach(struct rmp_dev *dev);
int rmp_net_init(void);
void rmp_net_exit(void);

#endif /* RMP_NET_H */
