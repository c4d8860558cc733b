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

static struct attribute *rmp_sysfs_attrs[] = {
	&dev_attr_netdev.attr,
	NULL
};

const struct attribute_group rmp_sysfs_group = {
	.name = "rmp",
	.attrs = rmp_sysfs_attrs,
};
