# SPDX-License-Identifier: GPL-2.0
"""UC QPs: creation, the state machine with UC's attribute masks, query."""
import errno

import pyverbs.enums as e

from rmpdata import LW, RW
from test_uc_data import (UC_INIT_MASK, UC_RTR_MASK, UC_RTS_MASK,
                          UcTestCase)


class UcQpTest(UcTestCase):
    def test_create(self):
        end = self.create_qp(e.IBV_QPT_UC, max_send_wr=16, max_recv_wr=16)
        attr, init = end.qp.query(e.IBV_QP_STATE | e.IBV_QP_CAP)
        self.assertEqual(attr.qp_state, e.IBV_QPS_RESET)
        self.assertEqual(init.qp_type, e.IBV_QPT_UC)
        self.assertGreaterEqual(attr.cap.max_send_wr, 16)
        self.assertGreaterEqual(attr.cap.max_recv_wr, 16)

    def test_modify_and_query(self):
        a = self.create_qp(e.IBV_QPT_UC)
        attr = self.uc_attr(0x123, 0x456, 0x789, LW | RW)
        self.uc_to_rts(a.qp, attr)
        got, init = a.qp.query(0x1fffff)
        self.assertEqual(got.qp_state, e.IBV_QPS_RTS)
        self.assertEqual(init.qp_type, e.IBV_QPT_UC)
        self.assertEqual(got.dest_qp_num, 0x123)
        self.assertEqual(got.sq_psn, 0x456)
        self.assertEqual(got.rq_psn, 0x789)
        self.assertEqual(got.path_mtu, e.IBV_MTU_1024)
        self.assertEqual(got.qp_access_flags, LW | RW)
        # RTS -> RTS may change the access flags; back to RESET and again.
        attr.qp_state = e.IBV_QPS_RTS
        attr.qp_access_flags = LW
        a.qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_ACCESS_FLAGS)
        self.assertEqual(a.qp.query(e.IBV_QP_ACCESS_FLAGS)[0]
                         .qp_access_flags, LW)
        attr.qp_state = e.IBV_QPS_RESET
        a.qp.modify(attr, e.IBV_QP_STATE)
        self.assertEqual(self.state(a), e.IBV_QPS_RESET)
        self.uc_to_rts(a.qp, self.uc_attr(0x124, 1, 2))
        self.assertEqual(self.state(a), e.IBV_QPS_RTS)

    def test_rc_only_attributes_refused(self):
        # UC has no READ/atomic resources, retries, RNR or ACK timeout.
        a = self.create_qp(e.IBV_QPT_UC)
        attr = self.uc_attr(0x123, 1, 2)
        attr.qp_state = e.IBV_QPS_INIT
        a.qp.modify(attr, UC_INIT_MASK)
        attr.qp_state = e.IBV_QPS_RTR
        for extra in (e.IBV_QP_MAX_DEST_RD_ATOMIC, e.IBV_QP_MIN_RNR_TIMER):
            with self.subTest(extra=extra):
                self.assertErrno(errno.EINVAL, a.qp.modify, attr,
                                 UC_RTR_MASK | extra)
        # A required attribute missing.
        self.assertErrno(errno.EINVAL, a.qp.modify, attr,
                         UC_RTR_MASK & ~e.IBV_QP_DEST_QPN)
        a.qp.modify(attr, UC_RTR_MASK)
        attr.qp_state = e.IBV_QPS_RTS
        for extra in (e.IBV_QP_TIMEOUT, e.IBV_QP_RETRY_CNT,
                      e.IBV_QP_RNR_RETRY, e.IBV_QP_MAX_QP_RD_ATOMIC):
            with self.subTest(extra=extra):
                self.assertErrno(errno.EINVAL, a.qp.modify, attr,
                                 UC_RTS_MASK | extra)
        a.qp.modify(attr, UC_RTS_MASK)
        self.assertEqual(self.state(a), e.IBV_QPS_RTS)

    def test_error_flushes_receive_wqes(self):
        a, b = self.uc_pair()
        dst = self.mr(64)
        for i in range(3):
            self.post_recv(b, self.sges(dst), i)
        attr = self.uc_attr(a.qpn, 0, 0)
        attr.qp_state = e.IBV_QPS_ERR
        b.qp.modify(attr, e.IBV_QP_STATE)
        wcs = self.poll(b.rcq, 3)
        self.assertEqual([(wc.wr_id, wc.status) for wc in wcs],
                         [(i, e.IBV_WC_WR_FLUSH_ERR) for i in range(3)])
