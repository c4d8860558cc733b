/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 transport headers (IBTA vol. 1 ch. 9 and Annex A17): wire layouts,
 * the opcode table and the field-level build/parse interface.
 */
#ifndef RMP_ENGINE_HDR_H
#define RMP_ENGINE_HDR_H

#include "compat.h"

#define RMP_ICRC_SIZE	4

/* BTH opcode = transport family (bits 7:5) | operation (bits 4:0). */
enum rmp_opcode {
	RMP_OP_RC_SEND_FIRST			= 0x00,
	RMP_OP_RC_SEND_MIDDLE			= 0x01,
	RMP_OP_RC_SEND_LAST			= 0x02,
	RMP_OP_RC_SEND_LAST_IMM			= 0x03,
	RMP_OP_RC_SEND_ONLY			= 0x04,
	RMP_OP_RC_SEND_ONLY_IMM			= 0x05,
	RMP_OP_RC_WRITE_FIRST			= 0x06,
	RMP_OP_RC_WRITE_MIDDLE			= 0x07,
	RMP_OP_RC_WRITE_LAST			= 0x08,
	RMP_OP_RC_WRITE_LAST_IMM		= 0x09,
	RMP_OP_RC_WRITE_ONLY			= 0x0a,
	RMP_OP_RC_WRITE_ONLY_IMM		= 0x0b,
	RMP_OP_RC_READ_REQUEST			= 0x0c,
	RMP_OP_RC_READ_RESPONSE_FIRST		= 0x0d,
	RMP_OP_RC_READ_RESPONSE_MIDDLE		= 0x0e,
	RMP_OP_RC_READ_RESPONSE_LAST		= 0x0f,
	RMP_OP_RC_READ_RESPONSE_ONLY		= 0x10,
	RMP_OP_RC_ACKNOWLEDGE			= 0x11,
	RMP_OP_RC_ATOMIC_ACKNOWLEDGE		= 0x12,
	RMP_OP_RC_COMPARE_SWAP			= 0x13,
	RMP_OP_RC_FETCH_ADD			= 0x14,
	RMP_OP_RC_SEND_LAST_INV			= 0x16,
	RMP_OP_RC_SEND_ONLY_INV			= 0x17,
	/* IBTA Memory Placement Extensions (Annex A19). */
	RMP_OP_RC_ATOMIC_WRITE			= 0x1d,

	RMP_OP_UC_SEND_FIRST			= 0x20,
	RMP_OP_UC_SEND_MIDDLE			= 0x21,
	RMP_OP_UC_SEND_LAST			= 0x22,
	RMP_OP_UC_SEND_LAST_IMM			= 0x23,
	RMP_OP_UC_SEND_ONLY			= 0x24,
	RMP_OP_UC_SEND_ONLY_IMM			= 0x25,
	RMP_OP_UC_WRITE_FIRST			= 0x26,
	RMP_OP_UC_WRITE_MIDDLE			= 0x27,
	RMP_OP_UC_WRITE_LAST			= 0x28,
	RMP_OP_UC_WRITE_LAST_IMM		= 0x29,
	RMP_OP_UC_WRITE_ONLY			= 0x2a,
	RMP_OP_UC_WRITE_ONLY_IMM		= 0x2b,

	RMP_OP_UD_SEND_ONLY			= 0x64,
	RMP_OP_UD_SEND_ONLY_IMM			= 0x65,

	RMP_OP_CNP				= 0x81,

	/* 0xc0-0xff: manufacturer specific, reserved for rmp extensions. */
	RMP_OP_EXT_FIRST			= 0xc0,
	/* Multipath: an ACK whose payload is a SACK (struct rmp_sack_wire). */
	RMP_OP_EXT_SACK				= 0xc0,
	/* Receiver credit: the PSN limit granted, in the BTH's PSN. */
	RMP_OP_EXT_GRANT			= 0xc1,
	/* Receiver credit: the PSN limit asked for, in the BTH's PSN. */
	RMP_OP_EXT_CREDIT_REQUEST		= 0xc2,
	/*
	 * Read spraying: the READ responses a requester received, a SACK
	 * block (struct rmp_sack_wire) after the BTH; requester to responder.
	 */
	RMP_OP_EXT_READ_REPORT			= 0xc3,
	/*
	 * Send spraying: one piece of a SEND, placed at its offset in the
	 * receive WQE its SPETH names; a piece before the SEND's last, then
	 * the last piece plain, with immediate data, or with invalidate.
	 */
	RMP_OP_EXT_SEND_PIECE			= 0xc4,
	RMP_OP_EXT_SEND_PIECE_LAST		= 0xc5,
	RMP_OP_EXT_SEND_PIECE_LAST_IMM		= 0xc6,
	RMP_OP_EXT_SEND_PIECE_LAST_INV		= 0xc7,
	/*
	 * Send spraying: the last piece of a sprayed RDMA WRITE with
	 * immediate data, placed by its RETH like a WRITE ONLY; its SPETH
	 * names the receive WQE the immediate data completes.
	 */
	RMP_OP_EXT_WRITE_PIECE_LAST_IMM		= 0xc8,
};

/**
 * enum rmp_qpt - transport service an opcode belongs to
 * @RMP_QPT_NONE: unassigned opcode
 * @RMP_QPT_RC: reliable connected
 * @RMP_QPT_UC: unreliable connected
 * @RMP_QPT_RD: reliable datagram (not implemented)
 * @RMP_QPT_UD: unreliable datagram
 * @RMP_QPT_CNP: RoCEv2 congestion notification packet
 * @RMP_QPT_EXT: manufacturer-specific (rmp extension)
 */
enum rmp_qpt {
	RMP_QPT_NONE,
	RMP_QPT_RC,
	RMP_QPT_UC,
	RMP_QPT_RD,
	RMP_QPT_UD,
	RMP_QPT_CNP,
	RMP_QPT_EXT,
};

/* Headers following the BTH, in the order they appear on the wire. */
#define RMP_OPF_DETH		BIT(0)
#define RMP_OPF_RETH		BIT(1)
#define RMP_OPF_ATMETH		BIT(2)
#define RMP_OPF_AETH		BIT(3)
#define RMP_OPF_ATMACK		BIT(4)
#define RMP_OPF_IMMDT		BIT(5)
#define RMP_OPF_IETH		BIT(6)
#define RMP_OPF_CNPRSV		BIT(7)
/* rmp's send spraying: comes first after the BTH (see rmp_ext_descs). */
#define RMP_OPF_SPETH		BIT(21)
#define RMP_OPF_HDR_MASK	(0xffU | RMP_OPF_SPETH)

/* Position of the packet in its message. */
#define RMP_OPF_FIRST		BIT(8)
#define RMP_OPF_MIDDLE		BIT(9)
#define RMP_OPF_LAST		BIT(10)
#define RMP_OPF_ONLY		(RMP_OPF_FIRST | RMP_OPF_LAST)

/* Role and operation. */
#define RMP_OPF_PAYLOAD		BIT(11)
#define RMP_OPF_REQ		BIT(12)
#define RMP_OPF_RESP		BIT(13)
#define RMP_OPF_NEEDS_ACK	BIT(14)
#define RMP_OPF_SEND		BIT(15)
#define RMP_OPF_WRITE		BIT(16)
#define RMP_OPF_READ		BIT(17)
#define RMP_OPF_ATOMIC		BIT(18)
#define RMP_OPF_ACK		BIT(19)
/* ATOMIC WRITE: an 8-byte WRITE, answered like a READ of nothing. */
#define RMP_OPF_ATOMIC_WRITE	BIT(20)

/**
 * struct rmp_opcode_info - what a BTH opcode implies
 * @name: IBTA-style name, NULL for an opcode rmp does not know
 * @qpt: transport service (&enum rmp_qpt)
 * @flags: RMP_OPF_* bits
 * @hdr_len: length of BTH plus all headers that follow it, in bytes
 */
struct rmp_opcode_info {
	const char *name;
	u8 qpt;
	u8 hdr_len;
	u32 flags;
};

extern const struct rmp_opcode_info rmp_opcode_table[256];

/**
 * rmp_opcode_info() - look up the description of a BTH opcode
 * @opcode: BTH opcode
 *
 * Return: the table entry, or NULL if rmp does not know @opcode.
 */
static inline const struct rmp_opcode_info *rmp_opcode_info(u8 opcode)
{
	const struct rmp_opcode_info *info = &rmp_opcode_table[opcode];

	return info->name ? info : NULL;
}

/*
 * Wire layouts.  Packed because the engine reads and writes them at
 * whatever offset they have in a packet buffer, which need not be aligned.
 */
struct rmp_bth {
	u8 opcode;
	u8 flags;		/* SE:1 M:1 PadCnt:2 TVer:4 */
	__be16 pkey;
	__be32 qpn;		/* FECN:1 BECN:1 resv:6 DestQP:24 */
	__be32 apsn;		/* A:1 resv:7 PSN:24 */
} __packed;

struct rmp_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;
} __packed;

struct rmp_aeth {
	__be32 smsn;		/* Syndrome:8 MSN:24 */
} __packed;

struct rmp_immdt {
	__be32 imm;
} __packed;

struct rmp_ieth {
	__be32 rkey;
} __packed;

struct rmp_deth {
	__be32 qkey;
	__be32 sqpn;		/* resv:8 SrcQP:24 */
} __packed;

struct rmp_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 compare;
} __packed;

struct rmp_atmack {
	__be64 orig;
} __packed;

struct rmp_cnprsv {
	u8 rsvd[16];
} __packed;

/*
 * Send spraying: which SEND a piece belongs to, and where it goes in it.
 * A requester has at most RMP_SPETH_MSGS messages that take a receive WQE
 * in flight past the oldest one not yet acknowledged, so that a responder
 * keeps the ends of no more SENDs than that.
 */
#define RMP_SPETH_MSGS		64U

struct rmp_speth {
	__be32 ssn;		/* resv:8 SSN:24 */
	__be32 offset;
} __packed;

static_assert(sizeof(struct rmp_bth) == 12);
static_assert(sizeof(struct rmp_reth) == 16);
static_assert(sizeof(struct rmp_aeth) == 4);
static_assert(sizeof(struct rmp_immdt) == 4);
static_assert(sizeof(struct rmp_ieth) == 4);
static_assert(sizeof(struct rmp_deth) == 8);
static_assert(sizeof(struct rmp_atmeth) == 28);
static_assert(sizeof(struct rmp_atmack) == 8);
static_assert(sizeof(struct rmp_cnprsv) == 16);
static_assert(sizeof(struct rmp_speth) == 8);

#define RMP_BTH_SE		0x80
#define RMP_BTH_MIG		0x40
#define RMP_BTH_PAD_SHIFT	4
#define RMP_BTH_PAD_MASK	0x30
#define RMP_BTH_TVER_MASK	0x0f
#define RMP_BTH_FECN		0x80000000U
#define RMP_BTH_BECN		0x40000000U
#define RMP_BTH_QPN_MASK	0x00ffffffU
#define RMP_BTH_ACKREQ		0x80000000U
/*
 * The first of the seven reserved bits after AckReq. rmp's read spraying
 * (Documentation/rmp/wire.rst, "Multipath"): in a READ request, its
 * responses may take any path. Set only towards a peer that agreed to it.
 */
#define RMP_BTH_SPRAY		0x40000000U
#define RMP_BTH_PSN_MASK	0x00ffffffU
/* Byte of the BTH holding FECN/BECN; masked to all-ones for the ICRC. */
#define RMP_BTH_RESV8A_OFFSET	4

/* BTH accessors. */
static inline u8 rmp_bth_opcode(const struct rmp_bth *bth)
{
	return bth->opcode;
}

static inline bool rmp_bth_se(const struct rmp_bth *bth)
{
	return bth->flags & RMP_BTH_SE;
}

static inline bool rmp_bth_mig(const struct rmp_bth *bth)
{
	return bth->flags & RMP_BTH_MIG;
}

static inline u8 rmp_bth_pad(const struct rmp_bth *bth)
{
	return (bth->flags & RMP_BTH_PAD_MASK) >> RMP_BTH_PAD_SHIFT;
}

static inline u8 rmp_bth_tver(const struct rmp_bth *bth)
{
	return bth->flags & RMP_BTH_TVER_MASK;
}

static inline u16 rmp_bth_pkey(const struct rmp_bth *bth)
{
	return be16_to_cpu(bth->pkey);
}

#define RMP_PKEY_FULL_MEMBER	0x8000
#define RMP_PKEY_PARTITION_MASK	0x7fff

/**
 * rmp_pkey_match() - whether a packet's P_Key admits it to a port
 * @pkt: the P_Key in the packet's BTH
 * @port: a P_Key of the receiving port's table
 *
 * Return: true if both name the same partition and at least one of them is
 * a full member's key (two limited members may not talk).
 */
static inline bool rmp_pkey_match(u16 pkt, u16 port)
{
	return !((pkt ^ port) & RMP_PKEY_PARTITION_MASK) &&
	       ((pkt | port) & RMP_PKEY_FULL_MEMBER);
}

static inline bool rmp_bth_fecn(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->qpn) & RMP_BTH_FECN;
}

static inline bool rmp_bth_becn(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->qpn) & RMP_BTH_BECN;
}

static inline u32 rmp_bth_qpn(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->qpn) & RMP_BTH_QPN_MASK;
}

static inline bool rmp_bth_ackreq(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->apsn) & RMP_BTH_ACKREQ;
}

static inline bool rmp_bth_spray(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->apsn) & RMP_BTH_SPRAY;
}

static inline u32 rmp_bth_psn(const struct rmp_bth *bth)
{
	return be32_to_cpu(bth->apsn) & RMP_BTH_PSN_MASK;
}

static inline void rmp_bth_set_flags(struct rmp_bth *bth, bool se, bool mig,
				     u8 pad, u8 tver)
{
	bth->flags = (se ? RMP_BTH_SE : 0) | (mig ? RMP_BTH_MIG : 0) |
		     ((pad << RMP_BTH_PAD_SHIFT) & RMP_BTH_PAD_MASK) |
		     (tver & RMP_BTH_TVER_MASK);
}

static inline void rmp_bth_set_qpn(struct rmp_bth *bth, u32 qpn, bool fecn,
				   bool becn)
{
	bth->qpn = cpu_to_be32((qpn & RMP_BTH_QPN_MASK) |
			       (fecn ? RMP_BTH_FECN : 0) |
			       (becn ? RMP_BTH_BECN : 0));
}

static inline void rmp_bth_set_psn(struct rmp_bth *bth, u32 psn, bool ackreq)
{
	bth->apsn = cpu_to_be32((psn & RMP_BTH_PSN_MASK) |
				(ackreq ? RMP_BTH_ACKREQ : 0));
}

/**
 * enum rmp_aeth_type - class of an AETH syndrome (bits 7:5)
 * @RMP_AETH_ACK: positive acknowledgment, low bits are a credit count
 * @RMP_AETH_RNR_NAK: receiver not ready, low bits are a timer code
 * @RMP_AETH_RSVD: reserved
 * @RMP_AETH_NAK: negative acknowledgment, low bits are &enum rmp_nak_code
 */
enum rmp_aeth_type {
	RMP_AETH_ACK		= 0,
	RMP_AETH_RNR_NAK	= 1,
	RMP_AETH_RSVD		= 2,
	RMP_AETH_NAK		= 3,
};

/**
 * enum rmp_nak_code - NAK codes carried in an AETH syndrome
 * @RMP_NAK_PSN_SEQ: PSN sequence error
 * @RMP_NAK_INV_REQ: invalid request
 * @RMP_NAK_REM_ACCESS: remote access error
 * @RMP_NAK_REM_OP: remote operational error
 * @RMP_NAK_INV_RD_REQ: invalid RD request
 * @RMP_NAK_MAX: first reserved code
 */
enum rmp_nak_code {
	RMP_NAK_PSN_SEQ		= 0,
	RMP_NAK_INV_REQ		= 1,
	RMP_NAK_REM_ACCESS	= 2,
	RMP_NAK_REM_OP		= 3,
	RMP_NAK_INV_RD_REQ	= 4,
	RMP_NAK_MAX,
};

#define RMP_AETH_TYPE_SHIFT	5
#define RMP_AETH_VALUE_MASK	0x1f
#define RMP_AETH_MSN_MASK	0x00ffffffU
/* Credit code meaning "no credit count": the responder does not limit. */
#define RMP_AETH_CREDITS_INVALID 0x1f

static inline u8 rmp_aeth_syn_ack(u8 credit_code)
{
	return (RMP_AETH_ACK << RMP_AETH_TYPE_SHIFT) |
	       (credit_code & RMP_AETH_VALUE_MASK);
}

static inline u8 rmp_aeth_syn_rnr(u8 timer_code)
{
	return (RMP_AETH_RNR_NAK << RMP_AETH_TYPE_SHIFT) |
	       (timer_code & RMP_AETH_VALUE_MASK);
}

static inline u8 rmp_aeth_syn_nak(enum rmp_nak_code code)
{
	return (RMP_AETH_NAK << RMP_AETH_TYPE_SHIFT) |
	       (code & RMP_AETH_VALUE_MASK);
}

static inline enum rmp_aeth_type rmp_aeth_syn_type(u8 syndrome)
{
	return (enum rmp_aeth_type)(syndrome >> RMP_AETH_TYPE_SHIFT);
}

/* Credit code, RNR timer code or NAK code, depending on the type. */
static inline u8 rmp_aeth_syn_value(u8 syndrome)
{
	return syndrome & RMP_AETH_VALUE_MASK;
}

static inline u8 rmp_aeth_syndrome(const struct rmp_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) >> 24;
}

static inline u32 rmp_aeth_msn(const struct rmp_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) & RMP_AETH_MSN_MASK;
}

static inline void rmp_aeth_set(struct rmp_aeth *aeth, u8 syndrome, u32 msn)
{
	aeth->smsn = cpu_to_be32((u32)syndrome << 24 |
				 (msn & RMP_AETH_MSN_MASK));
}

/**
 * rmp_hdr_pad() - pad count for a payload
 * @payload_len: payload length in bytes
 *
 * Return: number of pad bytes (0-3) that round @payload_len up to a
 * multiple of 4.
 */
static inline u8 rmp_hdr_pad(u32 payload_len)
{
	return (0U - payload_len) & 3;
}

/**
 * struct rmp_hdr_fields - host-order values of all transport header fields
 * @bth: Base Transport Header
 * @reth: RDMA Extended Transport Header
 * @aeth: ACK Extended Transport Header
 * @imm: Immediate Data, opaque and kept in wire order
 * @ieth: Invalidate Extended Transport Header
 * @deth: Datagram Extended Transport Header
 * @atmeth: Atomic Extended Transport Header
 * @atmack: Atomic Acknowledge Extended Transport Header
 * @speth: rmp's send spraying header: the SEND's sequence number among
 *	the messages that take a receive WQE (24 bits), and the piece's
 *	byte offset in the SEND
 * @hdr_len: set by rmp_hdr_parse(): bytes of BTH and following headers
 * @payload_len: set by rmp_hdr_parse() when the packet length is known:
 *	payload bytes excluding pad
 *
 * Only the parts the opcode implies are read by rmp_hdr_build() or written
 * by rmp_hdr_parse().
 */
struct rmp_hdr_fields {
	struct {
		u8 opcode;
		bool se;
		bool mig;
		u8 pad;
		u8 tver;
		u16 pkey;
		bool fecn;
		bool becn;
		u32 qpn;
		bool ackreq;
		bool spray;	/* RMP_BTH_SPRAY */
		u32 psn;
	} bth;
	struct {
		u64 va;
		u32 rkey;
		u32 len;
	} reth;
	struct {
		u8 syndrome;
		u32 msn;
	} aeth;
	__be32 imm;
	struct {
		u32 rkey;
	} ieth;
	struct {
		u32 qkey;
		u32 sqpn;
	} deth;
	struct {
		u64 va;
		u32 rkey;
		u64 swap_add;
		u64 compare;
	} atmeth;
	struct {
		u64 orig;
	} atmack;
	struct {
		u32 ssn;
		u32 offset;
	} speth;
	u16 hdr_len;
	u32 payload_len;
};

/**
 * enum rmp_hdr_err - why rmp_hdr_parse() refused a packet
 * @RMP_HDR_OK: not refused
 * @RMP_HDR_ERR_SHORT: buffer too short for the headers the opcode implies
 * @RMP_HDR_ERR_OPCODE: opcode unknown or not supported
 * @RMP_HDR_ERR_TVER: transport header version is not 0
 * @RMP_HDR_ERR_LENGTH: packet length leaves no room for headers and ICRC, or
 *	payload plus pad is not a whole number of 32-bit words
 * @RMP_HDR_ERR_PAD: pad count on an opcode that cannot carry pad, or larger
 *	than the payload
 * @RMP_HDR_ERR_PAYLOAD: payload on an opcode that carries none, or an empty
 *	first or middle packet
 * @RMP_HDR_ERR_SYNDROME: AETH syndrome is reserved
 * @RMP_HDR_ERR_MAX: number of reasons
 */
enum rmp_hdr_err {
	RMP_HDR_OK,
	RMP_HDR_ERR_SHORT,
	RMP_HDR_ERR_OPCODE,
	RMP_HDR_ERR_TVER,
	RMP_HDR_ERR_LENGTH,
	RMP_HDR_ERR_PAD,
	RMP_HDR_ERR_PAYLOAD,
	RMP_HDR_ERR_SYNDROME,
	RMP_HDR_ERR_MAX,
};

const char *rmp_hdr_err_str(enum rmp_hdr_err err);
int rmp_hdr_err_errno(enum rmp_hdr_err err);
int rmp_hdr_build(const struct rmp_hdr_fields *f, void *buf, size_t buf_len);
int rmp_hdr_parse(struct rmp_hdr_fields *f, const void *buf, size_t buf_len,
		  size_t pkt_len, enum rmp_hdr_err *why);

#endif /* RMP_ENGINE_HDR_H */
