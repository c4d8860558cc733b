// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: counters
 *
 * Counters are kept per CPU and summed when read, shown on port 1 through
 * ib_core's hw counter interface. Every packet rmp drops is counted under
 * the reason it was dropped for.
 */
#include <rdma/ib_verbs.h>

#include "rmp_dev.h"
#include "rmp_stats.h"
#include "rmp_trace.h"

static const struct rdma_stat_desc rmp_stat_descs[RMP_CNT_MAX] = {
	[RMP_CNT_RX_PACKETS] = { .name = "rx_packets" },
	[RMP_CNT_RX_DROP_MALFORMED] = { .name = "rx_drop_malformed" },
	[RMP_CNT_RX_DROP_NO_QP] = { .name = "rx_drop_no_qp" },
	[RMP_CNT_RX_DROP_ICRC] = { .name = "rx_drop_icrc" },
	[RMP_CNT_RX_DROP_NOMEM] = { .name = "rx_drop_nomem" },
	[RMP_CNT_TX_PACKETS] = { .name = "tx_packets" },
	[RMP_CNT_TX_DROP] = { .name = "tx_drop" },
	[RMP_CNT_RX_DROP_QP] = { .name = "rx_drop_qp" },
	[RMP_CNT_RX_DROP_QP_BUSY] = { .name = "rx_drop_qp_busy" },
	[RMP_CNT_RX_DROP_NO_WQE] = { .name = "rx_drop_no_wqe" },
	[RMP_CNT_TX_RETRANSMITS] = { .name = "tx_retransmits" },
	[RMP_CNT_ACK_TIMEOUTS] = { .name = "ack_timeouts" },
	[RMP_CNT_RX_SEQ_NAKS] = { .name = "rx_seq_naks" },
	[RMP_CNT_RX_RNR_NAKS] = { .name = "rx_rnr_naks" },
	[RMP_CNT_RX_STALE_RESPONSES] = { .name = "rx_stale_responses" },
	[RMP_CNT_RX_DUP_REQUESTS] = { .name = "rx_dup_requests" },
	[RMP_CNT_RX_OUT_OF_SEQ] = { .name = "rx_out_of_seq" },
	[RMP_CNT_TX_RNR_NAKS] = { .name = "tx_rnr_naks" },
	[RMP_CNT_TX_ERROR_NAKS] = { .name = "tx_error_naks" },
	[RMP_CNT_RX_DROP_PKEY] = { .name = "rx_drop_pkey" },
	[RMP_CNT_EXT_ASKED] = { .name = "ext_asked" },
	[RMP_CNT_EXT_AGREED] = { .name = "ext_agreed" },
	[RMP_CNT_EXT_STANDARD] = { .name = "ext_standard" },
	[RMP_CNT_TX_SPRAYED] = { .name = "tx_sprayed" },
	[RMP_CNT_TX_SELECTIVE_RETRANSMITS] = {
		.name = "tx_selective_retransmits" },
	[RMP_CNT_RX_SACKS] = { .name = "rx_sacks" },
	[RMP_CNT_RX_HELD] = { .name = "rx_held" },
	[RMP_CNT_PATH_DEATHS] = { .name = "path_deaths" },
	[RMP_CNT_PATH_REVIVALS] = { .name = "path_revivals" },
	[RMP_CNT_PATH_REPLACED] = { .name = "path_replaced" },
	[RMP_CNT_PATH_HOMECOMINGS] = { .name = "path_homecomings" },
	[RMP_CNT_RX_ECN_ECHOES] = { .name = "rx_ecn_echoes" },
	[RMP_CNT_RX_ECN_MARKED] = { .name = "rx_ecn_marked" },
	[RMP_CNT_TX_CNPS] = { .name = "tx_cnps" },
	[RMP_CNT_RX_CNPS] = { .name = "rx_cnps" },
	[RMP_CNT_CC_RATE_CUTS] = { .name = "cc_rate_cuts" },
	[RMP_CNT_CC_RATE_RAISES] = { .name = "cc_rate_raises" },
	[RMP_CNT_TX_GRANTS] = { .name = "tx_grants" },
	[RMP_CNT_RX_GRANTS] = { .name = "rx_grants" },
	[RMP_CNT_RX_STALE_GRANTS] = { .name = "rx_stale_grants" },
	[RMP_CNT_TX_CREDIT_REQUESTS] = { .name = "tx_credit_requests" },
	[RMP_CNT_RX_CREDIT_REQUESTS] = { .name = "rx_credit_requests" },
	[RMP_CNT_CC_CREDIT_STALLS] = { .name = "cc_credit_stalls" },
	[RMP_CNT_CC_CREDIT_GRANTED] = { .name = "cc_credit_granted" },
	[RMP_CNT_CC_CREDIT_CUTS] = { .name = "cc_credit_cuts" },
	[RMP_CNT_CC_CREDIT_LATE_BYTES] = { .name = "cc_credit_late_bytes" },
	[RMP_CNT_TX_READ_SPRAYED] = { .name = "tx_read_sprayed" },
	[RMP_CNT_RX_READ_OOO] = { .name = "rx_read_ooo" },
	[RMP_CNT_TX_READ_REPAIRS] = { .name = "tx_read_repairs" },
	[RMP_CNT_TX_READ_REPORTS] = { .name = "tx_read_reports" },
	[RMP_CNT_RX_READ_REPORTS] = { .name = "rx_read_reports" },
	[RMP_CNT_RX_BAD_READ_REPORTS] = { .name = "rx_bad_read_reports" },
	[RMP_CNT_TX_ACKED] = { .name = "tx_acked" },
};

/**
 * rmp_stats_paths_start() - start watching a path set just set up
 * @seen: what is seen of it from now on
 * @ps: the path set
 */
void rmp_stats_paths_start(struct rmp_stats_paths_seen *seen,
			   const struct rmp_paths *ps)
{
	u32 i;

	memset(seen, 0, sizeof(*seen));
	seen->live = ps->live_mask;
	for (i = 0; i < ps->cfg.npaths; i++) {
		seen->sport[i] = ps->path[i].sport;
		seen->home[i] = ps->path[i].home_sport;
	}
}

/**
 * rmp_stats_paths() - count and trace what happened to a QP's paths
 * @s: the device's counters
 * @dev: the device's name, for the trace
 * @qpn: the QP
 * @ps: its path set (a requester's, or a responder's for READ responses)
 * @seen: what was seen of it last time; updated
 *
 * Path deaths, revivals, entropy replacements and returns to a home port
 * since last time go to the device's counters, and each path that
 * changed is traced (``rmp_path``, one event per path and kind at most;
 * a new port is ``home`` if it is the home the path had).
 */
void rmp_stats_paths(struct rmp_stats *s, const char *dev, u32 qpn,
		     const struct rmp_paths *ps,
		     struct rmp_stats_paths_seen *seen)
{
	u64 deaths = 0, revivals = 0, replaced = 0, homecomings = 0, changed;
	const struct rmp_path *p;
	u32 i;

	changed = seen->live ^ ps->live_mask;
	for (i = 0; i < ps->cfg.npaths; i++) {
		p = &ps->path[i];
		deaths += p->stats.deaths;
		revivals += p->stats.revivals;
		replaced += p->stats.replaced;
		homecomings += p->stats.homecomings;
		if (changed >> i & 1)
			trace_rmp_path(dev, qpn, i, p->sport,
				       rmp_paths_live(ps, i) ?
				       RMP_PATH_REVIVED : RMP_PATH_DIED);
		if (p->sport != seen->sport[i])
			trace_rmp_path(dev, qpn, i, p->sport,
				       p->sport == seen->home[i] ?
				       RMP_PATH_HOME : RMP_PATH_REPLACED);
		seen->sport[i] = p->sport;
		seen->home[i] = p->home_sport;
	}
	seen->live = ps->live_mask;
	rmp_stats_add(s, RMP_CNT_PATH_DEATHS, deaths - seen->deaths);
	rmp_stats_add(s, RMP_CNT_PATH_REVIVALS, revivals - seen->revivals);
	rmp_stats_add(s, RMP_CNT_PATH_REPLACED, replaced - seen->replaced);
	rmp_stats_add(s, RMP_CNT_PATH_HOMECOMINGS,
		      homecomings - seen->homecomings);
	seen->deaths = deaths;
	seen->revivals = revivals;
	seen->replaced = replaced;
	seen->homecomings = homecomings;
}

/**
 * rmp_stats_init() - allocate a counter set, zeroed
 * @s: counters
 *
 * Return: 0 or -ENOMEM.
 */
int rmp_stats_init(struct rmp_stats *s)
{
	s->cpu = alloc_percpu(struct rmp_stats_set);
	return s->cpu ? 0 : -ENOMEM;
}

/**
 * rmp_stats_destroy() - free a counter set
 * @s: counters, from rmp_stats_init() (which may have failed)
 */
void rmp_stats_destroy(struct rmp_stats *s)
{
	free_percpu(s->cpu);
	s->cpu = NULL;
}

/**
 * rmp_stats_alloc_port() - ib_device_ops.alloc_hw_port_stats
 * @ibdev: device
 * @port_num: port (rmp devices have one)
 *
 * Return: a stats struct describing every rmp counter, or NULL.
 */
struct rdma_hw_stats *rmp_stats_alloc_port(struct ib_device *ibdev,
					   u32 port_num)
{
	return rdma_alloc_hw_stats_struct(rmp_stat_descs, RMP_CNT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * rmp_stats_get() - ib_device_ops.get_hw_stats
 * @ibdev: device
 * @stats: filled with the current values
 * @port_num: port
 * @index: counter asked for (all are filled regardless)
 *
 * Return: the number of counters filled.
 */
int rmp_stats_get(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		  u32 port_num, int index)
{
	rmp_stats_read(&to_rmp_dev(ibdev)->stats, stats->value);
	return RMP_CNT_MAX;
}

/**
 * rmp_stats_read() - the device's counters, summed over the CPUs
 * @s: counters
 * @val: filled with the values, by &enum rmp_counter
 */
void rmp_stats_read(struct rmp_stats *s, u64 val[RMP_CNT_MAX])
{
	const struct rmp_stats_set *set;
	int cpu, i;

	memset(val, 0, sizeof(*val) * RMP_CNT_MAX);
	for_each_possible_cpu(cpu) {
		set = per_cpu_ptr(s->cpu, cpu);
		for (i = 0; i < RMP_CNT_MAX; i++)
			val[i] += READ_ONCE(set->c[i]);
	}
}

/**
 * rmp_stats_name() - a counter's name
 * @i: the counter
 *
 * Return: its name, as ``rdma statistic`` shows it.
 */
const char *rmp_stats_name(enum rmp_counter i)
{
	return rmp_stat_descs[i].name;
}
