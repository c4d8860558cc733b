/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * librmpdv: direct verbs of rmp devices, next to libibverbs. Per-QP
 * overrides of the device knobs paths, spray, cc and rcc_unsched, and the
 * paths of a spraying QP with their counters. See rmpdv(3).
 */
#ifndef RMPDV_H
#define RMPDV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a QP can override: the device knobs of the same names. */
enum rmpdv_qp_opt {
	RMPDV_QP_OPT_PATHS,	/* paths: 1..64 */
	RMPDV_QP_OPT_SPRAY,	/* spray: enum rmpdv_spray */
	RMPDV_QP_OPT_CC,	/* cc: enum rmpdv_cc */
	RMPDV_QP_OPT_UNSCHED,	/* rcc_unsched: KiB, 0..65536 */
};

/* The value that hands an option back to the device's knob. */
#define RMPDV_VALUE_DEFAULT UINT32_MAX

enum rmpdv_spray {
	RMPDV_SPRAY_RR,
	RMPDV_SPRAY_WEIGHTED,
	RMPDV_SPRAY_FLOWLET,
};

enum rmpdv_cc {
	RMPDV_CC_NONE,
	RMPDV_CC_DCQCN,
	RMPDV_CC_RCC,
};

/* One path of a spraying QP. */
struct rmpdv_path_stats {
	uint16_t sport;		/* its UDP source port */
	bool live;		/* false: dead, carrying only probes */
	uint32_t inflight;	/* packets neither delivered nor lost */
	uint32_t srtt_ns;	/* smoothed round trip, 0 before one */
	uint32_t ecn_share;	/* deliveries ECN marked, in 1/1024 */
	uint64_t sent;		/* packets sent, probes included */
	uint64_t delivered;	/* packets the receiver acknowledged */
	uint64_t lost;		/* packets declared lost, hence sent again */
	uint64_t ecn_marked;	/* deliveries seen ECN marked */
	uint64_t deaths;	/* times declared dead */
	uint64_t revivals;	/* times a probe brought it back */
	uint64_t replaced;	/* times its source port was replaced */
	/* Since librmpdv 1.1 (symbol version RMPDV_1.1): */
	uint64_t sent_bytes;	/* payload bytes sent, probes included */
	uint64_t delivered_bytes;	/* payload bytes acknowledged */
};

/* Whether the device behind @ctx is an rmp device (not rxe or other). */
bool rmpdv_is_rmp_device(struct ibv_context *ctx);

/*
 * Give @qp (RC or UC) its own @value of @opt, or RMPDV_VALUE_DEFAULT to
 * hand it back to the device's knob. Return: 0, or an errno value (errno
 * is set too).
 */
int rmpdv_qp_set(struct ibv_qp *qp, enum rmpdv_qp_opt opt, uint32_t value);

/*
 * The value @opt has for @qp, its own or its device's; @own (may be NULL)
 * says which. Return: 0, or an errno value.
 */
int rmpdv_qp_get(struct ibv_qp *qp, enum rmpdv_qp_opt opt, uint32_t *value,
		 bool *own);

/*
 * The paths of @qp: up to @max of them into @out, and in @n how many it
 * has (0 if it does not spray). Return: 0, or an errno value.
 */
int rmpdv_qp_query_paths(struct ibv_qp *qp, struct rmpdv_path_stats *out,
			 size_t max, size_t *n);

#ifdef __cplusplus
}
#endif

#endif /* RMPDV_H */
