/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp device: one ib_device bound to one Ethernet netdev.
 */
#ifndef RMP_DEV_H
#define RMP_DEV_H

#include <linux/netdevice.h>
#include <linux/xarray.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>

#include "rmp_knob.h"
#include "rmp_rcc.h"
#include "rmp_stats.h"
#include "engine/paths.h"

/**
 * struct rmp_dev - an rmp RDMA device
 * @ib_dev: the ib_core device (must stay first: ib_alloc_device() rule)
 * @ndev: bound netdev, referenced from creation until dealloc
 * @ndev_tracker: tracker for the @ndev reference
 * @net: network namespace of @ndev at creation; the UDP sockets live there
 * @attached: true while @ndev is registered and @net's sockets are held
 * @registered: ib_register_device() has succeeded
 * @port_active: port state last reported to ib_core
 * @list: entry in the driver-wide device list
 * @num_pds: protection domains allocated, at most %RMP_MAX_PD
 * @num_cqs: completion queues allocated, at most %RMP_MAX_CQ
 * @num_qps: queue pairs allocated, at most %RMP_MAX_QP
 * @num_mrs: memory regions allocated, at most %RMP_MAX_MR
 * @num_mws: memory windows allocated, at most %RMP_MAX_MW
 * @qps: QPN to &struct rmp_qp; lookups take a reference under RCU
 * @next_qpn: cursor of the cyclic QPN allocator in @qps
 * @next_cpu: QPs created so far, to spread their work items over the CPUs
 * @keys: key index (lkey/rkey >> 8) to &struct rmp_mr or &struct rmp_mw
 * @next_key: cursor of the cyclic key allocator in @keys
 * @ahs: AH number to &struct rmp_ah
 * @next_ah: cursor of the cyclic AH number allocator in @ahs
 * @srqs: SRQ number to &struct rmp_srq
 * @next_srq: cursor of the cyclic SRQ number allocator in @srqs
 * @stats: device counters
 * @link_mbps: the netdev's speed in Mbit/s as it last said, 0 if unknown
 * @rcc: the receiver credit scheduler of the port (cc=rcc)
 * @knobs: the knobs' values, by &enum rmp_knob_id (rmp_knob_get())
 * @ext_lock: guards @ext_agent
 * @ext_agent: the MAD agent of the extension negotiation, while the device
 *	is registered
 */
struct rmp_dev {
	struct ib_device ib_dev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct net *net;
	bool attached;
	bool registered;
	bool port_active;
	struct list_head list;
	atomic_t num_pds;
	atomic_t num_cqs;
	atomic_t num_qps;
	atomic_t num_mrs;
	atomic_t num_mws;
	struct xarray qps;
	u32 next_qpn;
	atomic_t next_cpu;
	struct xarray keys;
	u32 next_key;
	struct xarray ahs;
	u32 next_ah;
	struct xarray srqs;
	u32 next_srq;
	struct rmp_stats stats;
	u32 link_mbps;
	struct rmp_rcc_dev rcc;
	u32 knobs[RMP_KNOB_NR];
	struct mutex ext_lock; /* @ext_agent */
	struct ib_mad_agent *ext_agent;
};

/* Paths a multipath QP sprays over unless the ``paths`` knob says. */
#define RMP_DEV_PATHS_DEFAULT	1

/* Mbit/s assumed of a netdev that does not tell its speed. */
#define RMP_DEV_LINK_MBPS_DEFAULT	10000

/* The driver's workqueue, for the QPs' work items (rmp_main.c). */
extern struct workqueue_struct *rmp_wq;

static inline struct rmp_dev *to_rmp_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rmp_dev, ib_dev);
}

/* The port's active MTU: what the netdev's MTU leaves for RoCEv2. */
static inline enum ib_mtu rmp_dev_active_mtu(const struct rmp_dev *dev)
{
	return min(iboe_get_mtu(READ_ONCE(dev->ndev->mtu)), IB_MTU_4096);
}

u32 rmp_dev_link_mbps(const struct rmp_dev *dev);
int rmp_dev_newlink(const char *name, struct net_device *ndev);
void rmp_dev_dealloc(struct ib_device *ibdev);
struct rmp_dev *rmp_dev_get(const struct net *net, const char *name,
			    u32 index);
void rmp_dev_remove_all(void);
int rmp_dev_notifier_register(void);
void rmp_dev_notifier_unregister(void);

#endif /* RMP_DEV_H */
