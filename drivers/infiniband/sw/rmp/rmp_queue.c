// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: queues
 *
 * Every work and completion queue is a ring laid out as the Soft-RoCE user
 * ABI defines it (&struct rxe_queue_buf): a header with the slot size and
 * index mask, the producer and consumer indices on cache lines of their own,
 * then the slots. A user process maps its rings through the verbs file; the
 * mapping is an rdma_user_mmap_entry, which owns the ring memory so that it
 * stays valid for as long as the process keeps it mapped, however the
 * object's destruction races with munmap(). Kernel consumers get the same
 * rings in kernel memory, so one datapath serves both.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/uverbs_ioctl.h>

#include "rmp_queue.h"
#include "rmp_verbs.h"

/**
 * struct rmp_mmap - a ring mapped by a user process
 * @entry: ib_core's handle; its key is the mmap offset given to the user
 * @buf: the ring, freed with the last reference to @entry
 */
struct rmp_mmap {
	struct rdma_user_mmap_entry entry;
	void *buf;
};

static struct rmp_mmap *to_rmp_mmap(struct rdma_user_mmap_entry *entry)
{
	return container_of(entry, struct rmp_mmap, entry);
}

/*
 * Allocate a ring of @slots slots of 1 << @shift bytes, zeroed, with its
 * header filled in; expose it to the user behind @udata if there is one.
 */
static int rmp_queue_alloc(struct rmp_queue *q, struct ib_udata *udata,
			   u32 slots, u32 shift, struct mminfo *mi)
{
	struct rmp_ucontext *uc = rdma_udata_to_drv_context(udata,
					struct rmp_ucontext, ibuc);
	struct rmp_mmap *m = NULL;
	size_t size;
	void *buf;
	int err;

	if (check_shl_overflow((size_t)slots, shift, &size) ||
	    check_add_overflow(size, sizeof(struct rxe_queue_buf), &size))
		return -EINVAL;
	size = PAGE_ALIGN(size);

	buf = uc ? vmalloc_user(size) : vzalloc(size);
	if (!buf)
		return -ENOMEM;

	if (uc) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m) {
			err = -ENOMEM;
			goto err_buf;
		}
		m->buf = buf;
		err = rdma_user_mmap_entry_insert(&uc->ibuc,
						  &m->entry, size);
		if (err)
			goto err_m;
		mi->offset = rdma_user_mmap_get_offset(&m->entry);
		mi->size = size;
		mi->pad = 0;
	}

	q->buf = buf;
	q->buf_size = size;
	q->mmap = m ? &m->entry : NULL;
	q->mask = slots - 1;
	q->elem_shift = shift;
	q->index = 0;
	q->buf->log2_elem_size = shift;
	q->buf->index_mask = q->mask;
	return 0;

err_m:
	kfree(m);
err_buf:
	vfree(buf);
	return err;
}

/* Give up @q's ring: a mapped one when the process unmaps it. */
static void rmp_queue_release(struct rmp_queue *q)
{
	if (q->mmap)
		rdma_user_mmap_entry_remove(q->mmap);
	else
		vfree(q->buf);
	q->buf = NULL;
	q->mmap = NULL;
}

static int rmp_queue_geometry(u32 num_elem, size_t elem_size, u32 *slots,
			      u32 *shift)
{
	if (!num_elem || num_elem >= U32_MAX / 2 || !elem_size ||
	    elem_size > SZ_64K)
		return -EINVAL;
	*slots = roundup_pow_of_two(num_elem + 1);
	*shift = order_base_2(elem_size);
	return 0;
}

/**
 * rmp_queue_init() - allocate a ring
 * @q: queue to set up
 * @udata: the user's udata for a user queue, NULL for a kernel one
 * @role: the side rmp plays
 * @num_elem: in, the entries asked for; out, the entries the ring holds
 * @elem_size: bytes an entry needs; slots are that rounded up to a power of 2
 * @mi: filled in with the mmap offset and size of a user queue
 *
 * Return: 0, -EINVAL for an impossible size, or -ENOMEM.
 */
int rmp_queue_init(struct rmp_queue *q, struct ib_udata *udata,
		   enum rmp_queue_role role, u32 *num_elem, size_t elem_size,
		   struct mminfo *mi)
{
	u32 slots, shift;
	int err;

	err = rmp_queue_geometry(*num_elem, elem_size, &slots, &shift);
	if (err)
		return err;
	q->role = role;
	err = rmp_queue_alloc(q, udata, slots, shift, mi);
	if (err)
		return err;
	*num_elem = rmp_queue_capacity(q);
	return 0;
}

/**
 * rmp_queue_destroy() - free a ring (or leave it to the user's mapping)
 * @q: queue; rmp must not touch it any more
 */
void rmp_queue_destroy(struct rmp_queue *q)
{
	if (q->buf)
		rmp_queue_release(q);
}

/**
 * rmp_queue_resize_prepare() - allocate the ring a queue is to move into
 * @new: set up as an empty ring like @q's, of the new size
 * @q: the queue being resized
 * @udata: as for rmp_queue_init()
 * @num_elem: in, the entries asked for; out, the entries the new ring holds
 * @mi: filled in with the new ring's mmap offset and size
 *
 * Resizing is split so that the allocation sleeps outside the caller's lock
 * and only rmp_queue_resize_commit() runs under it.
 *
 * Return: 0, -EINVAL for an impossible size, or -ENOMEM.
 */
int rmp_queue_resize_prepare(struct rmp_queue *new, const struct rmp_queue *q,
			     struct ib_udata *udata, u32 *num_elem,
			     struct mminfo *mi)
{
	return rmp_queue_init(new, udata, q->role, num_elem,
			      1U << q->elem_shift, mi);
}

/**
 * rmp_queue_resize_commit() - move a queue's entries into its new ring
 * @q: the queue; the caller excludes rmp's side and, for a kernel queue, the
 *	other side too (a user process excludes its own while the resize verb
 *	runs)
 * @new: from rmp_queue_resize_prepare(); on return it holds the ring that
 *	is no longer used (the old one, or itself on failure), which the
 *	caller hands to rmp_queue_destroy() outside its lock
 *
 * The entries between consumer and producer keep their order and start at
 * slot 0 of the new ring.
 *
 * Return: 0, or -EINVAL if the entries present do not fit (@q unchanged).
 */
int rmp_queue_resize_commit(struct rmp_queue *q, struct rmp_queue *new)
{
	u32 count = rmp_queue_count(q), cons = rmp_queue_consumer(q), i;
	struct rmp_queue old = *q;

	if (count > rmp_queue_capacity(new))
		return -EINVAL;
	for (i = 0; i < count; i++)
		memcpy(rmp_queue_slot(new, i), rmp_queue_slot(q, cons + i),
		       1U << new->elem_shift);
	new->index = new->role == RMP_QUEUE_RMP_PRODUCES ? count : 0;
	new->buf->consumer_index = 0;
	/* The copied entries before the index that publishes them. */
	smp_store_release(&new->buf->producer_index, count);
	*q = *new;
	*new = old;
	return 0;
}

/**
 * rmp_queue_mmap() - the ib_device_ops.mmap callback
 * @uctx: the process's context
 * @vma: the mapping asked for; its offset names a ring and its length must
 *	be the ring's
 *
 * Return: 0, or -EINVAL for an offset that names no ring.
 */
int rmp_queue_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	int err;

	entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!entry)
		return -EINVAL;
	err = remap_vmalloc_range(vma, to_rmp_mmap(entry)->buf, 0);
	rdma_user_mmap_entry_put(entry);
	return err;
}

/**
 * rmp_queue_mmap_free() - the ib_device_ops.mmap_free callback
 * @entry: a ring's mapping, unreferenced by rmp and by every process
 */
void rmp_queue_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct rmp_mmap *m = to_rmp_mmap(entry);

	vfree(m->buf);
	kfree(m);
}
