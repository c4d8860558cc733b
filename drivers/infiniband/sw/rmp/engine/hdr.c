// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 transport header table, builder and parser.
 */
#include "hdr.h"

#define RMP_HLEN(f)							\
	(sizeof(struct rmp_bth) +					\
	 ((f) & RMP_OPF_SPETH ? sizeof(struct rmp_speth) : 0) +		\
	 ((f) & RMP_OPF_DETH ? sizeof(struct rmp_deth) : 0) +		\
	 ((f) & RMP_OPF_RETH ? sizeof(struct rmp_reth) : 0) +		\
	 ((f) & RMP_OPF_ATMETH ? sizeof(struct rmp_atmeth) : 0) +	\
	 ((f) & RMP_OPF_AETH ? sizeof(struct rmp_aeth) : 0) +		\
	 ((f) & RMP_OPF_ATMACK ? sizeof(struct rmp_atmack) : 0) +	\
	 ((f) & RMP_OPF_IMMDT ? sizeof(struct rmp_immdt) : 0) +	\
	 ((f) & RMP_OPF_IETH ? sizeof(struct rmp_ieth) : 0) +		\
	 ((f) & RMP_OPF_CNPRSV ? sizeof(struct rmp_cnprsv) : 0))

#define RMP_OPC(_qpt, _op, _flags)					\
	[RMP_OP_##_qpt##_##_op] = {					\
		.name = #_qpt "_" #_op,					\
		.qpt = RMP_QPT_##_qpt,					\
		.flags = (_flags),					\
		.hdr_len = RMP_HLEN(_flags),				\
	}

#define RMP_RC_REQ	(RMP_OPF_REQ | RMP_OPF_NEEDS_ACK)
#define RMP_RC_RESP	RMP_OPF_RESP
#define RMP_UC_REQ	RMP_OPF_REQ
#define RMP_SENDP	(RMP_OPF_SEND | RMP_OPF_PAYLOAD)
#define RMP_WRITEP	(RMP_OPF_WRITE | RMP_OPF_PAYLOAD)
#define RMP_RRESP	(RMP_OPF_READ | RMP_OPF_PAYLOAD)

const struct rmp_opcode_info rmp_opcode_table[256] = {
	RMP_OPC(RC, SEND_FIRST, RMP_RC_REQ | RMP_SENDP | RMP_OPF_FIRST),
	RMP_OPC(RC, SEND_MIDDLE, RMP_RC_REQ | RMP_SENDP | RMP_OPF_MIDDLE),
	RMP_OPC(RC, SEND_LAST, RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST),
	RMP_OPC(RC, SEND_LAST_IMM,
		RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_IMMDT),
	RMP_OPC(RC, SEND_ONLY, RMP_RC_REQ | RMP_SENDP | RMP_OPF_ONLY),
	RMP_OPC(RC, SEND_ONLY_IMM,
		RMP_RC_REQ | RMP_SENDP | RMP_OPF_ONLY | RMP_OPF_IMMDT),
	RMP_OPC(RC, WRITE_FIRST,
		RMP_RC_REQ | RMP_WRITEP | RMP_OPF_FIRST | RMP_OPF_RETH),
	RMP_OPC(RC, WRITE_MIDDLE, RMP_RC_REQ | RMP_WRITEP | RMP_OPF_MIDDLE),
	RMP_OPC(RC, WRITE_LAST, RMP_RC_REQ | RMP_WRITEP | RMP_OPF_LAST),
	RMP_OPC(RC, WRITE_LAST_IMM,
		RMP_RC_REQ | RMP_WRITEP | RMP_OPF_LAST | RMP_OPF_IMMDT),
	RMP_OPC(RC, WRITE_ONLY,
		RMP_RC_REQ | RMP_WRITEP | RMP_OPF_ONLY | RMP_OPF_RETH),
	RMP_OPC(RC, WRITE_ONLY_IMM,
		RMP_RC_REQ | RMP_WRITEP | RMP_OPF_ONLY | RMP_OPF_RETH |
		RMP_OPF_IMMDT),
	RMP_OPC(RC, READ_REQUEST,
		RMP_RC_REQ | RMP_OPF_READ | RMP_OPF_ONLY | RMP_OPF_RETH),
	RMP_OPC(RC, READ_RESPONSE_FIRST,
		RMP_RC_RESP | RMP_RRESP | RMP_OPF_FIRST | RMP_OPF_AETH),
	RMP_OPC(RC, READ_RESPONSE_MIDDLE,
		RMP_RC_RESP | RMP_RRESP | RMP_OPF_MIDDLE),
	RMP_OPC(RC, READ_RESPONSE_LAST,
		RMP_RC_RESP | RMP_RRESP | RMP_OPF_LAST | RMP_OPF_AETH),
	RMP_OPC(RC, READ_RESPONSE_ONLY,
		RMP_RC_RESP | RMP_RRESP | RMP_OPF_ONLY | RMP_OPF_AETH),
	RMP_OPC(RC, ACKNOWLEDGE,
		RMP_RC_RESP | RMP_OPF_ACK | RMP_OPF_ONLY | RMP_OPF_AETH),
	RMP_OPC(RC, ATOMIC_ACKNOWLEDGE,
		RMP_RC_RESP | RMP_OPF_ACK | RMP_OPF_ATOMIC | RMP_OPF_ONLY |
		RMP_OPF_AETH | RMP_OPF_ATMACK),
	RMP_OPC(RC, COMPARE_SWAP,
		RMP_RC_REQ | RMP_OPF_ATOMIC | RMP_OPF_ONLY | RMP_OPF_ATMETH),
	RMP_OPC(RC, FETCH_ADD,
		RMP_RC_REQ | RMP_OPF_ATOMIC | RMP_OPF_ONLY | RMP_OPF_ATMETH),
	RMP_OPC(RC, SEND_LAST_INV,
		RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_IETH),
	RMP_OPC(RC, SEND_ONLY_INV,
		RMP_RC_REQ | RMP_SENDP | RMP_OPF_ONLY | RMP_OPF_IETH),
	RMP_OPC(RC, ATOMIC_WRITE,
		RMP_RC_REQ | RMP_OPF_ATOMIC_WRITE | RMP_OPF_PAYLOAD |
		RMP_OPF_ONLY | RMP_OPF_RETH),

	RMP_OPC(UC, SEND_FIRST, RMP_UC_REQ | RMP_SENDP | RMP_OPF_FIRST),
	RMP_OPC(UC, SEND_MIDDLE, RMP_UC_REQ | RMP_SENDP | RMP_OPF_MIDDLE),
	RMP_OPC(UC, SEND_LAST, RMP_UC_REQ | RMP_SENDP | RMP_OPF_LAST),
	RMP_OPC(UC, SEND_LAST_IMM,
		RMP_UC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_IMMDT),
	RMP_OPC(UC, SEND_ONLY, RMP_UC_REQ | RMP_SENDP | RMP_OPF_ONLY),
	RMP_OPC(UC, SEND_ONLY_IMM,
		RMP_UC_REQ | RMP_SENDP | RMP_OPF_ONLY | RMP_OPF_IMMDT),
	RMP_OPC(UC, WRITE_FIRST,
		RMP_UC_REQ | RMP_WRITEP | RMP_OPF_FIRST | RMP_OPF_RETH),
	RMP_OPC(UC, WRITE_MIDDLE, RMP_UC_REQ | RMP_WRITEP | RMP_OPF_MIDDLE),
	RMP_OPC(UC, WRITE_LAST, RMP_UC_REQ | RMP_WRITEP | RMP_OPF_LAST),
	RMP_OPC(UC, WRITE_LAST_IMM,
		RMP_UC_REQ | RMP_WRITEP | RMP_OPF_LAST | RMP_OPF_IMMDT),
	RMP_OPC(UC, WRITE_ONLY,
		RMP_UC_REQ | RMP_WRITEP | RMP_OPF_ONLY | RMP_OPF_RETH),
	RMP_OPC(UC, WRITE_ONLY_IMM,
		RMP_UC_REQ | RMP_WRITEP | RMP_OPF_ONLY | RMP_OPF_RETH |
		RMP_OPF_IMMDT),

	RMP_OPC(UD, SEND_ONLY, RMP_UC_REQ | RMP_SENDP | RMP_OPF_ONLY | RMP_OPF_DETH),
	RMP_OPC(UD, SEND_ONLY_IMM,
		RMP_UC_REQ | RMP_SENDP | RMP_OPF_ONLY | RMP_OPF_DETH | RMP_OPF_IMMDT),

	[RMP_OP_EXT_SACK] = {
		.name = "EXT_SACK",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_RESP | RMP_OPF_ACK | RMP_OPF_ONLY |
			 RMP_OPF_AETH | RMP_OPF_PAYLOAD,
		.hdr_len = RMP_HLEN(RMP_OPF_AETH),
	},

	[RMP_OP_EXT_GRANT] = {
		.name = "EXT_GRANT",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_OPF_RESP | RMP_OPF_ONLY,
		.hdr_len = RMP_HLEN(0),
	},

	[RMP_OP_EXT_CREDIT_REQUEST] = {
		.name = "EXT_CREDIT_REQUEST",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_OPF_ONLY,
		.hdr_len = RMP_HLEN(0),
	},

	[RMP_OP_EXT_READ_REPORT] = {
		.name = "EXT_READ_REPORT",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_OPF_ONLY | RMP_OPF_PAYLOAD,
		.hdr_len = RMP_HLEN(0),
	},

	[RMP_OP_EXT_SEND_PIECE] = {
		.name = "EXT_SEND_PIECE",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_REQ | RMP_SENDP | RMP_OPF_MIDDLE |
			 RMP_OPF_SPETH,
		.hdr_len = RMP_HLEN(RMP_OPF_SPETH),
	},

	[RMP_OP_EXT_SEND_PIECE_LAST] = {
		.name = "EXT_SEND_PIECE_LAST",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_SPETH,
		.hdr_len = RMP_HLEN(RMP_OPF_SPETH),
	},

	[RMP_OP_EXT_SEND_PIECE_LAST_IMM] = {
		.name = "EXT_SEND_PIECE_LAST_IMM",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_SPETH |
			 RMP_OPF_IMMDT,
		.hdr_len = RMP_HLEN(RMP_OPF_SPETH | RMP_OPF_IMMDT),
	},

	[RMP_OP_EXT_SEND_PIECE_LAST_INV] = {
		.name = "EXT_SEND_PIECE_LAST_INV",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_REQ | RMP_SENDP | RMP_OPF_LAST | RMP_OPF_SPETH |
			 RMP_OPF_IETH,
		.hdr_len = RMP_HLEN(RMP_OPF_SPETH | RMP_OPF_IETH),
	},

	[RMP_OP_EXT_WRITE_PIECE_LAST_IMM] = {
		.name = "EXT_WRITE_PIECE_LAST_IMM",
		.qpt = RMP_QPT_EXT,
		.flags = RMP_RC_REQ | RMP_WRITEP | RMP_OPF_ONLY | RMP_OPF_SPETH |
			 RMP_OPF_RETH | RMP_OPF_IMMDT,
		.hdr_len = RMP_HLEN(RMP_OPF_SPETH | RMP_OPF_RETH |
				    RMP_OPF_IMMDT),
	},

	[RMP_OP_CNP] = {
		.name = "CNP",
		.qpt = RMP_QPT_CNP,
		.flags = RMP_OPF_CNPRSV,
		.hdr_len = RMP_HLEN(RMP_OPF_CNPRSV),
	},
};

/*
 * Each extended header knows how to move itself between the wire and
 * struct rmp_hdr_fields; build and parse walk this table in wire order.
 */
struct rmp_ext_desc {
	u32 flag;
	u8 len;
	void (*put)(void *p, const struct rmp_hdr_fields *f);
	void (*get)(const void *p, struct rmp_hdr_fields *f);
};

static void rmp_deth_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_deth *h = p;

	h->qkey = cpu_to_be32(f->deth.qkey);
	h->sqpn = cpu_to_be32(f->deth.sqpn & RMP_BTH_QPN_MASK);
}

static void rmp_deth_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_deth *h = p;

	f->deth.qkey = be32_to_cpu(h->qkey);
	f->deth.sqpn = be32_to_cpu(h->sqpn) & RMP_BTH_QPN_MASK;
}

static void rmp_reth_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_reth *h = p;

	h->va = cpu_to_be64(f->reth.va);
	h->rkey = cpu_to_be32(f->reth.rkey);
	h->len = cpu_to_be32(f->reth.len);
}

static void rmp_reth_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_reth *h = p;

	f->reth.va = be64_to_cpu(h->va);
	f->reth.rkey = be32_to_cpu(h->rkey);
	f->reth.len = be32_to_cpu(h->len);
}

static void rmp_atmeth_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_atmeth *h = p;

	h->va = cpu_to_be64(f->atmeth.va);
	h->rkey = cpu_to_be32(f->atmeth.rkey);
	h->swap_add = cpu_to_be64(f->atmeth.swap_add);
	h->compare = cpu_to_be64(f->atmeth.compare);
}

static void rmp_atmeth_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_atmeth *h = p;

	f->atmeth.va = be64_to_cpu(h->va);
	f->atmeth.rkey = be32_to_cpu(h->rkey);
	f->atmeth.swap_add = be64_to_cpu(h->swap_add);
	f->atmeth.compare = be64_to_cpu(h->compare);
}

static void rmp_aeth_put(void *p, const struct rmp_hdr_fields *f)
{
	rmp_aeth_set(p, f->aeth.syndrome, f->aeth.msn);
}

static void rmp_aeth_get(const void *p, struct rmp_hdr_fields *f)
{
	f->aeth.syndrome = rmp_aeth_syndrome(p);
	f->aeth.msn = rmp_aeth_msn(p);
}

static void rmp_atmack_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_atmack *h = p;

	h->orig = cpu_to_be64(f->atmack.orig);
}

static void rmp_atmack_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_atmack *h = p;

	f->atmack.orig = be64_to_cpu(h->orig);
}

static void rmp_immdt_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_immdt *h = p;

	h->imm = f->imm;
}

static void rmp_immdt_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_immdt *h = p;

	f->imm = h->imm;
}

static void rmp_ieth_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_ieth *h = p;

	h->rkey = cpu_to_be32(f->ieth.rkey);
}

static void rmp_ieth_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_ieth *h = p;

	f->ieth.rkey = be32_to_cpu(h->rkey);
}

static void rmp_speth_put(void *p, const struct rmp_hdr_fields *f)
{
	struct rmp_speth *h = p;

	h->ssn = cpu_to_be32(f->speth.ssn & RMP_BTH_PSN_MASK);
	h->offset = cpu_to_be32(f->speth.offset);
}

static void rmp_speth_get(const void *p, struct rmp_hdr_fields *f)
{
	const struct rmp_speth *h = p;

	f->speth.ssn = be32_to_cpu(h->ssn) & RMP_BTH_PSN_MASK;
	f->speth.offset = be32_to_cpu(h->offset);
}

static void rmp_cnprsv_put(void *p,
			   const struct rmp_hdr_fields *f __always_unused)
{
	memset(p, 0, sizeof(struct rmp_cnprsv));
}

static const struct rmp_ext_desc rmp_ext_descs[] = {
	{ RMP_OPF_SPETH, sizeof(struct rmp_speth),
	  rmp_speth_put, rmp_speth_get },
	{ RMP_OPF_DETH, sizeof(struct rmp_deth), rmp_deth_put, rmp_deth_get },
	{ RMP_OPF_RETH, sizeof(struct rmp_reth), rmp_reth_put, rmp_reth_get },
	{ RMP_OPF_ATMETH, sizeof(struct rmp_atmeth),
	  rmp_atmeth_put, rmp_atmeth_get },
	{ RMP_OPF_AETH, sizeof(struct rmp_aeth), rmp_aeth_put, rmp_aeth_get },
	{ RMP_OPF_ATMACK, sizeof(struct rmp_atmack),
	  rmp_atmack_put, rmp_atmack_get },
	{ RMP_OPF_IMMDT, sizeof(struct rmp_immdt),
	  rmp_immdt_put, rmp_immdt_get },
	{ RMP_OPF_IETH, sizeof(struct rmp_ieth), rmp_ieth_put, rmp_ieth_get },
	/* Reserved bytes: ignored on receive. */
	{ RMP_OPF_CNPRSV, sizeof(struct rmp_cnprsv), rmp_cnprsv_put, NULL },
};

static const struct {
	const char *str;
	int err;
} rmp_hdr_errs[RMP_HDR_ERR_MAX] = {
	[RMP_HDR_OK]		= { "ok", 0 },
	[RMP_HDR_ERR_SHORT]	= { "short", -EMSGSIZE },
	[RMP_HDR_ERR_OPCODE]	= { "opcode", -EOPNOTSUPP },
	[RMP_HDR_ERR_TVER]	= { "tver", -EPROTONOSUPPORT },
	[RMP_HDR_ERR_LENGTH]	= { "length", -EBADMSG },
	[RMP_HDR_ERR_PAD]	= { "pad", -ERANGE },
	[RMP_HDR_ERR_PAYLOAD]	= { "payload", -EINVAL },
	[RMP_HDR_ERR_SYNDROME]	= { "syndrome", -EPROTO },
};

/**
 * rmp_hdr_err_str() - short name of a parse error, for counters and logs
 * @err: parse error reason
 *
 * Return: a static string, "unknown" for a value out of range.
 */
const char *rmp_hdr_err_str(enum rmp_hdr_err err)
{
	if ((unsigned int)err >= RMP_HDR_ERR_MAX)
		return "unknown";
	return rmp_hdr_errs[err].str;
}

/**
 * rmp_hdr_err_errno() - errno value rmp_hdr_parse() returns for a reason
 * @err: parse error reason
 *
 * Return: 0 for %RMP_HDR_OK, a distinct negative errno for each failure,
 * -EINVAL for a value out of range.
 */
int rmp_hdr_err_errno(enum rmp_hdr_err err)
{
	if ((unsigned int)err >= RMP_HDR_ERR_MAX)
		return -EINVAL;
	return rmp_hdr_errs[err].err;
}

/**
 * rmp_hdr_build() - write the transport headers of a packet
 * @f: field values; only those the opcode implies are used
 * @buf: where the BTH starts
 * @buf_len: room at @buf
 *
 * Writes the BTH and every extended header @f->bth.opcode implies, in wire
 * order.  Values wider than their wire field are truncated to it.
 *
 * Return: number of bytes written, -EOPNOTSUPP for an opcode rmp does not
 * know, -EMSGSIZE if @buf_len is too small.
 */
int rmp_hdr_build(const struct rmp_hdr_fields *f, void *buf, size_t buf_len)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	struct rmp_bth *bth = buf;
	u8 *p = buf;
	size_t i;

	if (!info)
		return -EOPNOTSUPP;
	if (buf_len < info->hdr_len)
		return -EMSGSIZE;

	bth->opcode = f->bth.opcode;
	rmp_bth_set_flags(bth, f->bth.se, f->bth.mig, f->bth.pad, f->bth.tver);
	bth->pkey = cpu_to_be16(f->bth.pkey);
	rmp_bth_set_qpn(bth, f->bth.qpn, f->bth.fecn, f->bth.becn);
	rmp_bth_set_psn(bth, f->bth.psn, f->bth.ackreq);
	if (f->bth.spray)
		bth->apsn |= cpu_to_be32(RMP_BTH_SPRAY);
	p += sizeof(*bth);

	for (i = 0; i < ARRAY_SIZE(rmp_ext_descs); i++) {
		const struct rmp_ext_desc *d = &rmp_ext_descs[i];

		if (!(info->flags & d->flag))
			continue;
		d->put(p, f);
		p += d->len;
	}
	return info->hdr_len;
}

static enum rmp_hdr_err rmp_hdr_check_len(const struct rmp_opcode_info *info,
					  struct rmp_hdr_fields *f,
					  size_t pkt_len)
{
	bool partial = (info->flags & (RMP_OPF_FIRST | RMP_OPF_MIDDLE)) &&
		       !(info->flags & RMP_OPF_LAST);
	size_t rest;

	if (f->bth.pad && (!(info->flags & RMP_OPF_PAYLOAD) || partial))
		return RMP_HDR_ERR_PAD;
	if (!pkt_len)
		return RMP_HDR_OK;

	if (pkt_len < (size_t)info->hdr_len + RMP_ICRC_SIZE)
		return RMP_HDR_ERR_LENGTH;
	rest = pkt_len - info->hdr_len - RMP_ICRC_SIZE;
	if (rest & 3)
		return RMP_HDR_ERR_LENGTH;
	if (!(info->flags & RMP_OPF_PAYLOAD) && rest)
		return RMP_HDR_ERR_PAYLOAD;
	if (partial && !rest)
		return RMP_HDR_ERR_PAYLOAD;
	if (f->bth.pad > rest)
		return RMP_HDR_ERR_PAD;
	f->payload_len = rest - f->bth.pad;
	return RMP_HDR_OK;
}

static enum rmp_hdr_err rmp_hdr_check_syndrome(u8 syndrome)
{
	switch (rmp_aeth_syn_type(syndrome)) {
	case RMP_AETH_ACK:
	case RMP_AETH_RNR_NAK:
		return RMP_HDR_OK;
	case RMP_AETH_NAK:
		if (rmp_aeth_syn_value(syndrome) < RMP_NAK_MAX)
			return RMP_HDR_OK;
		return RMP_HDR_ERR_SYNDROME;
	default:
		return RMP_HDR_ERR_SYNDROME;
	}
}

static enum rmp_hdr_err rmp_hdr_do_parse(struct rmp_hdr_fields *f,
					 const u8 *p, size_t buf_len,
					 size_t pkt_len)
{
	const struct rmp_bth *bth = (const struct rmp_bth *)p;
	const struct rmp_opcode_info *info;
	enum rmp_hdr_err err;
	size_t i;

	if (buf_len < sizeof(*bth))
		return RMP_HDR_ERR_SHORT;
	info = rmp_opcode_info(rmp_bth_opcode(bth));
	if (!info)
		return RMP_HDR_ERR_OPCODE;
	if (rmp_bth_tver(bth))
		return RMP_HDR_ERR_TVER;
	if (buf_len < info->hdr_len)
		return RMP_HDR_ERR_SHORT;

	memset(f, 0, sizeof(*f));
	f->bth.opcode = rmp_bth_opcode(bth);
	f->bth.se = rmp_bth_se(bth);
	f->bth.mig = rmp_bth_mig(bth);
	f->bth.pad = rmp_bth_pad(bth);
	f->bth.tver = rmp_bth_tver(bth);
	f->bth.pkey = rmp_bth_pkey(bth);
	f->bth.fecn = rmp_bth_fecn(bth);
	f->bth.becn = rmp_bth_becn(bth);
	f->bth.qpn = rmp_bth_qpn(bth);
	f->bth.ackreq = rmp_bth_ackreq(bth);
	f->bth.spray = rmp_bth_spray(bth);
	f->bth.psn = rmp_bth_psn(bth);
	f->hdr_len = info->hdr_len;
	p += sizeof(*bth);

	for (i = 0; i < ARRAY_SIZE(rmp_ext_descs); i++) {
		const struct rmp_ext_desc *d = &rmp_ext_descs[i];

		if (!(info->flags & d->flag))
			continue;
		if (d->get)
			d->get(p, f);
		p += d->len;
	}

	if (info->flags & RMP_OPF_AETH) {
		err = rmp_hdr_check_syndrome(f->aeth.syndrome);
		if (err)
			return err;
	}
	return rmp_hdr_check_len(info, f, pkt_len);
}

/**
 * rmp_hdr_parse() - validate and decode the transport headers of a packet
 * @f: filled with the decoded fields, including @f->hdr_len and, when
 *	@pkt_len is given, @f->payload_len; other members are zeroed
 * @buf: where the BTH starts
 * @buf_len: bytes readable at @buf; at least the headers, need not hold
 *	the payload
 * @pkt_len: length of the transport packet from the BTH through the ICRC
 *	(UDP length minus 8), or 0 if not known; enables the payload and pad
 *	checks that need it
 * @why: if not NULL, set to the reason for refusal, or %RMP_HDR_OK
 *
 * Return: 0 if the headers are well formed, otherwise
 * rmp_hdr_err_errno(*@why).  On failure @f may be partly filled.
 */
int rmp_hdr_parse(struct rmp_hdr_fields *f, const void *buf, size_t buf_len,
		  size_t pkt_len, enum rmp_hdr_err *why)
{
	enum rmp_hdr_err err = rmp_hdr_do_parse(f, buf, buf_len, pkt_len);

	if (why)
		*why = err;
	return rmp_hdr_err_errno(err);
}
