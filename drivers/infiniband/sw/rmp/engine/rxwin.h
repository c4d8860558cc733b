/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Responder receive window: out-of-order acceptance, in-order delivery and
 * the selective acknowledgment (SACK) both ends agree on.
 */
#ifndef RMP_ENGINE_RXWIN_H
#define RMP_ENGINE_RXWIN_H

#include "compat.h"
#include "psn.h"

#define RMP_RXWIN_MIN		64U
#define RMP_RXWIN_MAX		1024U
#define RMP_RXWIN_WORDS		(RMP_RXWIN_MAX / 64)
/*
 * Read spraying: a requester asks for a READ's responses to be sprayed
 * only if it takes at most this many PSNs, its window for them (a larger
 * one is answered in order on one port).
 */
#define RMP_RD_SPRAY_MAX	RMP_RXWIN_MAX

/**
 * struct rmp_rxwin - receive window of one QP
 * @epsn: next PSN expected in order; everything before it is delivered
 * @size: window size in PSNs, a power of two in
 *	[%RMP_RXWIN_MIN, %RMP_RXWIN_MAX]
 * @held: PSNs received but not yet delivered
 * @highest: highest PSN received, or @epsn - 1 when nothing is held
 * @bitmap: one bit per window slot, indexed by PSN modulo @size; a set bit
 *	is a PSN in [@epsn, @epsn + @size) that has been received
 *
 * 144 bytes per QP, whatever @size is.
 */
struct rmp_rxwin {
	u32 epsn;
	u32 size;
	u32 held;
	u32 highest;
	u64 bitmap[RMP_RXWIN_WORDS];
};

static_assert(sizeof(struct rmp_rxwin) == 16 + RMP_RXWIN_MAX / 8);

/**
 * enum rmp_rxwin_verdict - what rmp_rxwin_accept() made of a PSN
 * @RMP_RXWIN_NEW_IN_ORDER: the PSN is @epsn, now received
 * @RMP_RXWIN_NEW_OUT_OF_ORDER: inside the window after @epsn, now received
 * @RMP_RXWIN_DUPLICATE: before @epsn, or inside the window and already
 *	received; nothing changed
 * @RMP_RXWIN_BEYOND: at or after @epsn + @size; nothing changed, the caller
 *	drops the packet
 */
enum rmp_rxwin_verdict {
	RMP_RXWIN_NEW_IN_ORDER,
	RMP_RXWIN_NEW_OUT_OF_ORDER,
	RMP_RXWIN_DUPLICATE,
	RMP_RXWIN_BEYOND,
};

int rmp_rxwin_init(struct rmp_rxwin *w, u32 epsn, u32 size);
enum rmp_rxwin_verdict rmp_rxwin_accept(struct rmp_rxwin *w, u32 psn);
u32 rmp_rxwin_advance(struct rmp_rxwin *w);
bool rmp_rxwin_has(const struct rmp_rxwin *w, u32 psn);
void rmp_rxwin_move(struct rmp_rxwin *w, u32 psn);

/* SACK: cumulative ack, highest PSN received, bitmap of what lies between. */
#define RMP_SACK_VERSION	1
#define RMP_SACK_MAX_BITS	256U
#define RMP_SACK_MAX_WORDS	(RMP_SACK_MAX_BITS / 32)

/**
 * struct rmp_sack - selective acknowledgment, host form
 * @cum_ack: last PSN received in order (the responder's epsn - 1)
 * @highest: highest PSN received; equal to @cum_ack when nothing is held
 * @nbits: number of valid bits in @bitmap, rmp_sack_nbits() of the above
 * @bitmap: bit i set means PSN @cum_ack + 2 + i was received
 * @ecn: an ECN echo block (&struct rmp_ecn_echo) follows the SACK's on the
 *	wire
 *
 * PSN @cum_ack + 1 needs no bit: had it arrived, it would be acknowledged
 * cumulatively. PSNs after @cum_ack + 1 + %RMP_SACK_MAX_BITS are not
 * described; @highest tells the requester how far reception got.
 */
struct rmp_sack {
	u32 cum_ack;
	u32 highest;
	u32 nbits;
	u64 bitmap[RMP_SACK_MAX_BITS / 64];
	bool ecn;
};

/**
 * struct rmp_sack_wire - SACK payload block as carried in an ACK
 * @version: %RMP_SACK_VERSION
 * @nwords: number of @bitmap words present, at most %RMP_SACK_MAX_WORDS;
 *	trailing zero words are never sent
 * @flags: %RMP_SACK_F_ECN or zero
 * @rsvd: zero
 * @cum_ack: resv:8 PSN:24, &rmp_sack.cum_ack
 * @highest: resv:8 PSN:24, &rmp_sack.highest
 * @bitmap: word j bit k (k = 0 is the least significant) is
 *	&rmp_sack.bitmap bit 32 * j + k
 *
 * The block is 12 + 4 * @nwords bytes long, 44 at most.
 */
struct rmp_sack_wire {
	u8 version;
	u8 nwords;
	u8 flags;
	u8 rsvd;
	__be32 cum_ack;
	__be32 highest;
	__be32 bitmap[RMP_SACK_MAX_WORDS];
} __packed;

/* &rmp_sack_wire.flags: an ECN echo block follows (&rmp_sack.ecn). */
#define RMP_SACK_F_ECN		0x80

#define RMP_SACK_WIRE_MIN	offsetof(struct rmp_sack_wire, bitmap)
#define RMP_SACK_WIRE_MAX	sizeof(struct rmp_sack_wire)

static_assert(RMP_SACK_WIRE_MIN == 12);
static_assert(RMP_SACK_WIRE_MAX == 44);

/**
 * rmp_sack_nbits() - how many PSNs a SACK bitmap describes
 * @cum_ack: cumulative ack
 * @highest: highest PSN received, not before @cum_ack
 *
 * Return: the number of PSNs from @cum_ack + 2 up to @highest, capped at
 * %RMP_SACK_MAX_BITS.
 */
static inline u32 rmp_sack_nbits(u32 cum_ack, u32 highest)
{
	u32 d = rmp_psn_sub(highest, cum_ack);

	if (d < 2)
		return 0;
	return d - 1 < RMP_SACK_MAX_BITS ? d - 1 : RMP_SACK_MAX_BITS;
}

int rmp_rxwin_sack(const struct rmp_rxwin *w, struct rmp_sack *s);
bool rmp_sack_has(const struct rmp_sack *s, u32 psn);
int rmp_sack_next_hole(const struct rmp_sack *s, u32 from);
int rmp_sack_encode(const struct rmp_sack *s, void *buf, size_t len);
int rmp_sack_decode(struct rmp_sack *s, const void *buf, size_t len);

/* ECN echo: the PSNs received CE marked since the last acknowledgment. */
#define RMP_ECN_ECHO_BITS	256U
#define RMP_ECN_ECHO_WORDS	(RMP_ECN_ECHO_BITS / 32)

/**
 * struct rmp_ecn_echo - ECN echo, host form
 * @base: PSN of bit 0
 * @bitmap: bit i set means PSN @base + i arrived CE marked
 *
 * Empty when @bitmap is all zero. The responder keeps @base a multiple
 * of 64 (rmp_ecn_echo_note()); one read from the wire has any @base.
 */
struct rmp_ecn_echo {
	u32 base;
	u64 bitmap[RMP_ECN_ECHO_BITS / 64];
};

/**
 * struct rmp_ecn_echo_wire - ECN echo block as carried after a SACK's
 * @nwords_base: nwords:8 base:24; nwords, 1 to %RMP_ECN_ECHO_WORDS, is
 *	the number of @bitmap words present, the first and the last of them
 *	not zero; base is &rmp_ecn_echo.base
 * @bitmap: word j bit k (k = 0 is the least significant) is
 *	&rmp_ecn_echo.bitmap bit 32 * j + k
 *
 * The block is 4 + 4 * nwords bytes long, 8 to 36.
 */
struct rmp_ecn_echo_wire {
	__be32 nwords_base;
	__be32 bitmap[RMP_ECN_ECHO_WORDS];
} __packed;

#define RMP_ECN_ECHO_WIRE_MIN	(offsetof(struct rmp_ecn_echo_wire, bitmap) + 4)
#define RMP_ECN_ECHO_WIRE_MAX	sizeof(struct rmp_ecn_echo_wire)

static_assert(RMP_ECN_ECHO_WIRE_MIN == 8);
static_assert(RMP_ECN_ECHO_WIRE_MAX == 36);

/**
 * rmp_ecn_echo_empty() - whether an ECN echo reports nothing
 * @e: ECN echo
 *
 * Return: true if no PSN is marked.
 */
static inline bool rmp_ecn_echo_empty(const struct rmp_ecn_echo *e)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(e->bitmap); i++)
		if (e->bitmap[i])
			return false;
	return true;
}

/**
 * rmp_ecn_echo_has() - whether an ECN echo reports a PSN CE marked
 * @e: ECN echo
 * @psn: PSN to look up
 *
 * Return: true if @psn is marked.
 */
static inline bool rmp_ecn_echo_has(const struct rmp_ecn_echo *e, u32 psn)
{
	u32 i = rmp_psn_sub(psn, e->base);

	return i < RMP_ECN_ECHO_BITS && (e->bitmap[i / 64] >> (i % 64) & 1);
}

int rmp_ecn_echo_note(struct rmp_ecn_echo *e, u32 psn);
int rmp_ecn_echo_encode(const struct rmp_ecn_echo *e, void *buf, size_t len);
int rmp_ecn_echo_decode(struct rmp_ecn_echo *e, const void *buf, size_t len);

/**
 * rmp_sack_for_each_hole() - walk the PSNs a SACK reports missing
 * @s: SACK
 * @off: int cursor, distance of the hole from @s->cum_ack + 1
 *
 * Visits, in PSN order, every PSN the requester should consider for
 * retransmission; the PSN is rmp_psn_add(@s->cum_ack, 1 + @off).
 */
#define rmp_sack_for_each_hole(s, off)					\
	for ((off) = rmp_sack_next_hole(s, 0); (off) >= 0;		\
	     (off) = rmp_sack_next_hole(s, (off) + 1))

#endif /* RMP_ENGINE_RXWIN_H */
