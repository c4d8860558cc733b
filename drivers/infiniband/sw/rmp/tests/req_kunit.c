// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the requester state machine: scripted exchanges with a
 * peer, each run at several starting PSNs (one of them wraps), and a
 * randomized run against a model responder over a lossy, reordering link.
 */
#include <kunit/test.h>

#include "../engine/req.h"

#define MTU	1024U
/* Local ACK timeout of code 8. */
#define T	1048576ULL
#define US	1000ULL

/* PSN at signed distance @off from @base. */
static u32 at(u32 base, s32 off)
{
	return rmp_psn_add(base, (u32)off);
}

/* ---- Scripts ---------------------------------------------------------- */

enum step_op {
	S_END,
	S_POST,		/* post kind/len/flags, expect ret (slot or errno) */
	S_TX,		/* next() hands out a packet: slot psn pos off len flags */
	S_TXL,		/* next() hands out LOCAL WQE slot */
	S_NOTX,		/* next() returns ret */
	S_RSP,		/* response opcode/syndrome at psn: ret events, act */
	S_WAIT,		/* time passes: val ns */
	S_TIMER,	/* rmp_req_timer(): ret events */
	S_DONE,		/* complete() gives slot with status */
	S_NODONE,	/* complete() returns ret */
	S_FLUSH,
	S_FAIL,		/* fail(slot, status) returns ret */
	S_STAT,		/* counter at offset off equals val */
	S_DEADLINE,	/* deadline - now equals val (0: none) */
	S_STATE,	/* r.state equals val */
	S_UNSENT,	/* rmp_req_unsent() equals val */
};

/* TX flags */
#define A	1	/* AckReq */
#define R	2	/* retransmission */

#define ES	RMP_REQ_EV_SEND
#define ED	RMP_REQ_EV_DONE
#define EE	RMP_REQ_EV_ERROR

/* Constant AETH syndromes for the tables. */
#define SYN_ACK		(RMP_AETH_ACK << RMP_AETH_TYPE_SHIFT | 0x1f)
#define SYN_NAK(c)	(RMP_AETH_NAK << RMP_AETH_TYPE_SHIFT | (c))
#define SYN_RNR(c)	(RMP_AETH_RNR_NAK << RMP_AETH_TYPE_SHIFT | (c))

struct step {
	u8 op;
	u8 kind;
	u8 flags;
	u8 opcode;
	u8 syn;
	u8 act;
	s32 psn;
	u32 slot;
	u32 off;
	u32 len;
	s32 ret;
	u64 val;
};

#define POST(k, l, f, r)	{ .op = S_POST, .kind = RMP_REQ_##k,	\
				  .len = (l), .flags = (f), .ret = (r) }
#define TX(s, p, pos, o, l, f)	{ .op = S_TX, .slot = (s), .psn = (p),	\
				  .kind = RMP_REQ_##pos, .off = (o),	\
				  .len = (l), .flags = (f) }
#define TXL(s)			{ .op = S_TXL, .slot = (s) }
#define NOTX(e)			{ .op = S_NOTX, .ret = -(e) }
/* @a is pasted at once: READ and WRITE are macros in the kernel. */
#define RSP(opc, sy, p, l, ev, a, s, o)					\
	{ .op = S_RSP, .opcode = (opc), .syn = (sy), .psn = (p),	\
	  .len = (l), .ret = (ev), .act = (a), .slot = (s), .off = (o) }
#define RSPX(opc, sy, p, ev)	RSP(opc, sy, p, 0, ev, RMP_REQ_RSP_DROP, \
				    0, 0)
#define ACK(p, ev)		RSP(RMP_OP_RC_ACKNOWLEDGE, SYN_ACK, p, 0, \
				    ev, RMP_REQ_RSP_ACK, 0, 0)
#define DUPACK(p)		RSP(RMP_OP_RC_ACKNOWLEDGE, SYN_ACK, p, 0, \
				    0, RMP_REQ_RSP_DROP, 0, 0)
#define NAK(c, p, ev)		RSP(RMP_OP_RC_ACKNOWLEDGE,		\
				    SYN_NAK(RMP_NAK_##c), p, 0, ev,	\
				    RMP_REQ_RSP_ACK, 0, 0)
#define RNR(c, p, ev)		RSP(RMP_OP_RC_ACKNOWLEDGE, SYN_RNR(c),	\
				    p, 0, ev, RMP_REQ_RSP_ACK, 0, 0)
#define RD(pos, p, l, ev, a, s, o)					\
	RSP(RMP_OP_RC_READ_RESPONSE_##pos, SYN_ACK, p, l, ev,		\
	    RMP_REQ_RSP_##a, s, o)
#define ATK(p, ev, a, s)	RSP(RMP_OP_RC_ATOMIC_ACKNOWLEDGE, SYN_ACK, \
				    p, 0, ev, RMP_REQ_RSP_##a, s, 0)
#define WAIT(ns)		{ .op = S_WAIT, .val = (ns) }
#define TIMER(ev)		{ .op = S_TIMER, .ret = (ev) }
#define DONE(s, st)		{ .op = S_DONE, .slot = (s),		\
				  .kind = RMP_REQ_##st }
#define NODONE(e)		{ .op = S_NODONE, .ret = -(e) }
#define FLUSH()			{ .op = S_FLUSH }
#define FAIL(s, st, r)		{ .op = S_FAIL, .slot = (s),		\
				  .kind = RMP_REQ_##st, .ret = (r) }
#define STAT(f, v)		{ .op = S_STAT,				\
				  .off = offsetof(struct rmp_req_stats, f), \
				  .val = (v) }
#define DEADLINE(ns)		{ .op = S_DEADLINE, .val = (ns) }
#define STATE(s)		{ .op = S_STATE, .val = RMP_REQ_##s }
#define UNSENT(v)		{ .op = S_UNSENT, .val = (v) }

#define CFG(q, retry, rnr, tmo, rd, win, every)				\
	{ .qpt = RMP_QPT_##q, .mtu = MTU, .retry_cnt = (retry),		\
	  .rnr_retry = (rnr), .timeout = (tmo), .max_rd_atomic = (rd),	\
	  .max_inflight = (win), .ack_every = (every),			\
	  .lqpn = 0x11, .rqpn = 0x12 }
#define DEF	CFG(RC, 3, 2, 8, 2, 16, 0)

struct scenario {
	const char *name;
	struct rmp_req_cfg cfg;
	u32 nslots;
	const struct step *steps;
};

static const struct step send_only[] = {
	POST(SEND, 100, 0, 0),
	TX(0, 0, ONLY, 0, 100, A),
	NOTX(ENODATA),
	DEADLINE(T),
	ACK(0, ES | ED),
	DEADLINE(0),
	DONE(0, OK),
	NODONE(ENODATA),
	STAT(pkts, 1),
	STAT(retrans, 0),
	{}
};

static const struct step send_multi[] = {
	POST(SEND, 2500, 0, 0),
	TX(0, 0, FIRST, 0, 1024, 0),
	TX(0, 1, MIDDLE, 1024, 1024, 0),
	TX(0, 2, LAST, 2048, 452, A),
	ACK(1, ES),
	NODONE(EAGAIN),
	DEADLINE(T),
	ACK(2, ES | ED),
	DONE(0, OK),
	{}
};

static const struct step coalesced[] = {
	POST(SEND, 10, 0, 0),
	POST(WRITE, 3000, 0, 1),
	POST(SEND, 0, 0, 2),
	POST(WRITE, 2048, 0, 3),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, FIRST, 0, 1024, 0),
	TX(1, 2, MIDDLE, 1024, 1024, 0),
	TX(1, 3, LAST, 2048, 952, A),
	TX(2, 4, ONLY, 0, 0, A),
	TX(3, 5, FIRST, 0, 1024, 0),
	TX(3, 6, LAST, 1024, 1024, A),
	NOTX(ENODATA),
	ACK(4, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	NODONE(EAGAIN),
	ACK(6, ES | ED),
	DONE(3, OK),
	{}
};

static const struct step ackreq_every[] = {
	POST(WRITE, 5120, 0, 0),
	TX(0, 0, FIRST, 0, 1024, 0),
	TX(0, 1, MIDDLE, 1024, 1024, A),
	TX(0, 2, MIDDLE, 2048, 1024, 0),
	TX(0, 3, MIDDLE, 3072, 1024, A),
	TX(0, 4, LAST, 4096, 1024, A),
	ACK(4, ES | ED),
	DONE(0, OK),
	{}
};

static const struct step read_multi[] = {
	POST(READ, 2500, 0, 0),
	POST(SEND, 1, 0, 1),
	TX(0, 0, ONLY, 0, 2500, A),
	TX(1, 3, ONLY, 0, 1, A),
	RD(FIRST, 0, 1024, ES, READ, 0, 0),
	RD(MIDDLE, 1, 1024, ES, READ, 0, 1024),
	NODONE(EAGAIN),
	RD(LAST, 2, 452, ES | ED, READ, 0, 2048),
	DONE(0, OK),
	ACK(3, ES | ED),
	DONE(1, OK),
	{}
};

static const struct step read_zero[] = {
	POST(READ, 0, 0, 0),
	TX(0, 0, ONLY, 0, 0, A),
	RD(ONLY, 0, 0, ES | ED, READ, 0, 0),
	DONE(0, OK),
	{}
};

static const struct step read_acks_earlier[] = {
	POST(SEND, 10, 0, 0),
	POST(WRITE, 1500, 0, 1),
	POST(READ, 100, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, FIRST, 0, 1024, 0),
	TX(1, 2, LAST, 1024, 476, A),
	TX(2, 3, ONLY, 0, 100, A),
	RD(ONLY, 3, 100, ES | ED, READ, 2, 0),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	{}
};

static const struct step atomic[] = {
	POST(WRITE, 10, 0, 0),
	POST(ATOMIC, 8, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 8, A),
	ATK(1, ES | ED, ATOMIC, 1),
	DONE(0, OK),
	DONE(1, OK),
	ATK(1, 0, DROP, 0),
	STAT(dup_rsps, 1),
	{}
};

/* An ATOMIC WRITE is answered by an empty READ response ONLY. */
static const struct step atomic_write[] = {
	POST(WRITE, 10, 0, 0),
	POST(ATOMIC_WRITE, 8, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 8, A),
	RD(ONLY, 1, 0, ES | ED, ACK, 0, 0),
	DONE(0, OK),
	DONE(1, OK),
	RD(ONLY, 1, 0, 0, DROP, 0, 0),
	STAT(dup_rsps, 1),
	{}
};

static const struct step atomic_write_bad_resps[] = {
	POST(ATOMIC_WRITE, 8, 0, 0),
	TX(0, 0, ONLY, 0, 8, A),
	/* Data in it, or more than one packet: not the answer. */
	RD(ONLY, 0, 8, 0, DROP, 0, 0),
	RD(FIRST, 0, 1024, 0, DROP, 0, 0),
	STAT(bad_rsps, 2),
	NODONE(EAGAIN),
	/* An atomic's answer fails it. */
	ATK(0, ED | EE, DROP, 0),
	DONE(0, ERR_BAD_RESP),
	{}
};

static const struct step atomic_write_lost[] = {
	POST(ATOMIC_WRITE, 8, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 8, A),
	TX(1, 1, ONLY, 0, 10, A),
	ACK(1, ES),
	STAT(implicit_naks, 1),
	TX(0, 0, ONLY, 0, 8, A | R),
	TX(1, 1, ONLY, 0, 10, A | R),
	RD(ONLY, 0, 0, ES | ED, ACK, 0, 0),
	ACK(1, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	{}
};

/* ATOMIC WRITEs take READ/atomic slots and wait for a fence like them. */
static const struct step atomic_write_rd_atomic[] = {
	POST(ATOMIC_WRITE, 8, 0, 0),
	POST(ATOMIC_WRITE, 8, 0, 1),
	POST(READ, 10, 0, 2),
	POST(SEND, 10, RMP_REQ_F_FENCE, 3),
	TX(0, 0, ONLY, 0, 8, A),
	TX(1, 1, ONLY, 0, 8, A),
	NOTX(EAGAIN),
	RD(ONLY, 0, 0, ES | ED, ACK, 0, 0),
	TX(2, 2, ONLY, 0, 10, A),
	NOTX(EAGAIN),
	RD(ONLY, 1, 0, ES | ED, ACK, 0, 0),
	RD(ONLY, 2, 10, ES | ED, READ, 2, 0),
	TX(3, 3, ONLY, 0, 10, A),
	ACK(3, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	DONE(3, OK),
	{}
};

static const struct step nak_seq[] = {
	UNSENT(0),
	POST(SEND, 3000, 0, 0),
	POST(SEND, 10, 0, 1),
	UNSENT(1),
	TX(0, 0, FIRST, 0, 1024, 0),
	TX(0, 1, MIDDLE, 1024, 1024, 0),
	TX(0, 2, LAST, 2048, 952, A),
	UNSENT(1),
	TX(1, 3, ONLY, 0, 10, A),
	UNSENT(0),
	NOTX(ENODATA),
	NAK(PSN_SEQ, 1, ES),
	/* Going back: sent packets are to be sent again. */
	UNSENT(1),
	TX(0, 1, MIDDLE, 1024, 1024, R),
	/* The same NAK again: already going back. */
	NAK(PSN_SEQ, 1, 0),
	TX(0, 2, LAST, 2048, 952, A | R),
	TX(1, 3, ONLY, 0, 10, A | R),
	NOTX(ENODATA),
	ACK(3, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	STAT(seq_naks, 1),
	STAT(dup_rsps, 1),
	STAT(retrans, 3),
	STAT(pkts, 7),
	{}
};

static const struct step nak_seq_after_progress[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	TX(2, 2, ONLY, 0, 10, A),
	NAK(PSN_SEQ, 1, ES | ED),
	TX(1, 1, ONLY, 0, 10, A | R),
	/* Progress, then a new loss: acted on. */
	NAK(PSN_SEQ, 2, ES | ED),
	TX(2, 2, ONLY, 0, 10, A | R),
	ACK(2, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	STAT(seq_naks, 2),
	{}
};

static const struct step timeout_exc[] = {
	POST(SEND, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	DEADLINE(T),
	WAIT(T - 1),
	TIMER(0),
	WAIT(1),
	TIMER(ES),
	DEADLINE(0),
	TX(0, 0, ONLY, 0, 10, A | R),
	DEADLINE(T),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	WAIT(T),
	TIMER(ED | EE),
	STATE(ERROR),
	DONE(0, ERR_RETRY_EXC),
	NOTX(EIO),
	STAT(timeouts, 4),
	STAT(retrans, 3),
	{}
};

static const struct step timeout_refill[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	TX(1, 1, ONLY, 0, 10, A | R),
	WAIT(T / 2),
	/* Progress restarts the timer and refills the retry counter. */
	ACK(0, ES | ED),
	DEADLINE(T),
	WAIT(T),
	TIMER(ES),
	TX(1, 1, ONLY, 0, 10, A | R),
	ACK(1, ES | ED),
	DEADLINE(0),
	DONE(0, OK),
	DONE(1, OK),
	{}
};

static const struct step timeout_partial[] = {
	POST(WRITE, 4096, 0, 0),
	TX(0, 0, FIRST, 0, 1024, 0),
	TX(0, 1, MIDDLE, 1024, 1024, 0),
	TX(0, 2, MIDDLE, 2048, 1024, 0),
	TX(0, 3, LAST, 3072, 1024, A),
	ACK(0, ES),
	WAIT(T),
	TIMER(ES),
	TX(0, 1, MIDDLE, 1024, 1024, R),
	/* A late ACK overtakes the go-back: skip what it covers. */
	ACK(2, ES),
	TX(0, 3, LAST, 3072, 1024, A | R),
	ACK(3, ES | ED),
	DONE(0, OK),
	STAT(retrans, 2),
	{}
};

static const struct step timeout_never[] = {
	POST(SEND, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	DEADLINE(0),
	WAIT(1000000000000ULL),
	TIMER(0),
	NOTX(ENODATA),
	ACK(0, ES | ED),
	DONE(0, OK),
	{}
};

/*
 * One path: the ACK timer waits as long as the QP's round trips, timed on
 * packets sent once with AckReq: a first sample of 2T gives 2T plus four
 * deviations of T, a second one of 2T takes the deviation to 3/4 T. The
 * ACK of a packet sent again is no sample (Karn).
 */
static const struct step timeout_follows_rtt[] = {
	POST(SEND, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	DEADLINE(T),
	WAIT(2 * T),
	ACK(0, ES | ED),
	DONE(0, OK),
	POST(SEND, 10, 0, 1),
	TX(1, 1, ONLY, 0, 10, A),
	DEADLINE(6 * T),
	WAIT(6 * T),
	TIMER(ES),
	TX(1, 1, ONLY, 0, 10, A | R),
	DEADLINE(6 * T),
	WAIT(20 * T),
	ACK(1, ES | ED),
	DONE(1, OK),
	POST(SEND, 10, 0, 2),
	TX(2, 2, ONLY, 0, 10, A),
	DEADLINE(6 * T),
	WAIT(2 * T),
	ACK(2, ES | ED),
	DONE(2, OK),
	POST(SEND, 10, 0, 3),
	TX(3, 3, ONLY, 0, 10, A),
	DEADLINE(5 * T),
	STAT(timeouts, 1),
	{}
};

/* Round trips shorter than the local ACK timeout leave it as it is. */
static const struct step timeout_rtt_short[] = {
	POST(SEND, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	WAIT(10 * US),
	ACK(0, ES | ED),
	POST(WRITE, 2048, 0, 1),
	TX(1, 1, FIRST, 0, 1024, 0),
	DEADLINE(T),
	TX(1, 2, LAST, 1024, 1024, A),
	WAIT(T / 2),
	ACK(2, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	POST(SEND, 10, 0, 2),
	TX(2, 3, ONLY, 0, 10, A),
	DEADLINE(T),
	{}
};

static const struct step rnr_wait[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 20, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 20, A),
	RNR(14, 0, 0),
	STATE(RNR_WAIT),
	DEADLINE(1280000),
	NOTX(EAGAIN),
	/* Another RNR NAK during the wait changes nothing. */
	RNR(14, 0, 0),
	STAT(dup_rsps, 1),
	WAIT(1279999),
	NOTX(EAGAIN),
	TIMER(0),
	WAIT(1),
	TIMER(ES),
	STATE(RUN),
	TX(0, 0, ONLY, 0, 10, A | R),
	DEADLINE(T),
	TX(1, 1, ONLY, 0, 20, A | R),
	ACK(1, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	STAT(rnr_naks, 1),
	STAT(timeouts, 0),
	{}
};

static const struct step rnr_acks_earlier[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 20, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 20, A),
	RNR(1, 1, ES | ED),
	DONE(0, OK),
	DEADLINE(10000),
	WAIT(10000),
	/* next() itself ends a wait that is over. */
	TX(1, 1, ONLY, 0, 20, A | R),
	ACK(1, ES | ED),
	DONE(1, OK),
	{}
};

static const struct step rnr_exc[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	RNR(1, 0, 0),
	WAIT(10000),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	RNR(1, 0, 0),
	WAIT(10000),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	RNR(1, 0, ED | EE),
	DONE(0, ERR_RNR_RETRY_EXC),
	NODONE(EAGAIN),
	FLUSH(),
	DONE(1, ERR_FLUSH),
	STAT(rnr_naks, 3),
	{}
};

static const struct step rnr_zero[] = {
	POST(SEND, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	RNR(31, 0, ED | EE),
	DONE(0, ERR_RNR_RETRY_EXC),
	{}
};

static const struct step read_reissue[] = {
	POST(READ, 4000, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 4000, A),
	TX(1, 4, ONLY, 0, 10, A),
	NOTX(ENODATA),
	RD(FIRST, 0, 1024, ES, READ, 0, 0),
	/* PSN 1 lost: re-issue from byte 1024, and resend what follows. */
	RD(MIDDLE, 2, 1024, ES, DROP, 0, 0),
	STAT(implicit_naks, 1),
	TX(0, 1, ONLY, 1024, 2976, A | R),
	TX(1, 4, ONLY, 0, 10, A | R),
	NOTX(ENODATA),
	/* The rest of the first issue's responses: ignored. */
	RD(LAST, 3, 928, 0, DROP, 0, 0),
	STAT(dup_rsps, 1),
	RD(FIRST, 1, 1024, ES, READ, 0, 1024),
	RD(MIDDLE, 2, 1024, ES, READ, 0, 2048),
	RD(LAST, 3, 928, ES | ED, READ, 0, 3072),
	ACK(4, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	STAT(implicit_naks, 1),
	STAT(retrans, 2),
	{}
};

static const struct step read_last_lost[] = {
	POST(READ, 2048, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 2048, A),
	TX(1, 2, ONLY, 0, 10, A),
	RD(FIRST, 0, 1024, ES, READ, 0, 0),
	/* An ACK beyond the READ: its last response was lost. */
	ACK(2, ES),
	TX(0, 1, ONLY, 1024, 1024, A | R),
	TX(1, 2, ONLY, 0, 10, A | R),
	RD(ONLY, 1, 1024, ES | ED, READ, 0, 1024),
	ACK(2, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	STAT(implicit_naks, 1),
	{}
};

static const struct step read_late_response[] = {
	POST(READ, 3072, 0, 0),
	TX(0, 0, ONLY, 0, 3072, A),
	RD(FIRST, 0, 1024, ES, READ, 0, 0),
	WAIT(T),
	TIMER(ES),
	/* The responses were late, not lost: the re-issue shrinks. */
	RD(MIDDLE, 1, 1024, ES, READ, 0, 1024),
	TX(0, 2, ONLY, 2048, 1024, A | R),
	RD(LAST, 2, 1024, ES | ED, READ, 0, 2048),
	DONE(0, OK),
	RD(ONLY, 2, 1024, 0, DROP, 0, 0),
	STAT(dup_rsps, 1),
	{}
};

static const struct step atomic_lost[] = {
	POST(ATOMIC, 8, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 8, A),
	TX(1, 1, ONLY, 0, 10, A),
	ACK(1, ES),
	TX(0, 0, ONLY, 0, 8, A | R),
	TX(1, 1, ONLY, 0, 10, A | R),
	ATK(0, ES | ED, ATOMIC, 0),
	ACK(1, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	{}
};

static const struct step fence_read[] = {
	POST(READ, 100, 0, 0),
	POST(SEND, 10, RMP_REQ_F_FENCE, 1),
	POST(WRITE, 10, 0, 2),
	TX(0, 0, ONLY, 0, 100, A),
	NOTX(EAGAIN),
	RD(ONLY, 0, 100, ES | ED, READ, 0, 0),
	TX(1, 1, ONLY, 0, 10, A),
	TX(2, 2, ONLY, 0, 10, A),
	ACK(2, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	{}
};

static const struct step fence_no_read[] = {
	POST(SEND, 10, 0, 0),
	POST(WRITE, 10, RMP_REQ_F_FENCE, 1),
	POST(READ, 10, RMP_REQ_F_FENCE, 2),
	POST(ATOMIC, 8, RMP_REQ_F_FENCE, 3),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	TX(2, 2, ONLY, 0, 10, A),
	NOTX(EAGAIN),
	RD(ONLY, 2, 10, ES | ED, READ, 2, 0),
	TX(3, 3, ONLY, 0, 8, A),
	ATK(3, ES | ED, ATOMIC, 3),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	DONE(3, OK),
	{}
};

static const struct step rd_atomic_limit[] = {
	POST(READ, 10, 0, 0),
	POST(ATOMIC, 8, 0, 1),
	POST(READ, 10, 0, 2),
	POST(SEND, 10, 0, 3),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 8, A),
	NOTX(EAGAIN),
	RD(ONLY, 0, 10, ES | ED, READ, 0, 0),
	TX(2, 2, ONLY, 0, 10, A),
	TX(3, 3, ONLY, 0, 10, A),
	ATK(1, ES | ED, ATOMIC, 1),
	RD(ONLY, 2, 10, ES | ED, READ, 2, 0),
	ACK(3, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	DONE(3, OK),
	{}
};

static const struct step window[] = {
	POST(WRITE, 8192, 0, 0),
	TX(0, 0, FIRST, 0, 1024, 0),
	TX(0, 1, MIDDLE, 1024, 1024, 0),
	TX(0, 2, MIDDLE, 2048, 1024, 0),
	TX(0, 3, MIDDLE, 3072, 1024, A),
	NOTX(EAGAIN),
	ACK(1, ES),
	TX(0, 4, MIDDLE, 4096, 1024, 0),
	TX(0, 5, MIDDLE, 5120, 1024, A),
	NOTX(EAGAIN),
	ACK(5, ES),
	TX(0, 6, MIDDLE, 6144, 1024, 0),
	TX(0, 7, LAST, 7168, 1024, A),
	ACK(7, ES | ED),
	DONE(0, OK),
	{}
};

static const struct step window_read[] = {
	POST(SEND, 10, 0, 0),
	POST(READ, 4096, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	NOTX(EAGAIN),
	ACK(0, ES | ED),
	/* Larger than the window: goes out alone. */
	TX(1, 1, ONLY, 0, 4096, A),
	NOTX(EAGAIN),
	RD(FIRST, 1, 1024, ES, READ, 1, 0),
	RD(MIDDLE, 2, 1024, ES, READ, 1, 1024),
	NOTX(EAGAIN),
	RD(MIDDLE, 3, 1024, ES, READ, 1, 2048),
	TX(2, 5, ONLY, 0, 10, A),
	RD(LAST, 4, 1024, ES | ED, READ, 1, 3072),
	ACK(5, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	{}
};

static const struct step local_in_order[] = {
	POST(SEND, 10, 0, 0),
	POST(LOCAL, 0, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TXL(1),
	TX(2, 1, ONLY, 0, 10, A),
	/* The LOCAL WQE is finished, but waits for the SEND before it. */
	NODONE(EAGAIN),
	ACK(0, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	NODONE(EAGAIN),
	ACK(1, ES | ED),
	DONE(2, OK),
	{}
};

static const struct step local_once[] = {
	POST(SEND, 10, 0, 0),
	POST(LOCAL, 0, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TXL(1),
	TX(2, 1, ONLY, 0, 10, A),
	NAK(PSN_SEQ, 0, ES),
	/* Going back does not execute the LOCAL WQE again. */
	TX(0, 0, ONLY, 0, 10, A | R),
	TX(2, 1, ONLY, 0, 10, A | R),
	NOTX(ENODATA),
	ACK(1, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	DONE(2, OK),
	{}
};

static const struct step local_fence[] = {
	POST(SEND, 10, 0, 0),
	POST(LOCAL, 0, RMP_REQ_F_FENCE, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	NOTX(EAGAIN),
	ACK(0, ES | ED),
	TXL(1),
	DONE(0, OK),
	DONE(1, OK),
	TX(2, 1, ONLY, 0, 10, A),
	{}
};

static const struct step local_first[] = {
	POST(LOCAL, 0, RMP_REQ_F_FENCE, 0),
	POST(LOCAL, 0, 0, 1),
	TXL(0),
	DONE(0, OK),
	TXL(1),
	DONE(1, OK),
	NOTX(ENODATA),
	NODONE(ENODATA),
	{}
};

static const struct step ghost_dup[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	DUPACK(2),
	DUPACK(0x1000),
	RSPX(RMP_OP_RC_ACKNOWLEDGE, SYN_NAK(RMP_NAK_PSN_SEQ), 2, 0),
	RD(ONLY, 2, 10, 0, DROP, 0, 0),
	STAT(ghost_rsps, 4),
	DUPACK(-1),
	DUPACK(-0x1000),
	ACK(0, ES | ED),
	DUPACK(0),
	STAT(dup_rsps, 3),
	ACK(1, ES | ED),
	DONE(0, OK),
	DONE(1, OK),
	STAT(ghost_rsps, 4),
	TX(2, 2, ONLY, 0, 10, A),
	ACK(2, ES | ED),
	DONE(2, OK),
	{}
};

static const struct step malformed[] = {
	POST(READ, 2000, 0, 0),
	TX(0, 0, ONLY, 0, 2000, A),
	/* Short payload, last packet flagged early, NAK on a response. */
	RD(FIRST, 0, 1000, 0, DROP, 0, 0),
	RD(LAST, 0, 1024, 0, DROP, 0, 0),
	RSP(RMP_OP_RC_READ_RESPONSE_FIRST, SYN_RNR(1), 0, 1024, 0,
	    RMP_REQ_RSP_DROP, 0, 0),
	/* Not a response at all. */
	RSPX(RMP_OP_RC_SEND_ONLY, 0, 0, 0),
	RSPX(RMP_OP_UD_SEND_ONLY, 0, 0, 0),
	RSPX(0xff, 0, 0, 0),
	STAT(bad_rsps, 6),
	RD(FIRST, 0, 1024, ES, READ, 0, 0),
	RD(LAST, 1, 976, ES | ED, READ, 0, 1024),
	DONE(0, OK),
	{}
};

static const struct step bad_resp_read[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	RD(ONLY, 1, 10, ES | ED | EE, DROP, 0, 0),
	DONE(0, OK),
	DONE(1, ERR_BAD_RESP),
	{}
};

static const struct step bad_resp_atomic[] = {
	POST(READ, 10, 0, 0),
	TX(0, 0, ONLY, 0, 10, A),
	ATK(0, ED | EE, DROP, 0),
	DONE(0, ERR_BAD_RESP),
	NOTX(EIO),
	{}
};

static const struct step flush[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TX(1, 1, ONLY, 0, 10, A),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	WAIT(T),
	TIMER(ES),
	TX(0, 0, ONLY, 0, 10, A | R),
	WAIT(T),
	TIMER(ED | EE),
	DEADLINE(0),
	/* Responses and timers are ignored in the error state. */
	DUPACK(0),
	TIMER(0),
	DONE(0, ERR_RETRY_EXC),
	NODONE(EAGAIN),
	POST(SEND, 10, 0, 3),
	FLUSH(),
	STATE(FLUSHED),
	DONE(1, ERR_FLUSH),
	DONE(2, ERR_FLUSH),
	DONE(3, ERR_FLUSH),
	NODONE(ENODATA),
	POST(WRITE, 10, 0, 4),
	DONE(4, ERR_FLUSH),
	NOTX(EIO),
	{}
};

static const struct step local_fail[] = {
	POST(SEND, 10, 0, 0),
	POST(LOCAL, 0, 0, 1),
	POST(SEND, 10, 0, 2),
	TX(0, 0, ONLY, 0, 10, A),
	TXL(1),
	FAIL(5, ERR_LOCAL, -EINVAL),
	FAIL(1, OK, -EINVAL),
	/* Handed out counts as executed; the kernel may still fail it. */
	FAIL(1, ERR_LOCAL, 0),
	FAIL(1, ERR_LOCAL, -EINVAL),
	STATE(ERROR),
	NOTX(EIO),
	DUPACK(0),
	FLUSH(),
	DONE(0, ERR_FLUSH),
	DONE(1, ERR_LOCAL),
	DONE(2, ERR_FLUSH),
	NODONE(ENODATA),
	{}
};

static const struct step ring_full[] = {
	POST(SEND, 10, 0, 0),
	POST(SEND, 10, 0, 1),
	POST(SEND, 10, 0, 2),
	POST(SEND, 10, 0, 3),
	POST(SEND, 10, 0, -ENOSPC),
	TX(0, 0, ONLY, 0, 10, A),
	ACK(0, ES | ED),
	POST(SEND, 10, 0, -ENOSPC),
	DONE(0, OK),
	POST(SEND, 10, 0, 0),
	TX(1, 1, ONLY, 0, 10, A),
	TX(2, 2, ONLY, 0, 10, A),
	TX(3, 3, ONLY, 0, 10, A),
	TX(0, 4, ONLY, 0, 10, A),
	ACK(4, ES | ED),
	DONE(1, OK),
	DONE(2, OK),
	DONE(3, OK),
	DONE(0, OK),
	{}
};

static const struct step post_checks[] = {
	POST(KIND_MAX, 10, 0, -EINVAL),
	POST(SEND, 10, 4, -EINVAL),
	POST(SEND, 0x80000001, 0, -EINVAL),
	POST(ATOMIC_WRITE, 4, 0, -EINVAL),
	POST(ATOMIC_WRITE, 16, 0, -EINVAL),
	POST(WRITE, 0x80000000, 0, 0),
	TX(0, 0, FIRST, 0, 1024, 0),
	{}
};

static const struct step no_rd_atomic[] = {
	POST(READ, 10, 0, -EINVAL),
	POST(ATOMIC, 8, 0, -EINVAL),
	POST(ATOMIC_WRITE, 8, 0, -EINVAL),
	POST(SEND, 10, 0, 0),
	{}
};

static const struct step ud[] = {
	POST(SEND, 100, 0, 0),
	POST(SEND, 1025, 0, -EINVAL),
	POST(WRITE, 10, 0, -EINVAL),
	POST(READ, 10, 0, -EINVAL),
	POST(ATOMIC, 8, 0, -EINVAL),
	POST(ATOMIC_WRITE, 8, 0, -EINVAL),
	POST(LOCAL, 0, 0, 1),
	POST(SEND, 1024, 0, 2),
	TX(0, 0, ONLY, 0, 100, 0),
	DEADLINE(0),
	DONE(0, OK),
	NODONE(EAGAIN),
	TXL(1),
	DONE(1, OK),
	TX(2, 1, ONLY, 0, 1024, 0),
	DONE(2, OK),
	NOTX(ENODATA),
	NODONE(ENODATA),
	/* No acknowledgments on UD. */
	DUPACK(1),
	TIMER(0),
	STAT(ghost_rsps, 0),
	{}
};

static const struct step uc[] = {
	POST(WRITE, 2048, 0, 0),
	POST(READ, 10, 0, -EINVAL),
	POST(ATOMIC_WRITE, 8, 0, -EINVAL),
	POST(SEND, 10, 0, 1),
	TX(0, 0, FIRST, 0, 1024, 0),
	NODONE(EAGAIN),
	TX(0, 1, LAST, 1024, 1024, 0),
	DONE(0, OK),
	TX(1, 2, ONLY, 0, 10, 0),
	DONE(1, OK),
	DEADLINE(0),
	{}
};

static const struct scenario scenarios[] = {
	{ "send: one packet", DEF, 8, send_only },
	{ "send: three packets, ACK mid-message", DEF, 8, send_multi },
	{ "coalesced ACK completes several WQEs", DEF, 8, coalesced },
	{ "AckReq every 2 packets", CFG(RC, 3, 2, 8, 2, 16, 2), 8,
	  ackreq_every },
	{ "read: three responses", DEF, 8, read_multi },
	{ "read: zero length", DEF, 8, read_zero },
	{ "read response acknowledges earlier WQEs", DEF, 8,
	  read_acks_earlier },
	{ "atomic", DEF, 8, atomic },
	{ "atomic write", DEF, 8, atomic_write },
	{ "atomic write: wrong answers", DEF, 8, atomic_write_bad_resps },
	{ "atomic write answer lost, later ACK", DEF, 8, atomic_write_lost },
	{ "atomic write: max_rd_atomic and fence", DEF, 8,
	  atomic_write_rd_atomic },
	{ "NAK sequence error: go back N", DEF, 8, nak_seq },
	{ "NAK sequence error after progress", DEF, 8,
	  nak_seq_after_progress },
	{ "ACK timeout: retries, then RETRY_EXC", DEF, 8, timeout_exc },
	{ "ACK timeout: progress refills retries",
	  CFG(RC, 1, 2, 8, 2, 16, 0), 8, timeout_refill },
	{ "ACK timeout mid-message, late ACK", DEF, 8, timeout_partial },
	{ "ACK timeout 0 is infinite", CFG(RC, 3, 2, 0, 2, 16, 0), 8,
	  timeout_never },
	{ "ACK timeout follows the round trips", DEF, 8,
	  timeout_follows_rtt },
	{ "ACK timeout above short round trips", DEF, 8, timeout_rtt_short },
	{ "RNR NAK: wait, resend", DEF, 8, rnr_wait },
	{ "RNR NAK acknowledges earlier WQEs", DEF, 8, rnr_acks_earlier },
	{ "RNR retries exceeded", DEF, 8, rnr_exc },
	{ "RNR retry 0", CFG(RC, 3, 0, 8, 2, 16, 0), 8, rnr_zero },
	{ "read response lost: partial re-issue", DEF, 8, read_reissue },
	{ "read last response lost, later ACK", DEF, 8, read_last_lost },
	{ "read responses late, not lost", DEF, 8, read_late_response },
	{ "atomic response lost, later ACK", DEF, 8, atomic_lost },
	{ "fence waits for READ", DEF, 8, fence_read },
	{ "fence waits only for READ and atomic", DEF, 8, fence_no_read },
	{ "max_rd_atomic", DEF, 8, rd_atomic_limit },
	{ "window of 4 PSNs", CFG(RC, 3, 2, 8, 2, 4, 0), 8, window },
	{ "READ larger than the window", CFG(RC, 3, 2, 8, 2, 2, 0), 8,
	  window_read },
	{ "LOCAL completes in order", DEF, 8, local_in_order },
	{ "LOCAL runs once across go-back", DEF, 8, local_once },
	{ "fenced LOCAL waits for all", DEF, 8, local_fence },
	{ "LOCAL only", DEF, 8, local_first },
	{ "ghost and duplicate responses", DEF, 8, ghost_dup },
	{ "malformed responses dropped", DEF, 8, malformed },
	{ "READ response for a SEND", DEF, 8, bad_resp_read },
	{ "atomic ACK for a READ", DEF, 8, bad_resp_atomic },
	{ "flush after RETRY_EXC", DEF, 8, flush },
	{ "local failure", DEF, 8, local_fail },
	{ "ring full", DEF, 4, ring_full },
	{ "post checks", DEF, 8, post_checks },
	{ "no READ without max_rd_atomic", CFG(RC, 3, 2, 8, 0, 16, 0), 8,
	  no_rd_atomic },
	{ "UD", CFG(UD, 0, 0, 0, 0, 0, 0), 8, ud },
	{ "UC", CFG(UC, 0, 0, 0, 0, 0, 0), 8, uc },
};

static void scenario_desc(const struct scenario *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(scenario, scenarios, scenario_desc);

/* Starting PSNs: plain, just below the half, and wrapping early on. */
static const u32 bases[] = { 0, 0x7ffffd, 0xfffffe };

static struct {
	struct rmp_req r;
	struct rmp_req_wqe ring[8];
	u64 now;
} h;

#define CHECK(l, r)							\
	KUNIT_ASSERT_EQ_MSG(test, (s64)(l), (s64)(r),			\
			    "%s: step %u, base %#x", c->name, i, base)

static void run_step(struct kunit *test, const struct scenario *c, u32 base,
		     u32 i)
{
	const struct step *s = &c->steps[i];
	struct rmp_hdr_fields f = {};
	struct rmp_req_done done;
	struct rmp_req_rsp out, foretold;
	struct rmp_req_pkt pkt;
	bool will;
	int ret;

	switch (s->op) {
	case S_POST:
		CHECK(rmp_req_post(&h.r, s->kind, s->len, s->flags),
		      s->ret);
		break;
	case S_TX:
		ret = rmp_req_next(&h.r, h.now, &pkt);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s: step %u, base %#x",
				    c->name, i, base);
		CHECK(pkt.slot, s->slot);
		CHECK(pkt.psn, at(base, s->psn));
		CHECK(pkt.pos, s->kind);
		CHECK(pkt.offset, s->off);
		CHECK(pkt.len, s->len);
		CHECK(pkt.ackreq, !!(s->flags & A));
		CHECK(pkt.retry, !!(s->flags & R));
		CHECK(pkt.sport, 0xc132);
		CHECK(pkt.kind, h.ring[s->slot].kind);
		break;
	case S_TXL:
		ret = rmp_req_next(&h.r, h.now, &pkt);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s: step %u, base %#x",
				    c->name, i, base);
		CHECK(pkt.kind, RMP_REQ_LOCAL);
		CHECK(pkt.slot, s->slot);
		break;
	case S_NOTX:
		CHECK(rmp_req_next(&h.r, h.now, &pkt), s->ret);
		break;
	case S_RSP:
		f.bth.opcode = s->opcode;
		f.bth.psn = at(base, s->psn);
		f.aeth.syndrome = s->syn;
		f.aeth.msn = 7;
		f.payload_len = s->len;
		memset(&out, 0xa5, sizeof(out));
		will = rmp_req_will_place(&h.r, &f, &foretold);
		CHECK(rmp_req_ack(&h.r, h.now, &f, &out), s->ret);
		CHECK(out.action, s->act);
		/* Foretold right; not every placement is foretold. */
		if (will)
			CHECK(memcmp(&foretold, &out, sizeof(out)), 0);
		if (s->act == RMP_REQ_RSP_READ || s->act == RMP_REQ_RSP_ATOMIC)
			CHECK(out.slot, s->slot);
		if (s->act == RMP_REQ_RSP_READ) {
			CHECK(out.offset, s->off);
			CHECK(out.len, s->len);
		}
		break;
	case S_WAIT:
		h.now += s->val;
		break;
	case S_TIMER:
		CHECK(rmp_req_timer(&h.r, h.now), s->ret);
		break;
	case S_DONE:
		ret = rmp_req_complete(&h.r, &done);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s: step %u, base %#x",
				    c->name, i, base);
		CHECK(done.slot, s->slot);
		CHECK(done.status, s->kind);
		CHECK(done.kind, h.ring[s->slot].kind);
		break;
	case S_NODONE:
		CHECK(rmp_req_complete(&h.r, &done), s->ret);
		break;
	case S_FLUSH:
		rmp_req_flush(&h.r);
		break;
	case S_FAIL:
		CHECK(rmp_req_fail(&h.r, s->slot, s->kind), s->ret);
		break;
	case S_STAT:
		CHECK(*(const u64 *)((const char *)&h.r.stats + s->off), s->val);
		break;
	case S_DEADLINE:
		CHECK(rmp_req_deadline(&h.r) ?
		      rmp_req_deadline(&h.r) - h.now : 0, s->val);
		break;
	case S_STATE:
		CHECK(h.r.state, s->val);
		break;
	case S_UNSENT:
		CHECK(rmp_req_unsent(&h.r), s->val);
		break;
	}
}

static void rmp_req__scenarios(struct kunit *test)
{
	const struct scenario *c = test->param_value;
	u32 b, i;

	for (b = 0; b < ARRAY_SIZE(bases); b++) {
		u32 base = bases[b];

		memset(&h, 0, sizeof(h));
		h.now = 1000;
		KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, c->nslots,
						   &c->cfg, base), 0);
		for (i = 0; c->steps[i].op != S_END; i++)
			run_step(test, c, base, i);
	}
}

/* ---- Remote errors ---------------------------------------------------- */

struct nak_case {
	const char *name;
	u8 code;
	u8 status;
};

static const struct nak_case nak_cases[] = {
	{ "invalid request", RMP_NAK_INV_REQ, RMP_REQ_ERR_REM_INV_REQ },
	{ "remote access", RMP_NAK_REM_ACCESS, RMP_REQ_ERR_REM_ACCESS },
	{ "remote operational", RMP_NAK_REM_OP, RMP_REQ_ERR_REM_OP },
	{ "invalid RD request", RMP_NAK_INV_RD_REQ,
	  RMP_REQ_ERR_REM_INV_RD_REQ },
	{ "reserved code 5", 5, RMP_REQ_ERR_BAD_RESP },
	{ "reserved code 31", 31, RMP_REQ_ERR_BAD_RESP },
};

static void nak_desc(const struct nak_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nak, nak_cases, nak_desc);

static void rmp_req_ack__remote_errors(struct kunit *test)
{
	const struct nak_case *c = test->param_value;
	const struct rmp_req_cfg cfg = DEF;
	struct rmp_hdr_fields f = {};
	struct rmp_req_done done;
	struct rmp_req_pkt pkt;
	struct rmp_req_rsp out;
	u32 base = 0xfffffe;
	int i;

	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, 8, &cfg, base), 0);
	/* SEND at base, WRITE at base + 1 and + 2, SEND at base + 3. */
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_SEND, 10, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_WRITE, 2048, 0), 1);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_SEND, 10, 0), 2);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 0, &pkt), 0);
	KUNIT_ASSERT_EQ(test, pkt.psn, at(base, 3));

	/* The NAK names the WRITE's last packet. */
	f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = at(base, 2);
	f.aeth.syndrome = rmp_aeth_syn_nak(c->code);
	KUNIT_EXPECT_EQ(test, rmp_req_ack(&h.r, 0, &f, &out),
			(unsigned int)(ES | ED | EE));
	KUNIT_EXPECT_EQ(test, h.r.state, RMP_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, 0, &pkt), -EIO);
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(&h.r), 0ULL);

	KUNIT_ASSERT_EQ(test, rmp_req_complete(&h.r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.slot, 0U);
	KUNIT_EXPECT_EQ(test, done.status, RMP_REQ_OK);
	KUNIT_ASSERT_EQ(test, rmp_req_complete(&h.r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.slot, 1U);
	KUNIT_EXPECT_EQ(test, done.kind, RMP_REQ_WRITE);
	KUNIT_EXPECT_EQ(test, done.status, c->status);
	KUNIT_EXPECT_EQ(test, rmp_req_complete(&h.r, &done), -EAGAIN);

	rmp_req_flush(&h.r);
	KUNIT_ASSERT_EQ(test, rmp_req_complete(&h.r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.slot, 2U);
	KUNIT_EXPECT_EQ(test, done.status, RMP_REQ_ERR_FLUSH);
	KUNIT_EXPECT_EQ(test, rmp_req_complete(&h.r, &done), -ENODATA);
}

/* ---- RNR retry 7 ------------------------------------------------------ */

static void rmp_req_ack__rnr_infinite(struct kunit *test)
{
	const struct rmp_req_cfg cfg = CFG(RC, 0, 7, 8, 2, 16, 0);
	struct rmp_hdr_fields f = {};
	struct rmp_req_done done;
	struct rmp_req_pkt pkt;
	struct rmp_req_rsp out;
	u64 now = 5;
	int i;

	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, 8, &cfg, 0xffffff), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_SEND, 10, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, now, &pkt), 0);
	f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = 0xffffff;
	for (i = 0; i < 300; i++) {
		f.aeth.syndrome = rmp_aeth_syn_rnr(i % 32);
		KUNIT_ASSERT_EQ(test, rmp_req_ack(&h.r, now, &f, &out), 0U);
		KUNIT_ASSERT_EQ(test, rmp_req_deadline(&h.r),
				now + rmp_req_rnr_ns(i % 32));
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, now, &pkt), -EAGAIN);
		now = rmp_req_deadline(&h.r);
		KUNIT_ASSERT_EQ(test, rmp_req_timer(&h.r, now),
				(unsigned int)ES);
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, now, &pkt), 0);
		KUNIT_ASSERT_EQ(test, pkt.psn, 0xffffffU);
		KUNIT_ASSERT_TRUE(test, pkt.retry);
	}
	KUNIT_EXPECT_EQ(test, h.r.stats.rnr_naks, 300ULL);
	f.aeth.syndrome = rmp_aeth_syn_ack(0);
	KUNIT_EXPECT_EQ(test, rmp_req_ack(&h.r, now, &f, &out),
			(unsigned int)(ES | ED));
	KUNIT_ASSERT_EQ(test, rmp_req_complete(&h.r, &done), 0);
	KUNIT_EXPECT_EQ(test, done.status, RMP_REQ_OK);
}

/* ---- Helpers and setup ------------------------------------------------ */

static void rmp_req_udp_sport__convention(struct kunit *test)
{
	/* Reference values computed independently. */
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0, 0x11, 0x12), 0xc132);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0, 0xabcdef, 0x123456),
			0xc3c8);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0, 0x123456, 0xabcdef),
			0xc3c8);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0, 0xffffff, 0xffffff),
			0xff21);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0, 1, 0), 0xc000);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0xfffff, 1, 2), 0xffc0);
	KUNIT_EXPECT_EQ(test, rmp_req_udp_sport(0x12345, 0, 0), 0xe341);
}

static void rmp_req_timers__codes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rmp_req_timeout_ns(0), 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_timeout_ns(1), 8192ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_timeout_ns(8), T);
	KUNIT_EXPECT_EQ(test, rmp_req_timeout_ns(14), 67108864ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_timeout_ns(31), 8796093022208ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(0), 655360000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(1), 10000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(5), 60000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(14), 1280000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(18), 5120000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(25), 61440000ULL);
	KUNIT_EXPECT_EQ(test, rmp_req_rnr_ns(31), 491520000ULL);
}

struct init_case {
	const char *name;
	struct rmp_req_cfg cfg;
	u32 nslots;
	int err;
};

#define ICFG(q, mtu_, retry, rnr, tmo, win)				\
	{ .qpt = RMP_QPT_##q, .mtu = (mtu_), .retry_cnt = (retry),	\
	  .rnr_retry = (rnr), .timeout = (tmo), .max_inflight = (win) }

static const struct init_case init_cases[] = {
	{ "RC", ICFG(RC, 1024, 7, 7, 31, 0), 8, 0 },
	{ "UD", ICFG(UD, 4096, 0, 0, 0, 0), 1, 0 },
	{ "UC", ICFG(UC, 256, 0, 0, 0, 0), 2, 0 },
	{ "largest window", ICFG(RC, 256, 7, 7, 14, RMP_REQ_INFLIGHT_MAX), 8,
	  0 },
	{ "largest ring", ICFG(RC, 1024, 7, 7, 14, 0), RMP_REQ_RING_MAX, 0 },
	{ "RD", ICFG(RD, 1024, 7, 7, 14, 0), 8, -EINVAL },
	{ "no type", ICFG(NONE, 1024, 7, 7, 14, 0), 8, -EINVAL },
	{ "mtu 128", ICFG(RC, 128, 7, 7, 14, 0), 8, -EINVAL },
	{ "mtu 8192", ICFG(RC, 8192, 7, 7, 14, 0), 8, -EINVAL },
	{ "mtu 1500", ICFG(RC, 1500, 7, 7, 14, 0), 8, -EINVAL },
	{ "retry 8", ICFG(RC, 1024, 8, 7, 14, 0), 8, -EINVAL },
	{ "rnr retry 8", ICFG(RC, 1024, 7, 8, 14, 0), 8, -EINVAL },
	{ "timeout 32", ICFG(RC, 1024, 7, 7, 32, 0), 8, -EINVAL },
	{ "window too large", ICFG(RC, 1024, 7, 7, 14,
				   RMP_REQ_INFLIGHT_MAX + 1), 8, -EINVAL },
	{ "ring 0", ICFG(RC, 1024, 7, 7, 14, 0), 0, -EINVAL },
	{ "ring 6", ICFG(RC, 1024, 7, 7, 14, 0), 6, -EINVAL },
	{ "ring too large", ICFG(RC, 1024, 7, 7, 14, 0),
	  2 * RMP_REQ_RING_MAX, -EINVAL },
};

static void init_desc(const struct init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(init, init_cases, init_desc);

static struct rmp_req_wqe big_ring[RMP_REQ_RING_MAX];

static void rmp_req_init__validates(struct kunit *test)
{
	const struct init_case *c = test->param_value;
	struct rmp_req r;

	memset(&r, 0xa5, sizeof(r));
	KUNIT_EXPECT_EQ(test, rmp_req_init(&r, big_ring, c->nslots, &c->cfg,
					   0x1abcdef), c->err);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, r.mask, 0xa5a5a5a5U);
		return;
	}
	KUNIT_EXPECT_EQ(test, r.mask, c->nslots - 1);
	KUNIT_EXPECT_EQ(test, r.una, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, r.next_psn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, r.max_inflight,
			c->cfg.max_inflight ?: RMP_REQ_INFLIGHT_DEFAULT);
	KUNIT_EXPECT_EQ(test, r.ack_every, RMP_REQ_ACK_EVERY_DEFAULT);
	KUNIT_EXPECT_EQ(test, r.retries_left, c->cfg.retry_cnt);
	KUNIT_EXPECT_EQ(test, r.rnr_left, c->cfg.rnr_retry);
	KUNIT_EXPECT_EQ(test, r.state, RMP_REQ_RUN);
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(&r), 0ULL);
}

/* A 2 GiB WRITE at MTU 256 spans 2^23 PSNs, half the PSN space. */
static void rmp_req_post__largest_message(struct kunit *test)
{
	struct rmp_req_cfg cfg = ICFG(RC, 256, 7, 7, 14,
				      RMP_REQ_INFLIGHT_MAX);
	struct rmp_hdr_fields f = {};
	struct rmp_req_done done;
	struct rmp_req_pkt pkt;
	struct rmp_req_rsp out;
	u32 i, base = 0xfffff0;

	cfg.max_rd_atomic = 1;
	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, 8, &cfg, base), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_WRITE, BIT(31), 0),
			0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_READ, BIT(31), 0),
			1);
	KUNIT_EXPECT_EQ(test, h.ring[0].npsn, RMP_REQ_INFLIGHT_MAX);
	KUNIT_EXPECT_EQ(test, h.ring[1].first_psn, at(base, 1 << 23));
	for (i = 0; i < RMP_REQ_INFLIGHT_MAX; i++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 0, &pkt), 0);
		if (pkt.psn != at(base, i) || pkt.offset != i * 256)
			KUNIT_ASSERT_EQ(test, pkt.psn, at(base, i));
	}
	KUNIT_EXPECT_EQ(test, pkt.pos, RMP_REQ_LAST);
	KUNIT_EXPECT_TRUE(test, pkt.ackreq);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, 0, &pkt), -EAGAIN);

	/* A response for the oldest PSN is neither stale nor a ghost. */
	f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = base;
	KUNIT_EXPECT_EQ(test, rmp_req_ack(&h.r, 0, &f, &out),
			(unsigned int)ES);
	f.bth.psn = at(base, RMP_REQ_INFLIGHT_MAX - 1);
	KUNIT_EXPECT_EQ(test, rmp_req_ack(&h.r, 0, &f, &out),
			(unsigned int)(ES | ED));
	KUNIT_ASSERT_EQ(test, rmp_req_complete(&h.r, &done), 0);
	KUNIT_EXPECT_EQ(test, h.r.stats.ghost_rsps + h.r.stats.dup_rsps, 0ULL);

	/* The READ asks for everything at once. */
	KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.psn, at(base, 1 << 23));
	KUNIT_EXPECT_EQ(test, pkt.len, 0x80000000U);
	KUNIT_EXPECT_EQ(test, rmp_req_post(&h.r, RMP_REQ_SEND, 1, 0), 2);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, 0, &pkt), -EAGAIN);
}

/*
 * A pacer at 100 Mbit/s holds a 1 MiB WRITE to its rate: a burst of its
 * bucket, then a packet whenever rmp_req_deadline() says, never earlier;
 * once nothing waits for it, the pacer sets no timer.
 */
static void rmp_req_next__paced(struct kunit *test)
{
	struct rmp_req_cfg cfg = ICFG(RC, 1024, 7, 7, 20, 1024);
	const u64 line = 100000, t0 = 1000;
	u64 now = t0, wire = 0, burst = 0, deadline, want;
	struct rmp_dcqcn_cfg dcfg;
	struct rmp_dcqcn d;
	struct rmp_req_pkt pkt;
	u32 sent = 0;
	int err;

	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, 8, &cfg, 0), 0);
	rmp_dcqcn_cfg_default(&dcfg, line);
	rmp_dcqcn_init(&d, &dcfg, now);
	rmp_req_pace(&h.r, &d);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_WRITE, 1 << 20, 0),
			0);
	while (sent < 1024) {
		err = rmp_req_next(&h.r, now, &pkt);
		if (!err) {
			KUNIT_ASSERT_EQ(test, pkt.psn, sent);
			wire += pkt.len + RMP_REQ_PKT_OVERHEAD;
			if (now == t0)
				burst = wire;
			sent++;
			continue;
		}
		KUNIT_ASSERT_EQ(test, err, -EAGAIN);
		deadline = rmp_req_deadline(&h.r);
		/* The ACK timeout is further off than the pacer. */
		KUNIT_ASSERT_GT(test, deadline, now);
		KUNIT_ASSERT_LT(test, deadline, h.r.deadline);
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, deadline - 1, &pkt),
				-EAGAIN);
		now = deadline;
	}
	/* The bucket went at once, a packet more at most. */
	KUNIT_EXPECT_GE(test, burst, dcfg.burst_bytes);
	KUNIT_EXPECT_LT(test, burst, dcfg.burst_bytes + 1024 +
					RMP_REQ_PKT_OVERHEAD);
	/* The rest at the line rate (kbit/s: bits per ms), within 1%. */
	want = (wire - burst) * 8 * 1000000 / line;
	KUNIT_EXPECT_GE(test, now - t0, want * 99 / 100);
	KUNIT_EXPECT_LE(test, now - t0, want * 101 / 100);
	/* Everything sent: only the ACK timeout is left to wait for. */
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, now, &pkt), -ENODATA);
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(&h.r), h.r.deadline);
}

/*
 * With receiver credit, a burst sends its unscheduled budget, then waits
 * and asks; a grant lets exactly that much more go; a READ needs none.
 */
static void rmp_req_next__on_credit(struct kunit *test)
{
	struct rmp_req_cfg cfg = ICFG(RC, 1024, 7, 7, 20, 1024);
	struct rmp_credit_tx tx;
	struct rmp_req_pkt pkt;
	u32 base = 0xfffffe, i;

	cfg.max_rd_atomic = 1;
	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, rmp_req_init(&h.r, h.ring, 8, &cfg, base), 0);
	rmp_credit_tx_init(&tx, 4, 100 * 1000, base);
	rmp_req_credit(&h.r, &tx);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_WRITE, 10 * 1024, 0),
			0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&h.r, RMP_REQ_READ, 4096, 0), 1);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 10, &pkt), 0);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, 10, &pkt), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, tx.ask);
	/* It asks for everything posted, the READ's PSNs included. */
	KUNIT_EXPECT_EQ(test, tx.want, at(base, 10 + 4));
	rmp_credit_tx_asked(&tx, 10);
	KUNIT_EXPECT_EQ(test, rmp_req_deadline(&h.r), 10 + 100 * 1000ULL);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, at(base, 7),
						  h.r.post_psn, 20), 0);
	for (i = 4; i < 7; i++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 20, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.psn, at(base, i));
	}
	KUNIT_EXPECT_EQ(test, rmp_req_next(&h.r, 20, &pkt), -EAGAIN);
	KUNIT_EXPECT_EQ(test, rmp_credit_tx_grant(&tx, at(base, 10),
						  h.r.post_psn, 30), 0);
	for (i = 7; i < 10; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 30, &pkt), 0);
	/* The READ goes past the limit: the receiver gets no data from it. */
	KUNIT_ASSERT_EQ(test, rmp_req_next(&h.r, 30, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, RMP_REQ_READ);
	KUNIT_EXPECT_EQ(test, pkt.psn, at(base, 10));
	KUNIT_EXPECT_EQ(test, tx.stalls, 2ULL);
}

/* ---- Send spraying ---------------------------------------------------- */

#define SP_SLOTS	128U
#define SP_PATHS	4

/* A requester with a path set and a scoreboard, too big for the stack. */
struct sp_req {
	struct rmp_req r;
	struct rmp_req_wqe ring[SP_SLOTS];
	struct rmp_paths ps;
	struct rmp_sb sb;
	struct rmp_sb_rec rec[RMP_RXWIN_MAX];
};

static struct sp_req *sp_req_setup(struct kunit *test, u32 sq_psn,
				   bool multipath, bool send_spray)
{
	const struct rmp_req_cfg cfg = CFG(RC, 3, 2, 8, 2, 256, 0);
	struct rmp_paths_cfg pcfg = {
		.npaths = SP_PATHS, .spray = RMP_SPRAY_RR, .seed = 0x11,
		.dead_after_ns = T, .probe_every_ns = T,
	};
	struct sp_req *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, rmp_req_init(&e->r, e->ring, SP_SLOTS, &cfg,
					   sq_psn), 0);
	pcfg.sport = e->r.sport;
	KUNIT_ASSERT_EQ(test, rmp_paths_init(&e->ps, &pcfg), 0);
	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->sb, e->rec, RMP_RXWIN_MAX), 0);
	if (multipath)
		KUNIT_ASSERT_EQ(test, rmp_req_multipath(&e->r, &e->ps, &e->sb),
				0);
	if (send_spray)
		KUNIT_ASSERT_EQ(test, rmp_req_send_spray(&e->r), 0);
	return e;
}

/* Whether @sport is the entropy of one of the path set's paths. */
static bool sp_on_a_path(const struct sp_req *e, u16 sport)
{
	u32 i;

	for (i = 0; i < SP_PATHS; i++)
		if (e->ps.path[i].sport == sport)
			return true;
	return false;
}

/*
 * An ACK of everything up to @psn, as a standard responder sends it,
 * received at @now.
 */
static void sp_req_ack(struct kunit *test, struct sp_req *e, u32 psn,
		       u64 now)
{
	struct rmp_hdr_fields f = {};
	struct rmp_req_rsp rsp;

	f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
	f.bth.psn = psn;
	f.aeth.syndrome = SYN_ACK;
	rmp_req_ack(&e->r, now, &f, &rsp);
	KUNIT_ASSERT_EQ(test, rsp.action, (u32)RMP_REQ_RSP_ACK);
}

/*
 * Every WQE learns at post how many messages that take a receive WQE
 * (SENDs, WRITEs with immediate data) were posted before it; a post
 * refused counts for nothing, and the count wraps at 2^24.
 */
static void rmp_req_post__ssn_counts_receive_wqes(struct kunit *test)
{
	static const struct {
		u8 kind;
		u32 len;
		u32 flags;
		u32 ssn;
	} wqes[] = {
		{ RMP_REQ_SEND, 10, 0, 0 },
		{ RMP_REQ_WRITE, 10, 0, 1 },
		{ RMP_REQ_WRITE, 10, RMP_REQ_F_IMM, 1 },
		{ RMP_REQ_READ, 10, 0, 2 },
		{ RMP_REQ_SEND, 0, RMP_REQ_F_IMM, 2 },
		{ RMP_REQ_ATOMIC, 8, 0, 3 },
		{ RMP_REQ_ATOMIC_WRITE, 8, 0, 3 },
		{ RMP_REQ_LOCAL, 0, RMP_REQ_F_FENCE, 3 },
		{ RMP_REQ_WRITE, 3 * MTU, RMP_REQ_F_FENCE, 3 },
		{ RMP_REQ_SEND, 5 * MTU, RMP_REQ_F_FENCE, 3 },
		{ RMP_REQ_WRITE, 0, RMP_REQ_F_IMM, 4 },
		{ RMP_REQ_SEND, 1, 0, 5 },
	};
	struct sp_req *e = sp_req_setup(test, 0, false, false);
	int slot;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(wqes); i++) {
		slot = rmp_req_post(&e->r, wqes[i].kind, wqes[i].len,
				    wqes[i].flags);
		KUNIT_ASSERT_EQ_MSG(test, slot, (int)i, "WQE %u", i);
		KUNIT_EXPECT_EQ_MSG(test, e->ring[slot].ssn, wqes[i].ssn,
				    "WQE %u", i);
	}
	KUNIT_EXPECT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, BIT(7)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_req_post(&e->r, RMP_REQ_ATOMIC_WRITE, 16, 0),
			-EINVAL);
	slot = rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0);
	KUNIT_ASSERT_GE(test, slot, 0);
	KUNIT_EXPECT_EQ(test, e->ring[slot].ssn, 6U);

	e = sp_req_setup(test, 0, false, false);
	e->r.post_ssn = 0xfffffe;
	for (i = 0; i < 3; i++) {
		slot = rmp_req_post(&e->r, i == 1 ? RMP_REQ_WRITE : RMP_REQ_SEND,
				    1, i == 1 ? RMP_REQ_F_IMM : 0);
		KUNIT_ASSERT_GE(test, slot, 0);
		KUNIT_EXPECT_EQ_MSG(test, e->ring[slot].ssn,
				    rmp_psn_add(0xfffffe, i), "WQE %u", i);
	}
}

struct piece_case {
	const char *name;
	u32 len;
};

static const struct piece_case piece_cases[] = {
	{ "empty SEND", 0 },
	{ "one byte", 1 },
	{ "one MTU", MTU },
	{ "one MTU and a byte", MTU + 1 },
	{ "three MTUs", 3 * MTU },
	{ "five MTUs less a byte", 5 * MTU - 1 },
};

static void piece_desc(const struct piece_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(piece, piece_cases, piece_desc);

/*
 * The pieces of the sprayed message of @len bytes at @slot, @kind a SEND
 * or a WRITE with immediate data, from @psn on, taken from the requester
 * one by one: first sent, each on a path of the set, with the message's
 * SSN @ssn, its offset and its length (at most an MTU); a SEND's marked
 * FIRST and LAST (a one-packet SEND both), a WRITE's each RDMA WRITE
 * ONLY, the one ending it (it carries the immediate data) its last; the
 * last asks for an ACK.
 */
static void sp_expect_pieces(struct kunit *test, struct sp_req *e, u32 slot,
			     u8 kind, u32 psn, u32 len, u32 ssn)
{
	u32 n = len ? (len + MTU - 1) / MTU : 1, k;
	struct rmp_req_pkt pkt;
	u8 pos;

	for (k = 0; k < n; k++) {
		pos = (k ? 0 : RMP_REQ_FIRST) | (k == n - 1 ? RMP_REQ_LAST : 0);
		KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, 0, &pkt), 0,
				    "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.slot, slot, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.kind, kind, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.psn, at(psn, k), "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.pos,
				    kind == RMP_REQ_SEND ? pos :
				    (u8)RMP_REQ_ONLY, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.offset, k * MTU, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.len,
				    k == n - 1 ? len - k * MTU : MTU,
				    "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.offset + pkt.len == len,
				    k == n - 1, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.ssn, ssn, "piece %u", k);
		KUNIT_EXPECT_TRUE_MSG(test, pkt.sprayed, "piece %u", k);
		KUNIT_EXPECT_TRUE_MSG(test, sp_on_a_path(e, pkt.sport),
				      "piece %u", k);
		KUNIT_EXPECT_FALSE_MSG(test, pkt.retry, "piece %u", k);
		if (k == n - 1)
			KUNIT_EXPECT_TRUE(test, pkt.ackreq);
	}
}

/*
 * A sprayed SEND goes in pieces, one per PSN, each on a path of the set:
 * the first marked FIRST, the last LAST (a one-packet SEND both), each
 * with the WQE's SSN, its offset and its length, at most an MTU; the
 * last asks for an ACK. PSNs wrap on the way. The WRITE with immediate
 * before it, sprayed too (a WRITE ONLY with the SSN it takes), counts in
 * its SSN; the plain WRITE between does not.
 */
static void rmp_req_next__sprayed_send_pieces(struct kunit *test)
{
	const struct piece_case *c = test->param_value;
	u32 base = 0xfffffc, n = c->len ? (c->len + MTU - 1) / MTU : 1, k;
	struct sp_req *e = sp_req_setup(test, base, true, true);
	struct rmp_req_pkt pkt;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 4,
					   RMP_REQ_F_IMM), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 2 * MTU, 0),
			1);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, c->len, 0), 2);

	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 0U);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_WRITE);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_ONLY);
	KUNIT_EXPECT_EQ(test, pkt.ssn, 0U);
	KUNIT_EXPECT_EQ(test, pkt.offset, 0U);
	KUNIT_EXPECT_EQ(test, pkt.len, 4U);
	KUNIT_EXPECT_TRUE(test, pkt.ackreq);
	for (k = 0; k < 2; k++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.slot, 1U);
		KUNIT_EXPECT_TRUE(test, pkt.sprayed);
		KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_ONLY);
	}
	sp_expect_pieces(test, e, 2, RMP_REQ_SEND, at(base, 3), c->len, 1);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
	KUNIT_EXPECT_EQ(test, e->r.stats.sprayed, 3ULL + n);
}

/*
 * Sprayed SENDs go while fewer than RMP_SPETH_MSGS messages that take a
 * receive WQE lie between them and the oldest WQE not acknowledged; the
 * sprayed WRITEs between do not count. Each acknowledged SEND lets one
 * more go.
 */
static void rmp_req_next__sprayed_sends_bounded(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, true);
	struct rmp_req_pkt pkt;
	u32 i, psn, ssn;

	for (i = 0; i < RMP_SPETH_MSGS + 22; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r,
						   i < 32 || i >= 42 ?
						   RMP_REQ_SEND : RMP_REQ_WRITE,
						   1, 0), (int)i);
	/* 32 SENDs, 10 WRITEs, then SENDs up to SSN 63 of 75. */
	for (psn = 0, ssn = 0; psn < RMP_SPETH_MSGS + 10; psn++) {
		KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, 0, &pkt), 0,
				    "PSN %u", psn);
		KUNIT_ASSERT_EQ(test, pkt.psn, psn);
		KUNIT_EXPECT_TRUE(test, pkt.sprayed);
		if (pkt.kind == RMP_REQ_SEND)
			KUNIT_EXPECT_EQ(test, pkt.ssn, ssn++);
	}
	KUNIT_EXPECT_EQ(test, ssn, RMP_SPETH_MSGS);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);

	/* The first SEND acknowledged: SSN 64 goes, SSN 65 waits. */
	sp_req_ack(test, e, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_SEND);
	KUNIT_EXPECT_EQ(test, pkt.ssn, RMP_SPETH_MSGS);
	KUNIT_EXPECT_EQ(test, pkt.psn, RMP_SPETH_MSGS + 10);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);

	/* Up to the last WRITE: the oldest WQE left is SEND 32. */
	sp_req_ack(test, e, 41, 0);
	for (i = 0; i < 11; i++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.ssn, RMP_SPETH_MSGS + 1 + i);
	}
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
}

/*
 * SENDs begun before rmp_req_send_spray() finish whole, on the QP's own
 * path; those posted and not begun yet are sprayed.
 */
static void rmp_req_send_spray__sends_begun_stay_whole(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_req_pkt pkt;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 2 * MTU, 0),
			0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, MTU + 1, 0),
			1);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_FIRST);
	KUNIT_EXPECT_FALSE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, pkt.sport, e->r.sport);

	KUNIT_ASSERT_EQ(test, rmp_req_send_spray(&e->r), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 0U);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_LAST);
	KUNIT_EXPECT_FALSE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, pkt.sport, e->r.sport);

	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 1U);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_FIRST);
	KUNIT_EXPECT_EQ(test, pkt.ssn, 1U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_LAST);
	KUNIT_EXPECT_EQ(test, pkt.offset, MTU);
	KUNIT_EXPECT_EQ(test, pkt.len, 1U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, e->r.stats.sprayed, 2ULL);
}

/*
 * Send spraying is a kind of multipath: refused without a path set, and
 * the refusal leaves SENDs whole even once the QP sprays its WRITEs.
 */
static void rmp_req_send_spray__needs_multipath(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, false, false);
	struct rmp_req_pkt pkt;

	KUNIT_EXPECT_EQ(test, rmp_req_send_spray(&e->r), -EINVAL);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_FALSE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_ONLY);
	sp_req_ack(test, e, 0, 0);

	KUNIT_ASSERT_EQ(test, rmp_req_multipath(&e->r, &e->ps, &e->sb), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0), 1);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 1, 0), 2);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 1U);
	KUNIT_EXPECT_FALSE(test, pkt.sprayed);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 2U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
}

/* A message of three pieces, sent again after an ACK timeout. */
struct again_case {
	const char *name;
	u8 kind;
};

static const struct again_case again_cases[] = {
	{ "SEND with immediate data", RMP_REQ_SEND },
	{ "WRITE with immediate data", RMP_REQ_WRITE },
};

static void again_desc(const struct again_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(again, again_cases, again_desc);

/*
 * After an ACK timeout the pieces go again from the oldest one not
 * acknowledged as they went: same SSN, offsets, lengths and places in
 * the message (a SEND's FIRST and LAST, a WRITE's WRITE ONLYs), sprayed,
 * marked as retransmissions.
 */
static void rmp_req_timer__pieces_go_again_as_pieces(struct kunit *test)
{
	const struct again_case *c = test->param_value;
	struct sp_req *e = sp_req_setup(test, 0x7ffffe, true, true);
	struct rmp_req_pkt pkt;
	u8 pos;
	u32 k;
	u64 now;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 7, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, c->kind, 3 * MTU - 5,
					   RMP_REQ_F_IMM), 1);
	for (k = 0; k < 4; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
	sp_req_ack(test, e, 0x7ffffe, 0);

	now = rmp_req_deadline(&e->r);
	KUNIT_ASSERT_GT(test, now, 0ULL);
	rmp_req_timer(&e->r, now);
	for (k = 0; k < 3; k++) {
		pos = !k ? RMP_REQ_FIRST : k == 2 ? RMP_REQ_LAST : 0;
		KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, now, &pkt), 0,
				    "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.psn, 0x7fffffU + k, "piece %u",
				    k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.slot, 1U, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.kind, c->kind, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.pos,
				    c->kind == RMP_REQ_SEND ? pos :
				    (u8)RMP_REQ_ONLY, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.offset, k * MTU, "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.len, k == 2 ? MTU - 5 : MTU,
				    "piece %u", k);
		KUNIT_EXPECT_EQ_MSG(test, pkt.ssn, 1U, "piece %u", k);
		KUNIT_EXPECT_TRUE_MSG(test, pkt.sprayed, "piece %u", k);
		KUNIT_EXPECT_TRUE_MSG(test, pkt.retry, "piece %u", k);
	}
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, now, &pkt), -ENODATA);
}

/*
 * The ACK timer runs while sprayed packets are in flight, even when none
 * leaves: after a timeout the lost pieces went again, then a late ACK
 * caught up with the cursor, which steps over the rest, still in flight.
 * Were they lost too, only the timer could send them again.
 */
static void rmp_req_timer__runs_while_sprayed_in_flight(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, true);
	struct rmp_req_pkt pkt;
	u64 timeouts, now;
	u32 k;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 4 * MTU, 0), 0);
	for (k = 0; k < 4; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	now = e->r.deadline;
	KUNIT_ASSERT_GT(test, now, 0ULL);
	rmp_req_timer(&e->r, now);
	for (k = 0; k < 4; k++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt), 0);
		KUNIT_EXPECT_TRUE(test, pkt.retry);
	}
	sp_req_ack(test, e, 1, now);
	KUNIT_EXPECT_EQ(test, e->r.una, 2U);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, now, &pkt), -ENODATA);
	KUNIT_ASSERT_NE(test, e->r.deadline, 0ULL);

	timeouts = e->r.stats.timeouts;
	rmp_req_timer(&e->r, e->r.deadline);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, timeouts + 1);
	for (k = 2; k < 4; k++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.psn, k);
		KUNIT_EXPECT_TRUE(test, pkt.retry);
	}
}

/*
 * A sprayed WRITE twice the window, with as many scoreboard records as
 * the window has PSNs: when the window is full, the next PSN's record is
 * that of the oldest, still in flight, and must not pass for known. Every
 * PSN leaves once, in order, fresh, as the window opens one at a time;
 * PSNs wrap on the way.
 */
static void rmp_req_next__full_window_sends_on(struct kunit *test)
{
	const u32 base = 0xffffe0, win = 64, n = 2 * win;
	struct sp_req *e = sp_req_setup(test, base, false, false);
	struct rmp_req_pkt pkt;
	u32 k;

	KUNIT_ASSERT_EQ(test, rmp_sb_init(&e->sb, e->rec, win), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_multipath(&e->r, &e->ps, &e->sb), 0);
	KUNIT_ASSERT_EQ(test, e->r.max_inflight, win);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, n * MTU, 0),
			0);
	for (k = 0; k < n; k++) {
		if (k >= win) {
			KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, 0, &pkt),
					    -EAGAIN, "PSN %u", k);
			sp_req_ack(test, e, rmp_psn_add(base, k - win), 0);
		}
		KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, 0, &pkt), 0,
				    "PSN %u", k);
		KUNIT_EXPECT_EQ(test, pkt.psn, rmp_psn_add(base, k));
		KUNIT_EXPECT_FALSE(test, pkt.retry);
		KUNIT_EXPECT_TRUE(test, sp_on_a_path(e, pkt.sport));
	}
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
	sp_req_ack(test, e, rmp_psn_add(base, n - 1), 0);
	KUNIT_EXPECT_EQ(test, e->r.una, rmp_psn_add(base, n));
	KUNIT_EXPECT_EQ(test, e->r.deadline, 0ULL);
}

/*
 * Round trips of @rtt learnt on every path: 8 WRITEs of one packet a
 * path, from @now, each acknowledged @rtt after it left. Return: the time
 * after them.
 */
static u64 sp_learn_rtt(struct kunit *test, struct sp_req *e, u64 now,
			u64 rtt)
{
	struct rmp_req_pkt pkt;
	u32 k, round;

	for (round = 0; round < 8; round++, now += 2 * rtt) {
		KUNIT_ASSERT_GE(test, rmp_req_post(&e->r, RMP_REQ_WRITE,
						   SP_PATHS * MTU, 0), 0);
		for (k = 0; k < SP_PATHS; k++)
			KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt),
					0);
		sp_req_ack(test, e, pkt.psn, now + rtt);
	}
	return now;
}

/*
 * A sprayed PSN lost with nothing after it on its path: the SACKs of the
 * PSNs sent after it on the other paths say nothing of it, but the timer
 * the scoreboard asks for, well before the ACK timeout, finds it overdue,
 * and it goes again, alone.
 */
static void rmp_req_timer__overdue_psn_sent_again(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_hdr_fields f = {};
	struct rmp_req_pkt pkt;
	struct rmp_sack sack = {};
	u64 now, due;
	u32 k;

	now = sp_learn_rtt(test, e, 0, 100 * US);
	KUNIT_ASSERT_EQ(test, e->r.una, 32U);

	/* PSNs 32..39; 37, the last on its path, is missing. */
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 8 * MTU, 0),
			8);
	for (k = 0; k < 8; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt), 0);
	f.bth.opcode = RMP_OP_EXT_SACK;
	f.bth.psn = 36;
	f.aeth.syndrome = SYN_ACK;
	sack.cum_ack = 36;
	sack.bitmap[0] = 3;		/* 38, 39 */
	sack.highest = 39;
	sack.nbits = rmp_sack_nbits(36, 39);
	rmp_req_sack(&e->r, now + 100 * US, &f, &sack, NULL);
	KUNIT_EXPECT_EQ(test, e->r.una, 37U);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, now + 100 * US, &pkt),
			-ENODATA);

	due = rmp_req_deadline(&e->r);
	KUNIT_EXPECT_EQ(test, due, e->sb.recheck_ns);
	KUNIT_EXPECT_GT(test, due, now + 100 * US);
	KUNIT_EXPECT_LT(test, due, now + e->r.timeout_ns);
	rmp_req_timer(&e->r, due);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, due, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.psn, 37U);
	KUNIT_EXPECT_TRUE(test, pkt.retry);
	KUNIT_EXPECT_TRUE(test, sp_on_a_path(e, pkt.sport));
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, due, &pkt), -ENODATA);
}

/*
 * Round trips longer than the QP's local ACK timeout (a queue on the
 * routes): the ACK timer waits the slowest live path's RTT and four
 * deviations instead, and the timeout comes then, not before.
 */
static void rmp_req_timer__ack_timeout_waits_the_round_trip(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_req_pkt pkt;
	u64 now, rto;
	u32 k;

	now = sp_learn_rtt(test, e, 0, 5 * T);
	rto = rmp_paths_wait(&e->ps, 0);
	KUNIT_ASSERT_GT(test, rto, e->r.timeout_ns);
	KUNIT_ASSERT_GE(test, rmp_req_post(&e->r, RMP_REQ_WRITE,
					   SP_PATHS * MTU, 0), 0);
	for (k = 0; k < SP_PATHS; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt), 0);
	KUNIT_EXPECT_EQ(test, e->r.deadline, now + rto);
	rmp_req_timer(&e->r, now + e->r.timeout_ns);
	rmp_req_timer(&e->r, now + rto - 1);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 0ULL);
	rmp_req_timer(&e->r, now + rto);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 1ULL);
}

/*
 * An ACK timeout while packets queue on the routes: what was sent a whole
 * wait ago is lost (three packets on every path, which kills all but the
 * last live one); of the packets sent since, one on every path, those on
 * the paths it killed go again on the path left, and the one on that
 * path stays in flight.
 */
static void rmp_req_timer__ack_timeout_spares_young_packets(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_req_pkt pkt;
	u32 k, again = 0, live;
	u64 now, wait;
	int rc;

	now = sp_learn_rtt(test, e, 0, T / 8);
	wait = rmp_paths_wait(&e->ps, e->r.timeout_ns);
	KUNIT_ASSERT_GE(test, rmp_req_post(&e->r, RMP_REQ_WRITE,
					   3 * SP_PATHS * MTU, 0), 0);
	for (k = 0; k < 3 * SP_PATHS; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now, &pkt), 0);
	KUNIT_ASSERT_GE(test, rmp_req_post(&e->r, RMP_REQ_WRITE,
					   SP_PATHS * MTU, 0), 0);
	for (k = 0; k < SP_PATHS; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, now + wait / 2, &pkt),
				0);
	KUNIT_ASSERT_EQ(test, e->r.deadline, now + wait);
	rmp_req_timer(&e->r, now + wait);
	KUNIT_EXPECT_EQ(test, e->r.stats.timeouts, 1ULL);
	/* One path left alive. */
	KUNIT_ASSERT_NE(test, e->ps.live_mask, 0ULL);
	KUNIT_ASSERT_EQ(test, e->ps.live_mask & (e->ps.live_mask - 1), 0ULL);
	live = rmp_paths_nth_live(&e->ps, 0);
	while ((rc = rmp_req_next(&e->r, now + wait, &pkt)) == 0) {
		KUNIT_EXPECT_TRUE(test, pkt.retry);
		KUNIT_EXPECT_EQ(test, pkt.sport, e->ps.path[live].sport);
		again++;
	}
	KUNIT_EXPECT_EQ(test, rc, -ENODATA);
	KUNIT_EXPECT_EQ(test, again, 4 * SP_PATHS - 1);
}

/*
 * A probe of a dead path may take as long as the live paths' round trips
 * explain when that is longer than a probe period: it is lost then, not
 * one period after it left.
 */
static void rmp_req_timer__probe_waits_the_round_trip(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_req_pkt pkt;
	u64 now, rto, sent;
	u32 k;

	now = sp_learn_rtt(test, e, 0, 5 * T);
	rto = rmp_paths_wait(&e->ps, 0);
	KUNIT_ASSERT_GT(test, rto, e->ps.cfg.probe_every_ns);
	rmp_paths_silent_kill(&e->ps, 1, now);
	sent = now + e->ps.cfg.probe_every_ns;
	KUNIT_ASSERT_EQ(test, rmp_req_deadline(&e->r), sent);
	rmp_req_timer(&e->r, sent);
	KUNIT_ASSERT_GE(test, rmp_req_post(&e->r, RMP_REQ_WRITE,
					   SP_PATHS * MTU, 0), 0);
	for (k = 0; k < SP_PATHS; k++)
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, sent, &pkt), 0);
	KUNIT_ASSERT_EQ(test, e->sb.nprobes, 1U);
	rmp_req_timer(&e->r, sent + e->ps.cfg.probe_every_ns);
	rmp_req_timer(&e->r, sent + rto - 1);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 1U);
	rmp_req_timer(&e->r, sent + rto);
	KUNIT_EXPECT_EQ(test, e->ps.path[1].stats.lost, 1ULL);
	KUNIT_EXPECT_EQ(test, e->sb.nprobes, 0U);
}

static const struct piece_case wimm_cases[] = {
	{ "empty WRITE", 0 },
	{ "one byte", 1 },
	{ "one MTU", MTU },
	{ "one MTU and a byte", MTU + 1 },
	{ "three MTUs", 3 * MTU },
	{ "five MTUs less a byte", 5 * MTU - 1 },
};

KUNIT_ARRAY_PARAM(wimm, wimm_cases, piece_desc);

/*
 * With send spraying a WRITE with immediate data goes like a sprayed
 * WRITE: one RDMA WRITE ONLY per PSN, each on a path of the set, with its
 * own offset and length (an empty WRITE one packet), and every one names
 * the SSN the WRITE takes, for the SPETH of its last, the one that ends
 * the WRITE (and asks for an ACK). It counts in the SSN of the SEND after
 * it, and PSNs wrap on the way.
 */
static void rmp_req_next__sprayed_write_imm_pieces(struct kunit *test)
{
	const struct piece_case *c = test->param_value;
	u32 base = 0xfffffe, n = c->len ? (c->len + MTU - 1) / MTU : 1;
	struct sp_req *e = sp_req_setup(test, base, true, true);
	struct rmp_req_pkt pkt;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, c->len,
					   RMP_REQ_F_IMM), 1);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0), 2);

	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 0U);
	KUNIT_EXPECT_EQ(test, pkt.ssn, 0U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	sp_expect_pieces(test, e, 1, RMP_REQ_WRITE, at(base, 1), c->len, 1);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 2U);
	KUNIT_EXPECT_EQ(test, pkt.psn, at(base, 1 + n));
	KUNIT_EXPECT_EQ(test, pkt.ssn, 2U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
	KUNIT_EXPECT_EQ(test, e->r.stats.sprayed, 2ULL + n);
}

/*
 * Without send spraying a WRITE with immediate data stays whole, on the
 * QP's own path, after every sprayed PSN before it is acknowledged; one
 * begun when send spraying comes finishes so. The next is sprayed.
 */
static void rmp_req_send_spray__write_imm_whole_before(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, false);
	struct rmp_req_pkt pkt;
	u32 k;

	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 2 * MTU + 1,
					   RMP_REQ_F_IMM), 1);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, MTU,
					   RMP_REQ_F_IMM), 2);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 0U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);
	sp_req_ack(test, e, 0, 0);

	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 1U);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_FIRST);
	KUNIT_EXPECT_FALSE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, pkt.sport, e->r.sport);

	KUNIT_ASSERT_EQ(test, rmp_req_send_spray(&e->r), 0);
	for (k = 1; k < 3; k++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.slot, 1U);
		KUNIT_EXPECT_EQ(test, pkt.pos,
				(u8)(k == 2 ? RMP_REQ_LAST : RMP_REQ_MIDDLE));
		KUNIT_EXPECT_FALSE(test, pkt.sprayed);
		KUNIT_EXPECT_EQ(test, pkt.sport, e->r.sport);
	}

	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.slot, 2U);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_ONLY);
	KUNIT_EXPECT_EQ(test, pkt.ssn, 1U);
	KUNIT_EXPECT_EQ(test, pkt.len, MTU);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, e->r.stats.sprayed, 2ULL);
}

/*
 * The bound on messages that take a receive WQE counts sprayed WRITEs
 * with immediate data like SENDs, and holds them back like SENDs, a
 * WRITE with all its pieces; plain WRITEs between count for nothing.
 */
static void rmp_req_next__sprayed_write_imm_bounded(struct kunit *test)
{
	struct sp_req *e = sp_req_setup(test, 0, true, true);
	struct rmp_req_pkt pkt;
	u32 i, psn, ssn, wimm;

	/* SSN 0 to 63, SENDs and WRITEs with immediate in turn. */
	for (i = 0; i < RMP_SPETH_MSGS; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r,
						   i % 2 ? RMP_REQ_WRITE :
						   RMP_REQ_SEND, 1,
						   i % 2 ? RMP_REQ_F_IMM : 0),
				(int)i);
	for (; i < RMP_SPETH_MSGS + 10; i++)
		KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 1, 0),
				(int)i);
	/* SSN 64, two pieces; SSN 65; SSN 66, empty. */
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 2 * MTU,
					   RMP_REQ_F_IMM), (int)i++);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_SEND, 1, 0),
			(int)i++);
	KUNIT_ASSERT_EQ(test, rmp_req_post(&e->r, RMP_REQ_WRITE, 0,
					   RMP_REQ_F_IMM), (int)i++);

	for (psn = 0, ssn = 0, wimm = 0; psn < RMP_SPETH_MSGS + 10; psn++) {
		KUNIT_ASSERT_EQ_MSG(test, rmp_req_next(&e->r, 0, &pkt), 0,
				    "PSN %u", psn);
		KUNIT_ASSERT_EQ(test, pkt.psn, psn);
		KUNIT_EXPECT_TRUE(test, pkt.sprayed);
		if (psn < RMP_SPETH_MSGS) {
			KUNIT_EXPECT_EQ(test, pkt.ssn, ssn++);
			wimm += pkt.kind == RMP_REQ_WRITE;
		}
	}
	KUNIT_EXPECT_EQ(test, wimm, RMP_SPETH_MSGS / 2);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);

	/* The first SEND acknowledged: both pieces of SSN 64 go. */
	sp_req_ack(test, e, 0, 0);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
		KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_WRITE);
		KUNIT_EXPECT_EQ(test, pkt.ssn, RMP_SPETH_MSGS);
		KUNIT_EXPECT_EQ(test, pkt.offset, i * MTU);
		KUNIT_EXPECT_EQ(test, pkt.psn, RMP_SPETH_MSGS + 10 + i);
	}
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);

	/* The first WRITE with immediate acknowledged: SSN 65 goes. */
	sp_req_ack(test, e, 1, 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_SEND);
	KUNIT_EXPECT_EQ(test, pkt.ssn, RMP_SPETH_MSGS + 1);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -EAGAIN);

	/* Up to the last plain WRITE: the oldest WQE left is SSN 64. */
	sp_req_ack(test, e, RMP_SPETH_MSGS + 9, 0);
	KUNIT_ASSERT_EQ(test, rmp_req_next(&e->r, 0, &pkt), 0);
	KUNIT_EXPECT_EQ(test, pkt.kind, (u8)RMP_REQ_WRITE);
	KUNIT_EXPECT_EQ(test, pkt.ssn, RMP_SPETH_MSGS + 2);
	KUNIT_EXPECT_EQ(test, pkt.psn, RMP_SPETH_MSGS + 13);
	KUNIT_EXPECT_EQ(test, pkt.pos, (u8)RMP_REQ_ONLY);
	KUNIT_EXPECT_EQ(test, pkt.len, 0U);
	KUNIT_EXPECT_TRUE(test, pkt.sprayed);
	KUNIT_EXPECT_EQ(test, rmp_req_next(&e->r, 0, &pkt), -ENODATA);
}

/* ---- Randomized: model responder over a lossy, reordering link -------- */

#define SIM_WQES	1500
#define SIM_RING	32
#define SIM_MTU		256U
#define SIM_LINK	2048

struct sim_case {
	const char *name;
	u32 seed;
	u32 base;
	u32 loss;	/* per 1000, each direction */
	u32 dup;	/* per 1000 */
	u32 jitter;	/* ns added at random; reorders when > spacing */
	u32 rnr;	/* per 1000 SENDs refused with an RNR NAK */
	u32 window;
	u32 corrupt;	/* per 1000 foretold READ responses, found corrupt
			 * as they are placed and dropped
			 */
};

static const struct sim_case sim_cases[] = {
	{ "clean", 1, 0, 0, 0, 0, 0, 64, 0 },
	{ "loss 2%", 2, 0xffff00, 20, 0, 0, 0, 64, 0 },
	{ "loss 10%, small window", 3, 0x7fffa0, 100, 0, 0, 0, 8, 0 },
	{ "reordering", 4, 0xfffff0, 0, 0, 400, 0, 64, 0 },
	{ "duplicates", 5, 0, 0, 50, 150, 0, 32, 0 },
	{ "RNR", 6, 0xffffc0, 0, 0, 0, 50, 64, 0 },
	{ "everything", 7, 0xfffe00, 30, 20, 300, 20, 32, 0 },
	{ "everything, window 1", 8, 0xfffffc, 30, 20, 300, 20, 1, 0 },
	{ "READ responses corrupt", 9, 0xffff80, 10, 0, 100, 0, 32, 100 },
};

static void sim_desc(const struct sim_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(sim, sim_cases, sim_desc);

struct sim_wqe {
	u8 kind;
	u8 flags;
	u32 len;
	u32 got;		/* READ: response packets placed, bitmap */
	u32 spoiled;		/* READ: packets placed corrupt, not since */
	u64 atomic;		/* value stored by the ATOMIC response */
	u32 msg;		/* message number at the responder */
	u32 completions;
};

struct sim_pkt {
	u64 at;
	u64 seq;		/* FIFO among packets due at the same time */
	bool rsp;
	/* request */
	struct rmp_req_pkt req;
	u32 wqe;
	/* response */
	u8 opcode;
	u8 syn;
	u32 psn;
	u32 msn;
	u32 len;
	u64 orig;
};

static struct {
	struct rmp_req r;
	struct rmp_req_wqe ring[SIM_RING];
	u32 slot_wqe[SIM_RING];
	struct sim_wqe w[SIM_WQES];
	struct sim_pkt link[SIM_LINK];
	u32 nlink;
	u64 seq;
	u64 wire_free[2];
	u32 rng;
	u64 now;
	u32 posted;
	u32 completed;
	u32 nmsgs;
	u32 foretold;		/* READ responses rmp_req_will_place() saw */
	u32 spoiled;		/* ... of them dropped as corrupt */

	/* The model responder: an in-order RC responder. */
	u32 epsn;
	u32 msn;
	bool nak_sent;
	u32 msg_off;		/* bytes of the current message received */
	u32 delivered;		/* messages delivered */
	u64 atomic_by_psn[256];	/* replay cache, indexed by PSN % 256 */
} sim;

static u32 sim_rand(void)
{
	/* xorshift32 */
	sim.rng ^= sim.rng << 13;
	sim.rng ^= sim.rng >> 17;
	sim.rng ^= sim.rng << 5;
	return sim.rng;
}

static bool sim_chance(u32 per_mille)
{
	return sim_rand() % 1000 < per_mille;
}

static void sim_send(struct kunit *test, const struct sim_case *c,
		     const struct sim_pkt *p)
{
	u32 copies = 1 + sim_chance(c->dup);
	u64 *wire = &sim.wire_free[p->rsp];

	/* The wire serializes, 100 ns a packet; jitter reorders nearby. */
	if (*wire < sim.now)
		*wire = sim.now;
	*wire += 100;
	while (copies--) {
		if (sim_chance(c->loss))
			continue;
		KUNIT_ASSERT_LT(test, sim.nlink, (u32)SIM_LINK);
		sim.link[sim.nlink] = *p;
		sim.link[sim.nlink].at = *wire + 2000 +
			(c->jitter ? sim_rand() % c->jitter : 0);
		sim.link[sim.nlink].seq = sim.seq++;
		sim.nlink++;
	}
}

static void sim_respond(struct kunit *test, const struct sim_case *c,
			u8 opcode, u8 syn, u32 psn, u32 len, u64 orig)
{
	struct sim_pkt p = {
		.rsp = true, .opcode = opcode, .syn = syn, .psn = psn,
		.msn = sim.msn, .len = len, .orig = orig,
	};

	sim_send(test, c, &p);
}

static void sim_ack(struct kunit *test, const struct sim_case *c)
{
	sim_respond(test, c, RMP_OP_RC_ACKNOWLEDGE, rmp_aeth_syn_ack(0x1f),
		    rmp_psn_sub(sim.epsn, 1), 0, 0);
}

static void sim_read_responses(struct kunit *test, const struct sim_case *c,
			       u32 psn, u32 len)
{
	u32 n = len / SIM_MTU + (len % SIM_MTU || !len);
	u32 i;

	for (i = 0; i < n; i++) {
		u8 op = n == 1 ? RMP_OP_RC_READ_RESPONSE_ONLY :
			!i ? RMP_OP_RC_READ_RESPONSE_FIRST :
			i == n - 1 ? RMP_OP_RC_READ_RESPONSE_LAST :
			RMP_OP_RC_READ_RESPONSE_MIDDLE;
		u32 l = i == n - 1 ? len - i * SIM_MTU : SIM_MTU;

		sim_respond(test, c, op, rmp_aeth_syn_ack(0x1f),
			    rmp_psn_add(psn, i), l, 0);
	}
}

/* The responder receives a request packet. */
static void sim_request(struct kunit *test, const struct sim_case *c,
			const struct sim_pkt *p)
{
	const struct rmp_req_pkt *q = &p->req;
	struct sim_wqe *w = &sim.w[p->wqe];
	s32 d = rmp_psn_diff(q->psn, sim.epsn);

	if (d > 0) {
		if (!sim.nak_sent)
			sim_respond(test, c, RMP_OP_RC_ACKNOWLEDGE,
				    rmp_aeth_syn_nak(RMP_NAK_PSN_SEQ),
				    sim.epsn, 0, 0);
		sim.nak_sent = true;
		return;
	}
	if (d < 0) {
		/* Duplicate: READs and atomics are answered again. */
		if (q->kind == RMP_REQ_READ)
			sim_read_responses(test, c, q->psn, q->len);
		else if (q->kind == RMP_REQ_ATOMIC)
			sim_respond(test, c, RMP_OP_RC_ATOMIC_ACKNOWLEDGE,
				    rmp_aeth_syn_ack(0x1f), q->psn, 0,
				    sim.atomic_by_psn[q->psn % 256]);
		else if (q->kind == RMP_REQ_ATOMIC_WRITE)
			sim_read_responses(test, c, q->psn, 0);
		else
			sim_ack(test, c);	/* C9-105: ACK again */
		return;
	}

	/* In order.  SEND FIRST/ONLY may find no receive WQE. */
	if (q->kind == RMP_REQ_SEND && (q->pos & RMP_REQ_FIRST) &&
	    sim_chance(c->rnr)) {
		sim_respond(test, c, RMP_OP_RC_ACKNOWLEDGE,
			    rmp_aeth_syn_rnr(1 + sim_rand() % 4), q->psn, 0, 0);
		sim.nak_sent = true;
		return;
	}
	sim.nak_sent = false;

	/* Messages reach the responder whole, in order, once. */
	KUNIT_ASSERT_EQ(test, w->msg, sim.delivered);
	KUNIT_ASSERT_EQ(test, (u32)q->kind, (u32)w->kind);
	if (q->kind == RMP_REQ_READ) {
		KUNIT_ASSERT_EQ(test, q->offset, 0U);
		KUNIT_ASSERT_EQ(test, q->len, w->len);
		sim.epsn = rmp_psn_add(sim.epsn, w->len / SIM_MTU +
				       (w->len % SIM_MTU || !w->len));
		sim.msn++;
		sim.delivered++;
		sim_read_responses(test, c, q->psn, q->len);
		return;
	}
	if (q->kind == RMP_REQ_ATOMIC_WRITE) {
		KUNIT_ASSERT_EQ(test, q->len, 8U);
		sim.epsn = rmp_psn_add(sim.epsn, 1);
		sim.msn++;
		sim.delivered++;
		sim_read_responses(test, c, q->psn, 0);
		return;
	}
	if (q->kind == RMP_REQ_ATOMIC) {
		sim.epsn = rmp_psn_add(sim.epsn, 1);
		sim.msn++;
		sim.delivered++;
		sim.atomic_by_psn[q->psn % 256] = 0x1000000000ULL + p->wqe;
		sim_respond(test, c, RMP_OP_RC_ATOMIC_ACKNOWLEDGE,
			    rmp_aeth_syn_ack(0x1f), q->psn, 0,
			    sim.atomic_by_psn[q->psn % 256]);
		return;
	}
	KUNIT_ASSERT_EQ(test, !!(q->pos & RMP_REQ_FIRST), !sim.msg_off);
	KUNIT_ASSERT_EQ(test, q->offset, sim.msg_off);
	sim.msg_off += q->len;
	sim.epsn = rmp_psn_add(sim.epsn, 1);
	if (q->pos & RMP_REQ_LAST) {
		KUNIT_ASSERT_EQ(test, sim.msg_off, w->len);
		sim.msg_off = 0;
		sim.msn++;
		sim.delivered++;
	}
	if (q->ackreq)
		sim_ack(test, c);
}

/* The requester receives a response packet: the kernel's part. */
static void sim_response(struct kunit *test, const struct sim_case *c,
			 const struct sim_pkt *p)
{
	struct rmp_req_rsp out, foretold;
	struct rmp_hdr_fields f = {};
	struct sim_wqe *w;
	bool will;

	f.bth.opcode = p->opcode;
	f.bth.psn = p->psn;
	f.aeth.syndrome = p->syn;
	f.aeth.msn = p->msn;
	f.atmack.orig = p->orig;
	f.payload_len = p->len;
	will = rmp_req_will_place(&sim.r, &f, &foretold);
	/* Placed as the ICRC is checked, which fails: dropped. */
	if (will && c->corrupt && sim_chance(c->corrupt)) {
		w = &sim.w[sim.slot_wqe[foretold.slot]];
		w->spoiled |= 1U << (foretold.offset / SIM_MTU);
		sim.spoiled++;
		return;
	}
	rmp_req_ack(&sim.r, sim.now, &f, &out);
	KUNIT_ASSERT_NE(test, sim.r.state, RMP_REQ_ERROR);
	if (will) {
		KUNIT_ASSERT_EQ(test, memcmp(&foretold, &out, sizeof(out)), 0);
		sim.foretold++;
	}

	switch (out.action) {
	case RMP_REQ_RSP_READ:
		w = &sim.w[sim.slot_wqe[out.slot]];
		KUNIT_ASSERT_EQ(test, (u32)w->kind, (u32)RMP_REQ_READ);
		KUNIT_ASSERT_EQ(test, out.offset % SIM_MTU, 0U);
		KUNIT_ASSERT_EQ(test, out.len, p->len);
		KUNIT_ASSERT_LE(test, out.offset + out.len, w->len);
		w->got |= 1U << (out.offset / SIM_MTU);
		w->spoiled &= ~(1U << (out.offset / SIM_MTU));
		break;
	case RMP_REQ_RSP_ATOMIC:
		w = &sim.w[sim.slot_wqe[out.slot]];
		KUNIT_ASSERT_EQ(test, (u32)w->kind, (u32)RMP_REQ_ATOMIC);
		w->atomic = p->orig;
		break;
	}
}

static void sim_post(struct kunit *test)
{
	while (sim.posted < SIM_WQES) {
		struct sim_wqe *w = &sim.w[sim.posted];
		u32 x = sim_rand() % 100;
		int slot;

		if (x < 30)
			w->kind = RMP_REQ_SEND;
		else if (x < 60)
			w->kind = RMP_REQ_WRITE;
		else if (x < 80)
			w->kind = RMP_REQ_READ;
		else if (x < 88)
			w->kind = RMP_REQ_ATOMIC;
		else if (x < 93)
			w->kind = RMP_REQ_ATOMIC_WRITE;
		else
			w->kind = RMP_REQ_LOCAL;
		w->len = w->kind == RMP_REQ_ATOMIC ||
			 w->kind == RMP_REQ_ATOMIC_WRITE ? 8 :
			 w->kind == RMP_REQ_LOCAL ? 0 : sim_rand() % 3000;
		w->flags = sim_chance(100) ? RMP_REQ_F_FENCE : 0;
		slot = rmp_req_post(&sim.r, w->kind, w->len, w->flags);
		if (slot == -ENOSPC)
			return;
		KUNIT_ASSERT_GE(test, slot, 0);
		KUNIT_ASSERT_EQ(test, (u32)slot, sim.posted % SIM_RING);
		sim.slot_wqe[slot] = sim.posted;
		if (w->kind != RMP_REQ_LOCAL)
			w->msg = sim.nmsgs++;
		sim.posted++;
	}
}

static void sim_complete(struct kunit *test)
{
	struct rmp_req_done done;

	while (!rmp_req_complete(&sim.r, &done)) {
		u32 id = sim.slot_wqe[done.slot];
		struct sim_wqe *w = &sim.w[id];
		u32 n = w->len / SIM_MTU + (w->len % SIM_MTU || !w->len);

		KUNIT_ASSERT_EQ(test, id, sim.completed);
		KUNIT_ASSERT_EQ(test, (u32)done.status, (u32)RMP_REQ_OK);
		KUNIT_ASSERT_EQ(test, (u32)done.kind, (u32)w->kind);
		w->completions++;
		if (w->kind == RMP_REQ_READ) {
			KUNIT_ASSERT_EQ(test, w->got, (u32)((1ULL << n) - 1));
			KUNIT_ASSERT_EQ(test, w->spoiled, 0U);
		}
		if (w->kind == RMP_REQ_ATOMIC)
			KUNIT_ASSERT_EQ(test, w->atomic, 0x1000000000ULL + id);
		sim.completed++;
	}
}

static void rmp_req__random_link(struct kunit *test)
{
	const struct sim_case *c = test->param_value;
	const struct rmp_req_cfg cfg = {
		.qpt = RMP_QPT_RC, .mtu = SIM_MTU, .retry_cnt = 7,
		.rnr_retry = 7, .timeout = 5, .max_rd_atomic = 4,
		.max_inflight = c->window, .ack_every = 8,
		.lqpn = 0x42, .rqpn = 0x43,
	};
	u32 steps = 0, i;

	memset(&sim, 0, sizeof(sim));
	sim.rng = c->seed * 2654435761U + 1;
	sim.now = 1;
	sim.epsn = c->base;
	KUNIT_ASSERT_EQ(test, rmp_req_init(&sim.r, sim.ring, SIM_RING, &cfg,
					   c->base), 0);

	while (sim.completed < SIM_WQES) {
		struct rmp_req_pkt pkt;
		u64 next = 0;
		u32 first = 0;

		KUNIT_ASSERT_LT(test, ++steps, 2000000U);
		sim_post(test);
		while (!rmp_req_next(&sim.r, sim.now, &pkt)) {
			struct sim_pkt p = { .req = pkt };

			if (pkt.kind == RMP_REQ_LOCAL)
				continue;
			p.wqe = sim.slot_wqe[pkt.slot];
			KUNIT_ASSERT_EQ(test, pkt.sport,
					rmp_req_udp_sport(0, 0x42, 0x43));
			sim_send(test, c, &p);
		}
		sim_complete(test);
		if (sim.completed == SIM_WQES)
			break;

		/* Advance to the next event: a delivery or the deadline. */
		for (i = 0; i < sim.nlink; i++) {
			const struct sim_pkt *p = &sim.link[i];

			if (!next || p->at < next ||
			    (p->at == next && p->seq < sim.link[first].seq)) {
				next = p->at;
				first = i;
			}
		}
		if (rmp_req_deadline(&sim.r) &&
		    (!next || rmp_req_deadline(&sim.r) <= next)) {
			sim.now = rmp_req_deadline(&sim.r);
			rmp_req_timer(&sim.r, sim.now);
			KUNIT_ASSERT_NE(test, sim.r.state, RMP_REQ_ERROR);
			continue;
		}
		KUNIT_ASSERT_TRUE_MSG(test, next != 0, "stalled at WQE %u",
				      sim.completed);
		if (next > sim.now)
			sim.now = next;
		{
			struct sim_pkt p = sim.link[first];

			sim.link[first] = sim.link[--sim.nlink];
			if (p.rsp)
				sim_response(test, c, &p);
			else
				sim_request(test, c, &p);
		}
	}

	for (i = 0; i < SIM_WQES; i++)
		KUNIT_ASSERT_EQ(test, sim.w[i].completions, 1U);
	KUNIT_EXPECT_EQ(test, sim.delivered, sim.nmsgs);
	KUNIT_EXPECT_EQ(test, sim.r.una, sim.r.post_psn);
	KUNIT_EXPECT_EQ(test, sim.epsn, sim.r.post_psn);
	/* Every PSN once, however often sent, answered or acknowledged. */
	KUNIT_EXPECT_EQ(test, sim.r.stats.acked,
			(u64)rmp_psn_diff(sim.r.post_psn, c->base));
	if (c->loss)
		KUNIT_EXPECT_GT(test, sim.r.stats.retrans, 0ULL);
	if (!c->loss && !c->jitter && !c->rnr && !c->dup)
		KUNIT_EXPECT_EQ(test, sim.r.stats.retrans, 0ULL);
	KUNIT_EXPECT_GT(test, sim.foretold, 0U);
	if (c->corrupt)
		KUNIT_EXPECT_GT(test, sim.spoiled, 0U);
	kunit_info(test, "%s: %llu packets, %llu resent, %llu timeouts, %llu seq NAKs, %llu RNR NAKs, %llu implicit, %u READ responses foretold, %u corrupt\n",
		   c->name, (unsigned long long)sim.r.stats.pkts,
		   (unsigned long long)sim.r.stats.retrans,
		   (unsigned long long)sim.r.stats.timeouts,
		   (unsigned long long)sim.r.stats.seq_naks,
		   (unsigned long long)sim.r.stats.rnr_naks,
		   (unsigned long long)sim.r.stats.implicit_naks, sim.foretold,
		   sim.spoiled);
}

static struct kunit_case rmp_req_cases[] = {
	KUNIT_CASE(rmp_req_udp_sport__convention),
	KUNIT_CASE(rmp_req_timers__codes),
	KUNIT_CASE_PARAM(rmp_req_init__validates, init_gen_params),
	KUNIT_CASE_PARAM(rmp_req__scenarios, scenario_gen_params),
	KUNIT_CASE_PARAM(rmp_req_ack__remote_errors, nak_gen_params),
	KUNIT_CASE(rmp_req_ack__rnr_infinite),
	KUNIT_CASE(rmp_req_post__largest_message),
	KUNIT_CASE(rmp_req_next__paced),
	KUNIT_CASE(rmp_req_next__on_credit),
	KUNIT_CASE(rmp_req_post__ssn_counts_receive_wqes),
	KUNIT_CASE_PARAM(rmp_req_next__sprayed_send_pieces, piece_gen_params),
	KUNIT_CASE(rmp_req_next__sprayed_sends_bounded),
	KUNIT_CASE(rmp_req_send_spray__sends_begun_stay_whole),
	KUNIT_CASE(rmp_req_send_spray__needs_multipath),
	KUNIT_CASE_PARAM(rmp_req_next__sprayed_write_imm_pieces,
			 wimm_gen_params),
	KUNIT_CASE(rmp_req_send_spray__write_imm_whole_before),
	KUNIT_CASE(rmp_req_next__sprayed_write_imm_bounded),
	KUNIT_CASE_PARAM(rmp_req_timer__pieces_go_again_as_pieces,
			 again_gen_params),
	KUNIT_CASE(rmp_req_timer__runs_while_sprayed_in_flight),
	KUNIT_CASE(rmp_req_next__full_window_sends_on),
	KUNIT_CASE(rmp_req_timer__overdue_psn_sent_again),
	KUNIT_CASE(rmp_req_timer__ack_timeout_waits_the_round_trip),
	KUNIT_CASE(rmp_req_timer__ack_timeout_spares_young_packets),
	KUNIT_CASE(rmp_req_timer__probe_waits_the_round_trip),
	KUNIT_CASE_PARAM(rmp_req__random_link, sim_gen_params),
	{}
};

static struct kunit_suite rmp_req_suite = {
	.name = "rmp_req",
	.test_cases = rmp_req_cases,
};

kunit_test_suites(&rmp_req_suite);
