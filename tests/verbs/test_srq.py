# SPDX-License-Identifier: GPL-2.0
"""Shared receive queues: sizes, resize, limit, posting, QPs on an SRQ."""
import errno

from pyverbs.cq import CQ
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
from pyverbs.wr import RecvWR, SGE
import pyverbs.enums as e

from rmptest import RmpTestCase


class SRQTest(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)
        self.dev = self.ctx.query_device()

    def tearDown(self):
        self.pd.close()
        super().tearDown()

    def srq(self, max_wr=16, max_sge=2, limit=0):
        return SRQ(self.pd, SrqInitAttr(SrqAttr(max_wr=max_wr,
                                                max_sge=max_sge,
                                                srq_limit=limit)))

    def post(self, srq, n, base=0):
        for i in range(n):
            srq.post_recv(RecvWR(wr_id=base + i, num_sge=1,
                                 sg=[SGE(0x1000, 64, 0)]))

    def fill(self, srq):
        """Post until the ring is full; return how many went in."""
        n = 0
        while True:
            try:
                self.post(srq, 1, 1000 + n)
            except PyverbsRDMAError as ex:
                self.assertEqual(ex.error_code, errno.ENOMEM)
                return n
            n += 1

    def test_create_query(self):
        for max_wr, max_sge in ((1, 1), (16, 2), (100, 32),
                                (self.dev.max_srq_wr, 1)):
            with self.srq(max_wr, max_sge) as srq:
                attr = srq.query()
                self.assertGreaterEqual(attr.max_wr, max_wr)
                self.assertEqual(attr.max_sge, max_sge)
                self.assertEqual(attr.srq_limit, 0)
                self.assertEqual(self.fill(srq), attr.max_wr)

    def test_bad_create(self):
        self.assertErrno(errno.EINVAL, self.srq, 0)
        self.assertErrno(errno.EINVAL, self.srq, self.dev.max_srq_wr + 1)
        self.assertErrno(errno.EINVAL, self.srq, 16,
                         self.dev.max_srq_sge + 1)
        self.assertErrno(errno.EINVAL, self.srq, 16, 1, 100)

    def test_resize_keeps_wqes(self):
        with self.srq(16) as srq:
            self.post(srq, 10)
            srq.modify(SrqAttr(max_wr=200), e.IBV_SRQ_MAX_WR)
            attr = srq.query()
            self.assertGreaterEqual(attr.max_wr, 200)
            # The 10 WQEs moved with the ring: only max_wr - 10 fit.
            self.assertEqual(self.fill(srq), attr.max_wr - 10)
            srq.modify(SrqAttr(max_wr=attr.max_wr), e.IBV_SRQ_MAX_WR)
            self.assertEqual(self.fill(srq), 0)

    def test_resize_too_small(self):
        with self.srq(64) as srq:
            self.post(srq, 40)
            self.assertErrno(errno.EINVAL, srq.modify, SrqAttr(max_wr=8),
                             e.IBV_SRQ_MAX_WR)
            self.assertGreaterEqual(srq.query().max_wr, 64)
            self.assertErrno(errno.EINVAL, srq.modify,
                             SrqAttr(max_wr=self.dev.max_srq_wr + 1),
                             e.IBV_SRQ_MAX_WR)
            # Still the same ring: 40 in it.
            self.assertEqual(self.fill(srq), srq.query().max_wr - 40)

    def test_limit(self):
        with self.srq(64) as srq:
            srq.modify(SrqAttr(srq_limit=10), e.IBV_SRQ_LIMIT)
            self.assertEqual(srq.query().srq_limit, 10)
            srq.modify(SrqAttr(srq_limit=0), e.IBV_SRQ_LIMIT)
            self.assertEqual(srq.query().srq_limit, 0)
            self.assertErrno(errno.EINVAL, srq.modify,
                             SrqAttr(srq_limit=1000), e.IBV_SRQ_LIMIT)
            srq.modify(SrqAttr(max_wr=300, srq_limit=200),
                       e.IBV_SRQ_MAX_WR | e.IBV_SRQ_LIMIT)
            attr = srq.query()
            self.assertGreaterEqual(attr.max_wr, 300)
            self.assertEqual(attr.srq_limit, 200)

    def test_qp_on_srq(self):
        with self.srq(32) as srq, CQ(self.ctx, 64) as cq:
            init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq,
                              cap=QPCap(max_send_wr=4, max_recv_wr=4))
            qp = QP(self.pd, init)
            cap = qp.query(e.IBV_QP_CAP)[1].cap
            self.assertEqual(cap.max_recv_wr, 0)
            self.post(srq, 5)
            # An SRQ's WQEs are not the QP's: the error state leaves them.
            attr = QPAttr(qp_state=e.IBV_QPS_INIT)
            qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX |
                      e.IBV_QP_PORT | e.IBV_QP_ACCESS_FLAGS)
            attr.qp_state = e.IBV_QPS_ERR
            qp.modify(attr, e.IBV_QP_STATE)
            self.assertEqual(cq.poll(8), (0, []))
            qp.close()
            self.assertEqual(self.fill(srq), srq.query().max_wr - 5)
