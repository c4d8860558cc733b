// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the requester, its WQEs posted and its packets sent as
 * the input says, answered by responses made from the input: valid,
 * duplicated, early, late, of the wrong kind, with any syndrome and
 * length, SACKs (multipath) holding anything with ECN echoes marking
 * anything, READ responses taken in any order (read spraying) or not, a
 * pacer's rate cut at any
 * time, and its timer fired at any time, SENDs and WRITEs with immediate
 * data sprayed or not. Whatever comes, the ring indices stay ordered, a
 * packet handed out lies inside its WQE at the offset of its PSN (a
 * sprayed one is a WRITE ONLY, or with send spraying a piece of a SEND
 * that names the SEND's SSN, its offset and its place, on a path of the
 * set; a WRITE with immediate data is sprayed only with send spraying,
 * its WRITE ONLYs naming its SSN; with a path set every WRITE, SEND and
 * WRITE with immediate data that send spraying takes goes sprayed),
 * response data is placed only inside the READ (or atomic) WQE it
 * answers, WQEs complete once each, in posting order, and the timer is
 * never due again at once.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/req.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SLOTS	16
#define NREC	64

static const u32 mtus[] = { 256, 512, 1024, 2048, 4096 };

static const u8 responses[] = {
	RMP_OP_RC_READ_RESPONSE_FIRST, RMP_OP_RC_READ_RESPONSE_MIDDLE,
	RMP_OP_RC_READ_RESPONSE_LAST, RMP_OP_RC_READ_RESPONSE_ONLY,
	RMP_OP_RC_ACKNOWLEDGE, RMP_OP_RC_ATOMIC_ACKNOWLEDGE,
};

struct wqe {
	u8 kind;
	bool imm;
	u32 len;
	u32 ssn;	/* messages taking a receive WQE posted before it */
	u32 psn;	/* its first PSN */
};

static void put_psn(u8 *p, u32 psn)
{
	p[0] = 0;
	p[1] = psn >> 16;
	p[2] = psn >> 8;
	p[3] = psn;
}

static void check_order(const struct rmp_req *r)
{
	u32 head = r->head - r->tail;

	FUZZ_CHECK(r->comp - r->tail <= head);
	FUZZ_CHECK(r->cur - r->tail <= head);
	FUZZ_CHECK(head <= r->mask + 1);
	/* una <= next_psn <= sent_psn <= post_psn: nothing skips a PSN. */
	FUZZ_CHECK(rmp_psn_sub(r->next_psn, r->una) <=
		   rmp_psn_sub(r->sent_psn, r->una));
	FUZZ_CHECK(rmp_psn_sub(r->sent_psn, r->una) <=
		   rmp_psn_sub(r->post_psn, r->una));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct rmp_req_wqe ring[SLOTS];
	struct wqe wqes[SLOTS];
	struct rmp_req_cfg cfg = {};
	struct rmp_hdr_fields f;
	struct rmp_req_done done;
	struct rmp_req_pkt pkt;
	struct rmp_req_rsp rsp;
	struct rmp_req r;
	struct rmp_paths ps;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[NREC];
	struct rmp_paths_cfg pcfg = {};
	struct rmp_sack sack;
	struct rmp_ecn_echo echo;
	struct rmp_dcqcn_cfg dcfg;
	struct rmp_dcqcn dcqcn;
	u8 wire[RMP_SACK_WIRE_MAX];
	u32 posted = 0, completed = 0, steps = 0, i, psn, ssn = 0, post_psn;
	u64 now = 1, dl;

	cfg.qpt = RMP_QPT_RC;
	cfg.mtu = mtus[fuzz_take(&in, 1) % 5];
	cfg.retry_cnt = fuzz_take(&in, 1) & 7;
	cfg.rnr_retry = fuzz_take(&in, 1) & 7;
	cfg.timeout = fuzz_take(&in, 1) & 0x1f;
	cfg.max_rd_atomic = fuzz_take(&in, 1) % 5;
	/* Up to every scoreboard record in flight. */
	cfg.max_inflight = fuzz_take(&in, 1) % (NREC + 1);
	cfg.ack_every = fuzz_take(&in, 1) % 8;
	post_psn = fuzz_take(&in, 3);
	FUZZ_CHECK(!rmp_req_init(&r, ring, SLOTS, &cfg, post_psn));
	pcfg.npaths = fuzz_take(&in, 1) % 9;
	if (pcfg.npaths) {
		pcfg.spray = fuzz_take(&in, 1) % RMP_SPRAY_NR;
		pcfg.sport = r.sport;
		pcfg.seed = fuzz_take(&in, 2);
		pcfg.dead_after_ns = 1 + fuzz_take(&in, 2);
		pcfg.probe_every_ns = 1 + fuzz_take(&in, 2);
		pcfg.flowlet_gap_ns = 1 + fuzz_take(&in, 2);
		FUZZ_CHECK(!rmp_paths_init(&ps, &pcfg));
		FUZZ_CHECK(!rmp_sb_init(&sb, rec, NREC));
		FUZZ_CHECK(!rmp_req_multipath(&r, &ps, &sb));
		if (fuzz_take(&in, 1) & 1)
			FUZZ_CHECK(!rmp_req_send_spray(&r));
	}
	if (fuzz_take(&in, 1) & 1)
		FUZZ_CHECK(!rmp_req_read_spray(&r, 1 + fuzz_take(&in, 2)));
	if (fuzz_take(&in, 1) & 1) {
		/* Paced, from 1 kbit/s to 1 Tbit/s. */
		rmp_dcqcn_cfg_default(&dcfg, 1 + fuzz_take(&in, 4) %
					     RMP_DCQCN_LINE_MAX);
		rmp_dcqcn_init(&dcqcn, &dcfg, now);
		rmp_req_pace(&r, &dcqcn);
	}

	while (in.left && steps++ < 4096) {
		u32 op = fuzz_take(&in, 1), slot;
		struct wqe *w;
		int ret;

		switch (op % 7) {
		case 0: {
			u32 kind = fuzz_take(&in, 1) % RMP_REQ_KIND_MAX;
			u32 len = kind == RMP_REQ_ATOMIC ||
				  kind == RMP_REQ_ATOMIC_WRITE ? 8 :
				  kind == RMP_REQ_LOCAL ? 0 :
				  fuzz_take(&in, 2) % (5 * cfg.mtu);
			/* As the kernel: immediate data on SENDs, WRITEs. */
			bool imm = (op & 0x40) && (kind == RMP_REQ_SEND ||
						   kind == RMP_REQ_WRITE);

			ret = rmp_req_post(&r, kind, len,
					   (op & 0x80 ? RMP_REQ_F_FENCE : 0) |
					   (imm ? RMP_REQ_F_IMM : 0));
			if (ret < 0)
				break;
			FUZZ_CHECK((u32)ret == posted % SLOTS);
			wqes[ret].kind = kind;
			wqes[ret].imm = imm;
			wqes[ret].len = len;
			wqes[ret].ssn = ssn;
			wqes[ret].psn = post_psn;
			if (kind == RMP_REQ_SEND || imm)
				ssn = rmp_psn_add(ssn, 1);
			if (kind == RMP_REQ_ATOMIC ||
			    kind == RMP_REQ_ATOMIC_WRITE)
				post_psn = rmp_psn_add(post_psn, 1);
			else if (kind != RMP_REQ_LOCAL)
				post_psn = rmp_psn_add(post_psn, len ?
					(len + cfg.mtu - 1) / cfg.mtu : 1);
			posted++;
			break;
		}
		case 1:
			if (rmp_req_next(&r, now, &pkt))
				break;
			FUZZ_CHECK(pkt.slot < SLOTS);
			w = &wqes[pkt.slot];
			FUZZ_CHECK(pkt.kind == w->kind);
			if (pkt.kind == RMP_REQ_LOCAL)
				break;
			FUZZ_CHECK((u64)pkt.offset + pkt.len <= w->len);
			if (pkt.kind == RMP_REQ_SEND ||
			    pkt.kind == RMP_REQ_WRITE)
				FUZZ_CHECK(pkt.len <= cfg.mtu);
			/* A SEND's or WRITE's packet: at its PSN's offset. */
			if (pkt.kind == RMP_REQ_SEND ||
			    pkt.kind == RMP_REQ_WRITE)
				FUZZ_CHECK(pkt.offset ==
					   rmp_psn_sub(pkt.psn, w->psn) *
					   cfg.mtu);
			/* With a path set, sprayed as send spraying says. */
			if (pcfg.npaths &&
			    ((pkt.kind == RMP_REQ_WRITE &&
			      (!w->imm || r.send_spray)) ||
			     (pkt.kind == RMP_REQ_SEND && r.send_spray)))
				FUZZ_CHECK(pkt.sprayed);
			if (pkt.sprayed && pkt.kind == RMP_REQ_SEND) {
				FUZZ_CHECK(r.send_spray && pkt.ssn == w->ssn);
				FUZZ_CHECK(!(pkt.offset % cfg.mtu));
				FUZZ_CHECK(!(pkt.pos & RMP_REQ_FIRST) ==
					   !!pkt.offset);
				FUZZ_CHECK(!(pkt.pos & RMP_REQ_LAST) ==
					   (pkt.offset + pkt.len < w->len));
			}
			/* Sprayed with immediate: the SSN, for its last SPETH. */
			if (pkt.sprayed && pkt.kind == RMP_REQ_WRITE && w->imm)
				FUZZ_CHECK(r.send_spray && pkt.ssn == w->ssn);
			if (pkt.sprayed) {
				FUZZ_CHECK(pcfg.npaths);
				FUZZ_CHECK((pkt.kind == RMP_REQ_WRITE &&
					    pkt.pos == RMP_REQ_ONLY) ||
					   pkt.kind == RMP_REQ_SEND);
				/* A path's port, or a path's home it probes. */
				for (i = 0; i < pcfg.npaths; i++)
					if (ps.path[i].sport == pkt.sport ||
					    ps.path[i].home_sport == pkt.sport)
						break;
				FUZZ_CHECK(i < pcfg.npaths);
			}
			break;
		case 2:
			memset(&f, 0, sizeof(f));
			op = fuzz_take(&in, 1);
			f.bth.opcode = op < 240 ? responses[op % 6] :
					fuzz_take(&in, 1);
			f.bth.psn = rmp_psn_add(r.una, (u32)(s32)(int8_t)
						fuzz_take(&in, 1));
			f.aeth.syndrome = fuzz_take(&in, 1);
			f.aeth.msn = fuzz_take(&in, 3);
			f.atmack.orig = fuzz_take(&in, 4);
			f.payload_len = fuzz_take(&in, 1) & 1 ? cfg.mtu :
					fuzz_take(&in, 2) % (cfg.mtu + 1);
			rmp_req_ack(&r, now, &f, &rsp);
			if (rsp.action == RMP_REQ_RSP_READ) {
				FUZZ_CHECK(rsp.slot < SLOTS);
				w = &wqes[rsp.slot];
				FUZZ_CHECK(w->kind == RMP_REQ_READ);
				FUZZ_CHECK(rsp.len == f.payload_len);
				FUZZ_CHECK((u64)rsp.offset + rsp.len <= w->len);
			} else if (rsp.action == RMP_REQ_RSP_ATOMIC) {
				FUZZ_CHECK(rsp.slot < SLOTS);
				FUZZ_CHECK(wqes[rsp.slot].kind ==
					   RMP_REQ_ATOMIC);
			}
			break;
		case 3:
			now += (u64)fuzz_take(&in, 2) << (fuzz_take(&in, 1) % 24);
			rmp_req_timer(&r, now);
			dl = rmp_req_deadline(&r);
			FUZZ_CHECK(!dl || dl > now);
			break;
		case 5:
			/* A SACK as the wire brings it, around una. */
			for (i = 0; i < sizeof(wire); i++)
				wire[i] = fuzz_take(&in, 1);
			wire[0] = RMP_SACK_VERSION;
			wire[1] %= RMP_SACK_MAX_WORDS + 1;
			memset(wire + 2, 0, 2);
			/* cum_ack near una, highest a little after it */
			psn = rmp_psn_add(r.una, (u32)(s32)(int8_t)wire[4]);
			put_psn(wire + 4, psn);
			put_psn(wire + 8, rmp_psn_add(psn, wire[8]));
			if (rmp_sack_decode(&sack, wire, sizeof(wire)))
				break;
			memset(&f, 0, sizeof(f));
			f.bth.opcode = RMP_OP_EXT_SACK;
			f.bth.psn = sack.cum_ack;
			f.aeth.syndrome = fuzz_take(&in, 1);
			/* An echo near una marking anything, or none. */
			echo.base = rmp_psn_add(r.una,
						(u32)(s32)(int8_t)fuzz_take(&in, 1));
			for (i = 0; i < ARRAY_SIZE(echo.bitmap); i++)
				echo.bitmap[i] = (u64)fuzz_take(&in, 4) << 32 |
						 fuzz_take(&in, 4);
			rmp_req_sack(&r, now, &f, &sack,
				     op & 0x80 ? &echo : NULL);
			if (pcfg.npaths)
				FUZZ_CHECK(sb.nlost <= NREC);
			break;
		case 4:
			if (r.pacer && op & 0x80)
				rmp_dcqcn_cnp(&dcqcn, now);
			while (!rmp_req_complete(&r, &done)) {
				FUZZ_CHECK(done.slot == completed % SLOTS);
				FUZZ_CHECK(done.kind == wqes[done.slot].kind);
				completed++;
			}
			break;
		default:
			if (op & 0x80) {
				rmp_req_flush(&r);
			} else if (posted != completed) {
				slot = (completed + fuzz_take(&in, 1) %
					(posted - completed)) % SLOTS;
				rmp_req_fail(&r, slot, RMP_REQ_ERR_LOCAL);
			}
			break;
		}
		check_order(&r);
		FUZZ_CHECK(posted - completed <= SLOTS);
	}
	return 0;
}
