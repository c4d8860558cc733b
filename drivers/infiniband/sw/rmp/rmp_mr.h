/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp memory regions and the key space they share with memory windows.
 */
#ifndef RMP_MR_H
#define RMP_MR_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

struct rmp_dev;

/* lkey/rkey layout: a 24-bit index in rmp_dev.keys and an 8-bit key byte. */
#define RMP_KEY_INDEX_SHIFT 8

static inline u32 rmp_key_index(u32 key)
{
	return key >> RMP_KEY_INDEX_SHIFT;
}

/* [iova, iova + len) lies in [start, start + size); no sum can wrap. */
static inline bool rmp_range_ok(u64 start, u64 size, u64 iova, u64 len)
{
	return iova >= start && len <= size && iova - start <= size - len;
}

/**
 * enum rmp_key_kind - what an entry of &rmp_dev.keys is embedded in
 * @RMP_KEY_MR: a &struct rmp_mr
 * @RMP_KEY_MW: a &struct rmp_mw
 */
enum rmp_key_kind {
	RMP_KEY_MR = 1,
	RMP_KEY_MW,
};

/**
 * struct rmp_key_obj - header shared by MRs and MWs in the key space
 * @ref: one reference held from creation until dereg/dealloc, plus one per
 *	datapath user between a lookup and the matching put
 * @done: completed when @ref drops to zero
 * @kind: &enum rmp_key_kind
 * @index: index in &rmp_dev.keys, the key without its key byte
 */
struct rmp_key_obj {
	refcount_t ref;
	struct completion done;
	u8 kind;
	u32 index;
};

int rmp_key_add(struct rmp_dev *dev, struct rmp_key_obj *kobj, u8 kind);
u32 rmp_key_make(u32 index);
struct rmp_key_obj *rmp_key_get(struct rmp_dev *dev, u32 key);
void rmp_key_put(struct rmp_key_obj *kobj);
void rmp_key_remove(struct rmp_dev *dev, struct rmp_key_obj *kobj);

/**
 * enum rmp_mr_kind - how an MR was made
 * @RMP_MR_USER: reg_user_mr; pinned user pages
 * @RMP_MR_DMA: get_dma_mr; kernel virtual addresses, whole address space
 * @RMP_MR_FAST_REG: alloc_mr; blocks from map_mr_sg, valid after REG_MR
 */
enum rmp_mr_kind {
	RMP_MR_USER,
	RMP_MR_DMA,
	RMP_MR_FAST_REG,
};

/**
 * struct rmp_mr - memory region
 * @ibmr: ib_core object
 * @kobj: entry in the device's key space
 * @dev: owning device
 * @pd: protection domain, set at creation (ib_core sets @ibmr.pd only
 *	after the verb has returned)
 * @lock: protects @valid, @dying, @key, @access, @iova, @length,
 *	@page_shift, @page_offset and @num_mw
 * @kind: &enum rmp_mr_kind
 * @valid: lookups may succeed: a fast-reg MR from REG_MR to invalidation,
 *	other MRs from creation to dereg
 * @dying: dereg has begun; no memory window may be bound any more
 * @key: current lkey, equal to the rkey
 * @access: IB_ACCESS_* granted
 * @iova: first address of the region as WQEs and peers name it
 * @length: length in bytes (U64_MAX for a DMA MR)
 * @page_shift: log2 of the size of the blocks in @pages or @addrs
 * @page_offset: offset of @iova in the first block
 * @npages: entries in @pages or @addrs
 * @max_pages: capacity of @addrs (fast-reg MR)
 * @map_offset: offset of the mapped buffer in its first block, recorded by
 *	map_mr_sg for the next REG_MR (fast-reg MR)
 * @umem: pinned user memory (user MR)
 * @pages: the pinned pages of @umem in order (user MR)
 * @addrs: kernel virtual address of each block (fast-reg MR)
 * @num_mw: memory windows bound to this region
 * @rcu: delays the free until lookups that may still see the MR are over
 */
struct rmp_mr {
	struct ib_mr ibmr;
	struct rmp_key_obj kobj;
	struct rmp_dev *dev;
	struct ib_pd *pd;
	spinlock_t lock; /* see the kernel-doc above */
	u8 kind;
	bool valid;
	bool dying;
	u32 key;
	int access;
	u64 iova;
	u64 length;
	unsigned int page_shift;
	unsigned int page_offset;
	unsigned int npages;
	unsigned int max_pages;
	unsigned int map_offset;
	struct ib_umem *umem;
	union {
		struct page **pages;
		u64 *addrs;
	};
	unsigned int num_mw;
	struct rcu_head rcu;
};

static inline struct rmp_mr *to_rmp_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct rmp_mr, ibmr);
}

/**
 * enum rmp_copy_dir - direction of rmp_mr_copy()
 * @RMP_COPY_TO_MR: from the kernel buffer into the region
 * @RMP_COPY_FROM_MR: from the region into the kernel buffer
 */
enum rmp_copy_dir {
	RMP_COPY_TO_MR,
	RMP_COPY_FROM_MR,
};

/**
 * enum rmp_atomic_op - operation of rmp_mr_atomic()
 * @RMP_ATOMIC_CMP_SWAP: store the swap value if the word equals the compare
 *	value
 * @RMP_ATOMIC_FETCH_ADD: add the add value to the word
 * @RMP_ATOMIC_WRITE: store the swap value (an ATOMIC WRITE)
 */
enum rmp_atomic_op {
	RMP_ATOMIC_CMP_SWAP,
	RMP_ATOMIC_FETCH_ADD,
	RMP_ATOMIC_WRITE,
};

struct rmp_mr *rmp_mr_lookup_lkey(struct rmp_dev *dev, struct ib_pd *pd,
				  u32 lkey, u64 iova, u64 len, int access);
struct rmp_mr *rmp_mr_lookup_rkey(struct rmp_dev *dev, struct ib_pd *pd,
				  u32 qpn, u32 rkey, u64 va, u64 len,
				  int access);
void rmp_mr_get(struct rmp_mr *mr);
void rmp_mr_put(struct rmp_mr *mr);
void rmp_copy(void *to, const void *from, size_t n, u32 *crc);
int rmp_mr_copy(struct rmp_mr *mr, u64 iova, void *buf, u64 len,
		enum rmp_copy_dir dir, u32 *crc);
int rmp_mr_copy_sgl(struct rmp_dev *dev, struct ib_pd *pd,
		    const struct rxe_sge *sge, u32 num_sge, u64 offset,
		    void *buf, u64 len, enum rmp_copy_dir dir, u32 *crc);
int rmp_mr_attach(struct rmp_mr *mr, u64 iova, u64 len, struct sk_buff *skb,
		  u32 *crc);
int rmp_mr_attach_sgl(struct rmp_dev *dev, struct ib_pd *pd,
		      const struct rxe_sge *sge, u32 num_sge, u64 offset,
		      u64 len, struct sk_buff *skb, u32 *crc);
int rmp_mr_atomic(struct rmp_mr *mr, u64 iova, enum rmp_atomic_op op,
		  u64 compare_add, u64 swap, u64 *orig);
int rmp_mr_fast_reg(struct rmp_mr *mr, struct ib_pd *pd, u32 key,
		    int access);
int rmp_key_invalidate(struct rmp_dev *dev, struct ib_pd *pd, u32 qpn,
		       u32 key, bool remote);

struct ib_mr *rmp_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *rmp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *rmp_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int rmp_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
int rmp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

#endif /* RMP_MR_H */
