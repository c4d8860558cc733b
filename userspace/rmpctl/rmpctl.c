// SPDX-License-Identifier: GPL-2.0
/*
 * rmpctl: show and set the knobs of rmp devices, show their counters and
 * queue pairs, over the "rmp" generic netlink family. See rmpctl(8).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <rdma/rmp_netlink.h>

#include "json.h"
#include "nl.h"

#define RMPCTL_VERSION "1"

struct knob {
	char name[RMP_KNOB_NAME_MAX];
	uint32_t value;
	char unit[32];
	char word[32];
	bool is_word;
};

struct counter {
	char name[64];
	uint64_t value;
};

struct dev {
	uint32_t index;
	uint32_t ifindex;
	char name[64];
	char netdev[32];
	struct knob *knobs;
	size_t nknobs;
	struct counter *counters;
	size_t ncounters;
};

struct devs {
	struct dev *v;
	size_t n;
};

static const char *prog = "rmpctl";
static bool json;
static struct json out;

static void *grow(void *v, size_t n, size_t size)
{
	v = realloc(v, (n + 1) * size);
	if (!v) {
		perror(prog);
		exit(1);
	}
	memset((char *)v + n * size, 0, size);
	return v;
}

static void copy_str(char *to, size_t size, const struct nlattr *a)
{
	if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		snprintf(to, size, "%s", mnl_attr_get_str(a));
}

static uint64_t get_uint(const struct nlattr *a)
{
	switch (mnl_attr_get_payload_len(a)) {
	case 1:
		return mnl_attr_get_u8(a);
	case 2:
		return mnl_attr_get_u16(a);
	case 4:
		return mnl_attr_get_u32(a);
	case 8:
		return mnl_attr_get_u64(a);
	default:
		return 0;
	}
}

static void free_devs(struct devs *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		free(ds->v[i].knobs);
		free(ds->v[i].counters);
	}
	free(ds->v);
	ds->v = NULL;
	ds->n = 0;
}

static void parse_knob(struct dev *d, const struct nlattr *nest)
{
	const struct nlattr *a;
	struct knob *k;

	d->knobs = grow(d->knobs, d->nknobs, sizeof(*d->knobs));
	k = &d->knobs[d->nknobs++];
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case RMP_KNOB_A_NAME:
			copy_str(k->name, sizeof(k->name), a);
			break;
		case RMP_KNOB_A_VALUE:
			k->value = get_uint(a);
			break;
		case RMP_KNOB_A_UNIT:
			copy_str(k->unit, sizeof(k->unit), a);
			break;
		case RMP_KNOB_A_WORD:
			copy_str(k->word, sizeof(k->word), a);
			k->is_word = true;
			break;
		}
	}
}

static void parse_counter(struct dev *d, const struct nlattr *nest)
{
	const struct nlattr *a;
	struct counter *c;

	d->counters = grow(d->counters, d->ncounters, sizeof(*d->counters));
	c = &d->counters[d->ncounters++];
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case RMP_COUNTER_A_NAME:
			copy_str(c->name, sizeof(c->name), a);
			break;
		case RMP_COUNTER_A_VALUE:
			c->value = get_uint(a);
			break;
		}
	}
}

/* A DEV_GET reply, added to the struct devs at @data. */
static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct devs *ds = data;
	const struct nlattr *a;
	struct dev *d;

	ds->v = grow(ds->v, ds->n, sizeof(*ds->v));
	d = &ds->v[ds->n++];
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case RMP_A_DEV_INDEX:
			d->index = get_uint(a);
			break;
		case RMP_A_DEV_NAME:
			copy_str(d->name, sizeof(d->name), a);
			break;
		case RMP_A_NETDEV:
			copy_str(d->netdev, sizeof(d->netdev), a);
			break;
		case RMP_A_IFINDEX:
			d->ifindex = get_uint(a);
			break;
		case RMP_A_KNOB:
			parse_knob(d, a);
			break;
		case RMP_A_COUNTER:
			parse_counter(d, a);
			break;
		}
	}
	return MNL_CB_OK;
}

static void fail(struct rmpnl *nl, const char *what)
{
	int err = errno;

	fprintf(stderr, "%s: %s: %s", prog, what, rmpnl_error(nl, err));
	if (err == EPERM && !nl->errmsg[0])
		fprintf(stderr,
			" (needs CAP_NET_ADMIN in the device's network namespace)");
	fputc('\n', stderr);
}

/* Name the device of a request, if @dev is given. */
static void put_dev(struct nlmsghdr *nlh, const char *dev)
{
	if (dev)
		mnl_attr_put_strz(nlh, RMP_A_DEV_NAME, dev);
}

static int get_devs(struct rmpnl *nl, const char *dev, struct devs *ds)
{
	struct nlmsghdr *nlh;

	nlh = rmpnl_request(nl, RMP_CMD_DEV_GET, dev ? 0 : NLM_F_DUMP);
	put_dev(nlh, dev);
	if (rmpnl_talk(nl, nlh, dev_cb, ds) < 0) {
		fail(nl, dev ? dev : "dev show");
		return -1;
	}
	return 0;
}

static void print_dev_text(const struct dev *d)
{
	const struct knob *k;
	size_t i;

	printf("%s: netdev %s\n", d->name, d->netdev);
	printf("  knobs:\n");
	for (i = 0; i < d->nknobs; i++) {
		k = &d->knobs[i];
		if (k->is_word)
			printf("    %-22s %s\n", k->name, k->word);
		else if (k->unit[0])
			printf("    %-22s %" PRIu32 " %s\n", k->name, k->value,
			       k->unit);
		else
			printf("    %-22s %" PRIu32 "\n", k->name, k->value);
	}
	printf("  counters:\n");
	for (i = 0; i < d->ncounters; i++)
		printf("    %-26s %" PRIu64 "\n", d->counters[i].name,
		       d->counters[i].value);
}

static void print_dev_json(const struct dev *d)
{
	const struct knob *k;
	size_t i;

	json_begin_object(&out, NULL);
	json_string(&out, "dev", d->name);
	json_u64(&out, "index", d->index);
	json_string(&out, "netdev", d->netdev);
	json_u64(&out, "ifindex", d->ifindex);
	json_begin_object(&out, "knobs");
	for (i = 0; i < d->nknobs; i++) {
		k = &d->knobs[i];
		json_begin_object(&out, k->name);
		json_u64(&out, "value", k->value);
		if (k->is_word)
			json_string(&out, "word", k->word);
		else
			json_string(&out, "unit", k->unit);
		json_end_object(&out);
	}
	json_end_object(&out);
	json_begin_object(&out, "counters");
	for (i = 0; i < d->ncounters; i++)
		json_u64(&out, d->counters[i].name, d->counters[i].value);
	json_end_object(&out);
	json_end_object(&out);
}

static int dev_show(struct rmpnl *nl, int argc, char **argv)
{
	struct devs ds = { 0 };
	size_t i;

	if (argc > 1)
		return -2;
	if (get_devs(nl, argc ? argv[0] : NULL, &ds))
		return -1;
	if (json)
		json_begin_array(&out, NULL);
	for (i = 0; i < ds.n; i++) {
		if (json)
			print_dev_json(&ds.v[i]);
		else
			print_dev_text(&ds.v[i]);
	}
	if (json)
		json_end_array(&out);
	free_devs(&ds);
	return 0;
}

static int dev_set(struct rmpnl *nl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	char what[256];

	if (argc != 3)
		return -2;
	nlh = rmpnl_request(nl, RMP_CMD_DEV_SET, 0);
	put_dev(nlh, argv[0]);
	mnl_attr_put_strz(nlh, RMP_A_KNOB_NAME, argv[1]);
	mnl_attr_put_strz(nlh, RMP_A_KNOB_VALUE, argv[2]);
	if (rmpnl_talk(nl, nlh, NULL, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot set %s of %s to '%s'",
			 argv[1], argv[0], argv[2]);
		fail(nl, what);
		return -1;
	}
	return 0;
}

/* Figures of a QP, each a number or a word, in the order they came. */
static void print_figure_text(const struct nlattr *nest, int *col)
{
	const char *name = "?", *word = NULL;
	const struct nlattr *a;
	uint64_t val = 0;
	bool hex = false;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case RMP_FIGURE_A_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(a);
			break;
		case RMP_FIGURE_A_VALUE:
			val = get_uint(a);
			break;
		case RMP_FIGURE_A_WORD:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				word = mnl_attr_get_str(a);
			break;
		case RMP_FIGURE_A_HEX:
			hex = true;
			break;
		}
	}
	if (json) {
		if (word)
			json_string(&out, name, word);
		else
			json_u64(&out, name, val);
		return;
	}
	printf("%s", *col % 6 ? "  " : "\n    ");
	if (word)
		printf("%s %s", name, word);
	else
		printf(hex ? "%s 0x%" PRIx64 : "%s %" PRIu64, name, val);
	(*col)++;
}

static const char *const path_names[RMP_PATH_A_MAX + 1] = {
	[RMP_PATH_A_INDEX] = "index",
	[RMP_PATH_A_SPORT] = "sport",
	[RMP_PATH_A_LIVE] = "live",
	[RMP_PATH_A_INFLIGHT] = "inflight",
	[RMP_PATH_A_SRTT_NS] = "srtt_ns",
	[RMP_PATH_A_ECN_SHARE] = "ecn_share",
	[RMP_PATH_A_SENT] = "sent",
	[RMP_PATH_A_DELIVERED] = "delivered",
	[RMP_PATH_A_LOST] = "lost",
	[RMP_PATH_A_ECN_MARKED] = "ecn_marked",
	[RMP_PATH_A_DEATHS] = "deaths",
	[RMP_PATH_A_REVIVALS] = "revivals",
	[RMP_PATH_A_REPLACED] = "replaced",
	[RMP_PATH_A_SENT_BYTES] = "sent_bytes",
	[RMP_PATH_A_DELIVERED_BYTES] = "delivered_bytes",
};

static void print_path(const struct nlattr *nest)
{
	const struct nlattr *a;
	uint16_t type;

	if (json)
		json_begin_object(&out, NULL);
	else
		printf("\n    path");
	mnl_attr_for_each_nested(a, nest) {
		type = mnl_attr_get_type(a);
		if (type > RMP_PATH_A_MAX || !path_names[type])
			continue;
		if (json)
			json_u64(&out, path_names[type], get_uint(a));
		else if (type == RMP_PATH_A_INDEX)
			printf(" %" PRIu64 ":", get_uint(a));
		else if (type == RMP_PATH_A_LIVE)
			printf(" %s", get_uint(a) ? "live" : "dead");
		else
			printf(" %s %" PRIu64, path_names[type], get_uint(a));
	}
	if (json)
		json_end_object(&out);
}

/* A QP_GET reply, printed as it comes. */
static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	const char *dev = "?", *type = "?", *state = "?";
	uint32_t qpn = 0, peer = 0;
	const struct nlattr *a;
	bool has_peer = false;
	int col = 0;

	(void)data;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case RMP_A_DEV_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				dev = mnl_attr_get_str(a);
			break;
		case RMP_A_QPN:
			qpn = get_uint(a);
			break;
		case RMP_A_QP_TYPE:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				type = mnl_attr_get_str(a);
			break;
		case RMP_A_QP_STATE:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				state = mnl_attr_get_str(a);
			break;
		case RMP_A_QP_PEER_QPN:
			peer = get_uint(a);
			has_peer = true;
			break;
		}
	}
	if (json) {
		json_begin_object(&out, NULL);
		json_string(&out, "dev", dev);
		json_u64(&out, "qpn", qpn);
		json_string(&out, "type", type);
		json_string(&out, "state", state);
		if (has_peer)
			json_u64(&out, "peer_qpn", peer);
		json_begin_object(&out, "figures");
	} else {
		printf("%s qpn %" PRIu32 " %s %s", dev, qpn, type, state);
		if (has_peer)
			printf(" peer %" PRIu32, peer);
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == RMP_A_QP_FIGURE)
			print_figure_text(a, &col);
	if (json) {
		json_end_object(&out);
		json_begin_array(&out, "paths");
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == RMP_A_QP_PATH)
			print_path(a);
	}
	if (json) {
		json_end_array(&out);
		json_end_object(&out);
	} else {
		putchar('\n');
	}
	return MNL_CB_OK;
}

static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || end == s || *end || n > UINT32_MAX)
		return -1;
	*v = n;
	return 0;
}

static int qp_show(struct rmpnl *nl, int argc, char **argv)
{
	const char *dev = argc > 0 ? argv[0] : NULL;
	struct nlmsghdr *nlh;
	char what[128];
	uint32_t qpn;

	if (argc > 2)
		return -2;
	if (argc == 2 && parse_u32(argv[1], &qpn)) {
		fprintf(stderr, "%s: '%s' is not a QP number\n", prog, argv[1]);
		return -1;
	}
	nlh = rmpnl_request(nl, RMP_CMD_QP_GET, argc == 2 ? 0 : NLM_F_DUMP);
	put_dev(nlh, dev);
	if (argc == 2)
		mnl_attr_put_u32(nlh, RMP_A_QPN, qpn);
	if (json)
		json_begin_array(&out, NULL);
	if (rmpnl_talk(nl, nlh, qp_cb, NULL) < 0) {
		if (json)
			json_end_array(&out);
		snprintf(what, sizeof(what), "%s%s%s", dev ? dev : "qp show",
			 argc == 2 ? " qp " : "", argc == 2 ? argv[1] : "");
		fail(nl, what);
		return -1;
	}
	if (json)
		json_end_array(&out);
	return 0;
}

static int qp_set(struct rmpnl *nl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	char what[256];
	uint32_t qpn;

	if (argc != 4)
		return -2;
	if (parse_u32(argv[1], &qpn)) {
		fprintf(stderr, "%s: '%s' is not a QP number\n", prog, argv[1]);
		return -1;
	}
	nlh = rmpnl_request(nl, RMP_CMD_QP_SET, 0);
	put_dev(nlh, argv[0]);
	mnl_attr_put_u32(nlh, RMP_A_QPN, qpn);
	mnl_attr_put_strz(nlh, RMP_A_KNOB_NAME, argv[2]);
	mnl_attr_put_strz(nlh, RMP_A_KNOB_VALUE, argv[3]);
	if (rmpnl_talk(nl, nlh, NULL, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot set %s of %s qp %s to '%s'",
			 argv[2], argv[0], argv[1], argv[3]);
		fail(nl, what);
		return -1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (time_t)seconds) * 1e9),
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static const struct dev *find_dev(const struct devs *ds, uint32_t index)
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (ds->v[i].index == index)
			return &ds->v[i];
	return NULL;
}

static uint64_t find_counter(const struct dev *d, const char *name)
{
	size_t i;

	for (i = 0; d && i < d->ncounters; i++)
		if (!strcmp(d->counters[i].name, name))
			return d->counters[i].value;
	return 0;
}

/* One refresh: each counter, its total and its rate since @old. */
static void print_rates(const struct devs *ds, const struct devs *old,
			double dt)
{
	const struct counter *c;
	const struct dev *d, *o;
	double rate;
	size_t i, k;

	if (json) {
		json_begin_object(&out, NULL);
		json_double(&out, "interval", dt);
		json_begin_array(&out, "devs");
	} else if (isatty(STDOUT_FILENO)) {
		fputs("\033[H\033[J", stdout);
	}
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		o = find_dev(old, d->index);
		if (json) {
			json_begin_object(&out, NULL);
			json_string(&out, "dev", d->name);
			json_begin_object(&out, "counters");
		} else {
			printf("%s (netdev %s), over %.2f s:\n", d->name,
			       d->netdev, dt);
			printf("    %-26s %20s %14s\n", "counter", "total", "per s");
		}
		for (k = 0; k < d->ncounters; k++) {
			c = &d->counters[k];
			rate = o ? (c->value - find_counter(o, c->name)) / dt : 0;
			if (json) {
				json_begin_object(&out, c->name);
				json_u64(&out, "value", c->value);
				json_double(&out, "rate", rate);
				json_end_object(&out);
			} else if (c->value) {
				printf("    %-26s %20" PRIu64 " %14.1f\n",
				       c->name, c->value, rate);
			}
		}
		if (json) {
			json_end_object(&out);
			json_end_object(&out);
		}
	}
	if (json) {
		json_end_array(&out);
		json_end_object(&out);
	} else {
		putchar('\n');
	}
	fflush(stdout);
}

static int monitor(struct rmpnl *nl, int argc, char **argv)
{
	struct devs ds = { 0 }, old = { 0 };
	double interval = 1, t, last;
	const char *dev = NULL;
	long count = -1, n;
	char *end;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-i") && i + 1 < argc) {
			interval = strtod(argv[++i], &end);
			if (*end || !(interval >= 0.01 && interval <= 86400))
				return -2;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			count = strtol(argv[++i], &end, 10);
			if (*end || count < 1)
				return -2;
		} else if (argv[i][0] != '-' && !dev) {
			dev = argv[i];
		} else {
			return -2;
		}
	}
	if (get_devs(nl, dev, &old))
		return -1;
	last = now();
	for (n = 0; count < 0 || n < count; n++) {
		nap(interval);
		if (get_devs(nl, dev, &ds)) {
			free_devs(&old);
			return -1;
		}
		t = now();
		print_rates(&ds, &old, t - last);
		last = t;
		free_devs(&old);
		old = ds;
		memset(&ds, 0, sizeof(ds));
	}
	free_devs(&old);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-j|--json] dev show [DEV]\n"
		"       %s dev set DEV KNOB VALUE\n"
		"       %s [-j|--json] qp show [DEV [QPN]]\n"
		"       %s qp set DEV QPN KNOB VALUE|default\n"
		"       %s [-j|--json] monitor [DEV] [-i SECONDS] [-n COUNT]\n"
		"       %s -h|--help | -V|--version\n"
		"See rmpctl(8).\n", prog, prog, prog, prog, prog, prog);
}

/* Take -j/--json from anywhere on the line; the rest stays in order. */
static int take_json(int argc, char **argv)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			json = true;
		else
			argv[n++] = argv[i];
	}
	return n;
}

int main(int argc, char **argv)
{
	struct rmpnl nl;
	int err;

	argc = take_json(argc - 1, argv + 1);
	argv++;
	if (argc && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc && (!strcmp(argv[0], "-V") || !strcmp(argv[0], "--version"))) {
		printf("rmpctl %s (netlink family %s version %d)\n",
		       RMPCTL_VERSION, RMP_GENL_NAME, RMP_GENL_VERSION);
		return 0;
	}
	if (argc < 1) {
		usage(stderr);
		return 2;
	}
	json_init(&out, stdout);
	if (rmpnl_open(&nl) < 0) {
		err = errno;
		if (err == ENOENT)
			fprintf(stderr,
				"%s: the kernel has no netlink family '%s': is rdma_rmp loaded?\n",
				prog, RMP_GENL_NAME);
		else
			fprintf(stderr, "%s: netlink: %s\n", prog,
				strerror(err));
		rmpnl_close(&nl);
		return 1;
	}
	err = -2;
	if (argc >= 2 && !strcmp(argv[0], "dev") && !strcmp(argv[1], "show"))
		err = dev_show(&nl, argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[0], "dev") &&
		 !strcmp(argv[1], "set"))
		err = dev_set(&nl, argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[0], "qp") &&
		 !strcmp(argv[1], "show"))
		err = qp_show(&nl, argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[0], "qp") &&
		 !strcmp(argv[1], "set"))
		err = qp_set(&nl, argc - 2, argv + 2);
	else if (!strcmp(argv[0], "monitor"))
		err = monitor(&nl, argc - 1, argv + 1);
	rmpnl_close(&nl);
	if (err == -2)
		usage(stderr);
	return err == -2 ? 2 : err ? 1 : 0;
}
