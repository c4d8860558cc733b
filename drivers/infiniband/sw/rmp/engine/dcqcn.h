/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN rate control of one QP: the reaction point's rate, cut by CNPs and
 * raised again by a timer and a byte counter; the pacer that holds the QP
 * to that rate; and the notification point's gate on CNPs.
 */
#ifndef RMP_ENGINE_DCQCN_H
#define RMP_ENGINE_DCQCN_H

#include "compat.h"

/* Fixed-point one for alpha (&rmp_dcqcn.alpha). */
#define RMP_DCQCN_ALPHA_SHIFT	20
#define RMP_DCQCN_ALPHA_ONE	BIT(RMP_DCQCN_ALPHA_SHIFT)
/* Highest line rate, kbit/s (1 Tbit/s): bounds every product below. */
#define RMP_DCQCN_LINE_MAX	1000000000ULL
/* Largest &rmp_dcqcn_cfg.g_shift: g no smaller than 1/65536. */
#define RMP_DCQCN_G_SHIFT_MAX	16
/* Largest &rmp_dcqcn_cfg.fast_stages. */
#define RMP_DCQCN_STAGES_MAX	64
/* Largest &rmp_dcqcn_cfg.burst_bytes. */
#define RMP_DCQCN_BURST_MAX	BIT(30)
/* Pacer tokens of one byte: a kbit/s for a ns gives one token. */
#define RMP_DCQCN_TOKENS_PER_BYTE	8000000ULL
/*
 * Rate-increase events due at once that are stepped through while hyper
 * increase still speeds up, before the rest are leapt over (dcqcn.c).
 */
#define RMP_DCQCN_EXACT		128
/* rmp_dcqcn_deadline(): nothing to wait for. */
#define RMP_DCQCN_NEVER		(~0ULL)
/* Defaults of rmp_dcqcn_cfg_default() that do not follow the line rate. */
#define RMP_DCQCN_DEF_MIN_KBPS		1000
#define RMP_DCQCN_DEF_G_SHIFT		8
#define RMP_DCQCN_DEF_PERIOD_US		55
/* A slower line's K and T: the time it takes to carry this many bytes. */
#define RMP_DCQCN_PERIOD_BYTES		12288
#define RMP_DCQCN_DEF_FAST_STAGES	5
/* Notification point: at most one CNP per QP this often, as NICs do. */
#define RMP_CNP_INTERVAL_NS	50000ULL

/**
 * struct rmp_dcqcn_cfg - parameters of a reaction point and its pacer
 * @line_kbps: the link's rate, kbit/s: the rate to start at and the
 *	ceiling, 1 to %RMP_DCQCN_LINE_MAX
 * @min_kbps: the floor a cut stops at, 1 to @line_kbps
 * @g_shift: alpha's gain is g = 1 / 2^@g_shift, 1 to
 *	%RMP_DCQCN_G_SHIFT_MAX
 * @alpha_period_ns: K: alpha decays each time this passes with no CNP
 * @rate_period_ns: T: the rate-increase timer's period
 * @byte_threshold: B: bytes sent that make one rate-increase event
 * @fast_stages: F: events of the timer or of the byte counter, after a
 *	cut, that are fast recovery, 1 to %RMP_DCQCN_STAGES_MAX
 * @ai_kbps: R_AI, the additive increase of the target rate, 1 to
 *	@line_kbps
 * @hai_kbps: R_HAI, the hyper increase step, @ai_kbps to @line_kbps
 * @burst_bytes: the pacer's bucket depth: bytes that may leave back to
 *	back, 1 to %RMP_DCQCN_BURST_MAX
 * @cut_interval_ns: a CNP this soon after the last cut cuts nothing: the
 *	cut already answered the congestion it reports (NICs' rate-reduce
 *	monitor period); 0 cuts on every CNP
 */
struct rmp_dcqcn_cfg {
	u64 line_kbps;
	u64 min_kbps;
	u32 g_shift;
	u64 alpha_period_ns;
	u64 rate_period_ns;
	u64 byte_threshold;
	u32 fast_stages;
	u64 ai_kbps;
	u64 hai_kbps;
	u64 burst_bytes;
	u64 cut_interval_ns;
};

/**
 * struct rmp_dcqcn_stats - counters of a reaction point
 * @cnps: CNPs received
 * @cuts: CNPs that cut the rate (the others came within
 *	&rmp_dcqcn_cfg.cut_interval_ns of a cut)
 * @floored: cuts stopped by &rmp_dcqcn_cfg.min_kbps
 * @increases: rate-increase events applied, of all three kinds
 * @fast: fast-recovery events
 * @additive: additive-increase events
 * @hyper: hyper-increase events
 * @timer_events: rate-increase timer expiries below the line rate
 * @byte_events: byte-counter expiries below the line rate
 * @packets: packets reported sent
 * @bytes: bytes reported sent
 */
struct rmp_dcqcn_stats {
	u64 cnps;
	u64 cuts;
	u64 floored;
	u64 increases;
	u64 fast;
	u64 additive;
	u64 hyper;
	u64 timer_events;
	u64 byte_events;
	u64 packets;
	u64 bytes;
};

/**
 * struct rmp_dcqcn - reaction point and pacer of one QP
 * @cfg: parameters
 * @rc_kbps: Rc, the current rate: what the pacer lets out
 * @rt_kbps: Rt, the target rate recovery heads for
 * @alpha: the congestion estimate, in 1/%RMP_DCQCN_ALPHA_ONE (1 at start)
 * @alpha_base: @alpha as the last CNP left it
 * @alpha_start: when the last CNP came: alpha's decays count from there
 * @alpha_periods: decays (alpha periods) @alpha has had since then
 * @timer_stage: rate-increase timer events since the last cut
 * @byte_stage: byte-counter events since the last cut
 * @bytes: bytes sent since the byte counter's last event or the last cut
 * @rate_start: when the last cut came: the rate timer's periods count
 *	from there
 * @rate_periods: rate timer periods handled since then
 * @last_cut: when the rate was last cut
 * @has_cut: it has been cut: alpha decays from then on
 * @tokens: the pacer's bucket, in 1/%RMP_DCQCN_TOKENS_PER_BYTE bytes;
 *	negative while a packet larger than what was left is repaid
 * @pacer_last: when @tokens was last brought up to date
 * @stats: counters
 *
 * Rates stay within &rmp_dcqcn_cfg.min_kbps <= @rc_kbps <= @rt_kbps <=
 * &rmp_dcqcn_cfg.line_kbps. Alpha decays only once a CNP came: it is 1 at
 * the first cut, as NICs set it when they meet a flow's first CNP.
 */
struct rmp_dcqcn {
	struct rmp_dcqcn_cfg cfg;
	u64 rc_kbps;
	u64 rt_kbps;
	u32 alpha;
	u32 alpha_base;
	u64 alpha_start;
	u64 alpha_periods;
	u32 timer_stage;
	u32 byte_stage;
	u64 bytes;
	u64 rate_start;
	u64 rate_periods;
	u64 last_cut;
	bool has_cut;
	s64 tokens;
	u64 pacer_last;
	struct rmp_dcqcn_stats stats;
};

/**
 * struct rmp_cnp_gate - a notification point's memory of its last CNP
 * @last_ns: when the QP last sent a CNP
 * @sent_any: it has sent one
 *
 * All zero is a gate that has let nothing through.
 */
struct rmp_cnp_gate {
	u64 last_ns;
	bool sent_any;
};

void rmp_dcqcn_cfg_default(struct rmp_dcqcn_cfg *cfg, u64 line_kbps);
int rmp_dcqcn_cfg_check(const struct rmp_dcqcn_cfg *cfg);
void rmp_dcqcn_init(struct rmp_dcqcn *d, const struct rmp_dcqcn_cfg *cfg,
		    u64 now);
void rmp_dcqcn_cnp(struct rmp_dcqcn *d, u64 now);
bool rmp_dcqcn_may_send(const struct rmp_dcqcn *d, u64 now);
u64 rmp_dcqcn_next_send(const struct rmp_dcqcn *d, u64 now);
void rmp_dcqcn_sent(struct rmp_dcqcn *d, u32 bytes, u64 now);
void rmp_dcqcn_tick(struct rmp_dcqcn *d, u64 now);
u64 rmp_dcqcn_deadline(const struct rmp_dcqcn *d, u64 now);
u64 rmp_dcqcn_rate(const struct rmp_dcqcn *d);
bool rmp_cnp_gate_pass(struct rmp_cnp_gate *g, u64 interval_ns, u64 now);

#endif /* RMP_ENGINE_DCQCN_H */
