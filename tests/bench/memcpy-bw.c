// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy bandwidth of one thread, the ceiling of a software RDMA device
 * (every payload is copied at least once by a CPU).
 *
 *   memcpy-bw [KIB] [SECONDS]   copy blocks of KIB KiB (default 1024) for
 *                               SECONDS (default 1); prints MiB/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 1024) << 10;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	/* Rotate through 64 MiB (at least two blocks) so large blocks come
	 * from memory and small ones from cache, as a device would see them.
	 */
	size_t span = len > (32 << 20) ? 2 * len : 64 << 20;
	size_t blocks = span / len, i = 0;
	unsigned char *src, *dst;
	double t0, t;
	unsigned long n = 0;

	if (!len)
		return 2;
	src = malloc(span);
	dst = malloc(span);
	if (!src || !dst) {
		perror("memcpy-bw");
		return 1;
	}
	memset(src, 0x5a, span);
	memset(dst, 0, span);
	t0 = now();
	do {
		memcpy(dst + i * len, src + i * len, len);
		i = (i + 1) % blocks;
		n++;
	} while ((t = now() - t0) < secs);
	printf("%.0f\n", (double)n * len / t / (1 << 20));
	/* Read the copies back so the compiler keeps them. */
	return dst[(blocks - 1) * len] != 0x5a && n >= blocks;
}
