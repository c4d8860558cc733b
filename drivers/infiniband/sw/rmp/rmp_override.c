// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: per-QP overrides
 *
 * Four device knobs can be given a value of a QP's own: ``paths``,
 * ``spray``, ``cc`` and ``rcc_unsched``, by the process that owns the QP
 * (librmpdv, through the driver's uverbs methods) or by an administrator
 * (netlink ``QP_SET``, ``rmpctl qp set``). Each override takes what the
 * knob takes, checked by the knob table; the special value
 * %RMP_IB_QP_OPT_DEFAULT (``default``) hands it back to the knob. An
 * override lasts as long as the QP, across its moves through RESET.
 *
 * The transport reads rmp_qp_knob() where it would read the knob, so an
 * override takes effect exactly when a change of the knob would: ``cc``
 * when the requester starts (RTS) and when the QP negotiates the
 * extensions, ``paths`` and ``spray`` when it starts spraying (once its
 * peer agreed to multipath), ``rcc_unsched`` when it starts sending on
 * credit. In short: at the QP's next connection; a connected QP that
 * agreed to multipath but does not spray starts spraying as soon as its
 * ``paths`` goes above 1. Only connected QPs (RC, UC) take overrides.
 */
#include <linux/bitops.h>
#include <linux/string.h>

#include "rmp_dev.h"
#include "rmp_override.h"
#include "rmp_qp.h"

static const u8 rmp_override_knobs[RMP_IB_QP_OPT_NR] = {
	[RMP_IB_QP_OPT_PATHS] = RMP_KNOB_PATHS,
	[RMP_IB_QP_OPT_SPRAY] = RMP_KNOB_SPRAY,
	[RMP_IB_QP_OPT_CC] = RMP_KNOB_CC,
	[RMP_IB_QP_OPT_RCC_UNSCHED] = RMP_KNOB_RCC_UNSCHED,
};

/**
 * rmp_override_init() - a new QP's overrides: none
 * @o: the QP's overrides
 */
void rmp_override_init(struct rmp_override *o)
{
	int i;

	for (i = 0; i < RMP_IB_QP_OPT_NR; i++)
		o->val[i] = RMP_IB_QP_OPT_DEFAULT;
}

/**
 * rmp_override_opt() - the option that overrides a knob
 * @id: the knob
 *
 * Return: its &enum rmp_ib_qp_opt, or -ENOENT for a knob only the device
 * has.
 */
int rmp_override_opt(enum rmp_knob_id id)
{
	int i;

	for (i = 0; i < RMP_IB_QP_OPT_NR; i++)
		if (rmp_override_knobs[i] == id)
			return i;
	return -ENOENT;
}

/**
 * rmp_override_knob() - the knob an option overrides
 * @opt: the option, below %RMP_IB_QP_OPT_NR
 *
 * Return: the knob.
 */
enum rmp_knob_id rmp_override_knob(enum rmp_ib_qp_opt opt)
{
	return rmp_override_knobs[opt];
}

/**
 * rmp_qp_knob() - the value of a knob for a QP
 * @qp: the QP
 * @id: the knob
 *
 * Return: the QP's own value if it overrides the knob, else the device's.
 */
u32 rmp_qp_knob(const struct rmp_qp *qp, enum rmp_knob_id id)
{
	int opt = rmp_override_opt(id);
	u32 val = RMP_IB_QP_OPT_DEFAULT;

	if (opt >= 0)
		val = READ_ONCE(qp->over.val[opt]);
	if (val == RMP_IB_QP_OPT_DEFAULT)
		val = rmp_knob_get(to_rmp_dev(qp->ibqp.device), id);
	return val;
}

/**
 * rmp_override_get() - the value of an option for a QP
 * @qp: the QP
 * @opt: the option, below %RMP_IB_QP_OPT_NR
 * @own: set to whether the value is the QP's own
 *
 * Return: the value, the QP's own or its device's knob's.
 */
u32 rmp_override_get(const struct rmp_qp *qp, enum rmp_ib_qp_opt opt,
		     bool *own)
{
	*own = READ_ONCE(qp->over.val[opt]) != RMP_IB_QP_OPT_DEFAULT;
	return rmp_qp_knob(qp, rmp_override_knobs[opt]);
}

/**
 * rmp_override_set() - give a QP its own value of a knob, or take it back
 * @qp: the QP
 * @opt: the option (&enum rmp_ib_qp_opt), as a caller gave it
 * @val: a value the knob takes, or %RMP_IB_QP_OPT_DEFAULT
 *
 * Return: 0; -EINVAL for an unknown option or a value the knob does not
 * take (nothing changes); -EOPNOTSUPP for a QP that is not RC or UC.
 */
int rmp_override_set(struct rmp_qp *qp, u32 opt, u32 val)
{
	if (opt >= RMP_IB_QP_OPT_NR)
		return -EINVAL;
	if (val != RMP_IB_QP_OPT_DEFAULT &&
	    !rmp_knob_in_range(rmp_override_knobs[opt], val))
		return -EINVAL;
	if (!rmp_qp_connected(qp))
		return -EOPNOTSUPP;
	WRITE_ONCE(qp->over.val[opt], val);
	rmp_knob_changed();
	return 0;
}

/**
 * rmp_override_parse() - read a value for an override
 * @id: the knob, one a QP can override
 * @buf: ``default``, or what rmp_knob_parse() takes
 * @val: the value, %RMP_IB_QP_OPT_DEFAULT for ``default``
 *
 * Return: 0, or -EINVAL.
 */
int rmp_override_parse(enum rmp_knob_id id, const char *buf, u32 *val)
{
	if (sysfs_streq(buf, "default")) {
		*val = RMP_IB_QP_OPT_DEFAULT;
		return 0;
	}
	return rmp_knob_parse(id, buf, val);
}

/**
 * rmp_override_report() - write out a QP's values of the options
 * @qp: a connected QP
 * @s: where to
 *
 * Figures ``opt-paths``, ``opt-spray``, ``opt-cc``, ``opt-rcc-unsched``
 * (the values the QP takes, its own or its device's) and ``opt-own``, the
 * knobs it overrides ("none" if none).
 *
 * Return: 0, or the first error of @s.
 */
int rmp_override_report(const struct rmp_qp *qp, struct rmp_qp_sink *s)
{
	static const char *const names[RMP_IB_QP_OPT_NR] = {
		[RMP_IB_QP_OPT_PATHS] = "opt-paths",
		[RMP_IB_QP_OPT_SPRAY] = "opt-spray",
		[RMP_IB_QP_OPT_CC] = "opt-cc",
		[RMP_IB_QP_OPT_RCC_UNSCHED] = "opt-rcc-unsched",
	};
	const struct rmp_knob *k;
	char own[64] = "";
	int i, err = 0;
	bool mine;
	u32 val;

	for (i = 0; !err && i < RMP_IB_QP_OPT_NR; i++) {
		val = rmp_override_get(qp, i, &mine);
		k = &rmp_knobs[rmp_override_knobs[i]];
		if (mine)
			snprintf(own + strlen(own), sizeof(own) - strlen(own),
				 "%s%s", *own ? "," : "", k->name);
		err = k->words ? s->word(s, names[i], k->words[val]) :
				 s->num(s, names[i], RMP_FIG_U32, val);
	}
	return err ?: s->word(s, "opt-own", *own ? own : "none");
}
