// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: per-namespace sockets
 *
 * Every network namespace that has at least one rmp device owns a pair of
 * kernel UDP sockets bound to port 4791 (IPv4 and IPv6), created when its
 * first device attaches and closed when its last device detaches. Packets
 * reach rmp through the sockets' encap_rcv hook and are matched to a device
 * by the ingress netdev's ifindex, looked up under RCU in the namespace's
 * device xarray.
 *
 * Transmission builds the IP and UDP headers itself, because the ICRC covers
 * them (the IPv4 identification included) and must be computed over their
 * final form; routing, neighbour resolution and netfilter are the kernel's.
 * A connected QP keeps its route in a per-CPU &struct dst_cache, which the
 * kernel invalidates when routes change; other packets look theirs up.
 * A destination that routes to a local address never leaves the host: the
 * packet is handed to the receive path of the rmp device owning that
 * address, which may be the sender itself (loopback).
 *
 * Devices detach before their namespace dies (the netdev notifier runs
 * during the namespace's device teardown), so the pernet exit hook finds
 * nothing left to close but checks it all the same.
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/xarray.h>
#include <net/addrconf.h>
#include <net/dst_cache.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <asm/unaligned.h>

#include "rmp_dev.h"
#include "rmp_net.h"
#include "rmp_payload.h"
#include "rmp_recv.h"
#include "engine/hdr.h"
#include "engine/icrc.h"

/**
 * struct rmp_net - rmp's state in one network namespace
 * @lock: protects @sk4, @sk6 and @users
 * @sk4: IPv4 socket, or NULL
 * @sk6: IPv6 socket, or NULL when IPv6 is unavailable in the namespace
 * @users: attached devices
 * @devs: attached devices by netdev ifindex, read under RCU
 */
struct rmp_net {
	struct mutex lock; /* sockets and users */
	struct socket *sk4;
	struct socket *sk6;
	unsigned int users;
	struct xarray devs;
};

static unsigned int rmp_net_id __read_mostly;

static struct rmp_net *rmp_net(struct net *net)
{
	return net_generic(net, rmp_net_id);
}

static int rmp_net_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct rmp_net *rn = rcu_dereference_sk_user_data(sk);
	struct rmp_dev *dev = NULL;

	if (rn)
		dev = xa_load(&rn->devs, skb->dev ? skb->dev->ifindex : 0);
	if (dev)
		rmp_recv(dev, skb, NULL);
	else
		kfree_skb(skb);
	return 0;
}

static struct socket *rmp_net_sock_create(struct net *net, struct rmp_net *rn,
					  int family)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = rn,
		.encap_type = 1,
		.encap_rcv = rmp_net_rcv,
	};
	struct udp_port_cfg ucfg = {
		.family = family,
		.local_udp_port = htons(RMP_ROCE_UDP_PORT),
		.ipv6_v6only = family == AF_INET6,
	};
	struct socket *sock;
	int err;

	err = udp_sock_create(net, &ucfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void rmp_net_close_locked(struct rmp_net *rn)
{
	if (rn->sk6)
		udp_tunnel_sock_release(rn->sk6);
	if (rn->sk4)
		udp_tunnel_sock_release(rn->sk4);
	rn->sk4 = NULL;
	rn->sk6 = NULL;
}

static int rmp_net_open_locked(struct net *net, struct rmp_net *rn)
{
	struct socket *sock;

	sock = rmp_net_sock_create(net, rn, AF_INET);
	if (IS_ERR(sock)) {
		pr_err("rmp: cannot bind UDP port %u in this namespace (%pe); is rdma_rxe loaded here?\n",
		       RMP_ROCE_UDP_PORT, sock);
		return PTR_ERR(sock);
	}
	rn->sk4 = sock;

	sock = rmp_net_sock_create(net, rn, AF_INET6);
	if (IS_ERR(sock)) {
		/* A namespace without IPv6 still gets an IPv4 device. */
		if (PTR_ERR(sock) == -EAFNOSUPPORT)
			return 0;
		pr_err("rmp: cannot bind UDP/IPv6 port %u (%pe)\n",
		       RMP_ROCE_UDP_PORT, sock);
		rmp_net_close_locked(rn);
		return PTR_ERR(sock);
	}
	rn->sk6 = sock;
	return 0;
}

/**
 * rmp_net_attach() - hook a device to its namespace's sockets
 * @dev: device whose @net and @ndev are set
 *
 * Opens the namespace's sockets if @dev is the first device there.
 *
 * Return: 0 or a negative errno (the port is taken, no memory).
 */
int rmp_net_attach(struct rmp_dev *dev)
{
	struct rmp_net *rn = rmp_net(dev->net);
	int err = 0;

	mutex_lock(&rn->lock);
	if (!rn->users)
		err = rmp_net_open_locked(dev->net, rn);
	if (!err) {
		err = xa_insert(&rn->devs, dev->ndev->ifindex, dev, GFP_KERNEL);
		if (err && !rn->users)
			rmp_net_close_locked(rn);
	}
	if (!err)
		rn->users++;
	mutex_unlock(&rn->lock);
	return err;
}

/**
 * rmp_net_detach() - unhook a device from its namespace's sockets
 * @dev: an attached device
 *
 * Closes the sockets with the namespace's last device. After it returns no
 * receive path can still see @dev.
 */
void rmp_net_detach(struct rmp_dev *dev)
{
	struct rmp_net *rn = rmp_net(dev->net);

	mutex_lock(&rn->lock);
	xa_erase(&rn->devs, dev->ndev->ifindex);
	if (!--rn->users)
		rmp_net_close_locked(rn);
	mutex_unlock(&rn->lock);
	/* Receivers found @dev under RCU; let them finish. */
	synchronize_net();
}

/**
 * rmp_net_alloc_skb() - allocate a packet for rmp_net_xmit()
 * @dev: sending device
 * @fl: the flow the packet will take (its family sizes the headroom)
 * @len: bytes of the transport packet, BTH through ICRC
 *
 * Return: a linear skb whose data is @len bytes for the caller to fill, with
 * room in front for the UDP, IP and link headers; NULL without memory.
 */
struct sk_buff *rmp_net_alloc_skb(struct rmp_dev *dev,
				  const struct rmp_flow *fl, size_t len)
{
	size_t ip_len = fl->family == AF_INET6 ? sizeof(struct ipv6hdr) :
						 sizeof(struct iphdr);
	size_t room = LL_MAX_HEADER + ip_len + sizeof(struct udphdr);
	struct sk_buff *skb;

	skb = alloc_skb(room + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, room);
	skb_put(skb, len);
	return skb;
}

static void rmp_net_push_udp(struct sk_buff *skb, u16 sport)
{
	struct udphdr *uh;

	uh = skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = htons(sport);
	uh->dest = htons(RMP_ROCE_UDP_PORT);
	uh->len = htons(skb->len);
	/* RoCEv2 leaves the UDP checksum to the ICRC. */
	uh->check = 0;
}

static struct dst_entry *rmp_net_route4(struct rmp_dev *dev,
					struct rmp_flow *fl)
{
	struct flowi4 fl4 = {
		.flowi4_oif = dev->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = fl->tclass & IPTOS_TOS_MASK,
		.daddr = fl->daddr4,
		.saddr = fl->saddr4,
	};
	struct rtable *rt;

	rt = ip_route_output_key(dev->net, &fl4);
	if (IS_ERR(rt))
		return ERR_CAST(rt);
	fl->saddr4 = fl4.saddr;
	return &rt->dst;
}

static struct dst_entry *rmp_net_route6(struct rmp_dev *dev,
					struct rmp_flow *fl)
{
	struct flowi6 fl6 = {
		.flowi6_oif = dev->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(fl->tclass, htonl(fl->flow_label)),
		.daddr = fl->daddr6,
		.saddr = fl->saddr6,
	};

	return ip6_dst_lookup_flow(dev->net, NULL, &fl6, NULL);
}

/* The route of @fl, from @routes if it holds a valid one, else looked up. */
static struct dst_entry *rmp_net_route(struct rmp_dev *dev,
				       struct rmp_flow *fl,
				       struct dst_cache *routes)
{
	bool v6 = fl->family == AF_INET6;
	struct dst_entry *dst;
	struct rtable *rt;

	if (!routes)
		return v6 ? rmp_net_route6(dev, fl) : rmp_net_route4(dev, fl);
	/* The cache is per CPU: stay on this one. */
	local_bh_disable();
	if (v6) {
		dst = dst_cache_get_ip6(routes, &fl->saddr6);
	} else {
		rt = dst_cache_get_ip4(routes, &fl->saddr4);
		dst = rt ? &rt->dst : NULL;
	}
	if (dst)
		goto out;
	dst = v6 ? rmp_net_route6(dev, fl) : rmp_net_route4(dev, fl);
	if (IS_ERR(dst))
		goto out;
	if (v6)
		dst_cache_set_ip6(routes, dst, &fl->saddr6);
	else
		dst_cache_set_ip4(routes, dst, fl->saddr4);
out:
	local_bh_enable();
	return dst;
}

static void rmp_net_push_ip4(struct sk_buff *skb, struct dst_entry *dst,
			     const struct rmp_flow *fl)
{
	struct iphdr *iph;

	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	*iph = (struct iphdr) {
		.version = 4,
		.ihl = sizeof(*iph) / 4,
		.tos = fl->tclass,
		.tot_len = htons(skb->len),
		.frag_off = htons(IP_DF),
		.ttl = fl->hop_limit ?: ip4_dst_hoplimit(dst),
		.protocol = IPPROTO_UDP,
		.saddr = fl->saddr4,
		.daddr = fl->daddr4,
	};
	/* The ICRC covers the identification: choose it now, for good. */
	ip_select_ident(dev_net(dst->dev), skb, NULL);
	skb->protocol = htons(ETH_P_IP);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
}

static void rmp_net_push_ip6(struct sk_buff *skb, struct dst_entry *dst,
			     const struct rmp_flow *fl)
{
	struct ipv6hdr *ip6h;

	ip6h = skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6_flow_hdr(ip6h, fl->tclass, htonl(fl->flow_label));
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = fl->hop_limit ?: ip6_dst_hoplimit(dst);
	ip6h->saddr = fl->saddr6;
	ip6h->daddr = fl->daddr6;
	skb->protocol = htons(ETH_P_IPV6);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
}

/* The attached rmp device that owns @fl's destination address, or NULL. */
static struct rmp_dev *rmp_net_local_dev(struct rmp_dev *dev,
					 const struct rmp_flow *fl)
{
	struct rmp_net *rn = rmp_net(dev->net);
	struct net_device *ndev;

	if (fl->family == AF_INET)
		ndev = __ip_dev_find(dev->net, fl->daddr4, false);
	else
		ndev = ipv6_dev_find(dev->net, &fl->daddr6, NULL);
	return ndev ? xa_load(&rn->devs, ndev->ifindex) : NULL;
}

/**
 * rmp_net_is_local() - whether a flow's destination is a device of this host
 * @dev: the sending device
 * @fl: the flow
 *
 * Its packets are then looped back by rmp_net_xmit(), without an ICRC.
 *
 * Return: true if so, now.
 */
bool rmp_net_is_local(struct rmp_dev *dev, const struct rmp_flow *fl)
{
	bool local;

	rcu_read_lock();
	local = rmp_net_local_dev(dev, fl);
	rcu_read_unlock();
	return local;
}

/* Deliver a finished packet to a device of this host, as if received. */
static int rmp_net_loop(struct rmp_dev *dev, const struct rmp_flow *fl,
			struct sk_buff *skb, struct rmp_recv_batch *batch)
{
	struct rmp_dev *to;
	int err = 0;

	skb_dst_drop(skb);
	skb_pull(skb, skb_transport_offset(skb));
	/*
	 * The packet never leaves memory, so it carries no ICRC (zeros from
	 * rmp_pkt_new()) and the receive path checks none, as the loopback
	 * netdev skips checksums: rmp_recv_looped().
	 */
	skb->pkt_type = PACKET_LOOPBACK;
	local_bh_disable();
	rcu_read_lock();
	to = rmp_net_local_dev(dev, fl);
	if (to) {
		skb->dev = to->ndev;
		rmp_recv(to, skb, batch);
	} else {
		kfree_skb(skb);
		err = -EHOSTUNREACH;
	}
	rcu_read_unlock();
	local_bh_enable();
	return err;
}

/*
 * The ICRC of a packet whose payload is in page fragments (its linear part
 * holds the headers only), into its last bytes. @tail_crc: NULL, or the
 * CRC of the bytes after the headers, payload and pad (rmp_pkt_new_from()).
 */
static int rmp_net_icrc_split(struct sk_buff *skb, int ip_version,
			      const u32 *tail_crc)
{
	u32 head = skb_headlen(skb), end = skb->len - RMP_ICRC_SIZE, icrc;
	u8 le[RMP_ICRC_SIZE];
	int err;

	err = rmp_icrc_compute_split(skb->data, skb->len, ip_version,
				     tail_crc ? *tail_crc :
				     rmp_skb_crc32(skb, head, end - head, 0),
				     &icrc);
	if (err)
		return err;
	put_unaligned_le32(icrc, le);
	return skb_store_bits(skb, end, le, sizeof(le));
}

/**
 * rmp_net_xmit() - send a transport packet
 * @dev: sending device
 * @fl: addressing and marking; a zero source address is chosen by routing
 * @routes: route cache of a flow that lasts (a connected QP's), or NULL
 * @sport: UDP source port
 * @skb: from rmp_net_alloc_skb(), filled with BTH through payload and pad;
 *	consumed in every case
 * @payload_crc: NULL, or the CRC of the payload taken while it was copied
 *	in, for rmp_icrc_generate(): the payload is not read again; for a
 *	packet in page fragments, of the payload and the pad
 *	(rmp_pkt_new_from())
 * @batch: the sending run's deliveries, for a local destination (see
 *	rmp_recv()); the caller ends it with rmp_recv_batch_end()
 *
 * Adds UDP and IP headers and, for a packet leaving the host, the ICRC,
 * and hands the packet to the IP layer, or to the receiving rmp device if
 * the destination is local.
 *
 * Return: 0; -EMSGSIZE if the packet exceeds the path MTU; -EHOSTUNREACH,
 * -ENETUNREACH or another routing error.
 */
int rmp_net_xmit(struct rmp_dev *dev, const struct rmp_flow *fl,
		 struct dst_cache *routes, u16 sport, struct sk_buff *skb,
		 const u32 *payload_crc, struct rmp_recv_batch *batch)
{
	bool v6 = fl->family == AF_INET6;
	size_t ip_len = v6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	struct rmp_flow route = *fl;
	struct dst_entry *dst;
	int err;

	dst = rmp_net_route(dev, &route, routes);
	if (IS_ERR(dst)) {
		err = PTR_ERR(dst);
		goto drop;
	}
	if (skb->len + sizeof(struct udphdr) + ip_len > dst_mtu(dst)) {
		dst_release(dst);
		err = -EMSGSIZE;
		goto drop;
	}

	rmp_net_push_udp(skb, sport);
	if (v6)
		rmp_net_push_ip6(skb, dst, &route);
	else
		rmp_net_push_ip4(skb, dst, &route);
	skb->ip_summed = CHECKSUM_NONE;
	rmp_stats_inc(&dev->stats, RMP_CNT_TX_PACKETS);

	if (dst->dev->flags & IFF_LOOPBACK) {
		dst_release(dst);
		/* As ip_local_out() would; a UD receiver's GRH shows it. */
		if (!v6)
			ip_send_check(ip_hdr(skb));
		return rmp_net_loop(dev, &route, skb, batch);
	}
	if (skb_is_nonlinear(skb))
		err = rmp_net_icrc_split(skb, v6 ? 6 : 4, payload_crc);
	else
		err = rmp_icrc_generate(skb->data, skb->len, v6 ? 6 : 4,
					payload_crc);
	if (WARN_ON_ONCE(err)) {
		dst_release(dst);
		goto drop;
	}
	skb_dst_set(skb, dst);
	if (v6)
		err = ip6_local_out(dev->net, NULL, skb);
	else
		err = ip_local_out(dev->net, NULL, skb);
	return net_xmit_eval(err) ? -ENOBUFS : 0;

drop:
	rmp_stats_inc(&dev->stats, RMP_CNT_TX_DROP);
	kfree_skb(skb);
	return err;
}

static int __net_init rmp_net_init_ns(struct net *net)
{
	struct rmp_net *rn = rmp_net(net);

	mutex_init(&rn->lock);
	xa_init(&rn->devs);
	return 0;
}

static void __net_exit rmp_net_exit_ns(struct net *net)
{
	struct rmp_net *rn = rmp_net(net);

	mutex_lock(&rn->lock);
	if (WARN_ON(rn->users))
		rmp_net_close_locked(rn);
	mutex_unlock(&rn->lock);
	xa_destroy(&rn->devs);
}

static struct pernet_operations rmp_net_ops = {
	.init = rmp_net_init_ns,
	.exit = rmp_net_exit_ns,
	.id = &rmp_net_id,
	.size = sizeof(struct rmp_net),
};

/**
 * rmp_net_init() - register rmp's per-namespace state
 *
 * Return: 0 or a negative errno.
 */
int rmp_net_init(void)
{
	return register_pernet_subsys(&rmp_net_ops);
}

/**
 * rmp_net_exit() - unregister rmp's per-namespace state
 */
void rmp_net_exit(void)
{
	unregister_pernet_subsys(&rmp_net_ops);
}
