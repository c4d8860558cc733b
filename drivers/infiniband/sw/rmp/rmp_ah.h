/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp address handles and the address vector they share with RC QPs.
 */
#ifndef RMP_AH_H
#define RMP_AH_H

#include <linux/in.h>
#include <linux/in6.h>
#include <rdma/ib_verbs.h>

struct rmp_dev;
struct rmp_flow;

/**
 * union rmp_sockaddr - an IPv4 or IPv6 address, as rdma_gid2ip() writes it
 * @sa: generic view, for the family
 * @in: IPv4 view
 * @in6: IPv6 view
 */
union rmp_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/**
 * struct rmp_av - where a RoCEv2 packet goes and how its IP header looks
 * @network_type: %RDMA_NETWORK_IPV4 or %RDMA_NETWORK_IPV6; @saddr and
 *	@daddr are of that family
 * @traffic_class: IPv4 TOS or IPv6 traffic class byte (DSCP and ECN)
 * @hop_limit: IPv4 TTL or IPv6 hop limit
 * @flow_label: IPv6 flow label (20 bits)
 * @saddr: source address, from the source GID
 * @daddr: destination address, from the destination GID
 *
 * The destination MAC is not kept: packets are routed by the kernel.
 */
struct rmp_av {
	u8 network_type;
	u8 traffic_class;
	u8 hop_limit;
	u32 flow_label;
	union rmp_sockaddr saddr;
	union rmp_sockaddr daddr;
};

/**
 * struct rmp_ah - address handle
 * @ibah: ib_core object (first, as ib_core allocates it)
 * @av: the address vector
 * @attr: the attributes given at creation, for query_ah (without the
 *	source GID attribute reference, which ib_core owns)
 * @ah_num: number in &rmp_dev.ahs; a user process names the AH by it in
 *	its UD WQEs, and so does rmp for kernel ones
 */
struct rmp_ah {
	struct ib_ah ibah;
	struct rmp_av av;
	struct rdma_ah_attr attr;
	u32 ah_num;
};

static inline struct rmp_ah *to_rmp_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct rmp_ah, ibah);
}

int rmp_av_from_attr(struct rmp_dev *dev, const struct rdma_ah_attr *attr,
		     struct rmp_av *av);
void rmp_av_to_flow(const struct rmp_av *av, struct rmp_flow *fl);
int rmp_ah_lookup_av(struct rmp_dev *dev, u32 ah_num, const struct ib_pd *pd,
		     struct rmp_av *av);

int rmp_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int rmp_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int rmp_destroy_ah(struct ib_ah *ibah, u32 flags);

#endif /* RMP_AH_H */
