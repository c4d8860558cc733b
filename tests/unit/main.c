// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the KUnit suites linked into this binary and prints KTAP-style
 * results.  The last line is "N passed, N failed"; the exit status is
 * non-zero if any case failed.
 */
#include <stdarg.h>
#include <stdlib.h>

#include <kunit/test.h>

#define MAX_SUITES 64

static struct kunit_suite *suites[MAX_SUITES];
static int nr_suites;

void kunit_shim_register(struct kunit_suite *suite)
{
	if (nr_suites == MAX_SUITES) {
		fprintf(stderr, "too many suites\n");
		exit(2);
	}
	suites[nr_suites++] = suite;
}

void kunit_shim_report(struct kunit *test, const char *file, int line,
		       const char *fmt, ...)
{
	va_list ap;

	printf("    # %s: %s:%d: ", test->name, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void kunit_shim_note(const char *fmt, ...)
{
	va_list ap;

	/* fmt is " " plus the caller's optional message. */
	if (!fmt[1])
		return;
	printf("    #  ");
	va_start(ap, fmt);
	vprintf(fmt + 1, ap);
	va_end(ap);
	printf("\n");
}

void kunit_shim_end(struct kunit *test, bool is_assert)
{
	test->failed = true;
	if (is_assert)
		longjmp(test->abort, 1);
}

/* Runs one case (or one parameter of it); true if it passed. */
static bool run_one(struct kunit_suite *suite, struct kunit_case *kc,
		    const void *param, int index)
{
	struct kunit test = {
		.name = kc->name,
		.param_value = param,
		.param_index = index,
	};

	if (suite->init && suite->init(&test)) {
		printf("    # %s: init failed\n", kc->name);
		return false;
	}
	if (!setjmp(test.abort))
		kc->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	while (test.nallocs)
		free(test.allocs[--test.nallocs]);
	return !test.failed;
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0;
	int s, n = 0;

	for (s = 0; s < nr_suites; s++)
		if (!only || !strcmp(only, suites[s]->name))
			n++;
	printf("KTAP version 1\n1..%d\n", n);

	n = 0;
	for (s = 0; s < nr_suites; s++) {
		struct kunit_suite *suite = suites[s];
		int cases = 0, suite_failed = 0;
		struct kunit_case *kc;

		if (only && strcmp(only, suite->name))
			continue;
		for (kc = suite->test_cases; kc->run_case; kc++)
			cases++;
		printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
		       suite->name, cases);
		if (suite->suite_init && suite->suite_init(suite)) {
			printf("not ok %d %s # suite_init failed\n", ++n,
			       suite->name);
			failed++;
			continue;
		}

		cases = 0;
		for (kc = suite->test_cases; kc->run_case; kc++) {
			bool ok;

			cases++;
			if (!kc->generate_params) {
				ok = run_one(suite, kc, NULL, 0);
				passed += ok;
				failed += !ok;
			} else {
				char desc[KUNIT_PARAM_DESC_SIZE];
				const void *param;
				int i = 0, bad = 0;

				printf("        KTAP version 1\n"
				       "        # Subtest: %s\n", kc->name);
				desc[0] = '\0';
				for (param = kc->generate_params(NULL, desc);
				     param;
				     param = kc->generate_params(param, desc)) {
					bool pok = run_one(suite, kc, param, i);

					printf("        %s %d %s\n",
					       pok ? "ok" : "not ok", ++i,
					       desc[0] ? desc : "param");
					passed += pok;
					failed += !pok;
					bad += !pok;
					desc[0] = '\0';
				}
				printf("        1..%d\n", i);
				ok = !bad && i;
				if (!i) {
					printf("    # %s: no parameters\n",
					       kc->name);
					failed++;
				}
			}
			suite_failed += !ok;
			printf("    %s %d %s\n", ok ? "ok" : "not ok", cases,
			       kc->name);
		}
		if (suite->suite_exit)
			suite->suite_exit(suite);
		printf("%s %d %s\n", suite_failed ? "not ok" : "ok", ++n,
		       suite->name);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
