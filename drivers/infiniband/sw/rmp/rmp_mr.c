// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: memory keys and object lifetime
 *
 * Memory regions and memory windows share one key space per device,
 * &rmp_dev.keys. A key (lkey or rkey; an MR's two are equal) is
 * ``index << 8 | key byte``: the index is allocated cyclically in
 * [1, RMP_MAX_MR + RMP_MAX_MW], so key 0 never names anything, and the key
 * byte starts random and changes with each fast registration or window bind.
 * An entry of the xarray is the &struct rmp_key_obj embedded in the MR or MW;
 * its @kind tells which.
 *
 * The datapath finds an object under rcu_read_lock() and keeps it only if
 * refcount_inc_not_zero() succeeds; it drops the reference when the packet
 * or work request is done with the memory, and must not hold one longer
 * (dereg would wait for it). Dereg and dealloc first remove the entry, so no
 * new lookup finds it, then drop the reference taken at creation and wait
 * on a completion until the last datapath reference is gone. Memory that a
 * lookup may have seen is freed only after an RCU grace period: rmp frees an
 * MR with kfree_rcu(), and dealloc of an MW, which ib_core frees itself as
 * soon as the verb returns, waits with synchronize_rcu().
 *
 * An object's fields that verbs and the datapath both change (key byte,
 * validity, range, access, binding) are under the object's spinlock, taken
 * with interrupts disabled so the datapath may call from any context. An
 * MW's lock nests outside an MR's. A bound window counts in its region's
 * @num_mw instead of holding a reference: a region with bound windows
 * refuses dereg, and once dereg has begun (@dying) no window can bind to it.
 */
#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "rmp_dev.h"
#include "rmp_mr.h"
#include "rmp_mw.h"
#include "rmp_verbs.h"
#include "engine/icrc.h"

/* Serialises rmp's atomic operations against one another. */
static DEFINE_SPINLOCK(rmp_atomic_lock);

/**
 * rmp_key_add() - give an object an index in the device's key space
 * @dev: device
 * @kobj: header embedded in a new MR or MW, with all lookup-visible fields
 *	of its container initialised
 * @kind: &enum rmp_key_kind
 *
 * Lookups can find @kobj as soon as this returns; its container's key is
 * still 0, so none matches until the caller has set it under its lock.
 *
 * Return: 0, or -ENOMEM when the key space is full or memory is short.
 */
int rmp_key_add(struct rmp_dev *dev, struct rmp_key_obj *kobj, u8 kind)
{
	int err;

	refcount_set(&kobj->ref, 1);
	init_completion(&kobj->done);
	kobj->kind = kind;
	err = xa_alloc_cyclic(&dev->keys, &kobj->index, kobj,
			      XA_LIMIT(1, RMP_MAX_MR + RMP_MAX_MW),
			      &dev->next_key, GFP_KERNEL);
	if (err == -EBUSY)
		return -ENOMEM;
	return err < 0 ? err : 0;
}

/**
 * rmp_key_make() - a key for an index, with a random key byte
 * @index: index from rmp_key_add()
 *
 * Return: the key.
 */
u32 rmp_key_make(u32 index)
{
	return index << RMP_KEY_INDEX_SHIFT | get_random_u8();
}

/**
 * rmp_key_get() - find the object a key's index names and reference it
 * @dev: device
 * @key: lkey or rkey; only its index is used
 *
 * Return: the referenced header, or NULL when the index names nothing or
 * the object is being destroyed. Release with rmp_key_put().
 */
struct rmp_key_obj *rmp_key_get(struct rmp_dev *dev, u32 key)
{
	struct rmp_key_obj *kobj;

	rcu_read_lock();
	kobj = xa_load(&dev->keys, rmp_key_index(key));
	if (kobj && !refcount_inc_not_zero(&kobj->ref))
		kobj = NULL;
	rcu_read_unlock();
	return kobj;
}

/**
 * rmp_key_put() - drop a reference taken by rmp_key_get()
 * @kobj: header
 */
void rmp_key_put(struct rmp_key_obj *kobj)
{
	if (refcount_dec_and_test(&kobj->ref))
		complete(&kobj->done);
}

/**
 * rmp_key_remove() - take an object out of the key space and wait for users
 * @dev: device
 * @kobj: header added by rmp_key_add()
 *
 * Drops the creation reference. On return no datapath user holds @kobj,
 * but a lookup may still be reading it until an RCU grace period has passed.
 * Sleeps.
 */
void rmp_key_remove(struct rmp_dev *dev, struct rmp_key_obj *kobj)
{
	xa_erase(&dev->keys, kobj->index);
	rmp_key_put(kobj);
	wait_for_completion(&kobj->done);
}

static struct rmp_mr *rmp_mr_new(struct ib_pd *ibpd, u8 kind, int access)
{
	struct rmp_dev *dev = to_rmp_dev(ibpd->device);
	struct rmp_mr *mr;

	/* ODP would need page faults in the datapath; rmp pins instead. */
	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	if (ib_check_mr_access(ibpd->device, access))
		return ERR_PTR(-EINVAL);
	if (atomic_inc_return(&dev->num_mrs) > RMP_MAX_MR) {
		atomic_dec(&dev->num_mrs);
		return ERR_PTR(-ENOMEM);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		atomic_dec(&dev->num_mrs);
		return ERR_PTR(-ENOMEM);
	}
	mr->dev = dev;
	mr->pd = ibpd;
	mr->kind = kind;
	mr->access = access;
	spin_lock_init(&mr->lock);
	return mr;
}

/* Frees what rmp_mr_new() and the verb allocated; @mr is in no key space. */
static void rmp_mr_free(struct rmp_mr *mr)
{
	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	atomic_dec(&mr->dev->num_mrs);
	kfree_rcu(mr, rcu);
}

static int rmp_mr_publish(struct rmp_mr *mr, bool valid)
{
	unsigned long flags;
	int err;

	err = rmp_key_add(mr->dev, &mr->kobj, RMP_KEY_MR);
	if (err)
		return err;
	spin_lock_irqsave(&mr->lock, flags);
	mr->key = rmp_key_make(mr->kobj.index);
	mr->valid = valid;
	spin_unlock_irqrestore(&mr->lock, flags);
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	return 0;
}

/**
 * rmp_get_dma_mr() - ib_device_ops.get_dma_mr: an MR over kernel memory
 * @ibpd: protection domain
 * @access: IB_ACCESS_* flags
 *
 * With no DMA device, the addresses kernel consumers post are kernel
 * virtual addresses; the region is the whole address space with iova 0.
 *
 * Return: the MR or an ERR_PTR: -EINVAL for bad @access, -ENOMEM.
 */
struct ib_mr *rmp_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct rmp_mr *mr;
	int err;

	mr = rmp_mr_new(ibpd, RMP_MR_DMA, access);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->iova = 0;
	mr->length = U64_MAX;
	err = rmp_mr_publish(mr, true);
	if (err) {
		rmp_mr_free(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

/**
 * rmp_reg_user_mr() - ib_device_ops.reg_user_mr: pin and register user memory
 * @ibpd: protection domain
 * @start: user virtual address of the memory
 * @length: length in bytes, not 0
 * @iova: address the region has for WQEs and peers; same offset in its page
 *	as @start
 * @access: IB_ACCESS_* flags
 * @udata: unused
 *
 * Return: the MR or an ERR_PTR: -EINVAL for a bad access combination,
 * unknown flags, length 0 or a wrapping range; -EOPNOTSUPP for on-demand
 * paging; -EFAULT, -ENOMEM or -EPERM from pinning.
 */
struct ib_mr *rmp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct sg_page_iter piter;
	struct ib_umem *umem;
	struct rmp_mr *mr;
	size_t npages, i;
	int err;

	mr = rmp_mr_new(ibpd, RMP_MR_USER, access);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	err = -EINVAL;
	if (!length || (start ^ iova) & ~PAGE_MASK || length - 1 > U64_MAX - iova)
		goto err_free;

	umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto err_free;
	}
	mr->umem = umem;
	npages = ib_umem_num_pages(umem);
	mr->pages = kvmalloc_array(npages, sizeof(*mr->pages), GFP_KERNEL);
	err = -ENOMEM;
	if (!mr->pages)
		goto err_free;
	i = 0;
	for_each_sgtable_page(&umem->sgt_append.sgt, &piter, 0) {
		if (i == npages)
			break;
		mr->pages[i++] = sg_page_iter_page(&piter);
	}
	err = -EFAULT;
	if (WARN_ON_ONCE(i != npages))
		goto err_free;

	mr->npages = npages;
	mr->page_shift = PAGE_SHIFT;
	mr->page_offset = ib_umem_offset(umem);
	mr->iova = iova;
	mr->length = length;
	err = rmp_mr_publish(mr, true);
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	rmp_mr_free(mr);
	return ERR_PTR(err);
}

/**
 * rmp_alloc_mr() - ib_device_ops.alloc_mr: a fast-registration MR
 * @ibpd: protection domain
 * @type: must be IB_MR_TYPE_MEM_REG
 * @max_num_sg: blocks map_mr_sg may map, 1 to %RMP_MAX_FAST_REG_PAGES
 *
 * The MR is invalid until a REG_MR work request registers it.
 *
 * Return: the MR or an ERR_PTR: -EOPNOTSUPP for another @type, -EINVAL for
 * a bad @max_num_sg, -ENOMEM.
 */
struct ib_mr *rmp_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct rmp_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > RMP_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);
	mr = rmp_mr_new(ibpd, RMP_MR_FAST_REG, 0);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->addrs = kvcalloc(max_num_sg, sizeof(*mr->addrs), GFP_KERNEL);
	if (!mr->addrs) {
		err = -ENOMEM;
		goto err_free;
	}
	mr->max_pages = max_num_sg;
	mr->page_shift = PAGE_SHIFT;
	err = rmp_mr_publish(mr, false);
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	rmp_mr_free(mr);
	return ERR_PTR(err);
}

static int rmp_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rmp_mr *mr = to_rmp_mr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->addrs[mr->npages++] = addr;
	return 0;
}

/**
 * rmp_map_mr_sg() - ib_device_ops.map_mr_sg: record a fast-reg MR's blocks
 * @ibmr: fast-reg MR; ib_core has set @ibmr->page_size
 * @sg: scatterlist, whose DMA addresses are kernel virtual addresses here
 * @sg_nents: entries in @sg
 * @sg_offset: offset into the first entry, updated as ib_sg_to_pages() does
 *
 * The blocks take effect at the next REG_MR. Remapping an MR that is valid
 * is a consumer bug; the datapath then still stays within the block array.
 *
 * Return: entries mapped, or a negative errno.
 */
int rmp_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rmp_mr *mr = to_rmp_mr(ibmr);
	int n;

	if (mr->kind != RMP_MR_FAST_REG || !is_power_of_2(ibmr->page_size) ||
	    ibmr->page_size < SZ_512)
		return -EINVAL;
	mr->npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rmp_mr_set_page);
	mr->map_offset = ibmr->iova & (ibmr->page_size - 1);
	return n;
}

/**
 * rmp_dereg_mr() - ib_device_ops.dereg_mr
 * @ibmr: MR
 * @udata: unused
 *
 * Waits until no datapath user holds the MR, then frees it.
 *
 * Return: 0, or -EBUSY while memory windows are bound to the MR.
 */
int rmp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rmp_mr *mr = to_rmp_mr(ibmr);
	unsigned long flags;

	spin_lock_irqsave(&mr->lock, flags);
	if (mr->num_mw) {
		spin_unlock_irqrestore(&mr->lock, flags);
		return -EBUSY;
	}
	mr->dying = true;
	spin_unlock_irqrestore(&mr->lock, flags);

	rmp_key_remove(mr->dev, &mr->kobj);
	rmp_mr_free(mr);
	return 0;
}

/* Checks @mr for an access through @key; @mr->lock held. */
static int rmp_mr_check(struct rmp_mr *mr, struct ib_pd *pd, u32 key,
			u64 iova, u64 len, int access)
{
	if (!mr->valid || mr->key != key)
		return -EINVAL;
	if (mr->pd != pd || (mr->access & access) != access)
		return -EACCES;
	if (!rmp_range_ok(mr->iova, mr->length, iova, len))
		return -ERANGE;
	return 0;
}

static struct rmp_mr *rmp_mr_lookup(struct rmp_key_obj *kobj,
				    struct ib_pd *pd, u32 key, u64 iova,
				    u64 len, int access)
{
	struct rmp_mr *mr = container_of(kobj, struct rmp_mr, kobj);
	unsigned long flags;
	int err;

	spin_lock_irqsave(&mr->lock, flags);
	err = rmp_mr_check(mr, pd, key, iova, len, access);
	spin_unlock_irqrestore(&mr->lock, flags);
	if (err) {
		rmp_mr_put(mr);
		return ERR_PTR(err);
	}
	return mr;
}

/**
 * rmp_mr_lookup_lkey() - resolve an lkey for a local access
 * @dev: device
 * @pd: protection domain of the QP (or of the MW being bound)
 * @lkey: lkey from a WQE
 * @iova: first address accessed
 * @len: bytes accessed
 * @access: IB_ACCESS_* bits the access needs: 0 to read,
 *	IB_ACCESS_LOCAL_WRITE to write, IB_ACCESS_MW_BIND to bind a window
 *
 * Return: the MR with a reference (release with rmp_mr_put()), or an
 * ERR_PTR: -EINVAL if @lkey names no valid MR or its key byte is stale,
 * -EACCES for another PD or missing access, -ERANGE if
 * [@iova, @iova + @len) leaves the region. Each is a local protection
 * error for the work request.
 */
struct rmp_mr *rmp_mr_lookup_lkey(struct rmp_dev *dev, struct ib_pd *pd,
				  u32 lkey, u64 iova, u64 len, int access)
{
	struct rmp_key_obj *kobj = rmp_key_get(dev, lkey);

	if (!kobj)
		return ERR_PTR(-EINVAL);
	if (kobj->kind != RMP_KEY_MR) {
		rmp_key_put(kobj);
		return ERR_PTR(-EINVAL);
	}
	return rmp_mr_lookup(kobj, pd, lkey, iova, len, access);
}

/**
 * rmp_mr_lookup_rkey() - resolve an rkey for a remote access
 * @dev: device
 * @pd: protection domain of the responder QP
 * @qpn: number of the responder QP
 * @rkey: rkey from the request; names an MR or a memory window
 * @va: first address accessed
 * @len: bytes accessed
 * @access: IB_ACCESS_REMOTE_READ, _REMOTE_WRITE or _REMOTE_ATOMIC
 *
 * An MR must be valid, in @pd and grant @access. A window must be bound,
 * grant @access and belong to @pd (type 1) or to QP @qpn in @pd (type 2);
 * it resolves to the region it is bound to, addressed with the same @va.
 *
 * Return: the MR with a reference (release with rmp_mr_put()), or an
 * ERR_PTR: -EINVAL for an unknown, stale or unbound key, -EACCES for the
 * wrong PD or QP or missing access, -ERANGE out of bounds. Each is a
 * remote access error NAK.
 */
struct rmp_mr *rmp_mr_lookup_rkey(struct rmp_dev *dev, struct ib_pd *pd,
				  u32 qpn, u32 rkey, u64 va, u64 len,
				  int access)
{
	struct rmp_key_obj *kobj = rmp_key_get(dev, rkey);
	struct rmp_mr *mr;

	if (!kobj)
		return ERR_PTR(-EINVAL);
	if (kobj->kind == RMP_KEY_MR)
		return rmp_mr_lookup(kobj, pd, rkey, va, len, access);
	mr = rmp_mw_resolve(container_of(kobj, struct rmp_mw, kobj), pd, qpn,
			    rkey, va, len, access);
	rmp_key_put(kobj);
	return mr;
}

/**
 * rmp_mr_get() - take another reference on a referenced MR
 * @mr: MR the caller holds a reference on, or one a bound window counts
 *	in (with the window's lock held)
 */
void rmp_mr_get(struct rmp_mr *mr)
{
	refcount_inc(&mr->kobj.ref);
}

/**
 * rmp_mr_put() - release an MR reference from a lookup
 * @mr: MR
 */
void rmp_mr_put(struct rmp_mr *mr)
{
	rmp_key_put(&mr->kobj);
}

/* The fields a copy needs, read together. */
struct rmp_mr_layout {
	u64 iova;
	u64 length;
	unsigned int shift;
	unsigned int offset;
	unsigned int npages;
};

static void rmp_mr_layout(struct rmp_mr *mr, struct rmp_mr_layout *l)
{
	unsigned long flags;

	spin_lock_irqsave(&mr->lock, flags);
	l->iova = mr->iova;
	l->length = mr->length;
	l->shift = mr->page_shift;
	l->offset = mr->page_offset;
	/* map_mr_sg never lets a fast-reg MR's count pass max_pages. */
	l->npages = READ_ONCE(mr->npages);
	spin_unlock_irqrestore(&mr->lock, flags);
}

/**
 * rmp_copy() - copy bytes, taking their CRC on the way if asked
 * @to: destination
 * @from: source, @n bytes
 * @n: bytes to copy
 * @crc: NULL, or a CRC-32 register the bytes are added to
 *	(rmp_crc32_copy())
 */
void rmp_copy(void *to, const void *from, size_t n, u32 *crc)
{
	if (crc)
		*crc = rmp_crc32_copy(*crc, to, from, n);
	else
		memcpy(to, from, n);
}

/*
 * One stretch of a region's memory that rmp_mr_walk() hands its action: a
 * user region's page (@mem NULL) and the offset in it, or else the kernel
 * virtual address (@mem, @in 0). @done bytes of the walk came before.
 */
typedef int (*rmp_mr_stretch_fn)(void *arg, struct page *page, void *mem,
				 size_t in, size_t n, u64 done);

/*
 * Call @fn on [@iova, @iova + @len) of @mr stretch by stretch, in order,
 * each within one block; stop at its first error. Bounds are checked
 * against the region as it is now.
 */
static int rmp_mr_walk(struct rmp_mr *mr, u64 iova, u64 len,
		       rmp_mr_stretch_fn fn, void *arg)
{
	struct rmp_mr_layout l;
	u64 off, bsize, done = 0;
	int err;

	rmp_mr_layout(mr, &l);
	if (!rmp_range_ok(l.iova, l.length, iova, len))
		return -ERANGE;
	if (mr->kind == RMP_MR_DMA)
		return fn(arg, NULL, (void *)(uintptr_t)iova, 0, len, 0);

	bsize = 1ULL << l.shift;
	off = iova - l.iova + l.offset;
	while (done < len) {
		u64 idx = off >> l.shift;
		size_t in = off & (bsize - 1);
		size_t n = min_t(u64, len - done, bsize - in);

		if (idx >= l.npages)
			return -ERANGE;
		if (mr->kind == RMP_MR_USER)
			err = fn(arg, mr->pages[idx], NULL, in, n, done);
		else
			err = fn(arg, NULL, (void *)(uintptr_t)
				 READ_ONCE(mr->addrs[idx]) + in, 0, n, done);
		if (err)
			return err;
		off += n;
		done += n;
	}
	return 0;
}

struct rmp_mr_copy_args {
	void *buf;
	enum rmp_copy_dir dir;
	u32 *crc;
};

static int rmp_mr_copy_stretch(void *arg, struct page *page, void *mem,
			       size_t in, size_t n, u64 done)
{
	const struct rmp_mr_copy_args *a = arg;
	void *buf = a->buf + done;

	if (page)
		mem = kmap_local_page(page) + in;
	if (a->dir == RMP_COPY_TO_MR)
		rmp_copy(mem, buf, n, a->crc);
	else
		rmp_copy(buf, mem, n, a->crc);
	if (page) {
		kunmap_local(mem);
		if (a->dir == RMP_COPY_TO_MR)
			flush_dcache_page(page);
	}
	return 0;
}

/**
 * rmp_mr_copy() - copy between a region and a kernel buffer
 * @mr: referenced MR, as returned by a lookup
 * @iova: first address in @mr
 * @buf: kernel buffer of @len bytes
 * @len: bytes to copy
 * @dir: &enum rmp_copy_dir
 * @crc: NULL, or a CRC-32 register the bytes are added to as they are
 *	copied (rmp_crc32_copy()): a payload's share of its packet's ICRC
 *
 * Bounds are checked again against the region as it is now, so nothing
 * outside the registered memory is ever read or written. User pages are
 * mapped one at a time with kmap_local_page(); a fast-reg MR's blocks and
 * a DMA MR are reached through their kernel virtual addresses. May be
 * called in any context.
 *
 * Return: 0, or -ERANGE when [@iova, @iova + @len) leaves the region.
 */
int rmp_mr_copy(struct rmp_mr *mr, u64 iova, void *buf, u64 len,
		enum rmp_copy_dir dir, u32 *crc)
{
	struct rmp_mr_copy_args a = { .buf = buf, .dir = dir, .crc = crc };

	return rmp_mr_walk(mr, iova, len, rmp_mr_copy_stretch, &a);
}

struct rmp_mr_attach_args {
	struct sk_buff *skb;
	u32 *crc;
};

static int rmp_mr_attach_stretch(void *arg, struct page *page, void *mem,
				 size_t in, size_t n, u64 done)
{
	const struct rmp_mr_attach_args *a = arg;
	struct sk_buff *skb = a->skb;
	int i = skb_shinfo(skb)->nr_frags;

	/* One fragment left for the packet's pad and ICRC. */
	if (!page || i >= MAX_SKB_FRAGS - 1)
		return -EOPNOTSUPP;
	if (a->crc) {
		mem = kmap_local_page(page);
		*a->crc = crc32_le(*a->crc, mem + in, n);
		kunmap_local(mem);
	}
	get_page(page);
	skb_add_rx_frag(skb, i, page, in, n, n);
	return 0;
}

/**
 * rmp_mr_attach() - add bytes of a region to a packet as page fragments
 * @mr: referenced MR, as returned by a lookup
 * @iova: first address in @mr
 * @len: bytes to add
 * @skb: the packet; the fragments go after those it has
 * @crc: NULL, or a CRC-32 register the bytes are added to (read once)
 *
 * Nothing is copied: each fragment holds a reference on a pinned user page,
 * so the page outlives the packet even if the region goes first. The
 * packet is marked as carrying memory its owner may still change.
 *
 * Return: 0; -ERANGE as for rmp_mr_copy(); -EOPNOTSUPP if the region is not
 * user memory or the packet has no fragment left (copy instead; the
 * fragments added so far stay).
 */
int rmp_mr_attach(struct rmp_mr *mr, u64 iova, u64 len, struct sk_buff *skb,
		  u32 *crc)
{
	struct rmp_mr_attach_args a = { .skb = skb, .crc = crc };

	skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
	return rmp_mr_walk(mr, iova, len, rmp_mr_attach_stretch, &a);
}

/* What rmp_mr_sgl_walk() does with each entry's part: @n bytes at @iova. */
typedef int (*rmp_mr_sge_fn)(void *arg, struct rmp_mr *mr, u64 iova, u64 n,
			     u64 done);

/*
 * Call @fn on the part of each entry of @sge that [@offset, @offset + @len)
 * of the list's bytes covers, the entry's lkey looked up with @access for
 * just those bytes; stop at the first error.
 */
static int rmp_mr_sgl_walk(struct rmp_dev *dev, struct ib_pd *pd,
			   const struct rxe_sge *sge, u32 num_sge, u64 offset,
			   u64 len, int access, rmp_mr_sge_fn fn, void *arg)
{
	struct rmp_mr *mr;
	u64 done = 0;
	u32 i;
	int err;

	for (i = 0; i < num_sge && done < len; i++) {
		u64 n;

		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		n = min_t(u64, len - done, sge[i].length - offset);
		mr = rmp_mr_lookup_lkey(dev, pd, sge[i].lkey,
					sge[i].addr + offset, n, access);
		if (IS_ERR(mr))
			return PTR_ERR(mr);
		err = fn(arg, mr, sge[i].addr + offset, n, done);
		rmp_mr_put(mr);
		if (err)
			return err;
		done += n;
		offset = 0;
	}
	return done < len ? -ERANGE : 0;
}

static int rmp_mr_copy_sge(void *arg, struct rmp_mr *mr, u64 iova, u64 n,
			   u64 done)
{
	const struct rmp_mr_copy_args *a = arg;

	return rmp_mr_copy(mr, iova, a->buf + done, n, a->dir, a->crc);
}

/**
 * rmp_mr_copy_sgl() - copy between a kernel buffer and part of an SGE list
 * @dev: device
 * @pd: protection domain the lkeys must be of
 * @sge: scatter/gather list of a WQE
 * @num_sge: entries in @sge
 * @offset: where in the list's bytes (its buffers one after the other) the
 *	copy starts
 * @buf: kernel buffer of @len bytes
 * @len: bytes to copy
 * @dir: %RMP_COPY_FROM_MR gathers from the list into @buf (the lkeys need
 *	no access right); %RMP_COPY_TO_MR scatters @buf into the list (the
 *	lkeys need IB_ACCESS_LOCAL_WRITE)
 * @crc: as for rmp_mr_copy()
 *
 * Each entry's lkey is looked up for just the bytes copied through it, so a
 * WQE is checked against the regions as they are when its data moves.
 *
 * Return: 0; -ERANGE if the list is shorter than @offset + @len; an error of
 * rmp_mr_lookup_lkey() (-EINVAL, -EACCES, -ERANGE). All are local
 * protection or length errors of the WQE.
 */
int rmp_mr_copy_sgl(struct rmp_dev *dev, struct ib_pd *pd,
		    const struct rxe_sge *sge, u32 num_sge, u64 offset,
		    void *buf, u64 len, enum rmp_copy_dir dir, u32 *crc)
{
	struct rmp_mr_copy_args a = { .buf = buf, .dir = dir, .crc = crc };

	return rmp_mr_sgl_walk(dev, pd, sge, num_sge, offset, len,
			       dir == RMP_COPY_TO_MR ? IB_ACCESS_LOCAL_WRITE : 0,
			       rmp_mr_copy_sge, &a);
}

static int rmp_mr_attach_sge(void *arg, struct rmp_mr *mr, u64 iova, u64 n,
			     u64 done)
{
	const struct rmp_mr_attach_args *a = arg;

	return rmp_mr_attach(mr, iova, n, a->skb, a->crc);
}

/**
 * rmp_mr_attach_sgl() - add part of an SGE list's bytes to a packet as page
 *	fragments (rmp_mr_attach())
 * @dev: device
 * @pd: protection domain the lkeys must be of
 * @sge: scatter/gather list of a WQE
 * @num_sge: entries in @sge
 * @offset: where in the list's bytes the part starts
 * @len: its length
 * @skb: the packet
 * @crc: NULL, or a CRC-32 register the bytes are added to
 *
 * Return: as rmp_mr_copy_sgl(), or -EOPNOTSUPP as rmp_mr_attach().
 */
int rmp_mr_attach_sgl(struct rmp_dev *dev, struct ib_pd *pd,
		      const struct rxe_sge *sge, u32 num_sge, u64 offset,
		      u64 len, struct sk_buff *skb, u32 *crc)
{
	struct rmp_mr_attach_args a = { .skb = skb, .crc = crc };

	return rmp_mr_sgl_walk(dev, pd, sge, num_sge, offset, len, 0,
			       rmp_mr_attach_sge, &a);
}

/**
 * rmp_mr_atomic() - 8-byte atomic operation at an address of a region
 * @mr: referenced MR, found with IB_ACCESS_REMOTE_ATOMIC (with
 *	IB_ACCESS_REMOTE_WRITE for %RMP_ATOMIC_WRITE)
 * @iova: address of the word; 8-byte aligned
 * @op: &enum rmp_atomic_op
 * @compare_add: compare value (CMP_SWAP) or addend (FETCH_ADD)
 * @swap: value stored by CMP_SWAP on a match, or by WRITE
 * @orig: the word before the operation, on success
 *
 * The word is in host byte order. rmp's atomics are serialised on one lock,
 * and the word is changed with an atomic instruction so that CPU atomics of
 * the memory's owner on the same word stay atomic too.
 *
 * Return: 0; -EINVAL if @iova or the word's kernel address is misaligned
 * (an invalid request); -ERANGE if the word is outside the region.
 */
int rmp_mr_atomic(struct rmp_mr *mr, u64 iova, enum rmp_atomic_op op,
		  u64 compare_add, u64 swap, u64 *orig)
{
	struct page *page = NULL;
	struct rmp_mr_layout l;
	unsigned long flags;
	void *map = NULL;
	u64 *word, old;

	if (iova & 7)
		return -EINVAL;
	rmp_mr_layout(mr, &l);
	if (!rmp_range_ok(l.iova, l.length, iova, sizeof(u64)))
		return -ERANGE;
	if (mr->kind == RMP_MR_DMA) {
		word = (u64 *)(uintptr_t)iova;
	} else {
		u64 off = iova - l.iova + l.offset;
		u64 idx = off >> l.shift;
		size_t in = off & ((1ULL << l.shift) - 1);

		if (idx >= l.npages)
			return -ERANGE;
		if (mr->kind == RMP_MR_USER) {
			page = mr->pages[idx];
			map = kmap_local_page(page);
			word = map + in;
		} else {
			word = (u64 *)(uintptr_t)(READ_ONCE(mr->addrs[idx]) +
						  in);
		}
	}
	if ((uintptr_t)word & 7) {
		if (map)
			kunmap_local(map);
		return -EINVAL;
	}

	spin_lock_irqsave(&rmp_atomic_lock, flags);
	if (op == RMP_ATOMIC_CMP_SWAP) {
		old = cmpxchg64(word, compare_add, swap);
	} else if (op == RMP_ATOMIC_WRITE) {
		old = xchg(word, swap);
	} else {
		old = READ_ONCE(*word);
		while (!try_cmpxchg64(word, &old, old + compare_add))
			;
	}
	spin_unlock_irqrestore(&rmp_atomic_lock, flags);

	if (map) {
		kunmap_local(map);
		flush_dcache_page(page);
	}
	*orig = old;
	return 0;
}

/**
 * rmp_mr_fast_reg() - execute a REG_MR work request
 * @mr: fast-reg MR named by the work request, mapped by map_mr_sg
 * @pd: protection domain of the QP that executes the request
 * @key: new lkey and rkey: @mr's index with the consumer's key byte
 * @access: IB_ACCESS_* to grant
 *
 * Registers the blocks and the iova/length that map_mr_sg recorded in
 * @mr->ibmr (the consumer may have changed the iova since, e.g. to make the
 * region zero-based).
 *
 * Return: 0, or -EINVAL if @mr is not a fast-reg MR, is in another PD, is
 * already valid, @key has another index, @access is bad, or the mapping
 * does not cover the length.
 */
int rmp_mr_fast_reg(struct rmp_mr *mr, struct ib_pd *pd, u32 key,
		    int access)
{
	u64 length = mr->ibmr.length;
	unsigned int shift, offset;
	unsigned long flags;
	unsigned int npages;
	int err = 0;

	if (mr->kind != RMP_MR_FAST_REG || mr->pd != pd ||
	    rmp_key_index(key) != mr->kobj.index ||
	    access & IB_ACCESS_ON_DEMAND ||
	    ib_check_mr_access(pd->device, access))
		return -EINVAL;
	npages = READ_ONCE(mr->npages);
	if (!is_power_of_2(mr->ibmr.page_size))
		return -EINVAL;
	shift = ilog2(mr->ibmr.page_size);
	offset = mr->map_offset;
	if (!npages || length > ((u64)npages << shift) - offset)
		return -EINVAL;

	spin_lock_irqsave(&mr->lock, flags);
	if (mr->valid) {
		err = -EINVAL;
	} else {
		mr->key = key;
		mr->access = access;
		mr->iova = mr->ibmr.iova;
		mr->length = length;
		mr->page_shift = shift;
		mr->page_offset = offset;
		mr->valid = true;
	}
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

static int rmp_mr_invalidate(struct rmp_mr *mr, struct ib_pd *pd, u32 key)
{
	unsigned long flags;
	int err = 0;

	if (mr->kind != RMP_MR_FAST_REG)
		return -EINVAL;
	if (mr->pd != pd)
		return -EACCES;
	spin_lock_irqsave(&mr->lock, flags);
	if (mr->key != key)
		err = -EINVAL;
	else if (mr->num_mw)
		err = -EBUSY;
	else
		mr->valid = false;
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

/**
 * rmp_key_invalidate() - execute a local or remote invalidate
 * @dev: device
 * @pd: protection domain of the QP that executes the request (local) or
 *	receives the SEND with invalidate (remote)
 * @qpn: number of that QP
 * @key: key to invalidate: a fast-reg MR's or a type 2 window's
 * @remote: the key came in the IETH of a SEND with invalidate
 *
 * A fast-reg MR in @pd with no window bound becomes invalid (invalidating
 * an invalid one with its last key is allowed). A type 2 window must be
 * bound and, for a remote invalidate, bound to QP @qpn; for a local one it
 * must be in @pd. Type 1 windows are unbound only by a zero-length bind.
 *
 * Return: 0; -EINVAL for an unknown or stale key, a region that is not
 * fast-reg, a type 1 or unbound window; -EACCES for the wrong PD or QP;
 * -EBUSY for a region with bound windows.
 */
int rmp_key_invalidate(struct rmp_dev *dev, struct ib_pd *pd, u32 qpn,
		       u32 key, bool remote)
{
	struct rmp_key_obj *kobj = rmp_key_get(dev, key);
	int err;

	if (!kobj)
		return -EINVAL;
	if (kobj->kind == RMP_KEY_MR)
		err = rmp_mr_invalidate(container_of(kobj, struct rmp_mr, kobj),
					pd, key);
	else
		err = rmp_mw_invalidate(container_of(kobj, struct rmp_mw, kobj),
					pd, qpn, key, remote);
	rmp_key_put(kobj);
	return err;
}
