# SPDX-License-Identifier: GPL-2.0
"""Receiver credit between RC QPs of rmp (cc=rcc; Documentation/rmp/wire.rst):
agreed only when both sides have it, data sent on the receiver's grants
arrives whole, and the credit packets are counted. The QPs talk through
the device's local delivery, so one scheduler grants both."""
import time

import pyverbs.enums as e

from rmpdata import MTU, DataTestCase

CREDIT = ('tx_grants', 'rx_grants', 'tx_credit_requests',
          'rx_credit_requests', 'cc_credit_stalls', 'cc_credit_granted')


class CreditTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.set_knob('ext', 'auto')
        self.set_knob('cc', 'rcc')

    def counters(self):
        return {n: self.counter(n) for n in CREDIT}

    def pair(self):
        """An RC pair whose QPs agreed; both send on credit."""
        a, b = self.rc_pair(max_send_wr=128, max_recv_wr=128)
        self.a, self.b = a, b
        for end in (a, b):
            self.wait_res(end, 'drv_ext', 'agreed')
        return a, b

    def write(self, a, size, seed, wr_id):
        payload, src, dst = self.write_buffers(size, seed)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, size)),
                       wr_id, rdma=(dst.rkey, dst.buf))
        return src, dst, payload

    def test_writes_on_credit_arrive_whole(self):
        # No unscheduled budget: every packet waits for a grant.
        self.set_knob('rcc_unsched', '0')
        a, b = self.pair()
        before = self.counters()
        for i, size in enumerate((1, MTU + 1, 64 * 1024, 1 << 20)):
            with self.subTest(size=size):
                _src, dst, payload = self.write(a, size, i, i)
                self.check_send_wc(self.one(a.scq), i, e.IBV_WC_RDMA_WRITE,
                                   size)
                self.assertEqual(dst.read(size, 0), payload)
        moved = {n: self.counter(n) - v for n, v in before.items()}
        for n in CREDIT:
            self.assertGreater(moved[n], 0, n)
        res = self.qp_res(a)
        self.assertIn('drv_rcc-limit', res)
        self.assertIn('drv_rcc-granted', self.qp_res(b))

    def test_sends_and_reads_between_writes(self):
        self.set_knob('rcc_unsched', '4')
        a, b = self.pair()
        recv = self.mr(4 * MTU)
        self.post_recv(b, self.sges(recv, (0, 4 * MTU)), 100)
        send = self.mr(4 * MTU, fill=0)
        send.write(bytes(range(256)) * (4 * MTU // 256), 4 * MTU, 0)
        _s1, w1, p1 = self.write(a, 40 * MTU, 1, 1)
        self.post_send(a, e.IBV_WR_SEND, self.sges(send, (0, 4 * MTU)), 2)
        back = self.mr(8 * MTU)
        self.post_send(a, e.IBV_WR_RDMA_READ, self.sges(back, (0, 8 * MTU)),
                       3, rdma=(w1.rkey, w1.buf))
        _s4, w4, p4 = self.write(a, 20 * MTU, 4, 4)
        wcs = self.poll(a.scq, 4)
        self.assertEqual([wc.wr_id for wc in wcs], [1, 2, 3, 4])
        for wc in wcs:
            self.assertEqual(wc.status, e.IBV_WC_SUCCESS)
        self.assertEqual(w1.read(40 * MTU, 0), p1)
        self.assertEqual(w4.read(20 * MTU, 0), p4)
        self.assertEqual(back.read(8 * MTU, 0), p1[:8 * MTU])
        self.one(b.rcq, wr_id=100)
        self.assertEqual(recv.read(4 * MTU, 0), send.read(4 * MTU, 0))

    def test_dcqcn_agrees_no_credit(self):
        # Credit is offered only with cc at rcc: the extensions are agreed,
        # credit is not.
        self.set_knob('cc', 'dcqcn')
        a, b = self.pair()
        time.sleep(0.3)
        before = self.counters()
        _src, dst, payload = self.write(a, 64 * 1024, 7, 7)
        self.check_send_wc(self.one(a.scq), 7, e.IBV_WC_RDMA_WRITE,
                           64 * 1024)
        self.assertEqual(dst.read(64 * 1024, 0), payload)
        self.assertNotIn('drv_rcc-limit', self.qp_res(a))
        self.assertEqual(self.counters(), before)
