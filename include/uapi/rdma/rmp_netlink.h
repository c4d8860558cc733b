/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * The generic netlink family "rmp": knobs, counters and queue pairs of rmp
 * devices. Documentation/netlink/specs/rmp.yaml describes it; keep the two
 * in step (tests/suites/build.sh compares them).
 */
#ifndef _UAPI_RDMA_RMP_NETLINK_H
#define _UAPI_RDMA_RMP_NETLINK_H

#define RMP_GENL_NAME		"rmp"
#define RMP_GENL_VERSION	1

/* Longest knob name and knob value a request may carry, NUL included. */
#define RMP_KNOB_NAME_MAX	32
#define RMP_KNOB_VALUE_MAX	32

/*
 * Attributes directly in the messages. A device is named by
 * RMP_A_DEV_NAME or RMP_A_DEV_INDEX (its RDMA device index).
 */
enum {
	RMP_A_UNSPEC,
	RMP_A_PAD,
	RMP_A_DEV_INDEX,	/* u32 */
	RMP_A_DEV_NAME,		/* string */
	RMP_A_NETDEV,		/* string: the netdev the device is bound to */
	RMP_A_IFINDEX,		/* u32: its ifindex */
	RMP_A_KNOB,		/* nest, one per knob: RMP_KNOB_A_* */
	RMP_A_COUNTER,		/* nest, one per counter: RMP_COUNTER_A_* */
	RMP_A_KNOB_NAME,	/* string: the knob a DEV_SET or QP_SET sets */
	RMP_A_KNOB_VALUE,	/* string: its value, as its sysfs file takes it */
	RMP_A_QPN,		/* u32 */
	RMP_A_QP_TYPE,		/* string: RC, UC, UD, GSI */
	RMP_A_QP_STATE,		/* string: RESET, INIT, RTR, RTS, SQD, SQE, ERR */
	RMP_A_QP_PEER_QPN,	/* u32: the destination QP of an RC or UC QP */
	RMP_A_QP_FIGURE,	/* nest, one per figure: RMP_FIGURE_A_* */
	RMP_A_QP_PATH,		/* nest, one per path: RMP_PATH_A_* */

	__RMP_A_MAX,
	RMP_A_MAX = __RMP_A_MAX - 1
};

/* A knob of a device (RMP_A_KNOB). */
enum {
	RMP_KNOB_A_UNSPEC,
	RMP_KNOB_A_NAME,	/* string */
	RMP_KNOB_A_VALUE,	/* u32: a number, or a word's index */
	RMP_KNOB_A_UNIT,	/* string: a number's unit, "" for none */
	RMP_KNOB_A_WORD,	/* string: a word knob's word */

	__RMP_KNOB_A_MAX,
	RMP_KNOB_A_MAX = __RMP_KNOB_A_MAX - 1
};

/* A device counter (RMP_A_COUNTER), as `rdma statistic` names it. */
enum {
	RMP_COUNTER_A_UNSPEC,
	RMP_COUNTER_A_PAD,
	RMP_COUNTER_A_NAME,	/* string */
	RMP_COUNTER_A_VALUE,	/* u64 */

	__RMP_COUNTER_A_MAX,
	RMP_COUNTER_A_MAX = __RMP_COUNTER_A_MAX - 1
};

/*
 * A figure of a QP's transport (RMP_A_QP_FIGURE), the ones
 * `rdma resource show qp -dd` shows as drv_NAME.
 */
enum {
	RMP_FIGURE_A_UNSPEC,
	RMP_FIGURE_A_PAD,
	RMP_FIGURE_A_NAME,	/* string */
	RMP_FIGURE_A_VALUE,	/* u64: a number */
	RMP_FIGURE_A_WORD,	/* string: a word, instead of a number */
	RMP_FIGURE_A_HEX,	/* flag: the number reads best in hex (a PSN) */

	__RMP_FIGURE_A_MAX,
	RMP_FIGURE_A_MAX = __RMP_FIGURE_A_MAX - 1
};

/* A path of a spraying QP (RMP_A_QP_PATH). */
enum {
	RMP_PATH_A_UNSPEC,
	RMP_PATH_A_PAD,
	RMP_PATH_A_INDEX,	/* u32 */
	RMP_PATH_A_SPORT,	/* u16: its UDP source port */
	RMP_PATH_A_LIVE,	/* u8: 1 live, 0 dead (probes only) */
	RMP_PATH_A_INFLIGHT,	/* u32: packets neither delivered nor lost */
	RMP_PATH_A_SRTT_NS,	/* u32: smoothed round trip, 0 before one */
	RMP_PATH_A_ECN_SHARE,	/* u32: deliveries ECN marked, in 1/1024 */
	RMP_PATH_A_SENT,	/* u64: packets sent on it, probes included */
	RMP_PATH_A_DELIVERED,	/* u64: packets the receiver acknowledged */
	RMP_PATH_A_LOST,	/* u64: packets declared lost */
	RMP_PATH_A_ECN_MARKED,	/* u64: deliveries seen ECN marked */
	RMP_PATH_A_DEATHS,	/* u64: times declared dead */
	RMP_PATH_A_REVIVALS,	/* u64: times a probe brought it back */
	RMP_PATH_A_REPLACED,	/* u64: times its source port was replaced */
	RMP_PATH_A_SENT_BYTES,	/* u64: payload bytes sent, probes included */
	RMP_PATH_A_DELIVERED_BYTES,	/* u64: payload bytes acknowledged */

	__RMP_PATH_A_MAX,
	RMP_PATH_A_MAX = __RMP_PATH_A_MAX - 1
};

enum {
	RMP_CMD_UNSPEC,
	/*
	 * do: one device, by RMP_A_DEV_NAME or RMP_A_DEV_INDEX; dump: every
	 * device of the caller's network namespace. Replies: the device, its
	 * netdev, its knobs and its counters.
	 */
	RMP_CMD_DEV_GET,
	/*
	 * Set one knob (RMP_A_KNOB_NAME, RMP_A_KNOB_VALUE) of a device; needs
	 * CAP_NET_ADMIN in the device's network namespace.
	 */
	RMP_CMD_DEV_SET,
	/*
	 * do: one QP, by device and RMP_A_QPN; dump: the QPs of every device
	 * of the namespace, or of the one device the request names.
	 */
	RMP_CMD_QP_GET,
	/*
	 * Give the QP RMP_A_QPN of a device its own value of a knob
	 * (RMP_A_KNOB_NAME: paths, spray, cc or rcc_unsched), or with
	 * RMP_A_KNOB_VALUE "default" hand it back to the device's; needs
	 * CAP_NET_ADMIN in the device's network namespace.
	 */
	RMP_CMD_QP_SET,

	__RMP_CMD_MAX,
	RMP_CMD_MAX = __RMP_CMD_MAX - 1
};

#endif /* _UAPI_RDMA_RMP_NETLINK_H */
