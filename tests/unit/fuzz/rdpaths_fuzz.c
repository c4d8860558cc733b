// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a responder's READ response paths driven by the input
 * through any sequence of responses sent, sent again, reports (whatever
 * bytes decode as a SACK block, forged ones included) and time. Whatever
 * comes, each path's count in flight is the number of responses in flight
 * on it, every response in flight lies in the watched range, and every
 * path chosen is one of the set.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/rdpaths.h"

#define NREC	64U

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rmp_paths ps;
static struct rmp_sb sb;
static struct rmp_sb_rec rec[NREC];
static struct rmp_rdp d;

/* The invariants that tie the records to the path set. */
static void check(void)
{
	uint32_t inflight[RMP_PATHS_MAX] = { 0 }, probes = 0, i;

	for (i = 0; i < NREC; i++) {
		if (rec[i].state != RMP_SB_SENT)
			continue;
		FUZZ_CHECK(rec[i].path < ps.cfg.npaths);
		inflight[rec[i].path]++;
		probes += rec[i].probe;
	}
	for (i = 0; i < ps.cfg.npaths; i++)
		FUZZ_CHECK(ps.path[i].inflight == inflight[i]);
	FUZZ_CHECK(sb.nprobes == probes);
	FUZZ_CHECK(rmp_psn_sub(d.end, d.una) <= NREC ||
		   !rmp_psn_before(d.una, d.end));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rmp_paths_cfg cfg = {
		.spray = RMP_SPRAY_RR, .late_news = true, .sport = 0xc001,
		.dead_after_ns = 1000000, .probe_every_ns = 500000,
	};
	struct fuzz_in in = { data, size };
	uint8_t block[RMP_SACK_WIRE_MAX];
	uint32_t epsn, psn, span, k;
	struct rmp_sack s;
	uint64_t now = 0;

	cfg.npaths = 1 + fuzz_take(&in, 1) % 8;
	cfg.seed = fuzz_take(&in, 2);
	epsn = fuzz_take(&in, 3) & RMP_PSN_MASK;
	if (rmp_paths_init(&ps, &cfg) || rmp_sb_init(&sb, rec, NREC) ||
	    rmp_rdp_init(&d, &ps, &sb, epsn))
		abort();
	while (in.left) {
		now += fuzz_take(&in, 1) * 20000ULL;
		switch (fuzz_take(&in, 1) % 4) {
		case 0:
			/* A READ of a few responses, after a few WRITE PSNs. */
			epsn = rmp_psn_add(epsn, fuzz_take(&in, 1) % 4);
			for (k = 1 + fuzz_take(&in, 1) % 8; k; k--) {
				FUZZ_CHECK(rmp_rdp_pick(&d, epsn, 1024, now) <
					   cfg.npaths);
				epsn = rmp_psn_add(epsn, 1);
			}
			break;
		case 1:
			/* A response asked for again, or a far-off PSN. */
			span = rmp_psn_sub(epsn, d.una) + 1;
			psn = rmp_psn_add(d.una, fuzz_take(&in, 2) % span);
			if (fuzz_take(&in, 1) == 0xff)
				psn = fuzz_take(&in, 3);
			FUZZ_CHECK(rmp_rdp_pick(&d, psn, 1024, now) < cfg.npaths);
			break;
		default:
			/* A report: bytes as they come, its PSNs near ours. */
			memset(block, 0, sizeof(block));
			for (k = 0; k < sizeof(block); k++)
				block[k] = fuzz_take(&in, 1);
			block[0] = RMP_SACK_VERSION;
			block[2] &= ~RMP_SACK_F_ECN;
			psn = rmp_psn_sub(epsn, fuzz_take(&in, 1));
			span = rmp_psn_add(psn, block[1]);
			block[1] = (rmp_sack_nbits(psn, span) + 31) / 32;
			block[4] = 0;
			block[5] = psn >> 16;
			block[6] = psn >> 8;
			block[7] = psn;
			block[8] = 0;
			block[9] = span >> 16;
			block[10] = span >> 8;
			block[11] = span;
			if (rmp_sack_decode(&s, block, 12 + 4 * block[1]) < 0)
				break;
			rmp_rdp_report(&d, &s, epsn, now);
			break;
		}
		check();
	}
	return 0;
}
