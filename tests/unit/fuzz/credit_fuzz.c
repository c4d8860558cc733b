// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: receiver credit under hostile peers. Four senders'
 * requests, data and grants carry any PSN, at any time; senders are
 * forgotten and come back. Whatever comes, the receiver's schedule stays
 * consistent and bounded, no sender holds more than a window of unused
 * credit nor is granted beyond what it asked, the timer is never due
 * again at once after a tick whose grants were all sent, and a sender's limit never passes what it
 * posted.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/credit.h"
#include "../../../drivers/infiniband/sw/rmp/engine/psn.h"

#define PEERS	4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_schedule(const struct rmp_credit_rx *rx,
			   const struct rmp_credit_peer *peers)
{
	const struct rmp_credit_peer *p;
	u32 i;

	FUZZ_CHECK(rx->nactive <= RMP_CREDIT_ACTIVE_MAX);
	for (i = 0; i < rx->nactive; i++)
		FUZZ_CHECK(rx->active[i]->slot == (int)i);
	for (i = 0; i < PEERS; i++) {
		p = &peers[i];
		FUZZ_CHECK(p->slot < (int)rx->nactive);
		if (rmp_psn_after(p->granted, p->rcvd))
			FUZZ_CHECK(rmp_psn_sub(p->granted, p->rcvd) <=
				   rx->cfg.window);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct rmp_credit_rx_cfg cfg = {};
	struct rmp_credit_peer peers[PEERS];
	u32 posted = fuzz_take(&in, 3), asked;
	struct rmp_credit_peer *p;
	struct rmp_credit_tx tx;
	struct rmp_credit_rx rx;
	u64 now = fuzz_take(&in, 2);
	u32 i, steps = 0;

	cfg.rate_kbps = 1 + fuzz_take(&in, 3);
	cfg.min_kbps = 1;
	cfg.window = 1 + fuzz_take(&in, 1) % 64;
	cfg.overcommit = 1 + fuzz_take(&in, 1) % PEERS;
	cfg.policy = fuzz_take(&in, 1) % RMP_CREDIT_POLICY_NR;
	cfg.idle_ns = 1 + fuzz_take(&in, 3);
	cfg.ecn_every = 1 + fuzz_take(&in, 1);
	cfg.ecn_period_ns = 1 + fuzz_take(&in, 3);
	cfg.burst_bytes = 1 + fuzz_take(&in, 2);
	FUZZ_CHECK(!rmp_credit_rx_init(&rx, &cfg, now));
	for (i = 0; i < PEERS; i++)
		rmp_credit_peer_init(&peers[i], 1 + fuzz_take(&in, 2),
				     fuzz_take(&in, 3));
	rmp_credit_tx_init(&tx, fuzz_take(&in, 1), 1 + fuzz_take(&in, 2),
			   posted);
	asked = posted;

	while (in.left && steps++ < 4096) {
		u32 op = fuzz_take(&in, 1);

		p = &peers[op >> 4 & (PEERS - 1)];
		switch (op % 6) {
		case 0:
			rmp_credit_rx_request(&rx, p, fuzz_take(&in, 3), now);
			break;
		case 1:
			rmp_credit_rx_data(&rx, p, rmp_psn_add(p->rcvd,
					   (u32)(int8_t)fuzz_take(&in, 1)),
					   op & 0x80, now);
			break;
		case 2:
			now += (u64)fuzz_take(&in, 2) << (fuzz_take(&in, 1) % 24);
			rmp_credit_rx_tick(&rx, now);
			while (rmp_credit_rx_take_due(&rx))
				;
			FUZZ_CHECK(rmp_credit_rx_deadline(&rx, now) > now);
			break;
		case 3:
			rmp_credit_rx_forget(&rx, p);
			if (op & 0x80)
				rmp_credit_peer_init(p, 1 + fuzz_take(&in, 2),
						     fuzz_take(&in, 3));
			break;
		case 4:
			/* A grant as the wire brings it. */
			rmp_credit_tx_grant(&tx, fuzz_take(&in, 3), asked, now);
			FUZZ_CHECK(!rmp_psn_after(tx.limit, asked));
			break;
		default:
			asked = rmp_psn_add(asked, fuzz_take(&in, 1));
			rmp_credit_tx_may_send(&tx, tx.limit, tx.limit, asked,
					       now);
			if (tx.ask)
				rmp_credit_tx_asked(&tx, now);
			break;
		}
		check_schedule(&rx, peers);
	}
	return 0;
}
