/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where the engine differs between the kernel and userspace.
 * Engine sources include this file and each other, nothing else.
 */
#ifndef RMP_ENGINE_COMPAT_H
#define RMP_ENGINE_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <asm/byteorder.h>

#else /* userspace */

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <endian.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef uint16_t __be16;
typedef uint32_t __be32;
typedef uint64_t __be64;
typedef uint64_t __le64;

#define cpu_to_be16(x)	((__be16)htobe16(x))
#define cpu_to_be32(x)	((__be32)htobe32(x))
#define cpu_to_be64(x)	((__be64)htobe64(x))
#define be16_to_cpu(x)	((u16)be16toh(x))
#define be32_to_cpu(x)	((u32)be32toh(x))
#define be64_to_cpu(x)	((u64)be64toh(x))
#define le64_to_cpu(x)	((u64)le64toh(x))

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#ifndef __packed
#define __packed	__attribute__((__packed__))
#endif

#ifndef __always_unused
#define __always_unused	__attribute__((__unused__))
#endif

#ifndef __force
#define __force
#endif

#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif

#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif

#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#endif

#ifndef static_assert
#define static_assert(expr, ...)	_Static_assert(expr, "" __VA_ARGS__)
#endif

#endif /* __KERNEL__ */

/* The index of the lowest set bit of @x, not 0. */
static inline unsigned int rmp_ctz64(u64 x)
{
	return __builtin_ctzll(x);
}

#endif /* RMP_ENGINE_COMPAT_H */
