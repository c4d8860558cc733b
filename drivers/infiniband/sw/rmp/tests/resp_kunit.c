// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the RC responder transport state machine.
 */
#include <kunit/test.h>

#include "../engine/resp.h"

#define MTU		256
#define VA		0x10000ULL
#define RKEY		0x1234
#define NRES_MAX	8

#define SYN_ACK		0x1f
#define SYN_RNR(t)	(0x20 | (t))
#define SYN_SEQ		0x60
#define SYN_INV		0x61
#define SYN_ACC		0x62
#define SYN_OP		0x63
#define RNR_TIMER	14

#define ALL_ACCESS	(RMP_RESP_ALLOW_WRITE | RMP_RESP_ALLOW_READ | \
			 RMP_RESP_ALLOW_ATOMIC)

/* PSN at signed distance @off from @base. */
static u32 at(u32 base, s32 off)
{
	return rmp_psn_add(base, (u32)off);
}

static struct rmp_resp_res res_ring[NRES_MAX];

static void resp_setup(struct kunit *test, struct rmp_resp *resp, u32 epsn,
		       u32 msn, u32 nres, u32 ack_every, u8 deny)
{
	struct rmp_resp_config cfg = {
		.epsn = epsn,
		.mtu = MTU,
		.min_rnr_timer = RNR_TIMER,
		.access = ALL_ACCESS & ~deny,
		.ack_every = ack_every,
	};

	KUNIT_ASSERT_LE(test, nres, (u32)NRES_MAX);
	KUNIT_ASSERT_EQ(test, rmp_resp_init(resp, &cfg, res_ring, nres), 0);
	resp->msn = msn;
}

/* --- rmp_resp_init ---------------------------------------------------- */

struct init_case {
	const char *desc;
	u32 epsn;
	u32 mtu;
	u8 rnr;
	u32 nres;
	bool null_res;
	bool ooo;
	bool uc;
	u32 win;
	int err;
};

static void init_desc(const struct init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct init_case init_cases[] = {
	{ "mtu 256", 5, 256, 0, 4, false, false, false, 0, 0 },
	{ "mtu 4096", 5, 4096, 31, 4, false, false, false, 0, 0 },
	{ "mtu 0", 5, 0, 0, 4, false, false, false, 0, -EINVAL },
	{ "mtu 1000", 5, 1000, 0, 4, false, false, false, 0, -EINVAL },
	{ "mtu 8192", 5, 8192, 0, 4, false, false, false, 0, -EINVAL },
	{ "rnr timer code 32", 5, 1024, 32, 4, false, false, false, 0,
	  -EINVAL },
	{ "resources without array", 5, 1024, 0, 4, true, false, false, 0,
	  -EINVAL },
	{ "no resources, no array", 5, 1024, 0, 0, true, false, false, 0, 0 },
	{ "out of order", 5, 1024, 0, 4, false, true, false, 1024, 0 },
	{ "out of order, window 100", 5, 1024, 0, 4, false, true, false, 100,
	  -EINVAL },
	{ "out of order, window 2048", 5, 1024, 0, 4, false, true, false,
	  2048, -EINVAL },
	{ "out of order on UC", 5, 1024, 0, 4, false, true, true, 1024,
	  -EINVAL },
	{ "epsn above 24 bits is masked", 0x1000007, 1024, 0, 4, false, false,
	  false, 0, 0 },
};

KUNIT_ARRAY_PARAM(init, init_cases, init_desc);

static void rmp_resp_init__validates(struct kunit *test)
{
	const struct init_case *c = test->param_value;
	struct rmp_resp_config cfg = {
		.epsn = c->epsn, .mtu = c->mtu, .min_rnr_timer = c->rnr,
		.ooo = c->ooo, .uc = c->uc, .win_size = c->win,
	};
	struct rmp_resp resp;
	int err;

	memset(&resp, 0xa5, sizeof(resp));
	err = rmp_resp_init(&resp, &cfg, c->null_res ? NULL : res_ring,
			    c->nres);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (err) {
		KUNIT_EXPECT_EQ(test, resp.mtu, 0xa5a5a5a5U);
		return;
	}
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), rmp_psn_mask(c->epsn));
	KUNIT_EXPECT_EQ(test, resp.msn, 0U);
	KUNIT_EXPECT_EQ(test, resp.res_count, 0U);
	KUNIT_EXPECT_FALSE(test, resp.error);
	KUNIT_EXPECT_EQ(test, resp.ooo, c->ooo);
}

/* --- packet scripts --------------------------------------------------- */

#define EXE	RMP_RESP_EXECUTE
#define DUP	RMP_RESP_DUPLICATE
#define OOS	RMP_RESP_OUT_OF_SEQ
#define INV	RMP_RESP_INVALID
#define DRP	RMP_RESP_DROP

/*
 * One request packet, the execution result the kernel reports if the
 * verdict is EXECUTE, and everything expected afterwards.  PSNs are
 * offsets from the case's initial expected PSN.
 */
struct step {
	u8 op;
	s32 psn;
	bool ackreq;
	u32 len;
	u32 dma;
	u64 va;
	u32 rkey;
	u8 status;
	u64 orig;

	u8 verdict;
	bool done;
	u8 reply;
	u8 syn;
	s32 rpsn;
	u32 msn;
	u64 rorig;
	bool err;
	s32 epsn;
};

#define P(_op, _psn, _ar, _len)						\
	.op = RMP_OP_RC_##_op, .psn = (_psn), .ackreq = (_ar), .len = (_len)
#define RETH(_dma)	.dma = (_dma), .va = VA, .rkey = RKEY
#define RETH_AT(_va, _dma, _rkey) .dma = (_dma), .va = (_va), .rkey = (_rkey)
#define ATOM(_va)	.va = (_va), .rkey = RKEY
#define ST(_s)		.status = RMP_RESP_##_s
#define V(_v)		.verdict = (_v)
#define DONE		.done = true
#define R_ACK(_p, _m)	.reply = RMP_RESP_REPLY_ACK, .syn = SYN_ACK,	\
			.rpsn = (_p), .msn = (_m)
#define R_NAK(_s, _p, _m) .reply = RMP_RESP_REPLY_ACK, .syn = (_s),	\
			.rpsn = (_p), .msn = (_m)
#define R_ATOM(_p, _m, _o) .reply = RMP_RESP_REPLY_ATOMIC_ACK,		\
			.syn = SYN_ACK, .rpsn = (_p), .msn = (_m), .rorig = (_o)
#define R_READ		.reply = RMP_RESP_REPLY_READ
#define ERR		.err = true
#define EP(_e)		.epsn = (_e)

#define SCRIPT_MAX	10

struct script_case {
	const char *desc;
	u32 epsn;
	u32 msn;
	u32 nres;
	u32 ack_every;
	u8 deny;
	u32 n;
	struct step s[SCRIPT_MAX];
};

static void script_desc(const struct script_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct script_case script_cases[] = {
	/* In order. */
	{ "send only, ackreq", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY, 0, 1, 10), V(EXE), DONE, R_ACK(0, 1), EP(1) } } },
	{ "send only, zero length", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY_IMM, 0, 1, 0), V(EXE), DONE, R_ACK(0, 1), EP(1) } } },
	{ "three-packet send, ack on last", 100, 0, 4, 0, 0, 3, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, 0, MTU), V(EXE), EP(2) },
	  { P(SEND_LAST_INV, 2, 1, 1), V(EXE), DONE, R_ACK(2, 1), EP(3) } } },
	{ "three-packet write", 100, 7, 4, 0, 0, 3, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU + 88), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, 0, MTU), V(EXE), EP(2) },
	  { P(WRITE_LAST_IMM, 2, 1, 88), V(EXE), DONE, R_ACK(2, 8), EP(3) } } },
	{ "write only, zero length", 100, 0, 4, 0, 0, 1, {
	  { P(WRITE_ONLY, 0, 1, 0), RETH(0), V(EXE), DONE, R_ACK(0, 1),
	    EP(1) } } },
	{ "ackreq mid-message acks without counting it", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 1, MTU), V(EXE), R_ACK(0, 0), EP(1) },
	  { P(SEND_LAST, 1, 0, 5), V(EXE), DONE, EP(2) } } },
	/* Coalescing. */
	{ "no ackreq, no ack until asked", 100, 0, 4, 0, 0, 4, {
	  { P(SEND_ONLY, 0, 0, 1), V(EXE), DONE, EP(1) },
	  { P(WRITE_ONLY, 1, 0, 4), RETH(4), V(EXE), DONE, EP(2) },
	  { P(SEND_ONLY, 2, 0, 1), V(EXE), DONE, EP(3) },
	  { P(SEND_ONLY, 3, 1, 1), V(EXE), DONE, R_ACK(3, 4), EP(4) } } },
	{ "ack every third packet", 100, 0, 4, 3, 0, 7, {
	  { P(SEND_ONLY, 0, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 1, 0, 1), V(EXE), DONE, EP(2) },
	  { P(SEND_FIRST, 2, 0, MTU), V(EXE), R_ACK(2, 2), EP(3) },
	  { P(SEND_LAST, 3, 0, 1), V(EXE), DONE, EP(4) },
	  { P(SEND_ONLY, 4, 1, 1), V(EXE), DONE, R_ACK(4, 4), EP(5) },
	  { P(SEND_ONLY, 5, 0, 1), V(EXE), DONE, EP(6) },
	  { P(SEND_ONLY, 6, 0, 1), V(EXE), DONE, EP(7) } } },
	/* Sequence errors. */
	{ "gap: one NAK, silence, NAK again after recovery", 100, 0, 4, 0, 0,
	  8, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) },
	  { P(SEND_ONLY, 2, 1, 1), V(OOS), R_NAK(SYN_SEQ, 1, 1), EP(1) },
	  { P(SEND_ONLY, 3, 1, 1), V(OOS), EP(1) },
	  { P(SEND_ONLY, 4, 1, 1), V(OOS), EP(1) },
	  { P(SEND_ONLY, 0, 1, 1), V(DUP), R_ACK(0, 1), EP(1) },
	  { P(SEND_ONLY, 1, 0, 1), V(EXE), DONE, EP(2) },
	  { P(SEND_ONLY, 2, 1, 1), V(EXE), DONE, R_ACK(2, 3), EP(3) },
	  { P(SEND_ONLY, 9, 1, 1), V(OOS), R_NAK(SYN_SEQ, 3, 3), EP(3) } } },
	{ "gap inside a message keeps its position", 100, 0, 4, 0, 0, 4, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 2, 1, 9), V(OOS), R_NAK(SYN_SEQ, 1, 0), EP(1) },
	  { P(SEND_MIDDLE, 1, 0, MTU), V(EXE), EP(2) },
	  { P(SEND_LAST, 2, 1, 9), V(EXE), DONE, R_ACK(2, 1), EP(3) } } },
	{ "half space ahead is out of sequence", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY, 0x7fffff, 1, 1), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) } } },
	{ "half space behind is a duplicate", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY, -0x800000, 1, 1), V(DUP), R_ACK(-1, 0), EP(0) } } },
	/* Duplicates. */
	{ "duplicate send acked again", 100, 0, 4, 0, 0, 3, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) },
	  { P(SEND_ONLY, 1, 0, 1), V(EXE), DONE, EP(2) },
	  { P(SEND_ONLY, 0, 0, 1), V(DUP), R_ACK(1, 2), EP(2) } } },
	{ "duplicate write middle acked again", 100, 0, 4, 0, 0, 4, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(3 * MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, 0, MTU), V(EXE), EP(2) },
	  { P(WRITE_MIDDLE, 1, 0, MTU), V(DUP), R_ACK(1, 0), EP(2) },
	  { P(WRITE_LAST, 2, 1, MTU), V(EXE), DONE, R_ACK(2, 1), EP(3) } } },
	{ "duplicate while a NAK is outstanding", 100, 0, 4, 0, 0, 3, {
	  { P(SEND_ONLY, 0, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 3, 1, 1), V(OOS), R_NAK(SYN_SEQ, 1, 1), EP(1) },
	  { P(SEND_ONLY, 0, 1, 1), V(DUP), R_ACK(0, 1), EP(1) } } },
	{ "duplicate read without resources dropped", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) },
	  { P(READ_REQUEST, 0, 0, 0), RETH(8), V(DUP), EP(1) } } },
	{ "duplicate atomic without resource dropped", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) },
	  { P(FETCH_ADD, 0, 0, 0), ATOM(VA), V(DUP), EP(1) } } },
	/* READ and atomics. */
	{ "read, then send acked past it", 100, 0, 4, 0, 0, 2, {
	  { P(READ_REQUEST, 0, 1, 0), RETH(2 * MTU + 1), V(EXE), DONE,
	    R_READ, EP(3) },
	  { P(SEND_ONLY, 3, 1, 1), V(EXE), DONE, R_ACK(3, 2), EP(4) } } },
	{ "zero-length read takes one PSN", 100, 0, 4, 0, 0, 1, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(0), V(EXE), DONE, R_READ, EP(1) } } },
	{ "read replay: full and sub-range, bad ranges dropped", 100, 0, 4, 0,
	  0, 8, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(4 * MTU), V(EXE), DONE, R_READ,
	    EP(4) },
	  { P(READ_REQUEST, 0, 0, 0), RETH(4 * MTU), V(DUP), R_READ, EP(4) },
	  { P(READ_REQUEST, 2, 0, 0), RETH_AT(VA + 2 * MTU, 2 * MTU, RKEY),
	    V(DUP), R_READ, EP(4) },
	  { P(READ_REQUEST, 2, 0, 0), RETH_AT(VA + 2 * MTU, 3 * MTU, RKEY),
	    V(DUP), EP(4) },
	  { P(READ_REQUEST, 3, 0, 0), RETH_AT(VA - 1, 1, RKEY), V(DUP),
	    EP(4) },
	  { P(READ_REQUEST, 3, 0, 0), RETH_AT(VA + 3 * MTU, 1, RKEY + 1),
	    V(DUP), EP(4) },
	  { P(READ_REQUEST, 1, 0, 0), RETH_AT(VA + MTU, 2 * MTU, RKEY),
	    V(DUP), R_READ, EP(4) },
	  { P(SEND_ONLY, 1, 0, 0), V(DUP), R_ACK(3, 1), EP(4) } } },
	{ "atomic executes once, replays its value", 100, 0, 4, 0, 0, 6, {
	  { P(FETCH_ADD, 0, 0, 0), ATOM(VA), .orig = 42, V(EXE), DONE,
	    R_ATOM(0, 1, 42), EP(1) },
	  { P(COMPARE_SWAP, 1, 0, 0), ATOM(VA + 8), .orig = 7, V(EXE), DONE,
	    R_ATOM(1, 2, 7), EP(2) },
	  { P(FETCH_ADD, 0, 0, 0), ATOM(VA), V(DUP), R_ATOM(0, 2, 42), EP(2) },
	  { P(COMPARE_SWAP, 1, 0, 0), ATOM(VA + 8), V(DUP), R_ATOM(1, 2, 7),
	    EP(2) },
	  { P(COMPARE_SWAP, 0, 0, 0), ATOM(VA), V(DUP), EP(2) },
	  { P(FETCH_ADD, 0, 0, 0), ATOM(VA + 16), V(DUP), EP(2) } } },
	{ "oldest resource evicted", 100, 0, 2, 0, 0, 6, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(8), V(EXE), DONE, R_READ, EP(1) },
	  { P(FETCH_ADD, 1, 0, 0), ATOM(VA), .orig = 5, V(EXE), DONE,
	    R_ATOM(1, 2, 5), EP(2) },
	  { P(READ_REQUEST, 2, 0, 0), RETH(8), V(EXE), DONE, R_READ, EP(3) },
	  { P(READ_REQUEST, 0, 0, 0), RETH(8), V(DUP), EP(3) },
	  { P(FETCH_ADD, 1, 0, 0), ATOM(VA), V(DUP), R_ATOM(1, 3, 5), EP(3) },
	  { P(READ_REQUEST, 2, 0, 0), RETH(8), V(DUP), R_READ, EP(3) } } },
	/* ATOMIC WRITE. */
	{ "atomic write executes once, answered like an empty read", 100, 0,
	  4, 0, 0, 5, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(EXE), DONE, R_READ, EP(1) },
	  { P(SEND_ONLY, 1, 1, 1), V(EXE), DONE, R_ACK(1, 2), EP(2) },
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(DUP), R_READ, EP(2) },
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH_AT(VA + 8, 8, RKEY), V(DUP),
	    EP(2) },
	  { P(ATOMIC_WRITE, 1, 1, 8), RETH(8), V(DUP), EP(2) } } },
	{ "atomic write in a message", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(ATOMIC_WRITE, 1, 1, 8), RETH(8), V(INV), R_NAK(SYN_INV, 1, 0),
	    ERR, EP(1) } } },
	{ "atomic write of 4 bytes", 100, 0, 4, 0, 0, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 4), RETH(4), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "atomic write with a 16-byte RETH", 100, 0, 4, 0, 0, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(16), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "misaligned atomic write", 100, 0, 4, 0, 0, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH_AT(VA + 4, 8, RKEY), V(INV),
	    R_NAK(SYN_INV, 0, 0), ERR, EP(0) } } },
	{ "atomic write with no responder resources", 100, 0, 0, 0, 0, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "atomic write not permitted", 100, 0, 4, 0, RMP_RESP_ALLOW_WRITE, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "atomic write needs no atomic permission", 100, 0, 4, 0,
	  RMP_RESP_ALLOW_ATOMIC | RMP_RESP_ALLOW_READ, 1, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(EXE), DONE, R_READ,
	    EP(1) } } },
	{ "remote access error on an atomic write", 100, 0, 4, 0, 0, 2, {
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), ST(REM_ACCESS), V(EXE), DONE,
	    R_NAK(SYN_ACC, 0, 0), ERR, EP(0) },
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(DRP), EP(0) } } },
	{ "duplicate atomic write without resource dropped", 100, 0, 4, 0, 0,
	  2, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) },
	  { P(ATOMIC_WRITE, 0, 1, 8), RETH(8), V(DUP), EP(1) } } },
	/* Opcode sequence. */
	{ "middle without first", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_MIDDLE, 0, 0, MTU), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) },
	  { P(SEND_ONLY, 0, 1, 1), V(DRP), EP(0) } } },
	{ "last without first", 100, 0, 4, 0, 0, 1, {
	  { P(WRITE_LAST, 0, 0, 1), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } } },
	{ "send only inside a send", 100, 3, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_ONLY, 1, 0, 1), V(INV), R_NAK(SYN_INV, 1, 3), ERR,
	    EP(1) } } },
	{ "write middle inside a send", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, 0, MTU), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "send last inside a write", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, 0, MTU), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "read inside a write", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(READ_REQUEST, 1, 0, 0), RETH(8), V(INV), R_NAK(SYN_INV, 1, 0),
	    ERR, EP(1) } } },
	{ "first after first", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_FIRST, 1, 0, MTU), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	/* Lengths. */
	{ "first shorter than the MTU", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_FIRST, 0, 0, MTU - 4), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } } },
	{ "middle longer than the MTU", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, 0, MTU + 4), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "empty last", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, 0, 0), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "last longer than the MTU", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, 0, MTU + 1), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "only longer than the MTU", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY, 0, 0, MTU + 1), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } } },
	{ "write only shorter than its RETH", 100, 0, 4, 0, 0, 1, {
	  { P(WRITE_ONLY, 0, 0, 10), RETH(11), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "write first with a one-packet RETH", 100, 0, 4, 0, 0, 1, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(MTU), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "write middle exhausting the RETH", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, 0, MTU), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "write last short of the RETH", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(WRITE_LAST, 1, 0, MTU - 1), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } } },
	{ "read longer than 2^31", 100, 0, 4, 0, 0, 1, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(0x80000001), V(INV),
	    R_NAK(SYN_INV, 0, 0), ERR, EP(0) } } },
	{ "read with payload", 100, 0, 4, 0, 0, 1, {
	  { P(READ_REQUEST, 0, 0, 4), RETH(4), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "misaligned atomic", 100, 0, 4, 0, 0, 1, {
	  { P(FETCH_ADD, 0, 0, 0), ATOM(VA + 4), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	/* Permissions and resources. */
	{ "read with no responder resources", 100, 0, 0, 0, 0, 1, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(4), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "write not permitted", 100, 0, 4, 0, RMP_RESP_ALLOW_WRITE, 2, {
	  { P(SEND_ONLY, 0, 0, 4), V(EXE), DONE, EP(1) },
	  { P(WRITE_ONLY, 1, 0, 4), RETH(4), V(INV), R_NAK(SYN_INV, 1, 1), ERR,
	    EP(1) } } },
	{ "read not permitted", 100, 0, 4, 0, RMP_RESP_ALLOW_READ, 1, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(4), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	{ "atomic not permitted", 100, 0, 4, 0, RMP_RESP_ALLOW_ATOMIC, 1, {
	  { P(COMPARE_SWAP, 0, 0, 0), ATOM(VA), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } } },
	/* Not RC requests. */
	{ "not RC requests are dropped", 100, 0, 4, 0, 0, 6, {
	  { .op = RMP_OP_UC_SEND_ONLY, .psn = 0, .ackreq = 1, .len = 1, V(DRP),
	    EP(0) },
	  { P(ACKNOWLEDGE, 0, 1, 0), V(DRP), EP(0) },
	  { P(READ_RESPONSE_ONLY, 0, 1, 4), V(DRP), EP(0) },
	  { .op = 0x15, .psn = 0, V(DRP), EP(0) },
	  { .op = RMP_OP_EXT_FIRST, .psn = 0, V(DRP), EP(0) },
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 1), EP(1) } } },
	/* RNR. */
	{ "RNR: NAK, silence, retry accepted", 100, 0, 4, 0, 0, 5, {
	  { P(SEND_ONLY, 0, 1, 1), ST(RNR), V(EXE), DONE,
	    R_NAK(SYN_RNR(RNR_TIMER), 0, 0), EP(0) },
	  { P(SEND_ONLY, 1, 1, 1), V(OOS), EP(0) },
	  { P(SEND_ONLY, 0, 1, 1), ST(RNR), V(EXE), DONE,
	    R_NAK(SYN_RNR(RNR_TIMER), 0, 0), EP(0) },
	  { P(SEND_ONLY, 0, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 1, 1, 1), V(EXE), DONE, R_ACK(1, 2), EP(2) } } },
	{ "RNR on a write with immediate keeps the write", 100, 0, 4, 0, 0, 4, {
	  { P(WRITE_FIRST, 0, 0, MTU), RETH(MTU + 1), V(EXE), EP(1) },
	  { P(WRITE_LAST_IMM, 1, 1, 1), ST(RNR), V(EXE), DONE,
	    R_NAK(SYN_RNR(RNR_TIMER), 1, 0), EP(1) },
	  { P(WRITE_LAST_IMM, 1, 1, 1), V(EXE), DONE, R_ACK(1, 1), EP(2) },
	  { P(SEND_ONLY, 2, 1, 1), V(EXE), DONE, R_ACK(2, 2), EP(3) } } },
	/* Remote errors. */
	{ "remote access error on a write", 100, 0, 4, 0, 0, 2, {
	  { P(WRITE_ONLY, 0, 1, 4), RETH(4), ST(REM_ACCESS), V(EXE), DONE,
	    R_NAK(SYN_ACC, 0, 0), ERR, EP(0) },
	  { P(WRITE_ONLY, 0, 1, 4), RETH(4), V(DRP), EP(0) } } },
	{ "remote access error on a read", 100, 5, 4, 0, 0, 2, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(4), ST(REM_ACCESS), V(EXE), DONE,
	    R_NAK(SYN_ACC, 0, 5), ERR, EP(0) },
	  { P(READ_REQUEST, -1, 0, 0), RETH(4), V(DRP), EP(0) } } },
	{ "remote operational error", 100, 0, 4, 0, 0, 2, {
	  { P(SEND_FIRST, 0, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, 0, MTU), ST(REM_OP), V(EXE),
	    R_NAK(SYN_OP, 1, 0), ERR, EP(1) } } },
	{ "send too long for the receive WQE", 100, 0, 4, 0, 0, 1, {
	  { P(SEND_ONLY, 0, 1, MTU), ST(REM_INVALID), V(EXE), DONE,
	    R_NAK(SYN_INV, 0, 0), ERR, EP(0) } } },
	/* Wraparound. */
	{ "wrap: PSN across 0xffffff", 0xfffffe, 0, 4, 0, 0, 5, {
	  { P(SEND_ONLY, 0, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 1, 1, 1), V(EXE), DONE, R_ACK(1, 2), EP(2) },
	  { P(SEND_ONLY, 2, 1, 1), V(EXE), DONE, R_ACK(2, 3), EP(3) },
	  { P(SEND_ONLY, 1, 1, 1), V(DUP), R_ACK(2, 3), EP(3) },
	  { P(SEND_ONLY, 5, 1, 1), V(OOS), R_NAK(SYN_SEQ, 3, 3), EP(3) } } },
	{ "wrap: read across 0xffffff, replayed from 0", 0xfffffe, 0, 4, 0, 0,
	  3, {
	  { P(READ_REQUEST, 0, 0, 0), RETH(4 * MTU), V(EXE), DONE, R_READ,
	    EP(4) },
	  { P(READ_REQUEST, 2, 0, 0), RETH_AT(VA + 2 * MTU, 2 * MTU, RKEY),
	    V(DUP), R_READ, EP(4) },
	  { P(SEND_ONLY, 4, 1, 1), V(EXE), DONE, R_ACK(4, 2), EP(5) } } },
	{ "wrap: MSN across 0xffffff", 100, 0xfffffe, 4, 0, 0, 3, {
	  { P(SEND_ONLY, 0, 1, 1), V(EXE), DONE, R_ACK(0, 0xffffff), EP(1) },
	  { P(FETCH_ADD, 1, 0, 0), ATOM(VA), .orig = 1, V(EXE), DONE,
	    R_ATOM(1, 0, 1), EP(2) },
	  { P(SEND_ONLY, 2, 1, 1), V(EXE), DONE, R_ACK(2, 1), EP(3) } } },
};

KUNIT_ARRAY_PARAM(script, script_cases, script_desc);

static void step_in(u32 base, const struct step *s, struct rmp_resp_in *in)
{
	memset(in, 0, sizeof(*in));
	in->psn = at(base, s->psn);
	in->opcode = s->op;
	in->ackreq = s->ackreq;
	in->payload_len = s->len;
	in->va = s->va;
	in->rkey = s->rkey;
	in->dma_len = s->dma;
}

static void rmp_resp_packet__scripts(struct kunit *test)
{
	const struct script_case *c = test->param_value;
	struct rmp_resp_in in;
	struct rmp_resp_out out;
	struct rmp_resp resp;
	bool dead = false;
	u32 i;

	resp_setup(test, &resp, c->epsn, c->msn, c->nres, c->ack_every,
		   c->deny);
	for (i = 0; i < c->n; i++) {
		const struct step *s = &c->s[i];

		step_in(c->epsn, s, &in);
		KUNIT_ASSERT_EQ_MSG(test, rmp_resp_packet(&resp, &in, &out), 0,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.verdict, s->verdict, "step %u", i);
		if (out.verdict == EXE) {
			KUNIT_EXPECT_EQ_MSG(test, out.reply.kind,
					    RMP_RESP_REPLY_NONE, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.last, s->done, "step %u", i);
			KUNIT_ASSERT_EQ_MSG(test,
					    rmp_resp_executed(&resp, s->status,
							      s->orig, &out),
					    0, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.verdict, EXE, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.last,
					    s->done && s->status == RMP_RESP_OK,
					    "step %u", i);
		}
		KUNIT_EXPECT_EQ_MSG(test, out.reply.kind, s->reply, "step %u", i);
		if (s->reply == RMP_RESP_REPLY_ACK ||
		    s->reply == RMP_RESP_REPLY_ATOMIC_ACK) {
			KUNIT_EXPECT_EQ_MSG(test, out.reply.syndrome, s->syn,
					    "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.psn,
					    at(c->epsn, s->rpsn), "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.msn, s->msn,
					    "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.orig, s->rorig,
					    "step %u", i);
		}
		if (s->reply == RMP_RESP_REPLY_READ)
			KUNIT_EXPECT_EQ_MSG(test, out.reply.read.psn, in.psn,
					    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.error, s->err, "step %u", i);
		/* The error state is final. */
		dead |= s->err;
		KUNIT_EXPECT_EQ_MSG(test, resp.error, dead, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rmp_resp_epsn(&resp),
				    at(c->epsn, s->epsn), "step %u", i);
	}
}

/* --- READ responses --------------------------------------------------- */

#define RD_MAX	5

struct read_case {
	const char *desc;
	u32 epsn;
	u32 len;
	u32 n;
	u8 op[RD_MAX];
	u32 plen[RD_MAX];
};

static void read_desc(const struct read_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

#define RF	RMP_OP_RC_READ_RESPONSE_FIRST
#define RM	RMP_OP_RC_READ_RESPONSE_MIDDLE
#define RL	RMP_OP_RC_READ_RESPONSE_LAST
#define RO	RMP_OP_RC_READ_RESPONSE_ONLY

static const struct read_case read_cases[] = {
	{ "zero length", 10, 0, 1, { RO }, { 0 } },
	{ "one byte", 10, 1, 1, { RO }, { 1 } },
	{ "exactly the MTU", 10, MTU, 1, { RO }, { MTU } },
	{ "MTU plus one", 10, MTU + 1, 2, { RF, RL }, { MTU, 1 } },
	{ "two MTUs", 10, 2 * MTU, 2, { RF, RL }, { MTU, MTU } },
	{ "five packets", 10, 4 * MTU + 3, 5, { RF, RM, RM, RM, RL },
	  { MTU, MTU, MTU, MTU, 3 } },
	{ "wrap: across 0xffffff", 0xfffffd, 4 * MTU + 3, 5,
	  { RF, RM, RM, RM, RL }, { MTU, MTU, MTU, MTU, 3 } },
};

KUNIT_ARRAY_PARAM(read, read_cases, read_desc);

static void rmp_resp_read_next__packets(struct kunit *test)
{
	const struct read_case *c = test->param_value;
	struct rmp_resp_in in = {
		.psn = c->epsn, .opcode = RMP_OP_RC_READ_REQUEST,
		.va = VA, .rkey = RKEY, .dma_len = c->len,
	};
	struct rmp_resp_read_pkt pkt;
	struct rmp_resp_out out;
	struct rmp_resp resp;
	struct rmp_resp_read cur;
	u32 i, off = 0;

	resp_setup(test, &resp, c->epsn, 9, 2, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	KUNIT_ASSERT_EQ(test, out.reply.kind, RMP_RESP_REPLY_READ);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), at(c->epsn, c->n));
	KUNIT_EXPECT_EQ(test, resp.msn, 10U);

	cur = out.reply.read;
	KUNIT_EXPECT_EQ(test, cur.res, 0U);
	for (i = 0; i < c->n; i++) {
		KUNIT_ASSERT_TRUE_MSG(test, rmp_resp_read_next(&cur, &pkt),
				      "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.opcode, c->op[i], "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.psn, at(c->epsn, i), "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.len, c->plen[i], "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.offset, off, "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.va, VA + off, "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.rkey, (u32)RKEY, "pkt %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pkt.aeth, c->op[i] != RM, "pkt %u", i);
		if (pkt.aeth) {
			KUNIT_EXPECT_EQ_MSG(test, pkt.syndrome, SYN_ACK,
					    "pkt %u", i);
			KUNIT_EXPECT_EQ_MSG(test, pkt.msn, 10U, "pkt %u", i);
		}
		off += pkt.len;
	}
	KUNIT_EXPECT_FALSE(test, rmp_resp_read_next(&cur, &pkt));
	KUNIT_EXPECT_FALSE(test, rmp_resp_read_next(&cur, &pkt));
	KUNIT_EXPECT_EQ(test, off, c->len);
}

/*
 * The answer to an ATOMIC WRITE, first and replayed: one READ response
 * ONLY at the request's PSN, no payload, an ACK with the current MSN.
 */
static void rmp_resp_executed__atomic_write_answer(struct kunit *test)
{
	struct rmp_resp_in in = {
		.psn = 0xffffff, .opcode = RMP_OP_RC_ATOMIC_WRITE,
		.ackreq = true, .payload_len = 8, .va = VA + 8, .rkey = RKEY,
		.dma_len = 8,
	};
	struct rmp_resp_in send = {
		.psn = 0, .opcode = RMP_OP_RC_SEND_ONLY, .payload_len = 1,
	};
	struct rmp_resp_read_pkt pkt;
	struct rmp_resp_out out;
	struct rmp_resp resp;
	u32 round;

	resp_setup(test, &resp, in.psn, 0xfffffe, 2, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	for (round = 0; round < 2; round++) {
		KUNIT_ASSERT_EQ(test, out.reply.kind, RMP_RESP_REPLY_READ);
		KUNIT_ASSERT_TRUE(test, rmp_resp_read_next(&out.reply.read,
							   &pkt));
		KUNIT_EXPECT_EQ(test, pkt.opcode,
				(u8)RMP_OP_RC_READ_RESPONSE_ONLY);
		KUNIT_EXPECT_EQ(test, pkt.psn, 0xffffffU);
		KUNIT_EXPECT_EQ(test, pkt.len, 0U);
		KUNIT_EXPECT_TRUE(test, pkt.aeth);
		KUNIT_EXPECT_EQ(test, pkt.syndrome, SYN_ACK);
		/* The MSN counts the ATOMIC WRITE, then the SEND: 2^24. */
		KUNIT_EXPECT_EQ(test, pkt.msn, round ? 0U : 0xffffffU);
		KUNIT_EXPECT_FALSE(test, rmp_resp_read_next(&out.reply.read,
							    &pkt));
		KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), round);

		if (round)
			break;
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &send, &out), 0);
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0,
							&out), 0);
		KUNIT_ASSERT_EQ(test, rmp_resp_epsn(&resp), 1U);
		/* Its duplicate is answered the same, not executed. */
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_EXPECT_EQ(test, out.verdict, DUP);
		KUNIT_EXPECT_FALSE(test, resp.pending);
	}
}

/* A duplicate READ against an original of 4 * MTU - 24 bytes at PSN 0. */
struct dupread_case {
	const char *desc;
	s32 psn;
	s64 va_off;
	u32 len;
	u32 rkey;
	bool replay;
	u32 n;
	u8 first_op;
};

static void dupread_desc(const struct dupread_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

#define DR_LEN	(4 * MTU - 24)

static const struct dupread_case dupread_cases[] = {
	{ "whole range", 0, 0, DR_LEN, RKEY, true, 4, RF },
	{ "from the second response", 1, MTU, DR_LEN - MTU, RKEY, true, 3, RF },
	{ "last response only", 3, 3 * MTU, DR_LEN - 3 * MTU, RKEY, true, 1,
	  RO },
	{ "shorter tail at the second PSN", 1, MTU, 10, RKEY, true, 1, RO },
	{ "empty at the third PSN", 2, 2 * MTU, 0, RKEY, true, 1, RO },
	{ "whole range at the second PSN: PSNs overflow", 1, 0, DR_LEN, RKEY,
	  false, 0, 0 },
	{ "starts before the original", 1, -1, 10, RKEY, false, 0, 0 },
	{ "ends after the original", 3, 3 * MTU, DR_LEN - 3 * MTU + 1, RKEY,
	  false, 0, 0 },
	{ "starts after the original", 3, DR_LEN + 1, 0, RKEY, false, 0, 0 },
	{ "other R_Key", 1, MTU, 10, RKEY + 1, false, 0, 0 },
};

KUNIT_ARRAY_PARAM(dupread, dupread_cases, dupread_desc);

static void rmp_resp_packet__duplicate_read_ranges(struct kunit *test)
{
	const struct dupread_case *c = test->param_value;
	u32 base = 0xfffffe, n = 0, want_off = (u32)c->va_off;
	struct rmp_resp_in in = {
		.psn = base, .opcode = RMP_OP_RC_READ_REQUEST,
		.va = VA, .rkey = RKEY, .dma_len = DR_LEN,
	};
	struct rmp_resp_read_pkt pkt;
	struct rmp_resp_out out;
	struct rmp_resp resp;

	resp_setup(test, &resp, base, 0, 4, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_epsn(&resp), at(base, 4));

	in.psn = at(base, c->psn);
	in.va = VA + c->va_off;
	in.rkey = c->rkey;
	in.dma_len = c->len;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, DUP);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), at(base, 4));
	if (!c->replay) {
		KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
		return;
	}
	KUNIT_ASSERT_EQ(test, out.reply.kind, RMP_RESP_REPLY_READ);
	while (rmp_resp_read_next(&out.reply.read, &pkt)) {
		if (!n)
			KUNIT_EXPECT_EQ(test, pkt.opcode, c->first_op);
		KUNIT_EXPECT_EQ(test, pkt.psn, at(base, c->psn + n));
		KUNIT_EXPECT_EQ(test, pkt.offset, want_off);
		KUNIT_EXPECT_EQ(test, pkt.va, VA + want_off);
		if (pkt.aeth)
			KUNIT_EXPECT_EQ(test, pkt.msn, 1U);
		want_off += pkt.len;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, c->n);
	KUNIT_EXPECT_EQ(test, want_off, (u32)c->va_off + c->len);
}

/* --- single behaviours ------------------------------------------------ */

static void rmp_resp_packet__placement(struct kunit *test)
{
	static const struct {
		u8 op;
		u32 len;
		bool first, last;
		u32 offset;
	} steps[] = {
		{ RMP_OP_RC_WRITE_FIRST, MTU, true, false, 0 },
		{ RMP_OP_RC_WRITE_MIDDLE, MTU, false, false, MTU },
		{ RMP_OP_RC_WRITE_LAST, 7, false, true, 2 * MTU },
		{ RMP_OP_RC_SEND_FIRST, MTU, true, false, 0 },
		{ RMP_OP_RC_SEND_LAST, 3, false, true, MTU },
	};
	struct rmp_resp_in in = { .va = VA, .rkey = RKEY,
				  .dma_len = 2 * MTU + 7 };
	struct rmp_resp_out out;
	struct rmp_resp resp;
	u32 i;

	resp_setup(test, &resp, 0, 0, 0, 0, 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		bool write = i < 3;

		in.psn = i;
		in.opcode = steps[i].op;
		in.payload_len = steps[i].len;
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_ASSERT_EQ_MSG(test, out.verdict, EXE, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.first, steps[i].first, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.last, steps[i].last, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.offset, steps[i].offset,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.va,
				    write ? VA + steps[i].offset : 0, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.rkey, write ? (u32)RKEY : 0U,
				    "step %u", i);
		/* Only FIRST/ONLY carry a RETH: later fields are ignored. */
		in.va = 0xdead;
		in.rkey = 0;
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0,
							&out), 0);
		KUNIT_EXPECT_EQ_MSG(test, out.offset, steps[i].offset,
				    "step %u", i);
		in.va = VA;
		in.rkey = RKEY;
	}
	KUNIT_EXPECT_EQ(test, resp.msn, 2U);
}

static void rmp_resp_executed__misuse(struct kunit *test)
{
	struct rmp_resp_in in = { .psn = 0, .opcode = RMP_OP_RC_SEND_ONLY };
	struct rmp_resp_out out, before;
	struct rmp_resp resp;

	resp_setup(test, &resp, 0, 0, 0, 0, 0);
	memset(&out, 0x5a, sizeof(out));
	before = out;
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &before, sizeof(out)), 0);

	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	memset(&out, 0x5a, sizeof(out));
	KUNIT_EXPECT_EQ(test, rmp_resp_packet(&resp, &in, &out), -EBUSY);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &before, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_STATUS_MAX, 0,
						&out), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 1U);
	KUNIT_EXPECT_EQ(test, rmp_resp_discard(&resp), -EINVAL);

	/* A QP moved to error abandons the pending packet. */
	in.psn = 1;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	rmp_resp_set_error(&resp);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, DRP);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 1U);
}

/*
 * rmp_resp_will_execute() foretells EXECUTE and nothing else; a discarded
 * packet moves nothing, not even the NAK already sent for a gap.
 */
static void rmp_resp_discard__as_if_never_received(struct kunit *test)
{
	struct rmp_resp_in in = { .psn = 10, .opcode = RMP_OP_RC_SEND_FIRST,
				  .payload_len = MTU };
	struct rmp_resp_out out;
	struct rmp_resp resp;

	resp_setup(test, &resp, 10, 0, 0, 0, 0);
	KUNIT_EXPECT_TRUE(test, rmp_resp_will_execute(&resp, &in));
	in.psn = 9;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
	in.psn = 11;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, OOS);
	KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_ACK);
	in.psn = 10;
	in.opcode = RMP_OP_RC_SEND_MIDDLE;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
	in.opcode = RMP_OP_UC_SEND_FIRST;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));

	in.opcode = RMP_OP_RC_SEND_FIRST;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
	KUNIT_EXPECT_EQ(test, rmp_resp_discard(&resp), 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 10U);
	/* The gap was NAKed once: the discarded packet does not reset that. */
	in.psn = 11;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, OOS);
	KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
	/* No message began: its middle is still out of order. */
	in.psn = 10;
	in.opcode = RMP_OP_RC_SEND_MIDDLE;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));

	in.opcode = RMP_OP_RC_SEND_FIRST;
	KUNIT_ASSERT_TRUE(test, rmp_resp_will_execute(&resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 11U);
	in.psn = 13;
	in.opcode = RMP_OP_RC_SEND_MIDDLE;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, OOS);
	KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_ACK);

	rmp_resp_set_error(&resp);
	in.psn = 11;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
}

static void rmp_resp_flush_ack__acks_the_tail(struct kunit *test)
{
	struct rmp_resp_in in = { .opcode = RMP_OP_RC_SEND_ONLY };
	struct rmp_resp_reply reply;
	struct rmp_resp_out out;
	struct rmp_resp resp;
	u32 i;

	resp_setup(test, &resp, 0xfffffe, 0, 0, 0, 0);
	KUNIT_EXPECT_FALSE(test, rmp_resp_flush_ack(&resp, &reply));
	for (i = 0; i < 3; i++) {
		in.psn = at(0xfffffe, i);
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0,
							&out), 0);
		KUNIT_ASSERT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
	}
	KUNIT_ASSERT_TRUE(test, rmp_resp_flush_ack(&resp, &reply));
	KUNIT_EXPECT_EQ(test, reply.kind, RMP_RESP_REPLY_ACK);
	KUNIT_EXPECT_EQ(test, reply.syndrome, SYN_ACK);
	KUNIT_EXPECT_EQ(test, reply.psn, 0U);
	KUNIT_EXPECT_EQ(test, reply.msn, 3U);
	KUNIT_EXPECT_FALSE(test, rmp_resp_flush_ack(&resp, &reply));
}

/* A message in progress is not acknowledged until it ends. */
static void rmp_resp_flush_ack__waits_for_the_message_end(struct kunit *test)
{
	struct rmp_resp_in in = { .opcode = RMP_OP_RC_WRITE_FIRST,
				  .psn = 0xffffff, .payload_len = MTU,
				  .dma_len = 2 * MTU + 88 };
	struct rmp_resp_reply reply;
	struct rmp_resp_out out;
	struct rmp_resp resp;

	resp_setup(test, &resp, 0xffffff, 0, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	KUNIT_EXPECT_FALSE(test, rmp_resp_flush_ack(&resp, &reply));
	in = (struct rmp_resp_in) { .opcode = RMP_OP_RC_WRITE_MIDDLE,
				    .psn = 0, .payload_len = MTU };
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	KUNIT_EXPECT_FALSE(test, rmp_resp_flush_ack(&resp, &reply));
	in = (struct rmp_resp_in) { .opcode = RMP_OP_RC_WRITE_LAST,
				    .psn = 1, .payload_len = 88 };
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out), 0);
	KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
	KUNIT_ASSERT_TRUE(test, rmp_resp_flush_ack(&resp, &reply));
	KUNIT_EXPECT_EQ(test, reply.psn, 1U);
	KUNIT_EXPECT_EQ(test, reply.msn, 1U);
}

/*
 * Only a READ request before the expected PSN cuts a READ stream short;
 * with read spraying, only one that does not ask for it.
 */
static void rmp_resp_preempts_read__duplicate_reads_only(struct kunit *test)
{
	static const struct {
		u8 opcode; u32 psn; bool spray; bool preempts[2];
	} cases[] = {
		{ RMP_OP_RC_READ_REQUEST, 0x000001, false, { true, true } },
		{ RMP_OP_RC_READ_REQUEST, 0xfffffe, false, { true, true } },
		{ RMP_OP_RC_READ_REQUEST, 0x000001, true, { true, false } },
		{ RMP_OP_RC_READ_REQUEST, 0x000002, false, { false, false } },
		{ RMP_OP_RC_READ_REQUEST, 0x000003, true, { false, false } },
		{ RMP_OP_RC_SEND_ONLY, 0x000001, false, { false, false } },
		{ RMP_OP_RC_WRITE_ONLY, 0x000001, true, { false, false } },
	};
	struct rmp_resp resp;
	u32 i, rd_spray;
	bool got;

	resp_setup(test, &resp, 0x000002, 0, 0, 0, 0);
	for (rd_spray = 0; rd_spray < 2; rd_spray++) {
		if (rd_spray)
			KUNIT_ASSERT_EQ(test, rmp_resp_read_spray(&resp), 0);
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			got = rmp_resp_preempts_read(&resp, cases[i].opcode,
						     cases[i].psn,
						     cases[i].spray);
			KUNIT_EXPECT_EQ_MSG(test, got,
					    cases[i].preempts[rd_spray],
					    "case %u, read spraying %u", i,
					    rd_spray);
		}
	}
}

/* A resource far behind the expected PSN is retired, not matched. */
static void rmp_resp_packet__retires_ancient_resources(struct kunit *test)
{
	u32 big = RMP_RESP_RES_HORIZON * MTU, base = 0x7ffff0, i;
	struct rmp_resp_in in = {
		.opcode = RMP_OP_RC_READ_REQUEST, .va = VA, .rkey = RKEY,
		.dma_len = big,
	};
	struct rmp_resp_out out;
	struct rmp_resp resp;

	resp_setup(test, &resp, base, 0, 4, 0, 0);
	for (i = 0; i < 2; i++) {
		in.psn = at(base, i * RMP_RESP_RES_HORIZON);
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_ASSERT_EQ(test, out.verdict, EXE);
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0,
							&out), 0);
		KUNIT_ASSERT_EQ(test, out.reply.kind, RMP_RESP_REPLY_READ);
	}
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp),
			at(base, 2 * RMP_RESP_RES_HORIZON));
	KUNIT_EXPECT_EQ(test, resp.res_count, 1U);

	/* One more PSN than the limit is refused. */
	in.psn = rmp_resp_epsn(&resp);
	in.dma_len = big + 1;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, INV);
}

struct from_hdr_case {
	const char *desc;
	u8 op;
	u32 payload;
	bool reth;
	bool atmeth;
};

static void from_hdr_desc(const struct from_hdr_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct from_hdr_case from_hdr_cases[] = {
	{ "send only", RMP_OP_RC_SEND_ONLY, 12, false, false },
	{ "write first", RMP_OP_RC_WRITE_FIRST, MTU, true, false },
	{ "write middle", RMP_OP_RC_WRITE_MIDDLE, MTU, false, false },
	{ "read request", RMP_OP_RC_READ_REQUEST, 0, true, false },
	{ "compare and swap", RMP_OP_RC_COMPARE_SWAP, 0, false, true },
	{ "write piece last imm", RMP_OP_EXT_WRITE_PIECE_LAST_IMM, 7, true,
	  false },
};

KUNIT_ARRAY_PARAM(from_hdr, from_hdr_cases, from_hdr_desc);

/* Built, parsed as the kernel would, and handed to the responder. */
static void rmp_resp_in_from_hdr__fields(struct kunit *test)
{
	const struct from_hdr_case *c = test->param_value;
	struct rmp_hdr_fields f = {}, p;
	struct rmp_resp_in in;
	u8 buf[128] = {};
	int hlen;

	f.bth.opcode = c->op;
	f.bth.psn = 0xabcdef;
	f.bth.ackreq = true;
	f.bth.pad = rmp_hdr_pad(c->payload);
	f.reth.va = 0x1122334455667788ULL;
	f.reth.rkey = 0x99;
	f.reth.len = 0x4321;
	f.atmeth.va = 0x8877665544332210ULL;
	f.atmeth.rkey = 0x77;
	hlen = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, hlen, 0);
	KUNIT_ASSERT_EQ(test,
			rmp_hdr_parse(&p, buf, sizeof(buf),
				      hlen + c->payload + f.bth.pad +
				      RMP_ICRC_SIZE, NULL), 0);

	memset(&in, 0xa5, sizeof(in));
	rmp_resp_in_from_hdr(&in, &p);
	KUNIT_EXPECT_EQ(test, in.psn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, in.opcode, c->op);
	KUNIT_EXPECT_TRUE(test, in.ackreq);
	KUNIT_EXPECT_EQ(test, in.payload_len, c->payload);
	KUNIT_EXPECT_EQ(test, in.va, c->reth ? f.reth.va :
				     c->atmeth ? f.atmeth.va : 0);
	KUNIT_EXPECT_EQ(test, in.rkey, c->reth ? 0x99U : c->atmeth ? 0x77U : 0);
	KUNIT_EXPECT_EQ(test, in.dma_len, c->reth ? 0x4321U : 0);
}

/* --- send spraying ---------------------------------------------------- */

/*
 * A responder that takes sprayed WRITEs and SENDs, with its send spraying
 * state beside it (together too big for a kernel stack frame).
 */
struct sp_env {
	struct rmp_resp resp;
	struct rmp_resp_spray sp;
};

static struct sp_env *sp_setup(struct kunit *test, u32 epsn, u32 msn,
			       u32 ssn)
{
	struct sp_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	resp_setup(test, &e->resp, epsn, msn, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_multipath(&e->resp, false), 0);
	KUNIT_ASSERT_EQ(test, rmp_resp_send_spray(&e->resp, &e->sp), 0);
	/* As if @ssn messages that take a receive WQE had completed. */
	e->resp.ssn = ssn;
	e->resp.ssn_done = ssn;
	return e;
}

/*
 * One packet, a piece of a sprayed SEND or a standard request, the
 * execution result reported if it is executed, and what is expected
 * after it. PSNs are offsets from the case's first expected PSN, SSNs
 * from its first SSN; MSNs are absolute.
 */
struct sp_step {
	u8 op;
	s32 psn;
	s32 ssn;
	u32 off;
	u32 len;
	bool ackreq;
	u32 dma;
	u64 va;
	u32 rkey;
	u8 status;
	u8 deny;	/* RMP_RESP_ALLOW_* the QP grants no more */

	u8 verdict;
	bool dropped;	/* executed ahead, failed: dropped, not held */
	u32 rq;		/* a piece executed: its receive WQE */
	u8 reply;
	u8 syn;
	s32 rpsn;
	u32 msn;	/* of the reply */
	bool err;
	s32 epsn;
	u32 msn_now;	/* the responder's, after the packet */
	u32 taken;	/* SENDs it completed, taken one by one after it */
};

#define SPRAYED(_op, _psn, _ssn, _off, _len)				\
	.op = RMP_OP_EXT_SEND_##_op, .psn = (_psn), .ssn = (_ssn),	\
	.off = (_off), .len = (_len)
#define PLAIN(_op, _psn, _len)						\
	.op = RMP_OP_RC_##_op, .psn = (_psn), .len = (_len)
/*
 * The last piece of a sprayed WRITE with immediate data: its RETH names
 * @_dma bytes at its own place, @_off into the WRITE at VA.
 */
#define WPIECE(_psn, _ssn, _off, _len, _dma)				\
	.op = RMP_OP_EXT_WRITE_PIECE_LAST_IMM, .psn = (_psn),		\
	.ssn = (_ssn), .off = (_off), .len = (_len), .dma = (_dma),	\
	.va = VA + (_off), .rkey = RKEY
#define ACKREQ		.ackreq = true
#define DROPPED		.dropped = true
#define RQ_IDX(_i)	.rq = (_i)
#define MSN_NOW(_m)	.msn_now = (_m)
#define TAKES(_n)	.taken = (_n)
#define DENY(_a)	.deny = RMP_RESP_ALLOW_##_a

#define SP_STEPS	8
#define SP_SENT		4

/* A sprayed SEND as it completes: its last piece's PSN, its length. */
struct sp_sent {
	s32 psn;
	u32 len;
};

struct sp_case {
	const char *desc;
	u32 epsn;
	u32 ssn;
	u32 msn;
	u32 n;
	struct sp_step s[SP_STEPS];
	u32 nsent;
	struct sp_sent sent[SP_SENT];	/* every SEND taken, in order */
};

static void sp_desc(const struct sp_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct sp_case sp_cases[] = {
	/* Placement and completion. */
	{ "one SEND of three pieces in order", 100, 0, 7, 3, {
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(1), MSN_NOW(7) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(2), MSN_NOW(7) },
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 40), ACKREQ, V(EXE),
	    R_ACK(2, 8), EP(3), MSN_NOW(8), TAKES(1) } },
	  1, { { 2, 2 * MTU + 40 } } },
	{ "one SEND, its pieces last to first", 100, 0, 7, 3, {
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 40), ACKREQ, V(EXE),
	    R_ACK(-1, 7), EP(0), MSN_NOW(7) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(0), MSN_NOW(7) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(3), MSN_NOW(8),
	    TAKES(1) } },
	  1, { { 2, 2 * MTU + 40 } } },
	{ "two SENDs interleaved ahead complete together, in order", 0, 0, 0,
	  4, {
	  { SPRAYED(PIECE_LAST, 3, 1, MTU, 2), V(EXE), RQ_IDX(1), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 1), V(EXE), RQ_IDX(0), EP(0) },
	  { SPRAYED(PIECE, 2, 1, 0, MTU), V(EXE), RQ_IDX(1), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), RQ_IDX(0), EP(4),
	    MSN_NOW(2), TAKES(2) } },
	  2, { { 1, MTU + 1 }, { 3, MTU + 2 } } },
	{ "once the first SEND completes the second's WQE is the next", 0, 0,
	  0, 4, {
	  { SPRAYED(PIECE_LAST, 3, 1, MTU, 2), V(EXE), RQ_IDX(1), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 1), V(EXE), RQ_IDX(0), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(2), MSN_NOW(1),
	    TAKES(1) },
	  { SPRAYED(PIECE, 2, 1, 0, MTU), V(EXE), RQ_IDX(0), EP(4),
	    MSN_NOW(2), TAKES(1) } },
	  2, { { 1, MTU + 1 }, { 3, MTU + 2 } } },
	/*
	 * Held: two pieces and a WRITE. Counting every held PSN would make
	 * the MSN 5, forgetting the WRITE 2.
	 */
	{ "a sprayed WRITE held between SENDs is one message", 0, 0, 0, 4, {
	  { SPRAYED(PIECE_LAST, 3, 1, 0, 5), V(EXE), RQ_IDX(1), EP(0) },
	  { PLAIN(WRITE_ONLY, 2, 8), RETH(8), V(EXE), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 1), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(4), MSN_NOW(3),
	    TAKES(2) } },
	  2, { { 1, MTU + 1 }, { 3, 5 } } },
	/* SSN 0 is the standard SEND: its WQE is taken, not counted. */
	{ "a standard SEND in progress holds its receive WQE", 0, 0, 0, 6, {
	  { PLAIN(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { SPRAYED(PIECE_LAST, 3, 0, 0, 1), V(OOS), R_NAK(SYN_SEQ, 1, 0),
	    EP(1) },
	  { SPRAYED(PIECE_LAST, 2, 1, 0, 1), V(EXE), RQ_IDX(0), EP(1) },
	  { SPRAYED(PIECE_LAST, 3, 2, 0, 3), V(EXE), RQ_IDX(1), EP(1) },
	  { PLAIN(SEND_LAST, 1, 9), V(EXE), EP(4), MSN_NOW(3), TAKES(2) },
	  { SPRAYED(PIECE_LAST, 4, 3, 0, 0), V(EXE), RQ_IDX(0), EP(5),
	    MSN_NOW(4), TAKES(1) } },
	  3, { { 2, 1 }, { 3, 3 }, { 4, 0 } } },
	/* A WRITE with immediate takes its receive WQE at its last packet. */
	{ "a WRITE with immediate in progress holds no receive WQE yet", 0, 0,
	  0, 3, {
	  { PLAIN(WRITE_FIRST, 0, MTU), RETH(MTU + 4), V(EXE), EP(1) },
	  { SPRAYED(PIECE_LAST, 2, 1, 0, 5), V(EXE), RQ_IDX(1), EP(1) },
	  { PLAIN(WRITE_LAST_IMM, 1, 4), V(EXE), EP(3), MSN_NOW(2),
	    TAKES(1) } },
	  1, { { 2, 5 } } },
	{ "SENDs and WRITEs with immediate count in the SSN, WRITEs not", 0,
	  0, 0, 5, {
	  { PLAIN(SEND_ONLY, 0, 4), V(EXE), EP(1), MSN_NOW(1) },
	  { PLAIN(WRITE_ONLY_IMM, 1, 4), RETH(4), V(EXE), EP(2),
	    MSN_NOW(2) },
	  { PLAIN(WRITE_ONLY, 2, 4), RETH(4), V(EXE), EP(3), MSN_NOW(3) },
	  { SPRAYED(PIECE_LAST, 4, 3, 0, 7), V(EXE), RQ_IDX(1), EP(3),
	    MSN_NOW(3) },
	  { SPRAYED(PIECE_LAST, 3, 2, 0, 6), V(EXE), RQ_IDX(0), EP(5),
	    MSN_NOW(5), TAKES(2) } },
	  2, { { 3, 6 }, { 4, 7 } } },
	/* In order, a piece must belong to the next message. */
	{ "an in-order piece of a later SEND is invalid", 0, 0, 0, 2, {
	  { SPRAYED(PIECE_LAST, 0, 1, 0, 5), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) },
	  { SPRAYED(PIECE_LAST, 0, 0, 0, 5), V(DRP), EP(0) } },
	  0, {} },
	{ "an in-order piece inside a standard SEND is invalid", 0, 0, 0, 2, {
	  { PLAIN(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { SPRAYED(PIECE_LAST, 1, 1, 0, 5), V(INV), R_NAK(SYN_INV, 1, 0),
	    ERR, EP(1) } },
	  0, {} },
	/* Limits: ahead, a piece refused draws the one sequence NAK. */
	{ "a SEND 63 ahead is taken, 64 ahead refused", 0, 0x20, 0, 2, {
	  { SPRAYED(PIECE_LAST, 5, 64, 0, 1), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE_LAST, 4, 63, 0, 1), V(EXE), RQ_IDX(63), EP(0) } },
	  0, {} },
	{ "a piece of a SEND completed before is refused", 0, 10, 0, 2, {
	  { SPRAYED(PIECE_LAST, 1, -1, 0, 1), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE_LAST, 0, -1, 0, 1), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } },
	  0, {} },
	{ "a piece before the last short of the MTU is refused", 0, 0, 0, 2, {
	  { SPRAYED(PIECE, 1, 0, MTU, MTU - 1), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU - 1), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } },
	  0, {} },
	{ "a piece before the last over the MTU is refused", 0, 0, 0, 2, {
	  { SPRAYED(PIECE, 1, 0, MTU, MTU + 1), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU + 1), V(INV), R_NAK(SYN_INV, 0, 0),
	    ERR, EP(0) } },
	  0, {} },
	{ "an offset off the MTU grid is refused", 0, 0, 0, 2, {
	  { SPRAYED(PIECE_LAST, 1, 0, MTU + 8, 5), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 8, MTU), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } },
	  0, {} },
	{ "a last piece over the MTU is refused", 0, 0, 0, 2, {
	  { SPRAYED(PIECE_LAST_IMM, 1, 0, MTU, MTU + 1), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE_LAST_INV, 0, 0, 0, MTU + 1), V(INV),
	    R_NAK(SYN_INV, 0, 0), ERR, EP(0) } },
	  0, {} },
	{ "an empty last piece only as the whole SEND", 0, 0, 0, 2, {
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 0), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE_LAST, 0, 0, 0, 0), V(EXE), EP(1), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 0, 0 } } },
	{ "a second last piece of the same SEND is refused", 0, 0, 0, 4, {
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 5), V(EXE), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 5), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(3), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 2, 2 * MTU + 5 } } },
	{ "a SEND ends at 2^31 bytes at the most", 0, 0, 0, 3, {
	  { SPRAYED(PIECE, 2, 0, 0x80000000U, MTU), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, 0x80000000U - MTU, MTU), V(EXE),
	    EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(2), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 1, 0x80000000U } } },
	{ "a piece beyond the receive window is refused", 0, 0, 0, 2, {
	  { SPRAYED(PIECE, RMP_RXWIN_MAX, 0, 0, MTU), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { SPRAYED(PIECE, RMP_RXWIN_MAX - 1, 0, 0, MTU), V(EXE), EP(0) } },
	  0, {} },
	/* Duplicates: a held piece, and one the expected PSN passed. */
	{ "a piece again is a duplicate, acknowledged", 0, 0, 0, 6, {
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(DUP), R_ACK(-1, 0), EP(0) },
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 1), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(3), MSN_NOW(1),
	    TAKES(1) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(DUP), R_ACK(2, 1), EP(3),
	    MSN_NOW(1) },
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 1), V(DUP), R_ACK(2, 1),
	    EP(3), MSN_NOW(1) } },
	  1, { { 2, 2 * MTU + 1 } } },
	/* Failures: nothing moves, nothing is held, no SEND ends. */
	{ "RNR on an in-order piece moves nothing", 0, 0, 0, 4, {
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 3), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), ST(RNR), V(EXE),
	    R_NAK(SYN_RNR(RNR_TIMER), 0, 0), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 3), V(DUP), R_ACK(-1, 0), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(2), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 1, MTU + 3 } } },
	{ "RNR on a last piece ahead drops it, unnoted", 0, 0, 0, 3, {
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 3), ST(RNR), V(EXE), DROPPED,
	    EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(1) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 3), V(EXE), EP(2), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 1, MTU + 3 } } },
	/* Held, it would be a duplicate the second time. */
	{ "a piece ahead too long for its WQE is dropped", 0, 0, 0, 4, {
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), ST(REM_INVALID), V(EXE), DROPPED,
	    EP(0) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(2) },
	  { SPRAYED(PIECE_LAST, 2, 0, 2 * MTU, 1), V(EXE), EP(3), MSN_NOW(1),
	    TAKES(1) } },
	  1, { { 2, 2 * MTU + 1 } } },
	/* Wraparound. */
	{ "a SEND across PSN 0xffffff", 0xfffffe, 0, 0, 5, {
	  { SPRAYED(PIECE_LAST, 3, 0, 3 * MTU, 9), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 1, 0, MTU, MTU), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 2, 0, 2 * MTU, MTU), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(4), MSN_NOW(1),
	    TAKES(1) },
	  { SPRAYED(PIECE_LAST, 4, 1, 0, 1), ACKREQ, V(EXE), R_ACK(4, 2),
	    EP(5), MSN_NOW(2), TAKES(1) } },
	  2, { { 3, 3 * MTU + 9 }, { 4, 1 } } },
	{ "SENDs across SSN 0xffffff", 0, 0xfffffe, 0, 5, {
	  { SPRAYED(PIECE_LAST, 2, 2, 0, 3), V(EXE), RQ_IDX(2), EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 1, 0, 2), V(EXE), RQ_IDX(1), EP(0) },
	  { SPRAYED(PIECE_LAST, 3, 64, 0, 2), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE_LAST, 0, 0, 0, 1), V(EXE), EP(3), MSN_NOW(3),
	    TAKES(3) },
	  { SPRAYED(PIECE_LAST, 3, 3, 0, 4), V(EXE), EP(4), MSN_NOW(4),
	    TAKES(1) } },
	  4, { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 } } },
	/*
	 * A sprayed WRITE with immediate data: WRITE ONLYs, each a message,
	 * then its last piece, placed by its RETH, which completes the
	 * receive WQE its SSN names with the WRITE's length.
	 */
	{ "a sprayed WRITE with immediate in order", 100, 0, 7, 3, {
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(1), MSN_NOW(8) },
	  { PLAIN(WRITE_ONLY, 1, MTU), RETH_AT(VA + MTU, MTU, RKEY),
	    V(EXE), EP(2), MSN_NOW(9) },
	  { WPIECE(2, 0, 2 * MTU, 40, 40), ACKREQ, V(EXE), R_ACK(2, 10),
	    EP(3), MSN_NOW(10), TAKES(1) } },
	  1, { { 2, 2 * MTU + 40 } } },
	{ "a WRITE's last piece ahead of its WRITE ONLYs", 0xfffffe, 5, 0, 3, {
	  { WPIECE(2, 0, 2 * MTU, 1, 1), V(EXE), EP(0), MSN_NOW(0) },
	  { PLAIN(WRITE_ONLY, 1, MTU), RETH_AT(VA + MTU, MTU, RKEY),
	    V(EXE), EP(0), MSN_NOW(0) },
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(3), MSN_NOW(3), TAKES(1) } },
	  1, { { 2, 2 * MTU + 1 } } },
	{ "a WRITE with immediate held between SENDs completes in turn", 0, 0,
	  0, 5, {
	  { SPRAYED(PIECE_LAST, 4, 2, 0, 7), V(EXE), RQ_IDX(2), EP(0) },
	  { WPIECE(3, 1, MTU, 5, 5), V(EXE), RQ_IDX(1), EP(0) },
	  { PLAIN(WRITE_ONLY, 2, MTU), RETH_AT(VA, MTU, RKEY), V(EXE), EP(0) },
	  { SPRAYED(PIECE, 0, 0, 0, MTU), V(EXE), EP(1) },
	  { SPRAYED(PIECE_LAST, 1, 0, MTU, 2), V(EXE), EP(5), MSN_NOW(4),
	    TAKES(3) } },
	  3, { { 1, MTU + 2 }, { 3, MTU + 5 }, { 4, 7 } } },
	{ "an empty WRITE with immediate is one piece at offset 0", 0, 0, 0,
	  2, {
	  { WPIECE(1, 0, MTU, 0, 0), V(OOS), R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { WPIECE(0, 0, 0, 0, 0), ACKREQ, V(EXE), R_ACK(0, 1), EP(1),
	    MSN_NOW(1), TAKES(1) } },
	  1, { { 0, 0 } } },
	/* Its RETH follows a WRITE ONLY's rules. */
	{ "a WRITE's last piece of another length than its RETH's is refused",
	  0, 0, 0, 3, {
	  { WPIECE(1, 1, 0, 5, 6), V(OOS), R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { WPIECE(1, 1, 0, 5, 5), V(EXE), RQ_IDX(1), EP(0) },
	  { WPIECE(0, 0, 0, 5, 4), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } },
	  0, {} },
	{ "without write permission a SEND piece is taken, a WRITE's not", 0,
	  0, 0, 4, {
	  { WPIECE(2, 2, 0, 5, 5), DENY(WRITE), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { SPRAYED(PIECE_LAST, 1, 1, 0, 5), V(EXE), RQ_IDX(1), EP(0) },
	  { SPRAYED(PIECE_LAST, 0, 0, 0, 3), V(EXE), EP(2), MSN_NOW(2),
	    TAKES(2) },
	  { WPIECE(2, 2, 0, 5, 5), V(INV), R_NAK(SYN_INV, 2, 2), ERR, EP(2),
	    MSN_NOW(2) } },
	  2, { { 0, 3 }, { 1, 5 } } },
	{ "a WRITE's last piece 63 ahead is taken, 64 ahead refused", 0, 0x30,
	  0, 2, {
	  { WPIECE(5, 64, 0, 1, 1), V(OOS), R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { WPIECE(4, 63, 0, 1, 1), V(EXE), RQ_IDX(63), EP(0) } },
	  0, {} },
	{ "a WRITE's last piece over the MTU or off the grid is refused", 0, 0,
	  0, 2, {
	  { WPIECE(1, 0, MTU, MTU + 1, MTU + 1), V(OOS),
	    R_NAK(SYN_SEQ, 0, 0), EP(0) },
	  { WPIECE(0, 0, 8, 5, 5), V(INV), R_NAK(SYN_INV, 0, 0), ERR,
	    EP(0) } },
	  0, {} },
	{ "a second last piece of a WRITE's SSN is refused", 0, 0, 0, 4, {
	  { WPIECE(1, 0, MTU, 5, 5), V(EXE), EP(0) },
	  { SPRAYED(PIECE_LAST, 2, 0, 0, 4), V(OOS), R_NAK(SYN_SEQ, 0, 0),
	    EP(0) },
	  { WPIECE(3, 0, 0, 4, 4), V(OOS), EP(0) },
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(2), MSN_NOW(2), TAKES(1) } },
	  1, { { 1, MTU + 5 } } },
	{ "an in-order WRITE's last piece inside a standard WRITE is invalid",
	  0, 0, 0, 2, {
	  { PLAIN(WRITE_FIRST, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { WPIECE(1, 0, MTU, MTU, MTU), V(INV), R_NAK(SYN_INV, 1, 0), ERR,
	    EP(1) } },
	  0, {} },
	/* Failures ahead: dropped, unnoted; in order: the QP fails. */
	{ "RNR on a WRITE's last piece ahead drops it, unnoted", 0, 0, 0, 3, {
	  { WPIECE(1, 0, MTU, 3, 3), ST(RNR), V(EXE), DROPPED, EP(0) },
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(1), MSN_NOW(1) },
	  { WPIECE(1, 0, MTU, 3, 3), V(EXE), EP(2), MSN_NOW(2), TAKES(1) } },
	  1, { { 1, MTU + 3 } } },
	{ "a bad R_Key in a WRITE's last piece: dropped ahead, fatal in order",
	  0, 0, 0, 3, {
	  { WPIECE(1, 0, MTU, 3, 3), ST(REM_ACCESS), V(EXE), DROPPED, EP(0) },
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(1), MSN_NOW(1) },
	  { WPIECE(1, 0, MTU, 3, 3), ST(REM_ACCESS), V(EXE),
	    R_NAK(SYN_ACC, 1, 1), ERR, EP(1), MSN_NOW(1) } },
	  0, {} },
	{ "a WRITE's last piece again is a duplicate, acknowledged", 0, 0, 0,
	  4, {
	  { WPIECE(1, 0, MTU, 3, 3), V(EXE), EP(0) },
	  { WPIECE(1, 0, MTU, 3, 3), V(DUP), R_ACK(-1, 0), EP(0) },
	  { PLAIN(WRITE_ONLY, 0, MTU), RETH_AT(VA, MTU, RKEY),
	    V(EXE), EP(2), MSN_NOW(2), TAKES(1) },
	  { WPIECE(1, 0, MTU, 3, 3), V(DUP), R_ACK(1, 2), EP(2),
	    MSN_NOW(2) } },
	  1, { { 1, MTU + 3 } } },
};

KUNIT_ARRAY_PARAM(sp, sp_cases, sp_desc);

/* Step @i's immediate data, or the R_Key it invalidates. */
#define SP_DATA(i)	(0xd00d0000U | (i))

/* Last pieces by PSN, as the case's SENDs are (struct sp_sent). */
#define SP_PSNS		16

static void sp_step_in(const struct sp_case *c, const struct sp_step *s,
		       u32 i, struct rmp_resp_in *in)
{
	memset(in, 0, sizeof(*in));
	if (rmp_opcode_info(s->op)->flags & (RMP_OPF_IMMDT | RMP_OPF_IETH))
		in->data = SP_DATA(i);
	in->psn = at(c->epsn, s->psn);
	in->opcode = s->op;
	in->ackreq = s->ackreq;
	in->payload_len = s->len;
	in->ssn = rmp_psn_add(c->ssn, (u32)s->ssn);
	in->offset = s->off;
	in->va = s->va;
	in->rkey = s->rkey;
	in->dma_len = s->dma;
}

/*
 * An EXECUTE of a piece says where it goes, and neither begins nor ends;
 * a WRITE's last piece goes where its own RETH says.
 */
static void sp_check_piece(struct kunit *test, const struct sp_step *s,
			   const struct rmp_resp_out *out, u32 i)
{
	KUNIT_EXPECT_EQ_MSG(test, out->offset, s->off, "step %u", i);
	KUNIT_EXPECT_EQ_MSG(test, out->rq_idx, s->rq, "step %u", i);
	KUNIT_EXPECT_FALSE_MSG(test, out->first, "step %u", i);
	KUNIT_EXPECT_FALSE_MSG(test, out->last, "step %u", i);
	if (!(rmp_opcode_info(s->op)->flags & RMP_OPF_WRITE))
		return;
	KUNIT_EXPECT_EQ_MSG(test, out->va, s->va, "step %u", i);
	KUNIT_EXPECT_EQ_MSG(test, out->rkey, s->rkey, "step %u", i);
}

/*
 * Scripts of pieces, with standard requests between: each piece's verdict
 * and placement, the replies, the expected PSN and MSN after each packet,
 * and the SENDs completed, taken one by one in SSN order while every
 * packet waits (-EBUSY, @out untouched) until the last is taken, each
 * with the opcode and the data of the last piece taken at its PSN.
 */
static void rmp_resp_piece__scripts(struct kunit *test)
{
	const struct sp_case *c = test->param_value;
	struct rmp_resp_out out, before;
	struct rmp_resp_sent sent;
	u8 last_op[SP_PSNS] = {};
	u32 last_data[SP_PSNS] = {};
	struct rmp_resp_in in;
	struct rmp_resp *resp;
	u32 i, k, flags, taken = 0;
	bool piece;
	s32 psn;

	resp = &sp_setup(test, c->epsn, c->msn, c->ssn)->resp;
	for (i = 0; i < c->n; i++) {
		const struct sp_step *s = &c->s[i];

		flags = rmp_opcode_info(s->op)->flags;
		piece = flags & RMP_OPF_SPETH;
		resp->access &= ~s->deny;
		sp_step_in(c, s, i, &in);
		KUNIT_ASSERT_EQ_MSG(test, rmp_resp_packet(resp, &in, &out), 0,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.verdict, s->verdict, "step %u", i);
		if (out.verdict == EXE) {
			if (piece)
				sp_check_piece(test, s, &out, i);
			KUNIT_ASSERT_EQ_MSG(test,
					    rmp_resp_executed(resp, s->status,
							      0, &out),
					    0, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.verdict,
					    s->dropped ? DRP : EXE, "step %u", i);
			if (piece && !s->dropped)
				sp_check_piece(test, s, &out, i);
			if (piece && (flags & RMP_OPF_LAST) && !s->dropped &&
			    s->status == RMP_RESP_OK && s->psn >= 0 &&
			    s->psn < SP_PSNS) {
				last_op[s->psn] = s->op;
				last_data[s->psn] = in.data;
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, out.reply.kind, s->reply, "step %u", i);
		if (s->reply == RMP_RESP_REPLY_ACK) {
			KUNIT_EXPECT_EQ_MSG(test, out.reply.syndrome, s->syn,
					    "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.psn,
					    at(c->epsn, s->rpsn), "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.msn, s->msn,
					    "step %u", i);
		}
		KUNIT_EXPECT_EQ_MSG(test, out.error, s->err, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rmp_resp_epsn(resp),
				    at(c->epsn, s->epsn), "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, resp->msn, s->msn_now, "step %u", i);

		for (k = 0; k < s->taken; k++) {
			memset(&out, 0x5a, sizeof(out));
			before = out;
			KUNIT_EXPECT_EQ_MSG(test,
					    rmp_resp_packet(resp, &in, &out),
					    -EBUSY, "step %u, SEND %u", i, k);
			KUNIT_EXPECT_EQ_MSG(test,
					    memcmp(&out, &before, sizeof(out)),
					    0, "step %u, SEND %u", i, k);
			KUNIT_ASSERT_TRUE_MSG(test,
					      rmp_resp_take_sent(resp, &sent),
					      "step %u, SEND %u", i, k);
			KUNIT_ASSERT_TRUE_MSG(test, taken < c->nsent,
					      "step %u: SEND %u unexpected", i,
					      taken);
			psn = c->sent[taken].psn;
			KUNIT_EXPECT_EQ_MSG(test, sent.psn, at(c->epsn, psn),
					    "SEND %u", taken);
			KUNIT_EXPECT_EQ_MSG(test, sent.len, c->sent[taken].len,
					    "SEND %u", taken);
			KUNIT_ASSERT_TRUE(test, psn >= 0 && psn < SP_PSNS);
			KUNIT_EXPECT_EQ_MSG(test, sent.opcode, last_op[psn],
					    "SEND %u", taken);
			KUNIT_EXPECT_EQ_MSG(test, sent.data, last_data[psn],
					    "SEND %u", taken);
			taken++;
		}
		KUNIT_EXPECT_FALSE_MSG(test, rmp_resp_take_sent(resp, &sent),
				       "step %u", i);
	}
	KUNIT_EXPECT_EQ(test, taken, c->nsent);
}

/*
 * Send spraying needs an RC responder that takes WRITEs out of order.
 * Until it is on, a piece is no request of the QP: dropped without a
 * word, in order or ahead, and nothing moves.
 */
static void rmp_resp_send_spray__needs_multipath(struct kunit *test)
{
	const struct rmp_resp_config uc = { .mtu = MTU, .uc = true };
	struct rmp_resp_spray *sp = kunit_kzalloc(test, sizeof(*sp),
						  GFP_KERNEL);
	struct rmp_resp_in in = { .opcode = RMP_OP_EXT_SEND_PIECE_LAST,
				  .payload_len = 4, .ackreq = true };
	struct rmp_resp_sent sent;
	struct rmp_resp_out out;
	struct rmp_resp resp;
	u32 psn;

	KUNIT_ASSERT_NOT_NULL(test, sp);
	KUNIT_ASSERT_EQ(test, rmp_resp_init(&resp, &uc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_send_spray(&resp, sp), -EINVAL);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, DRP);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 0U);
	resp_setup(test, &resp, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_send_spray(&resp, sp), -EINVAL);

	for (psn = 0; psn < 2; psn++) {
		in.psn = psn;
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_EXPECT_EQ_MSG(test, out.verdict, DRP, "psn %u", psn);
		KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
	}
	KUNIT_ASSERT_EQ(test, rmp_resp_multipath(&resp, false), 0);
	for (psn = 0; psn < 2; psn++) {
		in.psn = psn;
		KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(&resp, &in));
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
		KUNIT_EXPECT_EQ_MSG(test, out.verdict, DRP, "psn %u", psn);
		KUNIT_EXPECT_EQ(test, out.reply.kind, RMP_RESP_REPLY_NONE);
	}
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), 0U);
	KUNIT_EXPECT_FALSE(test, resp.error);

	/* A standard SEND completes as ever, with nothing to take. */
	in.psn = 0;
	in.opcode = RMP_OP_RC_SEND_ONLY;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_TRUE(test, out.last);
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(&resp, &sent));

	/* Once on, the same piece is taken; it names SSN 1 now. */
	KUNIT_ASSERT_EQ(test, rmp_resp_send_spray(&resp, sp), 0);
	in.psn = 1;
	in.opcode = RMP_OP_EXT_SEND_PIECE_LAST;
	in.ssn = 1;
	KUNIT_EXPECT_TRUE(test, rmp_resp_will_execute(&resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_ASSERT_TRUE(test, rmp_resp_take_sent(&resp, &sent));
	KUNIT_EXPECT_EQ(test, sent.psn, 1U);
	KUNIT_EXPECT_EQ(test, sent.len, 4U);
	KUNIT_EXPECT_EQ(test, resp.msn, 2U);
}

/*
 * A completed SEND not yet taken holds back the next packet, even one
 * that would be executed: rmp_resp_will_execute() says no, and
 * rmp_resp_packet() refuses it, leaving @out as it was.
 */
static void rmp_resp_take_sent__holds_the_next_packet(struct kunit *test)
{
	struct rmp_resp *resp = &sp_setup(test, 50, 0, 0)->resp;
	struct rmp_resp_in in = { .psn = 50, .payload_len = 1,
				  .opcode = RMP_OP_EXT_SEND_PIECE_LAST };
	struct rmp_resp_out out, before;
	struct rmp_resp_sent sent;

	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	/* Not complete while only executed: the caller may still fail it. */
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			0);

	in.psn = 51;
	in.ssn = 1;
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(resp, &in));
	memset(&out, 0x5a, sizeof(out));
	before = out;
	KUNIT_EXPECT_EQ(test, rmp_resp_packet(resp, &in, &out), -EBUSY);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &before, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(resp), 51U);

	KUNIT_ASSERT_TRUE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_EQ(test, sent.psn, 50U);
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_TRUE(test, rmp_resp_will_execute(resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, EXE);
}

struct sent_case {
	const char *desc;
	u8 op;
	bool se;
};

static void sent_desc(const struct sent_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct sent_case sent_cases[] = {
	{ "plain last piece", RMP_OP_EXT_SEND_PIECE_LAST, false },
	{ "plain last piece, solicited", RMP_OP_EXT_SEND_PIECE_LAST, true },
	{ "last piece with immediate", RMP_OP_EXT_SEND_PIECE_LAST_IMM, true },
	{ "last piece with invalidate", RMP_OP_EXT_SEND_PIECE_LAST_INV,
	  false },
};

KUNIT_ARRAY_PARAM(sent, sent_cases, sent_desc);

#define SENT_IMM	0x11223344U
#define SENT_RKEY	0xcafe0042U
#define WQE_VA		0x7f0012340000ULL

/*
 * A piece (a WRITE ONLY too) built and parsed as the kernel would, then
 * taken from headers: a RETH, if its opcode has one, names WQE_VA plus
 * the offset and the payload.
 */
static void sp_piece_from_wire(struct kunit *test, struct rmp_resp_in *in,
			       u8 op, u32 psn, u32 ssn, u32 off, u32 len,
			       bool se)
{
	struct rmp_hdr_fields f = {}, p;
	u8 buf[64] = {};
	int hlen;

	f.bth.opcode = op;
	f.bth.psn = psn;
	f.bth.se = se;
	f.bth.pad = rmp_hdr_pad(len);
	f.speth.ssn = ssn;
	f.speth.offset = off;
	f.reth.va = WQE_VA + off;
	f.reth.rkey = SENT_RKEY;
	f.reth.len = len;
	f.imm = cpu_to_be32(SENT_IMM);
	f.ieth.rkey = SENT_RKEY;
	hlen = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, hlen, 0);
	KUNIT_ASSERT_EQ(test,
			rmp_hdr_parse(&p, buf, sizeof(buf),
				      hlen + len + f.bth.pad + RMP_ICRC_SIZE,
				      NULL), 0);
	memset(in, 0xa5, sizeof(*in));
	rmp_resp_in_from_hdr(in, &p);
}

/*
 * The last piece, whenever it arrives, leaves what its SEND completes
 * with: the immediate data as it was on the wire, or the R_Key its IETH
 * invalidates, its opcode and its solicited event bit; the first piece
 * has none of it.
 */
static void rmp_resp_take_sent__last_piece_fields(struct kunit *test)
{
	const struct sent_case *c = test->param_value;
	static const u8 imm_wire[4] = { 0x11, 0x22, 0x33, 0x44 };
	struct rmp_resp *resp = &sp_setup(test, 0x20, 0, 0x345)->resp;
	struct rmp_resp_sent sent;
	struct rmp_resp_out out;
	struct rmp_resp_in in;
	u32 data = 0;

	if (c->op == RMP_OP_EXT_SEND_PIECE_LAST_IMM)
		memcpy(&data, imm_wire, sizeof(data));
	else if (c->op == RMP_OP_EXT_SEND_PIECE_LAST_INV)
		data = SENT_RKEY;

	sp_piece_from_wire(test, &in, c->op, 0x21, 0x345, MTU, 17, c->se);
	KUNIT_EXPECT_EQ(test, in.ssn, 0x345U);
	KUNIT_EXPECT_EQ(test, in.offset, MTU);
	KUNIT_EXPECT_EQ(test, in.payload_len, 17U);
	KUNIT_EXPECT_EQ(test, in.se, c->se);
	KUNIT_EXPECT_EQ(test, in.data, data);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			0);

	sp_piece_from_wire(test, &in, RMP_OP_EXT_SEND_PIECE, 0x20, 0x345, 0,
			   MTU, !c->se);
	KUNIT_EXPECT_EQ(test, in.data, 0U);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			0);

	KUNIT_ASSERT_TRUE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_EQ(test, sent.psn, 0x21U);
	KUNIT_EXPECT_EQ(test, sent.len, MTU + 17);
	KUNIT_EXPECT_EQ(test, sent.data, data);
	KUNIT_EXPECT_EQ(test, sent.opcode, c->op);
	KUNIT_EXPECT_EQ(test, sent.se, c->se);
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(resp, &sent));
}

/*
 * The last piece of a sprayed WRITE with immediate data, from the wire,
 * ahead of the WRITE ONLY before it: placed by its RETH (address and
 * R_Key), at its offset in the WRITE, and once the WRITE ONLY is placed
 * it completes a receive WQE with the WRITE's length, its immediate data
 * as it was on the wire, its opcode and its solicited event bit; the two
 * count as two messages.
 */
static void rmp_resp_take_sent__write_piece_fields(struct kunit *test)
{
	static const u8 imm_wire[4] = { 0x11, 0x22, 0x33, 0x44 };
	struct rmp_resp *resp = &sp_setup(test, 0x20, 9, 0x345)->resp;
	struct rmp_resp_sent sent;
	struct rmp_resp_out out;
	struct rmp_resp_in in;
	u32 data;
	bool se;

	memcpy(&data, imm_wire, sizeof(data));
	for (se = false; ; se = true) {
		sp_piece_from_wire(test, &in, RMP_OP_EXT_WRITE_PIECE_LAST_IMM,
				   0x21, 0x345, MTU, 17, se);
		KUNIT_EXPECT_EQ(test, in.ssn, 0x345U);
		KUNIT_EXPECT_EQ(test, in.offset, MTU);
		KUNIT_EXPECT_EQ(test, in.payload_len, 17U);
		KUNIT_EXPECT_EQ(test, in.va, WQE_VA + MTU);
		KUNIT_EXPECT_EQ(test, in.rkey, SENT_RKEY);
		KUNIT_EXPECT_EQ(test, in.dma_len, 17U);
		KUNIT_EXPECT_EQ(test, in.se, se);
		KUNIT_EXPECT_EQ(test, in.data, data);
		if (se)
			break;
		/* Without its solicited bit: taken, then failing, dropped. */
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
		KUNIT_ASSERT_EQ(test, out.verdict, EXE);
		KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_RNR, 0,
							&out), 0);
		KUNIT_EXPECT_EQ(test, out.verdict, DRP);
	}
	KUNIT_EXPECT_FALSE(test, rmp_resp_will_execute(resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_EXPECT_EQ(test, out.va, WQE_VA + MTU);
	KUNIT_EXPECT_EQ(test, out.rkey, SENT_RKEY);
	KUNIT_EXPECT_EQ(test, out.offset, MTU);
	KUNIT_EXPECT_EQ(test, out.rq_idx, 0U);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_EQ(test, out.verdict, EXE);
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_EQ(test, resp->msn, 9U);

	sp_piece_from_wire(test, &in, RMP_OP_RC_WRITE_ONLY, 0x20, 0, 0, MTU,
			   false);
	KUNIT_EXPECT_EQ(test, in.data, 0U);
	KUNIT_EXPECT_TRUE(test, rmp_resp_will_execute(resp, &in));
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, &in, &out), 0);
	KUNIT_ASSERT_EQ(test, out.verdict, EXE);
	KUNIT_EXPECT_EQ(test, out.va, WQE_VA);
	KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(resp), 0x22U);
	KUNIT_EXPECT_EQ(test, resp->msn, 11U);

	KUNIT_ASSERT_TRUE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_EQ(test, sent.psn, 0x21U);
	KUNIT_EXPECT_EQ(test, sent.len, MTU + 17);
	KUNIT_EXPECT_EQ(test, sent.data, data);
	KUNIT_EXPECT_EQ(test, sent.opcode,
			(u8)RMP_OP_EXT_WRITE_PIECE_LAST_IMM);
	KUNIT_EXPECT_TRUE(test, sent.se);
	KUNIT_EXPECT_FALSE(test, rmp_resp_take_sent(resp, &sent));
	KUNIT_EXPECT_EQ(test, resp->ssn, 0x346U);
}

/* --- randomized: model requester over a lossy, duplicating link -------- */

#define RND_MTU		256
#define RND_MSGS	300
#define RND_PSNS	(RND_MSGS * 4)
#define RND_NRES	4
#define RND_WIN		32
#define RND_BURST	12
#define RND_QLEN	1024
#define RND_TIMEOUT	6
#define RND_ROUNDS	20000

enum { M_SEND, M_WRITE, M_READ, M_FADD, M_AWRITE, M_KINDS };

struct rnd_msg {
	u8 kind;
	u32 len;
	u32 first;
	u32 npkts;
	u32 exec;
	u32 nfadd;
	u64 orig;
	bool got_orig;
};

/* A packet on either direction of the link. */
struct rnd_pkt {
	struct rmp_resp_in in;		/* requests */
	u8 kind;			/* replies: ACK, ATOMIC_ACK, READ */
	u8 syndrome;
	u32 psn;
	u64 orig;
	u8 opcode;
	u32 offset;
	u32 len;
};

struct rnd_queue {
	u32 n;
	struct rnd_pkt p[RND_QLEN];
};

static struct rnd_msg rnd_msgs[RND_MSGS];
static u16 rnd_msg_of[RND_PSNS];
static u8 rnd_exec[RND_PSNS];
static struct rnd_queue rnd_fwd, rnd_rev;
static struct rmp_resp_res rnd_res[RND_NRES];
/*
 * What the run went through: verdicts, RNRs, replayed READs and atomics,
 * packets found corrupt after placement.
 */
static u32 rnd_verdicts[RMP_RESP_DROP + 1], rnd_rnrs, rnd_replays;
static u32 rnd_discards;

struct rnd_case {
	const char *desc;
	u32 seed;
	u32 epsn;
	u32 msn;
	u32 loss;	/* per mille, each direction */
	u32 dup;
	u32 swap;
	u32 rnr;
	u32 ack_every;
	u32 corrupt;	/* per mille of executed packets, discarded */
};

static void rnd_desc(const struct rnd_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct rnd_case rnd_cases[] = {
	{ "clean link", 1, 1000, 0, 0, 0, 0, 0, 0, 0 },
	{ "5% loss", 2, 0xffff80, 0xffffc0, 50, 0, 0, 0, 0, 0 },
	{ "loss, duplicates, reordering, RNR", 3, 0xfffff0, 0xffff00, 50, 50,
	  30, 100, 4, 0 },
	{ "heavy loss", 0xc0ffee, 0x7ffff0, 5, 200, 100, 50, 100, 0, 0 },
	{ "wrap: duplicates only", 77, 0xffffff, 0xffffff, 0, 200, 0, 0, 2, 0 },
	{ "loss, found corrupt after placement", 9, 0xfffe00, 0, 30, 20, 20,
	  50, 0, 150 },
};

KUNIT_ARRAY_PARAM(rnd, rnd_cases, rnd_desc);

static u32 rnd_seed;

static u32 rnd_next(void)
{
	u32 x = rnd_seed;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rnd_seed = x;
	return x;
}

static bool rnd_chance(u32 per_mille)
{
	return rnd_next() % 1000 < per_mille;
}

static void rnd_push(struct kunit *test, struct rnd_queue *q,
		     const struct rnd_pkt *p)
{
	KUNIT_ASSERT_LT(test, q->n, (u32)RND_QLEN);
	q->p[q->n++] = *p;
}

/* Loses, duplicates and swaps neighbours, then hands the packets over. */
static u32 rnd_perturb(struct kunit *test, const struct rnd_case *c,
		       struct rnd_queue *q, struct rnd_pkt *out)
{
	u32 i, n = 0;

	for (i = 0; i + 1 < q->n; i++) {
		if (rnd_chance(c->swap)) {
			struct rnd_pkt t = q->p[i];

			q->p[i] = q->p[i + 1];
			q->p[i + 1] = t;
		}
	}
	for (i = 0; i < q->n; i++) {
		if (rnd_chance(c->loss))
			continue;
		KUNIT_ASSERT_LT(test, n + 1, (u32)RND_QLEN);
		out[n++] = q->p[i];
		if (rnd_chance(c->dup))
			out[n++] = q->p[i];
	}
	q->n = 0;
	return n;
}

static struct rnd_pkt rnd_batch[RND_QLEN];

struct rnd_req {
	u32 una;
	u32 nxt;
	u32 total;
	u32 wait;
	u32 idle;
};

static void rnd_build(void)
{
	u32 i, psn = 0, nfadd = 0;

	for (i = 0; i < RND_MSGS; i++) {
		struct rnd_msg *m = &rnd_msgs[i];
		u32 k, r = rnd_next();

		memset(m, 0, sizeof(*m));
		m->kind = r % M_KINDS;
		m->len = (r >> 8) % (4 * RND_MTU + 1);
		m->first = psn;
		if (m->kind == M_FADD) {
			m->len = 0;
			m->nfadd = nfadd++;
		}
		if (m->kind == M_AWRITE)
			m->len = 8;
		m->npkts = m->kind == M_FADD || m->kind == M_AWRITE ? 1 :
			   m->len ? (m->len + RND_MTU - 1) / RND_MTU : 1;
		for (k = 0; k < m->npkts; k++)
			rnd_msg_of[psn + k] = i;
		psn += m->npkts;
	}
	memset(rnd_exec, 0, sizeof(rnd_exec));
}

static u32 rnd_pos_op(u32 k, u32 n, u8 first, u8 middle, u8 last, u8 only)
{
	if (n == 1)
		return only;
	return !k ? first : k == n - 1 ? last : middle;
}

/* Outstanding READ/atomic messages from the oldest unacknowledged one. */
static u32 rnd_rd_outstanding(u32 from_msg, u32 to_msg)
{
	u32 i, n = 0;

	for (i = from_msg; i <= to_msg; i++)
		n += rnd_msgs[i].kind >= M_READ;
	return n;
}

static void rnd_send(struct kunit *test, const struct rnd_case *c,
		     struct rnd_req *rq)
{
	u32 sent = 0;

	while (sent < RND_BURST && rq->nxt < rq->total &&
	       rq->nxt < rq->una + RND_WIN) {
		u32 mi = rnd_msg_of[rq->nxt], k;
		struct rnd_msg *m = &rnd_msgs[mi];
		struct rnd_pkt p = {};
		struct rmp_resp_in *in = &p.in;

		if (rnd_rd_outstanding(rnd_msg_of[rq->una], mi) > RND_NRES)
			break;
		k = rq->nxt - m->first;
		in->psn = at(c->epsn, rq->nxt);
		in->va = 0x100000 + (u64)mi * 8192;
		in->rkey = RKEY;
		switch (m->kind) {
		case M_SEND:
		case M_WRITE:
			in->payload_len = m->len - k * RND_MTU < RND_MTU ?
					  m->len - k * RND_MTU : RND_MTU;
			in->ackreq = k == m->npkts - 1 || rnd_chance(100);
			if (m->kind == M_SEND) {
				in->opcode = rnd_pos_op(k, m->npkts,
							RMP_OP_RC_SEND_FIRST,
							RMP_OP_RC_SEND_MIDDLE,
							RMP_OP_RC_SEND_LAST,
							RMP_OP_RC_SEND_ONLY);
			} else {
				in->opcode = rnd_pos_op(k, m->npkts,
							RMP_OP_RC_WRITE_FIRST,
							RMP_OP_RC_WRITE_MIDDLE,
							RMP_OP_RC_WRITE_LAST_IMM,
							RMP_OP_RC_WRITE_ONLY);
				in->dma_len = m->len;
			}
			rq->nxt++;
			break;
		case M_READ:
			/* Resume a READ at its first missing response. */
			in->opcode = RMP_OP_RC_READ_REQUEST;
			in->va += k * RND_MTU;
			in->dma_len = m->len - k * RND_MTU;
			rq->nxt = m->first + m->npkts;
			break;
		case M_AWRITE:
			in->opcode = RMP_OP_RC_ATOMIC_WRITE;
			in->payload_len = 8;
			in->dma_len = 8;
			in->ackreq = true;
			rq->nxt++;
			break;
		default:
			in->opcode = RMP_OP_RC_FETCH_ADD;
			rq->nxt++;
			break;
		}
		rnd_push(test, &rnd_fwd, &p);
		sent++;
	}
}

static void rnd_reply(struct kunit *test, const struct rmp_resp_reply *r)
{
	struct rmp_resp_read cur = r->read;
	struct rmp_resp_read_pkt pkt;
	struct rnd_pkt p = {};

	if (r->kind == RMP_RESP_REPLY_NONE)
		return;
	p.kind = r->kind;
	if (r->kind != RMP_RESP_REPLY_READ) {
		p.syndrome = r->syndrome;
		p.psn = r->psn;
		p.orig = r->orig;
		rnd_push(test, &rnd_rev, &p);
		return;
	}
	while (rmp_resp_read_next(&cur, &pkt)) {
		p.psn = pkt.psn;
		p.opcode = pkt.opcode;
		p.offset = pkt.offset;
		p.len = pkt.len;
		rnd_push(test, &rnd_rev, &p);
	}
}

/* The kernel's side: execute, and check exactly-once, in-order. */
static void rnd_responder(struct kunit *test, const struct rnd_case *c,
			  struct rmp_resp *resp, u32 *next_exec, u32 *done,
			  u64 *mem)
{
	u32 n = rnd_perturb(test, c, &rnd_fwd, rnd_batch), i;
	struct rmp_resp_reply flush;

	for (i = 0; i < n; i++) {
		const struct rmp_resp_in *in = &rnd_batch[i].in;
		u32 off = rmp_psn_sub(in->psn, c->epsn);
		enum rmp_resp_status st = RMP_RESP_OK;
		struct rnd_msg *m = &rnd_msgs[rnd_msg_of[off]];
		struct rmp_resp_out out;
		u64 orig = 0;
		bool will;

		will = rmp_resp_will_execute(resp, in);
		KUNIT_ASSERT_EQ(test, rmp_resp_packet(resp, in, &out), 0);
		KUNIT_ASSERT_LT(test, out.verdict, (u8)INV);
		KUNIT_ASSERT_EQ(test, will, out.verdict == EXE);
		/* Its payload placed, the packet fails its ICRC: as if lost. */
		if (will && c->corrupt && rnd_chance(c->corrupt)) {
			KUNIT_ASSERT_EQ(test, rmp_resp_discard(resp), 0);
			rnd_discards++;
			continue;
		}
		rnd_verdicts[out.verdict]++;
		if (out.verdict == DUP && out.reply.kind != RMP_RESP_REPLY_NONE &&
		    out.reply.kind != RMP_RESP_REPLY_ACK)
			rnd_replays++;
		if (out.verdict == EXE) {
			KUNIT_ASSERT_EQ(test, off, *next_exec);
			if (out.first && m->kind == M_SEND &&
			    rnd_chance(c->rnr))
				st = RMP_RESP_RNR;
			if (st == RMP_RESP_OK && m->kind == M_FADD)
				orig = (*mem)++;
			KUNIT_ASSERT_EQ(test, rmp_resp_executed(resp, st, orig,
								&out), 0);
			KUNIT_ASSERT_FALSE(test, out.error);
			rnd_rnrs += st == RMP_RESP_RNR;
			if (st == RMP_RESP_OK) {
				rnd_exec[off]++;
				*next_exec = m->kind == M_READ ?
					     m->first + m->npkts : off + 1;
				if (out.last) {
					KUNIT_ASSERT_EQ(test,
							rnd_msg_of[off], *done);
					m->exec++;
					(*done)++;
				}
			}
		}
		rnd_reply(test, &out.reply);
	}
	if (rnd_chance(250) && rmp_resp_flush_ack(resp, &flush))
		rnd_reply(test, &flush);
}

/* Cumulative acknowledgment through offset @a (inclusive). */
static void rnd_ack_through(struct rnd_req *rq, s32 a)
{
	while ((s32)rq->una <= a && rq->una < rq->total) {
		struct rnd_msg *m = &rnd_msgs[rnd_msg_of[rq->una]];

		if (m->kind >= M_READ) {
			/* Acked past a READ/atomic whose response is
			 * missing: it was lost, ask again.
			 */
			rq->nxt = rq->una;
			return;
		}
		rq->una++;
		rq->idle = 0;
	}
}

static void rnd_requester(struct kunit *test, const struct rnd_case *c,
			  struct rnd_req *rq)
{
	u32 n = rnd_perturb(test, c, &rnd_rev, rnd_batch), i;

	for (i = 0; i < n; i++) {
		const struct rnd_pkt *p = &rnd_batch[i];
		u32 off = rmp_psn_sub(p->psn, c->epsn);
		struct rnd_msg *m;
		u8 type = rmp_aeth_syn_type(p->syndrome);

		KUNIT_ASSERT_LT(test, off, rq->total + 1);
		switch (p->kind) {
		case RMP_RESP_REPLY_ACK:
			if (type == RMP_AETH_ACK) {
				rnd_ack_through(rq, off);
				break;
			}
			KUNIT_ASSERT_TRUE(test, type == RMP_AETH_NAK ||
					  type == RMP_AETH_RNR_NAK);
			if (type == RMP_AETH_NAK)
				KUNIT_ASSERT_EQ(test,
						rmp_aeth_syn_value(p->syndrome),
						(u8)RMP_NAK_PSN_SEQ);
			rnd_ack_through(rq, (s32)off - 1);
			if (rq->una == off) {
				rq->nxt = off;
				if (type == RMP_AETH_RNR_NAK)
					rq->wait = 2;
			}
			break;
		case RMP_RESP_REPLY_ATOMIC_ACK:
			rnd_ack_through(rq, (s32)off - 1);
			m = &rnd_msgs[rnd_msg_of[off]];
			KUNIT_ASSERT_EQ(test, m->kind, (u8)M_FADD);
			KUNIT_ASSERT_EQ(test, p->orig, (u64)m->nfadd);
			if (rq->una == off) {
				m->orig = p->orig;
				m->got_orig = true;
				rq->una++;
				rq->idle = 0;
			}
			break;
		default:
			m = &rnd_msgs[rnd_msg_of[off]];
			if (m->kind == M_AWRITE) {
				/* Answered with nothing, in one packet. */
				KUNIT_ASSERT_EQ(test, p->opcode,
						(u8)RMP_OP_RC_READ_RESPONSE_ONLY);
				KUNIT_ASSERT_EQ(test, p->len, 0U);
			} else {
				KUNIT_ASSERT_EQ(test, m->kind, (u8)M_READ);
				KUNIT_ASSERT_EQ(test, p->len,
						m->len - p->offset < RND_MTU ?
						m->len - p->offset : RND_MTU);
			}
			KUNIT_ASSERT_EQ(test, p->offset,
					(off - m->first) * RND_MTU);
			rnd_ack_through(rq, (s32)m->first - 1);
			if (off == rq->una) {
				rq->una++;
				rq->idle = 0;
			} else if (off > rq->una) {
				rq->nxt = rq->una;
			}
			break;
		}
	}
}

static void rmp_resp_packet__random_lossy_link(struct kunit *test)
{
	const struct rnd_case *c = test->param_value;
	struct rmp_resp_config cfg = {
		.epsn = c->epsn, .mtu = RND_MTU, .min_rnr_timer = 1,
		.access = ALL_ACCESS, .ack_every = c->ack_every,
	};
	struct rnd_req rq = {};
	u32 next_exec = 0, done = 0, rounds = 0, i, nfadd = 0;
	struct rmp_resp resp;
	u64 mem = 0;

	rnd_seed = c->seed;
	memset(rnd_verdicts, 0, sizeof(rnd_verdicts));
	rnd_rnrs = 0;
	rnd_replays = 0;
	rnd_discards = 0;
	rnd_build();
	rq.total = rnd_msgs[RND_MSGS - 1].first + rnd_msgs[RND_MSGS - 1].npkts;
	KUNIT_ASSERT_EQ(test, rmp_resp_init(&resp, &cfg, rnd_res, RND_NRES), 0);
	resp.msn = c->msn;
	rnd_fwd.n = 0;
	rnd_rev.n = 0;

	while (rq.una < rq.total) {
		KUNIT_ASSERT_LT(test, ++rounds, (u32)RND_ROUNDS);
		if (rq.wait)
			rq.wait--;
		else
			rnd_send(test, c, &rq);
		rnd_responder(test, c, &resp, &next_exec, &done, &mem);
		rnd_requester(test, c, &rq);
		if (++rq.idle > RND_TIMEOUT) {
			rq.nxt = rq.una;
			rq.idle = 0;
		}
	}

	KUNIT_EXPECT_EQ(test, done, (u32)RND_MSGS);
	KUNIT_EXPECT_EQ(test, next_exec, rq.total);
	KUNIT_EXPECT_EQ(test, rmp_resp_epsn(&resp), at(c->epsn, rq.total));
	KUNIT_EXPECT_EQ(test, resp.msn, (c->msn + RND_MSGS) & RMP_RESP_MSN_MASK);
	for (i = 0; i < RND_MSGS; i++) {
		const struct rnd_msg *m = &rnd_msgs[i];
		u32 k;

		KUNIT_ASSERT_EQ_MSG(test, m->exec, 1U, "message %u", i);
		for (k = 0; k < m->npkts; k++)
			KUNIT_ASSERT_EQ_MSG(test, rnd_exec[m->first + k],
					    m->kind == M_READ && k ? 0 : 1,
					    "message %u packet %u", i, k);
		if (m->kind == M_FADD) {
			KUNIT_ASSERT_TRUE_MSG(test, m->got_orig, "message %u", i);
			KUNIT_ASSERT_EQ_MSG(test, m->orig, (u64)nfadd++,
					    "message %u", i);
		}
	}
	KUNIT_EXPECT_EQ(test, mem, (u64)nfadd);
	/* The link did what the case asked for. */
	if (c->loss || c->dup)
		KUNIT_EXPECT_GT(test, rnd_verdicts[DUP], 0U);
	if (c->loss)
		KUNIT_EXPECT_GT(test, rnd_verdicts[OOS], 0U);
	if (c->loss > 100)
		KUNIT_EXPECT_GT(test, rnd_replays, 0U);
	if (c->rnr)
		KUNIT_EXPECT_GT(test, rnd_rnrs, 0U);
	if (c->corrupt)
		KUNIT_EXPECT_GT(test, rnd_discards, 0U);
	kunit_info(test, "%u rounds: %u executed, %u duplicate (%u replayed), %u out of sequence, %u RNR, %u discarded\n",
		   rounds, rnd_verdicts[EXE], rnd_verdicts[DUP], rnd_replays,
		   rnd_verdicts[OOS], rnd_rnrs, rnd_discards);
}

static struct kunit_case rmp_resp_cases[] = {
	KUNIT_CASE_PARAM(rmp_resp_init__validates, init_gen_params),
	KUNIT_CASE_PARAM(rmp_resp_packet__scripts, script_gen_params),
	KUNIT_CASE_PARAM(rmp_resp_read_next__packets, read_gen_params),
	KUNIT_CASE_PARAM(rmp_resp_packet__duplicate_read_ranges,
			 dupread_gen_params),
	KUNIT_CASE_PARAM(rmp_resp_in_from_hdr__fields, from_hdr_gen_params),
	KUNIT_CASE(rmp_resp_executed__atomic_write_answer),
	KUNIT_CASE(rmp_resp_packet__placement),
	KUNIT_CASE(rmp_resp_executed__misuse),
	KUNIT_CASE(rmp_resp_discard__as_if_never_received),
	KUNIT_CASE(rmp_resp_flush_ack__acks_the_tail),
	KUNIT_CASE(rmp_resp_flush_ack__waits_for_the_message_end),
	KUNIT_CASE(rmp_resp_preempts_read__duplicate_reads_only),
	KUNIT_CASE(rmp_resp_packet__retires_ancient_resources),
	KUNIT_CASE_PARAM(rmp_resp_piece__scripts, sp_gen_params),
	KUNIT_CASE(rmp_resp_send_spray__needs_multipath),
	KUNIT_CASE(rmp_resp_take_sent__holds_the_next_packet),
	KUNIT_CASE_PARAM(rmp_resp_take_sent__last_piece_fields,
			 sent_gen_params),
	KUNIT_CASE(rmp_resp_take_sent__write_piece_fields),
	KUNIT_CASE_PARAM(rmp_resp_packet__random_lossy_link, rnd_gen_params),
	{}
};

static struct kunit_suite rmp_resp_suite = {
	.name = "rmp_resp",
	.test_cases = rmp_resp_cases,
};

kunit_test_suites(&rmp_resp_suite);
