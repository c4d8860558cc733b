# SPDX-License-Identifier: GPL-2.0
"""Receiving from a shared receive queue: two RC QPs and a UD QP."""
import pyverbs.enums as e
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr

from rmpdata import FILL, GRH, MTU, DataTestCase, data


class SrqDataTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.srq = SRQ(self.pd, SrqInitAttr(SrqAttr(max_wr=256, max_sge=3)))

    def srq_pair(self, rcq):
        """An RC QP a connected to an RC QP b on the SRQ."""
        a = self.create_qp()
        b = self.create_qp(rcq=rcq, srq=self.srq)
        self.to_rts(a.qp, self.rc_attr(b.qpn, 0x10, 0x20))
        self.to_rts(b.qp, self.rc_attr(a.qpn, 0x20, 0x10))
        return a, b

    def test_two_rc_qps(self):
        rcq = self.cq()
        a1, b1 = self.srq_pair(rcq)
        a2, b2 = self.srq_pair(rcq)
        n = 24
        size = 2 * MTU + 5
        dst = self.mr(n * 4096)
        for i in range(n):
            # Two SGEs at odd offsets per receive WQE.
            self.post_recv(self.srq, self.sges(dst, (i * 4096 + 1, 1000),
                                               (i * 4096 + 2001, 2000)), i)
        src = self.mr(n * size)
        image = data(n * size)
        src.write(image, n * size, 0)
        senders = (a1, a2)
        for i in range(n):
            self.post_send(senders[i % 2], e.IBV_WR_SEND_WITH_IMM,
                           self.sges(src, (i * size, size)), i, imm=i)
        for k, a in enumerate(senders):
            wcs = self.poll(a.scq, n // 2)
            for j, wc in enumerate(wcs):
                self.check_wc(wc, wr_id=k + 2 * j, status=e.IBV_WC_SUCCESS,
                              byte_len=size, qp_num=a.qpn)
        wcs = self.poll(rcq, n)
        # Every receive WQE was taken once. The two QPs take from the SRQ
        # in their own work items, so only each QP's completions are
        # ordered: its WQEs in SRQ order, its messages in sending order.
        self.assertEqual(sorted(wc.wr_id for wc in wcs), list(range(n)))
        for qpn in (b1.qpn, b2.qpn):
            ids = [wc.wr_id for wc in wcs if wc.qp_num == qpn]
            self.assertEqual(ids, sorted(ids))
        seen = {b1.qpn: [], b2.qpn: []}
        for wc in wcs:
            self.check_wc(wc, status=e.IBV_WC_SUCCESS, opcode=e.IBV_WC_RECV,
                          byte_len=size, wc_flags=e.IBV_WC_WITH_IMM)
            self.assertEqual(wc.src_qp, {b1.qpn: a1.qpn,
                                         b2.qpn: a2.qpn}[wc.qp_num])
            seen[wc.qp_num].append(wc.imm_data)
            i = wc.wr_id
            m = wc.imm_data
            got = (dst.read(1000, i * 4096 + 1) +
                   dst.read(size - 1000, i * 4096 + 2001))
            self.assertEqual(got, image[m * size:(m + 1) * size])
            self.assertEqual(dst.read(1, i * 4096), bytes([FILL]))
            self.assertEqual(dst.read(1000, i * 4096 + 1001),
                             bytes([FILL]) * 1000)
            self.assertEqual(dst.read(1, i * 4096 + 2001 + size - 1000),
                             bytes([FILL]))
        self.assertEqual(seen, {b1.qpn: list(range(0, n, 2)),
                                b2.qpn: list(range(1, n, 2))})

    def test_rnr_until_srq_refilled(self):
        rcq = self.cq()
        a, b = self.srq_pair(rcq)
        self.post_send(a, e.IBV_WR_SEND, (), 1)
        self.assertNoCompletion(a.scq, 0.3)
        self.post_recv(self.srq, (), 7)
        self.one(a.scq, wr_id=1, status=e.IBV_WC_SUCCESS)
        self.one(rcq, wr_id=7, status=e.IBV_WC_SUCCESS, byte_len=0,
                 qp_num=b.qpn)

    def test_ud_on_srq(self):
        r = self.create_qp(e.IBV_QPT_UD, srq=self.srq)
        from pyverbs.qp import QPAttr
        attr = QPAttr()
        attr.qkey = 0x1234
        for state, mask in ((e.IBV_QPS_INIT, e.IBV_QP_PKEY_INDEX |
                             e.IBV_QP_PORT | e.IBV_QP_QKEY),
                            (e.IBV_QPS_RTR, 0),
                            (e.IBV_QPS_RTS, e.IBV_QP_SQ_PSN)):
            attr.qp_state = state
            attr.port_num = 1
            r.qp.modify(attr, e.IBV_QP_STATE | mask)
        s = self.ud_qp(0x1234)
        dst = self.mr(GRH + 16)
        # The AH must outlive the WR: rmp resolves it when it takes the WQE.
        av = self.ah()
        self.post_recv(self.srq, self.sges(dst), 3)
        self.post_send(s, e.IBV_WR_SEND, (), 4, ud=(av, r.qpn, 0x1234))
        self.one(s.scq, wr_id=4, status=e.IBV_WC_SUCCESS)
        self.one(r.rcq, wr_id=3, status=e.IBV_WC_SUCCESS, byte_len=GRH,
                 src_qp=s.qpn, qp_num=r.qpn, wc_flags=e.IBV_WC_GRH)
