/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Negotiation of rmp's transport extensions with the peer of an RC QP,
 * over vendor-specific management datagrams.
 */
#ifndef RMP_EXT_H
#define RMP_EXT_H

#include <linux/types.h>

struct rmp_dev;
struct rmp_qp;

/* Vendor-specific management class of range 2, which carries an OUI. */
#define RMP_EXT_MGMT_CLASS	0x30
#define RMP_EXT_CLASS_VERSION	1
/* Attribute: the extensions of one QP pair. */
#define RMP_EXT_ATTR_QP		0x0010
#define RMP_EXT_MSG_VERSION	1

/**
 * enum rmp_ext_mode - the device knob ``ext``
 * @RMP_EXT_OFF: plain RoCEv2 with every peer; asked, refuse
 * @RMP_EXT_AUTO: ask each RC peer; use the extensions with one that agrees
 * @RMP_EXT_ON: assume every RC peer is rmp: no asking (fabrics of rmp
 *	hosts only)
 */
enum rmp_ext_mode {
	RMP_EXT_OFF,
	RMP_EXT_AUTO,
	RMP_EXT_ON,
};

/**
 * enum rmp_ext_state - what a QP knows of its peer
 * @RMP_EXT_NONE: plain RoCEv2: not asked, refused, or a standard peer
 * @RMP_EXT_ASKING: a question is on its way or awaits its answer
 * @RMP_EXT_AGREED: the peer QP speaks the extensions and agreed
 */
enum rmp_ext_state {
	RMP_EXT_NONE,
	RMP_EXT_ASKING,
	RMP_EXT_AGREED,
};

/**
 * enum rmp_ext_status - the answer in &struct rmp_ext_msg
 * @RMP_EXT_ST_AGREED: the QP pair uses the extensions both speak
 * @RMP_EXT_ST_REFUSED: the answering device's ``ext`` is off
 * @RMP_EXT_ST_NO_QP: no such QP, or not connected to the asking QP
 */
enum rmp_ext_status {
	RMP_EXT_ST_AGREED,
	RMP_EXT_ST_REFUSED,
	RMP_EXT_ST_NO_QP,
};

/**
 * struct rmp_ext_msg - the data of a question or an answer
 * @version: %RMP_EXT_MSG_VERSION
 * @status: answer: &enum rmp_ext_status; question: 0
 * @reserved: 0
 * @asker_qpn: the asking QP
 * @peer_qpn: the QP asked about, the asking QP's destination QP
 * @caps: RMP_EXT_CAP_* bits the sender speaks (an answer: those both do)
 *
 * Big-endian, at the start of the vendor MAD's data; the rest is zero.
 */
struct rmp_ext_msg {
	u8 version;
	u8 status;
	__be16 reserved;
	__be32 asker_qpn;
	__be32 peer_qpn;
	__be32 caps;
} __packed;

static_assert(sizeof(struct rmp_ext_msg) == 16);

/*
 * Multipath: WRITEs sprayed over many UDP source ports, accepted out of
 * order, acknowledged with SACKs (Documentation/rmp/wire.rst).
 */
#define RMP_EXT_CAP_MULTIPATH	BIT(0)
/*
 * Receiver credit: new data only on the receiver's grants, credit asked
 * for and granted with opcodes 0xC2 and 0xC1 (Documentation/rmp/wire.rst).
 * Offered only by a device whose ``cc`` knob is ``rcc``.
 */
#define RMP_EXT_CAP_CREDIT	BIT(1)
/*
 * ECN echo: with multipath, the SACKs say which requests arrived CE
 * marked (Documentation/rmp/wire.rst).
 */
#define RMP_EXT_CAP_ECN_ECHO	BIT(2)
/*
 * Read spraying: with multipath, a READ request may ask for its responses
 * to be sprayed over the responder's paths, and its requester takes them
 * in any order (Documentation/rmp/wire.rst).
 */
#define RMP_EXT_CAP_READ_SPRAY	BIT(3)
/*
 * Read reports: with read spraying, the requester reports the READ
 * responses it received (opcode 0xC3), so the responder's paths of
 * sprayed responses die and come back (Documentation/rmp/wire.rst).
 */
#define RMP_EXT_CAP_READ_REPORT	BIT(4)
/*
 * Send spraying: with multipath, SENDs travel in pieces (opcodes 0xC4 to
 * 0xC7) that each name their receive WQE, placed in any order
 * (Documentation/rmp/wire.rst). Every RC QP offers it; one with an SRQ
 * takes the receive WQEs a piece names from the SRQ in order as it comes
 * (rmp_wqe_peek_recv()).
 */
#define RMP_EXT_CAP_SEND_SPRAY	BIT(5)

int rmp_ext_register(void);
void rmp_ext_unregister(void);
void rmp_ext_ask(struct rmp_qp *qp);
const char *rmp_ext_state_name(enum rmp_ext_state state);

#endif /* RMP_EXT_H */
