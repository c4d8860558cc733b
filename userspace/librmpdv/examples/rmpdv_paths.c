// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * rmpdv_paths: librmpdv at work. Opens an RDMA device by name; on an rmp
 * device, connects two RC QPs of it to each other, gives the first its
 * own number of paths with rmpdv_qp_set() before it connects, reads its
 * options back, RDMA-WRITEs through it and shows each path it sprayed
 * over with rmpdv_qp_query_paths(): packets and payload bytes.
 *
 *	rmpdv_paths DEVICE [PATHS [KIB]]	(defaults: 4 paths, 256 KiB)
 *
 * Exit status: 0 on success, and for a device that is not an rmp device
 * (it says "not an rmp device"); 1 if something failed; 2 for a bad
 * command line. Spraying needs the device's knob ext at auto or on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rmpdv.h>

#include "loopback.h"

static const char *const opt_names[] = {
	[RMPDV_QP_OPT_PATHS] = "paths",
	[RMPDV_QP_OPT_SPRAY] = "spray",
	[RMPDV_QP_OPT_CC] = "cc",
	[RMPDV_QP_OPT_UNSCHED] = "rcc_unsched",
};

static const char *const spray_words[] = { "rr", "weighted", "flowlet" };
static const char *const cc_words[] = { "none", "dcqcn", "rcc" };

static void show_opts(struct ibv_qp *qp)
{
	uint32_t val;
	bool own;
	int i;

	for (i = RMPDV_QP_OPT_PATHS; i <= RMPDV_QP_OPT_UNSCHED; i++) {
		if (rmpdv_qp_get(qp, i, &val, &own)) {
			printf("  %s: %s\n", opt_names[i], strerror(errno));
			continue;
		}
		if (i == RMPDV_QP_OPT_SPRAY && val < 3)
			printf("  %-12s %s", opt_names[i], spray_words[val]);
		else if (i == RMPDV_QP_OPT_CC && val < 3)
			printf("  %-12s %s", opt_names[i], cc_words[val]);
		else
			printf("  %-12s %u", opt_names[i], val);
		printf(" (%s)\n", own ? "the QP's own" : "the device's");
	}
}

/* Wait until @qp sprays (its peer agreed to multipath). */
static size_t wait_paths(struct ibv_qp *qp)
{
	time_t stop = time(NULL) + 10;
	size_t n = 0;

	while (!rmpdv_qp_query_paths(qp, NULL, 0, &n) && !n &&
	       time(NULL) < stop)
		usleep(10000);
	return n;
}

int main(int argc, char **argv)
{
	struct rmpdv_path_stats ps[64];
	struct ibv_context *ctx;
	unsigned long paths = 4, kib = 256;
	int status = 1;
	struct lb lb;
	size_t i, n;

	if (argc < 2 || argc > 4 ||
	    (argc > 2 && (paths = strtoul(argv[2], NULL, 0)) == 0) ||
	    (argc > 3 && (kib = strtoul(argv[3], NULL, 0)) == 0)) {
		fprintf(stderr, "usage: %s DEVICE [PATHS [KIB]]\n", argv[0]);
		return 2;
	}
	ctx = lb_open(argv[1]);
	if (!ctx) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!rmpdv_is_rmp_device(ctx)) {
		printf("%s: not an rmp device\n", argv[1]);
		ibv_close_device(ctx);
		return 0;
	}
	if (lb_create(&lb, ctx, IBV_QPT_RC)) {
		perror("creating the QPs");
		goto out;
	}
	if (rmpdv_qp_set(lb.a.qp, RMPDV_QP_OPT_PATHS, paths)) {
		fprintf(stderr, "rmpdv_qp_set(paths, %lu): %s\n", paths,
			strerror(errno));
		goto out;
	}
	if (lb_connect(&lb)) {
		perror("connecting the QPs");
		goto out;
	}
	printf("%s: qp %u to qp %u\n", argv[1], lb.a.qp->qp_num,
	       lb.b.qp->qp_num);
	show_opts(lb.a.qp);
	if (paths > 1 && wait_paths(lb.a.qp) != paths) {
		fprintf(stderr, "qp %u does not spray over %lu paths: did its peer agree to multipath (knob ext)?\n",
			lb.a.qp->qp_num, paths);
		goto out;
	}
	if (lb_write(&lb, kib * 1024))
		goto out;
	printf("wrote %lu KiB\n", kib);
	if (rmpdv_qp_query_paths(lb.a.qp, ps, 64, &n)) {
		perror("rmpdv_qp_query_paths");
		goto out;
	}
	for (i = 0; i < n && i < 64; i++)
		printf("path %zu: sport %u %s sent %llu delivered %llu lost %llu ecn_marked %llu inflight %u srtt_ns %u deaths %llu sent_bytes %llu delivered_bytes %llu\n",
		       i, ps[i].sport, ps[i].live ? "live" : "dead",
		       (unsigned long long)ps[i].sent,
		       (unsigned long long)ps[i].delivered,
		       (unsigned long long)ps[i].lost,
		       (unsigned long long)ps[i].ecn_marked, ps[i].inflight,
		       ps[i].srtt_ns, (unsigned long long)ps[i].deaths,
		       (unsigned long long)ps[i].sent_bytes,
		       (unsigned long long)ps[i].delivered_bytes);
	status = 0;
out:
	lb_destroy(&lb);
	ibv_close_device(ctx);
	return status;
}
