// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: sysfs
 *
 * Each rmp device has a directory ``/sys/class/infiniband/<dev>/rmp/``
 * holding its attributes, documented in
 * Documentation/ABI/testing/sysfs-class-infiniband-rmp.
 */
#include <linux/device.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_sysfs.h"

static struct rmp_dev *rmp_sysfs_dev(struct device *device)
{
	return to_rmp_dev(rdma_device_to_ibdev(device));
}

static ssize_t netdev_show(struct device *device,
			   struct device_attribute *attr, char *buf)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);

	return sysfs_emit(buf, "%s\n", netdev_name(dev->ndev));
}
static DEVICE_ATTR_RO(netdev);

static ssize_t ext_show(struct device *device, struct device_attribute *attr,
			char *buf)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);

	return sysfs_emit(buf, "%s\n",
			  rmp_ext_mode_name(READ_ONCE(dev->ext_mode)));
}

static ssize_t ext_store(struct device *device, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);
	int mode;

	if (!ns_capable(dev->net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	mode = rmp_ext_mode_parse(buf);
	if (mode < 0)
		return mode;
	WRITE_ONCE(dev->ext_mode, mode);
	return count;
}
static DEVICE_ATTR_RW(ext);

static struct attribute *rmp_sysfs_attrs[] = {
	&dev_attr_netdev.attr,
	&dev_attr_ext.attr,
	NULL
};

const struct attribute_group rmp_sysfs_group = {
	.name = "rmp",
	.attrs = rmp_sysfs_attrs,
};
