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

/*
 * Limits reported by query_device and enforced by the verbs; documented in
 * Documentation/rmp/verbs.rst.
 */
#define RMP_MAX_PD 0x10000
#define RMP_MAX_QP 0x10000
#define RMP_MAX_QP_WR 0x4000
#define RMP_MAX_SGE 32
#define RMP_MAX_INLINE 512
#define RMP_MAX_CQ 0x10000
#define RMP_MAX_CQE 0x8000
#define RMP_MAX_MR 0x40000
#define RMP_MAX_MW 0x40000
#define RMP_MAX_FAST_REG_PAGES 512
#define RMP_MAX_SRQ 0x4000
#define RMP_MAX_SRQ_WR 0x4000
#define RMP_MAX_AH 0x8000
#define RMP_MAX_RD_ATOMIC 128
/* QPNs below this are reserved; QP1 is the GSI QP. */
#define RMP_MIN_QPN 16
#define RMP_MAX_QPN 0xffffff
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
