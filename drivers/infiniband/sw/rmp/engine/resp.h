/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC and UC responder transport: what the responder does with each request
 * packet, and the transport state it keeps (IBTA vol. 1 ch. 9.7).
 */
#ifndef RMP_ENGINE_RESP_H
#define RMP_ENGINE_RESP_H

#include "compat.h"
#include "psn.h"
#include "hdr.h"
#include "rxwin.h"

#define RMP_RESP_MSN_MASK	0x00ffffffU
/* Largest RDMA READ the responder accepts: the IBTA message size limit. */
#define RMP_RESP_MAX_READ_LEN	0x80000000U
/*
 * A READ/atomic resource this many PSNs behind the expected PSN is retired:
 * no requester can still be retrying it, and keeping it would let a
 * duplicate from the next lap of the 24-bit PSN space match it.
 */
#define RMP_RESP_RES_HORIZON	0x00400000U

/* Remote operations the QP permits (its remote access flags). */
#define RMP_RESP_ALLOW_WRITE	BIT(0)
#define RMP_RESP_ALLOW_READ	BIT(1)
#define RMP_RESP_ALLOW_ATOMIC	BIT(2)

/**
 * struct rmp_resp_config - responder parameters, fixed from RTR
 * @epsn: first PSN expected (the QP's rq_psn)
 * @mtu: path MTU in bytes: 256, 512, 1024, 2048 or 4096
 * @min_rnr_timer: 5-bit RNR timer code carried in RNR NAKs
 * @access: RMP_RESP_ALLOW_* bits
 * @ack_every: send an ACK after this many unacknowledged request packets
 *	even if none asked for one; 0 to ACK only when asked
 * @ooo: accept sprayed WRITEs out of order within the receive window
 *	(multipath, negotiated peers only, RC only); false for a standard
 *	peer
 * @win_size: receive window size for @ooo, see rmp_rxwin_init()
 * @uc: unreliable connected: UC opcodes, nothing is ever answered, and a
 *	message that cannot be received whole is dropped (see rmp_resp_packet())
 */
struct rmp_resp_config {
	u32 epsn;
	u32 mtu;
	u8 min_rnr_timer;
	u8 access;
	u32 ack_every;
	bool ooo;
	u32 win_size;
	bool uc;
};

/**
 * enum rmp_resp_res_kind - what a READ/atomic resource remembers
 * @RMP_RESP_RES_FREE: slot unused
 * @RMP_RESP_RES_READ: an RDMA READ, replayable over any sub-range
 * @RMP_RESP_RES_ATOMIC: an atomic and the original value it returned, or
 *	an ATOMIC WRITE
 */
enum rmp_resp_res_kind {
	RMP_RESP_RES_FREE,
	RMP_RESP_RES_READ,
	RMP_RESP_RES_ATOMIC,
};

/**
 * struct rmp_resp_res - one READ/atomic responder resource
 * @kind: &enum rmp_resp_res_kind
 * @opcode: request opcode
 * @psn: PSN of the request, the first PSN of a READ's responses
 * @npkts: PSNs the request consumed: response packets of a READ, 1 for an
 *	atomic
 * @va: requested virtual address
 * @rkey: requested R_Key
 * @len: READ length in bytes
 * @orig: atomic: original value at @va, returned again on a duplicate
 *
 * The caller owns the array (max_dest_rd_atomic entries) and may keep
 * per-slot data of its own alongside it, indexed like it (e.g. the MR a
 * READ reads from); a slot is reused, evicting the oldest, when a new READ
 * or atomic executes (&rmp_resp_read.res says which).
 */
struct rmp_resp_res {
	u8 kind;
	u8 opcode;
	u32 psn;
	u32 npkts;
	u64 va;
	u32 rkey;
	u32 len;
	u64 orig;
};

/**
 * struct rmp_resp_in - the parts of a request packet the responder judges
 * @psn: BTH PSN
 * @opcode: BTH opcode, &enum rmp_opcode
 * @ackreq: BTH AckReq bit
 * @payload_len: payload bytes, pad excluded
 * @va: RETH or AtomicETH virtual address
 * @rkey: RETH or AtomicETH R_Key
 * @dma_len: RETH DMA length
 * @ce: it arrived CE marked (its IP header's ECN field)
 * @spray: a READ request whose responses may take any path (its BTH's
 *	%RMP_BTH_SPRAY; read spraying)
 * @se: BTH solicited event
 * @ssn: a piece of a sprayed SEND: its SPETH's sequence number
 * @offset: a piece of a sprayed SEND: its SPETH's offset
 * @data: a last piece of a sprayed SEND: its immediate data (wire order)
 *	or the R_Key its IETH invalidates
 *
 * @va, @rkey and @dma_len are read only for opcodes that carry them.
 */
struct rmp_resp_in {
	u32 psn;
	u8 opcode;
	bool ackreq;
	u32 payload_len;
	u64 va;
	u32 rkey;
	u32 dma_len;
	bool ce;
	bool spray;
	bool se;
	u32 ssn;
	u32 offset;
	u32 data;
};

/**
 * struct rmp_resp_read - cursor over the responses to one RDMA READ
 * @res: index of the resource the READ occupies
 * @psn: PSN of the next response
 * @va: address of the next response's first byte
 * @offset: offset of the next response's first byte from the original
 *	READ's address
 * @rkey: R_Key of the READ
 * @left: bytes still to send
 * @npkts: responses still to send
 * @mtu: path MTU
 * @msn: MSN for the responses that carry an AETH
 * @started: the first response has been produced
 * @sprayed: the responses may each take any path (read spraying)
 *
 * Self-contained: it stays valid whatever the responder does meanwhile.
 */
struct rmp_resp_read {
	u32 res;
	u32 psn;
	u64 va;
	u32 offset;
	u32 rkey;
	u32 left;
	u32 npkts;
	u32 mtu;
	u32 msn;
	bool started;
	bool sprayed;
};

/**
 * struct rmp_resp_read_pkt - one READ response packet to send
 * @opcode: RMP_OP_RC_READ_RESPONSE_{FIRST,MIDDLE,LAST,ONLY}
 * @psn: BTH PSN
 * @va: address of the payload
 * @offset: offset of the payload from the original READ's address
 * @rkey: R_Key to read with
 * @len: payload bytes
 * @aeth: the opcode carries an AETH: @syndrome and @msn
 * @syndrome: AETH syndrome, an ACK
 * @msn: AETH MSN
 * @sprayed: it may take any path of the responder's path set, not only
 *	the QP's own source port (read spraying)
 */
struct rmp_resp_read_pkt {
	u8 opcode;
	u32 psn;
	u64 va;
	u32 offset;
	u32 rkey;
	u32 len;
	bool aeth;
	u8 syndrome;
	u32 msn;
	bool sprayed;
};

/**
 * enum rmp_resp_reply_kind - what the responder sends back
 * @RMP_RESP_REPLY_NONE: nothing
 * @RMP_RESP_REPLY_ACK: an ACKNOWLEDGE packet; the syndrome says ACK, RNR
 *	NAK or NAK
 * @RMP_RESP_REPLY_ATOMIC_ACK: an ATOMIC ACKNOWLEDGE with the original value
 * @RMP_RESP_REPLY_READ: READ responses, produced by rmp_resp_read_next();
 *	for an ATOMIC WRITE, one with no payload
 */
enum rmp_resp_reply_kind {
	RMP_RESP_REPLY_NONE,
	RMP_RESP_REPLY_ACK,
	RMP_RESP_REPLY_ATOMIC_ACK,
	RMP_RESP_REPLY_READ,
};

/**
 * struct rmp_resp_reply - a response to send
 * @kind: &enum rmp_resp_reply_kind
 * @syndrome: AETH syndrome (ACK and ATOMIC_ACK)
 * @psn: BTH PSN (ACK and ATOMIC_ACK)
 * @msn: AETH MSN (ACK and ATOMIC_ACK)
 * @orig: AtomicAckETH original value (ATOMIC_ACK)
 * @read: response cursor (READ)
 *
 * Replies go out in the order they are produced.  ACKs are cumulative: of
 * several ACKs (not NAKs) produced with nothing else in between, sending
 * only the last is enough.
 */
struct rmp_resp_reply {
	u8 kind;
	u8 syndrome;
	u32 psn;
	u32 msn;
	u64 orig;
	struct rmp_resp_read read;
};

/**
 * enum rmp_resp_verdict - what rmp_resp_packet() made of a request packet
 * @RMP_RESP_EXECUTE: new and in sequence: execute it (place data, take a
 *	receive WQE, run the atomic, check the READ's R_Key) and report with
 *	rmp_resp_executed()
 * @RMP_RESP_DUPLICATE: executed before: send the reply (ACK again, replay
 *	READ responses or an atomic's result), none if no resource matches;
 *	UC: a PSN before the expected one, dropped
 * @RMP_RESP_OUT_OF_SEQ: a PSN after the expected one: send the PSN
 *	sequence error NAK, or nothing once one is outstanding
 * @RMP_RESP_INVALID: in sequence but malformed (opcode sequence, lengths,
 *	operation not permitted): send the invalid request NAK; the responder
 *	is now in error
 * @RMP_RESP_DROP: discard silently: not a request opcode of the QP's
 *	transport, or the responder is in error; UC: a packet that belongs to
 *	no message being received (see &rmp_resp_out.aborted)
 */
enum rmp_resp_verdict {
	RMP_RESP_EXECUTE,
	RMP_RESP_DUPLICATE,
	RMP_RESP_OUT_OF_SEQ,
	RMP_RESP_INVALID,
	RMP_RESP_DROP,
};

/**
 * enum rmp_resp_status - how executing a request went
 * @RMP_RESP_OK: done; for an atomic, the original value is passed along
 * @RMP_RESP_RNR: no receive WQE: RNR NAK, the requester retries the packet;
 *	UC: the message is dropped
 * @RMP_RESP_REM_ACCESS: R_Key or range violation: NAK, responder in error;
 *	UC: the message is dropped
 * @RMP_RESP_REM_OP: could not complete the operation: NAK, responder in
 *	error
 * @RMP_RESP_REM_INVALID: invalid request found while executing (e.g. a
 *	SEND longer than the receive WQE): NAK, responder in error
 * @RMP_RESP_STATUS_MAX: number of statuses
 */
enum rmp_resp_status {
	RMP_RESP_OK,
	RMP_RESP_RNR,
	RMP_RESP_REM_ACCESS,
	RMP_RESP_REM_OP,
	RMP_RESP_REM_INVALID,
	RMP_RESP_STATUS_MAX,
};

/**
 * struct rmp_resp_out - decision about one request packet
 * @verdict: &enum rmp_resp_verdict
 * @first: EXECUTE: the packet begins a message (a SEND takes a receive WQE)
 * @last: EXECUTE: the packet ends a message; once executed the MSN counts
 *	it, and a SEND or a WRITE with immediate completes its receive WQE.
 *	From rmp_resp_executed(), true only if execution succeeded
 * @offset: EXECUTE, SEND or WRITE: offset of the payload in its message
 * @rq_idx: EXECUTE, a piece of a sprayed SEND: the receive WQE it goes in
 *	(for a WRITE's last piece: that its immediate data completes), as
 *	the number of WQEs before it in the receive queue (a SEND in
 *	progress holds its WQE already, and does not count)
 * @va: EXECUTE, WRITE (a WRITE's last piece too): where the payload goes
 * @rkey: EXECUTE, WRITE: R_Key of the WRITE
 * @error: the responder entered the error state: send @reply, then move the
 *	QP to error
 * @aborted: UC: a message was abandoned, before this packet is executed
 *	(from rmp_resp_packet(): a PSN gap or an opcode out of sequence ended
 *	the one in progress) or with it (from rmp_resp_executed(): this
 *	packet's message failed); the rest of it is dropped, and a receive WQE
 *	it took is not completed
 * @reply: what to send
 */
struct rmp_resp_out {
	u8 verdict;
	bool first;
	bool last;
	u32 offset;
	u32 rq_idx;
	u64 va;
	u32 rkey;
	bool error;
	bool aborted;
	struct rmp_resp_reply reply;
};

/**
 * struct rmp_resp_sent - a sprayed SEND whose last piece was taken
 * @psn: PSN of the last piece
 * @len: bytes of the SEND: the last piece's offset and length
 * @data: &rmp_resp_in.data of the last piece
 * @opcode: the last piece's opcode: plain, immediate or invalidate, or
 *	that of a WRITE with immediate data (a "SEND" here too)
 * @se: the last piece asked for a solicited event
 * @valid: the slot holds a SEND
 */
struct rmp_resp_sent {
	u32 psn;
	u32 len;
	u32 data;
	u8 opcode;
	bool se;
	bool valid;
};

/**
 * struct rmp_resp_spray - a responder's state for sprayed SENDs
 * @pieces: the held PSNs that are pieces of a SEND, not whole messages,
 *	indexed like the receive window's bitmap
 * @sent: SENDs whose last piece was taken, by SSN modulo %RMP_SPETH_MSGS
 *
 * Owned by the caller (rmp_resp_send_spray()); 1152 bytes.
 */
struct rmp_resp_spray {
	u64 pieces[RMP_RXWIN_WORDS];
	struct rmp_resp_sent sent[RMP_SPETH_MSGS];
};

/**
 * enum rmp_resp_msg - message in progress on the receive side
 * @RMP_RESP_MSG_NONE: none: the next packet must begin a message
 * @RMP_RESP_MSG_SEND: a SEND: only SEND MIDDLE or LAST may follow
 * @RMP_RESP_MSG_WRITE: a WRITE: only WRITE MIDDLE or LAST may follow
 */
enum rmp_resp_msg {
	RMP_RESP_MSG_NONE,
	RMP_RESP_MSG_SEND,
	RMP_RESP_MSG_WRITE,
};

/**
 * struct rmp_resp - RC or UC responder transport state of one QP
 * @uc: unreliable connected (&rmp_resp_config.uc)
 * @mtu: path MTU in bytes
 * @ack_every: &rmp_resp_config.ack_every
 * @min_rnr_timer: RNR timer code
 * @access: RMP_RESP_ALLOW_* bits
 * @ooo: sprayed WRITEs are accepted out of order (multipath)
 * @ecn_echo: the SACKs echo CE marks (rmp_resp_sack())
 * @rd_spray: the requester takes READ responses in any order
 *	(rmp_resp_read_spray())
 * @sp: SENDs arrive sprayed, in pieces (rmp_resp_send_spray()); else NULL
 * @win: receive window; @win.epsn is the expected PSN
 * @msn: message sequence number: messages completed, modulo 2^24
 * @ssn: messages that take a receive WQE completed, modulo 2^24: the SSN
 *	of the next sprayed SEND to complete
 * @ssn_done: SSN of the oldest sprayed SEND completed and not yet handed
 *	out by rmp_resp_take_sent(); @ssn once all are
 * @msg: &enum rmp_resp_msg in progress
 * @msg_off: bytes of the message in progress received so far
 * @msg_va: WRITE in progress: its RETH address
 * @msg_rkey: WRITE in progress: its R_Key
 * @msg_left: WRITE in progress: bytes its RETH announced still to come
 * @nak_sent: a NAK that asks the requester to resume at @win.epsn is
 *	outstanding; further out-of-sequence packets are dropped silently
 *	until @win.epsn arrives
 * @error: a fatal NAK was sent; every packet is dropped
 * @pending: an EXECUTE verdict awaits rmp_resp_executed()
 * @unacked: request packets executed since the last acknowledgment
 * @unacked_end: a message ended since the last acknowledgment
 * @cur: the request awaiting rmp_resp_executed()
 * @cur_ahead: @cur is a sprayed WRITE ahead of @win.epsn
 * @res: READ/atomic resources, owned by the caller
 * @nres: entries in @res (max_dest_rd_atomic)
 * @res_head: slot the next resource takes
 * @res_count: resources in use, the newest just before @res_head
 * @ce: with @ecn_echo, the PSNs taken CE marked since the last SACK
 */
struct rmp_resp {
	bool uc;
	u32 mtu;
	u32 ack_every;
	u8 min_rnr_timer;
	u8 access;
	bool ooo;
	bool ecn_echo;
	bool rd_spray;
	struct rmp_resp_spray *sp;

	struct rmp_rxwin win;
	u32 msn;
	u32 ssn;
	u32 ssn_done;
	u8 msg;
	u32 msg_off;
	u64 msg_va;
	u32 msg_rkey;
	u32 msg_left;
	bool nak_sent;
	bool error;
	bool pending;
	u32 unacked;
	bool unacked_end;
	struct rmp_resp_in cur;
	bool cur_ahead;

	struct rmp_resp_res *res;
	u32 nres;
	u32 res_head;
	u32 res_count;

	struct rmp_ecn_echo ce;
};

/**
 * rmp_resp_epsn() - the PSN the responder expects next
 * @resp: responder
 *
 * Return: the expected PSN.
 */
static inline u32 rmp_resp_epsn(const struct rmp_resp *resp)
{
	return resp->win.epsn;
}

/**
 * rmp_resp_sacks() - whether the responder's ACKs carry a SACK
 * @resp: responder
 *
 * With out-of-order acceptance, an ACK (not a NAK) goes out as a selective
 * acknowledgment: the caller builds it with rmp_resp_sack() when it sends
 * it, so it is current.
 *
 * Return: true if ACKs are sent as SACKs.
 */
static inline bool rmp_resp_sacks(const struct rmp_resp *resp)
{
	return resp->ooo;
}

/**
 * rmp_resp_preempts_read() - whether a request cuts a READ stream short
 * @resp: responder
 * @opcode: the request's BTH opcode
 * @psn: the request's PSN
 * @spray: the request asks for read spraying (%RMP_BTH_SPRAY)
 *
 * While a READ's responses go out, the requests after it wait. A duplicate
 * READ request does not: the requester lost responses and drops every one
 * after the loss, so the stream in progress is not worth finishing; the
 * duplicate is taken at once and its responses replace the stream. Not
 * one asking for read spraying: the requester keeps every response, and
 * asks again for the missing ones only.
 *
 * Return: true if the request is a duplicate READ request whose responses
 * are not sprayed.
 */
static inline bool rmp_resp_preempts_read(const struct rmp_resp *resp,
					  u8 opcode, u32 psn, bool spray)
{
	return !(resp->rd_spray && spray) &&
	       opcode == RMP_OP_RC_READ_REQUEST &&
	       rmp_psn_before(psn, resp->win.epsn);
}

/**
 * rmp_resp_in_from_hdr() - take a request's fields from parsed headers
 * @in: filled in
 * @f: headers from rmp_hdr_parse()
 */
static inline void rmp_resp_in_from_hdr(struct rmp_resp_in *in,
					const struct rmp_hdr_fields *f)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	u32 flags = info ? info->flags : 0;

	memset(in, 0, sizeof(*in));
	in->psn = f->bth.psn;
	in->opcode = f->bth.opcode;
	in->ackreq = f->bth.ackreq;
	in->spray = f->bth.spray;
	in->se = f->bth.se;
	in->payload_len = f->payload_len;
	if (flags & RMP_OPF_SPETH) {
		in->ssn = f->speth.ssn;
		in->offset = f->speth.offset;
		if (flags & RMP_OPF_IMMDT)
			memcpy(&in->data, &f->imm, sizeof(in->data));
		else if (flags & RMP_OPF_IETH)
			in->data = f->ieth.rkey;
	}
	if (flags & RMP_OPF_RETH) {
		in->va = f->reth.va;
		in->rkey = f->reth.rkey;
		in->dma_len = f->reth.len;
	} else if (flags & RMP_OPF_ATMETH) {
		in->va = f->atmeth.va;
		in->rkey = f->atmeth.rkey;
	}
}

int rmp_resp_init(struct rmp_resp *resp, const struct rmp_resp_config *cfg,
		  struct rmp_resp_res *res, u32 nres);
int rmp_resp_multipath(struct rmp_resp *resp, bool ecn_echo);
int rmp_resp_read_spray(struct rmp_resp *resp);
int rmp_resp_send_spray(struct rmp_resp *resp, struct rmp_resp_spray *sp);
bool rmp_resp_take_sent(struct rmp_resp *resp, struct rmp_resp_sent *sent);
int rmp_resp_sack(struct rmp_resp *resp, struct rmp_sack *s,
		  struct rmp_ecn_echo *ce);
bool rmp_resp_will_execute(const struct rmp_resp *resp,
			   const struct rmp_resp_in *in);
int rmp_resp_packet(struct rmp_resp *resp, const struct rmp_resp_in *in,
		    struct rmp_resp_out *out);
int rmp_resp_executed(struct rmp_resp *resp, enum rmp_resp_status status,
		      u64 orig, struct rmp_resp_out *out);
int rmp_resp_discard(struct rmp_resp *resp);
bool rmp_resp_read_next(struct rmp_resp_read *cur,
			struct rmp_resp_read_pkt *pkt);
bool rmp_resp_flush_ack(struct rmp_resp *resp, struct rmp_resp_reply *reply);
void rmp_resp_set_error(struct rmp_resp *resp);

#endif /* RMP_ENGINE_RESP_H */
