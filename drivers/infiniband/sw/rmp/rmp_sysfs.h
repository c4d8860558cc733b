/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp sysfs: /sys/class/infiniband/<dev>/rmp/
 */
#ifndef RMP_SYSFS_H
#define RMP_SYSFS_H

#include <linux/sysfs.h>

extern const struct attribute_group rmp_sysfs_group;

void rmp_sysfs_init(void);

#endif /* RMP_SYSFS_H */
