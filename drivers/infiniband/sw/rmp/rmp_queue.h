/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp queues: the rings of the Soft-RoCE user ABI (send, receive and shared
 * receive queues, completion queues), mapped into the process that owns
 * them or kept in the kernel for kernel verbs consumers.
 */
#ifndef RMP_QUEUE_H
#define RMP_QUEUE_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

/**
 * enum rmp_queue_role - which side of a ring rmp is
 * @RMP_QUEUE_RMP_CONSUMES: rmp consumes what the poster produces (SQ, RQ,
 *	SRQ)
 * @RMP_QUEUE_RMP_PRODUCES: rmp produces what the poller consumes (CQ)
 */
enum rmp_queue_role {
	RMP_QUEUE_RMP_CONSUMES,
	RMP_QUEUE_RMP_PRODUCES,
};

/**
 * struct rmp_queue - one ring in the &struct rxe_queue_buf layout
 * @buf: the ring header and slots
 * @buf_size: bytes in @buf
 * @mmap: the user's mapping of @buf, NULL for a kernel queue; when set it
 *	owns @buf, which then lives until the process unmaps it
 * @role: the side rmp plays
 * @index: rmp's own index (consumer or producer, by @role). The copy in @buf
 *	is for the other side to read; rmp never trusts what a user process
 *	writes there beyond masking it into range.
 * @mask: number of slots minus one
 * @elem_shift: log2 of the slot size
 *
 * A ring of N slots holds N - 1 entries: it is full when the producer is one
 * behind the consumer. Neither side takes a lock the other side knows of;
 * release stores of the indices publish the slots, acquire loads see them.
 */
struct rmp_queue {
	struct rxe_queue_buf *buf;
	size_t buf_size;
	struct rdma_user_mmap_entry *mmap;
	enum rmp_queue_role role;
	u32 index;
	u32 mask;
	u32 elem_shift;
};

int rmp_queue_init(struct rmp_queue *q, struct ib_udata *udata,
		   enum rmp_queue_role role, u32 *num_elem, size_t elem_size,
		   struct mminfo *mi);
void rmp_queue_destroy(struct rmp_queue *q);
int rmp_queue_resize_prepare(struct rmp_queue *new, const struct rmp_queue *q,
			     struct ib_udata *udata, u32 *num_elem,
			     struct mminfo *mi);
int rmp_queue_resize_commit(struct rmp_queue *q, struct rmp_queue *new);

int rmp_queue_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void rmp_queue_mmap_free(struct rdma_user_mmap_entry *entry);

/**
 * rmp_queue_producer() - the producer index
 * @q: queue
 *
 * Return: rmp's own index if rmp produces, else the poster's index loaded
 * with acquire semantics, so the slots before it are visible.
 */
static inline u32 rmp_queue_producer(const struct rmp_queue *q)
{
	if (q->role == RMP_QUEUE_RMP_PRODUCES)
		return q->index;
	/* Pairs with the poster's release of the index: slots are visible. */
	return smp_load_acquire(&q->buf->producer_index) & q->mask;
}

/**
 * rmp_queue_consumer() - the consumer index
 * @q: queue
 *
 * Return: rmp's own index if rmp consumes, else the poller's index loaded
 * with acquire semantics, so the slots before it are free.
 */
static inline u32 rmp_queue_consumer(const struct rmp_queue *q)
{
	if (q->role == RMP_QUEUE_RMP_CONSUMES)
		return q->index;
	/* Pairs with the poller's release of the index: slots are free. */
	return smp_load_acquire(&q->buf->consumer_index) & q->mask;
}

static inline u32 rmp_queue_next(const struct rmp_queue *q, u32 index)
{
	return (index + 1) & q->mask;
}

/* Number of slots a ring holds: what rmp_queue_init() returns in num_elem. */
static inline u32 rmp_queue_capacity(const struct rmp_queue *q)
{
	return q->mask;
}

static inline u32 rmp_queue_count(const struct rmp_queue *q)
{
	return (rmp_queue_producer(q) - rmp_queue_consumer(q)) & q->mask;
}

static inline bool rmp_queue_empty(const struct rmp_queue *q)
{
	return rmp_queue_producer(q) == rmp_queue_consumer(q);
}

static inline bool rmp_queue_full(const struct rmp_queue *q)
{
	return rmp_queue_next(q, rmp_queue_producer(q)) ==
	       rmp_queue_consumer(q);
}

/* The slot at @index (any value; it is masked into range). */
static inline void *rmp_queue_slot(const struct rmp_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->mask) << q->elem_shift);
}

static inline void *rmp_queue_producer_slot(const struct rmp_queue *q)
{
	return rmp_queue_slot(q, rmp_queue_producer(q));
}

static inline void *rmp_queue_consumer_slot(const struct rmp_queue *q)
{
	return rmp_queue_slot(q, rmp_queue_consumer(q));
}

/**
 * rmp_queue_produce() - publish the producer slot
 * @q: a queue rmp produces into, or a kernel queue whose poster is the
 *	kernel verbs consumer (serialised by the caller's lock)
 */
static inline void rmp_queue_produce(struct rmp_queue *q)
{
	u32 next = rmp_queue_next(q, rmp_queue_producer(q));

	if (q->role == RMP_QUEUE_RMP_PRODUCES)
		q->index = next;
	/* The slot's contents before the index that publishes them. */
	smp_store_release(&q->buf->producer_index, next);
}

/**
 * rmp_queue_consume() - release the consumer slot
 * @q: a queue rmp consumes from, or a kernel queue whose poller is the
 *	kernel verbs consumer (serialised by the caller's lock)
 */
static inline void rmp_queue_consume(struct rmp_queue *q)
{
	u32 next = rmp_queue_next(q, rmp_queue_consumer(q));

	if (q->role == RMP_QUEUE_RMP_CONSUMES)
		q->index = next;
	/* Done reading the slot before handing it back. */
	smp_store_release(&q->buf->consumer_index, next);
}

#endif /* RMP_QUEUE_H */
