// SPDX-License-Identifier: GPL-2.0
/*
 * roce-fuzz: send malformed and mutated RoCEv2 packets over IPv4 from a raw
 * socket, aimed at established QPs: every opcode rmp knows and random ones,
 * boundary and random values in every header field, PSNs around the
 * expected one, addresses around a registered window with its keys and
 * hostile lengths, truncations, flipped bits, wrong ICRCs. Most packets
 * carry a correct ICRC (the engine's own), so they reach the transport.
 *
 *   roce-fuzz SRC DST COUNT SEED PSN VA LEN QPN[,QPN...] RKEY[,RKEY...]
 *
 * Root only (raw socket). Prints the number of packets sent.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../drivers/infiniband/sw/rmp/engine/hdr.h"
#include "../../drivers/infiniband/sw/rmp/engine/icrc.h"

#define MAX_KEYS	16
#define IP_UDP		28
#define ROCE_PORT	4791

static const u8 opcodes[] = {
	RMP_OP_RC_SEND_FIRST, RMP_OP_RC_SEND_MIDDLE, RMP_OP_RC_SEND_LAST,
	RMP_OP_RC_SEND_LAST_IMM, RMP_OP_RC_SEND_ONLY, RMP_OP_RC_SEND_ONLY_IMM,
	RMP_OP_RC_WRITE_FIRST, RMP_OP_RC_WRITE_MIDDLE, RMP_OP_RC_WRITE_LAST,
	RMP_OP_RC_WRITE_LAST_IMM, RMP_OP_RC_WRITE_ONLY,
	RMP_OP_RC_WRITE_ONLY_IMM, RMP_OP_RC_READ_REQUEST,
	RMP_OP_RC_READ_RESPONSE_FIRST, RMP_OP_RC_READ_RESPONSE_MIDDLE,
	RMP_OP_RC_READ_RESPONSE_LAST, RMP_OP_RC_READ_RESPONSE_ONLY,
	RMP_OP_RC_ACKNOWLEDGE, RMP_OP_RC_ATOMIC_ACKNOWLEDGE,
	RMP_OP_RC_COMPARE_SWAP, RMP_OP_RC_FETCH_ADD, RMP_OP_RC_SEND_LAST_INV,
	RMP_OP_RC_SEND_ONLY_INV, RMP_OP_RC_ATOMIC_WRITE,
	RMP_OP_UC_SEND_ONLY, RMP_OP_UC_WRITE_FIRST, RMP_OP_UC_WRITE_ONLY,
	RMP_OP_UD_SEND_ONLY, RMP_OP_UD_SEND_ONLY_IMM, RMP_OP_CNP,
};

static u64 rng;

static void put16(u8 *p, u16 v)
{
	v = htons(v);
	memcpy(p, &v, sizeof(v));
}

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(rng >> 16);
}

static u64 rnd64(void)
{
	return (u64)rnd() << 32 | rnd();
}

/* A length at or around a boundary, or anything. */
static u32 boundary(void)
{
	static const u32 v[] = {
		0, 1, 3, 4, 7, 8, 9, 255, 256, 1023, 1024, 1025, 2048, 4095,
		4096, 4097, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
	};

	return rnd() % 4 ? v[rnd() % (sizeof(v) / sizeof(v[0]))] : rnd();
}

static u32 pick(const u32 *list, u32 n)
{
	return rnd() % 8 ? list[rnd() % n] : rnd();
}

static u32 parse_list(char *s, u32 *out)
{
	u32 n = 0;
	char *tok;

	for (tok = strtok(s, ","); tok && n < MAX_KEYS; tok = strtok(NULL, ","))
		out[n++] = strtoul(tok, NULL, 0);
	return n;
}

/* An address in or around the window [va, va + len), or anywhere. */
static u64 address(u64 va, u32 len)
{
	switch (rnd() % 6) {
	case 0:
		return va;
	case 1:
		return va + len - 8;
	case 2:
		return va + len - (rnd() % 64);
	case 3:
		return va - 8 * (1 + rnd() % 8);
	case 4:
		return va + rnd() % (len + 64);
	default:
		return rnd() % 2 ? rnd64() : (u64)-16;
	}
}

int main(int argc, char **argv)
{
	u32 qpns[MAX_KEYS], rkeys[MAX_KEYS], nqpn, nkey, psn, len;
	unsigned long count, i, sent = 0;
	struct sockaddr_in dst = { .sin_family = AF_INET };
	u8 pkt[IP_UDP + 64 + 1404 + 4];
	struct in_addr src_ip;
	u64 va;
	int fd, one = 1;

	if (argc != 10) {
		fprintf(stderr, "usage: %s SRC DST COUNT SEED PSN VA LEN QPN[,QPN...] RKEY[,RKEY...]\n",
			argv[0]);
		return 2;
	}
	if (!inet_aton(argv[1], &src_ip) || !inet_aton(argv[2], &dst.sin_addr)) {
		fprintf(stderr, "roce-fuzz: bad address\n");
		return 2;
	}
	count = strtoul(argv[3], NULL, 0);
	rng = strtoull(argv[4], NULL, 0) * 2654435761ULL + 1;
	psn = strtoul(argv[5], NULL, 0);
	va = strtoull(argv[6], NULL, 0);
	len = strtoul(argv[7], NULL, 0);
	nqpn = parse_list(argv[8], qpns);
	nkey = parse_list(argv[9], rkeys);
	if (!nqpn || !nkey) {
		fprintf(stderr, "roce-fuzz: no QPN or no rkey\n");
		return 2;
	}

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one,
				 sizeof(one))) {
		perror("roce-fuzz: raw socket");
		return 1;
	}

	for (i = 0; i < count; i++) {
		const struct rmp_opcode_info *info;
		struct rmp_hdr_fields f = {};
		u8 *bth = pkt + IP_UDP;
		u32 payload, total, j;
		int hlen;

		f.bth.opcode = rnd() % 10 ? opcodes[rnd() % sizeof(opcodes)] :
					    rnd();
		f.bth.se = rnd() & 1;
		f.bth.mig = rnd() % 16 == 0;
		f.bth.tver = rnd() % 32 ? 0 : rnd();
		f.bth.pkey = rnd() % 16 ? 0xffff : rnd();
		f.bth.fecn = rnd() % 8 == 0;
		f.bth.becn = rnd() % 8 == 0;
		f.bth.qpn = pick(qpns, nqpn);
		f.bth.ackreq = rnd() & 1;
		f.bth.psn = rnd() % 4 ? psn + (rnd() % 17) - 8 :
			    rnd() % 2 ? psn + rnd() % 0x1000 : rnd();
		f.reth.va = address(va, len);
		f.reth.rkey = pick(rkeys, nkey);
		f.reth.len = boundary();
		f.aeth.syndrome = rnd();
		f.aeth.msn = rnd();
		f.imm = rnd();
		f.ieth.rkey = pick(rkeys, nkey);
		f.deth.qkey = rnd() % 2 ? 0x80010000 : rnd();
		f.deth.sqpn = rnd();
		f.atmeth.va = address(va, len);
		f.atmeth.rkey = pick(rkeys, nkey);
		f.atmeth.swap_add = rnd64();
		f.atmeth.compare = rnd64();
		f.atmack.orig = rnd64();

		/*
		 * Mostly a payload the opcode can carry, with the pad that
		 * rounds it to words; sometimes anything.
		 */
		info = rmp_opcode_info(f.bth.opcode);
		if (info && !(info->flags & RMP_OPF_PAYLOAD) && rnd() % 8)
			payload = 0;
		else
			payload = boundary() % 1401;
		f.bth.pad = rnd() % 4 ? rmp_hdr_pad(payload) : rnd() % 4;
		if (f.bth.pad == rmp_hdr_pad(payload))
			payload += f.bth.pad;

		hlen = rmp_hdr_build(&f, bth, 64);
		if (hlen < 0) {
			/* An opcode rmp does not know: a BTH and noise. */
			for (j = 0; j < 64; j++)
				bth[j] = rnd();
			bth[0] = f.bth.opcode;
			hlen = 12 + rnd() % 52;
		}
		for (j = 0; j < payload; j++)
			bth[hlen + j] = rnd();
		total = hlen + payload + 4;
		/* Flipped bits in the headers. */
		if (rnd() % 16 == 0)
			bth[rnd() % hlen] ^= 1 << (rnd() % 8);

		/* IPv4 and UDP; the kernel fills in the IP checksum. */
		memset(pkt, 0, IP_UDP);
		pkt[0] = 0x45;
		put16(pkt + 2, IP_UDP + total);
		put16(pkt + 4, rnd());
		put16(pkt + 6, 0x4000);
		pkt[8] = 64;
		pkt[9] = IPPROTO_UDP;
		memcpy(pkt + 12, &src_ip, 4);
		memcpy(pkt + 16, &dst.sin_addr, 4);
		put16(pkt + 20, 0xc000 | (rnd() & 0x3fff));
		put16(pkt + 22, ROCE_PORT);
		put16(pkt + 24, 8 + total);
		if (rmp_icrc_generate(pkt, IP_UDP + total, 4, NULL) ||
		    rnd() % 16 == 0)
			pkt[IP_UDP + total - 1] ^= 0x5a;
		/* Cut short, or the UDP length made to lie. */
		if (rnd() % 32 == 0)
			total = rnd() % total;
		if (rnd() % 64 == 0)
			put16(pkt + 24, rnd());
		put16(pkt + 2, IP_UDP + total);
		if (sendto(fd, pkt, IP_UDP + total, 0, (struct sockaddr *)&dst,
			   sizeof(dst)) >= 0)
			sent++;
	}
	printf("%lu\n", sent);
	return 0;
}
