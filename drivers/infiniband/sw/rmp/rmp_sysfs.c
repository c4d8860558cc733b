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
#include "rmp_knob.h"
#include "rmp_sysfs.h"

static struct rmp_dev *rmp_sysfs_dev(struct device *device)
{
	return to_rmp_dev(rdma_device_to_ibdev(device));
}

/* A knob is set only with CAP_NET_ADMIN in the device's namespace. */
static bool rmp_sysfs_may_set(const struct rmp_dev *dev)
{
	return ns_capable(dev->net->user_ns, CAP_NET_ADMIN);
}

static ssize_t netdev_show(struct device *device,
			   struct device_attribute *attr, char *buf)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);

	return sysfs_emit(buf, "%s\n", netdev_name(dev->ndev));
}
static DEVICE_ATTR_RO(netdev);

/* The attributes of the knobs, in the order of &enum rmp_knob_id. */
static struct device_attribute rmp_sysfs_knobs[RMP_KNOB_NR];

static enum rmp_knob_id rmp_sysfs_knob_id(const struct device_attribute *a)
{
	return a - rmp_sysfs_knobs;
}

static ssize_t rmp_sysfs_knob_show(struct device *device,
				   struct device_attribute *attr, char *buf)
{
	enum rmp_knob_id id = rmp_sysfs_knob_id(attr);

	return rmp_knob_format(id, rmp_knob_get(rmp_sysfs_dev(device), id),
			       buf, PAGE_SIZE);
}

static ssize_t rmp_sysfs_knob_store(struct device *device,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);
	enum rmp_knob_id id = rmp_sysfs_knob_id(attr);
	u32 val;
	int err;

	if (!rmp_sysfs_may_set(dev))
		return -EPERM;
	err = rmp_knob_parse(id, buf, &val) ?: rmp_knob_set(dev, id, val);
	return err ?: count;
}

/* The netdev's name, then a file per knob. */
static struct attribute *rmp_sysfs_attrs[1 + RMP_KNOB_NR + 1];

/**
 * rmp_sysfs_init() - build the knobs' attributes
 *
 * Called once, when the module loads, before any device exists.
 */
void rmp_sysfs_init(void)
{
	struct device_attribute *a;
	int i;

	rmp_sysfs_attrs[0] = &dev_attr_netdev.attr;
	for (i = 0; i < RMP_KNOB_NR; i++) {
		a = &rmp_sysfs_knobs[i];
		sysfs_attr_init(&a->attr);
		a->attr.name = rmp_knobs[i].name;
		a->attr.mode = 0644;
		a->show = rmp_sysfs_knob_show;
		a->store = rmp_sysfs_knob_store;
		rmp_sysfs_attrs[1 + i] = &a->attr;
	}
}

const struct attribute_group rmp_sysfs_group = {
	.name = "rmp",
	.attrs = rmp_sysfs_attrs,
};
