// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: device lifecycle
 *
 * An rmp device is created by ``rdma link add NAME type rmp netdev DEV`` and
 * lives until ``rdma link delete``, until its netdev is unregistered (which
 * includes the netdev leaving or its namespace being deleted) or until the
 * module is unloaded.
 *
 * All devices sit on one list under rmp_devs_lock. A device is "attached"
 * while it holds its namespace's UDP sockets (see rmp_net.c); it is detached
 * exactly once, either by the netdev notifier (the netdev is going away, so
 * the sockets must be let go before the namespace can die) or by
 * dealloc_driver. Lock order: RTNL, then rmp_devs_lock, then rmp_net's lock.
 */
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_net.h"
#include "rmp_verbs.h"

static DEFINE_MUTEX(rmp_devs_lock);
static LIST_HEAD(rmp_devs);

static struct rmp_dev *rmp_dev_find_locked(struct net_device *ndev)
{
	struct rmp_dev *dev;

	lockdep_assert_held(&rmp_devs_lock);
	list_for_each_entry(dev, &rmp_devs, list)
		if (dev->ndev == ndev)
			return dev;
	return NULL;
}

static void rmp_dev_detach_locked(struct rmp_dev *dev)
{
	lockdep_assert_held(&rmp_devs_lock);
	if (!dev->attached)
		return;
	rmp_net_detach(dev);
	dev->attached = false;
}

static int rmp_dev_check_netdev(struct net_device *ndev)
{
	if (ndev->flags & IFF_LOOPBACK) {
		pr_err("rmp: %s is a loopback device; bind to an Ethernet netdev\n",
		       ndev->name);
		return -EINVAL;
	}
	if (ndev->type != ARPHRD_ETHER) {
		pr_err("rmp: %s is not an Ethernet device (type %u)\n",
		       ndev->name, ndev->type);
		return -EINVAL;
	}
	if (!(ndev->flags & IFF_UP)) {
		pr_err("rmp: %s is down; bring it up first\n", ndev->name);
		return -ENETDOWN;
	}
	return 0;
}

/* The netdev's speed in Mbit/s, 0 if it does not tell; under RTNL. */
static u32 rmp_dev_read_speed(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;

	if (__ethtool_get_link_ksettings(ndev, &ks) ||
	    ks.base.speed == SPEED_UNKNOWN)
		return 0;
	return ks.base.speed;
}

/**
 * rmp_dev_link_mbps() - the rate the port sends at, at most
 * @dev: the device
 *
 * Return: Mbit/s: the ``link_rate`` knob, or if it is 0 the netdev's
 * speed, or %RMP_DEV_LINK_MBPS_DEFAULT for a netdev that does not tell.
 */
u32 rmp_dev_link_mbps(const struct rmp_dev *dev)
{
	return rmp_knob_get(dev, RMP_KNOB_LINK_RATE) ?:
	       READ_ONCE(dev->link_mbps) ?: RMP_DEV_LINK_MBPS_DEFAULT;
}

/**
 * rmp_dev_newlink() - create an rmp device on a netdev
 * @name: ib device name asked for by the user
 * @ndev: netdev to bind, referenced by the caller for the call's duration
 *
 * The rdma_link_ops.newlink callback behind ``rdma link add``.
 *
 * Return: 0 or a negative errno; on error nothing is left behind.
 */
int rmp_dev_newlink(const char *name, struct net_device *ndev)
{
	struct ib_device *other;
	struct rmp_dev *dev;
	bool gone;
	int err;

	err = rmp_dev_check_netdev(ndev);
	if (err)
		return err;
	/* ib_core would say ENFILE; say what is wrong instead. */
	other = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		pr_err("rmp: an RDMA device named %s exists\n", name);
		ib_device_put(other);
		return -EEXIST;
	}

	dev = ib_alloc_device(rmp_dev, ib_dev);
	if (!dev)
		return -ENOMEM;
	/*
	 * From here on every error path ends in ib_dealloc_device(), which
	 * calls rmp_dev_dealloc(): it must find @dev in a consistent state.
	 */
	INIT_LIST_HEAD(&dev->list);
	xa_init_flags(&dev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&dev->keys, XA_FLAGS_ALLOC);
	xa_init_flags(&dev->ahs, XA_FLAGS_ALLOC);
	xa_init_flags(&dev->srqs, XA_FLAGS_ALLOC);
	mutex_init(&dev->ext_lock);
	rmp_knob_defaults(dev);
	rtnl_lock();
	dev->link_mbps = rmp_dev_read_speed(ndev);
	rtnl_unlock();
	rmp_rcc_dev_init(dev);
	dev->ndev = ndev;
	netdev_hold(ndev, &dev->ndev_tracker, GFP_KERNEL);
	dev->net = dev_net(ndev);
	rmp_verbs_init(dev);
	err = rmp_stats_init(&dev->stats);
	if (err)
		goto err_free;

	mutex_lock(&rmp_devs_lock);
	if (rmp_dev_find_locked(ndev)) {
		pr_err("rmp: %s already has an rmp device\n", ndev->name);
		err = -EEXIST;
		goto err_unlock;
	}
	/* One RDMA device per netdev: rxe's or a RoCE NIC's is there first. */
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (other) {
		pr_err("rmp: %s already has RDMA device %s\n", ndev->name,
		       dev_name(&other->dev));
		ib_device_put(other);
		err = -EEXIST;
		goto err_unlock;
	}
	err = rmp_net_attach(dev);
	if (err)
		goto err_unlock;
	dev->attached = true;
	list_add_tail(&dev->list, &rmp_devs);
	mutex_unlock(&rmp_devs_lock);

	err = rmp_verbs_register(dev, name);
	if (err)
		goto err_free;

	/* The netdev may have gone while we registered: finish the job. */
	mutex_lock(&rmp_devs_lock);
	dev->registered = true;
	gone = !dev->attached;
	mutex_unlock(&rmp_devs_lock);
	if (gone) {
		ib_unregister_device(&dev->ib_dev);
		return -ENODEV;
	}
	return 0;

err_unlock:
	mutex_unlock(&rmp_devs_lock);
err_free:
	ib_dealloc_device(&dev->ib_dev);
	return err;
}

/**
 * rmp_dev_dealloc() - release what an rmp device holds
 * @ibdev: the device, already unregistered from ib_core
 *
 * The ib_device_ops.dealloc_driver callback, also reached through
 * ib_dealloc_device() when creation fails part way; ib_core frees @ibdev
 * after it.
 */
void rmp_dev_dealloc(struct ib_device *ibdev)
{
	struct rmp_dev *dev = to_rmp_dev(ibdev);

	mutex_lock(&rmp_devs_lock);
	list_del_init(&dev->list);
	rmp_dev_detach_locked(dev);
	mutex_unlock(&rmp_devs_lock);
	netdev_put(dev->ndev, &dev->ndev_tracker);
	/* ib_core destroyed every object before unregistering the device. */
	WARN_ON(!xa_empty(&dev->qps) || !xa_empty(&dev->keys) ||
		!xa_empty(&dev->ahs) || !xa_empty(&dev->srqs));
	xa_destroy(&dev->qps);
	xa_destroy(&dev->keys);
	xa_destroy(&dev->ahs);
	xa_destroy(&dev->srqs);
	rmp_stats_destroy(&dev->stats);
	rmp_rcc_dev_exit(dev);
}

/**
 * rmp_dev_get() - find a registered device of a namespace and reference it
 * @net: the namespace the device's netdev must be in
 * @name: the device's name; NULL to find it by @index
 * @index: with @name NULL: the device with the lowest ib_core index from
 *	@index on
 *
 * The reference keeps the device registered (ib_unregister_device() waits
 * for it), so hold it briefly.
 *
 * Return: the device, to be released with ib_device_put(), or NULL.
 */
struct rmp_dev *rmp_dev_get(const struct net *net, const char *name,
			    u32 index)
{
	struct rmp_dev *dev, *found = NULL;

	mutex_lock(&rmp_devs_lock);
	list_for_each_entry(dev, &rmp_devs, list) {
		if (!dev->registered || !net_eq(dev_net(dev->ndev), net))
			continue;
		if (name ? strcmp(dev_name(&dev->ib_dev.dev), name) :
			   dev->ib_dev.index < index ||
			   (found && found->ib_dev.index < dev->ib_dev.index))
			continue;
		/* Fails once its unregistration has begun. */
		if (!ib_device_try_get(&dev->ib_dev))
			continue;
		if (found)
			ib_device_put(&found->ib_dev);
		found = dev;
	}
	mutex_unlock(&rmp_devs_lock);
	return found;
}

/**
 * rmp_dev_remove_all() - unregister every rmp device
 *
 * Called at module unload after the link type is unregistered, so no device
 * can be half-created. Waits for unregistrations started elsewhere (netdev
 * removal) as well: ib_unregister_device() serialises with them.
 */
void rmp_dev_remove_all(void)
{
	struct rmp_dev *dev;

	mutex_lock(&rmp_devs_lock);
	while (!list_empty(&rmp_devs)) {
		dev = list_first_entry(&rmp_devs, struct rmp_dev, list);
		get_device(&dev->ib_dev.dev);
		mutex_unlock(&rmp_devs_lock);
		ib_unregister_device(&dev->ib_dev);
		put_device(&dev->ib_dev.dev);
		mutex_lock(&rmp_devs_lock);
	}
	mutex_unlock(&rmp_devs_lock);
}

static int rmp_dev_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct rmp_dev *dev;

	mutex_lock(&rmp_devs_lock);
	dev = rmp_dev_find_locked(ndev);
	if (!dev)
		goto out;

	switch (event) {
	case NETDEV_UNREGISTER:
		rmp_dev_detach_locked(dev);
		if (dev->registered && ib_device_try_get(&dev->ib_dev)) {
			ib_unregister_device_queued(&dev->ib_dev);
			ib_device_put(&dev->ib_dev);
		}
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		WRITE_ONCE(dev->link_mbps, rmp_dev_read_speed(ndev));
		if (dev->registered)
			rmp_verbs_port_event(dev);
		break;
	default:
		break;
	}
out:
	mutex_unlock(&rmp_devs_lock);
	return NOTIFY_OK;
}

static struct notifier_block rmp_dev_notifier = {
	.notifier_call = rmp_dev_netdev_event,
};

/**
 * rmp_dev_notifier_register() - start following netdev events
 *
 * Return: 0 or a negative errno.
 */
int rmp_dev_notifier_register(void)
{
	return register_netdevice_notifier(&rmp_dev_notifier);
}

/**
 * rmp_dev_notifier_unregister() - stop following netdev events
 */
void rmp_dev_notifier_unregister(void)
{
	unregister_netdevice_notifier(&rmp_dev_notifier);
}
