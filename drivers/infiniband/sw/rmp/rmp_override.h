/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-QP overrides of the device knobs paths, spray, cc and rcc_unsched.
 */
#ifndef RMP_OVERRIDE_H
#define RMP_OVERRIDE_H

#include <linux/types.h>
#include <rdma/rmp_user_ioctl.h>

#include "rmp_knob.h"

struct rmp_qp;
struct rmp_qp_sink;

/**
 * struct rmp_override - a QP's own values of some device knobs
 * @val: by &enum rmp_ib_qp_opt: the QP's value, or %RMP_IB_QP_OPT_DEFAULT
 *	for its device's knob; each read and written on its own
 *	(READ_ONCE(), WRITE_ONCE()), as the knobs are
 */
struct rmp_override {
	u32 val[RMP_IB_QP_OPT_NR];
};

void rmp_override_init(struct rmp_override *o);
int rmp_override_opt(enum rmp_knob_id id);
enum rmp_knob_id rmp_override_knob(enum rmp_ib_qp_opt opt);
u32 rmp_qp_knob(const struct rmp_qp *qp, enum rmp_knob_id id);
u32 rmp_override_get(const struct rmp_qp *qp, enum rmp_ib_qp_opt opt,
		     bool *own);
int rmp_override_set(struct rmp_qp *qp, u32 opt, u32 val);
int rmp_override_parse(enum rmp_knob_id id, const char *buf, u32 *val);
int rmp_override_report(const struct rmp_qp *qp, struct rmp_qp_sink *s);

#endif /* RMP_OVERRIDE_H */
