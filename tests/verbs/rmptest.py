# SPDX-License-Identifier: GPL-2.0
"""Shared helpers for rmp's pyverbs tests."""
import errno
import os
import unittest

from pyverbs.device import Context
from pyverbs.pyverbs_error import PyverbsRDMAError


class RmpTestCase(unittest.TestCase):
    """Opens the device named by RMP_DEV for each test."""

    def setUp(self):
        self.dev_name = os.environ['RMP_DEV']
        self.ctx = Context(name=self.dev_name)

    def tearDown(self):
        self.ctx.close()

    def assertErrno(self, err, fn, *args, **kwargs):
        """fn(*args, **kwargs) must fail with errno err."""
        with self.assertRaises(PyverbsRDMAError) as cm:
            fn(*args, **kwargs)
        self.assertEqual(cm.exception.error_code, err,
                         '%s: expected %s, got %s' %
                         (cm.exception, errno.errorcode[err],
                          errno.errorcode.get(cm.exception.error_code,
                                              cm.exception.error_code)))
