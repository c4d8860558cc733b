/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * Two RC QPs of one device connected to each other (loopback), for the
 * librmpdv example and test program. Plain libibverbs.
 */
#ifndef RMPDV_LOOPBACK_H
#define RMPDV_LOOPBACK_H

#include <stddef.h>
#include <infiniband/verbs.h>

struct lb_end {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
};

struct lb {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int gid_index;
	union ibv_gid gid;
	struct lb_end a, b;
};

struct ibv_context *lb_open(const char *name);
int lb_create(struct lb *lb, struct ibv_context *ctx, enum ibv_qp_type type);
int lb_connect(struct lb *lb);
int lb_write(struct lb *lb, size_t size);
void lb_destroy(struct lb *lb);

#endif /* RMPDV_LOOPBACK_H */
