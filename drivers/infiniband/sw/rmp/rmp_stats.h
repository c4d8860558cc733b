/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp device counters, exported as ib_core hw counters
 * (``rdma statistic show link DEV/1``).
 */
#ifndef RMP_STATS_H
#define RMP_STATS_H

#include <linux/percpu.h>

#include "engine/paths.h"

struct ib_device;
struct rdma_hw_stats;

enum rmp_counter {
	RMP_CNT_RX_PACKETS,
	RMP_CNT_RX_DROP_MALFORMED,
	RMP_CNT_RX_DROP_NO_QP,
	RMP_CNT_RX_DROP_ICRC,
	RMP_CNT_RX_DROP_NOMEM,
	RMP_CNT_TX_PACKETS,
	RMP_CNT_TX_DROP,
	RMP_CNT_RX_DROP_QP,
	RMP_CNT_RX_DROP_QP_BUSY,
	RMP_CNT_RX_DROP_NO_WQE,
	RMP_CNT_TX_RETRANSMITS,
	RMP_CNT_ACK_TIMEOUTS,
	RMP_CNT_RX_SEQ_NAKS,
	RMP_CNT_RX_RNR_NAKS,
	RMP_CNT_RX_STALE_RESPONSES,
	RMP_CNT_RX_DUP_REQUESTS,
	RMP_CNT_RX_OUT_OF_SEQ,
	RMP_CNT_TX_RNR_NAKS,
	RMP_CNT_TX_ERROR_NAKS,
	RMP_CNT_RX_DROP_PKEY,
	RMP_CNT_EXT_ASKED,
	RMP_CNT_EXT_AGREED,
	RMP_CNT_EXT_STANDARD,
	RMP_CNT_TX_SPRAYED,
	RMP_CNT_TX_SELECTIVE_RETRANSMITS,
	RMP_CNT_RX_SACKS,
	RMP_CNT_RX_HELD,
	RMP_CNT_PATH_DEATHS,
	RMP_CNT_PATH_REVIVALS,
	RMP_CNT_PATH_REPLACED,
	RMP_CNT_PATH_HOMECOMINGS,
	RMP_CNT_RX_ECN_ECHOES,
	RMP_CNT_RX_ECN_MARKED,
	RMP_CNT_TX_CNPS,
	RMP_CNT_RX_CNPS,
	RMP_CNT_CC_RATE_CUTS,
	RMP_CNT_CC_RATE_RAISES,
	RMP_CNT_TX_GRANTS,
	RMP_CNT_RX_GRANTS,
	RMP_CNT_RX_STALE_GRANTS,
	RMP_CNT_TX_CREDIT_REQUESTS,
	RMP_CNT_RX_CREDIT_REQUESTS,
	RMP_CNT_CC_CREDIT_STALLS,
	RMP_CNT_CC_CREDIT_GRANTED,
	RMP_CNT_CC_CREDIT_CUTS,
	RMP_CNT_CC_CREDIT_LATE_BYTES,
	RMP_CNT_TX_READ_SPRAYED,
	RMP_CNT_RX_READ_OOO,
	RMP_CNT_TX_READ_REPAIRS,
	RMP_CNT_TX_READ_REPORTS,
	RMP_CNT_RX_READ_REPORTS,
	RMP_CNT_RX_BAD_READ_REPORTS,
	RMP_CNT_TX_ACKED,
	RMP_CNT_MAX
};

/**
 * struct rmp_stats_set - one CPU's counts
 * @c: one counter per enum rmp_counter; unsigned long, like the netdev
 *	core's per-CPU counters: a reader never sees half of an update
 */
struct rmp_stats_set {
	unsigned long c[RMP_CNT_MAX];
};

/**
 * struct rmp_stats - a device's counters
 * @cpu: one set per CPU, summed when read: counting a packet then touches
 *	no cache line another CPU writes
 */
struct rmp_stats {
	struct rmp_stats_set __percpu *cpu;
};

static inline void rmp_stats_add(struct rmp_stats *s, enum rmp_counter i,
				 unsigned long n)
{
	if (n)
		this_cpu_add(s->cpu->c[i], n);
}

static inline void rmp_stats_inc(struct rmp_stats *s, enum rmp_counter i)
{
	this_cpu_inc(s->cpu->c[i]);
}

/**
 * struct rmp_stats_paths_seen - what was last seen of a QP's path set
 * @deaths: deaths of its paths already added to the device's counters
 * @revivals: revivals already added
 * @replaced: entropy replacements already added
 * @homecomings: paths that went back to their home port, already added
 * @live: the live paths when last looked at, for tracing changes
 * @sport: each path's UDP source port when last looked at
 * @home: each path's home port when last looked at (0: none)
 */
struct rmp_stats_paths_seen {
	u64 deaths;
	u64 revivals;
	u64 replaced;
	u64 homecomings;
	u64 live;
	u16 sport[RMP_PATHS_MAX];
	u16 home[RMP_PATHS_MAX];
};

int rmp_stats_init(struct rmp_stats *s);
void rmp_stats_paths_start(struct rmp_stats_paths_seen *seen,
			   const struct rmp_paths *ps);
void rmp_stats_paths(struct rmp_stats *s, const char *dev, u32 qpn,
		     const struct rmp_paths *ps,
		     struct rmp_stats_paths_seen *seen);
void rmp_stats_destroy(struct rmp_stats *s);
struct rdma_hw_stats *rmp_stats_alloc_port(struct ib_device *ibdev,
					   u32 port_num);
int rmp_stats_get(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		  u32 port_num, int index);
void rmp_stats_read(struct rmp_stats *s, u64 val[RMP_CNT_MAX]);
const char *rmp_stats_name(enum rmp_counter i);

#endif /* RMP_STATS_H */
