// SPDX-License-Identifier: GPL-2.0
/*
 * Requester transport state machine (IBTA vol. 1 ch. 9.7): the decisions of
 * a requester and its completer, without the data.
 *
 * DESIGN NOTES
 *
 * The kernel keeps the WQEs; the engine keeps 24 bytes of metadata per WQE
 * in a ring of the same size and order, plus four ring indices that only
 * count up:
 *
 *   tail <= comp <= cur <= head
 *   tail: oldest WQE not yet handed back by rmp_req_complete()
 *   comp: oldest WQE not acknowledged (it holds PSN una)
 *   cur:  the send cursor, with cur_pkt the packet within it
 *   head: next WQE to post
 *
 * PSNs are given out at post time (a WQE's range never changes, so a PSN
 * names a WQE and a packet in it for ever) and the PSN line mirrors the
 * indices: una <= next_psn <= sent_psn.  Every call walks only the WQEs it
 * acts on.
 *
 * Responses from a standard responder arrive in PSN order, so every valid
 * response acknowledges everything before its PSN (rmp_req_ack_upto()).  A
 * SEND or WRITE is finished by any response at or after its last PSN; a
 * READ or atomic only by its own response, so a response beyond a READ or
 * atomic whose response is missing means that response was lost (an
 * "implicit NAK").
 *
 * Loss is repaired by rmp_req_go_back() and only there: the cursor returns
 * to una (a READ is re-issued for its missing bytes only, because the
 * received part is acknowledged packet by packet), and the transport retry
 * counter pays for it.  Any progress refills both retry counters.  After a
 * go-back, signs of the same loss (a repeated NAK, responses that overtook
 * the loss) are ignored until progress, as a standard responder sends one
 * sequence NAK per loss; the ACK timer still covers a lost retransmission.
 *
 * MULTIPATH (rmp_req_multipath()).  The WRITEs without immediate data
 * that leave for the first time from then on, however early they were
 * posted, are sprayed: each packet is an RDMA WRITE ONLY of
 * its own piece, with its own RETH, on the path the path set picks, so the
 * responder (which agreed to accept them out of order) places each
 * wherever it arrives.  With send spraying (rmp_req_send_spray()) so are
 * SENDs, each packet a piece that names the SEND by its sequence number
 * among the messages that take a receive WQE (the SSN, counted at post)
 * and its offset in it, and WRITEs with immediate data, whose last WRITE
 * ONLY carries the immediate data and the SSN; such a message is sprayed
 * only while fewer than
 * RMP_SPETH_MSGS such messages lie between it and the oldest WQE not
 * acknowledged, the most the responder keeps track of.  The scoreboard
 * records where each sprayed PSN went; SACKs (rmp_req_sack()) tell which
 * the responder holds and, by the per-path rule of the scoreboard, which
 * are lost; rmp_req_next() sends those again first, alone, ahead of the
 * cursor.  Everything else (without send spraying SENDs and WRITEs with
 * immediate data, READs, atomics) goes in order on the first
 * live path, and only once every sprayed PSN before it is acknowledged,
 * so the responder sees it in sequence and every rule above holds for it
 * unchanged.  A go-back still restarts the cursor at una, but the cursor
 * steps over sprayed PSNs the scoreboard knows of (held, in flight or
 * queued as lost).  An ACK timeout gives up on everything in flight
 * without blaming a path; a path that dies takes its PSNs in flight with
 * it, to be sent again on the others.
 *
 * READ SPRAYING (rmp_req_read_spray()).  A peer that agreed to it sends
 * the responses of a READ of at most RMP_RD_SPRAY_MAX PSNs over its own
 * paths, so they arrive in any order.  Each is placed by its PSN (offset
 * (PSN - first PSN) * MTU, its length the one that PSN must have) and
 * marked in rd_win, a receive window whose expected PSN is una: una moves
 * over responses received in order, and a READ completes, in order, once
 * una has passed its last PSN.  An acknowledgment (or a response of a
 * later READ) may now overtake the responses of an earlier READ or
 * atomic, so it is no implicit NAK: what it covers beyond them is
 * remembered (rd_acked) and taken once they are answered.  Loss shows as
 * a hole: a missing response overtaken by a later one for rd_reorder_ns
 * starts a repair sweep, which asks again, with a READ request at its
 * PSN, for each run of missing responses below the highest received
 * (the responder serves it like any duplicate READ); the ACK timeout
 * still goes back over everything.  So that nothing but READ responses
 * need the window, a sprayed WRITE, and a READ or atomic not sprayed,
 * wait until every sprayed READ before them completed.  With reports
 * (rmp_req_read_reports()) the window's SACK goes back to the responder
 * now and then (rmp_req_read_report()), so that its paths of responses
 * live and die as the requester's do (engine/rdpaths.c).
 */
#include "req.h"

/* IBTA RNR NAK timer field (table 45), in units of 10 us. */
static const u16 rmp_rnr_10us[32] = {
	[0] = 65535, /* 655.36 ms, fixed up in rmp_req_rnr_ns() */
	[1] = 1, [2] = 2, [3] = 3, [4] = 4, [5] = 6, [6] = 8, [7] = 12,
	[8] = 16, [9] = 24, [10] = 32, [11] = 48, [12] = 64, [13] = 96,
	[14] = 128, [15] = 192, [16] = 256, [17] = 384, [18] = 512,
	[19] = 768, [20] = 1024, [21] = 1536, [22] = 2048, [23] = 3072,
	[24] = 4096, [25] = 6144, [26] = 8192, [27] = 12288, [28] = 16384,
	[29] = 24576, [30] = 32768, [31] = 49152,
};

static struct rmp_req_wqe *rmp_req_at(const struct rmp_req *r, u32 idx)
{
	return &r->ring[idx & r->mask];
}

/* Whether ring index @a comes before @b; both in [tail, head]. */
static bool rmp_req_idx_before(const struct rmp_req *r, u32 a, u32 b)
{
	return a - r->tail < b - r->tail;
}

static bool rmp_req_is_rd_atomic(const struct rmp_req_wqe *w)
{
	return w->kind == RMP_REQ_READ || w->kind == RMP_REQ_ATOMIC ||
	       w->kind == RMP_REQ_ATOMIC_WRITE;
}

/* Read spraying: a repair sweep has PSNs left to look at. */
static bool rmp_req_repairing(const struct rmp_req *r)
{
	return r->rd_spray && rmp_psn_before(r->rd_fix, r->rd_fix_end);
}

/* PSN distance from una, for PSNs not before it. */
static u32 rmp_req_off(const struct rmp_req *r, u32 psn)
{
	return rmp_psn_sub(psn, r->una);
}

/**
 * rmp_req_udp_sport() - UDP source port of a RoCEv2 flow
 * @flow_label: GRH flow label (20 bits), 0 if none was given
 * @lqpn: local QPN
 * @rqpn: remote QPN
 *
 * The convention every RoCEv2 device follows: without a flow label, one is
 * derived symmetrically from the two QPNs (their product folded to 20
 * bits); the flow label is then folded to 14 bits above 0xc000.
 *
 * Return: the source port, in [0xc000, 0xffff].
 */
u16 rmp_req_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn)
{
	u32 lo, hi;

	if (!flow_label) {
		u64 v = (u64)lqpn * rqpn;

		v ^= v >> 20;
		v ^= v >> 40;
		flow_label = (u32)v & 0xfffff;
	}
	lo = flow_label & 0x3fff;
	hi = flow_label & 0xfc000;
	lo ^= hi >> 14;
	return (u16)(0xc000 | lo);
}

/**
 * rmp_req_timeout_ns() - local ACK timeout of an IB timeout code
 * @code: 5-bit code
 *
 * Return: 4.096 us * 2^@code in ns, or 0 (never) for code 0.
 */
u64 rmp_req_timeout_ns(u8 code)
{
	code &= 0x1f;
	return code ? 4096ULL << code : 0;
}

/*
 * How long the ACK timer runs once started: the QP's local ACK timeout,
 * which is the least the requester waits, or longer while the round trips
 * are (the live paths' with multipath, the QP's own on one path): a queue
 * building up on the route (a congested link, the capacity left after a
 * link failed) is not the loss of all in flight.
 */
static u64 rmp_req_ack_wait(const struct rmp_req *r)
{
	u64 rto;

	if (r->paths)
		return rmp_paths_wait(r->paths, r->timeout_ns);
	rto = rmp_rtt_rto(&r->rtt);
	return rto > r->timeout_ns ? rto : r->timeout_ns;
}

/*
 * Single path: time a packet sent for the first time that asks for its
 * ACK, if none is being timed; rmp_req_progress() takes the sample once
 * una passes it, a go-back forgets it (Karn: an ACK after a resend does
 * not say which transmission it answers).
 */
static void rmp_req_time(struct rmp_req *r, const struct rmp_req_pkt *pkt,
			 u64 now)
{
	if (r->paths || r->timing || pkt->retry || !pkt->ackreq ||
	    r->qpt != RMP_QPT_RC)
		return;
	r->timing = true;
	r->timed_psn = pkt->psn;
	r->timed_at = now;
}

/**
 * rmp_req_rnr_ns() - RNR wait of an AETH RNR timer code
 * @code: 5-bit code from the RNR NAK syndrome
 *
 * Return: the minimum RNR NAK timer field value in ns (code 0 is
 * 655.36 ms, code 1 is 10 us, code 31 is 491.52 ms).
 */
u64 rmp_req_rnr_ns(u8 code)
{
	code &= 0x1f;
	if (!code)
		return 655360000ULL;
	return rmp_rnr_10us[code] * 10000ULL;
}

/**
 * rmp_req_init() - set up a requester with an empty ring
 * @r: requester
 * @ring: metadata ring, @nslots entries, owned by the caller
 * @nslots: ring size, a power of two up to %RMP_REQ_RING_MAX, the same as
 *	the send queue's
 * @cfg: parameters
 * @sq_psn: first PSN to send (the QP's sq_psn attribute)
 *
 * Return: 0, or -EINVAL if an argument is out of range; @r and @ring are
 * then untouched.
 */
int rmp_req_init(struct rmp_req *r, struct rmp_req_wqe *ring, u32 nslots,
		 const struct rmp_req_cfg *cfg, u32 sq_psn)
{
	if (!ring || !nslots || nslots > RMP_REQ_RING_MAX ||
	    (nslots & (nslots - 1)))
		return -EINVAL;
	if (cfg->qpt != RMP_QPT_RC && cfg->qpt != RMP_QPT_UC &&
	    cfg->qpt != RMP_QPT_UD)
		return -EINVAL;
	if (cfg->mtu < 256 || cfg->mtu > 4096 || (cfg->mtu & (cfg->mtu - 1)))
		return -EINVAL;
	if (cfg->retry_cnt > 7 || cfg->rnr_retry > 7 || cfg->timeout > 31)
		return -EINVAL;
	if (cfg->max_inflight > RMP_REQ_INFLIGHT_MAX)
		return -EINVAL;

	memset(r, 0, sizeof(*r));
	memset(ring, 0, nslots * sizeof(*ring));
	r->ring = ring;
	r->mask = nslots - 1;
	r->qpt = cfg->qpt;
	r->retry_cnt = cfg->retry_cnt;
	r->rnr_retry = cfg->rnr_retry;
	r->mtu = cfg->mtu;
	r->max_rd_atomic = cfg->max_rd_atomic;
	r->max_inflight = cfg->max_inflight ?: RMP_REQ_INFLIGHT_DEFAULT;
	r->ack_every = cfg->ack_every ?: RMP_REQ_ACK_EVERY_DEFAULT;
	r->timeout_ns = rmp_req_timeout_ns(cfg->timeout);
	r->sport = rmp_req_udp_sport(cfg->flow_label, cfg->lqpn, cfg->rqpn);

	sq_psn = rmp_psn_mask(sq_psn);
	r->post_psn = sq_psn;
	r->next_psn = sq_psn;
	r->una = sq_psn;
	r->sent_psn = sq_psn;
	r->state = RMP_REQ_RUN;
	r->retries_left = cfg->retry_cnt;
	r->rnr_left = cfg->rnr_retry;
	return 0;
}

/**
 * rmp_req_multipath() - spray the QP's WRITEs over a path set
 * @r: requester of an RC QP
 * @ps: the path set, set up, owned by the caller
 * @sb: a scoreboard, set up, owned by the caller
 *
 * For a QP whose peer agreed to accept WRITE packets out of order: see
 * the design notes. WQEs sent before the call, even in part, and PSNs in
 * flight, keep their single-path handling. From now on at most as many PSNs as @sb has
 * records are in flight.
 *
 * Return: 0, or -EINVAL if @r is not RC.
 */
int rmp_req_multipath(struct rmp_req *r, struct rmp_paths *ps,
		      struct rmp_sb *sb)
{
	if (r->qpt != RMP_QPT_RC || !ps || !sb)
		return -EINVAL;
	r->paths = ps;
	r->sb = sb;
	r->spray_end = r->una;
	r->probes = 0;
	r->homes = 0;
	if (r->max_inflight > sb->mask + 1)
		r->max_inflight = sb->mask + 1;
	return 0;
}

/**
 * rmp_req_send_spray() - spray the QP's SENDs and WRITEs with immediate too
 * @r: requester, spraying (rmp_req_multipath())
 *
 * For a QP whose peer agreed to take SENDs in pieces: see the design
 * notes. Messages sent before the call, even in part, stay whole.
 *
 * Return: 0, or -EINVAL if @r does not spray.
 */
int rmp_req_send_spray(struct rmp_req *r)
{
	if (!r->paths)
		return -EINVAL;
	r->send_spray = true;
	return 0;
}

/**
 * rmp_req_read_spray() - take READ responses in any order
 * @r: requester of an RC QP
 * @reorder_ns: how long a missing response may be overtaken by later
 *	ones before it is asked for again; not 0
 *
 * For a QP whose peer agreed to spray READ responses: see the design
 * notes. READs sent before the call keep their in-order handling. From
 * now on at most %RMP_RD_SPRAY_MAX PSNs are in flight.
 *
 * Return: 0, or -EINVAL if @r is not RC or @reorder_ns is 0.
 */
int rmp_req_read_spray(struct rmp_req *r, u64 reorder_ns)
{
	if (r->qpt != RMP_QPT_RC || !reorder_ns)
		return -EINVAL;
	rmp_rxwin_init(&r->rd_win, r->una, RMP_RD_SPRAY_MAX);
	r->rd_spray = true;
	r->rd_reorder_ns = reorder_ns;
	r->rd_hole_at = 0;
	r->rd_acked = r->una;
	r->rd_end = r->una;
	r->rd_fix = r->una;
	r->rd_fix_end = r->una;
	if (r->max_inflight > RMP_RD_SPRAY_MAX)
		r->max_inflight = RMP_RD_SPRAY_MAX;
	return 0;
}

/**
 * rmp_req_read_reports() - report the READ responses received
 * @r: requester, with read spraying on (rmp_req_read_spray())
 *
 * For a QP whose peer agreed to take reports: from now on
 * rmp_req_read_report() hands out, now and then, what the requester
 * received of the sprayed responses, so that the responder learns which
 * of its paths deliver (see the design notes).
 *
 * Return: 0, or -EINVAL without read spraying.
 */
int rmp_req_read_reports(struct rmp_req *r)
{
	if (!r->rd_spray)
		return -EINVAL;
	r->rd_report = true;
	r->rd_report_now = false;
	r->rd_unreported = 0;
	return 0;
}

/**
 * rmp_req_pace() - pace the requester's packets at a rate
 * @r: requester
 * @d: the rate, set up, owned by the caller; NULL for none
 *
 * rmp_req_next() hands out packets no faster than @d allows and
 * rmp_req_deadline() includes when it lets the next one go.
 */
void rmp_req_pace(struct rmp_req *r, struct rmp_dcqcn *d)
{
	r->pacer = d;
}

/**
 * rmp_req_credit() - send new data only on the receiver's credit
 * @r: requester of an RC QP whose peer agreed to receiver credit
 * @tx: the credit, set up from the PSN the QP sends next, owned by the
 *	caller
 *
 * From now on a SEND, WRITE or ATOMIC WRITE packet never sent before goes
 * only if @tx allows it (rmp_credit_tx_may_send()); READ and atomic
 * requests, which bring no data to the receiver, and packets sent again
 * need none. A packet held back may make a request owed (@tx->ask), which
 * the caller sends; rmp_req_deadline() includes when it asks again.
 */
void rmp_req_credit(struct rmp_req *r, struct rmp_credit_tx *tx)
{
	r->credit = tx;
}

/* The next packet is data the receiver never had: it needs credit. */
static bool rmp_req_needs_credit(const struct rmp_req *r)
{
	const struct rmp_req_wqe *w;

	if (!rmp_req_unsent(r) || r->next_psn != r->sent_psn ||
	    (r->paths && r->sb->nlost) || rmp_req_repairing(r))
		return false;
	w = rmp_req_at(r, r->cur);
	return w->kind == RMP_REQ_SEND || w->kind == RMP_REQ_WRITE ||
	       w->kind == RMP_REQ_ATOMIC_WRITE;
}

/*
 * The message takes a receive WQE at the responder (a SEND, a WRITE with
 * immediate data): it counts in the SSN.
 */
static bool rmp_req_takes_rwqe(const struct rmp_req_wqe *w)
{
	return w->kind == RMP_REQ_SEND || (w->flags & RMP_REQ_F_IMM);
}

/* Internal WQE flag: its packets are sprayed (multipath). */
#define RMP_REQ_F_SPRAY		BIT(7)
/* Internal WQE flag: a READ whose responses the peer sprays. */
#define RMP_REQ_F_RDSPRAY	BIT(6)

static_assert(!((RMP_REQ_F_SPRAY | RMP_REQ_F_RDSPRAY) & RMP_REQ_F_MASK));

static int rmp_req_check_kind(const struct rmp_req *r, enum rmp_req_kind kind,
			      u32 length)
{
	switch (kind) {
	case RMP_REQ_LOCAL:
		return 0;
	case RMP_REQ_SEND:
		if (r->qpt == RMP_QPT_UD && length > r->mtu)
			return -EINVAL;
		return 0;
	case RMP_REQ_WRITE:
		return r->qpt == RMP_QPT_UD ? -EINVAL : 0;
	case RMP_REQ_ATOMIC_WRITE:
		if (length != sizeof(u64))
			return -EINVAL;
		return r->qpt == RMP_QPT_RC && r->max_rd_atomic ? 0 : -EINVAL;
	case RMP_REQ_READ:
	case RMP_REQ_ATOMIC:
		return r->qpt == RMP_QPT_RC && r->max_rd_atomic ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/**
 * rmp_req_post() - append a WQE
 * @r: requester
 * @kind: &enum rmp_req_kind
 * @length: message length in bytes, at most 2^31 (8 for an atomic, exactly
 *	8 for an ATOMIC WRITE)
 * @flags: RMP_REQ_F_* bits
 *
 * The WQE gets the next slot and the next PSNs.  In the flushed state it
 * finishes at once with %RMP_REQ_ERR_FLUSH.
 *
 * Return: the ring slot, which is also the send queue slot; -ENOSPC if the
 * ring is full; -EINVAL if @kind, @length or @flags is not allowed on this
 * QP (UD sends only single-packet SENDs; only RC, with max_rd_atomic set,
 * sends READs, atomics and ATOMIC WRITEs).
 */
int rmp_req_post(struct rmp_req *r, enum rmp_req_kind kind, u32 length,
		 u32 flags)
{
	struct rmp_req_wqe *w;
	u32 npsn;

	if (flags & ~RMP_REQ_F_MASK || length > BIT(31) ||
	    rmp_req_check_kind(r, kind, length))
		return -EINVAL;
	if (r->head - r->tail > r->mask)
		return -ENOSPC;

	if (kind == RMP_REQ_LOCAL)
		npsn = 0;
	else if (kind == RMP_REQ_ATOMIC || kind == RMP_REQ_ATOMIC_WRITE)
		npsn = 1;
	else
		npsn = length / r->mtu + (length % r->mtu || !length);

	w = rmp_req_at(r, r->head);
	w->length = length;
	w->first_psn = r->post_psn;
	w->npsn = npsn;
	w->acked = 0;
	w->kind = kind;
	w->flags = flags;
	w->done = 0;
	w->status = RMP_REQ_OK;
	w->ssn = r->post_ssn;
	if (rmp_req_takes_rwqe(w))
		r->post_ssn = rmp_psn_add(r->post_ssn, 1);
	if (r->state == RMP_REQ_FLUSHED) {
		w->done = 1;
		w->status = RMP_REQ_ERR_FLUSH;
	}
	r->post_psn = rmp_psn_add(r->post_psn, npsn);
	return (int)(r->head++ & r->mask);
}

/* Move comp over WQEs finished out of order (executed LOCAL WQEs). */
static void rmp_req_settle(struct rmp_req *r)
{
	while (r->comp != r->cur && rmp_req_at(r, r->comp)->done)
		r->comp++;
}

static unsigned int rmp_req_finish(struct rmp_req *r, u32 idx,
				   enum rmp_req_status status)
{
	struct rmp_req_wqe *w = rmp_req_at(r, idx);

	w->done = 1;
	w->status = status;
	if (rmp_req_is_rd_atomic(w) && rmp_req_idx_before(r, idx, r->cur))
		r->rd_atomic--;
	return RMP_REQ_EV_DONE;
}

static unsigned int rmp_req_error(struct rmp_req *r, u32 idx,
				  enum rmp_req_status status)
{
	rmp_req_finish(r, idx, status);
	r->state = RMP_REQ_ERROR;
	r->deadline = 0;
	return RMP_REQ_EV_DONE | RMP_REQ_EV_ERROR;
}

/*
 * Loss repair: everything from una is transmitted again, starting with the
 * WQE that holds it.  This function is the one place that decides what is
 * resent; a selective repair replaces it (see DESIGN NOTES).
 */
static unsigned int rmp_req_go_back(struct rmp_req *r)
{
	r->cur = r->comp;
	r->cur_pkt = r->comp != r->head ? rmp_req_at(r, r->comp)->acked : 0;
	r->next_psn = r->una;
	r->rd_atomic = 0;
	r->since_ackreq = 0;
	r->recovering = true;
	r->timing = false;
	r->deadline = 0;
	/* Every missing READ response is asked for again anyway. */
	r->rd_fix = r->rd_fix_end;
	return RMP_REQ_EV_SEND;
}

/* A transport retry: go back, or fail the oldest WQE once out of retries. */
static unsigned int rmp_req_retry(struct rmp_req *r)
{
	if (!r->retries_left)
		return rmp_req_error(r, r->comp, RMP_REQ_ERR_RETRY_EXC);
	r->retries_left--;
	return rmp_req_go_back(r);
}

/*
 * Acknowledge up to @n PSNs of @w, the WQE at comp, from una on; one that
 * gets its last is finished. Returns how many it took.
 */
static u32 rmp_req_ack_comp(struct rmp_req *r, struct rmp_req_wqe *w, u32 n,
			    unsigned int *ev)
{
	u32 step = w->npsn - w->acked;

	if (step > n)
		step = n;
	w->acked += step;
	r->una = rmp_psn_add(r->una, step);
	r->stats.acked += step;
	if (w->acked == w->npsn) {
		*ev |= rmp_req_finish(r, r->comp, RMP_REQ_OK);
		r->comp++;
	}
	return step;
}

/*
 * Acknowledge every PSN before @limit, which lies in (una, sent_psn].
 * Returns true if a READ or atomic before @limit has no response: una then
 * stops at its first missing PSN. With read spraying its response may
 * still come: una stops there, and @limit is kept for later.
 */
static bool rmp_req_ack_upto(struct rmp_req *r, u32 limit, unsigned int *ev)
{
	u32 left = rmp_req_off(r, limit);

	while (left && r->comp != r->head) {
		struct rmp_req_wqe *w = rmp_req_at(r, r->comp);

		if (w->done) {
			r->comp++;
			continue;
		}
		/* A LOCAL WQE not yet executed is after every PSN sent. */
		if (w->kind == RMP_REQ_LOCAL)
			break;
		if (rmp_req_is_rd_atomic(w) && r->rd_spray) {
			if (rmp_psn_after(limit, r->rd_acked))
				r->rd_acked = limit;
			break;
		}
		if (rmp_req_is_rd_atomic(w))
			return true;

		left -= rmp_req_ack_comp(r, w, left, ev);
	}
	return false;
}

/*
 * Read spraying: una moves over the responses received in order, which
 * finish the READs they complete, and then over what acknowledgments
 * covered beyond them; rd_win follows una.
 */
static unsigned int rmp_req_rd_settle(struct rmp_req *r)
{
	unsigned int ev = 0;
	struct rmp_req_wqe *w;
	u32 n;

	for (;;) {
		if (rmp_psn_after(r->rd_acked, r->una))
			rmp_req_ack_upto(r, r->rd_acked, &ev);
		rmp_rxwin_move(&r->rd_win, r->una);
		n = rmp_rxwin_advance(&r->rd_win);
		if (!n)
			return ev;
		/* Only sprayed READs' PSNs are ever held. */
		while (n && r->comp != r->head) {
			w = rmp_req_at(r, r->comp);
			if (w->done) {
				r->comp++;
				continue;
			}
			n -= rmp_req_ack_comp(r, w, n, &ev);
		}
	}
}

/*
 * Read spraying: responses are missing that others overtook, or the rest
 * of a READ some of whose responses came (the last ones may be lost, with
 * none after them to show it).
 */
static bool rmp_req_rd_missing(const struct rmp_req *r)
{
	const struct rmp_req_wqe *w = rmp_req_at(r, r->comp);

	return r->rd_win.held ||
	       (r->comp != r->cur && (w->flags & RMP_REQ_F_RDSPRAY) &&
		!w->done && w->acked);
}

/* Read spraying: the marks that follow una, after it moved. */
static void rmp_req_rd_follow(struct rmp_req *r, u64 now)
{
	if (!rmp_psn_after(r->rd_acked, r->una))
		r->rd_acked = r->una;
	if (!rmp_psn_before(r->una, r->rd_end))
		r->rd_end = r->una;
	if (!rmp_psn_before(r->una, r->rd_fix_end))
		r->rd_fix_end = r->una;
	if (rmp_psn_before(r->rd_fix, r->una))
		r->rd_fix = r->una;
	/* A new oldest missing response gets its own reordering time. */
	r->rd_hole_at = rmp_req_rd_missing(r) ? now : 0;
	r->rd_sweeps = 0;
}

/*
 * After una moved on from @from: the scoreboard, cursor, counters and the
 * ACK timer follow.
 */
static unsigned int rmp_req_progress(struct rmp_req *r, u64 now, u32 from)
{
	unsigned int ev = 0;

	if (r->rd_spray) {
		ev = rmp_req_rd_settle(r);
		rmp_req_rd_follow(r, now);
	}
	if (r->timing && rmp_psn_after(r->una, r->timed_psn)) {
		rmp_rtt_sample(&r->rtt, now - r->timed_at);
		r->timing = false;
	}
	if (r->paths) {
		rmp_sb_acked(r->sb, r->paths, from, r->una, now);
		if (!rmp_psn_before(r->una, r->spray_end))
			r->spray_end = r->una;
	}
	/* A late acknowledgment overtook a go-back: skip what it covers. */
	if (rmp_req_idx_before(r, r->cur, r->comp) ||
	    (r->cur == r->comp && rmp_psn_before(r->next_psn, r->una))) {
		r->cur = r->comp;
		r->cur_pkt = r->comp != r->head ?
			     rmp_req_at(r, r->comp)->acked : 0;
		r->next_psn = r->una;
		r->rd_atomic = 0;
	}
	rmp_req_settle(r);

	r->retries_left = r->retry_cnt;
	r->rnr_left = r->rnr_retry;
	r->recovering = false;
	/* The responder took what it refused: the RNR wait is moot. */
	r->state = RMP_REQ_RUN;
	r->deadline = r->una != r->sent_psn && r->timeout_ns ?
		      now + rmp_req_ack_wait(r) : 0;
	return ev | RMP_REQ_EV_SEND;
}

/* A READ or atomic response is missing: some later response overtook it. */
static unsigned int rmp_req_implicit_nak(struct rmp_req *r)
{
	if (r->recovering) {
		r->stats.dup_rsps++;
		return 0;
	}
	r->stats.implicit_naks++;
	return rmp_req_retry(r);
}

static unsigned int rmp_req_on_nak(struct rmp_req *r, u64 now, u8 syndrome)
{
	static const u8 status[RMP_NAK_MAX] = {
		[RMP_NAK_INV_REQ] = RMP_REQ_ERR_REM_INV_REQ,
		[RMP_NAK_REM_ACCESS] = RMP_REQ_ERR_REM_ACCESS,
		[RMP_NAK_REM_OP] = RMP_REQ_ERR_REM_OP,
		[RMP_NAK_INV_RD_REQ] = RMP_REQ_ERR_REM_INV_RD_REQ,
	};
	u8 value = rmp_aeth_syn_value(syndrome);

	if (rmp_aeth_syn_type(syndrome) == RMP_AETH_RNR_NAK) {
		if (r->state == RMP_REQ_RNR_WAIT) {
			r->stats.dup_rsps++;
			return 0;
		}
		r->stats.rnr_naks++;
		if (!r->rnr_left)
			return rmp_req_error(r, r->comp,
					     RMP_REQ_ERR_RNR_RETRY_EXC);
		if (r->rnr_retry != RMP_REQ_RNR_INFINITE)
			r->rnr_left--;
		/*
		 * Multipath: the go-back steps over PSNs still in flight, as
		 * the refused one is: it goes again after the wait, no path
		 * blamed. Pieces ahead of it that found no receive WQE either
		 * are lost like any others.
		 */
		if (r->paths)
			rmp_sb_timeout(r->sb, r->paths, r->una,
				       rmp_psn_add(r->una, 1));
		rmp_req_go_back(r);
		r->state = RMP_REQ_RNR_WAIT;
		r->rnr_until = now + rmp_req_rnr_ns(value);
		r->deadline = r->rnr_until;
		return 0;
	}

	if (value == RMP_NAK_PSN_SEQ) {
		if (r->recovering) {
			r->stats.dup_rsps++;
			return 0;
		}
		r->stats.seq_naks++;
		return rmp_req_retry(r);
	}
	if (value < RMP_NAK_MAX)
		return rmp_req_error(r, r->comp, status[value]);
	return rmp_req_error(r, r->comp, RMP_REQ_ERR_BAD_RESP);
}

/*
 * The part of the READ WQE at comp that a response at PSN una carries:
 * false if the packet's position (LAST or not) or length is not the one
 * that PSN must have.
 */
static bool rmp_req_read_part(const struct rmp_req *r,
			      const struct rmp_hdr_fields *f, u32 opf,
			      struct rmp_req_rsp *out)
{
	const struct rmp_req_wqe *w = rmp_req_at(r, r->comp);
	bool last = w->acked == w->npsn - 1;
	u32 len = last ? w->length - w->acked * r->mtu : r->mtu;

	if (last != !!(opf & RMP_OPF_LAST) || f->payload_len != len)
		return false;
	out->action = RMP_REQ_RSP_READ;
	out->slot = r->comp & r->mask;
	out->offset = w->acked * r->mtu;
	out->len = len;
	return true;
}

/*
 * READ response or atomic ACK for the WQE at comp, whose next PSN is una;
 * an ATOMIC WRITE's answer is a READ response too.
 */
static unsigned int rmp_req_on_data(struct rmp_req *r, u32 psn,
				    const struct rmp_hdr_fields *f, u32 opf,
				    struct rmp_req_rsp *out)
{
	struct rmp_req_wqe *w = rmp_req_at(r, r->comp);
	u32 idx = r->comp;
	bool last;

	if (r->comp == r->head)
		return 0;
	/*
	 * Read spraying: a later response of a READ answered in order means
	 * the ones before it were lost (the acknowledgment of the PSNs
	 * before it did not say so, see rmp_req_ack_upto()).
	 */
	if (r->una != psn)
		return r->rd_spray && w->kind == RMP_REQ_READ &&
		       rmp_psn_in_window(psn, w->first_psn, w->npsn) ?
		       rmp_req_implicit_nak(r) : 0;
	if (opf & RMP_OPF_ATOMIC) {
		if (w->kind != RMP_REQ_ATOMIC)
			return rmp_req_error(r, idx, RMP_REQ_ERR_BAD_RESP);
		out->action = RMP_REQ_RSP_ATOMIC;
		out->slot = idx & r->mask;
		last = true;
	} else if (w->kind == RMP_REQ_ATOMIC_WRITE) {
		/* Its answer is a READ response ONLY with nothing in it. */
		if ((opf & RMP_OPF_ONLY) != RMP_OPF_ONLY || f->payload_len) {
			r->stats.bad_rsps++;
			return 0;
		}
		out->action = RMP_REQ_RSP_ACK;
		last = true;
	} else {
		if (w->kind != RMP_REQ_READ)
			return rmp_req_error(r, idx, RMP_REQ_ERR_BAD_RESP);
		if (!rmp_req_read_part(r, f, opf, out)) {
			r->stats.bad_rsps++;
			return 0;
		}
		last = opf & RMP_OPF_LAST;
	}

	w->acked++;
	r->una = rmp_psn_add(r->una, 1);
	r->stats.acked++;
	if (last) {
		r->comp++;
		return rmp_req_finish(r, idx, RMP_REQ_OK);
	}
	return 0;
}

/* The WQE holding @psn, from comp on, or NULL. */
static struct rmp_req_wqe *rmp_req_wqe_of(const struct rmp_req *r, u32 psn,
					  u32 *idx)
{
	struct rmp_req_wqe *w;
	u32 i;

	for (i = r->comp; i != r->head; i++) {
		w = rmp_req_at(r, i);
		if (rmp_psn_in_window(psn, w->first_psn, w->npsn)) {
			*idx = i;
			return w;
		}
	}
	return NULL;
}

/* Read spraying: the sprayed READ holding @psn, or NULL. */
static struct rmp_req_wqe *rmp_req_rd_wqe(const struct rmp_req *r, u32 psn,
					  u32 *idx)
{
	struct rmp_req_wqe *w = rmp_req_wqe_of(r, psn, idx);

	return w && (w->flags & RMP_REQ_F_RDSPRAY) ? w : NULL;
}

/*
 * Read spraying: where the response at @psn of the sprayed READ @w goes,
 * by its PSN alone; false if its length is not the one that PSN must
 * have. Its position (FIRST, MIDDLE, LAST) is not checked: a repair's
 * responses begin and end where the repair does.
 */
static bool rmp_req_rd_part(const struct rmp_req *r,
			    const struct rmp_req_wqe *w, u32 idx, u32 psn,
			    const struct rmp_hdr_fields *f,
			    struct rmp_req_rsp *out)
{
	u32 off = rmp_psn_sub(psn, w->first_psn) * r->mtu;
	u32 len = w->length - off;

	if (len > r->mtu)
		len = r->mtu;
	if (f->payload_len != len)
		return false;
	out->action = RMP_REQ_RSP_READ;
	out->slot = idx & r->mask;
	out->offset = off;
	out->len = len;
	return true;
}

/*
 * Read spraying: a response of a sprayed READ, at @psn in [una,
 * sent_psn). It acknowledges every PSN before its READ, and is placed
 * unless it was received before.
 */
static unsigned int rmp_req_rd_response(struct rmp_req *r, u64 now, u32 psn,
					const struct rmp_hdr_fields *f,
					struct rmp_req_wqe *w, u32 idx,
					struct rmp_req_rsp *out)
{
	unsigned int ev = 0;
	u32 una = r->una;

	if (!rmp_req_rd_part(r, w, idx, psn, f, out)) {
		out->action = RMP_REQ_RSP_DROP;
		r->stats.bad_rsps++;
		return 0;
	}
	if (rmp_psn_after(w->first_psn, r->una))
		rmp_req_ack_upto(r, w->first_psn, &ev);
	rmp_rxwin_move(&r->rd_win, r->una);
	switch (rmp_rxwin_accept(&r->rd_win, psn)) {
	case RMP_RXWIN_NEW_OUT_OF_ORDER:
		r->stats.rd_ooo++;
		r->rd_unreported++;
		if (!r->rd_hole_at)
			r->rd_hole_at = now;
		break;
	case RMP_RXWIN_NEW_IN_ORDER:
		r->rd_unreported++;
		break;
	default:
		out->action = RMP_REQ_RSP_DROP;
		r->stats.dup_rsps++;
		break;
	}
	if (r->una != una || rmp_rxwin_has(&r->rd_win, r->una))
		ev |= rmp_req_progress(r, now, una);
	return ev;
}

/**
 * rmp_req_will_place() - whether rmp_req_ack() would place a READ response
 * @r: requester
 * @f: the packet's parsed headers, as for rmp_req_ack()
 * @out: set, if so, to what rmp_req_ack() will set it to
 *
 * True for the READ response the requester waits for: at the oldest
 * unacknowledged PSN, already sent, for the READ WQE next to complete,
 * with the position and length that PSN must have (one that acknowledges
 * earlier WQEs as well is not foreseen); with read spraying, also for a
 * response of a sprayed READ not received yet, with the length its PSN
 * must have, whatever its place. Nothing changes. Where
 * its payload goes comes from the WQE, not from the packet, so a receiver
 * may place the payload while checking the packet's integrity, and drop
 * the packet without calling rmp_req_ack() if that fails: a retransmission
 * places the same bytes again before the WQE can complete.
 *
 * Return: true if rmp_req_ack() will return %RMP_REQ_RSP_READ in @out.
 */
bool rmp_req_will_place(const struct rmp_req *r,
			const struct rmp_hdr_fields *f, struct rmp_req_rsp *out)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	const struct rmp_req_wqe *w;
	u32 psn, idx;

	if (r->qpt != RMP_QPT_RC || r->state >= RMP_REQ_ERROR || !info ||
	    info->qpt != RMP_QPT_RC ||
	    (info->flags & (RMP_OPF_RESP | RMP_OPF_READ)) !=
	    (RMP_OPF_RESP | RMP_OPF_READ) ||
	    ((info->flags & RMP_OPF_AETH) &&
	     rmp_aeth_syn_type(f->aeth.syndrome) != RMP_AETH_ACK))
		return false;
	psn = rmp_psn_mask(f->bth.psn);
	if (!rmp_psn_in_window(psn, r->una, rmp_req_off(r, r->sent_psn)))
		return false;
	if (r->rd_spray) {
		w = rmp_req_rd_wqe(r, psn, &idx);
		if (w)
			return !rmp_rxwin_has(&r->rd_win, psn) &&
			       rmp_req_off(r, psn) < RMP_RD_SPRAY_MAX &&
			       rmp_req_rd_part(r, w, idx, psn, f, out);
	}
	if (psn != r->una || r->comp == r->head ||
	    rmp_req_at(r, r->comp)->kind != RMP_REQ_READ)
		return false;
	return rmp_req_read_part(r, f, info->flags, out);
}

/**
 * rmp_req_ack() - act on a response packet
 * @r: requester
 * @now: current time, ns
 * @f: the packet's parsed headers (rmp_hdr_parse(), with the payload
 *	length known)
 * @out: set to what the kernel does with the packet
 *
 * Handles ACKs (coalesced: one acknowledges every WQE up to its PSN),
 * sequence error NAKs (go back N), RNR NAKs (wait, then go back N), error
 * NAKs (the WQE at the NAK's PSN fails, the QP enters the error state), READ
 * responses and atomic ACKs (which also acknowledge everything before them).
 * A READ response that skips PSNs re-issues the READ for its missing bytes.
 * Responses before the oldest unacknowledged PSN are duplicates, those at or
 * after the next PSN never sent are ghosts; both are dropped and counted.
 * The MSN is recorded but completions follow PSNs.
 *
 * Call this for every packet whose opcode is an RC response on an RC QP;
 * place the payload (@out) before calling rmp_req_complete().
 *
 * Return: RMP_REQ_EV_* bits.
 */
unsigned int rmp_req_ack(struct rmp_req *r, u64 now,
			 const struct rmp_hdr_fields *f,
			 struct rmp_req_rsp *out)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	u32 psn = rmp_psn_mask(f->bth.psn);
	u8 syn = f->aeth.syndrome;
	struct rmp_req_wqe *w;
	unsigned int ev = 0;
	bool is_ack, hole;
	u32 una, idx;

	memset(out, 0, sizeof(*out));
	out->action = RMP_REQ_RSP_DROP;
	if (r->qpt != RMP_QPT_RC || r->state >= RMP_REQ_ERROR)
		return 0;
	if (!info || info->qpt != RMP_QPT_RC || !(info->flags & RMP_OPF_RESP) ||
	    ((info->flags & RMP_OPF_AETH) &&
	     rmp_aeth_syn_type(syn) == RMP_AETH_RSVD)) {
		r->stats.bad_rsps++;
		return 0;
	}
	is_ack = f->bth.opcode == RMP_OP_RC_ACKNOWLEDGE;
	/* Only a bare ACK may carry a NAK syndrome. */
	if (!is_ack && (info->flags & RMP_OPF_AETH) &&
	    rmp_aeth_syn_type(syn) != RMP_AETH_ACK) {
		r->stats.bad_rsps++;
		return 0;
	}
	if (!rmp_psn_in_window(psn, r->una, rmp_req_off(r, r->sent_psn))) {
		if (rmp_psn_before(psn, r->una))
			r->stats.dup_rsps++;
		else
			r->stats.ghost_rsps++;
		return 0;
	}
	if (info->flags & RMP_OPF_AETH)
		r->msn = f->aeth.msn;
	if (is_ack)
		out->action = RMP_REQ_RSP_ACK;
	if (r->rd_spray && (info->flags & RMP_OPF_READ)) {
		w = rmp_req_wqe_of(r, psn, &idx);
		if (w && (w->flags & RMP_REQ_F_RDSPRAY))
			return rmp_req_rd_response(r, now, psn, f, w, idx, out);
		/* Not even a READ's (an ATOMIC WRITE's answer is one). */
		if (!w || (w->kind != RMP_REQ_READ &&
			   w->kind != RMP_REQ_ATOMIC_WRITE)) {
			r->stats.bad_rsps++;
			return 0;
		}
	}

	/* Everything before the PSN, and an ACK's own PSN, is acknowledged. */
	una = r->una;
	if (is_ack && rmp_aeth_syn_type(syn) == RMP_AETH_ACK)
		hole = rmp_req_ack_upto(r, rmp_psn_add(psn, 1), &ev);
	else
		hole = rmp_req_ack_upto(r, psn, &ev);
	if (r->una != una)
		ev |= rmp_req_progress(r, now, una);
	if (hole)
		return ev | rmp_req_implicit_nak(r);

	if (!is_ack) {
		una = r->una;
		ev |= rmp_req_on_data(r, psn, f, info->flags, out);
		if (r->una != una && r->state != RMP_REQ_ERROR)
			ev |= rmp_req_progress(r, now, una);
		return ev;
	}
	if (rmp_aeth_syn_type(syn) != RMP_AETH_ACK)
		ev |= rmp_req_on_nak(r, now, syn);
	return ev;
}

/* Multipath: the PSNs in flight on paths that just died are lost. */
static unsigned int rmp_req_dead_paths(struct rmp_req *r, u64 was_live,
				       u64 now)
{
	u64 died = was_live & ~r->paths->live_mask;
	unsigned int ev = 0;
	u32 i;

	for (i = 0; died; i++, died >>= 1) {
		if ((died & 1) &&
		    rmp_sb_path_dead(r->sb, r->paths, r->una, r->sent_psn, i,
				     now))
			ev = RMP_REQ_EV_SEND;
	}
	return ev;
}

/**
 * rmp_req_sack() - act on a selective acknowledgment
 * @r: requester
 * @now: current time, ns
 * @f: the packet's parsed headers; its BTH PSN is @s->cum_ack
 * @s: the SACK it carries, decoded (rmp_sack_decode())
 * @ce: the ECN echo it carries, decoded (rmp_ecn_echo_decode()), or NULL
 *
 * With multipath on, the PSNs in flight that @ce names count as CE marked
 * when they are delivered (rmp_sb_ecn()). The cumulative part acts like an
 * ACK of @s->cum_ack; with multipath on,
 * the bitmap then marks held PSNs and finds the lost ones, which
 * rmp_req_next() sends again, and the path set is ticked with the new
 * estimates (rmp_paths_tick()). Without multipath (the peer agreed before
 * this side learnt it did) only the cumulative part counts. A SACK whose
 * cumulative part is older than the newest already taken is dropped as a
 * duplicate.
 *
 * Return: RMP_REQ_EV_* bits.
 */
unsigned int rmp_req_sack(struct rmp_req *r, u64 now,
			  const struct rmp_hdr_fields *f,
			  const struct rmp_sack *s, const struct rmp_ecn_echo *ce)
{
	u32 psn = rmp_psn_mask(f->bth.psn), una = r->una;
	unsigned int ev = 0;
	bool fresh;
	u64 live;

	if (r->qpt != RMP_QPT_RC || r->state >= RMP_REQ_ERROR)
		return 0;
	if (rmp_aeth_syn_type(f->aeth.syndrome) != RMP_AETH_ACK ||
	    s->cum_ack != psn || s->nbits > RMP_SACK_MAX_BITS) {
		r->stats.bad_rsps++;
		return 0;
	}
	fresh = rmp_psn_in_window(psn, una, rmp_req_off(r, r->sent_psn));
	if (!fresh && psn != rmp_psn_sub(una, 1)) {
		if (rmp_psn_before(psn, una))
			r->stats.dup_rsps++;
		else
			r->stats.ghost_rsps++;
		return 0;
	}
	if (ce && r->paths)
		rmp_sb_ecn(r->sb, una, r->sent_psn, ce);
	if (fresh) {
		r->msn = f->aeth.msn;
		if (rmp_req_ack_upto(r, rmp_psn_add(psn, 1), &ev)) {
			if (r->una != una)
				ev |= rmp_req_progress(r, now, una);
			return ev | rmp_req_implicit_nak(r);
		}
		if (r->una != una)
			ev |= rmp_req_progress(r, now, una);
	}
	if (!r->paths)
		return ev;
	live = r->paths->live_mask;
	if (rmp_sb_sack(r->sb, r->paths, r->una, r->sent_psn, s, now))
		ev |= RMP_REQ_EV_SEND;
	/* Fresh estimates: weights follow them, bad routes are left. */
	rmp_paths_tick(r->paths, now);
	return ev | rmp_req_dead_paths(r, live, now);
}

/* The sooner of two deadlines, 0 standing for none. */
static u64 rmp_req_sooner(u64 d, u64 at)
{
	return at && (!d || at < d) ? at : d;
}

/*
 * Multipath: how long a probe may take: a probe period, or longer while
 * the live paths' round trips are (queues that build up on the routes
 * left when a link fails slow the probes of its paths too).
 */
static u64 rmp_req_probe_wait(const struct rmp_req *r)
{
	return rmp_paths_wait(r->paths, r->paths->cfg.probe_every_ns);
}

/*
 * Multipath: the path set's next event, the oldest probe's expiry (its
 * wait looked at only while probes are in flight: this runs after every
 * run of the transport), or when the next PSN in flight becomes overdue.
 */
static u64 rmp_req_paths_deadline(const struct rmp_req *r)
{
	u64 probe = r->sb->nprobes ?
		    rmp_sb_probe_deadline(r->sb, rmp_req_probe_wait(r)) : 0;
	u64 at = rmp_req_sooner(rmp_paths_deadline(r->paths), probe);

	return rmp_req_sooner(at, r->sb->recheck_ns);
}

/*
 * Multipath: overdue PSNs and unanswered probes are lost, silent paths
 * die, dead ones come due for a probe.
 */
static unsigned int rmp_req_paths_timer(struct rmp_req *r, u64 now)
{
	u64 at = rmp_req_paths_deadline(r), live;
	unsigned int ev = 0;

	if (!at || now < at)
		return 0;
	live = r->paths->live_mask;
	if (rmp_sb_recheck(r->sb, r->paths, r->una, r->sent_psn, now))
		ev = RMP_REQ_EV_SEND;
	rmp_paths_tick(r->paths, now);
	/* What a probe may take follows the paths left alive. */
	if (rmp_sb_probes_expired(r->sb, r->paths, r->una, r->sent_psn, now,
				  rmp_req_probe_wait(r)))
		ev = RMP_REQ_EV_SEND;
	ev |= rmp_req_dead_paths(r, live, now);
	r->probes |= rmp_paths_probes_due(r->paths, now);
	r->homes |= rmp_paths_homes_due(r->paths, now);
	return ev;
}

/*
 * Read spraying: a repair sweep asks for every response missing up to the
 * end of the READ of the highest one received (or of the READ at una):
 * the holes, and that READ's last responses, lost with none after them.
 */
static u32 rmp_req_rd_sweep_end(const struct rmp_req *r)
{
	u32 psn = r->rd_win.held ? r->rd_win.highest : r->una, idx;
	const struct rmp_req_wqe *w = rmp_req_rd_wqe(r, psn, &idx);

	return w ? rmp_psn_add(w->first_psn, w->npsn) : r->una;
}

/*
 * Read spraying: when missing responses are asked for again: a reordering
 * time after they went missing, twice as long after each sweep that
 * brought no progress; 0 if none is missing.
 */
static u64 rmp_req_rd_deadline(const struct rmp_req *r)
{
	return r->rd_hole_at ?
	       r->rd_hole_at + (r->rd_reorder_ns << r->rd_sweeps) : 0;
}

/*
 * The local ACK timer, or the end of an RNR wait. With multipath, the
 * packets still in flight on paths the timeout killed go on the others.
 */
static unsigned int rmp_req_ack_timer(struct rmp_req *r, u64 now)
{
	u64 live;

	if (!r->deadline || now < r->deadline)
		return 0;
	r->deadline = 0;
	if (r->state == RMP_REQ_RNR_WAIT) {
		r->state = RMP_REQ_RUN;
		return RMP_REQ_EV_SEND;
	}
	if (r->state != RMP_REQ_RUN || r->una == r->next_psn)
		return 0;
	r->stats.timeouts++;
	if (r->paths) {
		live = r->paths->live_mask;
		rmp_sb_ack_timeout(r->sb, r->paths, r->una, r->sent_psn, now,
				   rmp_req_ack_wait(r));
		rmp_req_dead_paths(r, live, now);
		r->plain_path++;
	}
	return rmp_req_retry(r);
}

/**
 * rmp_req_timer() - act on the deadline
 * @r: requester
 * @now: current time, ns
 *
 * At the end of an RNR wait, or when the pacer lets the packet waiting for
 * it go, transmission resumes.  On a local ACK timeout with packets
 * outstanding, what was sent from the oldest unacknowledged PSN on is sent
 * again (with multipath, what was sent a whole timeout ago: the rest may
 * still come) and a transport retry is counted; with none left, the
 * oldest WQE fails with %RMP_REQ_ERR_RETRY_EXC.  With multipath, paths
 * silent for too long die and dead ones come due for a probe, after the
 * ACK timeout's losses killed what they kill: a probe's wait follows the
 * paths left alive.  With read spraying, READ responses missing for long
 * enough are asked for again (see the design notes).  Calls before the
 * deadline do nothing.
 *
 * Return: RMP_REQ_EV_* bits.
 */
unsigned int rmp_req_timer(struct rmp_req *r, u64 now)
{
	unsigned int ev = rmp_req_ack_timer(r, now);
	u64 at;

	if (r->paths && r->state < RMP_REQ_ERROR)
		ev |= rmp_req_paths_timer(r, now);
	at = rmp_req_rd_deadline(r);
	if (at && r->state < RMP_REQ_ERROR && now >= at) {
		r->rd_fix = r->una;
		r->rd_fix_end = rmp_req_rd_sweep_end(r);
		r->rd_hole_at = now;
		if (r->rd_sweeps < RMP_REQ_RD_BACKOFF_MAX)
			r->rd_sweeps++;
		r->rd_report_now = r->rd_report && r->rd_unreported;
		ev |= RMP_REQ_EV_SEND;
	}
	if (r->paced_until && now >= r->paced_until) {
		/* The pacer opened for the packet that waits. */
		r->paced_until = 0;
		ev |= RMP_REQ_EV_SEND;
	}
	return ev;
}

/**
 * rmp_req_deadline() - when the requester next needs rmp_req_timer()
 * @r: requester
 *
 * Return: absolute time in ns of the local ACK timeout, of the end of an
 * RNR wait, of the pacer letting a packet waiting for it go, of a sender
 * held back for credit asking again, of missing READ responses being
 * asked for again (read spraying), or (multipath) of the path set's next
 * event; 0 if no timer is needed.
 */
u64 rmp_req_deadline(const struct rmp_req *r)
{
	u64 d = r->deadline, at;

	if (r->state >= RMP_REQ_ERROR)
		return d;
	d = rmp_req_sooner(d, r->paced_until);
	d = rmp_req_sooner(d, rmp_req_rd_deadline(r));
	at = r->credit ? rmp_credit_tx_deadline(r->credit) : RMP_CREDIT_NEVER;
	if (at != RMP_CREDIT_NEVER)
		d = rmp_req_sooner(d, at);
	return r->paths ? rmp_req_sooner(d, rmp_req_paths_deadline(r)) : d;
}

/**
 * rmp_req_control_sport() - the UDP source port of a control packet
 * @r: requester
 * @n: which packet, counted by the caller: consecutive ones take
 *	consecutive live paths
 *
 * For what the requester sends outside its data (credit requests): a
 * route that fails, each way, then holds back only some of them.
 *
 * Return: the QP's own port without multipath, else a live path's.
 */
u16 rmp_req_control_sport(const struct rmp_req *r, u32 n)
{
	if (!r->paths)
		return r->sport;
	return r->paths->path[rmp_paths_nth_live(r->paths, n)].sport;
}

/*
 * Where a packet that is not sprayed goes: one live path, another after
 * each ACK timeout. Such packets are often alone in flight (a SEND, a
 * READ request in a ping-pong), so no other path's deliveries show their
 * path dead: the timeout is all that does.
 */
static u16 rmp_req_plain_sport(const struct rmp_req *r)
{
	return rmp_req_control_sport(r, r->plain_path);
}

/**
 * rmp_req_read_report() - a report of the READ responses received, if due
 * @r: requester, with reports on (rmp_req_read_reports())
 * @s: filled in with the window of READ responses: the cumulative part
 *	is the PSN before the oldest unacknowledged one
 * @sport: filled in with the UDP source port it goes from: the one of
 *	the packets that are not sprayed
 *
 * A report is due once responses came since the last one and either
 * %RMP_REQ_RD_REPORT_EVERY of them did, a repair sweep began, or no
 * sprayed READ is left unanswered. The caller sends it at once (call it
 * after taking responses in and after rmp_req_timer()).
 *
 * Return: 0 if @s holds a report to send; -ENODATA if none is due.
 */
int rmp_req_read_report(struct rmp_req *r, struct rmp_sack *s, u16 *sport)
{
	if (!r->rd_report || !r->rd_unreported || r->state >= RMP_REQ_ERROR ||
	    (r->rd_unreported < RMP_REQ_RD_REPORT_EVERY && !r->rd_report_now &&
	     rmp_psn_before(r->una, r->rd_end)))
		return -ENODATA;
	rmp_rxwin_move(&r->rd_win, r->una);
	if (rmp_rxwin_sack(&r->rd_win, s))
		return -ENODATA;
	*sport = rmp_req_plain_sport(r);
	r->rd_unreported = 0;
	r->rd_report_now = false;
	r->stats.rd_reports++;
	return 0;
}

/*
 * Multipath: put a sprayed packet on a path and on the scoreboard. Only
 * new packets probe a dead path, or a path's home port: a PSN sent again
 * goes on a live path's port, or a PSN whose probe failed could go on
 * probing for ever.
 */
static void rmp_req_spray(struct rmp_req *r, u64 now, struct rmp_req_pkt *pkt)
{
	enum rmp_sb_probe kind = RMP_SB_NO_PROBE;
	int probe = -ENOENT;
	u32 path;

	if (!pkt->retry) {
		probe = rmp_paths_take_probe(r->paths, &r->probes);
		if (probe >= 0)
			kind = RMP_SB_PROBE_DEAD;
	}
	if (!pkt->retry && probe < 0) {
		probe = rmp_paths_take_home(r->paths, &r->homes);
		if (probe >= 0)
			kind = RMP_SB_PROBE_HOME;
	}
	path = probe >= 0 ? (u32)probe : rmp_paths_pick(r->paths, now);
	pkt->sport = kind == RMP_SB_PROBE_HOME ?
		     r->paths->path[path].home_sport :
		     r->paths->path[path].sport;
	pkt->sprayed = true;
	rmp_sb_sent(r->sb, r->paths, pkt->psn, pkt->len, path, kind, now);
	if (!rmp_psn_before(pkt->psn, r->spray_end))
		r->spray_end = rmp_psn_add(pkt->psn, 1);
	r->stats.sprayed++;
}

/*
 * The one packet of a sprayed WQE at @pkt->psn, @k packets in: a WRITE
 * ONLY, or a piece of a SEND, which keeps its place in the message.
 */
static void rmp_req_piece(const struct rmp_req *r, const struct rmp_req_wqe *w,
			  u32 k, struct rmp_req_pkt *pkt)
{
	pkt->kind = w->kind;
	pkt->pos = RMP_REQ_ONLY;
	if (w->kind == RMP_REQ_SEND)
		pkt->pos = (k ? 0 : RMP_REQ_FIRST) |
			   (k == w->npsn - 1 ? RMP_REQ_LAST : 0);
	pkt->ssn = w->ssn;
	pkt->offset = k * r->mtu;
	pkt->len = w->length - pkt->offset;
	if (pkt->len > r->mtu)
		pkt->len = r->mtu;
}

/* A packet sent again apart from the cursor: counted; the ACK timer runs. */
static void rmp_req_sent_again(struct rmp_req *r, u64 now)
{
	r->stats.pkts++;
	r->stats.retrans++;
	if (r->timeout_ns && !r->deadline)
		r->deadline = now + rmp_req_ack_wait(r);
}

/* Multipath: send again the oldest PSN the scoreboard found lost. */
static int rmp_req_resend(struct rmp_req *r, u64 now, struct rmp_req_pkt *pkt)
{
	int psn = rmp_sb_next_lost(r->sb, r->una, r->sent_psn);
	struct rmp_req_wqe *w = NULL;
	u32 idx;

	if (psn < 0)
		return psn;
	for (idx = r->comp; idx != r->head; idx++) {
		w = rmp_req_at(r, idx);
		if (rmp_psn_in_window(psn, w->first_psn, w->npsn))
			break;
	}
	/* Only the PSNs of sprayed WQEs are ever lost. */
	if (idx == r->head || !(w->flags & RMP_REQ_F_SPRAY))
		return -ENOENT;

	memset(pkt, 0, sizeof(*pkt));
	pkt->slot = idx & r->mask;
	pkt->psn = (u32)psn;
	rmp_req_piece(r, w, rmp_psn_sub(psn, w->first_psn), pkt);
	pkt->ackreq = true;
	pkt->retry = true;
	rmp_req_spray(r, now, pkt);
	r->since_ackreq = 0;
	rmp_req_sent_again(r, now);
	r->stats.sel_retrans++;
	return 0;
}

/*
 * Read spraying: ask again for the next run of missing responses the
 * repair sweep finds, with a READ request of the run's bytes at its first
 * PSN (a duplicate for the responder). -ENOENT once the sweep is over.
 */
static int rmp_req_rd_repair(struct rmp_req *r, u64 now,
			     struct rmp_req_pkt *pkt)
{
	const struct rmp_req_wqe *w;
	u32 idx, end, first, k;

	while (rmp_req_repairing(r)) {
		w = rmp_req_rd_wqe(r, r->rd_fix, &idx);
		if (!w) {
			r->rd_fix = rmp_psn_add(r->rd_fix, 1);
			continue;
		}
		end = rmp_psn_add(w->first_psn, w->npsn);
		if (rmp_psn_before(r->rd_fix_end, end))
			end = r->rd_fix_end;
		while (rmp_psn_before(r->rd_fix, end) &&
		       rmp_rxwin_has(&r->rd_win, r->rd_fix))
			r->rd_fix = rmp_psn_add(r->rd_fix, 1);
		if (r->rd_fix == end)
			continue;
		first = r->rd_fix;
		while (rmp_psn_before(r->rd_fix, end) &&
		       !rmp_rxwin_has(&r->rd_win, r->rd_fix))
			r->rd_fix = rmp_psn_add(r->rd_fix, 1);

		memset(pkt, 0, sizeof(*pkt));
		pkt->slot = idx & r->mask;
		pkt->psn = first;
		pkt->kind = RMP_REQ_READ;
		pkt->pos = RMP_REQ_ONLY;
		k = rmp_psn_sub(first, w->first_psn);
		pkt->offset = k * r->mtu;
		pkt->len = rmp_psn_sub(r->rd_fix, first) * r->mtu;
		if (pkt->len > w->length - pkt->offset)
			pkt->len = w->length - pkt->offset;
		pkt->sport = rmp_req_plain_sport(r);
		pkt->ackreq = true;
		pkt->retry = true;
		pkt->spray = true;
		rmp_req_sent_again(r, now);
		r->stats.rd_repairs++;
		return 0;
	}
	return -ENOENT;
}

/*
 * Multipath, after a go-back: step the cursor over the sprayed PSNs of
 * @w the scoreboard knows of (held, in flight, or queued as lost). True
 * if none of @w is left to send. Only a PSN sent before can be known: the
 * record of one never sent is still that of the PSN a scoreboard's length
 * before it, in flight when the window is full.
 */
static bool rmp_req_skip_known(struct rmp_req *r, const struct rmp_req_wqe *w)
{
	if (!(w->flags & RMP_REQ_F_SPRAY))
		return false;
	while (r->cur_pkt < w->npsn &&
	       rmp_req_off(r, r->next_psn) < rmp_req_off(r, r->sent_psn) &&
	       rmp_sb_state(r->sb, r->next_psn) != RMP_SB_NONE) {
		r->cur_pkt++;
		r->next_psn = rmp_psn_add(r->next_psn, 1);
	}
	return r->cur_pkt == w->npsn;
}

/*
 * Multipath: a packet that is not sprayed waits until every sprayed PSN
 * before it is acknowledged. One sent again after a go-back never waits:
 * nothing sprayed before it was outstanding when it was first sent.
 */
static bool rmp_req_behind_spray(const struct rmp_req *r,
				 const struct rmp_req_wqe *w)
{
	return r->paths && !(w->flags & RMP_REQ_F_SPRAY) &&
	       rmp_psn_before(r->una, r->spray_end) &&
	       !rmp_psn_before(r->next_psn, r->spray_end);
}

/*
 * Read spraying: a sprayed WRITE, and a READ or atomic whose answer is not
 * sprayed, wait until every sprayed READ before them completed, so that
 * only READ responses ever need the window of READ responses.
 */
static bool rmp_req_behind_read(const struct rmp_req *r,
				const struct rmp_req_wqe *w)
{
	return r->rd_spray &&
	       ((w->flags & RMP_REQ_F_SPRAY) ||
		(rmp_req_is_rd_atomic(w) && !(w->flags & RMP_REQ_F_RDSPRAY))) &&
	       rmp_psn_before(r->una, r->rd_end) &&
	       !rmp_psn_before(r->next_psn, r->rd_end);
}

/*
 * Send spraying: a sprayed SEND, or WRITE with immediate data, waits while
 * %RMP_SPETH_MSGS messages that take a receive WQE lie between it and the
 * oldest WQE not acknowledged.
 */
static bool rmp_req_sends_ahead(const struct rmp_req *r,
				const struct rmp_req_wqe *w)
{
	return rmp_req_takes_rwqe(w) && (w->flags & RMP_REQ_F_SPRAY) &&
	       rmp_psn_sub(w->ssn, rmp_req_at(r, r->comp)->ssn) >=
	       RMP_SPETH_MSGS;
}

/*
 * A WQE about to leave for the first time is sprayed, a WRITE over the
 * paths, a READ's responses by the peer, if the QP sprays by now: an
 * application may post its first WQEs before the peer agreed, and a slow
 * single path would take long to drain them.
 */
static void rmp_req_choose_spray(const struct rmp_req *r,
				 struct rmp_req_wqe *w)
{
	if ((r->paths && w->kind == RMP_REQ_WRITE &&
	     (!(w->flags & RMP_REQ_F_IMM) || r->send_spray)) ||
	    (r->send_spray && w->kind == RMP_REQ_SEND))
		w->flags |= RMP_REQ_F_SPRAY;
	if (r->rd_spray && w->kind == RMP_REQ_READ &&
	    w->npsn <= RMP_RD_SPRAY_MAX)
		w->flags |= RMP_REQ_F_RDSPRAY;
}

/* rmp_req_next() but for the pacer. */
static int rmp_req_pick(struct rmp_req *r, u64 now, struct rmp_req_pkt *pkt)
{
	bool rc = r->qpt == RMP_QPT_RC;
	struct rmp_req_wqe *w;
	u32 inflight, n;

	if (r->state >= RMP_REQ_ERROR)
		return -EIO;
	if (r->state == RMP_REQ_RNR_WAIT) {
		if (now < r->rnr_until)
			return -EAGAIN;
		r->state = RMP_REQ_RUN;
		r->deadline = 0;
	}
	if (r->paths && r->sb->nlost && !rmp_req_resend(r, now, pkt))
		return 0;
	if (rmp_req_repairing(r) && !rmp_req_rd_repair(r, now, pkt))
		return 0;

	for (;;) {
		if (r->cur == r->head)
			return -ENODATA;
		w = rmp_req_at(r, r->cur);
		/* Executed before a go-back: LOCAL WQEs run once. */
		if (!w->done && !(r->paths && rmp_req_skip_known(r, w)))
			break;
		r->cur++;
		r->cur_pkt = 0;
	}

	memset(pkt, 0, sizeof(*pkt));
	pkt->slot = r->cur & r->mask;
	pkt->kind = w->kind;
	pkt->sport = rmp_req_plain_sport(r);

	if (w->kind == RMP_REQ_LOCAL) {
		if ((w->flags & RMP_REQ_F_FENCE) && r->comp != r->cur)
			return -EAGAIN;
		w->done = 1;
		w->status = RMP_REQ_OK;
		r->cur++;
		rmp_req_settle(r);
		return 0;
	}

	if ((w->flags & RMP_REQ_F_FENCE) && !r->cur_pkt && r->rd_atomic)
		return -EAGAIN;
	pkt->psn = r->next_psn;
	pkt->retry = rmp_psn_in_window(r->next_psn, r->una,
				       rmp_req_off(r, r->sent_psn));
	if (!r->cur_pkt && !pkt->retry)
		rmp_req_choose_spray(r, w);
	if (rmp_req_behind_spray(r, w) || rmp_req_behind_read(r, w) ||
	    rmp_req_sends_ahead(r, w))
		return -EAGAIN;
	inflight = rmp_req_off(r, r->next_psn);

	if (rmp_req_is_rd_atomic(w)) {
		n = w->npsn - r->cur_pkt;
		if (r->rd_atomic >= r->max_rd_atomic)
			return -EAGAIN;
		if (inflight && inflight + n > r->max_inflight)
			return -EAGAIN;
		pkt->pos = RMP_REQ_ONLY;
		pkt->ackreq = true;
		if (w->kind == RMP_REQ_READ) {
			pkt->offset = r->cur_pkt * r->mtu;
			pkt->len = w->length - pkt->offset;
			pkt->spray = w->flags & RMP_REQ_F_RDSPRAY;
			if (pkt->spray &&
			    rmp_psn_after(rmp_psn_add(pkt->psn, n), r->rd_end))
				r->rd_end = rmp_psn_add(pkt->psn, n);
		} else {
			pkt->len = w->length;
		}
		r->rd_atomic++;
		r->cur++;
		r->cur_pkt = 0;
	} else {
		n = 1;
		if (inflight >= r->max_inflight)
			return -EAGAIN;
		pkt->offset = r->cur_pkt * r->mtu;
		pkt->len = w->length - pkt->offset;
		if (pkt->len > r->mtu)
			pkt->len = r->mtu;
		if (!r->cur_pkt)
			pkt->pos |= RMP_REQ_FIRST;
		if (r->cur_pkt == w->npsn - 1)
			pkt->pos |= RMP_REQ_LAST;
		pkt->ackreq = rc && ((pkt->pos & RMP_REQ_LAST) ||
				     r->since_ackreq + 1 >= r->ack_every ||
				     inflight + 1 >= r->max_inflight);
		if (w->flags & RMP_REQ_F_SPRAY) {
			rmp_req_piece(r, w, r->cur_pkt, pkt);
			rmp_req_spray(r, now, pkt);
		}
		if (++r->cur_pkt == w->npsn) {
			r->cur++;
			r->cur_pkt = 0;
			if (!rc) {
				w->done = 1;
				w->status = RMP_REQ_OK;
				rmp_req_settle(r);
			}
		}
	}

	r->next_psn = rmp_psn_add(r->next_psn, n);
	if (rmp_req_off(r, r->next_psn) > rmp_req_off(r, r->sent_psn))
		r->sent_psn = r->next_psn;
	if (!rc)
		r->una = r->next_psn;
	r->since_ackreq = pkt->ackreq ? 0 : r->since_ackreq + 1;
	r->stats.pkts++;
	if (pkt->retry)
		r->stats.retrans++;
	if (rc && r->timeout_ns && !r->deadline)
		r->deadline = now + rmp_req_ack_wait(r);
	return 0;
}

/*
 * RC: packets sent and not acknowledged keep the ACK timer running when
 * none leaves now: after a go-back that found every one still in flight
 * on its path (multipath), or a late acknowledgment that caught up with
 * the cursor, nothing else would start it.
 */
static void rmp_req_keep_timer(struct rmp_req *r, u64 now)
{
	if (r->qpt == RMP_QPT_RC && r->state == RMP_REQ_RUN &&
	    r->timeout_ns && !r->deadline && r->una != r->sent_psn)
		r->deadline = now + rmp_req_ack_wait(r);
}

/* Bytes a request packet puts on the wire, as the pacer counts them. */
static u32 rmp_req_wire_bytes(const struct rmp_req_pkt *pkt)
{
	u32 len = RMP_REQ_PKT_OVERHEAD;

	if (pkt->kind == RMP_REQ_SEND || pkt->kind == RMP_REQ_WRITE ||
	    pkt->kind == RMP_REQ_ATOMIC_WRITE)
		len += pkt->len;
	return len;
}

/**
 * rmp_req_next() - decide the next packet to transmit
 * @r: requester
 * @now: current time, ns
 * @pkt: filled in on success
 *
 * New packets and retransmissions come from the same cursor, in PSN order.
 * A WQE flagged %RMP_REQ_F_FENCE waits until no READ or atomic before it is
 * outstanding (a fenced LOCAL WQE waits until every WQE before it is
 * acknowledged); a READ or atomic waits while max_rd_atomic of them are
 * outstanding; nothing goes out past max_inflight PSNs beyond the oldest
 * unacknowledged one (a READ needing more goes out alone) or during an RNR
 * wait.  AckReq is set on the last packet of a message, every ack_every
 * packets and on the packet that fills the window.  On UC and UD, a WQE is
 * finished once its last packet is handed out.
 *
 * %RMP_REQ_LOCAL in @pkt->kind means: execute that WQE now.  The engine
 * counts it executed with success; the kernel reports a failure with
 * rmp_req_fail().  Call rmp_req_complete() afterwards: the WQE may be
 * ready.
 *
 * With a pacer (rmp_req_pace()), nothing goes out while it holds packets
 * back (rmp_req_deadline() then says when it lets the next one go), and
 * each packet handed out is charged to it.
 *
 * Return: 0 with @pkt set; -ENODATA if every posted WQE has been handed
 * out; -EAGAIN if the next one must wait for a response, the pacer or the
 * timer; -EIO in the error and flushed states.
 */
int rmp_req_next(struct rmp_req *r, u64 now, struct rmp_req_pkt *pkt)
{
	int err;

	r->paced_until = 0;
	if (r->pacer && r->state < RMP_REQ_ERROR &&
	    (rmp_req_unsent(r) || (r->paths && r->sb->nlost) ||
	     rmp_req_repairing(r))) {
		/* The rate's timers catch up here, when they matter. */
		rmp_dcqcn_tick(r->pacer, now);
		if (!rmp_dcqcn_may_send(r->pacer, now)) {
			r->paced_until = rmp_dcqcn_deadline(r->pacer, now);
			return -EAGAIN;
		}
	}
	if (r->credit && r->state < RMP_REQ_ERROR && rmp_req_needs_credit(r) &&
	    !rmp_credit_tx_may_send(r->credit, r->next_psn, r->una,
				    r->post_psn, now))
		return -EAGAIN;
	err = rmp_req_pick(r, now, pkt);
	if (err) {
		rmp_req_keep_timer(r, now);
		return err;
	}
	if (pkt->kind != RMP_REQ_LOCAL)
		rmp_req_time(r, pkt, now);
	pkt->unsched = r->credit && !pkt->retry &&
		       pkt->kind != RMP_REQ_LOCAL &&
		       rmp_credit_tx_unscheduled(r->credit, pkt->psn);
	if (r->pacer && pkt->kind != RMP_REQ_LOCAL)
		rmp_dcqcn_sent(r->pacer, rmp_req_wire_bytes(pkt), now);
	return 0;
}

/**
 * rmp_req_fail() - fail a WQE for a reason found by the kernel
 * @r: requester
 * @slot: ring slot of a WQE posted and not yet returned by
 *	rmp_req_complete(), normally the one rmp_req_next() just handed out
 * @status: &enum rmp_req_status, usually %RMP_REQ_ERR_LOCAL
 *
 * For local errors: a LOCAL WQE that could not be executed, a key or
 * length that did not check out while building a packet or placing a
 * response.  The WQE may already count as finished with success (a LOCAL
 * WQE once handed out, a UD SEND once sent, a READ whose last response was
 * just accepted): its status becomes @status.  The QP enters the error
 * state.
 *
 * Return: 0, or -EINVAL if @slot holds no such WQE, the WQE already failed,
 * or @status is %RMP_REQ_OK or unknown.
 */
int rmp_req_fail(struct rmp_req *r, u32 slot, enum rmp_req_status status)
{
	u32 idx = r->tail + ((slot - r->tail) & r->mask);
	struct rmp_req_wqe *w;

	if (status == RMP_REQ_OK || status > RMP_REQ_ERR_LOCAL)
		return -EINVAL;
	if (slot > r->mask || idx - r->tail >= r->head - r->tail)
		return -EINVAL;
	w = rmp_req_at(r, idx);
	if (!w->done) {
		rmp_req_error(r, idx, status);
		return 0;
	}
	if (w->status != RMP_REQ_OK)
		return -EINVAL;
	w->status = status;
	r->state = RMP_REQ_ERROR;
	r->deadline = 0;
	return 0;
}

/**
 * rmp_req_complete() - take the oldest WQE once it is finished
 * @r: requester
 * @done: filled in on success
 *
 * WQEs come out strictly in posting order, so a WQE finished early (a
 * LOCAL WQE, an error) waits for those before it.
 *
 * Return: 0 with @done set; -EAGAIN if the oldest WQE is not finished;
 * -ENODATA if the ring is empty.
 */
int rmp_req_complete(struct rmp_req *r, struct rmp_req_done *done)
{
	struct rmp_req_wqe *w;

	if (r->tail == r->head)
		return -ENODATA;
	w = rmp_req_at(r, r->tail);
	if (!w->done)
		return -EAGAIN;
	done->slot = r->tail & r->mask;
	done->kind = w->kind;
	done->status = w->status;
	/* Only a failed WQE can be finished at comp or cur. */
	if (r->cur == r->tail) {
		r->cur++;
		r->cur_pkt = 0;
	}
	if (r->comp == r->tail)
		r->comp++;
	r->tail++;
	return 0;
}

/**
 * rmp_req_flush() - finish every WQE for the error state
 * @r: requester
 *
 * Every unfinished WQE, and every one posted later, finishes with
 * %RMP_REQ_ERR_FLUSH; a WQE that failed keeps its own status.  Nothing is
 * sent or accepted any more; rmp_req_init() starts afresh.
 */
void rmp_req_flush(struct rmp_req *r)
{
	u32 i;

	for (i = r->tail; i != r->head; i++) {
		struct rmp_req_wqe *w = rmp_req_at(r, i);

		if (!w->done) {
			w->done = 1;
			w->status = RMP_REQ_ERR_FLUSH;
		}
	}
	r->state = RMP_REQ_FLUSHED;
	r->deadline = 0;
	r->cur = r->head;
	r->comp = r->head;
	r->cur_pkt = 0;
	r->rd_atomic = 0;
	r->una = r->post_psn;
	r->next_psn = r->post_psn;
	r->sent_psn = r->post_psn;
}
