/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * rmp's driver-specific uverbs methods: per-QP overrides of device knobs
 * and per-path statistics, reached with RDMA_VERBS_IOCTL on the verbs
 * command file of an rmp device (librmpdv, Documentation/rmp/librmpdv.rst).
 *
 * rmp devices register with the Soft-RoCE driver id (RDMA_DRIVER_RXE), so
 * a request carries that id; the methods live in the driver namespace of
 * the device's own uverbs tree, which an rxe device does not have: there
 * the ioctl fails with EPROTONOSUPPORT.
 */
#ifndef _UAPI_RDMA_RMP_USER_IOCTL_H
#define _UAPI_RDMA_RMP_USER_IOCTL_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>

/*
 * What RMP_IB_METHOD_DEV_QUERY answers; raised when methods change.
 * 2: RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE, and the byte counters.
 */
#define RMP_IB_UAPI_VERSION	2

/* The first id of the driver namespace, for methods and attributes. */
#define RMP_IB_NS_ID(n)		((1U << UVERBS_ID_NS_SHIFT) + (n))

/* Methods of UVERBS_OBJECT_DEVICE (no object handle). */
enum rmp_ib_device_methods {
	/* Out RMP_IB_ATTR_DEV_QUERY_VERSION: tells rmp from rxe. */
	RMP_IB_METHOD_DEV_QUERY = RMP_IB_NS_ID(0),
};

enum rmp_ib_dev_query_attrs {
	RMP_IB_ATTR_DEV_QUERY_VERSION = RMP_IB_NS_ID(0),	/* out __u32 */
};

/* Methods of UVERBS_OBJECT_QP; the QP is one of the caller's own. */
enum rmp_ib_qp_methods {
	/* Set one override (or give it back to the device's knob). */
	RMP_IB_METHOD_QP_SET_OPT = RMP_IB_NS_ID(0),
	/* The value one option has for the QP, and whether it overrides. */
	RMP_IB_METHOD_QP_GET_OPT,
	/* The paths of a spraying QP, with their counters. */
	RMP_IB_METHOD_QP_QUERY_PATHS,
};

enum rmp_ib_qp_set_opt_attrs {
	RMP_IB_ATTR_QP_SET_OPT_HANDLE = RMP_IB_NS_ID(0),	/* the QP */
	RMP_IB_ATTR_QP_SET_OPT_ID,		/* in __u32: enum rmp_ib_qp_opt */
	RMP_IB_ATTR_QP_SET_OPT_VALUE,		/* in __u32, or ..._DEFAULT */
};

/* OVERRIDDEN (optional): 1 if the value is the QP's own, 0 if the knob's. */
enum rmp_ib_qp_get_opt_attrs {
	RMP_IB_ATTR_QP_GET_OPT_HANDLE = RMP_IB_NS_ID(0),	/* the QP */
	RMP_IB_ATTR_QP_GET_OPT_ID,		/* in __u32: enum rmp_ib_qp_opt */
	RMP_IB_ATTR_QP_GET_OPT_VALUE,		/* out __u32: the value */
	RMP_IB_ATTR_QP_GET_OPT_OVERRIDDEN,	/* out __u32 */
};

enum rmp_ib_qp_query_paths_attrs {
	RMP_IB_ATTR_QP_QUERY_PATHS_HANDLE = RMP_IB_NS_ID(0),	/* the QP */
	/*
	 * out: struct rmp_ib_path_stats[], as many as fit, each
	 * ..._STATS_SIZE bytes apart
	 */
	RMP_IB_ATTR_QP_QUERY_PATHS_STATS,
	RMP_IB_ATTR_QP_QUERY_PATHS_NUM,	/* out __u32: paths the QP has */
	/*
	 * in __u32 (version 2): the size of one STATS entry as the caller
	 * lays them out, a multiple of 8 from RMP_IB_PATH_STATS_SIZE_V1 to
	 * RMP_IB_PATH_STATS_SIZE_MAX. Each entry gets the fields that fit,
	 * zeros after the kernel's own. Without it, entries are
	 * RMP_IB_PATH_STATS_SIZE_V1 bytes (version 1). A caller that sends
	 * it as mandatory learns of a version 1 kernel from EPROTONOSUPPORT.
	 */
	RMP_IB_ATTR_QP_QUERY_PATHS_STATS_SIZE,
};

/*
 * The options a QP can override: the device knobs of the same names
 * (Documentation/ABI/testing/sysfs-class-infiniband-rmp), with the same
 * ranges. A word knob's value is the index of its word, as netlink's
 * RMP_KNOB_A_VALUE has it: spray rr 0, weighted 1, flowlet 2; cc none 0,
 * dcqcn 1, rcc 2.
 */
enum rmp_ib_qp_opt {
	RMP_IB_QP_OPT_PATHS,		/* paths: 1..64 */
	RMP_IB_QP_OPT_SPRAY,		/* spray: 0..2 */
	RMP_IB_QP_OPT_CC,		/* cc: 0..2 */
	RMP_IB_QP_OPT_RCC_UNSCHED,	/* rcc_unsched: KiB, 0..65536 */
	RMP_IB_QP_OPT_NR,
};

/* A value that hands an option back to the device's knob. */
#define RMP_IB_QP_OPT_DEFAULT	0xffffffffU

/* One path of a spraying QP, as the netlink QP_GET shows it. */
struct rmp_ib_path_stats {
	__u16 sport;		/* its UDP source port */
	__u8 live;		/* 1 live, 0 dead (probes only) */
	__u8 reserved;
	__u32 inflight;		/* packets neither delivered nor lost */
	__u32 srtt_ns;		/* smoothed round trip, 0 before one */
	__u32 ecn_share;	/* deliveries ECN marked, in 1/1024 */
	__aligned_u64 sent;	/* packets sent on it, probes included */
	__aligned_u64 delivered;	/* packets the receiver acknowledged */
	__aligned_u64 lost;	/* packets declared lost (and sent again) */
	__aligned_u64 ecn_marked;	/* deliveries seen ECN marked */
	__aligned_u64 deaths;	/* times declared dead */
	__aligned_u64 revivals;	/* times a probe brought it back */
	__aligned_u64 replaced;	/* times its source port was replaced */
	/* Version 1 ends here: RMP_IB_PATH_STATS_SIZE_V1 bytes. */
	__aligned_u64 sent_bytes;	/* payload sent, probes included */
	__aligned_u64 delivered_bytes;	/* payload acknowledged */
};

/* Sizes of a struct rmp_ib_path_stats entry the kernel takes. */
#define RMP_IB_PATH_STATS_SIZE_V1	72
#define RMP_IB_PATH_STATS_SIZE_MAX	512

#endif /* _UAPI_RDMA_RMP_USER_IOCTL_H */
