# SPDX-License-Identifier: GPL-2.0
"""Per-QP overrides of the knobs paths, spray, cc and rcc_unsched, set by
netlink QP_SET (``rmpctl qp set``): values taken and shown by ``rmpctl qp
show`` and ``rdma resource show qp -dd``, ``default`` giving the QP back
to its device's knob, bad values and other knobs refused with the QP
unchanged, unprivileged users refused, and an override that the transport
follows while the device's knob says otherwise."""
import pyverbs.enums as e

from rmpdata import MTU, DataTestCase
from test_knobs import KNOBS, shown
from test_rmpctl import UNPRIVILEGED, rmpctl, rmpctl_json

OPTS = ('paths', 'spray', 'cc', 'rcc_unsched')


def fig(knob):
    """The figure of a knob's per-QP value: opt-paths, opt-rcc-unsched."""
    return 'opt-' + knob.replace('_', '-')


class QpSetTest(DataTestCase):
    def setUp(self):
        super().setUp()
        for k in OPTS:
            self.set_knob(k, KNOBS[k][2][-1])

    def qp_set(self, end, knob, value, **kw):
        return rmpctl('qp', 'set', self.dev_name, str(end.qpn), knob, value,
                      **kw)

    def figures(self, end):
        (q,) = rmpctl_json('qp', 'show', self.dev_name, str(end.qpn))
        return q['figures']

    def opts(self, end):
        """The QP's values of the four knobs as rmpctl shows them, and its
        own ones; checked against ``rdma resource show qp -dd``."""
        f = self.figures(end)
        res = self.qp_res(end)
        got = {k: str(f[fig(k)]) for k in OPTS}
        self.assertEqual(got, {k: str(res['drv_' + fig(k)]) for k in OPTS})
        self.assertEqual(f['opt-own'], res['drv_opt-own'])
        return got, f['opt-own']

    def device_opts(self):
        return {k: self.read_knob(k).split()[0] for k in OPTS}

    def test_values_round_trip(self):
        a, b = self.rc_pair()
        self.assertEqual(self.opts(a), (self.device_opts(), 'none'))
        want = self.device_opts()
        own = []
        for k in OPTS:
            _default, unit, good, _bad = KNOBS[k]
            for v in good[:-1]:
                with self.subTest(knob=k, value=v):
                    self.qp_set(a, k, v)
                    want[k] = v
                    if k not in own:
                        own.append(k)
                    self.assertEqual(self.opts(a), (want, ','.join(own)))
            if unit:
                self.qp_set(a, k, shown(good[0], unit))
                want[k] = good[0]
                self.assertEqual(self.opts(a)[0][k], good[0])
        # The peer and the device are untouched.
        self.assertEqual(self.opts(b), (self.device_opts(), 'none'))
        self.assertEqual(self.device_opts(),
                         {k: KNOBS[k][2][-1] for k in OPTS})
        # A device knob changed meanwhile shows only where not overridden.
        self.qp_set(a, 'cc', 'default')
        self.set_knob('cc', 'rcc')
        self.set_knob('paths', '3')
        got, mine = self.opts(a)
        self.assertEqual((got['cc'], got['paths'], mine),
                         ('rcc', want['paths'], 'paths,spray,rcc_unsched'))
        for k in OPTS:
            self.qp_set(a, k, 'default')
        self.assertEqual(self.opts(a), (self.device_opts(), 'none'))

    def test_bad_values_refused_and_qp_unchanged(self):
        a, _b = self.rc_pair()
        for k in OPTS:
            self.qp_set(a, k, KNOBS[k][2][0])
        before = self.opts(a)
        for k in OPTS:
            unit = KNOBS[k][1]
            for v in KNOBS[k][3] + ('defaults',):
                with self.subTest(knob=k, value=v):
                    r = self.qp_set(a, k, v, check=False)
                    self.assertEqual(r.returncode, 1)
                    msg = r.stderr.strip().split(': ')[-1]
                    if unit is None:
                        self.assertRegex(msg, r'^%s takes one of .*, or '
                                         r'default$' % k)
                    else:
                        self.assertRegex(msg, r'^%s takes a number in '
                                         r'\d+\.\.\d+.*, or default$' % k)
                    self.assertEqual(self.opts(a), before)
        for k in ('ext', 'ecn', 'link_rate', 'nosuchknob'):
            with self.subTest(knob=k):
                r = self.qp_set(a, k, KNOBS.get(k, ('', '', ('1',)))[2][0],
                                check=False)
                self.assertEqual(r.returncode, 1)
                self.assertRegex(r.stderr, 'a QP overrides only paths, '
                                 'spray, cc and rcc_unsched|no knob of that')
        self.assertEqual(self.opts(a), before)
        # No such QP; a QP that is not RC or UC.
        r = rmpctl('qp', 'set', self.dev_name, str(0xfffff0), 'paths', '2',
                   check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('no QP of that number', r.stderr)
        ud = self.ud_qp()
        r = self.qp_set(ud, 'paths', '2', check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('only RC and UC QPs take overrides', r.stderr)
        self.assertNotIn('opt-paths', self.figures(ud))

    def test_unprivileged_refused(self):
        a, _b = self.rc_pair()
        self.qp_set(a, 'paths', '4')
        before = self.opts(a)
        for k in OPTS:
            with self.subTest(knob=k):
                r = self.qp_set(a, k, KNOBS[k][2][0], prefix=UNPRIVILEGED,
                                check=False)
                self.assertEqual(r.returncode, 1)
                self.assertIn('Operation not permitted', r.stderr)
        self.assertEqual(self.opts(a), before)

    def test_transport_follows_the_override(self):
        """Device: paths 1, cc none. A QP given paths 6 and cc dcqcn
        before it connects sprays over 6 paths and paces itself; its peer
        keeps the device's settings. The override outlives a reset, and
        default gives the QP back the device's settings at its next
        connection."""
        self.set_knob('ext', 'auto')
        a = self.create_qp(max_send_wr=128)
        b = self.create_qp(max_send_wr=128)
        self.qp_set(a, 'paths', '6')
        self.qp_set(a, 'cc', 'dcqcn')
        self.qp_set(a, 'spray', 'weighted')

        def connect():
            self.to_rts(a.qp, self.rc_attr(b.qpn, 0x10, 0x20))
            self.to_rts(b.qp, self.rc_attr(a.qpn, 0x20, 0x10))
            for end in (a, b):
                self.wait_res(end, 'drv_ext', 'agreed')

        def reset():
            attr = self.rc_attr(b.qpn, 0, 0)
            attr.qp_state = e.IBV_QPS_RESET
            for end in (a, b):
                end.qp.modify(attr, e.IBV_QP_STATE)

        connect()
        self.wait_res(a, 'drv_paths', 6)
        res = self.qp_res(a)
        self.assertEqual((res['drv_spray'], res['drv_cc']),
                         ('weighted', 'dcqcn'))
        self.assertIn('drv_cc-rate-kbps', res)
        res = self.qp_res(b)
        self.assertNotIn('drv_paths', res)
        self.assertEqual(res['drv_cc'], 'none')
        before = self.counter('tx_sprayed')
        _payload, src, dst = self.write_buffers(32 * MTU, 7)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, 32 * MTU)),
                       1, rdma=(dst.rkey, dst.buf + 3))
        self.one(a.scq, status=e.IBV_WC_SUCCESS)
        self.assertEqual(dst.read(32 * MTU, 3), _payload)
        self.assertGreaterEqual(self.counter('tx_sprayed') - before, 32)
        (q,) = rmpctl_json('qp', 'show', self.dev_name, str(a.qpn))
        self.assertEqual(len(q['paths']), 6)
        self.assertGreater(len([p for p in q['paths'] if p['sent']]), 1)

        reset()
        self.assertEqual(self.opts(a)[1], 'paths,spray,cc')
        connect()
        self.wait_res(a, 'drv_paths', 6)
        for k in ('paths', 'spray', 'cc'):
            self.qp_set(a, k, 'default')
        # Running on: the path set stays until the next connection.
        self.assertEqual(self.qp_res(a)['drv_paths'], 6)
        reset()
        connect()
        res = self.qp_res(a)
        self.assertNotIn('drv_paths', res)
        self.assertEqual(res['drv_cc'], 'none')
