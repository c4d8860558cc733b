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

	if (!rmp_sysfs_may_set(dev))
		return -EPERM;
	mode = rmp_ext_mode_parse(buf);
	if (mode < 0)
		return mode;
	WRITE_ONCE(dev->ext_mode, mode);
	return count;
}
static DEVICE_ATTR_RW(ext);

static ssize_t paths_show(struct device *device,
			  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(rmp_sysfs_dev(device)->paths));
}

static ssize_t paths_store(struct device *device,
			   struct device_attribute *attr, const char *buf,
			   size_t count)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);
	u8 n;

	if (!rmp_sysfs_may_set(dev))
		return -EPERM;
	if (kstrtou8(buf, 10, &n) || !n || n > RMP_PATHS_MAX)
		return -EINVAL;
	WRITE_ONCE(dev->paths, n);
	return count;
}
static DEVICE_ATTR_RW(paths);

static const char *const rmp_spray_names[RMP_SPRAY_NR] = {
	[RMP_SPRAY_RR] = "rr",
	[RMP_SPRAY_WEIGHTED] = "weighted",
	[RMP_SPRAY_FLOWLET] = "flowlet",
};

static ssize_t spray_show(struct device *device,
			  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
		rmp_spray_names[READ_ONCE(rmp_sysfs_dev(device)->spray)]);
}

static ssize_t spray_store(struct device *device,
			   struct device_attribute *attr, const char *buf,
			   size_t count)
{
	struct rmp_dev *dev = rmp_sysfs_dev(device);
	int i;

	if (!rmp_sysfs_may_set(dev))
		return -EPERM;
	i = sysfs_match_string(rmp_spray_names, buf);
	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(dev->spray, i);
	return count;
}
static DEVICE_ATTR_RW(spray);

static struct attribute *rmp_sysfs_attrs[] = {
	&dev_attr_netdev.attr,
	&dev_attr_ext.attr,
	&dev_attr_paths.attr,
	&dev_attr_spray.attr,
	NULL
};

const struct attribute_group rmp_sysfs_group = {
	.name = "rmp",
	.attrs = rmp_sysfs_attrs,
};
