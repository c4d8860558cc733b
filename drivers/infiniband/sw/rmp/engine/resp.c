// SPDX-License-Identifier: GPL-2.0
/*
 * RC and UC responder transport state machine.
 *
 * DESIGN NOTES
 *
 * Every request packet is judged in two steps.  rmp_resp_packet() looks at
 * the PSN first (IBTA order of checks): before the expected PSN is a
 * duplicate, after it is a sequence error, and only a packet at the
 * expected PSN has its opcode sequence and lengths checked.  Such a packet
 * is returned as EXECUTE and nothing is committed yet, because executing it
 * may still fail: no receive WQE (RNR: the requester retries the same PSN,
 * so the expected PSN, the message in progress and the MSN must not move),
 * or a bad R_Key.  rmp_resp_executed() commits or refuses.  The kernel runs
 * the two back to back for one packet, never interleaving another.
 *
 * A NAK that tells the requester where to resume (PSN sequence error, RNR)
 * is sent once: packets after the expected PSN that were already in flight
 * are dropped silently until the expected PSN arrives, as they would
 * otherwise each draw a NAK and restart the requester again and again.
 *
 * ACKs carry the expected PSN minus one and are cumulative, so the engine
 * only decides when one is due: when the packet asks (AckReq), after
 * ack_every unacknowledged packets, for every duplicate SEND/WRITE (the
 * requester is retrying because an ACK went missing), and at the caller's
 * rmp_resp_flush_ack() once a message ended without one.  READ responses
 * and atomic ACKs acknowledge everything before them as well.
 *
 * A READ or atomic takes a resource from a ring the caller sized by
 * max_dest_rd_atomic, evicting the oldest.  A duplicate READ is served from
 * the resource whose PSN range contains its PSN: the requester resends a
 * READ for the part whose responses it lacks, with the PSN of the first
 * missing response, so the request may name any sub-range of the original
 * as long as its responses fit into the original's PSNs.  A duplicate
 * atomic is answered with the saved original value and never executed
 * again; nor is a duplicate ATOMIC WRITE, which takes a resource like an
 * atomic and is answered like a READ of nothing.  With no matching
 * resource the duplicate is dropped.
 *
 * UC (IBTA 9.7.5 and 9.8) shares the opcode sequence, length and
 * placement rules but has no acknowledgments, retries or RNR: nothing is
 * ever answered, and a message that cannot be received whole is dropped
 * whole.  A PSN ahead of the expected one means packets were lost: the
 * message in progress is abandoned and the PSN taken as the new expected
 * one.  A packet that does not continue the message in progress (opcode
 * sequence), is malformed, or cannot be executed (no receive WQE, R_Key
 * violation) abandons its message too.  Once no message is in progress,
 * MIDDLE and LAST packets are dropped until a FIRST or ONLY starts the
 * next.  A PSN behind the expected one is a duplicate and is dropped.
 */
#include "resp.h"

/**
 * DOC: multipath responder
 *
 * A multipath requester sprays WRITEs as RDMA WRITE ONLY packets, each with
 * its own RETH, so each can be placed on its own. Such a packet ahead of
 * the expected PSN but inside the receive window is judged by its own
 * rules (permissions, lengths) and executed at once; once it succeeded its
 * PSN is marked held in the window. When the expected PSN is executed, the
 * window advances over every held PSN after it; each is a whole message,
 * counted in the MSN then, so the MSN still counts messages completed in
 * order. Everything else must still arrive in order, and gets the in-order
 * rules. A packet ahead that fails (its R_Key, its lengths) is dropped
 * without a word: it is judged again when it arrives in order, where a NAK
 * names the right PSN. A held PSN arriving again is a duplicate. ACKs then
 * carry a SACK (rmp_resp_sacks()) that the caller builds from the window
 * when it sends them.
 *
 * With send spraying (rmp_resp_send_spray()) SENDs come in pieces, each
 * with the SEND's sequence number (SSN: the messages that take a receive
 * WQE before it) and its offset, so a piece is placed wherever it arrives:
 * the SSN names the receive WQE, counted from the next one to complete
 * (&rmp_resp_out.rq_idx). A sprayed WRITE with immediate data is WRITE ONLY
 * packets but its last, a piece with a RETH and the immediate data, placed
 * by the RETH; the receive WQE its SSN names only completes. A piece is not
 * a message; its PSN is marked in a bitmap of its own, so that the MSN
 * counts only whole messages when the window moves over it. A last piece
 * also leaves the SEND's length and its immediate data or invalidated R_Key
 * in a slot by SSN. Once the expected PSN has passed a SEND's last piece,
 * every piece of it was placed: the SEND completes, in order, counts in the
 * MSN, and the caller collects it with rmp_resp_take_sent() to complete its
 * receive WQE. A requester keeps at most %RMP_SPETH_MSGS such messages in
 * flight, so a piece of a SEND further ahead is not taken.
 */

static const u32 rmp_resp_mtus[] = { 256, 512, 1024, 2048, 4096 };

/* Response packets a READ of @len bytes takes: at least one. */
static u32 rmp_resp_read_npkts(u32 len, u32 mtu)
{
	return len ? (u32)(((u64)len + mtu - 1) / mtu) : 1;
}

/**
 * rmp_resp_init() - set up the responder of a QP entering RTR
 * @resp: responder
 * @cfg: parameters
 * @res: READ/atomic resources, @nres entries, owned by the caller
 * @nres: max_dest_rd_atomic; 0 refuses every READ and atomic
 *
 * Return: 0; -EINVAL for a bad MTU, RNR timer code, window size, a
 * missing @res, or out-of-order acceptance on UC.  @resp is untouched on
 * error.
 */
int rmp_resp_init(struct rmp_resp *resp, const struct rmp_resp_config *cfg,
		  struct rmp_resp_res *res, u32 nres)
{
	struct rmp_rxwin win;
	bool mtu_ok = false;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rmp_resp_mtus); i++)
		mtu_ok |= cfg->mtu == rmp_resp_mtus[i];
	if (!mtu_ok || cfg->min_rnr_timer > RMP_AETH_VALUE_MASK ||
	    (nres && !res) || (cfg->ooo && cfg->uc))
		return -EINVAL;
	if (rmp_rxwin_init(&win, cfg->epsn,
			   cfg->ooo ? cfg->win_size : RMP_RXWIN_MIN))
		return -EINVAL;

	memset(resp, 0, sizeof(*resp));
	resp->uc = cfg->uc;
	resp->mtu = cfg->mtu;
	resp->ack_every = cfg->ack_every;
	resp->min_rnr_timer = cfg->min_rnr_timer;
	resp->access = cfg->access;
	resp->ooo = cfg->ooo;
	resp->win = win;
	resp->res = res;
	resp->nres = nres;
	for (i = 0; i < nres; i++)
		memset(&res[i], 0, sizeof(res[i]));
	return 0;
}

/**
 * rmp_resp_multipath() - start accepting sprayed WRITEs out of order
 * @resp: responder of an RC QP
 * @ecn_echo: the peer agreed to ECN echo too: the SACKs tell it which
 *	requests arrived CE marked
 *
 * For a QP whose peer agreed to multipath, from the moment it agreed: see
 * the design notes. The window becomes %RMP_RXWIN_MAX PSNs wide; nothing
 * was held before, so nothing is lost.
 *
 * Return: 0, or -EINVAL on UC.
 */
int rmp_resp_multipath(struct rmp_resp *resp, bool ecn_echo)
{
	if (resp->uc)
		return -EINVAL;
	if (!resp->ooo) {
		rmp_rxwin_init(&resp->win, resp->win.epsn, RMP_RXWIN_MAX);
		resp->ooo = true;
	}
	resp->ecn_echo = ecn_echo;
	return 0;
}

/**
 * rmp_resp_read_spray() - let READ responses take any path
 * @resp: responder of an RC QP
 *
 * For a QP whose peer agreed to read spraying: the responses to a READ
 * request (or a duplicate) that asks for it (&rmp_resp_in.spray) are
 * marked sprayed (&rmp_resp_read_pkt.sprayed), and such a duplicate waits
 * for the responses in progress instead of cutting them short
 * (rmp_resp_preempts_read()).
 *
 * Return: 0, or -EINVAL on UC.
 */
int rmp_resp_read_spray(struct rmp_resp *resp)
{
	if (resp->uc)
		return -EINVAL;
	resp->rd_spray = true;
	return 0;
}

/**
 * rmp_resp_send_spray() - take SENDs in sprayed pieces
 * @resp: responder of an RC QP that accepts sprayed WRITEs
 *	(rmp_resp_multipath())
 * @sp: the state it needs, owned by the caller until the responder is set
 *	up again
 *
 * For a QP whose peer agreed to send spraying: see the multipath design
 * notes. Pieces before it are refused, so nothing is lost.
 *
 * Return: 0, or -EINVAL on UC or without out-of-order acceptance.
 */
int rmp_resp_send_spray(struct rmp_resp *resp, struct rmp_resp_spray *sp)
{
	if (resp->uc || !resp->ooo)
		return -EINVAL;
	memset(sp, 0, sizeof(*sp));
	resp->sp = sp;
	return 0;
}

/**
 * rmp_resp_take_sent() - hand out the next sprayed SEND completed
 * @resp: responder
 * @sent: filled in with it
 *
 * After each rmp_resp_executed(), the caller takes every SEND it
 * completed, oldest first, and completes its receive WQE (the next in the
 * queue) with it; rmp_resp_packet() refuses the next packet until then.
 *
 * Return: true if @sent was filled in.
 */
bool rmp_resp_take_sent(struct rmp_resp *resp, struct rmp_resp_sent *sent)
{
	struct rmp_resp_sent *slot;

	if (resp->ssn_done == resp->ssn)
		return false;
	slot = &resp->sp->sent[resp->ssn_done % RMP_SPETH_MSGS];
	*sent = *slot;
	slot->valid = false;
	resp->ssn_done = rmp_psn_add(resp->ssn_done, 1);
	return true;
}

/**
 * rmp_resp_sack() - the SACK of an acknowledgment, with its ECN echo
 * @resp: responder that sacks (rmp_resp_sacks())
 * @s: filled in from the receive window as it is now
 * @ce: with ECN echo, filled in with the PSNs taken CE marked since the
 *	last SACK, which are then forgotten; &rmp_sack.ecn says whether
 *	there are any
 *
 * Return: 0, or -EAGAIN as rmp_rxwin_sack(); nothing changes then.
 */
int rmp_resp_sack(struct rmp_resp *resp, struct rmp_sack *s,
		  struct rmp_ecn_echo *ce)
{
	int err = rmp_rxwin_sack(&resp->win, s);

	if (err || rmp_ecn_echo_empty(&resp->ce))
		return err;
	*ce = resp->ce;
	memset(&resp->ce, 0, sizeof(resp->ce));
	s->ecn = true;
	return 0;
}

/*
 * A request was taken: one that came CE marked is echoed, if it fits
 * with the marks pending (see rmp_ecn_echo_note()).
 */
static void rmp_resp_taken(struct rmp_resp *resp, const struct rmp_resp_in *in)
{
	if (resp->ecn_echo && in->ce)
		rmp_ecn_echo_note(&resp->ce, in->psn);
}

static void rmp_resp_ack(struct rmp_resp *resp, struct rmp_resp_reply *reply,
			 u8 syndrome, u32 psn)
{
	reply->kind = RMP_RESP_REPLY_ACK;
	reply->syndrome = syndrome;
	reply->psn = rmp_psn_mask(psn);
	reply->msn = resp->msn;
	resp->unacked = 0;
	resp->unacked_end = false;
}

static u8 rmp_resp_syn_ack(void)
{
	return rmp_aeth_syn_ack(RMP_AETH_CREDITS_INVALID);
}

/* Fatal NAK: the responder drops everything from now on. */
static void rmp_resp_fatal(struct rmp_resp *resp, struct rmp_resp_out *out,
			   enum rmp_nak_code code, u32 psn)
{
	rmp_resp_ack(resp, &out->reply, rmp_aeth_syn_nak(code), psn);
	resp->error = true;
	out->error = true;
}

/* Index of the @i-th newest resource. */
static u32 rmp_resp_res_idx(const struct rmp_resp *resp, u32 i)
{
	return (resp->res_head + resp->nres - 1 - i) % resp->nres;
}

/* Newest resource of @kind whose PSNs contain @psn, or -1. */
static int rmp_resp_find(const struct rmp_resp *resp, u8 kind, u32 psn)
{
	u32 i;

	for (i = 0; i < resp->res_count; i++) {
		u32 idx = rmp_resp_res_idx(resp, i);
		const struct rmp_resp_res *r = &resp->res[idx];

		if (r->kind == kind && rmp_psn_in_window(psn, r->psn, r->npkts))
			return (int)idx;
	}
	return -1;
}

/*
 * Send spraying: of the @n PSNs from @psn the window moved over, those
 * that were held pieces of SENDs, no longer marked.
 */
static u32 rmp_resp_pieces_passed(struct rmp_resp *resp, u32 psn, u32 n)
{
	u32 mask = resp->win.size - 1, count = 0, slot;
	u64 bit;

	if (!resp->sp)
		return 0;
	for (; n; n--, psn++) {
		slot = psn & mask;
		bit = 1ULL << (slot % 64);
		if (resp->sp->pieces[slot / 64] & bit) {
			resp->sp->pieces[slot / 64] &= ~bit;
			count++;
		}
	}
	return count;
}

/* Send spraying: the SENDs whose last piece the expected PSN passed. */
static u32 rmp_resp_sends_passed(struct rmp_resp *resp)
{
	const struct rmp_resp_sent *slot;
	u32 count = 0;

	while (resp->sp) {
		slot = &resp->sp->sent[resp->ssn % RMP_SPETH_MSGS];
		if (!slot->valid || !rmp_psn_before(slot->psn, resp->win.epsn))
			break;
		resp->ssn = rmp_psn_add(resp->ssn, 1);
		count++;
	}
	return count;
}

/*
 * Consume @n PSNs in order, and the held ones after them: a sprayed WRITE
 * is a whole message, acknowledged like one executed now; a piece of a
 * sprayed SEND is not, but a SEND whose last piece is passed is.
 */
static void rmp_resp_advance(struct rmp_resp *resp, u32 n)
{
	u32 from = resp->win.epsn, epsn = rmp_psn_add(from, n), i, held = 0;
	u32 sends;

	if (n < resp->win.size) {
		for (i = 0; i < n; i++)
			rmp_rxwin_accept(&resp->win,
					 rmp_psn_add(resp->win.epsn, i));
		held = rmp_rxwin_advance(&resp->win) - n;
		epsn = resp->win.epsn;
		/* Pieces a peer put in the PSNs of a READ count for nothing. */
		rmp_resp_pieces_passed(resp, from, n);
		held -= rmp_resp_pieces_passed(resp, rmp_psn_add(from, n),
					       held);
	} else {
		/* A READ longer than the window: nothing can be held. */
		rmp_rxwin_init(&resp->win, epsn, resp->win.size);
		if (resp->sp)
			memset(resp->sp->pieces, 0, sizeof(resp->sp->pieces));
	}
	sends = rmp_resp_sends_passed(resp);
	if (held || sends) {
		resp->msn = (resp->msn + held + sends) & RMP_RESP_MSN_MASK;
		resp->unacked += held;
		resp->unacked_end = true;
	}

	while (resp->res_count) {
		u32 idx = rmp_resp_res_idx(resp, resp->res_count - 1);
		struct rmp_resp_res *r = &resp->res[idx];

		if (rmp_psn_sub(epsn, r->psn) <= RMP_RESP_RES_HORIZON)
			break;
		r->kind = RMP_RESP_RES_FREE;
		resp->res_count--;
	}
}

/* Opcode sequence: the packet begins a message or continues the one in
 * progress.
 */
static bool rmp_resp_seq_ok(const struct rmp_resp *resp, u32 flags)
{
	bool first = flags & RMP_OPF_FIRST;

	switch (resp->msg) {
	case RMP_RESP_MSG_NONE:
		return first;
	case RMP_RESP_MSG_SEND:
		return !first && (flags & RMP_OPF_SEND);
	default:
		return !first && (flags & RMP_OPF_WRITE);
	}
}

/* Permissions and length rules of a packet in sequence. */
static bool rmp_resp_rules_ok(const struct rmp_resp *resp,
			      const struct rmp_resp_in *in, u32 flags)
{
	bool first = flags & RMP_OPF_FIRST, last = flags & RMP_OPF_LAST;
	u32 len = in->payload_len, mtu = resp->mtu;

	if (flags & (RMP_OPF_READ | RMP_OPF_ATOMIC)) {
		if (!resp->nres || len)
			return false;
	}
	if (((flags & RMP_OPF_WRITE) && first &&
	     !(resp->access & RMP_RESP_ALLOW_WRITE)) ||
	    ((flags & RMP_OPF_READ) && !(resp->access & RMP_RESP_ALLOW_READ)) ||
	    ((flags & RMP_OPF_ATOMIC) &&
	     !(resp->access & RMP_RESP_ALLOW_ATOMIC)))
		return false;

	if (first && last) {
		if (len > mtu)
			return false;
	} else if (!last) {
		if (len != mtu)
			return false;
	} else if (!len || len > mtu) {
		return false;
	}

	if (flags & RMP_OPF_WRITE) {
		u32 left = first ? in->dma_len : resp->msg_left;

		/* A LAST ends the RETH's length exactly; before it, some
		 * must remain for the LAST.
		 */
		if (last ? len != left : len >= left)
			return false;
	}
	if (flags & RMP_OPF_READ) {
		/* The second bound only bites for MTUs below 1024: responses
		 * spanning half the PSN space would break PSN ordering.
		 */
		if (in->dma_len > RMP_RESP_MAX_READ_LEN ||
		    rmp_resp_read_npkts(in->dma_len, mtu) > RMP_RESP_RES_HORIZON)
			return false;
	}
	if ((flags & RMP_OPF_ATOMIC) && (in->va & 7))
		return false;
	/* An ATOMIC WRITE stores one aligned 8-byte word. */
	if ((flags & RMP_OPF_ATOMIC_WRITE) &&
	    (!resp->nres || !(resp->access & RMP_RESP_ALLOW_WRITE) ||
	     len != sizeof(u64) || in->dma_len != sizeof(u64) || (in->va & 7)))
		return false;
	return true;
}

/*
 * Send spraying: the SEND a piece names is at most %RMP_SPETH_MSGS ahead
 * and not the one in progress (a SEND's own pieces follow it), its offset
 * falls on a piece boundary of a message of at most 2^31 bytes, it is a
 * whole MTU unless it is the last, and a last piece is the SEND's only
 * one. The last piece of a WRITE with immediate data also follows a WRITE
 * ONLY's rules for its RETH. Sets *@rq_idx to the receive WQE it goes in,
 * or completes (&rmp_resp_out.rq_idx).
 */
static bool rmp_resp_piece_ok(const struct rmp_resp *resp,
			      const struct rmp_resp_in *in, u32 flags,
			      u32 *rq_idx)
{
	u32 held = resp->msg == RMP_RESP_MSG_SEND, len = in->payload_len;
	u32 k = rmp_psn_sub(in->ssn, resp->ssn);

	if (!resp->sp || k < held || k >= RMP_SPETH_MSGS ||
	    in->offset % resp->mtu || len > resp->mtu ||
	    (u64)in->offset + len > RMP_RESP_MAX_READ_LEN)
		return false;
	if (flags & RMP_OPF_LAST) {
		if (!len && in->offset)
			return false;
		if (resp->sp->sent[in->ssn % RMP_SPETH_MSGS].valid)
			return false;
	} else if (len != resp->mtu) {
		return false;
	}
	if ((flags & RMP_OPF_WRITE) && !rmp_resp_rules_ok(resp, in, flags))
		return false;
	*rq_idx = k - held;
	return true;
}

static bool rmp_resp_valid(const struct rmp_resp *resp,
			   const struct rmp_resp_in *in, u32 flags)
{
	u32 rq_idx;

	/* A piece in sequence belongs to the next message, whole or not. */
	if (flags & RMP_OPF_SPETH)
		return resp->msg == RMP_RESP_MSG_NONE &&
		       rmp_resp_piece_ok(resp, in, flags, &rq_idx) && !rq_idx;
	return rmp_resp_seq_ok(resp, flags) && rmp_resp_rules_ok(resp, in, flags);
}

/* Send spraying: a SEND's last piece was taken; see the design notes. */
static void rmp_resp_note_sent(struct rmp_resp *resp,
			       const struct rmp_resp_in *in)
{
	struct rmp_resp_sent *slot = &resp->sp->sent[in->ssn % RMP_SPETH_MSGS];

	slot->psn = in->psn;
	slot->len = in->offset + in->payload_len;
	slot->data = in->data;
	slot->opcode = in->opcode;
	slot->se = in->se;
	slot->valid = true;
}

/*
 * The responses to @len bytes at @va, from @psn, of the READ (or ATOMIC
 * WRITE) of resource @idx; sprayed if the request asked (@spray) and the
 * peer agreed to read spraying.
 */
static void rmp_resp_read_start(const struct rmp_resp *resp,
				struct rmp_resp_read *cur, u32 idx, u32 psn,
				u64 va, u32 len, bool spray)
{
	const struct rmp_resp_res *r = &resp->res[idx];

	memset(cur, 0, sizeof(*cur));
	cur->res = idx;
	cur->psn = rmp_psn_mask(psn);
	cur->va = va;
	cur->offset = (u32)(va - r->va);
	cur->rkey = r->rkey;
	cur->left = len;
	cur->npkts = rmp_resp_read_npkts(len, resp->mtu);
	cur->mtu = resp->mtu;
	cur->msn = resp->msn;
	cur->sprayed = resp->rd_spray && spray;
}

/*
 * An ATOMIC WRITE is answered, as IBTA has it, by a READ response ONLY
 * with the request's PSN and no payload.
 */
static void rmp_resp_answer_write(const struct rmp_resp *resp,
				  struct rmp_resp_out *out, u32 idx)
{
	const struct rmp_resp_res *r = &resp->res[idx];

	out->reply.kind = RMP_RESP_REPLY_READ;
	rmp_resp_read_start(resp, &out->reply.read, idx, r->psn, r->va, 0,
			    false);
}

/* A packet from before the expected PSN. */
static void rmp_resp_duplicate(struct rmp_resp *resp,
			       const struct rmp_resp_in *in, u32 flags,
			       struct rmp_resp_out *out)
{
	const struct rmp_resp_res *r;
	u64 off;
	int idx;

	out->verdict = RMP_RESP_DUPLICATE;
	if (flags & (RMP_OPF_SEND | RMP_OPF_WRITE)) {
		rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(),
			     rmp_psn_sub(resp->win.epsn, 1));
		return;
	}

	if (flags & RMP_OPF_READ) {
		idx = rmp_resp_find(resp, RMP_RESP_RES_READ, in->psn);
		if (idx < 0)
			return;
		r = &resp->res[idx];
		off = in->va - r->va;
		/* Within the original bytes, and its responses within the
		 * original PSNs.
		 */
		if (in->rkey != r->rkey || in->va < r->va || off > r->len ||
		    in->dma_len > r->len - off ||
		    rmp_resp_read_npkts(in->dma_len, resp->mtu) >
		    r->npkts - rmp_psn_sub(in->psn, r->psn))
			return;
		out->reply.kind = RMP_RESP_REPLY_READ;
		rmp_resp_read_start(resp, &out->reply.read, idx, in->psn,
				    in->va, in->dma_len, in->spray);
		return;
	}

	idx = rmp_resp_find(resp, RMP_RESP_RES_ATOMIC, in->psn);
	if (idx < 0)
		return;
	r = &resp->res[idx];
	if (r->opcode != in->opcode || r->va != in->va || r->rkey != in->rkey)
		return;
	if (flags & RMP_OPF_ATOMIC_WRITE) {
		rmp_resp_answer_write(resp, out, idx);
		return;
	}
	rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(), in->psn);
	out->reply.kind = RMP_RESP_REPLY_ATOMIC_ACK;
	out->reply.orig = r->orig;
}

/* What the kernel needs to execute the packet; shared by both steps. */
static void rmp_resp_describe(const struct rmp_resp *resp,
			      const struct rmp_resp_in *in, u32 flags,
			      struct rmp_resp_out *out)
{
	out->verdict = RMP_RESP_EXECUTE;
	if (flags & RMP_OPF_SPETH) {
		/* Completed apart: see rmp_resp_take_sent(). */
		out->offset = in->offset;
		out->va = in->va;
		out->rkey = in->rkey;
		rmp_resp_piece_ok(resp, in, flags, &out->rq_idx);
		return;
	}
	out->first = flags & RMP_OPF_FIRST;
	out->last = flags & RMP_OPF_LAST;
	if (!(flags & (RMP_OPF_SEND | RMP_OPF_WRITE)))
		return;
	out->offset = out->first ? 0 : resp->msg_off;
	if (flags & RMP_OPF_WRITE) {
		out->va = out->first ? in->va : resp->msg_va + resp->msg_off;
		out->rkey = out->first ? in->rkey : resp->msg_rkey;
	}
}

/* UC: abandon the message in progress, if there is one. */
static void rmp_resp_uc_abort(struct rmp_resp *resp, struct rmp_resp_out *out)
{
	if (resp->msg == RMP_RESP_MSG_NONE)
		return;
	resp->msg = RMP_RESP_MSG_NONE;
	resp->msg_off = 0;
	out->aborted = true;
}

/* UC: the PSN and sequence rules; see the design notes. */
static void rmp_resp_uc_packet(struct rmp_resp *resp,
			       const struct rmp_resp_in *in, u32 flags,
			       struct rmp_resp_out *out)
{
	s32 d = rmp_psn_diff(in->psn, resp->win.epsn);

	if (d < 0) {
		out->verdict = RMP_RESP_DUPLICATE;
		return;
	}
	if (d > 0) {
		/* Packets were lost: resume at this one. */
		rmp_resp_uc_abort(resp, out);
		rmp_rxwin_init(&resp->win, in->psn, resp->win.size);
	}
	if (!rmp_resp_seq_ok(resp, flags))
		rmp_resp_uc_abort(resp, out);
	/* With no message in progress only a FIRST or ONLY is in sequence. */
	if (!rmp_resp_seq_ok(resp, flags) ||
	    !rmp_resp_rules_ok(resp, in, flags)) {
		rmp_resp_uc_abort(resp, out);
		rmp_resp_advance(resp, 1);
		return;
	}
	rmp_resp_describe(resp, in, flags, out);
	resp->cur = *in;
	resp->pending = true;
}

/*
 * Multipath: a packet ahead of the expected PSN. A sprayed WRITE, or a
 * piece of a sprayed SEND, inside the window that passes its own rules is
 * executed; one already held is a duplicate, answered with a (selective)
 * ACK. False for anything else: the in-order rules judge it.
 */
static bool rmp_resp_ahead(struct rmp_resp *resp, const struct rmp_resp_in *in,
			   u32 flags, struct rmp_resp_out *out)
{
	bool piece = flags & RMP_OPF_SPETH;
	u32 rq_idx;

	if ((in->opcode != RMP_OP_RC_WRITE_ONLY && !piece) ||
	    rmp_psn_sub(in->psn, resp->win.epsn) >= resp->win.size)
		return false;
	if (rmp_rxwin_has(&resp->win, in->psn)) {
		out->verdict = RMP_RESP_DUPLICATE;
		rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(),
			     rmp_psn_sub(resp->win.epsn, 1));
		return true;
	}
	if (piece ? !rmp_resp_piece_ok(resp, in, flags, &rq_idx) :
		    !rmp_resp_rules_ok(resp, in, flags))
		return false;
	rmp_resp_describe(resp, in, flags, out);
	resp->cur = *in;
	resp->pending = true;
	resp->cur_ahead = true;
	return true;
}

/*
 * A request of the responder's transport, while it is not in error: a
 * piece of a sprayed SEND only once the peer agreed to send them.
 */
static bool rmp_resp_takes(const struct rmp_resp *resp,
			   const struct rmp_opcode_info *info)
{
	if (resp->error || !info || !(info->flags & RMP_OPF_REQ))
		return false;
	if (info->flags & RMP_OPF_SPETH)
		return resp->sp;
	return info->qpt == (resp->uc ? RMP_QPT_UC : RMP_QPT_RC);
}

/**
 * rmp_resp_will_execute() - whether rmp_resp_packet() would execute a packet
 * @resp: responder
 * @in: the packet's fields
 *
 * True for an RC request at the expected PSN that passes every rule, and
 * no EXECUTE pending: rmp_resp_packet() will answer EXECUTE and change
 * nothing else. Such a packet writes only where the state of the responder
 * (or, for a first packet, its own RETH) says, so a receiver may place its
 * payload while checking the packet's integrity, and rmp_resp_discard()
 * the packet if that fails. Always false on a UC responder, whose judging
 * may abandon a message.
 *
 * Return: true if the packet would be executed.
 */
bool rmp_resp_will_execute(const struct rmp_resp *resp,
			   const struct rmp_resp_in *in)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(in->opcode);

	return !resp->pending && resp->ssn_done == resp->ssn && !resp->uc &&
	       rmp_resp_takes(resp, info) &&
	       in->psn == resp->win.epsn &&
	       rmp_resp_valid(resp, in, info->flags);
}

/**
 * rmp_resp_packet() - judge a request packet
 * @resp: responder
 * @in: the packet's fields
 * @out: the decision; for EXECUTE, rmp_resp_executed() completes it
 *
 * On a UC responder @out->reply is always empty, and @out->aborted says
 * that the message in progress was abandoned before this packet.
 *
 * Return: 0, or -EBUSY if the previous EXECUTE has not been reported with
 * rmp_resp_executed(), or a SEND it completed not taken with
 * rmp_resp_take_sent(); @out is then untouched.
 */
int rmp_resp_packet(struct rmp_resp *resp, const struct rmp_resp_in *in,
		    struct rmp_resp_out *out)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(in->opcode);
	s32 d;

	if (resp->pending || resp->ssn_done != resp->ssn)
		return -EBUSY;
	memset(out, 0, sizeof(*out));
	out->verdict = RMP_RESP_DROP;
	if (!rmp_resp_takes(resp, info))
		return 0;
	if (resp->uc) {
		rmp_resp_uc_packet(resp, in, info->flags, out);
		return 0;
	}

	d = rmp_psn_diff(in->psn, resp->win.epsn);
	if (d < 0) {
		rmp_resp_duplicate(resp, in, info->flags, out);
		return 0;
	}
	if (d > 0 && resp->ooo && rmp_resp_ahead(resp, in, info->flags, out))
		return 0;
	if (d > 0) {
		out->verdict = RMP_RESP_OUT_OF_SEQ;
		if (!resp->nak_sent) {
			rmp_resp_ack(resp, &out->reply,
				     rmp_aeth_syn_nak(RMP_NAK_PSN_SEQ),
				     resp->win.epsn);
			resp->nak_sent = true;
		}
		return 0;
	}

	if (!rmp_resp_valid(resp, in, info->flags)) {
		out->verdict = RMP_RESP_INVALID;
		rmp_resp_fatal(resp, out, RMP_NAK_INV_REQ, in->psn);
		return 0;
	}
	rmp_resp_describe(resp, in, info->flags, out);
	resp->cur = *in;
	resp->pending = true;
	return 0;
}

/* Take the next resource slot for the request being executed. */
static u32 rmp_resp_take(struct rmp_resp *resp, u8 kind, u32 npkts, u64 orig)
{
	u32 idx = resp->res_head;
	struct rmp_resp_res *r = &resp->res[idx];

	r->kind = kind;
	r->opcode = resp->cur.opcode;
	r->psn = resp->cur.psn;
	r->npkts = npkts;
	r->va = resp->cur.va;
	r->rkey = resp->cur.rkey;
	r->len = kind == RMP_RESP_RES_READ ? resp->cur.dma_len : 0;
	r->orig = orig;
	resp->res_head = (idx + 1) % resp->nres;
	if (resp->res_count < resp->nres)
		resp->res_count++;
	return idx;
}

/* Commit a SEND or WRITE packet, or a piece of a sprayed SEND. */
static void rmp_resp_commit_data(struct rmp_resp *resp, u32 flags,
				 struct rmp_resp_out *out)
{
	const struct rmp_resp_in *in = &resp->cur;
	bool ends = flags & RMP_OPF_LAST;

	if (flags & RMP_OPF_SPETH) {
		/* Its SEND completes as the window moves past it. */
		if (ends)
			rmp_resp_note_sent(resp, in);
	} else if (out->last) {
		resp->msg = RMP_RESP_MSG_NONE;
		resp->msg_off = 0;
		resp->msn = (resp->msn + 1) & RMP_RESP_MSN_MASK;
		if (flags & (RMP_OPF_SEND | RMP_OPF_IMMDT)) {
			resp->ssn = rmp_psn_add(resp->ssn, 1);
			resp->ssn_done = resp->ssn;
		}
	} else if (out->first) {
		resp->msg = flags & RMP_OPF_SEND ? RMP_RESP_MSG_SEND :
						   RMP_RESP_MSG_WRITE;
		resp->msg_off = in->payload_len;
		resp->msg_va = in->va;
		resp->msg_rkey = in->rkey;
		resp->msg_left = in->dma_len - in->payload_len;
	} else {
		resp->msg_off += in->payload_len;
		resp->msg_left -= in->payload_len;
	}
	rmp_resp_advance(resp, 1);
	if (resp->uc)
		return;

	resp->unacked++;
	resp->unacked_end |= ends;
	if (in->ackreq || (resp->ack_every && resp->unacked >= resp->ack_every))
		rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(), in->psn);
}

/*
 * Multipath: a sprayed WRITE, or a piece of a sprayed SEND, ahead of the
 * expected PSN was executed. Held if it succeeded; dropped, without a
 * word, if not.
 */
static void rmp_resp_held(struct rmp_resp *resp, enum rmp_resp_status status,
			  struct rmp_resp_out *out)
{
	const struct rmp_resp_in *in = &resp->cur;
	u32 flags = rmp_opcode_info(in->opcode)->flags;
	u32 slot = in->psn & (resp->win.size - 1);

	resp->cur_ahead = false;
	if (status != RMP_RESP_OK) {
		out->verdict = RMP_RESP_DROP;
		return;
	}
	rmp_rxwin_accept(&resp->win, in->psn);
	if (flags & RMP_OPF_SPETH) {
		resp->sp->pieces[slot / 64] |= 1ULL << (slot % 64);
		if (flags & RMP_OPF_LAST)
			rmp_resp_note_sent(resp, in);
	}
	rmp_resp_taken(resp, in);
	resp->unacked++;
	if (in->ackreq || (resp->ack_every && resp->unacked >= resp->ack_every))
		rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(),
			     rmp_psn_sub(resp->win.epsn, 1));
}

/**
 * rmp_resp_executed() - report how executing the EXECUTE packet went
 * @resp: responder
 * @status: outcome
 * @orig: for an atomic that succeeded, the original value at its address
 * @out: the decision, refined: EXECUTE with what to send; @out->error if
 *	the responder entered the error state
 *
 * On success the packet is committed: the expected PSN moves past it (past
 * all of a READ's response PSNs), a completed message counts in the MSN,
 * and a READ or atomic takes a resource.  On RNR nothing moves.
 *
 * UC: on RNR or a remote access error the packet's message is dropped
 * (@out->aborted) and the expected PSN moves past the packet; any other
 * failure puts the responder in error.  Nothing is ever answered.
 *
 * Return: 0, or -EINVAL if no EXECUTE is pending or @status is out of
 * range; @out is then untouched.
 */
int rmp_resp_executed(struct rmp_resp *resp, enum rmp_resp_status status,
		      u64 orig, struct rmp_resp_out *out)
{
	const struct rmp_resp_in *in = &resp->cur;
	u32 flags, npkts, idx;

	if (!resp->pending || (u32)status >= RMP_RESP_STATUS_MAX)
		return -EINVAL;
	resp->pending = false;
	flags = rmp_opcode_info(in->opcode)->flags;
	memset(out, 0, sizeof(*out));
	rmp_resp_describe(resp, in, flags, out);
	out->last &= status == RMP_RESP_OK;
	if (resp->cur_ahead) {
		rmp_resp_held(resp, status, out);
		return 0;
	}

	if (resp->uc && status != RMP_RESP_OK) {
		if (status == RMP_RESP_RNR || status == RMP_RESP_REM_ACCESS) {
			/* The message is dropped, this packet with it. */
			resp->msg = RMP_RESP_MSG_NONE;
			resp->msg_off = 0;
			out->aborted = true;
			rmp_resp_advance(resp, 1);
		} else {
			/* A local error: the QP fails, silently. */
			resp->error = true;
			out->error = true;
		}
		return 0;
	}

	/* The expected PSN came: a gap after it earns a NAK again. */
	resp->nak_sent = false;
	switch (status) {
	case RMP_RESP_OK:
		rmp_resp_taken(resp, in);
		break;
	case RMP_RESP_RNR:
		rmp_resp_ack(resp, &out->reply,
			     rmp_aeth_syn_rnr(resp->min_rnr_timer), in->psn);
		resp->nak_sent = true;
		return 0;
	case RMP_RESP_REM_ACCESS:
		rmp_resp_fatal(resp, out, RMP_NAK_REM_ACCESS, in->psn);
		return 0;
	case RMP_RESP_REM_OP:
		rmp_resp_fatal(resp, out, RMP_NAK_REM_OP, in->psn);
		return 0;
	default:
		rmp_resp_fatal(resp, out, RMP_NAK_INV_REQ, in->psn);
		return 0;
	}

	if (flags & (RMP_OPF_SEND | RMP_OPF_WRITE)) {
		rmp_resp_commit_data(resp, flags, out);
		return 0;
	}

	resp->msn = (resp->msn + 1) & RMP_RESP_MSN_MASK;
	resp->unacked = 0;
	if (flags & RMP_OPF_READ) {
		npkts = rmp_resp_read_npkts(in->dma_len, resp->mtu);
		idx = rmp_resp_take(resp, RMP_RESP_RES_READ, npkts, 0);
		out->reply.kind = RMP_RESP_REPLY_READ;
		rmp_resp_read_start(resp, &out->reply.read, idx, in->psn,
				    in->va, in->dma_len, in->spray);
		rmp_resp_advance(resp, npkts);
		return 0;
	}

	idx = rmp_resp_take(resp, RMP_RESP_RES_ATOMIC, 1, orig);
	if (flags & RMP_OPF_ATOMIC_WRITE) {
		rmp_resp_answer_write(resp, out, idx);
		rmp_resp_advance(resp, 1);
		return 0;
	}
	rmp_resp_ack(resp, &out->reply, rmp_resp_syn_ack(), in->psn);
	out->reply.kind = RMP_RESP_REPLY_ATOMIC_ACK;
	out->reply.orig = orig;
	rmp_resp_advance(resp, 1);
	return 0;
}

/**
 * rmp_resp_discard() - forget the EXECUTE packet, as if never received
 * @resp: responder
 *
 * For a packet found corrupted after rmp_resp_packet() judged it (see
 * rmp_resp_will_execute()): nothing is committed and nothing answered;
 * the requester's retransmission brings the packet again.
 *
 * Return: 0, or -EINVAL if no EXECUTE is pending.
 */
int rmp_resp_discard(struct rmp_resp *resp)
{
	if (!resp->pending)
		return -EINVAL;
	resp->pending = false;
	resp->cur_ahead = false;
	return 0;
}

/**
 * rmp_resp_read_next() - produce the next READ response packet
 * @cur: cursor from a %RMP_RESP_REPLY_READ reply
 * @pkt: filled in with the packet to send
 *
 * May be called in batches: the cursor keeps its place.  The kernel sends
 * all of a READ's responses before replies to later requests.
 *
 * Return: true if @pkt was filled in, false once all have been produced.
 */
bool rmp_resp_read_next(struct rmp_resp_read *cur,
			struct rmp_resp_read_pkt *pkt)
{
	u32 len;

	if (!cur->npkts)
		return false;

	len = cur->left < cur->mtu ? cur->left : cur->mtu;
	memset(pkt, 0, sizeof(*pkt));
	if (cur->npkts == 1)
		pkt->opcode = cur->started ? RMP_OP_RC_READ_RESPONSE_LAST :
					     RMP_OP_RC_READ_RESPONSE_ONLY;
	else
		pkt->opcode = cur->started ? RMP_OP_RC_READ_RESPONSE_MIDDLE :
					     RMP_OP_RC_READ_RESPONSE_FIRST;
	pkt->psn = cur->psn;
	pkt->va = cur->va;
	pkt->offset = cur->offset;
	pkt->rkey = cur->rkey;
	pkt->len = len;
	pkt->sprayed = cur->sprayed;
	pkt->aeth = pkt->opcode != RMP_OP_RC_READ_RESPONSE_MIDDLE;
	if (pkt->aeth) {
		pkt->syndrome = rmp_resp_syn_ack();
		pkt->msn = cur->msn;
	}

	cur->started = true;
	cur->psn = rmp_psn_add(cur->psn, 1);
	cur->va += len;
	cur->offset += len;
	cur->left -= len;
	cur->npkts--;
	return true;
}

/**
 * rmp_resp_flush_ack() - acknowledge what no ACK has covered yet
 * @resp: responder
 * @reply: filled in with an ACK when one is due
 *
 * For a timer or the end of a receive batch: messages that ended with no
 * ACK asked for are acknowledged eventually. The packets of a message still
 * in progress are not: its last packet, or one with AckReq, will be, and an
 * ACK per receive batch in the middle of a long message would only cost
 * the requester packets.
 *
 * Return: true if @reply holds an ACK to send.
 */
bool rmp_resp_flush_ack(struct rmp_resp *resp, struct rmp_resp_reply *reply)
{
	if (!resp->unacked_end || resp->error || resp->uc)
		return false;
	memset(reply, 0, sizeof(*reply));
	rmp_resp_ack(resp, reply, rmp_resp_syn_ack(),
		     rmp_psn_sub(resp->win.epsn, 1));
	return true;
}

/**
 * rmp_resp_set_error() - stop responding, e.g. when the QP is moved to error
 * @resp: responder
 *
 * Every later packet is dropped; a pending EXECUTE is abandoned.
 */
void rmp_resp_set_error(struct rmp_resp *resp)
{
	resp->error = true;
	resp->pending = false;
	resp->cur_ahead = false;
}
