// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the UC mode of the responder transport state machine.
 */
#include <kunit/test.h>

#include "../engine/resp.h"

#define MTU		256
#define VA		0x10000ULL
#define RKEY		0x1234

/* PSN at signed distance @off from @base. */
static u32 at(u32 base, s32 off)
{
	return rmp_psn_add(base, (u32)off);
}

static void uc_setup(struct kunit *test, struct rmp_resp *resp, u32 epsn,
		     u8 access)
{
	struct rmp_resp_config cfg = {
		.epsn = epsn,
		.mtu = MTU,
		.access = access,
		.uc = true,
	};

	KUNIT_ASSERT_EQ(test, rmp_resp_init(resp, &cfg, NULL, 0), 0);
}

/* --- packet scripts --------------------------------------------------- */

#define EXE	RMP_RESP_EXECUTE
#define DUP	RMP_RESP_DUPLICATE
#define DRP	RMP_RESP_DROP

/*
 * One UC request packet, the execution result the kernel reports if the
 * verdict is EXECUTE, and what is expected.  PSNs are offsets from the
 * case's initial expected PSN.
 */
struct step {
	u8 op;
	s32 psn;
	u32 len;
	u32 dma;
	u8 status;

	u8 verdict;
	bool abort;	/* rmp_resp_packet() abandoned the message in progress */
	bool xabort;	/* rmp_resp_executed() abandoned this packet's message */
	bool done;
	u32 off;
	bool err;
	s32 epsn;
};

#define P(_op, _psn, _len)						\
	.op = RMP_OP_UC_##_op, .psn = (_psn), .len = (_len)
#define RETH(_dma)	.dma = (_dma)
#define ST(_s)		.status = RMP_RESP_##_s
#define V(_v)		.verdict = (_v)
#define ABORT		.abort = true
#define XABORT		.xabort = true
#define DONE		.done = true
#define OFF(_o)		.off = (_o)
#define ERR		.err = true
#define EP(_e)		.epsn = (_e)

#define SCRIPT_MAX	8

struct script_case {
	const char *desc;
	u32 epsn;
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
	{ "send only", 100, 0, 2, {
	  { P(SEND_ONLY, 0, 10), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY_IMM, 1, 0), V(EXE), DONE, EP(2) } } },
	{ "three-packet send", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, MTU), V(EXE), OFF(MTU), EP(2) },
	  { P(SEND_LAST_IMM, 2, 1), V(EXE), DONE, OFF(2 * MTU), EP(3) } } },
	{ "three-packet write, then write only", 100, 0, 4, {
	  { P(WRITE_FIRST, 0, MTU), RETH(2 * MTU + 88), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, MTU), V(EXE), OFF(MTU), EP(2) },
	  { P(WRITE_LAST_IMM, 2, 88), V(EXE), DONE, OFF(2 * MTU), EP(3) },
	  { P(WRITE_ONLY, 3, 0), RETH(0), V(EXE), DONE, EP(4) } } },
	/* PSN gaps. */
	{ "gap between messages loses nothing in progress", 100, 0, 2, {
	  { P(SEND_ONLY, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 5, 1), V(EXE), DONE, EP(6) } } },
	{ "gap before a last: message dropped", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 2, 9), V(DRP), ABORT, EP(3) },
	  { P(SEND_ONLY, 3, 9), V(EXE), DONE, EP(4) } } },
	{ "gap: rest of the message dropped until a first", 100, 0, 6, {
	  { P(WRITE_FIRST, 0, MTU), RETH(4 * MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 2, MTU), V(DRP), ABORT, EP(3) },
	  { P(WRITE_LAST, 3, MTU), V(DRP), EP(4) },
	  { P(SEND_MIDDLE, 4, MTU), V(DRP), EP(5) },
	  { P(SEND_FIRST, 5, MTU), V(EXE), EP(6) },
	  { P(SEND_LAST, 6, 3), V(EXE), DONE, OFF(MTU), EP(7) } } },
	{ "gap onto a first starts it", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_FIRST, 7, MTU), V(EXE), ABORT, EP(8) },
	  { P(SEND_LAST, 8, 1), V(EXE), DONE, OFF(MTU), EP(9) } } },
	{ "half space ahead is a gap", 100, 0, 1, {
	  { P(SEND_ONLY, 0x7fffff, 1), V(EXE), DONE, EP(0x800000) } } },
	/* Duplicates. */
	{ "duplicate only dropped", 100, 0, 3, {
	  { P(SEND_ONLY, 0, 1), V(EXE), DONE, EP(1) },
	  { P(SEND_ONLY, 0, 1), V(DUP), EP(1) },
	  { P(SEND_ONLY, 1, 1), V(EXE), DONE, EP(2) } } },
	{ "duplicate inside a message leaves it alone", 100, 0, 4, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_FIRST, 0, MTU), V(DUP), EP(1) },
	  { P(SEND_MIDDLE, 1, MTU), V(EXE), OFF(MTU), EP(2) },
	  { P(SEND_LAST, 2, 1), V(EXE), DONE, OFF(2 * MTU), EP(3) } } },
	{ "half space behind is a duplicate", 100, 0, 1, {
	  { P(SEND_ONLY, -0x800000, 1), V(DUP), EP(0) } } },
	/* Wraparound. */
	{ "wrap: message across 0xffffff", 0xfffffe, 0, 4, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, MTU), V(EXE), OFF(MTU), EP(2) },
	  { P(SEND_LAST, 2, 1), V(EXE), DONE, OFF(2 * MTU), EP(3) },
	  { P(SEND_ONLY, 1, 1), V(DUP), EP(3) } } },
	{ "wrap: gap across 0xffffff", 0xfffffe, 0, 3, {
	  { P(WRITE_FIRST, 0, MTU), RETH(3 * MTU), V(EXE), EP(1) },
	  { P(WRITE_LAST, 3, MTU), V(DRP), ABORT, EP(4) },
	  { P(WRITE_ONLY, 4, 5), RETH(5), V(EXE), DONE, EP(5) } } },
	/* Opcode sequence. */
	{ "middle and last without first dropped", 100, 0, 3, {
	  { P(SEND_MIDDLE, 0, MTU), V(DRP), EP(1) },
	  { P(WRITE_LAST, 1, 1), V(DRP), EP(2) },
	  { P(SEND_ONLY, 2, 1), V(EXE), DONE, EP(3) } } },
	{ "only inside a send starts anew", 100, 0, 2, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_ONLY, 1, 1), V(EXE), ABORT, DONE, EP(2) } } },
	{ "write first inside a send starts anew", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(WRITE_FIRST, 1, MTU), RETH(MTU + 1), V(EXE), ABORT, EP(2) },
	  { P(WRITE_LAST, 2, 1), V(EXE), DONE, OFF(MTU), EP(3) } } },
	{ "write middle inside a send drops both", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, MTU), V(DRP), ABORT, EP(2) },
	  { P(SEND_LAST, 2, 1), V(DRP), EP(3) } } },
	{ "send last inside a write drops both", 100, 0, 2, {
	  { P(WRITE_FIRST, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, MTU), V(DRP), ABORT, EP(2) } } },
	/* Lengths. */
	{ "first shorter than the MTU dropped with its message", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU - 4), V(DRP), EP(1) },
	  { P(SEND_LAST, 1, 4), V(DRP), EP(2) },
	  { P(SEND_ONLY, 2, 4), V(EXE), DONE, EP(3) } } },
	{ "middle longer than the MTU", 100, 0, 3, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_MIDDLE, 1, MTU + 4), V(DRP), ABORT, EP(2) },
	  { P(SEND_LAST, 2, 4), V(DRP), EP(3) } } },
	{ "empty last", 100, 0, 2, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, 0), V(DRP), ABORT, EP(2) } } },
	{ "last longer than the MTU", 100, 0, 2, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST_IMM, 1, MTU + 1), V(DRP), ABORT, EP(2) } } },
	{ "only longer than the MTU", 100, 0, 1, {
	  { P(SEND_ONLY, 0, MTU + 1), V(DRP), EP(1) } } },
	{ "write only shorter than its RETH", 100, 0, 1, {
	  { P(WRITE_ONLY_IMM, 0, 10), RETH(11), V(DRP), EP(1) } } },
	{ "write first with a one-packet RETH", 100, 0, 2, {
	  { P(WRITE_FIRST, 0, MTU), RETH(MTU), V(DRP), EP(1) },
	  { P(WRITE_LAST, 1, 1), V(DRP), EP(2) } } },
	{ "write middle exhausting the RETH", 100, 0, 2, {
	  { P(WRITE_FIRST, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, MTU), V(DRP), ABORT, EP(2) } } },
	{ "write last short of the RETH", 100, 0, 2, {
	  { P(WRITE_FIRST, 0, MTU), RETH(2 * MTU), V(EXE), EP(1) },
	  { P(WRITE_LAST, 1, MTU - 1), V(DRP), ABORT, EP(2) } } },
	/* Permissions. */
	{ "write not permitted dropped", 100, RMP_RESP_ALLOW_WRITE, 3, {
	  { P(WRITE_FIRST, 0, MTU), RETH(MTU + 1), V(DRP), EP(1) },
	  { P(WRITE_LAST, 1, 1), V(DRP), EP(2) },
	  { P(SEND_ONLY, 2, 4), V(EXE), DONE, EP(3) } } },
	/* Not UC requests. */
	{ "not UC requests are dropped", 100, 0, 5, {
	  { .op = RMP_OP_RC_SEND_ONLY, .psn = 0, .len = 1, V(DRP), EP(0) },
	  { .op = RMP_OP_RC_ACKNOWLEDGE, .psn = 0, V(DRP), EP(0) },
	  { .op = RMP_OP_UD_SEND_ONLY, .psn = 0, .len = 1, V(DRP), EP(0) },
	  { .op = 0x2c, .psn = 0, V(DRP), EP(0) },
	  { P(SEND_ONLY, 0, 1), V(EXE), DONE, EP(1) } } },
	/* Execution failures. */
	{ "no receive WQE: send dropped", 100, 0, 2, {
	  { P(SEND_ONLY, 0, 1), ST(RNR), V(EXE), XABORT, EP(1) },
	  { P(SEND_ONLY, 1, 1), V(EXE), DONE, EP(2) } } },
	{ "no receive WQE at a first: whole send dropped", 100, 0, 4, {
	  { P(SEND_FIRST, 0, MTU), ST(RNR), V(EXE), XABORT, EP(1) },
	  { P(SEND_MIDDLE, 1, MTU), V(DRP), EP(2) },
	  { P(SEND_LAST, 2, 1), V(DRP), EP(3) },
	  { P(SEND_ONLY, 3, 1), V(EXE), DONE, EP(4) } } },
	{ "no receive WQE for a write with immediate", 100, 0, 3, {
	  { P(WRITE_FIRST, 0, MTU), RETH(MTU + 1), V(EXE), EP(1) },
	  { P(WRITE_LAST_IMM, 1, 1), ST(RNR), V(EXE), XABORT, OFF(MTU),
	    EP(2) },
	  { P(WRITE_ONLY_IMM, 2, 0), RETH(0), V(EXE), DONE, EP(3) } } },
	{ "R_Key violation drops the write", 100, 0, 4, {
	  { P(WRITE_FIRST, 0, MTU), RETH(3 * MTU), V(EXE), EP(1) },
	  { P(WRITE_MIDDLE, 1, MTU), ST(REM_ACCESS), V(EXE), XABORT, OFF(MTU),
	    EP(2) },
	  { P(WRITE_LAST, 2, MTU), V(DRP), EP(3) },
	  { P(WRITE_ONLY, 3, 1), RETH(1), V(EXE), DONE, EP(4) } } },
	{ "local error: responder in error", 100, 0, 2, {
	  { P(SEND_ONLY, 0, MTU), ST(REM_INVALID), V(EXE), ERR, EP(0) },
	  { P(SEND_ONLY, 0, 1), V(DRP), EP(0) } } },
	{ "operational error: responder in error", 100, 0, 2, {
	  { P(SEND_FIRST, 0, MTU), V(EXE), EP(1) },
	  { P(SEND_LAST, 1, 1), ST(REM_OP), V(EXE), OFF(MTU), ERR, EP(1) } } },
};

KUNIT_ARRAY_PARAM(script, script_cases, script_desc);

static void step_in(u32 base, const struct step *s, struct rmp_resp_in *in)
{
	memset(in, 0, sizeof(*in));
	in->psn = at(base, s->psn);
	in->opcode = s->op;
	in->ackreq = true;
	in->payload_len = s->len;
	in->va = VA;
	in->rkey = RKEY;
	in->dma_len = s->dma;
}

static void rmp_resp_packet__uc_scripts(struct kunit *test)
{
	const struct script_case *c = test->param_value;
	struct rmp_resp_reply reply;
	struct rmp_resp_out out;
	struct rmp_resp_in in;
	struct rmp_resp resp;
	bool dead = false;
	u32 i;

	uc_setup(test, &resp, c->epsn,
		 RMP_RESP_ALLOW_WRITE & ~c->deny);
	for (i = 0; i < c->n; i++) {
		const struct step *s = &c->s[i];

		step_in(c->epsn, s, &in);
		KUNIT_ASSERT_EQ_MSG(test, rmp_resp_packet(&resp, &in, &out), 0,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.verdict, s->verdict, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.aborted, s->abort, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out.reply.kind, RMP_RESP_REPLY_NONE,
				    "step %u", i);
		if (out.verdict == EXE) {
			KUNIT_EXPECT_EQ_MSG(test, out.offset, s->off, "step %u",
					    i);
			if (rmp_opcode_info(s->op)->flags & RMP_OPF_WRITE)
				KUNIT_EXPECT_EQ_MSG(test, out.va, VA + s->off,
						    "step %u", i);
			KUNIT_ASSERT_EQ_MSG(test,
					    rmp_resp_executed(&resp, s->status,
							      0, &out),
					    0, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.verdict, EXE, "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.last, s->done, "step %u",
					    i);
			KUNIT_EXPECT_EQ_MSG(test, out.aborted, s->xabort,
					    "step %u", i);
			KUNIT_EXPECT_EQ_MSG(test, out.reply.kind,
					    RMP_RESP_REPLY_NONE, "step %u", i);
		}
		KUNIT_EXPECT_EQ_MSG(test, out.error, s->err, "step %u", i);
		dead |= s->err;
		KUNIT_EXPECT_EQ_MSG(test, resp.error, dead, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rmp_resp_epsn(&resp),
				    at(c->epsn, s->epsn), "step %u", i);
		/* UC is never acknowledged. */
		KUNIT_EXPECT_FALSE_MSG(test, rmp_resp_flush_ack(&resp, &reply),
				       "step %u", i);
	}
}

/* --- a lossy, duplicating link ------------------------------------------ */

#define RND_MSGS	400
#define RND_PKTS_MAX	4

/* Deterministic generator, so a failure reproduces. */
static u32 rnd_next(u32 *state)
{
	*state = *state * 1103515245U + 12345U;
	return *state >> 8;
}

struct rnd_case {
	const char *desc;
	u32 epsn;
	u32 seed;
	u32 loss;	/* per mille */
	u32 dup;	/* per mille */
	u32 nowqe;	/* per mille of SENDs finding no receive WQE */
};

static void rnd_desc(const struct rnd_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct rnd_case rnd_cases[] = {
	{ "clean link", 100, 1, 0, 0, 0 },
	{ "5% loss", 0xffff00, 2, 50, 0, 0 },
	{ "20% loss, 5% duplicates, no WQE 10%", 0xfffff0, 3, 200, 50, 100 },
	{ "duplicates only", 7, 4, 0, 100, 0 },
};

KUNIT_ARRAY_PARAM(rnd, rnd_cases, rnd_desc);

static u8 rnd_opcode(bool write, u32 k, u32 n)
{
	if (n == 1)
		return write ? RMP_OP_UC_WRITE_ONLY : RMP_OP_UC_SEND_ONLY;
	if (!k)
		return write ? RMP_OP_UC_WRITE_FIRST : RMP_OP_UC_SEND_FIRST;
	if (k + 1 < n)
		return write ? RMP_OP_UC_WRITE_MIDDLE : RMP_OP_UC_SEND_MIDDLE;
	return write ? RMP_OP_UC_WRITE_LAST : RMP_OP_UC_SEND_LAST;
}

/*
 * Messages of 1 to 4 packets go over a link that loses and duplicates
 * packets (a duplicate arrives right after the original), and SENDs
 * sometimes find no receive WQE.  A message completes exactly when all
 * its packets arrived and it found a WQE; every other one is dropped, and
 * nothing is ever answered.
 */
static void rmp_resp_packet__uc_lossy_link(struct kunit *test)
{
	const struct rnd_case *c = test->param_value;
	u32 state = c->seed, psn = c->epsn, want = 0, got = 0, i, k;
	struct rmp_resp_out out;
	struct rmp_resp_in in;
	struct rmp_resp resp;

	uc_setup(test, &resp, c->epsn, RMP_RESP_ALLOW_WRITE);
	for (i = 0; i < RND_MSGS; i++) {
		u32 n = 1 + rnd_next(&state) % RND_PKTS_MAX;
		bool write = rnd_next(&state) & 1;
		u32 len = (n - 1) * MTU + 1 + rnd_next(&state) % MTU;
		bool whole = true, nowqe = false, completed = false;

		for (k = 0; k < n; k++) {
			u32 copies = 1, j;

			if (rnd_next(&state) % 1000 < c->loss)
				copies = 0;
			else if (rnd_next(&state) % 1000 < c->dup)
				copies = 2;
			whole &= copies > 0;
			for (j = 0; j < copies; j++) {
				enum rmp_resp_status st = RMP_RESP_OK;

				memset(&in, 0, sizeof(in));
				in.psn = rmp_psn_add(psn, k);
				in.opcode = rnd_opcode(write, k, n);
				in.payload_len = k + 1 < n ? MTU :
						 len - (n - 1) * MTU;
				in.va = VA;
				in.rkey = RKEY;
				in.dma_len = len;
				KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in,
								      &out), 0);
				KUNIT_ASSERT_EQ(test, out.reply.kind,
						RMP_RESP_REPLY_NONE);
				if (j) {
					KUNIT_ASSERT_EQ(test, out.verdict, DUP);
					continue;
				}
				if (out.verdict != EXE)
					continue;
				if (!write && !k &&
				    rnd_next(&state) % 1000 < c->nowqe) {
					st = RMP_RESP_RNR;
					nowqe = true;
				}
				KUNIT_ASSERT_EQ(test, rmp_resp_executed(&resp, st,
									0, &out),
						0);
				KUNIT_ASSERT_FALSE(test, out.error);
				if (out.last) {
					KUNIT_ASSERT_EQ(test, out.offset + in.payload_len,
							len);
					completed = true;
				}
			}
		}
		KUNIT_ASSERT_EQ_MSG(test, completed, whole && !nowqe,
				    "message %u", i);
		want += whole && !nowqe;
		got += completed;
		psn = rmp_psn_add(psn, n);
	}
	KUNIT_EXPECT_EQ(test, got, want);
	if (!c->loss && !c->nowqe)
		KUNIT_EXPECT_EQ(test, got, (u32)RND_MSGS);
	else
		KUNIT_EXPECT_LT(test, got, (u32)RND_MSGS);
	kunit_info(test, "%u of %u messages received\n", got, RND_MSGS);
}

/* --- misuse ------------------------------------------------------------- */

static void rmp_resp_executed__uc_misuse(struct kunit *test)
{
	struct rmp_resp_out out;
	struct rmp_resp_in in = {
		.psn = 5, .opcode = RMP_OP_UC_SEND_ONLY, .payload_len = 1,
	};
	struct rmp_resp resp;

	uc_setup(test, &resp, 5, 0);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, EXE);
	KUNIT_EXPECT_EQ(test, rmp_resp_packet(&resp, &in, &out), -EBUSY);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_STATUS_MAX, 0,
						&out), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_resp_executed(&resp, RMP_RESP_OK, 0, &out),
			0);
	KUNIT_EXPECT_TRUE(test, out.last);
	rmp_resp_set_error(&resp);
	in.psn = 6;
	KUNIT_ASSERT_EQ(test, rmp_resp_packet(&resp, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, out.verdict, DRP);
}

static struct kunit_case rmp_resp_uc_cases[] = {
	KUNIT_CASE_PARAM(rmp_resp_packet__uc_scripts, script_gen_params),
	KUNIT_CASE_PARAM(rmp_resp_packet__uc_lossy_link, rnd_gen_params),
	KUNIT_CASE(rmp_resp_executed__uc_misuse),
	{}
};

static struct kunit_suite rmp_resp_uc_suite = {
	.name = "rmp_resp_uc",
	.test_cases = rmp_resp_uc_cases,
};

kunit_test_suites(&rmp_resp_uc_suite);
