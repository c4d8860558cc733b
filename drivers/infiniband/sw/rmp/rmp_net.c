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
 * Devices detach before their namespace dies (the netdev notifier runs
 * during the namespace's device teardown), so the pernet exit hook finds
 * nothing left to close but checks it all the same.
 */
#include <linux/module.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>

#include "rmp_dev.h"
#include "rmp_net.h"
#include "engine/hdr.h"

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
	if (!dev)
		goto drop;

	rmp_stats_inc(&dev->stats, RMP_CNT_RX_PACKETS);
	if (!pskb_may_pull(skb, sizeof(struct udphdr) + sizeof(struct rmp_bth))) {
		rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_MALFORMED);
		goto drop;
	}
	/* No queue pairs exist yet, so every transport packet is unmatched. */
	rmp_stats_inc(&dev->stats, RMP_CNT_RX_DROP_NO_QP);
drop:
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
