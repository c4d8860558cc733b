/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "rmp" (include/uapi/rdma/rmp_netlink.h).
 */
#ifndef RMP_NETLINK_H
#define RMP_NETLINK_H

int rmp_netlink_register(void);
void rmp_netlink_unregister(void);

#endif /* RMP_NETLINK_H */
