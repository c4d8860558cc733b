// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of multipath end to end: the requester engine sprays WRITEs
 * over a path set, a simulated fabric of links (ECMP by UDP source port,
 * each link first-in first-out with its own delay, loss and failure)
 * carries them, and the responder engine accepts them out of order and
 * answers with SACKs, which echo the CE marks a link put on the requests.
 * The responder sprays READ responses over a path set of its own, back
 * over links with the same delays, losses and failures (and duplicates),
 * and the requester places them by PSN, repairs the missing ones and
 * reports what it received, from which the responder's paths live or die.
 * With send spraying SENDs go over the paths too, in pieces the responder
 * places in the receive WQEs they name, and completes in order; so do
 * WRITEs with immediate data, whose last piece, placed by its RETH,
 * completes the receive WQE it names.
 * Every byte is checked where it landed; a fake clock drives time.
 */
#include <kunit/test.h>

#include "../engine/req.h"
#include "../engine/resp.h"
#include "../engine/rdpaths.h"

#define MTU		1024U
#define US		1000ULL
#define MS		(1000 * US)
#define LINKS		4
#define LINK_Q		512
#define NPATHS		8
#define WQES		64U
#define WQE_LEN		(8 * MTU)
#define SEND_LEN	(2 * MTU)
#define RQ_BUF		WQE_LEN		/* bytes of a receive WQE's buffer */
#define SLOTS		32U
#define NRES		4
#define SEND_GAP	(1 * US)	/* the requester's pace */
#define REORDER		(200 * US)	/* READ responses' reordering time */

struct fab_pkt {
	u64 at;
	struct rmp_req_pkt pkt;		/* a request */
	bool ce;			/* marked CE on its way */
	u32 psn;			/* or a response: BTH PSN */
	u8 syndrome;			/* AETH */
	u32 msn;
	bool is_sack;
	struct rmp_sack sack;
	struct rmp_ecn_echo echo;	/* if sack.ecn */
	bool report;			/* a report of READ responses (sack) */
	bool rd;			/* a READ response: */
	u8 opcode;
	u64 va;				/* its payload, in the remote memory */
	u32 len;
};

struct fab_link {
	u64 delay;
	u32 loss;		/* per mille */
	u32 dup;		/* per mille, delivered twice */
	u64 down_from;		/* 0: never */
	u64 up_at;		/* back up then; 0: never */
	bool ce;		/* marks every packet CE */
	u64 last;		/* arrival time of the newest packet */
	u32 head, tail;
	struct fab_pkt q[LINK_Q];
};

struct mp_case {
	const char *name;
	u64 delay[LINKS];
	u32 loss[LINKS];
	u64 down_from[LINKS];
	bool sends;		/* every fourth WQE a SEND */
	u32 max_retrans;	/* bound on retransmissions */
	u8 spray;		/* enum rmp_spray */
	bool echo;		/* SACKs echo CE marks */
	bool reads;		/* every third WQE a READ */
	u32 dup;		/* READ responses duplicated, per mille */
	bool blind;		/* no reports of READ responses */
	u64 up_at[LINKS];	/* a link that went down is back */
	u32 late;		/* packets sent before the peer agreed */
	bool only_sends;	/* every WQE a SEND */
	u64 gap;		/* the requester's pace; 0: SEND_GAP */
	u64 tick;		/* its timer runs on multiples only; 0: any */
	bool spray_sends;	/* SENDs sprayed too; WQEs by mp_kind() */
	u32 rq_depth;		/* receive WQEs posted ahead; 0: enough */
};

/* A receive WQE completed at the responder. */
struct mp_cqe {
	u32 len;
	u32 data;		/* immediate data or invalidated R_Key */
	u8 opcode;		/* a sprayed SEND's: its last piece's */
	bool sprayed;		/* completed by rmp_resp_take_sent() */
};

struct mp_env {
	struct fab_link fwd[LINKS];
	struct fab_link back;
	struct fab_link rsp[LINKS];	/* READ responses, by source port */
	struct rmp_req r;
	struct rmp_req_wqe ring[SLOTS];
	u32 kind[SLOTS];
	u32 wqe_of_slot[SLOTS];
	struct rmp_paths ps;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[RMP_RXWIN_MAX];
	struct rmp_resp resp;
	struct rmp_resp_res res[NRES];
	struct rmp_paths rps;	/* the responder's, for READ responses */
	struct rmp_rdp rdp;	/* ...and their health, with reports */
	struct rmp_sb rsb;
	struct rmp_sb_rec rrec[RMP_RXWIN_MAX];
	bool reports;
	u8 *remote;		/* WQES * WQE_LEN bytes */
	u8 *local;		/* WQES * WQE_LEN bytes, READ into */
	/*
	 * The responder's receive queue: receive WQE i's buffer at
	 * i * RQ_BUF in recvd, i the SSN of the message that takes it.
	 */
	u8 *recvd;
	u32 rq_of_wqe[WQES];
	u32 wqe_of_rq[WQES];
	u32 nrq;		/* messages posted that take a receive WQE */
	u32 rq_head;		/* receive WQEs the responder took */
	u32 rq_cur;		/* ...the standard SEND in progress has */
	bool rq_busy;		/* there is one */
	struct mp_cqe cqe[WQES];
	u32 ncqe;		/* receive WQEs completed */
	u32 pieces_ahead;	/* SEND pieces executed ahead of the PSN */
	u32 pieces_later;	/* ...in a receive WQE after the next one */
	u32 pieces_beside;	/* ...while a standard SEND was in progress */
	u32 wimm_ahead;		/* WRITEs' last pieces executed ahead */
	u32 rnrs;		/* no receive WQE posted for a request */
	struct rmp_resp_spray rsp_spray;
	const struct mp_case *c;
	u32 posted, completed;
	u64 sprayed_bytes;	/* payload of the sprayed packets sent */
	u32 on_link[LINKS];	/* packets sent on each link */
	u32 probes[NPATHS];	/* packets sent on each path while dead */
	u32 rsp_on_link[LINKS];	/* READ responses sent on each link */
	u32 rsp_rx_link[LINKS];	/* READ responses that came over each */
	u64 now;
	u32 rng;
};

static u8 pattern(u32 wqe, u32 off)
{
	return (u8)(wqe * 31 + off * 7 + (off >> 8));
}

static u32 fab_rand(struct mp_env *e)
{
	e->rng ^= e->rng << 13;
	e->rng ^= e->rng >> 17;
	e->rng ^= e->rng << 5;
	return e->rng;
}

/* ECMP: the link a UDP source port hashes to. */
static u32 fab_link_of(u16 sport)
{
	return (sport * 2654435761U >> 16) % LINKS;
}

static void fab_queue(struct kunit *test, struct fab_link *l,
		      const struct fab_pkt *p, u64 at)
{
	struct fab_pkt *slot;

	KUNIT_ASSERT_LT(test, l->tail - l->head, (u32)LINK_Q);
	/* First in, first out: never before the packet ahead. */
	if (at < l->last)
		at = l->last;
	l->last = at;
	slot = &l->q[l->tail++ % LINK_Q];
	*slot = *p;
	slot->at = at;
	slot->ce = l->ce;
}

static void fab_put(struct kunit *test, struct mp_env *e, struct fab_link *l,
		    const struct fab_pkt *p)
{
	u64 at = e->now + l->delay;

	if ((l->down_from && e->now >= l->down_from &&
	     (!l->up_at || e->now < l->up_at)) ||
	    fab_rand(e) % 1000 < l->loss)
		return;
	fab_queue(test, l, p, at);
	if (l->dup && fab_rand(e) % 1000 < l->dup)
		fab_queue(test, l, p, at + US);
}

static const struct fab_pkt *fab_peek(const struct fab_link *l, u64 now)
{
	const struct fab_pkt *p = &l->q[l->head % LINK_Q];

	return l->head != l->tail && p->at <= now ? p : NULL;
}

/*
 * A READ's responses, all at once: each sprayed one on the path the
 * responder's path set picks (with reports, by their health), the others
 * on the QP's own source port.
 */
static void mp_read_responses(struct kunit *test, struct mp_env *e,
			      struct rmp_resp_read *cur)
{
	struct rmp_resp_read_pkt rp;
	struct fab_pkt p = {};
	u16 sport;
	u32 link;

	while (rmp_resp_read_next(cur, &rp)) {
		if (!rp.sprayed)
			sport = e->r.sport;
		else if (e->reports)
			sport = e->rps.path[rmp_rdp_pick(&e->rdp, rp.psn, rp.len,
							 e->now)].sport;
		else
			sport = e->rps.path[rmp_paths_pick(&e->rps,
							   e->now)].sport;
		link = fab_link_of(sport);
		p.rd = true;
		p.opcode = rp.opcode;
		p.psn = rp.psn;
		p.syndrome = rp.syndrome;
		p.msn = rp.msn;
		p.va = rp.va;
		p.len = rp.len;
		e->rsp_on_link[link]++;
		fab_put(test, e, &e->rsp[link], &p);
	}
}

/* The responder answers: an ACK goes out as a SACK while it sacks. */
static void mp_reply(struct kunit *test, struct mp_env *e,
		     struct rmp_resp_reply *reply)
{
	struct fab_pkt p = {};

	if (reply->kind == RMP_RESP_REPLY_READ)
		mp_read_responses(test, e, &reply->read);
	if (reply->kind != RMP_RESP_REPLY_ACK)
		return;
	p.psn = reply->psn;
	p.syndrome = reply->syndrome;
	p.msn = reply->msn;
	if (rmp_resp_sacks(&e->resp) &&
	    rmp_aeth_syn_type(reply->syndrome) == RMP_AETH_ACK) {
		KUNIT_ASSERT_EQ(test, rmp_resp_sack(&e->resp, &p.sack, &p.echo),
				0);
		p.psn = p.sack.cum_ack;
		p.is_sack = true;
	}
	fab_put(test, e, &e->back, &p);
}

/* With send spraying, the SENDs' lengths in turn: none to many MTUs. */
static const u32 mp_send_lens[] = {
	5 * MTU + 17, 1, MTU, 0, MTU - 1, 8 * MTU, 2 * MTU + 1, MTU + 1,
	3 * MTU,
};

static u32 mp_kind(const struct mp_case *c, u32 wqe)
{
	/* Three SENDs, then a WRITE; with READs, every eighth is one. */
	if (c->spray_sends && c->reads && wqe % 8 == 7)
		return RMP_REQ_READ;
	if (c->spray_sends)
		return wqe % 4 == 1 ? RMP_REQ_WRITE : RMP_REQ_SEND;
	if (c->only_sends || (c->sends && wqe % 4 == 3))
		return RMP_REQ_SEND;
	return c->reads && wqe % 3 == 1 ? RMP_REQ_READ : RMP_REQ_WRITE;
}

/* ...and the WRITEs' with immediate data: none to eight MTUs. */
static const u32 mp_wimm_lens[] = {
	0, 1, 3 * MTU, MTU, 8 * MTU, MTU + 1, 2 * MTU - 1, 5 * MTU + 3,
};

/* Some SENDs and, every other time, a WRITE carry immediate data. */
static u32 mp_flags(const struct mp_case *c, u32 wqe)
{
	if (!c->spray_sends)
		return 0;
	if (mp_kind(c, wqe) == RMP_REQ_SEND)
		return wqe % 3 == 0 ? RMP_REQ_F_IMM : 0;
	return mp_kind(c, wqe) == RMP_REQ_WRITE && wqe % 8 == 5 ?
	       RMP_REQ_F_IMM : 0;
}

static u32 mp_len(const struct mp_case *c, u32 wqe)
{
	if (mp_kind(c, wqe) == RMP_REQ_WRITE &&
	    (mp_flags(c, wqe) & RMP_REQ_F_IMM))
		return mp_wimm_lens[wqe / 8 % ARRAY_SIZE(mp_wimm_lens)];
	if (mp_kind(c, wqe) != RMP_REQ_SEND)
		return WQE_LEN;
	return c->spray_sends ? mp_send_lens[wqe % ARRAY_SIZE(mp_send_lens)] :
				SEND_LEN;
}

/* The packets of a message of @len bytes: at least one. */
static u32 mp_npkts(u32 len)
{
	return len ? (len + MTU - 1) / MTU : 1;
}

/* Some other SENDs invalidate an R_Key (the engine does not know). */
static bool mp_inv(const struct mp_case *c, u32 wqe)
{
	return c->spray_sends && mp_kind(c, wqe) == RMP_REQ_SEND &&
	       wqe % 3 && wqe % 5 == 2;
}

/* The immediate data or invalidated R_Key a message completes with. */
static u32 mp_data(const struct mp_case *c, u32 wqe)
{
	if (mp_flags(c, wqe) & RMP_REQ_F_IMM)
		return 0x5a000000 | wqe;
	return mp_inv(c, wqe) ? 0x00c0ff00 | wqe : 0;
}

static bool mp_takes_rq(const struct mp_case *c, u32 wqe)
{
	return mp_kind(c, wqe) == RMP_REQ_SEND ||
	       (mp_flags(c, wqe) & RMP_REQ_F_IMM);
}

/* The opcode of a sprayed SEND's, or WRITE's with immediate, last piece. */
static u8 mp_piece_last(const struct mp_case *c, u32 wqe)
{
	if (mp_kind(c, wqe) == RMP_REQ_WRITE)
		return RMP_OP_EXT_WRITE_PIECE_LAST_IMM;
	if (mp_flags(c, wqe) & RMP_REQ_F_IMM)
		return RMP_OP_EXT_SEND_PIECE_LAST_IMM;
	return mp_inv(c, wqe) ? RMP_OP_EXT_SEND_PIECE_LAST_INV :
				RMP_OP_EXT_SEND_PIECE_LAST;
}

static u8 mp_opcode(const struct mp_env *e, const struct rmp_req_pkt *pkt)
{
	static const u8 write[2][4] = { {
		[RMP_REQ_MIDDLE] = RMP_OP_RC_WRITE_MIDDLE,
		[RMP_REQ_FIRST] = RMP_OP_RC_WRITE_FIRST,
		[RMP_REQ_LAST] = RMP_OP_RC_WRITE_LAST,
		[RMP_REQ_ONLY] = RMP_OP_RC_WRITE_ONLY,
	}, {
		[RMP_REQ_MIDDLE] = RMP_OP_RC_WRITE_MIDDLE,
		[RMP_REQ_FIRST] = RMP_OP_RC_WRITE_FIRST,
		[RMP_REQ_LAST] = RMP_OP_RC_WRITE_LAST_IMM,
		[RMP_REQ_ONLY] = RMP_OP_RC_WRITE_ONLY_IMM,
	} };
	static const u8 send[3][4] = { {
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY,
	}, {
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST_IMM,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY_IMM,
	}, {
		[RMP_REQ_MIDDLE] = RMP_OP_RC_SEND_MIDDLE,
		[RMP_REQ_FIRST] = RMP_OP_RC_SEND_FIRST,
		[RMP_REQ_LAST] = RMP_OP_RC_SEND_LAST_INV,
		[RMP_REQ_ONLY] = RMP_OP_RC_SEND_ONLY_INV,
	} };
	u32 wqe = e->wqe_of_slot[pkt->slot];
	bool imm = mp_flags(e->c, wqe) & RMP_REQ_F_IMM;

	if (pkt->kind == RMP_REQ_READ)
		return RMP_OP_RC_READ_REQUEST;
	/* A sprayed WRITE with immediate: WRITE ONLYs, then its last piece. */
	if (pkt->kind == RMP_REQ_WRITE && pkt->sprayed && imm)
		return pkt->offset + pkt->len == mp_len(e->c, wqe) ?
		       RMP_OP_EXT_WRITE_PIECE_LAST_IMM : RMP_OP_RC_WRITE_ONLY;
	if (pkt->kind == RMP_REQ_WRITE)
		return write[imm][pkt->pos];
	if (pkt->sprayed)
		return pkt->pos & RMP_REQ_LAST ? mp_piece_last(e->c, wqe) :
						 RMP_OP_EXT_SEND_PIECE;
	return send[imm ? 1 : mp_inv(e->c, wqe) ? 2 : 0][pkt->pos];
}

/* Receive WQE @rq is posted, if the application keeps only a few. */
static bool mp_rq_posted(const struct mp_env *e, u32 rq)
{
	return !e->c->rq_depth || rq < e->ncqe + e->c->rq_depth;
}

/*
 * The receive WQE a SEND's packet goes in, if one is posted: a standard
 * SEND takes the next with its first packet; a piece goes in the one
 * @out->rq_idx after the next, which stays in the queue until its SEND
 * completes, and a WRITE's last piece completes that one: the receive
 * WQE of the piece's own message. -1 if none is posted.
 */
static int mp_rq_of(struct kunit *test, const struct mp_env *e,
		    const struct rmp_req_pkt *pkt, bool piece,
		    const struct rmp_resp_out *out)
{
	u32 rq;

	if (piece) {
		rq = e->rq_head + out->rq_idx;
		KUNIT_EXPECT_EQ_MSG(test, rq,
				    e->rq_of_wqe[e->wqe_of_slot[pkt->slot]],
				    "PSN %#x: another message's WQE",
				    pkt->psn);
	} else if (out->first) {
		rq = e->rq_head;
	} else {
		rq = e->rq_cur;
	}
	KUNIT_ASSERT_TRUE_MSG(test, piece || out->first || e->rq_busy,
			      "PSN %#x: no SEND in progress", pkt->psn);
	return mp_rq_posted(e, rq) ? (int)rq : -1;
}

/* A SEND's packet, executed: its bytes land in receive WQE @rq. */
static void mp_place_send(struct kunit *test, struct mp_env *e,
			  const struct rmp_req_pkt *pkt, u32 wqe, u32 rq,
			  const struct rmp_resp_out *out)
{
	u32 i;

	KUNIT_ASSERT_TRUE_MSG(test, rq < e->nrq, "PSN %#x: receive WQE %u",
			      pkt->psn, rq);
	KUNIT_ASSERT_LE(test, out->offset + pkt->len, RQ_BUF);
	if (pkt->sprayed) {
		KUNIT_EXPECT_EQ(test, out->offset, pkt->offset);
		e->pieces_later += out->rq_idx > 0;
		e->pieces_beside += e->rq_busy;
	} else if (out->first) {
		e->rq_cur = e->rq_head++;
		e->rq_busy = true;
	}
	for (i = 0; i < pkt->len; i++)
		e->recvd[rq * RQ_BUF + out->offset + i] =
			pattern(wqe, pkt->offset + i);
}

/* Receive WQE @rq completes, which must be the next one. */
static void mp_cqe(struct kunit *test, struct mp_env *e, u32 rq, u32 len,
		   u32 data, u8 opcode, bool sprayed)
{
	KUNIT_ASSERT_LT(test, e->ncqe, WQES);
	KUNIT_EXPECT_EQ(test, rq, e->ncqe);
	e->cqe[e->ncqe++] = (struct mp_cqe){
		.len = len, .data = data, .opcode = opcode, .sprayed = sprayed,
	};
}

/*
 * What an executed request completed at the responder: a standard SEND
 * or WRITE with immediate data its receive WQE with its last packet (not
 * a WRITE ONLY of a sprayed one); then every sprayed SEND and WRITE with
 * immediate data that completed, the next WQEs in the queue.
 */
static void mp_received(struct kunit *test, struct mp_env *e,
			const struct rmp_req_pkt *pkt, u32 wqe,
			const struct rmp_resp_out *out)
{
	struct rmp_resp_sent sent;

	if (out->last && pkt->kind == RMP_REQ_SEND) {
		KUNIT_ASSERT_TRUE(test, e->rq_busy);
		e->rq_busy = false;
		mp_cqe(test, e, e->rq_cur, out->offset + pkt->len,
		       mp_data(e->c, wqe), 0, false);
	} else if (out->last && !pkt->sprayed &&
		   (mp_flags(e->c, wqe) & RMP_REQ_F_IMM)) {
		mp_cqe(test, e, e->rq_head++, out->offset + pkt->len,
		       mp_data(e->c, wqe), 0, false);
	}
	while (rmp_resp_take_sent(&e->resp, &sent))
		mp_cqe(test, e, e->rq_head++, sent.len, sent.data, sent.opcode,
		       true);
}

/* A request packet reaches the responder: judge, place, answer. */
static void mp_request(struct kunit *test, struct mp_env *e,
		       const struct fab_pkt *p)
{
	const struct rmp_req_pkt *pkt = &p->pkt;
	u32 wqe = e->wqe_of_slot[pkt->slot], i;
	struct rmp_resp_in in = {
		.psn = pkt->psn, .opcode = mp_opcode(e, pkt),
		.ackreq = pkt->ackreq, .payload_len = pkt->len,
		.rkey = 0x77, .ce = p->ce,
	};
	enum rmp_resp_status status = RMP_RESP_OK;
	struct rmp_resp_out out;
	bool ahead, needs_rq, piece;
	int rq;

	if (p->report) {
		KUNIT_EXPECT_EQ(test, rmp_rdp_report(&e->rdp, &p->sack,
						     rmp_resp_epsn(&e->resp),
						     e->now), 0);
		return;
	}
	piece = rmp_opcode_info(in.opcode)->flags & RMP_OPF_SPETH;
	if (pkt->kind == RMP_REQ_WRITE) {
		in.va = (u64)wqe * WQE_LEN + pkt->offset;
		in.dma_len = pkt->pos == RMP_REQ_ONLY ? pkt->len :
			     mp_len(e->c, wqe);
	} else if (pkt->kind == RMP_REQ_READ) {
		in.va = (u64)wqe * WQE_LEN + pkt->offset;
		in.dma_len = pkt->len;
		in.payload_len = 0;
		in.spray = pkt->spray;
	}
	if (piece) {
		in.ssn = pkt->ssn;
		in.offset = pkt->offset;
		in.data = mp_data(e->c, wqe);
	}
	ahead = rmp_psn_after(in.psn, rmp_resp_epsn(&e->resp));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&e->resp, &in, &out), 0);
	if (out.verdict == RMP_RESP_EXECUTE) {
		/*
		 * A SEND, or a WRITE's last packet with immediate data,
		 * sprayed or not.
		 */
		needs_rq = pkt->kind == RMP_REQ_SEND || piece ||
			   (!pkt->sprayed && out.last &&
			    (mp_flags(e->c, wqe) & RMP_REQ_F_IMM));
		if (pkt->kind == RMP_REQ_SEND || piece)
			rq = mp_rq_of(test, e, pkt, piece, &out);
		else
			rq = mp_rq_posted(e, e->rq_head) ? (int)e->rq_head : -1;
		if (needs_rq && rq < 0) {
			status = RMP_RESP_RNR;
			e->rnrs++;
		} else if (pkt->kind == RMP_REQ_WRITE) {
			/* Inside the WRITE; a piece where its RETH says. */
			KUNIT_ASSERT_GE(test, out.va, (u64)wqe * WQE_LEN);
			KUNIT_ASSERT_LE(test, out.va + pkt->len,
					(u64)wqe * WQE_LEN + mp_len(e->c, wqe));
			if (piece) {
				KUNIT_EXPECT_EQ(test, out.va, in.va);
				KUNIT_EXPECT_EQ(test, out.rkey, in.rkey);
				KUNIT_EXPECT_EQ(test, out.offset, pkt->offset);
				e->wimm_ahead += ahead;
			}
			for (i = 0; i < pkt->len; i++)
				e->remote[out.va + i] =
					pattern(wqe, pkt->offset + i);
		} else if (pkt->kind == RMP_REQ_SEND) {
			e->pieces_ahead += pkt->sprayed && ahead;
			mp_place_send(test, e, pkt, wqe, rq, &out);
		}
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(&e->resp, status, 0,
							&out), 0);
		if (status == RMP_RESP_OK &&
		    out.verdict == RMP_RESP_EXECUTE)
			mp_received(test, e, pkt, wqe, &out);
	}
	KUNIT_EXPECT_FALSE(test, out.error);
	mp_reply(test, e, &out.reply);
	if (rmp_resp_flush_ack(&e->resp, &out.reply))
		mp_reply(test, e, &out.reply);
}

/*
 * A READ response reaches the requester: placed where the engine says,
 * which is where rmp_req_will_place() said, inside the READ's buffer.
 */
static void mp_read_response(struct kunit *test, struct mp_env *e,
			     const struct fab_pkt *p)
{
	struct rmp_req_rsp rsp, will;
	struct rmp_hdr_fields f = {};
	bool placing;

	f.bth.opcode = p->opcode;
	f.bth.psn = p->psn;
	f.aeth.syndrome = p->syndrome;
	f.aeth.msn = p->msn;
	f.payload_len = p->len;
	placing = rmp_req_will_place(&e->r, &f, &will);
	rmp_req_ack(&e->r, e->now, &f, &rsp);
	if (placing) {
		KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_READ);
		KUNIT_EXPECT_EQ(test, rsp.offset, will.offset);
	}
	if (rsp.action != RMP_REQ_RSP_READ)
		return;
	KUNIT_ASSERT_EQ(test, e->kind[rsp.slot], (u32)RMP_REQ_READ);
	KUNIT_ASSERT_EQ(test, rsp.len, p->len);
	KUNIT_ASSERT_LE(test, rsp.offset + rsp.len, WQE_LEN);
	memcpy(e->local + e->wqe_of_slot[rsp.slot] * WQE_LEN + rsp.offset,
	       e->remote + p->va, rsp.len);
}

static void mp_response(struct kunit *test, struct mp_env *e,
			const struct fab_pkt *p)
{
	struct rmp_hdr_fields f = {};
	struct rmp_req_rsp rsp;

	if (p->rd) {
		mp_read_response(test, e, p);
		return;
	}

	f.bth.opcode = p->is_sack ? RMP_OP_EXT_SACK : RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = p->psn;
	f.aeth.syndrome = p->syndrome;
	f.aeth.msn = p->msn;
	if (p->is_sack)
		rmp_req_sack(&e->r, e->now, &f, &p->sack,
			     p->sack.ecn ? &p->echo : NULL);
	else
		rmp_req_ack(&e->r, e->now, &f, &rsp);
}

/*
 * Posted, each WQE learns the SSN of the next message that takes a
 * receive WQE: the one it takes, if it takes one.
 */
static void mp_post(struct kunit *test, struct mp_env *e,
		    const struct mp_case *c)
{
	while (e->posted < WQES && e->posted - e->completed < SLOTS) {
		u32 w = e->posted, kind = mp_kind(c, w);
		int slot = rmp_req_post(&e->r, kind, mp_len(c, w),
					mp_flags(c, w));

		KUNIT_ASSERT_GE(test, slot, 0);
		KUNIT_EXPECT_EQ(test, e->ring[slot].ssn, e->nrq);
		if (mp_takes_rq(c, w)) {
			e->rq_of_wqe[w] = e->nrq;
			e->wqe_of_rq[e->nrq++] = w;
		}
		e->kind[slot] = kind;
		e->wqe_of_slot[slot] = e->posted++;
	}
}

static void mp_complete(struct kunit *test, struct mp_env *e)
{
	struct rmp_req_done done;

	while (!rmp_req_complete(&e->r, &done)) {
		KUNIT_EXPECT_EQ(test, done.status, RMP_REQ_OK);
		KUNIT_EXPECT_EQ(test, e->wqe_of_slot[done.slot], e->completed);
		e->completed++;
	}
}

/* The requester learns that its peer agreed: it sprays from now on. */
static void mp_agree(struct kunit *test, struct mp_env *e)
{
	KUNIT_ASSERT_EQ(test, rmp_req_multipath(&e->r, &e->ps, &e->sb), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_read_spray(&e->r, REORDER), 0);
	if (e->c->spray_sends)
		KUNIT_ASSERT_EQ(test, rmp_req_send_spray(&e->r), 0);
}

static void mp_setup(struct kunit *test, struct mp_env *e,
		     const struct mp_case *c)
{
	const struct rmp_req_cfg rcfg = {
		.qpt = RMP_QPT_RC, .mtu = MTU, .retry_cnt = 7, .rnr_retry = 7,
		.timeout = 10, .max_rd_atomic = NRES, .max_inflight = 256,
		.ack_every = 8, .lqpn = 0x11, .rqpn = 0x12,
	};
	const struct rmp_resp_config qcfg = {
		.mtu = MTU, .access = RMP_RESP_ALLOW_WRITE | RMP_RESP_ALLOW_READ,
		.ack_every = 8, .min_rnr_timer = 1,
		.ooo = true, .win_size = RMP_RXWIN_MAX,
	};
	struct rmp_paths_cfg pcfg = {
		.npaths = NPATHS, .spray = c->spray, .seed = 0x11,
		.dead_after_ns = 2 * MS, .probe_every_ns = 1 * MS,
		.flowlet_gap_ns = 50 * US,
	};
	u32 i, off;

	e->remote = kunit_kzalloc(test, WQES * WQE_LEN, GFP_KERNEL);
	e->local = kunit_kzalloc(test, WQES * WQE_LEN, GFP_KERNEL);
	e->recvd = kunit_kzalloc(test, WQES * RQ_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->remote);
	KUNIT_ASSERT_NOT_NULL(test, e->local);
	KUNIT_ASSERT_NOT_NULL(test, e->recvd);
	/* What the READs read. */
	for (i = 0; i < WQES; i++)
		for (off = 0; mp_kind(c, i) == RMP_REQ_READ && off < WQE_LEN;
		     off++)
			e->remote[i * WQE_LEN + off] = pattern(i, off);
	e->rng = 0x2545f491;
	e->c = c;
	for (i = 0; i < LINKS; i++) {
		e->fwd[i].delay = c->delay[i];
		e->fwd[i].loss = c->loss[i];
		e->fwd[i].down_from = c->down_from[i];
		e->rsp[i].delay = c->delay[i];
		e->rsp[i].loss = c->loss[i];
		e->rsp[i].down_from = c->down_from[i];
		e->rsp[i].dup = c->dup;
		e->fwd[i].up_at = c->up_at[i];
		e->rsp[i].up_at = c->up_at[i];
	}
	e->back.delay = 10 * US;
	KUNIT_ASSERT_EQ(test, rmp_req_init(&e->r, e->ring, SLOTS, &rcfg, 0), 0);
	pcfg.sport = e->r.sport;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(&e->ps, &pcfg), 0);
	/* As many records as PSNs in flight, as the kernel's requester has. */
	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->sb, e->rec, rcfg.max_inflight),
			0);
	if (!c->late)
		mp_agree(test, e);
	KUNIT_ASSERT_EQ(test, rmp_resp_init(&e->resp, &qcfg, e->res, NRES), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_multipath(&e->resp, c->echo), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_read_spray(&e->resp), 0);
	if (c->spray_sends)
		KUNIT_ASSERT_EQ(test, rmp_resp_send_spray(&e->resp,
							  &e->rsp_spray), 0);
	pcfg.spray = RMP_SPRAY_RR;
	pcfg.seed = 0x12;
	pcfg.late_news = true;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(&e->rps, &pcfg), 0);
	e->reports = c->reads && !c->blind;
	if (!e->reports)
		return;
	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->rsb, e->rrec, RMP_RXWIN_MAX), 0);
	KUNIT_ASSERT_EQ(test, rmp_rdp_init(&e->rdp, &e->rps, &e->rsb,
					   rmp_resp_epsn(&e->resp)), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_read_reports(&e->r), 0);
}

/* The requester reports the READ responses it received, when due. */
static void mp_report(struct kunit *test, struct mp_env *e)
{
	struct fab_pkt p = { .report = true };
	u16 sport;

	if (rmp_req_read_report(&e->r, &p.sack, &sport))
		return;
	KUNIT_EXPECT_TRUE(test, e->reports);
	fab_put(test, e, &e->fwd[fab_link_of(sport)], &p);
}

static void mp_sprayed(struct mp_env *e, const struct rmp_req_pkt *pkt)
{
	u32 i;

	e->sprayed_bytes += pkt->len;
	for (i = 0; i < NPATHS; i++)
		if (e->ps.path[i].sport == pkt->sport &&
		    !rmp_paths_live(&e->ps, i))
			e->probes[i]++;
}

static void mp_run(struct kunit *test, struct mp_env *e,
		   const struct mp_case *c)
{
	struct rmp_req_pkt pkt;
	const struct fab_pkt *p;
	u64 next_send = 0, dl;
	u32 i;

	while (e->completed < WQES) {
		KUNIT_ASSERT_EQ_MSG(test, e->now < 2000 * MS, true,
				    "stuck: %u done", e->completed);
		for (i = 0; i < LINKS; i++) {
			while ((p = fab_peek(&e->fwd[i], e->now))) {
				mp_request(test, e, p);
				e->fwd[i].head++;
			}
		}
		while ((p = fab_peek(&e->back, e->now))) {
			mp_response(test, e, p);
			e->back.head++;
		}
		for (i = 0; i < LINKS; i++) {
			while ((p = fab_peek(&e->rsp[i], e->now))) {
				mp_response(test, e, p);
				e->rsp_rx_link[i]++;
				e->rsp[i].head++;
			}
		}
		dl = rmp_req_deadline(&e->r);
		if (dl && dl <= e->now && (!c->tick || !(e->now % c->tick)))
			rmp_req_timer(&e->r, e->now);
		mp_report(test, e);
		mp_post(test, e, c);
		if (c->late && !e->r.paths && e->r.stats.pkts == c->late)
			mp_agree(test, e);
		if (e->now >= next_send && !rmp_req_next(&e->r, e->now, &pkt)) {
			struct fab_pkt fp = { .pkt = pkt };

			if (pkt.sprayed)
				mp_sprayed(e, &pkt);
			e->on_link[fab_link_of(pkt.sport)]++;
			fab_put(test, e, &e->fwd[fab_link_of(pkt.sport)], &fp);
			next_send = e->now + (c->gap ?: SEND_GAP);
		}
		mp_complete(test, e);
		e->now += US / 4;
	}
}

/*
 * Every message that takes a receive WQE completed one, the WQEs in
 * posting order, with its length and its immediate data or invalidated
 * R_Key (a sprayed SEND's with its last piece's opcode); each SEND's
 * bytes are in its WQE's buffer and nothing after them.
 */
static void mp_check_receives(struct kunit *test, const struct mp_env *e)
{
	const struct mp_case *c = e->c;
	u32 j, w, off, len, bad = 0, stray = 0;

	KUNIT_EXPECT_EQ(test, e->ncqe, e->nrq);
	KUNIT_EXPECT_EQ(test, e->rq_head, e->nrq);
	KUNIT_EXPECT_FALSE(test, e->rq_busy);
	for (j = 0; j < e->ncqe && j < e->nrq; j++) {
		const struct mp_cqe *q = &e->cqe[j];

		w = e->wqe_of_rq[j];
		len = mp_len(c, w);
		KUNIT_EXPECT_EQ_MSG(test, q->len, len, "receive %u", j);
		KUNIT_EXPECT_EQ_MSG(test, q->data, mp_data(c, w),
				    "receive %u", j);
		if (q->sprayed)
			KUNIT_EXPECT_EQ_MSG(test, q->opcode,
					    mp_piece_last(c, w), "receive %u",
					    j);
		/* Begun after the peer agreed, each went in pieces. */
		if (c->spray_sends && mp_kind(c, w) == RMP_REQ_WRITE)
			KUNIT_EXPECT_TRUE_MSG(test, q->sprayed, "receive %u",
					      j);
		if (mp_kind(c, w) != RMP_REQ_SEND)
			continue;
		for (off = 0; off < RQ_BUF; off++) {
			u8 got = e->recvd[j * RQ_BUF + off];

			if (off < len)
				bad += got != pattern(w, off);
			else
				stray += got != 0;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, stray, 0U);
}

static const struct mp_case mp_cases[] = {
	{ .name = "4 links, no loss, skewed delays",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US } },
	{ .name = "equal links, no loss, SENDs between WRITEs",
	  .delay = { 30 * US, 30 * US, 30 * US, 30 * US }, .sends = true },
	{ .name = "2% loss on every link",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .loss = { 20, 20, 20, 20 }, .sends = true, .max_retrans = 160 },
	{ .name = "one link 20% loss",
	  .delay = { 30 * US, 30 * US, 30 * US, 30 * US },
	  .loss = { 0, 200, 0, 0 }, .max_retrans = 200 },
	{ .name = "one link goes dark at 200 us",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .down_from = { 0, 0, 200 * US, 0 }, .sends = true,
	  .max_retrans = 300 },
	{ .name = "READs between WRITEs, skewed delays",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US }, .reads = true },
	{ .name = "READs and SENDs, 2% loss, 5% responses twice",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .loss = { 20, 20, 20, 20 }, .sends = true, .max_retrans = 250,
	  .reads = true, .dup = 50 },
	{ .name = "READs, one link goes dark at 200 us",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .down_from = { 0, 0, 200 * US, 0 }, .sends = true,
	  .max_retrans = 400, .reads = true },
	{ .name = "agreed after 3 packets, every WQE already posted",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US }, .late = 3 },
};

static void mp_desc(const struct mp_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(mp, mp_cases, mp_desc);

static void rmp_multipath__transfers_verified(struct kunit *test)
{
	const struct mp_case *c = test->param_value;
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u64 written = 0, sent = 0, delivered = 0;
	u32 w, off, bad = 0, used = 0, i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, c);
	mp_run(test, e, c);

	for (w = 0; w < WQES; w++) {
		u32 kind = mp_kind(c, w);

		written += kind == RMP_REQ_WRITE ? WQE_LEN : 0;
		for (off = 0; off < (kind == RMP_REQ_SEND ? SEND_LEN : WQE_LEN);
		     off++) {
			u8 got = kind == RMP_REQ_SEND ?
				 e->recvd[e->rq_of_wqe[w] * RQ_BUF + off] :
				 kind == RMP_REQ_READ ?
				 e->local[w * WQE_LEN + off] :
				 e->remote[w * WQE_LEN + off];

			bad += got != pattern(w, off);
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	mp_check_receives(test, e);
	KUNIT_EXPECT_LE(test, (u32)e->r.stats.retrans, c->max_retrans);
	for (i = 0; i < NPATHS; i++) {
		used += e->ps.path[i].stats.delivered > 0;
		sent += e->ps.path[i].stats.sent_bytes;
		delivered += e->ps.path[i].stats.delivered_bytes;
	}
	KUNIT_EXPECT_GT(test, used, NPATHS / 2);
	KUNIT_EXPECT_GT(test, e->r.stats.sprayed, 0ULL);
	/*
	 * Every sprayed byte counts where it was sent; WRITE bytes are
	 * delivered once each, unless their copy in flight was given up
	 * (declared lost, then acknowledged before it was sent again).
	 */
	KUNIT_EXPECT_EQ(test, sent, e->sprayed_bytes);
	KUNIT_EXPECT_LE(test, delivered, written);
	/*
	 * Agreed late: the WRITE begun before stays on one path; those
	 * posted before but not yet begun are sprayed.
	 */
	if (c->late)
		written -= WQE_LEN;
	if (!c->max_retrans) {
		KUNIT_EXPECT_EQ(test, sent, written);
		KUNIT_EXPECT_EQ(test, delivered, written);
	}
	if (c->reads) {
		/* The responses took every link, and overtook each other. */
		for (i = 0; i < LINKS; i++)
			KUNIT_EXPECT_GT(test, e->rsp_on_link[i], 0U);
		KUNIT_EXPECT_GT(test, e->r.stats.rd_ooo, 0ULL);
	}
	if (c->reads && !c->max_retrans)
		KUNIT_EXPECT_EQ(test, e->r.stats.rd_repairs, 0ULL);
	kunit_info(test, "%u packets, %u sprayed, %u sent again (%u selectively, %u READ repairs), %u READ responses out of order, %u timeouts, %u ms\n",
		   (u32)e->r.stats.pkts, (u32)e->r.stats.sprayed,
		   (u32)e->r.stats.retrans, (u32)e->r.stats.sel_retrans,
		   (u32)e->r.stats.rd_repairs, (u32)e->r.stats.rd_ooo,
		   (u32)e->r.stats.timeouts, (u32)(e->now / MS));
}

static const struct mp_case mp_sp_cases[] = {
	{ .name = "SENDs sprayed between WRITEs, skewed delays",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .spray_sends = true },
	{ .name = "SENDs sprayed, 2% loss on every link",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .loss = { 20, 20, 20, 20 }, .spray_sends = true,
	  .max_retrans = 250 },
	{ .name = "SENDs sprayed, one link goes dark at 200 us",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .down_from = { 0, 0, 200 * US, 0 }, .spray_sends = true,
	  .max_retrans = 400 },
	{ .name = "SENDs sprayed, READs between, 3% loss",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .loss = { 30, 30, 30, 30 }, .spray_sends = true, .reads = true,
	  .dup = 50, .max_retrans = 250 },
	/*
	 * The last pieces of WRITEs with immediate data need their receive
	 * WQE posted too: more are refused and sent again than SENDs alone.
	 */
	{ .name = "SENDs sprayed, 3 receive WQEs posted ahead",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .spray_sends = true, .rq_depth = 3, .max_retrans = 250 },
	{ .name = "agreed in the middle of a SEND, its rest lost",
	  .delay = { 20 * US, 35 * US, 50 * US, 80 * US },
	  .spray_sends = true, .late = 3, .max_retrans = 400 },
};

KUNIT_ARRAY_PARAM(mp_sp, mp_sp_cases, mp_desc);

/*
 * Send spraying end to end: SENDs from nothing to eight MTUs, some with
 * immediate data or invalidate, go in pieces over the paths between
 * sprayed WRITEs, WRITEs with immediate data from nothing to eight MTUs
 * (sprayed too, their last piece naming a receive WQE) and READs. The
 * responder places each piece in the receive WQE it names, or by its
 * RETH, takes the SENDs it completed after every packet, and every
 * message that takes a receive WQE completes one, in posting order, whole,
 * with its length and immediate data; every WRITE and READ lands, and
 * nothing past a WRITE's end; the MSN counts each message once; every
 * WQE completes, with success, in order, at the requester.
 */
static void rmp_multipath__sprayed_sends_verified(struct kunit *test)
{
	const struct mp_case *c = test->param_value;
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 w, off, bad = 0, msgs = 0;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, c);
	/*
	 * Agreed late: the rest of the first SEND, on the QP's own path,
	 * is lost, and pieces of the SENDs after it come while it is in
	 * progress.
	 */
	if (c->late)
		e->fwd[fab_link_of(e->r.sport)].down_from = c->late * SEND_GAP;
	mp_run(test, e, c);

	mp_check_receives(test, e);
	for (w = 0; w < WQES; w++) {
		u32 kind = mp_kind(c, w);
		const u8 *got = kind == RMP_REQ_READ ? e->local : e->remote;

		/*
		 * The MSN counts every message once, a SEND whatever its
		 * pieces; but each packet of a sprayed WRITE is an RDMA
		 * WRITE ONLY, a message of its own, and so is the last
		 * piece of one with immediate data (every WRITE here
		 * begins after the peer agreed).
		 */
		msgs += kind == RMP_REQ_WRITE ? mp_npkts(mp_len(c, w)) : 1;
		if (kind == RMP_REQ_SEND)
			continue;
		for (off = 0; off < WQE_LEN; off++)
			bad += got[w * WQE_LEN + off] !=
			       (off < mp_len(c, w) ? pattern(w, off) : 0);
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, e->resp.msn, msgs);
	KUNIT_EXPECT_EQ(test, e->completed, WQES);
	KUNIT_EXPECT_LE(test, (u32)e->r.stats.retrans, c->max_retrans);
	/* Pieces overtook each other, and SENDs: the test tested something. */
	KUNIT_EXPECT_GT(test, e->pieces_ahead, 0U);
	KUNIT_EXPECT_GT(test, e->pieces_later, 0U);
	/* Ahead of their WQEs, those are refused (RNR) and go again. */
	if (!c->rq_depth)
		KUNIT_EXPECT_GT(test, e->wimm_ahead, 0U);
	if (c->late)
		KUNIT_EXPECT_GT(test, e->pieces_beside, 0U);
	if (c->rq_depth)
		KUNIT_EXPECT_GT(test, e->rnrs, 0U);
	kunit_info(test, "%u packets, %u sprayed, %u sent again, %u timeouts; %u receives, %u pieces ahead, %u in a later WQE, %u beside a standard SEND, %u WRITEs' last ahead, %u RNR, %u ms\n",
		   (u32)e->r.stats.pkts, (u32)e->r.stats.sprayed,
		   (u32)e->r.stats.retrans, (u32)e->r.stats.timeouts, e->ncqe,
		   e->pieces_ahead, e->pieces_later, e->pieces_beside,
		   e->wimm_ahead, e->rnrs, (u32)(e->now / MS));
}

/*
 * With a link dark, the paths on it die, their packets go on the others,
 * and the transfer is not left to the ACK timeout; nor are READs, whose
 * responses on the dark link are asked for again until they take another.
 * Without reports the responder's paths on the dark link keep their share
 * and every round of repairs loses some again; with them those paths die
 * too, and the repairs are a fraction of what they were.
 */
static void rmp_multipath__dead_link_paths_die(struct kunit *test)
{
	struct mp_case c = {
		.name = "dark link", .delay = { 20 * US, 20 * US, 20 * US, 20 * US },
		.down_from = { 0, 0, 0, 1 },
	};
	u32 i, dark, died, rdark, rdied, round, repairs[2] = {};

	for (round = 0; round < 3; round++) {
		struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, e);
		c.reads = round > 0;
		c.blind = round == 1;
		mp_setup(test, e, &c);
		for (i = 0, dark = 0, rdark = 0; i < NPATHS; i++) {
			dark += fab_link_of(e->ps.path[i].sport) == 3;
			rdark += fab_link_of(e->rps.path[i].sport) == 3;
		}
		KUNIT_ASSERT_EQ_MSG(test, dark > 0 && rdark > 0, true,
				    "no path hashes to link 3");
		mp_run(test, e, &c);
		for (i = 0, died = 0, rdied = 0; i < NPATHS; i++) {
			died += e->ps.path[i].stats.deaths > 0;
			rdied += e->rps.path[i].stats.deaths > 0;
		}
		KUNIT_EXPECT_GE(test, died, dark);
		KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
		if (!c.reads)
			continue;
		KUNIT_EXPECT_GT(test, e->rsp_on_link[3], 0U);
		KUNIT_EXPECT_GT(test, e->r.stats.rd_repairs, 0ULL);
		repairs[round - 1] = e->r.stats.rd_repairs;
		if (c.blind) {
			KUNIT_EXPECT_EQ(test, rdied, 0U);
			KUNIT_EXPECT_EQ(test, e->r.stats.rd_reports, 0ULL);
		} else {
			/* Every response path on the dark link died. */
			KUNIT_EXPECT_GE(test, rdied, rdark);
			KUNIT_EXPECT_GT(test, e->rdp.stats.reports, 0ULL);
			KUNIT_EXPECT_EQ(test, e->rdp.stats.reports,
					e->r.stats.rd_reports);
			KUNIT_EXPECT_EQ(test, e->rdp.stats.stale +
					e->rdp.stats.forged, 0ULL);
		}
		kunit_info(test, "READs, %s: %u repairs for %u READs, %u of %u response paths on the dark link died, %u reports, %u ms\n",
			   c.blind ? "no reports" : "reports",
			   (u32)e->r.stats.rd_repairs, WQES / 3, rdied, rdark,
			   (u32)e->r.stats.rd_reports, (u32)(e->now / MS));
	}
	/* Today's ~7 repairs per READ without; at most one per READ with. */
	KUNIT_EXPECT_GT(test, repairs[0], 4 * WQES / 3);
	KUNIT_EXPECT_LE(test, repairs[1], WQES / 3);
	KUNIT_EXPECT_LT(test, repairs[1] * 4, repairs[0]);
}

/*
 * Requests that are not sprayed (SENDs here) go on one path, alone: no
 * other path's deliveries show it dead. With its link dark, each ACK
 * timeout moves them to the next live path, and the transfer completes
 * instead of running out of retries.
 */
static void rmp_multipath__plain_traffic_leaves_a_dark_path(struct kunit *test)
{
	const struct mp_case c = {
		.name = "SENDs, their path's link dark",
		.delay = { 20 * US, 20 * US, 20 * US, 20 * US },
		.only_sends = true,
	};
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 dark, w, off, bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, &c);
	dark = fab_link_of(e->ps.path[0].sport);
	e->fwd[dark].down_from = 1;
	mp_run(test, e, &c);
	for (w = 0; w < WQES; w++)
		for (off = 0; off < SEND_LEN; off++)
			bad += e->recvd[e->rq_of_wqe[w] * RQ_BUF + off] !=
			       pattern(w, off);
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, e->r.stats.sprayed, 0ULL);
	KUNIT_EXPECT_GT(test, e->r.stats.timeouts, 0ULL);
	/* One timeout for each time the rotation lands on the dark link. */
	KUNIT_EXPECT_LT(test, e->r.stats.timeouts, (u64)NPATHS);
	kunit_info(test, "%u SENDs over link %u's neighbours, %u timeouts, %u ms\n",
		   WQES, dark, (u32)e->r.stats.timeouts, (u32)(e->now / MS));
}

/*
 * A link dark for a while, then back: the response paths on it die, are
 * probed every probe period (fake clock), and come back once a probe
 * gets through; the responses take the link again.
 */
static void rmp_multipath__read_paths_revive(struct kunit *test)
{
	const struct mp_case c = {
		.name = "dark link, back at 5 ms",
		.delay = { 20 * US, 20 * US, 20 * US, 20 * US },
		.down_from = { 0, 0, 0, 1 }, .reads = true,
		.up_at = { 0, 0, 0, 5 * MS },
	};
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 i, rdark = 0, rdied = 0, revived = 0, live = 0;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, &c);
	mp_run(test, e, &c);
	for (i = 0; i < NPATHS; i++) {
		rdark += fab_link_of(e->rps.path[i].sport) == 3;
		rdied += e->rps.path[i].stats.deaths > 0;
		revived += e->rps.path[i].stats.revivals > 0;
		live += rmp_paths_live(&e->rps, i);
	}
	KUNIT_EXPECT_GT(test, rdied, 0U);
	KUNIT_EXPECT_EQ(test, revived, rdied);
	KUNIT_EXPECT_EQ(test, live, NPATHS);
	/* Responses came over the link once it was back. */
	KUNIT_EXPECT_GT(test, e->rsp_rx_link[3], 0U);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
	kunit_info(test, "%u response paths died, %u came back, %u on the link at the end; %u responses over it, %u repairs, %u ms\n",
		   rdied, revived, rdark, e->rsp_rx_link[3],
		   (u32)e->r.stats.rd_repairs, (u32)(e->now / MS));
}

/* The link most of the paths hash to. */
static u32 mp_busiest_link(const struct mp_env *e)
{
	u32 n[LINKS] = {}, i, best = 0;

	for (i = 0; i < NPATHS; i++)
		n[fab_link_of(e->ps.path[i].sport)]++;
	for (i = 1; i < LINKS; i++)
		if (n[i] > n[best])
			best = i;
	return best;
}

/*
 * The link most paths hash onto goes dark from the start until @up_at;
 * *@dark paths are on it, at least two. Return: the link.
 */
static u32 mp_darken_busiest(struct kunit *test, struct mp_env *e, u64 up_at,
			     u32 *dark)
{
	u32 link = mp_busiest_link(e), i;

	e->fwd[link].down_from = 1;
	e->fwd[link].up_at = up_at;
	*dark = 0;
	for (i = 0; i < NPATHS; i++)
		*dark += fab_link_of(e->ps.path[i].sport) == link;
	KUNIT_ASSERT_TRUE_MSG(test, *dark >= 2, "one path on link %u", link);
	return link;
}

/* Bytes of the WRITEs (every WQE a WRITE) that did not land as sent. */
static u32 mp_writes_bad(const struct mp_env *e)
{
	u32 off, bad = 0;

	for (off = 0; off < WQES * WQE_LEN; off++)
		bad += e->remote[off] != pattern(off / WQE_LEN, off % WQE_LEN);
	return bad;
}

/*
 * A link dark for a while, then back, under a timer that runs late (on
 * whole milliseconds): the paths on the link die in the same run and come
 * due for a probe at the same instants. Each of them is probed every
 * period (not only the last one found due), and all of them are live
 * again at the end.
 */
static void rmp_multipath__write_paths_revive(struct kunit *test)
{
	const struct mp_case c = {
		.name = "dark link, back at 6 ms, a coarse timer",
		.delay = { 20 * US, 20 * US, 20 * US, 20 * US },
		.max_retrans = 400, .gap = 30 * US, .tick = 1 * MS,
	};
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 i, dark, died = 0, live = 0, probes = 0;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, &c);
	mp_darken_busiest(test, e, 6 * MS, &dark);
	mp_run(test, e, &c);
	for (i = 0; i < NPATHS; i++) {
		died += e->ps.path[i].stats.deaths > 0;
		live += rmp_paths_live(&e->ps, i);
		/* Dead from about 2.4 ms, probed at 4, 5 and 6 ms. */
		if (e->ps.path[i].stats.deaths)
			KUNIT_EXPECT_GE_MSG(test, e->probes[i], 3U, "path %u", i);
		probes += e->probes[i];
	}
	KUNIT_EXPECT_EQ(test, mp_writes_bad(e), 0U);
	KUNIT_EXPECT_GE(test, died, dark);
	KUNIT_EXPECT_EQ(test, live, NPATHS);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
	kunit_info(test, "%u of %u paths on the dark link died, %u probes, %u live at the end, %u ms\n",
		   died, dark, probes, live, (u32)(e->now / MS));
}

/*
 * A link dark long enough for its paths' probes to fail: they take fresh
 * ports on the other links, keeping theirs as homes; once the link is
 * back a probe of each home gets through and takes its path home, so the
 * link carries its share again. The links left queue what the dark one
 * carried (modelled as a longer delay): a home is taken only when it is
 * the faster way, as the link back, empty, is.
 */
static void rmp_multipath__write_paths_go_home(struct kunit *test)
{
	const struct mp_case c = {
		.name = "dark link, back at 12 ms",
		.delay = { 20 * US, 20 * US, 20 * US, 20 * US },
		.max_retrans = 400, .gap = 100 * US,
	};
	struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u16 home[NPATHS];
	u32 i, link, dark, gone = 0, back = 0, before;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mp_setup(test, e, &c);
	link = mp_darken_busiest(test, e, 12 * MS, &dark);
	for (i = 0; i < LINKS; i++)
		if (i != link)
			e->fwd[i].delay = 120 * US;
	for (i = 0; i < NPATHS; i++)
		home[i] = e->ps.path[i].sport;
	before = e->on_link[link];
	mp_run(test, e, &c);
	for (i = 0; i < NPATHS; i++) {
		if (fab_link_of(home[i]) != link)
			continue;
		gone += e->ps.path[i].stats.replaced > 0;
		back += e->ps.path[i].stats.homecomings > 0 &&
			e->ps.path[i].sport == home[i];
	}
	KUNIT_EXPECT_EQ(test, mp_writes_bad(e), 0U);
	KUNIT_EXPECT_EQ(test, gone, dark);
	KUNIT_EXPECT_EQ(test, back, dark);
	KUNIT_EXPECT_GT(test, e->on_link[link], before);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
	kunit_info(test, "%u paths on the dark link took fresh ports, %u came home, %u packets on it, %u ms\n",
		   gone, back, e->on_link[link], (u32)(e->now / MS));
}

/*
 * Weighted spraying over equal links, one of which marks every packet CE.
 * Without ECN echo the marked link carries its paths' share; with it the
 * marks come back in the SACKs, the paths on that link take a smaller
 * share (and leave it for fresh entropy), the data stays whole.
 */
static void rmp_multipath__weighted_avoids_marked_link(struct kunit *test)
{
	struct mp_case c = {
		.name = "marked link",
		.delay = { 30 * US, 30 * US, 30 * US, 30 * US },
		.spray = RMP_SPRAY_WEIGHTED,
	};
	u32 share[2], marked, total, i, echo;
	u64 ecn;

	for (echo = 0; echo < 2; echo++) {
		struct mp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, e);
		c.echo = echo;
		mp_setup(test, e, &c);
		marked = mp_busiest_link(e);
		e->fwd[marked].ce = true;
		mp_run(test, e, &c);
		for (i = 0, total = 0, ecn = 0; i < LINKS; i++)
			total += e->on_link[i];
		for (i = 0; i < NPATHS; i++)
			ecn += e->ps.path[i].stats.ecn;
		share[echo] = e->on_link[marked] * 1000 / total;
		KUNIT_EXPECT_EQ(test, e->r.stats.retrans, 0ULL);
		if (echo) {
			KUNIT_EXPECT_GT(test, ecn, 0ULL);
			KUNIT_EXPECT_EQ(test, ecn, e->sb.stats.ecn_echoed);
		} else {
			KUNIT_EXPECT_EQ(test, ecn, 0ULL);
		}
		kunit_info(test, "echo %u: link %u took %u per mille, %u deliveries marked\n",
			   echo, marked, share[echo], (u32)ecn);
	}
	KUNIT_EXPECT_LT(test, share[1] * 2, share[0]);
}

/* A READ response of @len bytes at @psn, as the requester gets it. */
static u32 rd_rsp(struct rmp_req *r, u64 now, u8 opcode, u32 psn, u32 len,
		  struct rmp_req_rsp *rsp)
{
	struct rmp_hdr_fields f = {};

	f.bth.opcode = opcode;
	f.bth.psn = psn;
	f.payload_len = len;
	return rmp_req_ack(r, now, &f, rsp);
}

/*
 * Sprayed READ responses, one by one: each is placed by its PSN whatever
 * order it comes in; a duplicate, one of the wrong length, one at a PSN of
 * no READ and one never asked for are dropped and counted; a missing run
 * overtaken for the reordering time is asked for again alone (the next
 * sweep waiting twice as long), and the READ completes once all arrived,
 * before the SEND after it.
 */
static void rmp_multipath__read_responses_checked(struct kunit *test)
{
	const struct rmp_req_cfg cfg = {
		.qpt = RMP_QPT_RC, .mtu = MTU, .retry_cnt = 7, .timeout = 20,
		.max_rd_atomic = 2,
	};
	const u32 len = 3 * MTU + 100;
	struct rmp_req_wqe ring[4];
	struct rmp_req_done done;
	struct rmp_req_pkt pkt;
	struct rmp_req_rsp rsp;
	struct rmp_req *r;
	u64 now = 1;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, rmp_req_init(r, ring, 4, &cfg, 100), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_read_spray(r, 0), -EINVAL);
	KUNIT_ASSERT_EQ(test, rmp_req_read_spray(r, REORDER), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(r, RMP_REQ_READ, len, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(r, RMP_REQ_SEND, 8, 0), 1);
	KUNIT_ASSERT_EQ(test, rmp_req_next(r, now, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_READ);
	KUNIT_EXPECT_EQ(test, pkt.len, len);
	KUNIT_EXPECT_TRUE(test, pkt.spray);
	KUNIT_ASSERT_EQ(test, rmp_req_next(r, now, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.psn, 104U);
	KUNIT_EXPECT_FALSE(test, pkt.spray);

	/* The last one first, at its offset. */
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_LAST, 103, 100, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_READ);
	KUNIT_EXPECT_EQ(test, rsp.offset, 3 * MTU);
	KUNIT_EXPECT_EQ(test, rsp.len, 100U);
	KUNIT_EXPECT_EQ(test, r->stats.rd_ooo, 1ULL);
	/* Again: a duplicate. */
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_LAST, 103, 100, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_DROP);
	KUNIT_EXPECT_EQ(test, r->stats.dup_rsps, 1ULL);
	/* Longer than its place, or shorter. */
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_MIDDLE, 102, MTU + 4, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_DROP);
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_LAST, 102, 100, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_DROP);
	/* At the SEND's PSN. */
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_ONLY, 104, 0, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_DROP);
	KUNIT_EXPECT_EQ(test, r->stats.bad_rsps, 3ULL);
	/* Never asked for. */
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_MIDDLE, 105, MTU, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_DROP);
	KUNIT_EXPECT_EQ(test, r->stats.ghost_rsps, 1ULL);

	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_FIRST, 100, MTU, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.offset, 0U);
	KUNIT_EXPECT_EQ(test, r->una, 101U);
	KUNIT_EXPECT_EQ(test, rmp_req_complete(r, &done), -EAGAIN);

	/* 101 and 102 missing: asked for again once overtaken long enough. */
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(r), REORDER + 1);
	now = REORDER;
	rmp_req_timer(r, now);
	KUNIT_EXPECT_EQ(test, rmp_req_next(r, now, &pkt), -ENODATA);
	now = REORDER + 1;
	rmp_req_timer(r, now);
	KUNIT_ASSERT_EQ(test, rmp_req_next(r, now, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_READ);
	KUNIT_EXPECT_EQ(test, pkt.psn, 101U);
	KUNIT_EXPECT_EQ(test, pkt.offset, MTU);
	KUNIT_EXPECT_EQ(test, pkt.len, 2 * MTU);
	KUNIT_EXPECT_TRUE(test, pkt.retry);
	KUNIT_EXPECT_TRUE(test, pkt.spray);
	KUNIT_EXPECT_EQ(test, rmp_req_next(r, now, &pkt), -ENODATA);
	KUNIT_EXPECT_EQ(test, r->stats.rd_repairs, 1ULL);
	/* No progress since: the next sweep waits twice as long. */
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(r), now + 2 * REORDER);

	/* The SEND's ACK may overtake them: kept until the READ is done. */
	{
		struct rmp_hdr_fields f = {};

		f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
		f.bth.psn = 104;
		rmp_req_ack(r, now, &f, &rsp);
	}
	KUNIT_EXPECT_EQ(test, r->una, 101U);
	KUNIT_EXPECT_EQ(test, r->stats.implicit_naks, 0ULL);
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_MIDDLE, 102, MTU, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.offset, 2 * MTU);
	KUNIT_EXPECT_EQ(test, rmp_req_complete(r, &done), -EAGAIN);
	rd_rsp(r, now, RMP_OP_RC_READ_RESPONSE_FIRST, 101, MTU, &rsp);
	KUNIT_EXPECT_EQ(test, rsp.offset, MTU);
	KUNIT_EXPECT_EQ(test, r->una, 105U);
	KUNIT_ASSERT_EQ(test, rmp_req_complete(r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.slot, 0U);
	KUNIT_EXPECT_EQ(test, done.status, (u8)RMP_REQ_OK);
	KUNIT_ASSERT_EQ(test, rmp_req_complete(r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.slot, 1U);
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(r), 0ULL);
}

static struct kunit_case rmp_multipath_cases[] = {
	KUNIT_CASE_PARAM(rmp_multipath__transfers_verified, mp_gen_params),
	KUNIT_CASE_PARAM(rmp_multipath__sprayed_sends_verified,
			 mp_sp_gen_params),
	KUNIT_CASE(rmp_multipath__dead_link_paths_die),
	KUNIT_CASE(rmp_multipath__read_paths_revive),
	KUNIT_CASE(rmp_multipath__write_paths_revive),
	KUNIT_CASE(rmp_multipath__write_paths_go_home),
	KUNIT_CASE(rmp_multipath__plain_traffic_leaves_a_dark_path),
	KUNIT_CASE(rmp_multipath__read_responses_checked),
	KUNIT_CASE(rmp_multipath__weighted_avoids_marked_link),
	{}
};

static struct kunit_suite rmp_multipath_suite = {
	.name = "rmp_multipath",
	.test_cases = rmp_multipath_cases,
};

kunit_test_suite(rmp_multipath_suite);
