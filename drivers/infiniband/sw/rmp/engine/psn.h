/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 24-bit packet sequence number arithmetic.
 *
 * PSNs live in a circular space of 2^24 values.  Ordering follows the IBTA
 * half-space rule: @a is before @b when (@a - @b) mod 2^24 lies in the upper
 * half of the space, i.e. is at least 2^23.  At a distance of exactly 2^23
 * each PSN is therefore "before" the other; callers keep their windows well
 * below that.
 */
#ifndef RMP_ENGINE_PSN_H
#define RMP_ENGINE_PSN_H

#include "compat.h"

#define RMP_PSN_BITS	24
#define RMP_PSN_MASK	0x00ffffffU
#define RMP_PSN_HALF	0x00800000U

/**
 * rmp_psn_mask() - reduce a value to the 24-bit PSN space
 * @psn: value that may carry bits above bit 23
 *
 * Return: @psn modulo 2^24.
 */
static inline u32 rmp_psn_mask(u32 psn)
{
	return psn & RMP_PSN_MASK;
}

/**
 * rmp_psn_add() - advance a PSN, wrapping at 2^24
 * @psn: starting PSN
 * @n: number of packets to advance by
 *
 * Return: (@psn + @n) modulo 2^24.
 */
static inline u32 rmp_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RMP_PSN_MASK;
}

/**
 * rmp_psn_sub() - step a PSN back, wrapping at 2^24
 * @psn: starting PSN
 * @n: number of packets to step back by
 *
 * Return: (@psn - @n) modulo 2^24.
 */
static inline u32 rmp_psn_sub(u32 psn, u32 n)
{
	return (psn - n) & RMP_PSN_MASK;
}

/**
 * rmp_psn_diff() - signed distance between two PSNs
 * @a: first PSN
 * @b: second PSN
 *
 * Return: (@a - @b) modulo 2^24, sign-extended from 24 bits, so the result
 * lies in [-2^23, 2^23 - 1] and is negative exactly when @a is before @b.
 */
static inline s32 rmp_psn_diff(u32 a, u32 b)
{
	u32 d = (a - b) & RMP_PSN_MASK;

	if (d & RMP_PSN_HALF)
		return (s32)d - (s32)(RMP_PSN_MASK + 1);
	return (s32)d;
}

/**
 * rmp_psn_before() - whether @a precedes @b
 * @a: first PSN
 * @b: second PSN
 *
 * Return: true if (@a - @b) mod 2^24 is in the upper half of the space.
 */
static inline bool rmp_psn_before(u32 a, u32 b)
{
	return rmp_psn_diff(a, b) < 0;
}

/**
 * rmp_psn_before_eq() - whether @a precedes or equals @b
 * @a: first PSN
 * @b: second PSN
 *
 * Return: true if @a is before @b or the two are equal modulo 2^24.
 */
static inline bool rmp_psn_before_eq(u32 a, u32 b)
{
	return rmp_psn_diff(a, b) <= 0;
}

/**
 * rmp_psn_after() - whether @a follows @b
 * @a: first PSN
 * @b: second PSN
 *
 * Return: true if (@a - @b) mod 2^24 is non-zero and in the lower half.
 */
static inline bool rmp_psn_after(u32 a, u32 b)
{
	return rmp_psn_diff(a, b) > 0;
}

/**
 * rmp_psn_after_eq() - whether @a follows or equals @b
 * @a: first PSN
 * @b: second PSN
 *
 * Return: true if @a is after @b or the two are equal modulo 2^24.
 */
static inline bool rmp_psn_after_eq(u32 a, u32 b)
{
	return rmp_psn_diff(a, b) >= 0;
}

/**
 * rmp_psn_in_window() - whether a PSN falls inside a window
 * @psn: PSN to test
 * @start: first PSN of the window
 * @len: number of PSNs in the window, at most 2^24
 *
 * The window may straddle the wrap from 0xffffff to 0.
 *
 * Return: true if @psn is one of @start, @start + 1, ..., @start + @len - 1
 * (modulo 2^24).
 */
static inline bool rmp_psn_in_window(u32 psn, u32 start, u32 len)
{
	return ((psn - start) & RMP_PSN_MASK) < len;
}

#endif /* RMP_ENGINE_PSN_H */
