// SPDX-License-Identifier: GPL-2.0
/*
 * Responder receive window and selective acknowledgments.
 *
 * DESIGN NOTES
 *
 * The window is a circular bitmap with one bit per PSN, indexed by PSN
 * modulo the window size.  The size is a power of two and so divides 2^24:
 * a PSN keeps its slot across the wrap from 0xffffff to 0, and slots are
 * reused simply because rmp_rxwin_advance() clears the bits it moves over.
 * Advancing scans a word at a time (count trailing ones), so completing a
 * run of n PSNs costs n / 64 steps.  RMP_RXWIN_MAX is 1024: a 128-byte
 * bitmap, 144 bytes per QP, and 1 MiB in flight at the smallest MTU (4 MiB
 * at 4096), above the bandwidth-delay product of a 100 Gb/s, 50 us path.
 *
 * The SACK is a cumulative ack, the highest PSN received and a bitmap of
 * up to 256 PSNs after cum_ack + 1, trimmed of trailing zero words.  Blocks
 * ([start, end) ranges) were the alternative and lose under spraying: with
 * 64 paths, a slow or dead path leaves every 64th PSN missing, one hole per
 * path, and k blocks (8 bytes each) describe only k holes.  The bitmap
 * describes every hole in the next 256 PSNs, four per path at 64 paths,
 * whatever the pattern, in at most 32 bytes; holes further out are reported
 * once the head moves, and the head is what holds up completions.  The
 * whole block is 12 to 44 bytes, so an ACK with BTH, AETH, SACK and ICRC
 * stays under 64 bytes, far inside the 1024-byte minimum MTU; an ACK with
 * nothing held carries only the 12-byte header.
 *
 * The highest PSN received separates "missing" from "not arrived yet": a
 * hole below it was overtaken by a later packet on another path and is a
 * retransmission candidate once it is older than the paths' reordering
 * tolerance (the requester's decision); PSNs after it are simply in flight.
 *
 * A SACK from the wire is hostile.  rmp_sack_check() holds the one
 * definition of a well-formed SACK and encode and decode both apply it: the
 * span from cum_ack to highest fits in the largest window, the bitmap has
 * no bit after highest, highest's own bit is set when the bitmap reaches
 * it, and reserved bits are zero.  Every encoding is canonical, so a
 * mangled block is far more likely to be refused than misread.
 *
 * The ECN echo tells the requester which PSNs arrived CE marked, so that
 * it can blame the paths they took. It travels in the SACKs (a flag in the
 * SACK's header, a block after it) between peers that agreed to it, and
 * reports the marks taken since the previous SACK: a bitmap of up to 256
 * PSNs from a base PSN. The PSNs received between two acknowledgments lie
 * close together, however the paths reorder them; a mark that does not
 * fit in 256 PSNs with those pending is not echoed (ECN is a share, not a
 * count to keep exact), and neither are the marks of a SACK that is lost.
 * The base is a multiple of 64 at the responder, so that taking an
 * earlier PSN moves whole words; on the wire, leading and trailing zero
 * words are cut, which keeps the encoding canonical.
 */
#include "rxwin.h"

/* The low n bits, 0 < n <= 64. */
static inline u64 rmp_low_bits(u32 n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

/**
 * rmp_rxwin_init() - set up an empty receive window
 * @w: window
 * @epsn: first PSN expected
 * @size: number of PSNs the window spans, a power of two in
 *	[%RMP_RXWIN_MIN, %RMP_RXWIN_MAX]
 *
 * Return: 0, or -EINVAL if @size is not acceptable; @w is then untouched.
 */
int rmp_rxwin_init(struct rmp_rxwin *w, u32 epsn, u32 size)
{
	if (size < RMP_RXWIN_MIN || size > RMP_RXWIN_MAX || (size & (size - 1)))
		return -EINVAL;

	memset(w, 0, sizeof(*w));
	w->epsn = rmp_psn_mask(epsn);
	w->size = size;
	w->highest = rmp_psn_sub(w->epsn, 1);
	return 0;
}

/**
 * rmp_rxwin_accept() - classify an arriving PSN and record it
 * @w: window
 * @psn: PSN of the packet
 *
 * A new PSN is marked received; rmp_rxwin_advance() later delivers it once
 * everything before it has arrived.  A duplicate or a PSN beyond the window
 * changes nothing.
 *
 * Return: the &enum rmp_rxwin_verdict for @psn.
 */
enum rmp_rxwin_verdict rmp_rxwin_accept(struct rmp_rxwin *w, u32 psn)
{
	s32 d = rmp_psn_diff(psn, w->epsn);
	u32 slot;
	u64 bit;

	if (d < 0)
		return RMP_RXWIN_DUPLICATE;
	if (d >= (s32)w->size)
		return RMP_RXWIN_BEYOND;

	psn = rmp_psn_mask(psn);
	slot = psn & (w->size - 1);
	bit = 1ULL << (slot % 64);
	if (w->bitmap[slot / 64] & bit)
		return RMP_RXWIN_DUPLICATE;

	w->bitmap[slot / 64] |= bit;
	w->held++;
	if (rmp_psn_after(psn, w->highest))
		w->highest = psn;
	return d ? RMP_RXWIN_NEW_OUT_OF_ORDER : RMP_RXWIN_NEW_IN_ORDER;
}

/**
 * rmp_rxwin_advance() - deliver the received run at the head of the window
 * @w: window
 *
 * Moves @w->epsn past every PSN received contiguously from it and frees
 * their slots.
 *
 * Return: the number of PSNs that became deliverable, in order, starting at
 * the old @w->epsn; 0 if @w->epsn itself has not arrived.
 */
u32 rmp_rxwin_advance(struct rmp_rxwin *w)
{
	u32 mask = w->size - 1;
	u32 slot = w->epsn & mask;
	u32 n = 0;

	for (;;) {
		u64 *word = &w->bitmap[slot / 64];
		u32 off = slot % 64;
		u64 ones = ~(*word >> off);
		u32 run;

		/* Bits shifted in from above are zero, so a run stops at the
		 * word's end and the next word continues it.
		 */
		run = ones ? rmp_ctz64(ones) : 64;
		if (!run)
			break;
		*word &= ~(rmp_low_bits(run) << off);
		n += run;
		slot = (slot + run) & mask;
		if (off + run < 64)
			break;
	}

	w->held -= n;
	w->epsn = rmp_psn_add(w->epsn, n);
	return n;
}

/**
 * rmp_rxwin_has() - whether a PSN has been received
 * @w: window
 * @psn: PSN to look up
 *
 * Return: true if @psn is before @w->epsn or held in the window.
 */
bool rmp_rxwin_has(const struct rmp_rxwin *w, u32 psn)
{
	s32 d = rmp_psn_diff(psn, w->epsn);
	u32 slot;

	if (d < 0)
		return true;
	if (d >= (s32)w->size)
		return false;
	slot = psn & (w->size - 1);
	return w->bitmap[slot / 64] >> (slot % 64) & 1;
}

/**
 * rmp_rxwin_move() - take PSNs as delivered that arrived some other way
 * @w: window
 * @psn: the new expected PSN; one not after @w->epsn changes nothing
 *
 * Moves @w->epsn to @psn, forgetting what was held before it. The
 * requester's window of READ responses follows its oldest unacknowledged
 * PSN this way over the PSNs that an ACK, not a response, covered.
 */
void rmp_rxwin_move(struct rmp_rxwin *w, u32 psn)
{
	u32 n, slot;

	if (!rmp_psn_after(psn, w->epsn))
		return;
	n = rmp_psn_sub(psn, w->epsn);
	if (n >= w->size) {
		memset(w->bitmap, 0, sizeof(w->bitmap));
		w->held = 0;
	}
	for (; w->held && n; n--) {
		slot = w->epsn & (w->size - 1);
		if (w->bitmap[slot / 64] >> (slot % 64) & 1) {
			w->bitmap[slot / 64] &= ~(1ULL << (slot % 64));
			w->held--;
		}
		w->epsn = rmp_psn_add(w->epsn, 1);
	}
	w->epsn = rmp_psn_mask(psn);
	if (!w->held)
		w->highest = rmp_psn_sub(w->epsn, 1);
}

/* 64 window bits starting at @slot, wrapping around the circular bitmap. */
static u64 rmp_rxwin_bits64(const struct rmp_rxwin *w, u32 slot)
{
	u32 nwords = w->size / 64;
	u32 i = slot / 64, off = slot % 64;
	u64 x = w->bitmap[i] >> off;

	if (off)
		x |= w->bitmap[(i + 1) % nwords] << (64 - off);
	return x;
}

/**
 * rmp_rxwin_sack() - describe the window for an acknowledgment
 * @w: window, advanced with rmp_rxwin_advance() since its last accept
 * @s: filled in
 *
 * Return: 0, or -EAGAIN if @w->epsn has been received but not advanced
 * over; @s is then untouched.
 */
int rmp_rxwin_sack(const struct rmp_rxwin *w, struct rmp_sack *s)
{
	u32 mask = w->size - 1;
	u32 base = rmp_psn_add(w->epsn, 1);
	u32 i;

	if (rmp_rxwin_has(w, w->epsn))
		return -EAGAIN;

	memset(s, 0, sizeof(*s));
	s->cum_ack = rmp_psn_sub(w->epsn, 1);
	s->highest = w->highest;
	s->nbits = rmp_sack_nbits(s->cum_ack, s->highest);
	for (i = 0; i < s->nbits; i += 64)
		s->bitmap[i / 64] = rmp_rxwin_bits64(w, (base + i) & mask) &
				    rmp_low_bits(s->nbits - i);
	return 0;
}

/* The one definition of a well-formed SACK, for both directions. */
static int rmp_sack_check(const struct rmp_sack *s)
{
	u32 d = rmp_psn_sub(s->highest, s->cum_ack);
	u32 i;

	if ((s->cum_ack | s->highest) & ~RMP_PSN_MASK)
		return -EINVAL;
	/* cum_ack + 1 cannot be held: it would have been acked. */
	if (d == 1 || d > RMP_RXWIN_MAX)
		return -EINVAL;
	if (s->nbits != rmp_sack_nbits(s->cum_ack, s->highest))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(s->bitmap); i++) {
		u64 valid = 0;

		if (s->nbits > i * 64)
			valid = rmp_low_bits(s->nbits - i * 64);
		if (s->bitmap[i] & ~valid)
			return -EINVAL;
	}
	if (d >= 2 && d - 2 < RMP_SACK_MAX_BITS &&
	    !(s->bitmap[(d - 2) / 64] >> ((d - 2) % 64) & 1))
		return -EINVAL;
	return 0;
}

/**
 * rmp_sack_has() - whether a SACK reports a PSN as received
 * @s: well-formed SACK
 * @psn: PSN to look up
 *
 * Return: true if @psn is acknowledged cumulatively, set in the bitmap or
 * is @s->highest; false if it is missing or the SACK does not describe it.
 */
bool rmp_sack_has(const struct rmp_sack *s, u32 psn)
{
	s32 d = rmp_psn_diff(psn, s->cum_ack);
	u32 i;

	if (d <= 0)
		return true;
	if (s->highest != s->cum_ack && rmp_psn_mask(psn) == s->highest)
		return true;
	if (d == 1)
		return false;
	i = d - 2;
	return i < s->nbits && (s->bitmap[i / 64] >> (i % 64) & 1);
}

/**
 * rmp_sack_next_hole() - find the next PSN a SACK reports missing
 * @s: well-formed SACK
 * @from: distance from @s->cum_ack + 1 to start looking at
 *
 * The holes are @s->cum_ack + 1 whenever anything is held, then every PSN
 * whose bitmap bit is clear.  PSNs between the end of the bitmap and
 * @s->highest are not reported: their state is unknown, and a later SACK
 * will describe them once the head has moved.
 *
 * Return: the distance from @s->cum_ack + 1 of the first hole at or after
 * @from, or -ENOENT if there is none.
 */
int rmp_sack_next_hole(const struct rmp_sack *s, u32 from)
{
	u32 i;

	if (s->highest == s->cum_ack)
		return -ENOENT;
	if (!from)
		return 0;

	for (i = from - 1; i < s->nbits; i = (i / 64 + 1) * 64) {
		u64 missing = ~s->bitmap[i / 64] >> (i % 64);

		if (missing) {
			i += rmp_ctz64(missing);
			return i < s->nbits ? (int)i + 1 : -ENOENT;
		}
	}
	return -ENOENT;
}

/**
 * rmp_sack_encode() - write a SACK payload block
 * @s: SACK, normally from rmp_rxwin_sack()
 * @buf: destination, any alignment
 * @len: bytes available at @buf
 *
 * Return: the number of bytes written (%RMP_SACK_WIRE_MIN to
 * %RMP_SACK_WIRE_MAX), -EINVAL if @s is not well formed, or -ENOSPC if
 * @len is too small.
 */
int rmp_sack_encode(const struct rmp_sack *s, void *buf, size_t len)
{
	struct rmp_sack_wire *p = buf;
	u32 nwords = 0, j;
	size_t need;

	if (rmp_sack_check(s))
		return -EINVAL;

	for (j = 0; j < RMP_SACK_MAX_WORDS; j++)
		if ((u32)(s->bitmap[j / 2] >> (j % 2 * 32)))
			nwords = j + 1;
	need = RMP_SACK_WIRE_MIN + nwords * sizeof(__be32);
	if (len < need)
		return -ENOSPC;

	p->version = RMP_SACK_VERSION;
	p->nwords = nwords;
	p->flags = s->ecn ? RMP_SACK_F_ECN : 0;
	p->rsvd = 0;
	p->cum_ack = cpu_to_be32(s->cum_ack);
	p->highest = cpu_to_be32(s->highest);
	for (j = 0; j < nwords; j++)
		p->bitmap[j] = cpu_to_be32((u32)(s->bitmap[j / 2] >>
						 (j % 2 * 32)));
	return (int)need;
}

/**
 * rmp_sack_decode() - read and validate a SACK payload block
 * @s: filled in on success, untouched otherwise
 * @buf: received bytes, any alignment
 * @len: bytes available at @buf; bytes after the block are not read
 *
 * Return: the length of the block in bytes, or -EINVAL if it is truncated,
 * of another version, or not a well-formed SACK.
 */
int rmp_sack_decode(struct rmp_sack *s, const void *buf, size_t len)
{
	const struct rmp_sack_wire *p = buf;
	struct rmp_sack t = {};
	size_t need;
	u32 j;

	if (len < RMP_SACK_WIRE_MIN)
		return -EINVAL;
	if (p->version != RMP_SACK_VERSION || p->rsvd ||
	    (p->flags & ~RMP_SACK_F_ECN) || p->nwords > RMP_SACK_MAX_WORDS)
		return -EINVAL;
	need = RMP_SACK_WIRE_MIN + p->nwords * sizeof(__be32);
	if (len < need)
		return -EINVAL;
	if (p->nwords && !p->bitmap[p->nwords - 1])
		return -EINVAL;

	t.cum_ack = be32_to_cpu(p->cum_ack);
	t.highest = be32_to_cpu(p->highest);
	t.ecn = p->flags & RMP_SACK_F_ECN;
	t.nbits = rmp_sack_nbits(t.cum_ack, t.highest);
	for (j = 0; j < p->nwords; j++)
		t.bitmap[j / 2] |= (u64)be32_to_cpu(p->bitmap[j]) << (j % 2 * 32);
	if (rmp_sack_check(&t))
		return -EINVAL;

	*s = t;
	return (int)need;
}

/**
 * rmp_ecn_echo_note() - a PSN arrived CE marked
 * @e: pending ECN echo, empty or as earlier calls left it
 * @psn: the PSN, new to the receive window
 *
 * Return: 0, or -ENOSPC if @psn does not fit with the PSNs already marked
 * (more than %RMP_ECN_ECHO_BITS apart); @e is then unchanged.
 */
int rmp_ecn_echo_note(struct rmp_ecn_echo *e, u32 psn)
{
	const u32 nwords = ARRAY_SIZE(e->bitmap);
	u32 first = rmp_psn_mask(psn) & ~63U, shift, i;

	if (rmp_ecn_echo_empty(e)) {
		e->base = first;
	} else if (rmp_psn_before(first, e->base)) {
		shift = rmp_psn_sub(e->base, first) / 64;
		if (shift >= nwords)
			return -ENOSPC;
		for (i = nwords - shift; i < nwords; i++)
			if (e->bitmap[i])
				return -ENOSPC;
		memmove(&e->bitmap[shift], e->bitmap,
			(nwords - shift) * sizeof(e->bitmap[0]));
		memset(e->bitmap, 0, shift * sizeof(e->bitmap[0]));
		e->base = first;
	}
	i = rmp_psn_sub(psn, e->base);
	if (i >= RMP_ECN_ECHO_BITS)
		return -ENOSPC;
	e->bitmap[i / 64] |= 1ULL << (i % 64);
	return 0;
}

/* Word @j (32 bits) of an ECN echo's bitmap. */
static u32 rmp_ecn_echo_word(const struct rmp_ecn_echo *e, u32 j)
{
	return (u32)(e->bitmap[j / 2] >> (j % 2 * 32));
}

/**
 * rmp_ecn_echo_encode() - write an ECN echo block
 * @e: ECN echo, not empty
 * @buf: destination, any alignment
 * @len: bytes available at @buf
 *
 * Return: the number of bytes written (%RMP_ECN_ECHO_WIRE_MIN to
 * %RMP_ECN_ECHO_WIRE_MAX), -EINVAL if @e is empty, or -ENOSPC if @len is
 * too small.
 */
int rmp_ecn_echo_encode(const struct rmp_ecn_echo *e, void *buf, size_t len)
{
	struct rmp_ecn_echo_wire *p = buf;
	u32 first = RMP_ECN_ECHO_WORDS, last = 0, j;
	size_t need;

	for (j = 0; j < RMP_ECN_ECHO_WORDS; j++) {
		if (!rmp_ecn_echo_word(e, j))
			continue;
		if (first == RMP_ECN_ECHO_WORDS)
			first = j;
		last = j;
	}
	if (first == RMP_ECN_ECHO_WORDS)
		return -EINVAL;
	need = offsetof(struct rmp_ecn_echo_wire, bitmap) +
	       (last - first + 1) * sizeof(__be32);
	if (len < need)
		return -ENOSPC;
	p->nwords_base = cpu_to_be32((last - first + 1) << 24 |
				     rmp_psn_add(e->base, 32 * first));
	for (j = first; j <= last; j++)
		p->bitmap[j - first] = cpu_to_be32(rmp_ecn_echo_word(e, j));
	return (int)need;
}

/**
 * rmp_ecn_echo_decode() - read and validate an ECN echo block
 * @e: filled in on success, untouched otherwise
 * @buf: received bytes, any alignment
 * @len: bytes available at @buf; bytes after the block are not read
 *
 * Return: the length of the block in bytes, or -EINVAL if it is truncated
 * or not in its one encoding (a word count of 0 or above
 * %RMP_ECN_ECHO_WORDS, a zero first or last word).
 */
int rmp_ecn_echo_decode(struct rmp_ecn_echo *e, const void *buf, size_t len)
{
	const struct rmp_ecn_echo_wire *p = buf;
	struct rmp_ecn_echo t = {};
	u32 head, nwords, j;
	size_t need;

	if (len < RMP_ECN_ECHO_WIRE_MIN)
		return -EINVAL;
	head = be32_to_cpu(p->nwords_base);
	nwords = head >> 24;
	if (!nwords || nwords > RMP_ECN_ECHO_WORDS)
		return -EINVAL;
	need = offsetof(struct rmp_ecn_echo_wire, bitmap) +
	       nwords * sizeof(__be32);
	if (len < need || !p->bitmap[0] || !p->bitmap[nwords - 1])
		return -EINVAL;
	t.base = head & RMP_PSN_MASK;
	for (j = 0; j < nwords; j++)
		t.bitmap[j / 2] |= (u64)be32_to_cpu(p->bitmap[j]) <<
				   (j % 2 * 32);
	*e = t;
	return (int)need;
}
