/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 invariant CRC (IBTA Annex A17).
 */
#ifndef RMP_ENGINE_ICRC_H
#define RMP_ENGINE_ICRC_H

#include "compat.h"

/**
 * typedef rmp_crc32_fn - reflected CRC-32 (polynomial 0xedb88320) update
 * @crc: running CRC register; no inversion is applied on entry or exit
 * @buf: bytes to add
 * @len: number of bytes at @buf
 *
 * Same contract as the kernel's crc32_le(), which can therefore be plugged
 * in with rmp_icrc_set_crc32().
 *
 * Return: the updated CRC register.
 */
typedef u32 (*rmp_crc32_fn)(u32 crc, const u8 *buf, size_t len);

extern const u32 rmp_crc32_x8pow2[32];

u32 rmp_crc32_le(u32 crc, const u8 *buf, size_t len);
u32 rmp_crc32_copy(u32 crc, void *dst, const void *src, size_t len);
u32 rmp_crc32_mulmod(u32 a, u32 b);
u32 rmp_crc32_advance(u32 crc, size_t len);
void rmp_icrc_set_crc32(rmp_crc32_fn fn);

int rmp_icrc_compute(const void *pkt, size_t len, int ip_version, u32 *icrc);
int rmp_icrc_compute_split(const void *hdrs, size_t len, int ip_version,
			   u32 tail_crc, u32 *icrc);
int rmp_icrc_generate(void *pkt, size_t len, int ip_version,
		      const u32 *payload_crc);
int rmp_icrc_verify(const void *pkt, size_t len, int ip_version,
		    const u32 *payload_crc);

#endif /* RMP_ENGINE_ICRC_H */
