// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the responder (RC or UC) fed a stream of requests
 * made from the input: opcodes valid or not, PSNs at, before and after
 * the expected one, hostile lengths, addresses and keys, and every
 * execution outcome, with out-of-order acceptance (multipath) or not,
 * CE marks echoed or not, READ responses sprayed or not, SENDs taken in
 * sprayed pieces or not. Whatever comes, a WRITE is placed only inside
 * the range its first packet's RETH announced (a WRITE ONLY ahead of the
 * expected PSN: its own), a SEND only at the offset its message reached,
 * READ responses only inside the range the READ that took the resource
 * named (sprayed only if it is a READ of at most RMP_RD_SPRAY_MAX
 * responses, and only with read spraying), a piece of a sprayed SEND only
 * at its own offset, on the MTU grid and inside 2^31 bytes, in a receive
 * WQE fewer than RMP_SPETH_MSGS down the queue (the first, in its turn),
 * the last piece of a sprayed WRITE with immediate data so too, and
 * placed by its own RETH, all of it, with write permission, the SENDs
 * (and such WRITEs) complete one by one in SSN order, each from a last
 * piece, and a SACK's ECN echo names only PSNs received, in its one
 * encoding.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/resp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NRES_MAX	4

/* A SACK as the responder would send it now: its echo, if any, checked. */
static void check_sack(struct rmp_resp *resp)
{
	u8 wire[RMP_ECN_ECHO_WIRE_MAX];
	struct rmp_ecn_echo ce, again;
	struct rmp_sack s;
	u32 i;
	int len;

	if (rmp_resp_sack(resp, &s, &ce) || !s.ecn)
		return;
	len = rmp_ecn_echo_encode(&ce, wire, sizeof(wire));
	FUZZ_CHECK(len > 0);
	FUZZ_CHECK(rmp_ecn_echo_decode(&again, wire, len) == len);
	for (i = 0; i < RMP_ECN_ECHO_BITS; i++) {
		u32 psn = rmp_psn_add(ce.base, i);

		FUZZ_CHECK(rmp_ecn_echo_has(&again, psn) ==
			   rmp_ecn_echo_has(&ce, psn));
		FUZZ_CHECK(!rmp_ecn_echo_has(&ce, psn) ||
			   rmp_rxwin_has(&resp->win, psn));
	}
}

static const u32 mtus[] = { 256, 512, 1024, 2048, 4096 };

static const u8 opcodes[] = {
	RMP_OP_RC_SEND_FIRST, RMP_OP_RC_SEND_MIDDLE, RMP_OP_RC_SEND_LAST,
	RMP_OP_RC_SEND_LAST_IMM, RMP_OP_RC_SEND_ONLY, RMP_OP_RC_SEND_ONLY_IMM,
	RMP_OP_RC_WRITE_FIRST, RMP_OP_RC_WRITE_MIDDLE, RMP_OP_RC_WRITE_LAST,
	RMP_OP_RC_WRITE_LAST_IMM, RMP_OP_RC_WRITE_ONLY,
	RMP_OP_RC_WRITE_ONLY_IMM, RMP_OP_RC_READ_REQUEST,
	RMP_OP_RC_COMPARE_SWAP, RMP_OP_RC_FETCH_ADD, RMP_OP_RC_SEND_LAST_INV,
	RMP_OP_RC_SEND_ONLY_INV, RMP_OP_RC_ATOMIC_WRITE,
	RMP_OP_UC_SEND_FIRST, RMP_OP_UC_SEND_MIDDLE, RMP_OP_UC_SEND_LAST,
	RMP_OP_UC_SEND_ONLY, RMP_OP_UC_WRITE_FIRST, RMP_OP_UC_WRITE_MIDDLE,
	RMP_OP_UC_WRITE_LAST, RMP_OP_UC_WRITE_ONLY,
	RMP_OP_EXT_SEND_PIECE, RMP_OP_EXT_SEND_PIECE_LAST,
	RMP_OP_EXT_SEND_PIECE_LAST_IMM, RMP_OP_EXT_SEND_PIECE_LAST_INV,
	RMP_OP_EXT_WRITE_PIECE_LAST_IMM,
};

/* A last piece taken: what its SEND (or WRITE) must complete with. */
struct want {
	bool valid;
	u8 opcode;
	bool se;
	u32 psn;
	u32 len;
	u32 data;
};

/* A last piece of a sprayed SEND or WRITE was taken: note its SSN's end. */
static void note_last(struct want *want, const struct rmp_resp_in *req)
{
	struct want *w = &want[req->ssn % RMP_SPETH_MSGS];

	FUZZ_CHECK(!w->valid);
	w->valid = true;
	w->opcode = req->opcode;
	w->se = req->se;
	w->psn = req->psn;
	w->len = req->offset + req->payload_len;
	w->data = req->data;
}

/*
 * Every SEND the responder completed, in SSN order, each of sane size,
 * as its last piece taken said.
 */
static void take_sent(struct rmp_resp *resp, struct want *want)
{
	u32 ssn = resp->ssn_done, end = resp->ssn;
	struct rmp_resp_sent sent;
	struct want *w;

	while (rmp_resp_take_sent(resp, &sent)) {
		w = &want[ssn % RMP_SPETH_MSGS];
		FUZZ_CHECK(sent.valid && sent.len <= RMP_RESP_MAX_READ_LEN);
		FUZZ_CHECK(w->valid && sent.opcode == w->opcode &&
			   sent.se == w->se && sent.psn == w->psn &&
			   sent.len == w->len && sent.data == w->data);
		FUZZ_CHECK(rmp_psn_before(sent.psn, rmp_resp_epsn(resp)));
		w->valid = false;
		ssn = rmp_psn_add(ssn, 1);
	}
	FUZZ_CHECK(ssn == end && resp->ssn_done == end);
}

/* The message being received, as the checks see it. */
struct msg {
	bool write;
	bool send;
	u64 base;	/* WRITE: RETH address */
	u64 len;	/* WRITE: RETH length */
	u32 off;	/* SEND: bytes received */
};

static u32 pick_len(struct fuzz_in *in, u32 mtu)
{
	switch (fuzz_take(in, 1) % 6) {
	case 0:
		return 0;
	case 1:
		return mtu;
	case 2:
		return mtu - 1;
	case 3:
		return 8;
	case 4:
		return fuzz_take(in, 1);
	default:
		return fuzz_take(in, 2) % (2 * mtu);
	}
}

static void check_read(const struct rmp_resp *resp,
		       const struct rmp_resp_reply *reply, u32 mtu)
{
	struct rmp_resp_read cur = reply->read;
	struct rmp_resp_read_pkt pkt;
	const struct rmp_resp_res *r;
	u32 n = 0;

	FUZZ_CHECK(cur.res < resp->nres);
	r = &resp->res[cur.res];
	while (rmp_resp_read_next(&cur, &pkt)) {
		FUZZ_CHECK(pkt.len <= mtu);
		FUZZ_CHECK(pkt.rkey == r->rkey);
		FUZZ_CHECK(pkt.va == r->va + pkt.offset);
		FUZZ_CHECK((u64)pkt.offset + pkt.len <= r->len);
		FUZZ_CHECK(++n <= RMP_RESP_RES_HORIZON);
		FUZZ_CHECK(!pkt.sprayed ||
			   (resp->rd_spray && r->kind == RMP_RESP_RES_READ &&
			    r->npkts <= RMP_RD_SPRAY_MAX));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct rmp_resp_res res[NRES_MAX];
	struct rmp_resp_config cfg = {};
	struct want want[RMP_SPETH_MSGS] = {};
	struct rmp_resp_spray sp;
	struct rmp_resp_reply flush;
	struct rmp_resp_out out;
	struct rmp_resp_in req;
	struct rmp_resp resp;
	struct msg m = {};
	u32 nres, sel0, steps = 0;

	sel0 = fuzz_take(&in, 1);
	cfg.uc = sel0 & 1;
	cfg.ooo = !cfg.uc && (sel0 & 2);
	cfg.win_size = RMP_RXWIN_MAX;
	cfg.mtu = mtus[fuzz_take(&in, 1) % 5];
	cfg.access = fuzz_take(&in, 1) & 7;
	cfg.ack_every = fuzz_take(&in, 1) % 4;
	cfg.min_rnr_timer = fuzz_take(&in, 1) & 0x1f;
	cfg.epsn = fuzz_take(&in, 3);
	nres = fuzz_take(&in, 1) % (NRES_MAX + 1);
	FUZZ_CHECK(!rmp_resp_init(&resp, &cfg, res, nres));
	if (cfg.ooo)
		FUZZ_CHECK(!rmp_resp_multipath(&resp, sel0 & 4));
	if (!cfg.uc && (sel0 & 8))
		FUZZ_CHECK(!rmp_resp_read_spray(&resp));
	if (cfg.ooo && (sel0 & 16))
		FUZZ_CHECK(!rmp_resp_send_spray(&resp, &sp));

	while (in.left && steps++ < 4096) {
		u32 sel = fuzz_take(&in, 1), len;
		u32 flags, epsn = rmp_resp_epsn(&resp);
		const struct rmp_opcode_info *info;
		enum rmp_resp_status st;
		bool will, ahead;

		memset(&req, 0, sizeof(req));
		req.opcode = sel < 240 ? opcodes[sel % sizeof(opcodes)] :
					 fuzz_take(&in, 1);
		sel = fuzz_take(&in, 1);
		req.psn = sel < 192 ? epsn :
			  rmp_psn_add(epsn, (u32)(s32)(int8_t)fuzz_take(&in, 1));
		req.ackreq = sel & 1;
		req.ce = sel & 2;
		req.payload_len = pick_len(&in, cfg.mtu);
		req.va = (u64)fuzz_take(&in, 4) << 32 | fuzz_take(&in, 4);
		req.rkey = fuzz_take(&in, 1);
		sel = fuzz_take(&in, 1);
		req.dma_len = sel < 128 ? req.payload_len :
			      sel < 192 ? pick_len(&in, cfg.mtu) * 3 :
			      fuzz_take(&in, 4);
		sel = fuzz_take(&in, 1);
		req.ssn = sel < 128 ? rmp_psn_add(resp.ssn, sel % 4) :
			  sel < 192 ? rmp_psn_add(resp.ssn, sel % 80) :
			  fuzz_take(&in, 3);
		req.offset = sel & 1 ? fuzz_take(&in, 4) :
			     fuzz_take(&in, 1) * cfg.mtu;
		req.se = sel & 2;
		req.data = fuzz_take(&in, 4);
		sel = fuzz_take(&in, 1);
		st = sel < 200 ? RMP_RESP_OK : (enum rmp_resp_status)
			(sel % RMP_RESP_STATUS_MAX);

		will = rmp_resp_will_execute(&resp, &req);
		FUZZ_CHECK(!rmp_resp_packet(&resp, &req, &out));
		FUZZ_CHECK(!will || out.verdict == RMP_RESP_EXECUTE);
		if (out.aborted)
			memset(&m, 0, sizeof(m));
		if (out.verdict != RMP_RESP_EXECUTE) {
			if (out.reply.kind == RMP_RESP_REPLY_READ)
				check_read(&resp, &out.reply, cfg.mtu);
			continue;
		}

		info = rmp_opcode_info(req.opcode);
		FUZZ_CHECK(info);
		flags = info->flags;
		len = req.payload_len;
		FUZZ_CHECK(len <= cfg.mtu);
		ahead = !cfg.uc && req.psn != epsn;
		if (flags & RMP_OPF_SPETH) {
			/* A piece: at its own offset, in a WQE near enough. */
			FUZZ_CHECK(resp.sp && !out.first && !out.last);
			FUZZ_CHECK(out.offset == req.offset &&
				   !(out.offset % cfg.mtu));
			FUZZ_CHECK((u64)out.offset + len <=
				   RMP_RESP_MAX_READ_LEN);
			FUZZ_CHECK(out.rq_idx < RMP_SPETH_MSGS);
			FUZZ_CHECK(ahead || (!out.rq_idx && !m.send && !m.write));
		}
		if ((flags & RMP_OPF_SPETH) && (flags & RMP_OPF_WRITE)) {
			/* A WRITE's last piece: all where its RETH says. */
			FUZZ_CHECK(out.va == req.va && out.rkey == req.rkey &&
				   len == req.dma_len);
			FUZZ_CHECK(cfg.access & RMP_RESP_ALLOW_WRITE);
		}
		if (ahead) {
			/* A WRITE ONLY or a piece; a WRITE by its own RETH. */
			FUZZ_CHECK(cfg.ooo);
			FUZZ_CHECK(req.opcode == RMP_OP_RC_WRITE_ONLY ||
				   (flags & RMP_OPF_SPETH));
			FUZZ_CHECK(!(flags & RMP_OPF_WRITE) ||
				   (out.va == req.va && len == req.dma_len));
			FUZZ_CHECK(!rmp_resp_executed(&resp, st, sel, &out));
			FUZZ_CHECK(!out.error && rmp_resp_epsn(&resp) == epsn);
			/* Held only if it went well; a failure is dropped. */
			FUZZ_CHECK((out.verdict == RMP_RESP_EXECUTE) ==
				   (st == RMP_RESP_OK));
			if (out.verdict == RMP_RESP_EXECUTE &&
			    (flags & RMP_OPF_SPETH) && (flags & RMP_OPF_LAST))
				note_last(want, &req);
			take_sent(&resp, want);
			continue;
		}
		if ((flags & RMP_OPF_WRITE) && !(flags & RMP_OPF_SPETH)) {
			if (out.first) {
				FUZZ_CHECK(out.va == req.va);
				FUZZ_CHECK(len <= req.dma_len);
			} else {
				FUZZ_CHECK(m.write);
				/* Offsets: base + len may wrap the 64 bits. */
				FUZZ_CHECK(out.va - m.base <= m.len &&
					   len <= m.len - (out.va - m.base));
			}
		}
		if ((flags & RMP_OPF_SEND) && !(flags & RMP_OPF_SPETH))
			FUZZ_CHECK(out.offset == (out.first ? 0 : m.off));
		if (flags & RMP_OPF_ATOMIC_WRITE)
			FUZZ_CHECK(len == 8 && req.dma_len == 8 &&
				   !(req.va & 7));

		/* Found corrupt after placement: as if never received. */
		if (will && (sel & 0x40) && sel >= 200) {
			FUZZ_CHECK(!rmp_resp_discard(&resp));
			continue;
		}
		FUZZ_CHECK(!rmp_resp_executed(&resp, st, sel, &out));
		if (st == RMP_RESP_OK && !out.error &&
		    (flags & RMP_OPF_SPETH) && (flags & RMP_OPF_LAST))
			note_last(want, &req);
		take_sent(&resp, want);
		if (out.reply.kind == RMP_RESP_REPLY_READ)
			check_read(&resp, &out.reply, cfg.mtu);
		if (out.error || out.aborted) {
			memset(&m, 0, sizeof(m));
			continue;
		}
		if (st != RMP_RESP_OK)
			continue;
		if ((flags & RMP_OPF_WRITE) && out.first) {
			m.write = true;
			m.base = req.va;
			m.len = req.dma_len;
		}
		if ((flags & RMP_OPF_SEND) && out.first) {
			m.send = true;
			m.off = 0;
		}
		if (!(flags & RMP_OPF_SPETH))
			m.off += len;
		if (out.last)
			memset(&m, 0, sizeof(m));
		if (fuzz_take(&in, 1) < 16)
			rmp_resp_flush_ack(&resp, &flush);
		if (rmp_resp_sacks(&resp) && (sel & 0x20))
			check_sack(&resp);
	}
	return 0;
}
