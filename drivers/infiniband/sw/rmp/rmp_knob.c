// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: knobs
 *
 * A device's knobs are numbers held in &rmp_dev.knobs, read with
 * rmp_knob_get() wherever a setting takes effect (mostly when a QP starts
 * something: a new value applies to what starts after the write). Each
 * knob is either a number in a range, with a unit, or one of a list of
 * words; rmp_knobs describes them all, so parsing, range checks and
 * formatting are the same for every interface that exposes them. A value
 * out of range is refused and the knob keeps its value.
 *
 * Every change of a knob, or of a QP's override of one, moves the knobs'
 * epoch on (rmp_knob_epoch()): a run that has taken up what the knobs say
 * need not read them again until it moves.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_knob.h"
#include "engine/credit.h"
#include "engine/dcqcn.h"
#include "engine/paths.h"

/* Odd: it moves on by two, so that 0 stands for no epoch. */
atomic_t rmp_knob_changes = ATOMIC_INIT(1);

/**
 * rmp_knob_changed() - a knob or a QP's override of one changed
 *
 * Called after the new value is stored: a reader that sees the new epoch
 * sees the value.
 */
void rmp_knob_changed(void)
{
	/* The value stored before the epoch moves; pairs with the acquire. */
	smp_mb__before_atomic();
	atomic_add(2, &rmp_knob_changes);
}

static const char *const rmp_knob_ext_words[] = {
	[RMP_EXT_OFF] = "off",
	[RMP_EXT_AUTO] = "auto",
	[RMP_EXT_ON] = "on",
	NULL
};

static const char *const rmp_knob_spray_words[] = {
	[RMP_SPRAY_RR] = "rr",
	[RMP_SPRAY_WEIGHTED] = "weighted",
	[RMP_SPRAY_FLOWLET] = "flowlet",
	NULL
};

static const char *const rmp_knob_cc_words[] = {
	[RMP_CC_NONE] = "none",
	[RMP_CC_DCQCN] = "dcqcn",
	[RMP_CC_RCC] = "rcc",
	NULL
};

static const char *const rmp_knob_policy_words[] = {
	[RMP_CREDIT_FAIR] = "fair",
	[RMP_CREDIT_SRPT] = "srpt",
	NULL
};

static const char *const rmp_knob_onoff_words[] = { "off", "on", NULL };

#define RMP_KNOB_WORDS(_name, _words, _def) {				\
	.name = _name, .words = _words, .min = 0,			\
	.max = ARRAY_SIZE(_words) - 2, .def = _def,			\
}

#define RMP_KNOB_NUMBER(_name, _unit, _min, _max, _def) {		\
	.name = _name, .unit = _unit, .min = _min, .max = _max,		\
	.def = _def,							\
}

/* Fastest port rmp is tuned for, in Mbit/s and in kbit/s. */
#define RMP_KNOB_RATE_MAX	800000
#define RMP_KNOB_KBPS_MAX	(RMP_KNOB_RATE_MAX * 1000)

const struct rmp_knob rmp_knobs[RMP_KNOB_NR] = {
	[RMP_KNOB_EXT] = RMP_KNOB_WORDS("ext", rmp_knob_ext_words,
					RMP_EXT_AUTO),
	[RMP_KNOB_PATHS] = RMP_KNOB_NUMBER("paths", "", 1, RMP_PATHS_MAX,
					   RMP_DEV_PATHS_DEFAULT),
	[RMP_KNOB_SPRAY] = RMP_KNOB_WORDS("spray", rmp_knob_spray_words,
					  RMP_SPRAY_RR),
	[RMP_KNOB_CC] = RMP_KNOB_WORDS("cc", rmp_knob_cc_words, RMP_CC_NONE),
	[RMP_KNOB_ECN] = RMP_KNOB_WORDS("ecn", rmp_knob_onoff_words, 1),
	[RMP_KNOB_ZCOPY] = RMP_KNOB_WORDS("zcopy", rmp_knob_onoff_words, 1),
	[RMP_KNOB_LINK_RATE] = RMP_KNOB_NUMBER("link_rate", "Mbit/s", 0,
					       RMP_KNOB_RATE_MAX, 0),
	[RMP_KNOB_CNP_DSCP] = RMP_KNOB_NUMBER("cnp_dscp", "", 0, 63, 48),
	[RMP_KNOB_CNP_INTERVAL] = RMP_KNOB_NUMBER("cnp_interval", "us", 1,
						  1000000, 50),
	[RMP_KNOB_DCQCN_MIN_RATE] =
		RMP_KNOB_NUMBER("dcqcn_min_rate", "kbit/s", 1,
				RMP_KNOB_KBPS_MAX, RMP_DCQCN_DEF_MIN_KBPS),
	[RMP_KNOB_DCQCN_G_SHIFT] =
		RMP_KNOB_NUMBER("dcqcn_g_shift", "", 1, RMP_DCQCN_G_SHIFT_MAX,
				RMP_DCQCN_DEF_G_SHIFT),
	[RMP_KNOB_DCQCN_ALPHA_PERIOD] =
		RMP_KNOB_NUMBER("dcqcn_alpha_period", "us", 0, 1000000, 0),
	[RMP_KNOB_DCQCN_RATE_PERIOD] =
		RMP_KNOB_NUMBER("dcqcn_rate_period", "us", 0, 1000000, 0),
	[RMP_KNOB_DCQCN_BYTE_THRESHOLD] =
		RMP_KNOB_NUMBER("dcqcn_byte_threshold", "KiB", 0, 1048576, 0),
	[RMP_KNOB_DCQCN_FAST_STAGES] =
		RMP_KNOB_NUMBER("dcqcn_fast_stages", "", 1,
				RMP_DCQCN_STAGES_MAX, RMP_DCQCN_DEF_FAST_STAGES),
	[RMP_KNOB_DCQCN_AI_RATE] =
		RMP_KNOB_NUMBER("dcqcn_ai_rate", "kbit/s", 0,
				RMP_KNOB_KBPS_MAX, 0),
	[RMP_KNOB_DCQCN_HAI_RATE] =
		RMP_KNOB_NUMBER("dcqcn_hai_rate", "kbit/s", 0,
				RMP_KNOB_KBPS_MAX, 0),
	[RMP_KNOB_RCC_UNSCHED] =
		RMP_KNOB_NUMBER("rcc_unsched", "KiB", 0, 65536, 64),
	[RMP_KNOB_RCC_WINDOW] =
		RMP_KNOB_NUMBER("rcc_window", "KiB", 1, 65536, 64),
	[RMP_KNOB_RCC_OVERCOMMIT] =
		RMP_KNOB_NUMBER("rcc_overcommit", "", 1, RMP_CREDIT_ACTIVE_MAX,
				4),
	[RMP_KNOB_RCC_POLICY] = RMP_KNOB_WORDS("rcc_policy",
					       rmp_knob_policy_words,
					       RMP_CREDIT_FAIR),
	[RMP_KNOB_RCC_ASK_PERIOD] =
		RMP_KNOB_NUMBER("rcc_ask_period", "us", 10, 1000000, 1000),
	[RMP_KNOB_RCC_IDLE] =
		RMP_KNOB_NUMBER("rcc_idle", "us", 100, 10000000, 10000),
	[RMP_KNOB_GRANT_DSCP] = RMP_KNOB_NUMBER("grant_dscp", "", 0, 63, 46),
	[RMP_KNOB_RCC_UNSCHED_DSCP] =
		RMP_KNOB_NUMBER("rcc_unsched_dscp", "", 0, 63, 0),
};

/**
 * rmp_knob_defaults() - give a new device every knob's default
 * @dev: the device, not yet visible
 */
void rmp_knob_defaults(struct rmp_dev *dev)
{
	int i;

	for (i = 0; i < RMP_KNOB_NR; i++)
		dev->knobs[i] = rmp_knobs[i].def;
}

/**
 * rmp_knob_get() - the value of a knob
 * @dev: the device
 * @id: the knob
 *
 * Return: the value, as last set: a number in the knob's range or a word's
 * index.
 */
u32 rmp_knob_get(const struct rmp_dev *dev, enum rmp_knob_id id)
{
	return READ_ONCE(dev->knobs[id]);
}

/**
 * rmp_knob_in_range() - whether a knob takes a value
 * @id: the knob
 * @val: a number, or a word's index
 *
 * Return: true if @val is in the knob's range (one of its words).
 */
bool rmp_knob_in_range(enum rmp_knob_id id, u32 val)
{
	return val >= rmp_knobs[id].min && val <= rmp_knobs[id].max;
}

/**
 * rmp_knob_parse() - read a value for a knob
 * @id: the knob
 * @buf: one of its words, or a decimal number in its range optionally
 *	followed by its unit; a trailing newline allowed
 * @val: the value, if valid
 *
 * Return: 0, or -EINVAL for anything else.
 */
int rmp_knob_parse(enum rmp_knob_id id, const char *buf, u32 *val)
{
	const struct rmp_knob *k = &rmp_knobs[id];
	char num[16];
	const char *unit;
	size_t len;
	int i;

	if (k->words) {
		i = __sysfs_match_string(k->words, -1, buf);
		if (i < 0)
			return -EINVAL;
		*val = i;
		return 0;
	}
	/* "123", "123\n", "123 Mbit/s" or "123 Mbit/s\n". */
	for (len = 0; buf[len] && buf[len] != ' ' && buf[len] != '\n';)
		len++;
	unit = buf + len;
	if (*unit == ' ' && *k->unit &&
	    !strncmp(unit + 1, k->unit, strlen(k->unit)))
		unit += 1 + strlen(k->unit);
	if (!len || len >= sizeof(num) || (*unit && strcmp(unit, "\n")))
		return -EINVAL;
	memcpy(num, buf, len);
	num[len] = '\0';
	if (kstrtou32(num, 10, val) || !rmp_knob_in_range(id, *val))
		return -EINVAL;
	return 0;
}

/**
 * rmp_knob_format() - write a knob's value for a reader
 * @id: the knob
 * @val: its value
 * @buf: where to, a line ended by a newline
 * @size: bytes at @buf
 *
 * Return: bytes written, as snprintf().
 */
int rmp_knob_format(enum rmp_knob_id id, u32 val, char *buf, size_t size)
{
	const struct rmp_knob *k = &rmp_knobs[id];

	if (k->words)
		return snprintf(buf, size, "%s\n", k->words[val]);
	if (*k->unit)
		return snprintf(buf, size, "%u %s\n", val, k->unit);
	return snprintf(buf, size, "%u\n", val);
}

/**
 * rmp_knob_set() - change a knob
 * @dev: the device
 * @id: the knob
 * @val: its new value
 *
 * Return: 0, or -EINVAL for a value out of the knob's range (the knob
 * keeps its value).
 */
int rmp_knob_set(struct rmp_dev *dev, enum rmp_knob_id id, u32 val)
{
	if (!rmp_knob_in_range(id, val))
		return -EINVAL;
	WRITE_ONCE(dev->knobs[id], val);
	rmp_knob_changed();
	return 0;
}

/**
 * rmp_knob_lookup() - find a knob by name
 * @name: its name, as its sysfs file is named
 *
 * Return: its &enum rmp_knob_id, or -ENOENT.
 */
int rmp_knob_lookup(const char *name)
{
	int i;

	for (i = 0; i < RMP_KNOB_NR; i++)
		if (!strcmp(rmp_knobs[i].name, name))
			return i;
	return -ENOENT;
}

/**
 * rmp_knob_describe() - say what a knob takes
 * @id: the knob
 * @buf: where to: "a number in 1..64", "a number in 0..800000 (Mbit/s)"
 *	or "one of off, auto, on"
 * @size: bytes at @buf
 *
 * Return: bytes written, as snprintf().
 */
int rmp_knob_describe(enum rmp_knob_id id, char *buf, size_t size)
{
	const struct rmp_knob *k = &rmp_knobs[id];
	const char *const *w;
	int n;

	if (!k->words)
		return snprintf(buf, size, "a number in %u..%u%s%s%s", k->min,
				k->max, *k->unit ? " (" : "", k->unit,
				*k->unit ? ")" : "");
	n = snprintf(buf, size, "one of");
	for (w = k->words; *w; w++)
		n += snprintf(buf + min_t(size_t, n, size),
			      size - min_t(size_t, n, size), "%s %s",
			      w == k->words ? "" : ",", *w);
	return n;
}
