/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requester transport state machine: what to transmit, what a response
 * acknowledges, when to retransmit, and when a send WQE is finished.
 */
#ifndef RMP_ENGINE_REQ_H
#define RMP_ENGINE_REQ_H

#include "compat.h"
#include "psn.h"
#include "hdr.h"
#include "credit.h"
#include "dcqcn.h"
#include "scoreboard.h"
#include "rxwin.h"
#include "rtt.h"

/**
 * DOC: requester calling protocol
 *
 * The kernel keeps the send WQEs and calls the engine from the QP's send
 * work item, one call at a time per QP:
 *
 * - post_send: rmp_req_post() for each WR, in send queue order; the slot it
 *   returns is the WR's send queue slot.
 * - transmit: while rmp_req_next() returns 0, build and send the packet it
 *   describes (or execute the LOCAL WQE, reporting a failure with
 *   rmp_req_fail()); then drain rmp_req_complete().
 * - response received (RC): rmp_req_ack(); place the payload or atomic
 *   result as its &struct rmp_req_rsp says; then drain rmp_req_complete()
 *   and transmit again.
 * - timer: keep one timer at rmp_req_deadline() (0: none), re-read after
 *   every call; when it fires, rmp_req_timer(), then transmit and drain.
 * - %RMP_REQ_EV_ERROR, or a verbs move to the error state: the QP goes to
 *   IB_QPS_ERR, rmp_req_flush(), drain rmp_req_complete().
 *
 * rmp_req_complete() hands WQEs back strictly in order with their status;
 * whether a CQE is written (unsignalled WRs) is the kernel's business. Each
 * call costs O(1) plus the WQEs or packets it acts on.
 */

/* The IBTA limit on PSNs outstanding at a requester. */
#define RMP_REQ_INFLIGHT_MAX		BIT(23)
#define RMP_REQ_INFLIGHT_DEFAULT	1024U
#define RMP_REQ_ACK_EVERY_DEFAULT	64U
#define RMP_REQ_RING_MAX		BIT(15)
/* Read spraying: a repair sweep waits at most 2^this reordering times. */
#define RMP_REQ_RD_BACKOFF_MAX		5
/* Read spraying with reports: responses received per report, at most. */
#define RMP_REQ_RD_REPORT_EVERY		16
/* rnr_retry value meaning "retry for ever". */
#define RMP_REQ_RNR_INFINITE		7
/*
 * Bytes a request packet takes on the wire beside its payload, as a pacer
 * counts them: Ethernet with FCS, IPv4, UDP, BTH, RETH and ICRC.
 */
#define RMP_REQ_PKT_OVERHEAD		78

/**
 * enum rmp_req_kind - what a send WQE does, as far as the transport cares
 * @RMP_REQ_SEND: SEND, with or without immediate or invalidate
 * @RMP_REQ_WRITE: RDMA WRITE, with or without immediate
 * @RMP_REQ_READ: RDMA READ
 * @RMP_REQ_ATOMIC: compare-and-swap or fetch-and-add
 * @RMP_REQ_ATOMIC_WRITE: ATOMIC WRITE: 8 bytes written in one piece,
 *	acknowledged by an empty READ response; counts as a READ/atomic
 * @RMP_REQ_LOCAL: REG_MR, LOCAL_INV, BIND_MW: no packets, executed by the
 *	kernel exactly once, in order, when rmp_req_next() hands it out
 * @RMP_REQ_KIND_MAX: number of kinds
 */
enum rmp_req_kind {
	RMP_REQ_SEND,
	RMP_REQ_WRITE,
	RMP_REQ_READ,
	RMP_REQ_ATOMIC,
	RMP_REQ_ATOMIC_WRITE,
	RMP_REQ_LOCAL,
	RMP_REQ_KIND_MAX,
};

/* WQE flags. */
#define RMP_REQ_F_FENCE		BIT(0)
/* Carries immediate data: the responder must get the message whole. */
#define RMP_REQ_F_IMM		BIT(1)
#define RMP_REQ_F_MASK		(RMP_REQ_F_FENCE | RMP_REQ_F_IMM)

/**
 * enum rmp_req_status - how a send WQE finished
 * @RMP_REQ_OK: success
 * @RMP_REQ_ERR_FLUSH: flushed: the QP went into the error state first
 * @RMP_REQ_ERR_RETRY_EXC: transport retry counter exceeded (ACK timeouts,
 *	sequence error NAKs, lost READ or atomic responses)
 * @RMP_REQ_ERR_RNR_RETRY_EXC: RNR NAK retry counter exceeded
 * @RMP_REQ_ERR_REM_INV_REQ: NAK invalid request
 * @RMP_REQ_ERR_REM_ACCESS: NAK remote access error
 * @RMP_REQ_ERR_REM_OP: NAK remote operational error
 * @RMP_REQ_ERR_REM_INV_RD_REQ: NAK invalid RD request
 * @RMP_REQ_ERR_BAD_RESP: a response of the wrong kind for the WQE it
 *	acknowledges, or a reserved NAK code
 * @RMP_REQ_ERR_LOCAL: the kernel failed the WQE (rmp_req_fail()); it keeps
 *	the precise work completion status itself
 */
enum rmp_req_status {
	RMP_REQ_OK,
	RMP_REQ_ERR_FLUSH,
	RMP_REQ_ERR_RETRY_EXC,
	RMP_REQ_ERR_RNR_RETRY_EXC,
	RMP_REQ_ERR_REM_INV_REQ,
	RMP_REQ_ERR_REM_ACCESS,
	RMP_REQ_ERR_REM_OP,
	RMP_REQ_ERR_REM_INV_RD_REQ,
	RMP_REQ_ERR_BAD_RESP,
	RMP_REQ_ERR_LOCAL,
};

/**
 * struct rmp_req_wqe - the transport's metadata for one send WQE
 * @length: message length in bytes
 * @first_psn: PSN of the message's first packet, fixed when posted
 * @npsn: PSNs the message occupies: one per MTU of payload and at least
 *	one; a READ occupies one per response packet; 0 for a LOCAL WQE
 * @acked: PSNs of the message acknowledged so far (for a READ: response
 *	packets received in order)
 * @kind: &enum rmp_req_kind
 * @flags: RMP_REQ_F_* bits
 * @done: finished; @status says how
 * @status: &enum rmp_req_status, once @done
 * @ssn: the messages taking a receive WQE (SENDs, WRITEs with immediate
 *	data) posted before it, modulo 2^24; a sprayed SEND's pieces carry it
 *
 * The payload, addresses and keys stay in the kernel's own WQE at the same
 * slot; 24 bytes per WQE.
 */
struct rmp_req_wqe {
	u32 length;
	u32 first_psn;
	u32 npsn;
	u32 acked;
	u8 kind;
	u8 flags;
	u8 done;
	u8 status;
	u32 ssn;
};

static_assert(sizeof(struct rmp_req_wqe) == 24);

/**
 * struct rmp_req_cfg - requester parameters, from the QP's attributes
 * @qpt: %RMP_QPT_RC, %RMP_QPT_UC or %RMP_QPT_UD; only RC is acknowledged
 * @mtu: path MTU in bytes, a power of two from 256 to 4096
 * @retry_cnt: transport retries, 0-7
 * @rnr_retry: RNR retries, 0-6, or %RMP_REQ_RNR_INFINITE
 * @timeout: local ACK timeout code: 4.096 us * 2^@timeout, 0 = never, 0-31
 * @max_rd_atomic: READ and atomic requests outstanding at once; 0 refuses
 *	to post them
 * @max_inflight: PSNs outstanding at once, at most %RMP_REQ_INFLIGHT_MAX;
 *	0 picks %RMP_REQ_INFLIGHT_DEFAULT
 * @ack_every: request an ACK at least every this many packets; 0 picks
 *	%RMP_REQ_ACK_EVERY_DEFAULT
 * @flow_label: GRH flow label (20 bits); 0 derives one from the QPNs
 * @lqpn: local QPN
 * @rqpn: remote QPN (RC, UC)
 */
struct rmp_req_cfg {
	u8 qpt;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 timeout;
	u32 mtu;
	u32 max_rd_atomic;
	u32 max_inflight;
	u32 ack_every;
	u32 flow_label;
	u32 lqpn;
	u32 rqpn;
};

/**
 * enum rmp_req_pos - where a packet sits in its message
 * @RMP_REQ_MIDDLE: neither first nor last
 * @RMP_REQ_FIRST: first of several
 * @RMP_REQ_LAST: last of several
 * @RMP_REQ_ONLY: the whole message (%RMP_REQ_FIRST | %RMP_REQ_LAST)
 */
enum rmp_req_pos {
	RMP_REQ_MIDDLE	= 0,
	RMP_REQ_FIRST	= 1,
	RMP_REQ_LAST	= 2,
	RMP_REQ_ONLY	= 3,
};

/**
 * struct rmp_req_pkt - one transmit decision from rmp_req_next()
 * @slot: ring slot of the WQE
 * @psn: BTH PSN
 * @offset: byte offset in the message of the payload; for a READ request,
 *	of the range requested (RETH VA = WQE remote address + @offset)
 * @len: payload bytes; for a READ request the RETH DMA length
 * @sport: UDP source port
 * @kind: &enum rmp_req_kind of the WQE; %RMP_REQ_LOCAL means "execute the
 *	WQE now", nothing is transmitted and only @slot is valid
 * @pos: &enum rmp_req_pos, for the opcode. Sprayed (multipath) WRITE
 *	packets are each %RMP_REQ_ONLY: one RDMA WRITE ONLY per packet whose
 *	RETH names its own @offset and @len, so the responder can place it
 *	whatever order it arrives in; the last of a WRITE with immediate
 *	data (@offset + @len is the WRITE's length) carries the immediate
 *	data and an SPETH. A sprayed SEND's pieces keep their position, for
 *	the piece's opcode
 * @ssn: a piece of a sprayed SEND, or of a WRITE with immediate data: the
 *	WQE's &rmp_req_wqe.ssn, for its SPETH (with @offset)
 * @ackreq: set the BTH AckReq bit
 * @retry: a retransmission (the PSN was transmitted before)
 * @sprayed: it went on a path of the multipath path set
 * @unsched: new data sent on a burst's unscheduled budget, with no
 *	grant (rmp_credit_tx_unscheduled())
 * @spray: a READ request whose responses may be sprayed (read spraying):
 *	its BTH carries %RMP_BTH_SPRAY
 */
struct rmp_req_pkt {
	u32 slot;
	u32 psn;
	u32 offset;
	u32 len;
	u32 ssn;
	u16 sport;
	u8 kind;
	u8 pos;
	bool ackreq;
	bool retry;
	bool sprayed;
	bool unsched;
	bool spray;
};

/**
 * enum rmp_req_action - what the kernel does with a response packet
 * @RMP_REQ_RSP_DROP: nothing; the packet was stale, a duplicate, a ghost,
 *	malformed, or made obsolete by a retransmission
 * @RMP_REQ_RSP_ACK: nothing beyond what the return value says
 * @RMP_REQ_RSP_READ: copy the payload into the READ WQE's local buffer
 *	at &rmp_req_rsp.offset, &rmp_req_rsp.len bytes
 * @RMP_REQ_RSP_ATOMIC: store the AtomicAckETH original value into the
 *	atomic WQE's local buffer
 */
enum rmp_req_action {
	RMP_REQ_RSP_DROP,
	RMP_REQ_RSP_ACK,
	RMP_REQ_RSP_READ,
	RMP_REQ_RSP_ATOMIC,
};

/**
 * struct rmp_req_rsp - what rmp_req_ack() made of a response packet
 * @action: &enum rmp_req_action
 * @slot: ring slot of the WQE, for %RMP_REQ_RSP_READ and
 *	%RMP_REQ_RSP_ATOMIC
 * @offset: byte offset in the READ's local buffer
 * @len: payload bytes to place
 */
struct rmp_req_rsp {
	u32 action;
	u32 slot;
	u32 offset;
	u32 len;
};

/**
 * struct rmp_req_done - a finished WQE, from rmp_req_complete()
 * @slot: ring slot
 * @kind: &enum rmp_req_kind
 * @status: &enum rmp_req_status
 */
struct rmp_req_done {
	u32 slot;
	u8 kind;
	u8 status;
};

/* Events returned by rmp_req_ack() and rmp_req_timer(). */
#define RMP_REQ_EV_SEND		BIT(0)	/* rmp_req_next() may have work */
#define RMP_REQ_EV_DONE		BIT(1)	/* rmp_req_complete() may have work */
#define RMP_REQ_EV_ERROR	BIT(2)	/* the QP entered the error state */

/**
 * enum rmp_req_state - the requester as a whole
 * @RMP_REQ_RUN: transmitting
 * @RMP_REQ_RNR_WAIT: waiting out an RNR NAK until &rmp_req.rnr_until
 * @RMP_REQ_ERROR: a WQE failed; nothing is sent or accepted until
 *	rmp_req_flush()
 * @RMP_REQ_FLUSHED: flushed; new WQEs finish at once with
 *	%RMP_REQ_ERR_FLUSH
 */
enum rmp_req_state {
	RMP_REQ_RUN,
	RMP_REQ_RNR_WAIT,
	RMP_REQ_ERROR,
	RMP_REQ_FLUSHED,
};

/**
 * struct rmp_req_stats - requester counters
 * @pkts: packets handed out by rmp_req_next()
 * @retrans: ... of which retransmissions
 * @acked: RC: PSNs the peer acknowledged or answered, each once whatever
 *	the copies sent (what the peer got, in packets)
 * @timeouts: local ACK timeouts acted on
 * @seq_naks: PSN sequence error NAKs acted on
 * @rnr_naks: RNR NAKs acted on
 * @implicit_naks: READ or atomic responses found missing by a later
 *	response, READ re-issues included
 * @dup_rsps: responses for PSNs already acknowledged, or NAKs already
 *	acted on
 * @ghost_rsps: responses for PSNs never transmitted
 * @bad_rsps: malformed responses dropped
 * @sprayed: packets sent on the multipath path set
 * @sel_retrans: ... of which sent again after the scoreboard found them
 *	lost
 * @rd_ooo: read spraying: READ responses taken ahead of one missing
 * @rd_repairs: read spraying: READ requests sent again for the responses
 *	of one run of missing PSNs (also counted in @retrans)
 * @rd_reports: read spraying: reports of the responses received handed
 *	out by rmp_req_read_report()
 */
struct rmp_req_stats {
	u64 pkts;
	u64 retrans;
	u64 acked;
	u64 timeouts;
	u64 seq_naks;
	u64 rnr_naks;
	u64 implicit_naks;
	u64 dup_rsps;
	u64 ghost_rsps;
	u64 bad_rsps;
	u64 sprayed;
	u64 sel_retrans;
	u64 rd_ooo;
	u64 rd_repairs;
	u64 rd_reports;
};

/**
 * struct rmp_req - requester state of one QP
 * @ring: WQE metadata, @mask + 1 slots, owned by the caller
 * @mask: ring size minus one
 * @qpt: &rmp_req_cfg.qpt
 * @retry_cnt: &rmp_req_cfg.retry_cnt
 * @rnr_retry: &rmp_req_cfg.rnr_retry
 * @mtu: &rmp_req_cfg.mtu
 * @max_rd_atomic: &rmp_req_cfg.max_rd_atomic
 * @max_inflight: PSNs outstanding at once
 * @ack_every: AckReq at least every this many packets
 * @timeout_ns: local ACK timeout, 0 = never
 * @sport: UDP source port of the QP
 * @head: index of the next WQE to post
 * @cur: send cursor: index of the WQE to transmit from next
 * @comp: index of the oldest WQE not acknowledged
 * @tail: index of the oldest WQE not returned by rmp_req_complete()
 * @cur_pkt: send cursor: packet (PSN) within WQE @cur
 * @post_psn: first PSN of the next WQE posted
 * @post_ssn: &rmp_req_wqe.ssn of the next WQE posted
 * @next_psn: PSN of the next packet to transmit (the cursor's)
 * @una: oldest PSN not acknowledged
 * @sent_psn: one past the highest PSN ever transmitted
 * @recover_psn: PSN the last go-back-N restarted from
 * @recovering: a go-back-N from @recover_psn is under way and no progress
 *	has been made since; further signs of the same loss are ignored
 * @state: &enum rmp_req_state
 * @retries_left: transport retries left before %RMP_REQ_ERR_RETRY_EXC
 * @rnr_left: RNR retries left before %RMP_REQ_ERR_RNR_RETRY_EXC
 * @rd_atomic: READ and atomic requests transmitted and not finished
 * @since_ackreq: packets transmitted since the last AckReq
 * @deadline: when rmp_req_timer() has work (ns), 0 = never
 * @rnr_until: end of the RNR wait (ns)
 * @msn: MSN of the latest valid response
 * @rtt: single path: the round trips of the QP, one packet timed at a
 *	time; its ACK timer waits at least rmp_rtt_rto() of it
 * @timing: single path: @timed_psn is being timed
 * @timed_psn: single path: the packet being timed, sent once with AckReq
 * @timed_at: single path: when it was sent (ns)
 * @paths: multipath: the path set, owned by the caller; NULL for a single
 *	path (see rmp_req_multipath())
 * @sb: multipath: the scoreboard, owned by the caller
 * @send_spray: multipath: SENDs and WRITEs with immediate data are
 *	sprayed too, in pieces (see rmp_req_send_spray())
 * @spray_end: multipath: one past the highest PSN sprayed; packets that
 *	are not sprayed wait until everything before it is acknowledged
 * @probes: multipath: the dead paths due a probe, bit i for path i: each
 *	takes the next packet sprayed for the first time, the lowest first
 * @homes: multipath: the paths whose home port is due a probe, bit i for
 *	path i: each takes a packet sprayed for the first time once no
 *	dead path waits for one
 * @plain_path: multipath: packets that are not sprayed go on the live
 *	path of this rank (rmp_paths_nth_live()); each ACK timeout moves
 *	them to the next
 * @pacer: the rate packets go out at, owned by the caller; NULL for as
 *	fast as the window allows (see rmp_req_pace())
 * @paced_until: when @pacer lets the packet go that the last
 *	rmp_req_next() held back for it; 0 if none waits
 * @credit: receiver credit new data waits for, owned by the caller; NULL
 *	for none (see rmp_req_credit())
 * @rd_spray: the peer sprays READ responses (see rmp_req_read_spray())
 * @rd_reorder_ns: read spraying: how long a missing response may be
 *	overtaken before it is asked for again
 * @rd_win: read spraying: responses received; its expected PSN is @una
 * @rd_hole_at: read spraying: since when responses are missing (overtaken
 *	by others, or the rest of a READ after the last that came), or when
 *	the last repair sweep began; 0 if none is
 * @rd_sweeps: read spraying: repair sweeps since @una last moved; each
 *	waits twice as long as the one before, up to
 *	%RMP_REQ_RD_BACKOFF_MAX doublings
 * @rd_acked: read spraying: one past the newest PSN an acknowledgment
 *	covered, which a READ or atomic still unanswered held @una back from
 * @rd_end: read spraying: one past the last PSN of the newest sprayed
 *	READ sent
 * @rd_fix: read spraying: the repair sweep's next PSN
 * @rd_fix_end: read spraying: where the repair sweep ends
 * @rd_report: read spraying: the responder takes reports of the responses
 *	received (see rmp_req_read_reports())
 * @rd_report_now: a repair sweep began: a report is due if any response
 *	came since the last
 * @rd_unreported: responses received since the last report
 * @stats: counters
 *
 * Ring indices count up for ever and are reduced with @mask; indices and
 * PSNs are ordered @tail <= @comp <= @cur <= @head and @una <= @next_psn
 * <= @sent_psn, except that a late acknowledgment may move @una past the
 * cursor, which then follows it.
 */
struct rmp_req {
	struct rmp_req_wqe *ring;
	u32 mask;
	u8 qpt;
	u8 retry_cnt;
	u8 rnr_retry;
	u32 mtu;
	u32 max_rd_atomic;
	u32 max_inflight;
	u32 ack_every;
	u64 timeout_ns;
	u16 sport;

	u32 head;
	u32 cur;
	u32 comp;
	u32 tail;
	u32 cur_pkt;

	u32 post_psn;
	u32 post_ssn;
	u32 next_psn;
	u32 una;
	u32 sent_psn;
	u32 recover_psn;
	bool recovering;

	u8 state;
	u8 retries_left;
	u8 rnr_left;
	u32 rd_atomic;
	u32 since_ackreq;
	u64 deadline;
	u64 rnr_until;
	u32 msn;

	struct rmp_rtt rtt;
	bool timing;
	u32 timed_psn;
	u64 timed_at;

	struct rmp_paths *paths;
	struct rmp_sb *sb;
	bool send_spray;
	u32 spray_end;
	u64 probes;
	u64 homes;
	u32 plain_path;

	struct rmp_dcqcn *pacer;
	u64 paced_until;
	struct rmp_credit_tx *credit;

	bool rd_spray;
	u64 rd_reorder_ns;
	struct rmp_rxwin rd_win;
	u64 rd_hole_at;
	u8 rd_sweeps;
	u32 rd_acked;
	u32 rd_end;
	u32 rd_fix;
	u32 rd_fix_end;
	bool rd_report;
	bool rd_report_now;
	u32 rd_unreported;

	struct rmp_req_stats stats;
};

u16 rmp_req_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn);
u16 rmp_req_control_sport(const struct rmp_req *r, u32 n);
u64 rmp_req_timeout_ns(u8 code);
u64 rmp_req_rnr_ns(u8 code);

int rmp_req_init(struct rmp_req *r, struct rmp_req_wqe *ring, u32 nslots,
		 const struct rmp_req_cfg *cfg, u32 sq_psn);
int rmp_req_multipath(struct rmp_req *r, struct rmp_paths *ps,
		      struct rmp_sb *sb);
int rmp_req_send_spray(struct rmp_req *r);
int rmp_req_read_spray(struct rmp_req *r, u64 reorder_ns);
int rmp_req_read_reports(struct rmp_req *r);
int rmp_req_read_report(struct rmp_req *r, struct rmp_sack *s, u16 *sport);
void rmp_req_pace(struct rmp_req *r, struct rmp_dcqcn *d);
void rmp_req_credit(struct rmp_req *r, struct rmp_credit_tx *tx);
int rmp_req_post(struct rmp_req *r, enum rmp_req_kind kind, u32 length,
		 u32 flags);
int rmp_req_next(struct rmp_req *r, u64 now, struct rmp_req_pkt *pkt);
bool rmp_req_will_place(const struct rmp_req *r,
			const struct rmp_hdr_fields *f, struct rmp_req_rsp *out);
unsigned int rmp_req_ack(struct rmp_req *r, u64 now,
			 const struct rmp_hdr_fields *f,
			 struct rmp_req_rsp *out);
unsigned int rmp_req_sack(struct rmp_req *r, u64 now,
			  const struct rmp_hdr_fields *f,
			  const struct rmp_sack *s, const struct rmp_ecn_echo *ce);
unsigned int rmp_req_timer(struct rmp_req *r, u64 now);
u64 rmp_req_deadline(const struct rmp_req *r);
int rmp_req_fail(struct rmp_req *r, u32 slot, enum rmp_req_status status);
int rmp_req_complete(struct rmp_req *r, struct rmp_req_done *done);
void rmp_req_flush(struct rmp_req *r);

/**
 * rmp_req_next_slot() - the ring slot the next rmp_req_post() returns
 * @r: requester
 *
 * Lets the kernel take a WQE straight into its own per-slot storage before
 * posting it.
 *
 * Return: the slot.
 */
static inline u32 rmp_req_next_slot(const struct rmp_req *r)
{
	return r->head & r->mask;
}

/**
 * rmp_req_unsent() - whether posted WQEs still have packets to send
 * @r: requester
 *
 * True also while they wait for the window, an RNR timer or a fence, or
 * after a go-back: rmp_req_next() may still have nothing to give.
 *
 * Return: true if some WQE is not fully sent.
 */
static inline bool rmp_req_unsent(const struct rmp_req *r)
{
	return r->cur != r->head;
}

#endif /* RMP_ENGINE_REQ_H */
