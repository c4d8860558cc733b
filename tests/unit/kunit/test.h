/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <kunit/test.h>: just enough of the KUnit API for
 * rmp's *_kunit.c suites to build and run unchanged outside the kernel.
 * EXPECT failures mark the case failed and continue; ASSERT failures mark
 * it failed and abandon it.
 */
#ifndef RMP_UNIT_KUNIT_TEST_H
#define RMP_UNIT_KUNIT_TEST_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KUNIT_PARAM_DESC_SIZE 128

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define KUNIT_SHIM_MAX_ALLOCS 16

struct kunit {
	void *priv;
	const char *name;
	const void *param_value;
	int param_index;
	bool failed;
	jmp_buf abort;
	void *allocs[KUNIT_SHIM_MAX_ALLOCS];
	int nallocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

void kunit_shim_register(struct kunit_suite *suite);
void kunit_shim_report(struct kunit *test, const char *file, int line,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void kunit_shim_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void kunit_shim_end(struct kunit *test, bool is_assert);

#ifndef GFP_KERNEL
#define GFP_KERNEL 0
#endif

/* Zeroed memory freed when the case ends; NULL when out of slots. */
static inline void *kunit_kzalloc(struct kunit *test, size_t size,
				  int gfp __attribute__((unused)))
{
	void *p;

	if (test->nallocs == KUNIT_SHIM_MAX_ALLOCS)
		return NULL;
	p = calloc(1, size);
	if (p)
		test->allocs[test->nallocs++] = p;
	return p;
}

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)				\
	{ .run_case = test_name, .name = #test_name,			\
	  .generate_params = gen_params }

#define KUNIT_ARRAY_PARAM(name, array, get_desc)				\
	static const void *name##_gen_params(const void *prev, char *desc)	\
	{									\
		typeof((array)[0]) *__next = prev ?				\
			((typeof(__next))prev) + 1 : (array);			\
		if ((size_t)(__next - (array)) < ARRAY_SIZE(array)) {		\
			void (*__get_desc)(typeof(__next), char *) = get_desc;	\
			if (__get_desc)						\
				__get_desc(__next, desc);			\
			return __next;						\
		}								\
		return NULL;							\
	}

#define kunit_test_suites(...)						\
	static void __attribute__((constructor)) kunit_shim_ctor(void)	\
	{								\
		struct kunit_suite *__s[] = { __VA_ARGS__ };		\
		size_t __i;						\
									\
		for (__i = 0; __i < ARRAY_SIZE(__s); __i++)		\
			kunit_shim_register(__s[__i]);			\
	}
#define kunit_test_suite(suite)	kunit_test_suites(&suite)

#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_AUTHOR(x)

#define kunit_info(test, fmt, ...)	printf("    # " fmt, ##__VA_ARGS__)

/* Failure bookkeeping shared by all assertion kinds. */
#define KUNIT_SHIM_FAIL(test, is_assert, ...)				\
	do {								\
		kunit_shim_note(" " __VA_ARGS__);			\
		kunit_shim_end(test, is_assert);			\
	} while (0)

#define KUNIT_SHIM_BINARY(test, is_assert, left, op, right, ...)	\
	do {								\
		const typeof(left) __l = (left);			\
		const typeof(right) __r = (right);			\
									\
		if (!(__l op __r)) {					\
			kunit_shim_report(test, __FILE__, __LINE__,	\
				"Expected %s %s %s, but %s == %lld (0x%llx), " \
				"%s == %lld (0x%llx)",			\
				#left, #op, #right,			\
				#left, (long long)__l,			\
				(unsigned long long)__l,		\
				#right, (long long)__r,			\
				(unsigned long long)__r);		\
			KUNIT_SHIM_FAIL(test, is_assert, __VA_ARGS__);	\
		}							\
	} while (0)

#define KUNIT_SHIM_PTR(test, is_assert, left, op, right, ...)		\
	do {								\
		const void *__l = (left);				\
		const void *__r = (right);				\
									\
		if (!(__l op __r)) {					\
			kunit_shim_report(test, __FILE__, __LINE__,	\
				"Expected %s %s %s, but %p vs %p",	\
				#left, #op, #right, __l, __r);		\
			KUNIT_SHIM_FAIL(test, is_assert, __VA_ARGS__);	\
		}							\
	} while (0)

#define KUNIT_SHIM_BOOL(test, is_assert, cond, want, ...)		\
	do {								\
		if ((bool)(cond) != (want)) {				\
			kunit_shim_report(test, __FILE__, __LINE__,	\
				"Expected %s to be %s", #cond,		\
				(want) ? "true" : "false");		\
			KUNIT_SHIM_FAIL(test, is_assert, __VA_ARGS__);	\
		}							\
	} while (0)

#define KUNIT_SHIM_STR(test, is_assert, left, op, right, ...)		\
	do {								\
		const char *__l = (left);				\
		const char *__r = (right);				\
									\
		if (!(strcmp(__l, __r) op 0)) {				\
			kunit_shim_report(test, __FILE__, __LINE__,	\
				"Expected %s %s %s, but \"%s\" vs \"%s\"", \
				#left, #op, #right, __l, __r);		\
			KUNIT_SHIM_FAIL(test, is_assert, __VA_ARGS__);	\
		}							\
	} while (0)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, ==, r)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, !=, r)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, <, r)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, <=, r)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, >, r)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_SHIM_BINARY(t, false, l, >=, r)
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_SHIM_BOOL(t, false, c, true)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_SHIM_BOOL(t, false, c, false)
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_SHIM_PTR(t, false, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	KUNIT_SHIM_PTR(t, false, l, !=, r)
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_SHIM_PTR(t, false, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_SHIM_PTR(t, false, p, !=, NULL)
#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_SHIM_STR(t, false, l, ==, r)
#define KUNIT_EXPECT_STRNEQ(t, l, r)	KUNIT_SHIM_STR(t, false, l, !=, r)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) \
	KUNIT_SHIM_BINARY(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...) \
	KUNIT_SHIM_BINARY(t, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...) \
	KUNIT_SHIM_BINARY(t, false, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) \
	KUNIT_SHIM_BINARY(t, false, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) \
	KUNIT_SHIM_BOOL(t, false, c, true, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) \
	KUNIT_SHIM_BOOL(t, false, c, false, __VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, ...) \
	KUNIT_SHIM_STR(t, false, l, ==, r, __VA_ARGS__)

#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, ==, r)
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, !=, r)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, <, r)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, <=, r)
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, >, r)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_SHIM_BINARY(t, true, l, >=, r)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_SHIM_BOOL(t, true, c, true)
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_SHIM_BOOL(t, true, c, false)
#define KUNIT_ASSERT_NULL(t, p)		KUNIT_SHIM_PTR(t, true, p, ==, NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_SHIM_PTR(t, true, p, !=, NULL)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...) \
	KUNIT_SHIM_BINARY(t, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) \
	KUNIT_SHIM_BOOL(t, true, c, true, __VA_ARGS__)

#endif /* RMP_UNIT_KUNIT_TEST_H */
