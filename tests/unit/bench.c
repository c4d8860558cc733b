// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's per-packet decisions, timed in userspace: nanoseconds per
 * packet for path choice and path feedback, receive-window acceptance and
 * delivery, SACK encoding and decoding, the multipath scoreboard, DCQCN
 * rate control and pacing, and header parsing. The same
 * engine objects as the module's, built with optimisation and without
 * sanitizers. Each figure is the best of several rounds, so that a busy
 * host shows less than it disturbs.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../drivers/infiniband/sw/rmp/engine/credit.h"
#include "../../drivers/infiniband/sw/rmp/engine/dcqcn.h"
#include "../../drivers/infiniband/sw/rmp/engine/hdr.h"
#include "../../drivers/infiniband/sw/rmp/engine/paths.h"
#include "../../drivers/infiniband/sw/rmp/engine/rxwin.h"
#include "../../drivers/infiniband/sw/rmp/engine/scoreboard.h"

#define PACKETS		(1U << 20)
#define ROUNDS		5

/* Keeps results alive so that the compiler cannot drop the work. */
static volatile u64 sink;
/* Operations that failed: a figure for a failing path is no figure. */
static u64 failures;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static struct rmp_paths paths;

/* One packet's life on a path set: chosen, sent, delivered. */
static void run_paths(u8 spray, u32 npaths)
{
	struct rmp_paths_cfg cfg = {
		.npaths = npaths,
		.spray = spray,
		.sport = 0xc001,
		.seed = 7,
		.dead_after_ns = 1000000,
		.probe_every_ns = 1000000,
		.flowlet_gap_ns = 500,
	};
	u64 t = 1, sum = 0;
	u32 i, idx;

	if (rmp_paths_init(&paths, &cfg)) {
		failures++;
		return;
	}
	for (i = 0; i < PACKETS; i++) {
		t += 100;
		idx = rmp_paths_pick(&paths, t);
		rmp_paths_sent(&paths, idx, 1024, t);
		rmp_paths_delivered(&paths, idx, 1024, t + 5000, 5000,
				    !(i & 63));
		if (!(i & 1023))
			rmp_paths_tick(&paths, t);
		sum += idx;
	}
	sink += sum;
}

static void paths_rr(void)
{
	run_paths(RMP_SPRAY_RR, RMP_PATHS_MAX);
}

static void paths_weighted(void)
{
	run_paths(RMP_SPRAY_WEIGHTED, RMP_PATHS_MAX);
}

static void paths_flowlet(void)
{
	run_paths(RMP_SPRAY_FLOWLET, RMP_PATHS_MAX);
}

static void paths_weighted_8(void)
{
	run_paths(RMP_SPRAY_WEIGHTED, 8);
}

static struct rmp_rxwin win;

/* PSNs arriving in pairs swapped (every packet out of order or filling). */
static void rxwin_reordered(void)
{
	u32 i, psn, delivered = 0;

	failures += !!rmp_rxwin_init(&win, 0, 256);
	for (i = 0; i < PACKETS; i++) {
		psn = (i ^ 1) & 0xffffff;
		rmp_rxwin_accept(&win, psn);
		delivered += rmp_rxwin_advance(&win);
	}
	failures += delivered != PACKETS;
	sink += delivered;
}

static void rxwin_in_order(void)
{
	u32 i, delivered = 0;

	failures += !!rmp_rxwin_init(&win, 0, 256);
	for (i = 0; i < PACKETS; i++) {
		rmp_rxwin_accept(&win, i & 0xffffff);
		delivered += rmp_rxwin_advance(&win);
	}
	failures += delivered != PACKETS;
	sink += delivered;
}

/*
 * A SACK for every third of PSNs 1 to 199 received out of order (the
 * expected PSN 0 missing), built, encoded and decoded, per ACK sent.
 */
static void sack_round_trip(void)
{
	u8 buf[RMP_SACK_WIRE_MAX];
	struct rmp_sack s, back;
	u32 i, psn;
	int len;

	failures += !!rmp_rxwin_init(&win, 0, 256);
	for (psn = 1; psn < 200; psn += 3)
		rmp_rxwin_accept(&win, psn);
	for (i = 0; i < PACKETS; i++) {
		failures += !!rmp_rxwin_sack(&win, &s);
		len = rmp_sack_encode(&s, buf, sizeof(buf));
		if (len > 0 && rmp_sack_decode(&back, buf, len) == len)
			sink += back.cum_ack;
		else
			failures++;
	}
}

static struct rmp_sb sb;
static struct rmp_sb_rec sb_rec[RMP_RXWIN_MAX];

/*
 * A sprayed packet's bookkeeping at the requester, 256 PSNs in flight over
 * 8 paths: recorded when sent, a SACK every 16 packets holding everything
 * after the oldest (which the scan checks for loss each time), and the
 * cumulative acknowledgment that clears its record.
 */
static void scoreboard_sack_every_16(void)
{
	const struct rmp_paths_cfg cfg = {
		.npaths = 8, .spray = RMP_SPRAY_RR, .sport = 0xc001, .seed = 7,
		.dead_after_ns = 1000000000, .probe_every_ns = 1000000,
	};
	const u32 inflight = 256;
	struct rmp_sack s;
	u32 psn, una = 0, w;
	u64 t = 1;

	failures += !!rmp_paths_init(&paths, &cfg);
	failures += !!rmp_sb_init(&sb, sb_rec, RMP_RXWIN_MAX);
	for (psn = 0; psn < PACKETS; psn++) {
		t += 100;
		rmp_sb_sent(&sb, &paths, psn, 1024, psn % 8, RMP_SB_NO_PROBE, t);
		if (psn - una + 1 == inflight) {
			rmp_sb_acked(&sb, &paths, una, una + 1, t);
			una++;
		}
		if (psn % 16 || psn - una < 2)
			continue;
		memset(&s, 0, sizeof(s));
		s.cum_ack = rmp_psn_sub(una, 1);
		s.highest = psn;
		s.nbits = rmp_sack_nbits(s.cum_ack, s.highest);
		for (w = 0; w < s.nbits; w += 64)
			s.bitmap[w / 64] = s.nbits - w >= 64 ? ~0ULL :
					   (1ULL << (s.nbits - w)) - 1;
		sink += rmp_sb_sack(&sb, &paths, una, psn + 1, &s, t);
	}
}

static struct rmp_dcqcn dcqcn;

/*
 * A paced sender at 100 Gbit/s with 4 KiB packets: the pacer asked, the
 * packet paid for (the timers run on the way), a CNP every 1024 packets.
 */
static void dcqcn_paced(void)
{
	struct rmp_dcqcn_cfg cfg;
	u64 t = 1, sum = 0;
	u32 i;

	rmp_dcqcn_cfg_default(&cfg, 100000000);
	failures += !!rmp_dcqcn_cfg_check(&cfg);
	rmp_dcqcn_init(&dcqcn, &cfg, t);
	for (i = 0; i < PACKETS; i++) {
		t += 100;
		if (!rmp_dcqcn_may_send(&dcqcn, t))
			t = rmp_dcqcn_next_send(&dcqcn, t);
		rmp_dcqcn_sent(&dcqcn, 4096, t);
		if (!(i & 1023))
			rmp_dcqcn_cnp(&dcqcn, t);
		sum += rmp_dcqcn_rate(&dcqcn);
	}
	failures += !dcqcn.stats.cuts || !dcqcn.stats.increases;
	sink += sum;
}

static struct rmp_credit_rx credit_rx;
static struct rmp_credit_peer credit_peers[16];

/*
 * A receiver granting 16 busy senders at 100 Gbit/s, 4 KiB packets: per
 * packet, its arrival taken in, a tick granting one packet of credit, and
 * that grant taken to be sent.
 */
static void credit_grant(void)
{
	const struct rmp_credit_rx_cfg cfg = {
		.rate_kbps = 100000000, .min_kbps = 1000000, .window = 64,
		.overcommit = 8, .policy = RMP_CREDIT_FAIR,
		.idle_ns = 1000000, .ecn_every = 64,
		.ecn_period_ns = 100000, .burst_bytes = 4200,
	};
	u32 i, n = ARRAY_SIZE(credit_peers);
	struct rmp_credit_peer *p;
	u64 t = 1;

	if (rmp_credit_rx_init(&credit_rx, &cfg, t)) {
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		rmp_credit_peer_init(&credit_peers[i], 4200, 0);
		failures += !!rmp_credit_rx_request(&credit_rx,
						    &credit_peers[i],
						    1U << 22, t);
	}
	for (i = 0; i < PACKETS; i++) {
		t += 336;	/* 4200 bytes at 100 Gbit/s */
		p = &credit_peers[i % n];
		rmp_credit_rx_data(&credit_rx, p, p->rcvd, !(i & 255), t);
		rmp_credit_rx_tick(&credit_rx, t);
		while ((p = rmp_credit_rx_take_due(&credit_rx)))
			sink += p->granted;
	}
	failures += !credit_rx.stats.granted;
}

/* The headers of an RC WRITE FIRST packet, parsed. */
static void hdr_parse(void)
{
	struct rmp_hdr_fields f = {
		.bth = { .opcode = RMP_OP_RC_WRITE_FIRST, .qpn = 0x11,
			 .psn = 5, .pkey = 0xffff },
		.reth = { .va = 0x1000, .rkey = 0x22, .len = 65536 },
	};
	struct rmp_hdr_fields out;
	u8 pkt[1024 + 64] = {};
	u32 i;

	if (rmp_hdr_build(&f, pkt, sizeof(pkt)) < 0) {
		failures++;
		return;
	}
	for (i = 0; i < PACKETS; i++) {
		pkt[11] = i;	/* the PSN's low byte: a new packet each time */
		if (!rmp_hdr_parse(&out, pkt, sizeof(pkt), 1024 + 28 + 4,
				   NULL))
			sink += out.bth.psn;
		else
			failures++;
	}
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "path set, 64 paths, round-robin: pick, sent, delivered", paths_rr },
	{ "path set, 64 paths, weighted: pick, sent, delivered",
	  paths_weighted },
	{ "path set, 64 paths, flowlet: pick, sent, delivered",
	  paths_flowlet },
	{ "path set, 8 paths, weighted: pick, sent, delivered",
	  paths_weighted_8 },
	{ "receive window 256, in order: accept, advance", rxwin_in_order },
	{ "receive window 256, pairs swapped: accept, advance",
	  rxwin_reordered },
	{ "SACK, every third of 200 PSNs received: build, encode, decode",
	  sack_round_trip },
	{ "scoreboard, 8 paths, 256 in flight: sent, SACK every 16, acked",
	  scoreboard_sack_every_16 },
	{ "DCQCN, 100 Gbit/s, 4 KiB: pacer, sent, a CNP every 1024",
	  dcqcn_paced },
	{ "credit, 16 senders, 100 Gbit/s: data in, tick, grant out",
	  credit_grant },
	{ "RC WRITE FIRST headers: parse", hdr_parse },
};

int main(void)
{
	u64 best, t0, t;
	size_t c;
	int r;

	printf("engine decisions, ns per packet (best of %d rounds of %u)\n",
	       ROUNDS, PACKETS);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		best = UINT64_MAX;
		for (r = 0; r < ROUNDS; r++) {
			t0 = now_ns();
			cases[c].run();
			t = now_ns() - t0;
			if (t < best)
				best = t;
		}
		printf("%8.1f  %s\n", (double)best / PACKETS, cases[c].name);
	}
	if (failures) {
		fprintf(stderr, "%llu engine calls failed: figures not valid\n",
			(unsigned long long)failures);
		return 1;
	}
	return 0;
}
