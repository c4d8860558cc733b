/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device knobs: the settings an operator tunes per rmp device, one table
 * that sysfs (and every other control interface) reads and writes.
 */
#ifndef RMP_KNOB_H
#define RMP_KNOB_H

#include <linux/atomic.h>
#include <linux/types.h>

struct rmp_dev;

/**
 * enum rmp_knob_id - the knobs of a device
 * @RMP_KNOB_EXT: ``ext``, &enum rmp_ext_mode
 * @RMP_KNOB_PATHS: ``paths``, paths a multipath QP sprays over
 * @RMP_KNOB_SPRAY: ``spray``, &enum rmp_spray
 * @RMP_KNOB_CC: ``cc``, &enum rmp_cc_mode
 * @RMP_KNOB_ECN: ``ecn``, data packets leave ECN-capable (ECT(0))
 * @RMP_KNOB_ZCOPY: ``zcopy``, payloads attached to their packets, not
 *	copied, where they can be (rmp_pkt_new_from())
 * @RMP_KNOB_LINK_RATE: ``link_rate``, Mbit/s the port sends at, at most;
 *	0 for the netdev's speed
 * @RMP_KNOB_CNP_INTERVAL: ``cnp_interval``, us between two CNPs of a QP
 * @RMP_KNOB_CNP_DSCP: ``cnp_dscp``, the DSCP CNPs leave with
 * @RMP_KNOB_DCQCN_MIN_RATE: ``dcqcn_min_rate``, kbit/s
 * @RMP_KNOB_DCQCN_G_SHIFT: ``dcqcn_g_shift``, alpha gain 1/2^n
 * @RMP_KNOB_DCQCN_ALPHA_PERIOD: ``dcqcn_alpha_period``, us; 0 for the
 *	engine's choice for the port's rate
 * @RMP_KNOB_DCQCN_RATE_PERIOD: ``dcqcn_rate_period``, us; 0 likewise
 * @RMP_KNOB_DCQCN_BYTE_THRESHOLD: ``dcqcn_byte_threshold``, KiB; 0 for
 *	the engine's choice for the port's rate
 * @RMP_KNOB_DCQCN_FAST_STAGES: ``dcqcn_fast_stages``
 * @RMP_KNOB_DCQCN_AI_RATE: ``dcqcn_ai_rate``, kbit/s; 0 likewise
 * @RMP_KNOB_DCQCN_HAI_RATE: ``dcqcn_hai_rate``, kbit/s; 0 likewise
 * @RMP_KNOB_RCC_UNSCHED: ``rcc_unsched``, KiB a burst sends unscheduled
 * @RMP_KNOB_RCC_WINDOW: ``rcc_window``, KiB of credit a sender may hold
 * @RMP_KNOB_RCC_OVERCOMMIT: ``rcc_overcommit``, senders holding credit
 * @RMP_KNOB_RCC_POLICY: ``rcc_policy``, &enum rmp_credit_policy
 * @RMP_KNOB_RCC_ASK_PERIOD: ``rcc_ask_period``, us a held sender waits
 *	before asking again
 * @RMP_KNOB_RCC_IDLE: ``rcc_idle``, us of silence that unschedule a sender
 * @RMP_KNOB_GRANT_DSCP: ``grant_dscp``, the DSCP grants, credit
 *	requests and extension questions and answers leave with
 * @RMP_KNOB_RCC_UNSCHED_DSCP: ``rcc_unsched_dscp``, the DSCP a burst's
 *	unscheduled packets leave with; 0 for the QP's own traffic class
 * @RMP_KNOB_NR: number of knobs
 */
enum rmp_knob_id {
	RMP_KNOB_EXT,
	RMP_KNOB_PATHS,
	RMP_KNOB_SPRAY,
	RMP_KNOB_CC,
	RMP_KNOB_ECN,
	RMP_KNOB_ZCOPY,
	RMP_KNOB_LINK_RATE,
	RMP_KNOB_CNP_INTERVAL,
	RMP_KNOB_CNP_DSCP,
	RMP_KNOB_DCQCN_MIN_RATE,
	RMP_KNOB_DCQCN_G_SHIFT,
	RMP_KNOB_DCQCN_ALPHA_PERIOD,
	RMP_KNOB_DCQCN_RATE_PERIOD,
	RMP_KNOB_DCQCN_BYTE_THRESHOLD,
	RMP_KNOB_DCQCN_FAST_STAGES,
	RMP_KNOB_DCQCN_AI_RATE,
	RMP_KNOB_DCQCN_HAI_RATE,
	RMP_KNOB_RCC_UNSCHED,
	RMP_KNOB_RCC_WINDOW,
	RMP_KNOB_RCC_OVERCOMMIT,
	RMP_KNOB_RCC_POLICY,
	RMP_KNOB_RCC_ASK_PERIOD,
	RMP_KNOB_RCC_IDLE,
	RMP_KNOB_GRANT_DSCP,
	RMP_KNOB_RCC_UNSCHED_DSCP,
	RMP_KNOB_NR,
};

/**
 * enum rmp_cc_mode - the device knob ``cc``: how senders pace themselves
 * @RMP_CC_NONE: as fast as the window allows
 * @RMP_CC_DCQCN: a rate cut by each CNP the peer sends and regained
 *	over time, DCQCN-style (engine/dcqcn.h)
 * @RMP_CC_RCC: receiver credit with peers that agree to it
 *	(engine/credit.h), DCQCN with the others
 * @RMP_CC_NR: number of modes
 */
enum rmp_cc_mode {
	RMP_CC_NONE,
	RMP_CC_DCQCN,
	RMP_CC_RCC,
	RMP_CC_NR,
};

/**
 * struct rmp_knob - what a knob takes
 * @name: its name, also its file in sysfs
 * @unit: the unit of a number, "" for none; NULL for a word knob
 * @words: a word knob's words, indexed by value; NULL for a number
 * @min: smallest value (a word knob: 0)
 * @max: largest value (a word knob: the last word's index)
 * @def: value of a new device
 */
struct rmp_knob {
	const char *name;
	const char *unit;
	const char *const *words;
	u32 min;
	u32 max;
	u32 def;
};

extern const struct rmp_knob rmp_knobs[RMP_KNOB_NR];

void rmp_knob_defaults(struct rmp_dev *dev);
u32 rmp_knob_get(const struct rmp_dev *dev, enum rmp_knob_id id);
bool rmp_knob_in_range(enum rmp_knob_id id, u32 val);
int rmp_knob_parse(enum rmp_knob_id id, const char *buf, u32 *val);
int rmp_knob_format(enum rmp_knob_id id, u32 val, char *buf, size_t size);
int rmp_knob_set(struct rmp_dev *dev, enum rmp_knob_id id, u32 val);
int rmp_knob_lookup(const char *name);
int rmp_knob_describe(enum rmp_knob_id id, char *buf, size_t size);
void rmp_knob_changed(void);

extern atomic_t rmp_knob_changes;

/**
 * rmp_knob_epoch() - which change of the knobs was the last
 *
 * Return: an odd number, never 0, that moves on with every change of a
 * device's knob or a QP's override (rmp_knob_changed()); a value read
 * after it is at least as new as the epoch.
 */
static inline u32 rmp_knob_epoch(void)
{
	return atomic_read_acquire(&rmp_knob_changes);
}

#endif /* RMP_KNOB_H */
