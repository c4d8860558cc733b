# SPDX-License-Identifier: GPL-2.0
"""Extension negotiation between RC QPs of rmp (Documentation/rmp/wire.rst)
and the device knob that governs it. The QPs talk to each other through the
device's local delivery, their questions through its QP1."""
import time

from pyverbs.qp import QPAttr
import pyverbs.enums as e

from rmpdata import DataTestCase


class ExtTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.knob = '/sys/class/infiniband/%s/rmp/ext' % self.dev_name
        self.addCleanup(self.set_knob, self.read_knob())

    def read_knob(self):
        with open(self.knob) as f:
            return f.read().strip()

    def set_knob(self, word):
        with open(self.knob, 'w') as f:
            f.write(word + '\n')

    def ext_of(self, end):
        """The QP's drv_ext in ``rdma -dd resource show qp``."""
        return self.qp_res(end)['drv_ext']

    def wait_ext(self, end, want, timeout=5):
        stop = time.monotonic() + timeout
        while self.ext_of(end) != want and time.monotonic() < stop:
            time.sleep(0.02)
        self.assertEqual(self.ext_of(end), want)

    def counters(self):
        return {n: self.counter(n)
                for n in ('ext_asked', 'ext_agreed', 'ext_standard')}

    def deltas(self, before):
        now = self.counters()
        return {n: now[n] - before[n] for n in now}

    def test_auto_peers_agree(self):
        self.set_knob('auto')
        before = self.counters()
        a, b = self.rc_pair()
        self.wait_ext(a, 'agreed')
        self.wait_ext(b, 'agreed')
        # Each QP counts its agreement once, whether it learned it from
        # its own question or from its peer's. Each asks once, unless its
        # peer's question reached it, and told it, before it reached RTS.
        deltas = self.deltas(before)
        self.assertIn(deltas.pop('ext_asked'), (1, 2))
        self.assertEqual(deltas, {'ext_agreed': 2, 'ext_standard': 0})

    def test_off_asks_nothing(self):
        self.set_knob('off')
        before = self.counters()
        a, b = self.rc_pair()
        time.sleep(0.5)
        self.assertEqual((self.ext_of(a), self.ext_of(b)), ('none', 'none'))
        self.assertEqual(self.deltas(before),
                         {'ext_asked': 0, 'ext_agreed': 0, 'ext_standard': 0})

    def test_on_agrees_without_asking(self):
        self.set_knob('on')
        before = self.counters()
        a, b = self.rc_pair()
        self.assertEqual((self.ext_of(a), self.ext_of(b)),
                         ('agreed', 'agreed'))
        self.assertEqual(self.deltas(before)['ext_asked'], 0)

    def test_reset_forgets(self):
        a, b = self.rc_pair()
        self.wait_ext(a, 'agreed')
        a.qp.modify(QPAttr(qp_state=e.IBV_QPS_RESET), e.IBV_QP_STATE)
        self.assertEqual(self.ext_of(a), 'none')
