/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp verbs: the ib_device_ops rmp implements.
 */
#ifndef RMP_VERBS_H
#define RMP_VERBS_H

#include <rdma/ib_verbs.h>

struct rmp_dev;

/*
 * User ABI version of the Soft-RoCE provider in rdma-core, which drives rmp
 * devices (see Documentation/rmp/design.rst).
 */
#define RMP_UVERBS_ABI_VERSION 2

/* Limits reported by query_device and enforced by the verbs. */
#define RMP_MAX_PD 0x10000
#define RMP_GID_TABLE_LEN 32
#define RMP_VENDOR_ID 0xffffff

/**
 * struct rmp_pd - protection domain
 * @ibpd: ib_core object (first, as ib_core allocates it)
 */
struct rmp_pd {
	struct ib_pd ibpd;
};

/**
 * struct rmp_ucontext - user context of one process's device file
 * @ibuc: ib_core object
 */
struct rmp_ucontext {
	struct ib_ucontext ibuc;
};

void rmp_verbs_init(struct rmp_dev *dev);
int rmp_verbs_register(struct rmp_dev *dev, const char *name);
void rmp_verbs_port_event(struct rmp_dev *dev);

#endif /* RMP_VERBS_H */
