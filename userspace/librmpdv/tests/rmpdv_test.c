// SPDX-License-Identifier: GPL-2.0
/*
 * rmpdv_test: checks of librmpdv for tests/verbs/test_rmpdv.py. Prints
 * "ok - WHAT" or "not ok - WHAT" per check; exit status 1 if one failed.
 *
 *	rmpdv_test DEV options	every option set and read back, bad values
 *				refused with the value unchanged, default,
 *				a UD QP refused; then the QP keeps values
 *				for the caller to see ("qpn N"), until EOF
 *				on stdin
 *	rmpdv_test DEV hold	an RC QP with paths 5: "qpn N handle H",
 *				kept until EOF on stdin
 *	rmpdv_test DEV foreign H
 *				a QP handle H of another process: refused;
 *				then this process's own QP, whatever its
 *				handle, is the one it sets
 *	rmpdv_test DEV other	not an rmp device: every call EOPNOTSUPP
 *	rmpdv_test DEV sizes	a QP spraying over 4 paths writes 64 KiB;
 *				its paths read the same through
 *				rmpdv_qp_query_paths(), its RMPDV_1.0
 *				version (the struct without the byte
 *				counters) and the kernel's version 1 request
 *				(no entry size), each entry where its
 *				caller expects it
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rmp_user_ioctl.h>

#include <rmpdv.h>

#include "../examples/loopback.h"

static int failed;

static void check(bool ok, const char *what, int err)
{
	printf("%s - %s", ok ? "ok" : "not ok", what);
	if (!ok && err)
		printf(" (%s)", strerror(err));
	putchar('\n');
	failed |= !ok;
}

/* @opt reads @want, the QP's own value if @own. */
static void check_value(struct ibv_qp *qp, int opt, uint32_t want, bool own,
			const char *what)
{
	uint32_t val = 0xdead;
	bool mine = !own;
	char line[128];
	int err;

	err = rmpdv_qp_get(qp, opt, &val, &mine);
	snprintf(line, sizeof(line), "%s: opt %d reads %u (%s), wants %u (%s)",
		 what, opt, val, mine ? "own" : "device", want,
		 own ? "own" : "device");
	check(!err && val == want && mine == own, line, err);
}

static void wait_eof(void)
{
	char buf[64];

	fflush(stdout);
	while (fgets(buf, sizeof(buf), stdin))
		;
}

struct opt_case {
	int opt;
	uint32_t good[3];
	uint32_t bad[2];
};

static const struct opt_case cases[] = {
	{ RMPDV_QP_OPT_PATHS, { 1, 64, 7 }, { 0, 65 } },
	{ RMPDV_QP_OPT_SPRAY, { RMPDV_SPRAY_WEIGHTED, RMPDV_SPRAY_RR,
				RMPDV_SPRAY_FLOWLET }, { 3, 1000 } },
	{ RMPDV_QP_OPT_CC, { RMPDV_CC_RCC, RMPDV_CC_NONE, RMPDV_CC_DCQCN },
	  { 3, RMPDV_VALUE_DEFAULT - 1 } },
	{ RMPDV_QP_OPT_UNSCHED, { 0, 65536, 100 }, { 65537, 1u << 31 } },
};

static void options(struct lb *lb, struct lb *ud)
{
	struct ibv_qp *qp = lb->a.qp;
	uint32_t dev[4], val;
	char what[96];
	size_t i, j;
	bool own;
	int err;

	for (i = 0; i < 4; i++) {
		err = rmpdv_qp_get(qp, cases[i].opt, &dev[i], &own);
		snprintf(what, sizeof(what), "opt %d starts as the device's",
			 cases[i].opt);
		check(!err && !own, what, err);
	}
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 3; j++) {
			err = rmpdv_qp_set(qp, cases[i].opt, cases[i].good[j]);
			snprintf(what, sizeof(what), "opt %d set to %u",
				 cases[i].opt, cases[i].good[j]);
			check(!err, what, err);
			check_value(qp, cases[i].opt, cases[i].good[j], true,
				    "read back");
		}
		for (j = 0; j < 2; j++) {
			err = rmpdv_qp_set(qp, cases[i].opt, cases[i].bad[j]);
			snprintf(what, sizeof(what),
				 "opt %d refuses %u with EINVAL", cases[i].opt,
				 cases[i].bad[j]);
			check(err == EINVAL && errno == EINVAL, what, err);
			check_value(qp, cases[i].opt, cases[i].good[2], true,
				    "unchanged");
		}
		err = rmpdv_qp_set(qp, cases[i].opt, RMPDV_VALUE_DEFAULT);
		check(!err, "default taken", err);
		check_value(qp, cases[i].opt, dev[i], false, "back to default");
		err = rmpdv_qp_set(qp, cases[i].opt, cases[i].good[2]);
		check(!err, "set again", err);
	}
	check(rmpdv_qp_set(qp, 4, 1) == EINVAL, "unknown option refused", 0);
	check(rmpdv_qp_get(qp, 4, &val, NULL) == EINVAL,
	      "unknown option not read", 0);
	/* The peer kept the device's values. */
	for (i = 0; i < 4; i++)
		check_value(lb->b.qp, cases[i].opt, dev[i], false, "peer");
	err = rmpdv_qp_set(ud->a.qp, RMPDV_QP_OPT_PATHS, 2);
	check(err == EOPNOTSUPP, "a UD QP takes no override", err);
	check(rmpdv_is_rmp_device(lb->ctx), "an rmp device", 0);
}

/* Every call on a device that is not rmp: EOPNOTSUPP. */
static void other(struct lb *lb)
{
	struct rmpdv_path_stats ps[4];
	uint32_t val;
	size_t n;

	check(!rmpdv_is_rmp_device(lb->ctx), "not an rmp device", 0);
	check(rmpdv_qp_set(lb->a.qp, RMPDV_QP_OPT_PATHS, 2) == EOPNOTSUPP &&
	      errno == EOPNOTSUPP, "set: EOPNOTSUPP", errno);
	check(rmpdv_qp_get(lb->a.qp, RMPDV_QP_OPT_PATHS, &val, NULL) ==
	      EOPNOTSUPP, "get: EOPNOTSUPP", errno);
	check(rmpdv_qp_query_paths(lb->a.qp, ps, 4, &n) == EOPNOTSUPP,
	      "query_paths: EOPNOTSUPP", errno);
}

static void foreign(struct lb *lb, uint32_t handle)
{
	struct ibv_qp fake = { .context = lb->ctx, .handle = handle };
	struct rmpdv_path_stats ps[4];
	uint32_t val;
	size_t n;
	int err;

	/* This process has no QP yet: the handle names nothing here. */
	err = rmpdv_qp_set(&fake, RMPDV_QP_OPT_PATHS, 9);
	check(err == ENOENT, "set on another process's handle: ENOENT", err);
	err = rmpdv_qp_get(&fake, RMPDV_QP_OPT_PATHS, &val, NULL);
	check(err == ENOENT, "get on another process's handle: ENOENT", err);
	err = rmpdv_qp_query_paths(&fake, ps, 4, &n);
	check(err == ENOENT, "query on another process's handle: ENOENT",
	      err);
	if (lb_create(lb, lb->ctx, IBV_QPT_RC)) {
		check(false, "own QPs", errno);
		return;
	}
	/* The same handle now names this process's own QP. */
	fake.handle = handle;
	err = rmpdv_qp_set(lb->a.qp->handle == handle ? &fake : lb->a.qp,
			   RMPDV_QP_OPT_PATHS, 9);
	check(!err, "set on an own QP", err);
	check_value(lb->a.qp, RMPDV_QP_OPT_PATHS, 9, true, "own QP");
	printf("qpn %u handle %u\n", lb->a.qp->qp_num, lb->a.qp->handle);
}

/* The paths of @qp as a caller of the kernel's version 1 asks: no size. */
static int query_v1(struct ibv_qp *qp, void *buf, size_t len, uint32_t *num)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attr[3];
	} r = {
		.hdr = {
			.length = sizeof(r),
			.object_id = UVERBS_OBJECT_QP,
			.method_id = RMP_IB_METHOD_QP_QUERY_PATHS,
			.num_attrs = 3,
			.driver_id = RDMA_DRIVER_RXE,
		},
		.attr = {
			{ .attr_id = RMP_IB_ATTR_QP_QUERY_PATHS_HANDLE,
			  .flags = UVERBS_ATTR_F_MANDATORY,
			  .data = qp->handle },
			{ .attr_id = RMP_IB_ATTR_QP_QUERY_PATHS_STATS,
			  .flags = UVERBS_ATTR_F_MANDATORY, .len = len,
			  .data = (uintptr_t)buf },
			{ .attr_id = RMP_IB_ATTR_QP_QUERY_PATHS_NUM,
			  .flags = UVERBS_ATTR_F_MANDATORY, .len = sizeof(*num),
			  .data = (uintptr_t)num },
		},
	};

	return ioctl(qp->context->cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
}

#define V1_SIZE offsetof(struct rmpdv_path_stats, sent_bytes)

/* Each way of reading the paths of a QP that wrote 64 KiB agrees. */
static void sizes(struct lb *lb)
{
	int (*query_1_0)(struct ibv_qp *, void *, size_t, size_t *);
	unsigned char old[5 * V1_SIZE], raw[5 * RMP_IB_PATH_STATS_SIZE_V1];
	struct rmpdv_path_stats ps[4], o;
	struct rmp_ib_path_stats k;
	uint64_t bytes = 0;
	time_t stop = time(NULL) + 10;
	uint32_t num = 0;
	size_t n = 0, i;
	int err;

	err = rmpdv_qp_set(lb->a.qp, RMPDV_QP_OPT_PATHS, 4);
	check(!err, "paths 4", err);
	err = lb_connect(lb);
	check(!err, "connected", err ? errno : 0);
	while (!rmpdv_qp_query_paths(lb->a.qp, NULL, 0, &n) && !n &&
	       time(NULL) < stop)
		usleep(10000);
	check(n == 4, "sprays over 4 paths", 0);
	if (n != 4 || lb_write(lb, 65536))
		return;
	err = rmpdv_qp_query_paths(lb->a.qp, ps, 4, &n);
	check(!err && n == 4, "paths read", err);
	for (i = 0; i < 4; i++)
		bytes += ps[i].delivered_bytes;
	check(bytes >= 65536, "64 KiB delivered, counted in bytes", 0);
	for (i = 0; i < 4; i++)
		check(ps[i].sent_bytes >= ps[i].delivered_bytes &&
		      ps[i].delivered_bytes >= ps[i].delivered,
		      "a path's bytes add up", 0);

	query_1_0 = dlvsym(RTLD_DEFAULT, "rmpdv_qp_query_paths", "RMPDV_1.0");
	check(query_1_0, "rmpdv_qp_query_paths@RMPDV_1.0 found", 0);
	memset(old, 0xa5, sizeof(old));
	if (query_1_0) {
		err = query_1_0(lb->a.qp, old, 4, &n);
		check(!err && n == 4, "paths read by RMPDV_1.0", err);
	}
	for (i = 0; i < 4; i++) {
		memset(&o, 0, sizeof(o));
		memcpy(&o, old + i * V1_SIZE, V1_SIZE);
		check(o.sport == ps[i].sport && o.sent == ps[i].sent &&
		      o.delivered == ps[i].delivered &&
		      o.replaced == ps[i].replaced,
		      "RMPDV_1.0 entry in its place", 0);
	}
	check(old[4 * V1_SIZE] == 0xa5 && old[5 * V1_SIZE - 1] == 0xa5,
	      "RMPDV_1.0 wrote nothing past its 4 entries", 0);

	memset(raw, 0xa5, sizeof(raw));
	err = query_v1(lb->a.qp, raw, 4 * RMP_IB_PATH_STATS_SIZE_V1, &num);
	check(!err && num == 4, "paths read as version 1 asks", err);
	for (i = 0; i < 4; i++) {
		memset(&k, 0, sizeof(k));
		memcpy(&k, raw + i * RMP_IB_PATH_STATS_SIZE_V1,
		       RMP_IB_PATH_STATS_SIZE_V1);
		check(k.sport == ps[i].sport && k.sent == ps[i].sent &&
		      k.delivered == ps[i].delivered,
		      "version 1 entry in its place", 0);
	}
	check(raw[4 * RMP_IB_PATH_STATS_SIZE_V1] == 0xa5,
	      "version 1: nothing past 4 entries", 0);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	struct lb lb, ud;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DEV options|hold|foreign H|other|sizes\n",
			argv[0]);
		return 2;
	}
	ctx = lb_open(argv[1]);
	if (!ctx) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&lb, 0, sizeof(lb));
	memset(&ud, 0, sizeof(ud));
	lb.ctx = ctx;
	if (!strcmp(argv[2], "foreign") && argc == 4) {
		foreign(&lb, strtoul(argv[3], NULL, 0));
	} else if (lb_create(&lb, ctx, IBV_QPT_RC)) {
		check(false, "QPs created", errno);
	} else if (!strcmp(argv[2], "options")) {
		err = lb_create(&ud, ctx, IBV_QPT_UD);
		check(!err, "UD QPs created", err ? errno : 0);
		if (!err)
			options(&lb, &ud);
		/* Connected, as rdma resource show lists them. */
		err = lb_connect(&lb);
		check(!err, "connected", err ? errno : 0);
		printf("qpn %u peer %u\n", lb.a.qp->qp_num, lb.b.qp->qp_num);
		wait_eof();
	} else if (!strcmp(argv[2], "hold")) {
		err = rmpdv_qp_set(lb.a.qp, RMPDV_QP_OPT_PATHS, 5);
		check(!err, "paths 5", err);
		printf("qpn %u handle %u\n", lb.a.qp->qp_num, lb.a.qp->handle);
		wait_eof();
	} else if (!strcmp(argv[2], "other")) {
		other(&lb);
	} else if (!strcmp(argv[2], "sizes")) {
		sizes(&lb);
	} else {
		fprintf(stderr, "%s: unknown check %s\n", argv[0], argv[2]);
		failed = 2;
	}
	lb_destroy(&ud);
	lb_destroy(&lb);
	ibv_close_device(ctx);
	return failed;
}
