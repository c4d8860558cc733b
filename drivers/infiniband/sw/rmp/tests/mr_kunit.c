// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the MR/MW datapath API (lookups, copy, atomics, REG_MR,
 * invalidate, bind) on a bare rmp_dev that is never registered with
 * ib_core. The code under test is built into this module from its source.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>

#include "../rmp_mr.c"
#include "../rmp_mw.c"
#include "../rmp_payload.c"

#define ALL_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ | \
		    IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC | \
		    IB_ACCESS_MW_BIND)
#define QPN 17

struct mr_env {
	struct rmp_dev *dev;
	struct ib_pd pd;
	struct ib_pd other_pd;
	struct page *pages;	/* 4 pages; the region uses the middle */
	u8 *mem;
	struct rmp_mr *mr;	/* fast-reg MR over mem + OFF, LEN bytes */
};

#define OFF (PAGE_SIZE - 100)
#define LEN (2 * PAGE_SIZE)

static int mr_env_init(struct kunit *test)
{
	struct mr_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	struct scatterlist sg;
	struct ib_mr *ibmr;

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->dev = kunit_kzalloc(test, sizeof(*env->dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->dev);
	xa_init_flags(&env->dev->keys, XA_FLAGS_ALLOC);
	env->pd.device = &env->dev->ib_dev;
	env->other_pd.device = &env->dev->ib_dev;
	env->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	KUNIT_ASSERT_NOT_NULL(test, env->pages);
	env->mem = page_address(env->pages);

	ibmr = rmp_alloc_mr(&env->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	env->mr = to_rmp_mr(ibmr);
	sg_init_one(&sg, env->mem + OFF, LEN);
	sg_dma_address(&sg) = (uintptr_t)(env->mem + OFF);
	sg_dma_len(&sg) = LEN;
	ibmr->page_size = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, rmp_map_mr_sg(ibmr, &sg, 1, NULL), 1);
	KUNIT_ASSERT_EQ(test, env->mr->npages, 3U);
	test->priv = env;
	return 0;
}

static void mr_env_exit(struct kunit *test)
{
	struct mr_env *env = test->priv;

	if (env->mr)
		rmp_dereg_mr(&env->mr->ibmr, NULL);
	__free_pages(env->pages, 2);
	WARN_ON(!xa_empty(&env->dev->keys));
	xa_destroy(&env->dev->keys);
}

static u32 next_key(u32 key)
{
	return (key & ~0xffU) | ((key + 1) & 0xff);
}

/* Registers env->mr with a new key byte; returns the key. */
static u32 reg(struct kunit *test, int access)
{
	struct mr_env *env = test->priv;
	u32 key = next_key(env->mr->key);

	KUNIT_ASSERT_EQ(test, rmp_mr_fast_reg(env->mr, &env->pd, key, access),
			0);
	return key;
}

static u64 va(struct mr_env *env, size_t off)
{
	return (uintptr_t)(env->mem + OFF + off);
}

static void lookup_expect(struct kunit *test, struct rmp_mr *mr, int err)
{
	if (!err) {
		KUNIT_EXPECT_FALSE(test, IS_ERR(mr));
		if (!IS_ERR(mr))
			rmp_mr_put(mr);
	} else {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), err);
	}
}

static void rmp_mr_fast_reg__lifecycle(struct kunit *test)
{
	struct mr_env *env = test->priv;
	struct rmp_dev *dev = env->dev;
	u32 old = env->mr->key, key;

	/* Not valid before REG_MR. */
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, old, va(env, 0),
					       1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_mr_fast_reg(env->mr, &env->pd,
					      old + 0x100, ALL_ACCESS),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_mr_fast_reg(env->mr, &env->other_pd,
					      next_key(old), ALL_ACCESS),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_mr_fast_reg(env->mr, &env->pd,
					      next_key(old),
					      IB_ACCESS_REMOTE_WRITE),
			-EINVAL);
	key = reg(test, ALL_ACCESS);
	/* Already valid. */
	KUNIT_EXPECT_EQ(test, rmp_mr_fast_reg(env->mr, &env->pd,
					      next_key(key), ALL_ACCESS),
			-EINVAL);

	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key, va(env, 0),
					       LEN, IB_ACCESS_LOCAL_WRITE), 0);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, old, va(env, 0),
					       1, 0), -EINVAL);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->other_pd, key,
					       va(env, 0), 1, 0), -EACCES);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key & 0xff,
					       va(env, 0), 1, 0), -EINVAL);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key, va(env, 1),
					       LEN, 0), -ERANGE);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key,
					       va(env, 0) - 1, 1, 0), -ERANGE);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key, va(env, 8),
					       U64_MAX, 0), -ERANGE);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, LEN - 8), 8,
					       IB_ACCESS_REMOTE_ATOMIC), 0);

	/* Local invalidate: wrong PD, stale key, then the right one. */
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->other_pd, QPN, key,
						 false), -EACCES);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN, old,
						 false), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN, key,
						 false), 0);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 0), 1,
					       IB_ACCESS_REMOTE_READ), -EINVAL);

	/* Re-register read-only: writes are refused. */
	key = reg(test, IB_ACCESS_REMOTE_READ);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 0), 1,
					       IB_ACCESS_REMOTE_WRITE), -EACCES);
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key, va(env, 0),
					       1, IB_ACCESS_LOCAL_WRITE),
		      -EACCES);
	/* Remote invalidate. */
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN, key,
						 true), 0);
}

static void rmp_mr_copy__stays_in_region(struct kunit *test)
{
	struct mr_env *env = test->priv;
	u8 *buf = kunit_kmalloc(test, LEN, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, LEN, GFP_KERNEL);
	size_t i;
	u32 crc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < LEN; i++)
		buf[i] = i * 7 + 1;
	reg(test, ALL_ACCESS);

	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, 0), buf, LEN,
					  RMP_COPY_TO_MR, NULL), 0);
	KUNIT_EXPECT_EQ(test, memcmp(env->mem + OFF, buf, LEN), 0);
	KUNIT_EXPECT_EQ(test, env->mem[OFF - 1], 0);
	KUNIT_EXPECT_EQ(test, env->mem[OFF + LEN], 0);

	/* Across a block boundary, back out. */
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, 50), out, 200,
					  RMP_COPY_FROM_MR, NULL), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, buf + 50, 200), 0);

	/* The same with the CRC taken on the way, block after block. */
	memset(out, 0, LEN);
	crc = 0;
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, 50), out, 200,
					  RMP_COPY_FROM_MR, &crc), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, buf + 50, 200), 0);
	KUNIT_EXPECT_EQ(test, crc, rmp_crc32_le(0, buf + 50, 200));

	/* One byte too far either way: refused, nothing written. */
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, 1), buf, LEN,
					  RMP_COPY_TO_MR, NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, 0) - 1, buf, 2,
					  RMP_COPY_TO_MR, NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, va(env, LEN), buf, 1,
					  RMP_COPY_TO_MR, NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(env->mr, U64_MAX, buf, 2,
					  RMP_COPY_TO_MR, NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, env->mem[OFF - 1], 0);
	KUNIT_EXPECT_EQ(test, env->mem[OFF + LEN], 0);
	KUNIT_EXPECT_EQ(test, memcmp(env->mem + OFF, buf, LEN), 0);
}

static void rmp_mr_atomic__ops(struct kunit *test)
{
	struct mr_env *env = test->priv;
	/* va(env, 100) is the page-aligned start of the second block. */
	u64 *word = (u64 *)(env->mem + OFF + 100);
	u64 orig;

	reg(test, ALL_ACCESS);
	*word = 5;
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 100),
					    RMP_ATOMIC_CMP_SWAP, 4, 9, &orig),
			0);
	KUNIT_EXPECT_EQ(test, orig, 5ULL);
	KUNIT_EXPECT_EQ(test, *word, 5ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 100),
					    RMP_ATOMIC_CMP_SWAP, 5, 9, &orig),
			0);
	KUNIT_EXPECT_EQ(test, *word, 9ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 100),
					    RMP_ATOMIC_FETCH_ADD, U64_MAX, 0,
					    &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 9ULL);
	KUNIT_EXPECT_EQ(test, *word, 8ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 100),
					    RMP_ATOMIC_WRITE, 0,
					    0x0123456789abcdefULL, &orig), 0);
	KUNIT_EXPECT_EQ(test, *word, 0x0123456789abcdefULL);
	/* The words on either side are untouched. */
	KUNIT_EXPECT_EQ(test, word[-1], 0ULL);
	KUNIT_EXPECT_EQ(test, word[1], 0ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 104),
					    RMP_ATOMIC_WRITE, 0, 1, &orig),
			-EINVAL);
	/* The last whole word of the region. */
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, LEN - 12),
					    RMP_ATOMIC_WRITE, 0, 1, &orig), 0);
	KUNIT_EXPECT_EQ(test, *(u64 *)(env->mem + OFF + LEN - 12), 1ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, LEN - 4),
					    RMP_ATOMIC_WRITE, 0, 1, &orig),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, 104),
					    RMP_ATOMIC_FETCH_ADD, 1, 0, &orig),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(env->mr, va(env, LEN - 4),
					    RMP_ATOMIC_FETCH_ADD, 1, 0, &orig),
			-ERANGE);
}

static void rmp_mw_bind__type2(struct kunit *test)
{
	struct mr_env *env = test->priv;
	struct rmp_dev *dev = env->dev;
	struct rmp_mw *mw = kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);
	struct rmp_mw_bind_attr a = {};
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &dev->ib_dev;
	mw->ibmw.pd = &env->pd;
	mw->ibmw.type = IB_MW_TYPE_2;
	KUNIT_ASSERT_EQ(test, rmp_alloc_mw(&mw->ibmw, NULL), 0);

	key = reg(test, ALL_ACCESS & ~IB_ACCESS_MW_BIND);
	a.mw_rkey = mw->key;
	a.new_rkey = next_key(mw->key);
	a.mr_lkey = key;
	a.addr = va(env, 16);
	a.length = 64;
	a.access = IB_ACCESS_REMOTE_WRITE;
	/* The region does not allow binding. */
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), -EACCES);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN, key,
						 false), 0);
	key = reg(test, ALL_ACCESS);
	a.mr_lkey = key;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->other_pd, QPN, &a),
			-EACCES);
	a.length = LEN;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), -ERANGE);
	a.length = 64;
	a.access = IB_ZERO_BASED | IB_ACCESS_REMOTE_WRITE;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), -EINVAL);
	a.access = IB_ACCESS_REMOTE_WRITE;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), 0);
	/* Bound type 2 windows cannot be bound again. */
	a.mw_rkey = a.new_rkey;
	a.new_rkey = next_key(a.new_rkey);
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), -EINVAL);

	key = a.mw_rkey;
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 16), 64,
					       IB_ACCESS_REMOTE_WRITE), 0);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN + 1, key,
					       va(env, 16), 64,
					       IB_ACCESS_REMOTE_WRITE), -EACCES);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 16), 64,
					       IB_ACCESS_REMOTE_READ), -EACCES);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 17), 64,
					       IB_ACCESS_REMOTE_WRITE), -ERANGE);
	/* No lkey access through a window's key. */
	lookup_expect(test, rmp_mr_lookup_lkey(dev, &env->pd, key, va(env, 16),
					       1, 0), -EINVAL);

	/* The region is pinned by the window. */
	KUNIT_EXPECT_EQ(test, rmp_dereg_mr(&env->mr->ibmr, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN,
						 env->mr->key, false), -EBUSY);

	/* Remote invalidate only from the QP it is bound to. */
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN + 1, key,
						 true), -EACCES);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN, key,
						 true), 0);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, key,
					       va(env, 16), 64,
					       IB_ACCESS_REMOTE_WRITE), -EINVAL);
	KUNIT_EXPECT_EQ(test, env->mr->num_mw, 0U);

	/* Bound again, then deallocated while bound. */
	a.mw_rkey = key;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), 0);
	KUNIT_EXPECT_EQ(test, env->mr->num_mw, 1U);
	KUNIT_EXPECT_EQ(test, rmp_dealloc_mw(&mw->ibmw), 0);
	KUNIT_EXPECT_EQ(test, env->mr->num_mw, 0U);
}

static void rmp_mw_bind__type1(struct kunit *test)
{
	struct mr_env *env = test->priv;
	struct rmp_dev *dev = env->dev;
	struct rmp_mw *mw = kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);
	struct rmp_mw_bind_attr a = {};
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &dev->ib_dev;
	mw->ibmw.pd = &env->pd;
	mw->ibmw.type = IB_MW_TYPE_1;
	KUNIT_ASSERT_EQ(test, rmp_alloc_mw(&mw->ibmw, NULL), 0);
	key = reg(test, IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND);

	a.mw_rkey = mw->key;
	a.new_rkey = next_key(mw->key);
	a.mr_lkey = key;
	a.addr = va(env, 0);
	a.length = 8;
	/* Remote write through a window needs local write on the region. */
	a.access = IB_ACCESS_REMOTE_WRITE;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), -EACCES);
	a.access = IB_ACCESS_REMOTE_READ;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), 0);
	/* Any QP in the PD may use a type 1 window; it rebinds freely. */
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN + 5,
					       a.new_rkey, va(env, 0), 8,
					       IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, rmp_key_invalidate(dev, &env->pd, QPN,
						 a.new_rkey, false), -EINVAL);
	a.mw_rkey = a.new_rkey;
	a.new_rkey = next_key(a.new_rkey);
	a.addr = va(env, 8);
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), 0);
	KUNIT_EXPECT_EQ(test, env->mr->num_mw, 1U);
	/* Zero-length bind unbinds. */
	a.mw_rkey = a.new_rkey;
	a.new_rkey = next_key(a.new_rkey);
	a.length = 0;
	KUNIT_EXPECT_EQ(test, rmp_mw_bind(dev, &env->pd, QPN, &a), 0);
	KUNIT_EXPECT_EQ(test, env->mr->num_mw, 0U);
	lookup_expect(test, rmp_mr_lookup_rkey(dev, &env->pd, QPN, a.new_rkey,
					       va(env, 8), 0,
					       IB_ACCESS_REMOTE_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, rmp_dealloc_mw(&mw->ibmw), 0);
}

static void rmp_get_dma_mr__kernel_va(struct kunit *test)
{
	struct mr_env *env = test->priv;
	u64 *word = (u64 *)env->mem;
	struct rmp_mr *mr, *found;
	struct ib_mr *ibmr;
	u64 orig;

	ibmr = rmp_get_dma_mr(&env->pd, IB_ACCESS_LOCAL_WRITE |
			      IB_ACCESS_REMOTE_ATOMIC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	mr = to_rmp_mr(ibmr);
	KUNIT_EXPECT_EQ(test, ibmr->lkey, ibmr->rkey);
	KUNIT_EXPECT_NE(test, ibmr->lkey >> 8, env->mr->key >> 8);
	found = rmp_mr_lookup_lkey(env->dev, &env->pd, ibmr->lkey,
				   (uintptr_t)word, 8, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_PTR_EQ(test, found, mr);
	*word = 40;
	KUNIT_EXPECT_EQ(test, rmp_mr_atomic(found, (uintptr_t)word,
					    RMP_ATOMIC_FETCH_ADD, 2, 0, &orig),
			0);
	KUNIT_EXPECT_EQ(test, *word, 42ULL);
	KUNIT_EXPECT_EQ(test, rmp_mr_copy(found, (uintptr_t)word, &orig, 8,
					  RMP_COPY_TO_MR, NULL), 0);
	KUNIT_EXPECT_EQ(test, *word, 40ULL);
	rmp_mr_put(found);
	KUNIT_EXPECT_EQ(test, rmp_dereg_mr(ibmr, NULL), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rmp_get_dma_mr(&env->pd,
						     IB_ACCESS_REMOTE_WRITE)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rmp_alloc_mr(&env->pd,
						   IB_MR_TYPE_SG_GAPS, 4)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rmp_alloc_mr(&env->pd,
						   IB_MR_TYPE_MEM_REG,
						   RMP_MAX_FAST_REG_PAGES + 1)),
			-EINVAL);
}

/* Three single pages of a pattern, a user MR over them from offset 100. */
struct user_mr {
	struct page *page[3];
	struct rmp_mr mr;
	u8 *want;		/* the region's bytes, in order */
};

#define USER_IOVA 0x7f0000001064ULL
#define USER_LEN (3 * PAGE_SIZE - 100)

static void user_mr_init(struct kunit *test, struct user_mr *u)
{
	size_t i, j;

	u->want = kunit_kmalloc(test, USER_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u->want);
	for (i = 0; i < 3; i++) {
		u->page[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, u->page[i]);
		for (j = 0; j < PAGE_SIZE; j++)
			((u8 *)page_address(u->page[i]))[j] = i * 31 + j * 3;
	}
	for (i = 0; i < USER_LEN; i++)
		u->want[i] = ((u8 *)page_address(u->page[(i + 100) /
							 PAGE_SIZE]))
			     [(i + 100) % PAGE_SIZE];
	u->mr = (struct rmp_mr) {
		.kind = RMP_MR_USER,
		.iova = USER_IOVA,
		.length = USER_LEN,
		.page_shift = PAGE_SHIFT,
		.page_offset = 100,
		.npages = 3,
		.pages = u->page,
	};
	spin_lock_init(&u->mr.lock);
}

static void user_mr_exit(struct user_mr *u)
{
	size_t i;

	for (i = 0; i < 3; i++)
		__free_page(u->page[i]);
}

/*
 * Attaching a user region's bytes: one fragment per page crossed, each
 * holding a page reference until the packet goes, the bytes and their CRC
 * the region's; out of the region refused; memory that is not user pages,
 * or more pieces than fragments, left to the copy (-EOPNOTSUPP).
 */
static void rmp_mr_attach__user_pages(struct kunit *test)
{
	struct mr_env *env = test->priv;
	u32 len = 2 * PAGE_SIZE, crc = 0;
	struct user_mr u;
	struct sk_buff *skb;
	int refs, i;
	u8 *out;

	user_mr_init(test, &u);
	out = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	skb = alloc_skb(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, 16);
	refs = page_ref_count(u.page[1]);

	KUNIT_EXPECT_EQ(test, rmp_mr_attach(&u.mr, USER_IOVA + 50, len, skb,
					    &crc), 0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 3);
	KUNIT_EXPECT_EQ(test, skb->len, 16 + len);
	KUNIT_EXPECT_EQ(test, skb->data_len, len);
	KUNIT_EXPECT_EQ(test, page_ref_count(u.page[1]), refs + 1);
	KUNIT_EXPECT_TRUE(test, skb_shinfo(skb)->flags & SKBFL_SHARED_FRAG);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 16, out, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, u.want + 50, len), 0);
	KUNIT_EXPECT_EQ(test, crc, rmp_crc32_le(0, u.want + 50, len));
	/* The walk back over the fragments finds the same bytes. */
	KUNIT_EXPECT_EQ(test, rmp_skb_crc32(skb, 16, len, 0), crc);

	KUNIT_EXPECT_EQ(test, rmp_mr_attach(&u.mr, USER_IOVA + 1, USER_LEN,
					    skb, NULL), -ERANGE);
	reg(test, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, rmp_mr_attach(env->mr, va(env, 0), 8, skb, NULL),
			-EOPNOTSUPP);
	for (i = skb_shinfo(skb)->nr_frags; i < MAX_SKB_FRAGS - 1; i++)
		KUNIT_ASSERT_EQ(test, rmp_mr_attach(&u.mr, USER_IOVA + i, 1,
						    skb, NULL), 0);
	KUNIT_EXPECT_EQ(test, rmp_mr_attach(&u.mr, USER_IOVA, 1, skb, NULL),
			-EOPNOTSUPP);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_ref_count(u.page[1]), refs);
	user_mr_exit(&u);
}

/*
 * A received payload partly behind the headers and partly in two page
 * fragments: placed whole in a region and across an SGE list, the CRC
 * taken on the way the same as over the bytes in order.
 */
static void rmp_payload__placed_from_fragments(struct kunit *test)
{
	struct mr_env *env = test->priv;
	u32 want_len = 60 + PAGE_SIZE + 500, crc = 0, key, i;
	struct rmp_payload pl;
	struct rxe_sge sge[2];
	struct sk_buff *skb;
	struct page *page;
	u8 *want, *lin;

	want = kunit_kmalloc(test, want_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	skb = alloc_skb(128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	lin = skb_put(skb, 100);
	for (i = 0; i < 100; i++)
		lin[i] = 200 + i;
	for (i = 0; i < 2; i++) {
		page = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, page);
		memset(page_address(page), 0x11 * (i + 1), PAGE_SIZE);
		skb_add_rx_frag(skb, i, page, 8, PAGE_SIZE - 8, PAGE_SIZE);
	}
	memcpy(want, lin + 40, 60);
	memset(want + 60, 0x11, PAGE_SIZE - 8);
	memset(want + 60 + PAGE_SIZE - 8, 0x22, 508);
	pl = (struct rmp_payload) { .skb = skb, .off = 40, .len = want_len };
	KUNIT_EXPECT_NULL(test, rmp_payload_linear(&pl));

	key = reg(test, ALL_ACCESS);
	KUNIT_EXPECT_EQ(test, rmp_payload_to_mr(&pl, env->mr, va(env, 7),
						&crc), 0);
	KUNIT_EXPECT_EQ(test, memcmp(env->mem + OFF + 7, want, want_len), 0);
	KUNIT_EXPECT_EQ(test, crc, rmp_crc32_le(0, want, want_len));
	KUNIT_EXPECT_EQ(test, rmp_skb_crc32(skb, 40, want_len, 0), crc);

	/* Into two SGEs, 10 bytes into the list. */
	memset(env->mem, 0, 4 * PAGE_SIZE);
	sge[0] = (struct rxe_sge) { .addr = va(env, 0), .length = 1000,
				    .lkey = key };
	sge[1] = (struct rxe_sge) { .addr = va(env, 3000),
				    .length = LEN - 3000, .lkey = key };
	crc = 0;
	KUNIT_EXPECT_EQ(test, rmp_payload_to_sgl(&pl, env->dev, &env->pd, sge,
						 2, 10, &crc), 0);
	KUNIT_EXPECT_EQ(test, memcmp(env->mem + OFF + 10, want, 990), 0);
	KUNIT_EXPECT_EQ(test, memcmp(env->mem + OFF + 3000, want + 990,
				     want_len - 990), 0);
	KUNIT_EXPECT_EQ(test, crc, rmp_crc32_le(0, want, want_len));
	/* Longer than the list: refused. */
	sge[1].length = 100;
	KUNIT_EXPECT_EQ(test, rmp_payload_to_sgl(&pl, env->dev, &env->pd, sge,
						 2, 10, NULL), -ERANGE);
	/* A linear payload is seen as one. */
	pl = (struct rmp_payload) { .skb = skb, .off = 40, .len = 60 };
	KUNIT_EXPECT_PTR_EQ(test, rmp_payload_linear(&pl),
			    (const void *)(lin + 40));
	kfree_skb(skb);
}

static struct kunit_case rmp_mr_cases[] = {
	KUNIT_CASE(rmp_mr_fast_reg__lifecycle),
	KUNIT_CASE(rmp_mr_copy__stays_in_region),
	KUNIT_CASE(rmp_mr_atomic__ops),
	KUNIT_CASE(rmp_mw_bind__type2),
	KUNIT_CASE(rmp_mw_bind__type1),
	KUNIT_CASE(rmp_get_dma_mr__kernel_va),
	KUNIT_CASE(rmp_mr_attach__user_pages),
	KUNIT_CASE(rmp_payload__placed_from_fragments),
	{}
};

static struct kunit_suite rmp_mr_suite = {
	.name = "rmp_mr",
	.init = mr_env_init,
	.exit = mr_env_exit,
	.test_cases = rmp_mr_cases,
};

kunit_test_suite(rmp_mr_suite);
