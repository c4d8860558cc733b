#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run rmp's pyverbs tests (tests/verbs/test_*.py) and print TAP.

    run.py DEVICE [PATTERN]

DEVICE is the RDMA device the tests use (exported to them as RMP_DEV). The
last line printed is "verbs: N passed, N failed". Runs with Debian's
/usr/bin/python3, the interpreter that has pyverbs.
"""
import os
import sys
import time
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.passed = 0
        self.failed = 0
        self.started = 0.0
        self.seconds = {}

    def startTest(self, test):
        super().startTest(test)
        self.started = time.monotonic()

    def stopTest(self, test):
        super().stopTest(test)
        self.seconds[test.id()] = time.monotonic() - self.started

    def slowest(self, n):
        """The n tests that took longest, as (seconds, id), longest first."""
        return sorted(((s, t) for t, s in self.seconds.items()),
                      reverse=True)[:n]

    def _line(self, ok, test, why=None):
        self.n += 1
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, test.id()))
        if why:
            for line in why.rstrip().splitlines()[-30:]:
                print('#   ' + line)
        sys.stdout.flush()

    def addSuccess(self, test):
        self._line(True, test)

    def addFailure(self, test, err):
        self._line(False, test, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self._line(False, test, self._exc_info_to_string(err, test))

    # A failing subTest is reported on its own; its test then gets neither
    # addSuccess nor addFailure from unittest.
    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._line(False, subtest, self._exc_info_to_string(err, test))

    # A skipped test is a failure here: rmp's own tests never depend on
    # optional hardware features, so a skip means something is missing.
    def addSkip(self, test, reason):
        self._line(False, test, 'skipped: ' + reason)

    def addExpectedFailure(self, test, err):
        self._line(False, test, 'expected failure is not allowed')

    def addUnexpectedSuccess(self, test):
        self._line(False, test, 'unexpected success')


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: run.py DEVICE [PATTERN]')
    os.environ['RMP_DEV'] = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else 'test_*.py'
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern=pattern,
                                                top_level_dir=here)
    result = TapResult()
    suite.run(result)
    for seconds, test in result.slowest(16):
        print('# %6.1f s  %s' % (seconds, test))
    print('verbs: %d passed, %d failed' % (result.passed, result.failed))
    sys.exit(0 if result.failed == 0 and result.passed > 0 else 1)


if __name__ == '__main__':
    main()
