/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Talking to the kernel's "rmp" generic netlink family over libmnl.
 */
#ifndef RMPCTL_NL_H
#define RMPCTL_NL_H

#include <stdint.h>
#include <libmnl/libmnl.h>

struct rmpnl {
	struct mnl_socket *sk;
	uint16_t family;
	uint32_t seq;
	char *buf;
	/* The kernel's extended ACK message of the last failed request. */
	char errmsg[256];
};

/* Called for each reply message; returns MNL_CB_OK or MNL_CB_ERROR. */
typedef int (*rmpnl_cb)(const struct nlmsghdr *nlh, void *data);

int rmpnl_open(struct rmpnl *nl);
void rmpnl_close(struct rmpnl *nl);
struct nlmsghdr *rmpnl_request(struct rmpnl *nl, uint8_t cmd, uint16_t flags);
int rmpnl_talk(struct rmpnl *nl, struct nlmsghdr *nlh, rmpnl_cb cb,
	       void *data);
const char *rmpnl_error(const struct rmpnl *nl, int err);

#endif /* RMPCTL_NL_H */
