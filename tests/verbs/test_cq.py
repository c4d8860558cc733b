# SPDX-License-Identifier: GPL-2.0
"""Completion queues: sizes, resize, notification, bad arguments."""
import errno

from pyverbs.cq import CQ, CQEX, CompChannel, CqInitAttrEx, PollCqAttr
import pyverbs.enums as e

from rmptest import RmpTestCase


class CQTest(RmpTestCase):
    def test_sizes(self):
        max_cqe = self.ctx.query_device().max_cqe
        for n in (1, 2, 3, 63, 64, 1000, max_cqe):
            with CQ(self.ctx, n) as cq:
                self.assertGreaterEqual(cq.cqe, n)
                self.assertEqual(cq.poll(4), (0, []))

    def test_bad_sizes(self):
        max_cqe = self.ctx.query_device().max_cqe
        self.assertErrno(errno.EINVAL, CQ, self.ctx, 0)
        self.assertErrno(errno.EINVAL, CQ, self.ctx, max_cqe + 1)

    def test_bad_comp_vector(self):
        vectors = self.ctx.num_comp_vectors
        self.assertErrno(errno.EINVAL, CQ, self.ctx, 16, None, None, vectors)

    def test_resize(self):
        max_cqe = self.ctx.query_device().max_cqe
        with CQ(self.ctx, 16) as cq:
            for n in (100, 4000, 8, 1):
                cq.resize(n)
                self.assertGreaterEqual(cq.cqe, n)
                self.assertEqual(cq.poll(1), (0, []))
            self.assertErrno(errno.EINVAL, cq.resize, max_cqe + 1)
            self.assertErrno(errno.EINVAL, cq.resize, 0)

    def test_many(self):
        cqs = [CQ(self.ctx, 64) for _ in range(200)]
        for cq in cqs:
            cq.close()

    def test_notify(self):
        # Events themselves are checked with traffic (test_qp).
        with CompChannel(self.ctx) as ch:
            with CQ(self.ctx, 16, None, ch) as cq:
                cq.req_notify()
                cq.req_notify(solicited_only=True)

    def test_extended(self):
        attr = CqInitAttrEx(cqe=32, wc_flags=e.IBV_WC_EX_WITH_BYTE_LEN)
        with CQEX(self.ctx, attr) as cq:
            self.assertEqual(cq.start_poll(PollCqAttr()), errno.ENOENT)
