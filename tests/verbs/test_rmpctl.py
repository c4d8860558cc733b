# SPDX-License-Identifier: GPL-2.0
"""rmpctl and the generic netlink family rmp behind it
(include/uapi/rdma/rmp_netlink.h): every knob shown as sysfs shows it and
set as sysfs takes it, bad values and unprivileged users refused with the
knob unchanged and a message naming the knob, devices of other namespaces
invisible, counters that agree with ``rdma statistic``, QPs and their paths
as ``rdma resource show qp -dd`` sees them, and the monitor's rates."""
import json
import os
import re
import subprocess
import threading
import time

import pyverbs.enums as e

from rmpdata import MTU, OFF, DataTestCase
from test_knobs import KNOBS, shown

RMPCTL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                      'build', 'rmpctl', 'rmpctl')
UNPRIVILEGED = ['setpriv', '--reuid=nobody', '--regid=nogroup',
                '--clear-groups', '--inh-caps=-all']
# The verbs suite's second namespace, with no rmp device.
OTHER_NS = ['ip', 'netns', 'exec', 'h2']


def rmpctl(*args, prefix=(), check=True):
    """Run rmpctl; returns the CompletedProcess."""
    r = subprocess.run(list(prefix) + [RMPCTL] + list(args),
                       capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError('rmpctl %s: status %d: %s' %
                             (' '.join(args), r.returncode, r.stderr))
    return r


def rmpctl_json(*args, prefix=()):
    return json.loads(rmpctl('--json', *args, prefix=prefix).stdout)


class RmpctlTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.dir = '/sys/class/infiniband/%s/rmp/' % self.dev_name
        for k in KNOBS:
            self.addCleanup(self.write_knob, k, self.read_knob(k))

    def dev(self):
        (d,) = rmpctl_json('dev', 'show', self.dev_name)
        return d

    def knob_shown(self, d, k):
        """A knob of a DEV_GET reply as its sysfs file shows it."""
        knob = d['knobs'][k]
        if 'word' in knob:
            return knob['word']
        return shown(str(knob['value']), knob['unit'])

    def set(self, k, v, **kw):
        return rmpctl('dev', 'set', self.dev_name, k, v, **kw)

    # Devices and knobs.

    def test_dev_show_lists_the_device(self):
        devs = rmpctl_json('dev', 'show')
        self.assertIn(self.dev_name, [d['dev'] for d in devs])
        d = self.dev()
        self.assertEqual(d['netdev'], 'eth0')
        with open('/sys/class/net/eth0/ifindex') as f:
            self.assertEqual(d['ifindex'], int(f.read()))
        text = rmpctl('dev', 'show', self.dev_name).stdout.splitlines()
        self.assertEqual(text[0], '%s: netdev eth0' % self.dev_name)

    def test_every_knob_shown_as_sysfs_shows_it(self):
        d = self.dev()
        self.assertEqual(set(d['knobs']), set(KNOBS))
        text = rmpctl('dev', 'show', self.dev_name).stdout
        for k in KNOBS:
            with self.subTest(knob=k):
                self.assertEqual(self.knob_shown(d, k), self.read_knob(k))
                self.assertRegex(text, r'\n    %s +%s\n' %
                                 (k, re.escape(self.read_knob(k))))

    def test_values_round_trip(self):
        for k, (_default, unit, good, _bad) in KNOBS.items():
            for v in good:
                with self.subTest(knob=k, value=v):
                    self.set(k, v)
                    self.assertEqual(self.read_knob(k), shown(v, unit))
                    self.assertEqual(self.knob_shown(self.dev(), k),
                                     shown(v, unit))
            if unit:
                # What sysfs shows is taken as it is, unit and all.
                with self.subTest(knob=k, value='with unit'):
                    self.set(k, shown(good[0], unit))
                    self.assertEqual(self.read_knob(k), shown(good[0], unit))

    def test_bad_values_refused_and_nothing_changes(self):
        for k, (_default, unit, good, bad) in KNOBS.items():
            self.set(k, good[0])
            for v in bad:
                with self.subTest(knob=k, value=v):
                    r = self.set(k, v, check=False)
                    self.assertEqual(r.returncode, 1)
                    # The kernel's message: the knob and what it takes.
                    msg = r.stderr.strip().split(': ')[-1]
                    if unit is None:
                        self.assertRegex(msg, r'^%s takes one of ' % k)
                        for word in good:
                            self.assertIn(word, msg)
                    else:
                        self.assertRegex(msg, r'^%s takes a number in '
                                         r'\d+\.\.\d+%s$' %
                                         (k, re.escape(' (%s)' % unit)
                                          if unit else ''))
                    self.assertEqual(self.read_knob(k), shown(good[0], unit))

    def test_the_range_said_is_the_range_taken(self):
        for k, (_default, unit, good, _bad) in KNOBS.items():
            if unit is None:
                continue
            with self.subTest(knob=k):
                msg = self.set(k, 'x', check=False).stderr
                lo, hi = map(int, re.search(r'(\d+)\.\.(\d+)', msg).groups())
                self.set(k, str(lo))
                self.set(k, str(hi))
                self.assertEqual(self.read_knob(k), shown(str(hi), unit))
                if lo > 0:
                    self.assertEqual(self.set(k, str(lo - 1),
                                              check=False).returncode, 1)
                self.assertEqual(self.set(k, str(hi + 1),
                                          check=False).returncode, 1)
                self.assertEqual(self.read_knob(k), shown(str(hi), unit))

    def test_unknown_knob_and_device(self):
        r = self.set('nosuchknob', '1', check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('no knob of that name', r.stderr)
        for args in (('dev', 'show', 'nosuchdev'),
                     ('dev', 'set', 'nosuchdev', 'paths', '2'),
                     ('qp', 'show', 'nosuchdev')):
            with self.subTest(args=args):
                r = rmpctl(*args, check=False)
                self.assertEqual(r.returncode, 1)
                self.assertIn('no rmp device of that name', r.stderr)
        r = rmpctl('dev', 'frobnicate', check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn('usage', r.stderr)

    def test_unprivileged_refused(self):
        for k, (_default, unit, good, _bad) in KNOBS.items():
            with self.subTest(knob=k):
                self.set(k, good[-1])
                r = self.set(k, good[0], prefix=UNPRIVILEGED, check=False)
                self.assertEqual(r.returncode, 1)
                self.assertIn('Operation not permitted', r.stderr)
                self.assertIn(k, r.stderr)
                self.assertEqual(self.read_knob(k), shown(good[-1], unit))
        # Reading needs no privilege.
        d = json.loads(rmpctl('--json', 'dev', 'show', self.dev_name,
                              prefix=UNPRIVILEGED).stdout)
        self.assertEqual(d[0]['dev'], self.dev_name)

    def test_other_namespace_sees_no_device(self):
        self.assertEqual(rmpctl_json('dev', 'show', prefix=OTHER_NS), [])
        self.assertEqual(rmpctl_json('qp', 'show', prefix=OTHER_NS), [])
        old = self.read_knob('paths')
        for args in (('dev', 'show', self.dev_name),
                     ('dev', 'set', self.dev_name, 'paths', '7'),
                     ('qp', 'show', self.dev_name),
                     ('qp', 'show', self.dev_name, '1')):
            with self.subTest(args=args):
                r = rmpctl(*args, prefix=OTHER_NS, check=False)
                self.assertEqual(r.returncode, 1)
                self.assertIn('no rmp device of that name', r.stderr)
        self.assertEqual(self.read_knob('paths'), old)

    # Counters.

    def rdma_statistic(self):
        out = subprocess.run(['rdma', '-j', 'statistic', 'show', 'link',
                              self.dev_name + '/1'], check=True,
                             capture_output=True, text=True).stdout
        s = json.loads(out)[0]
        for k in ('ifindex', 'ifname', 'port'):
            s.pop(k, None)
        return s

    def test_counters_match_rdma_statistic(self):
        # Some traffic first, so that the counters are not all 0.
        a, b = self.rc_pair()
        _payload, src, dst = self.write_buffers(8 * MTU, 1)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, 8 * MTU)),
                       1, rdma=(dst.rkey, dst.buf + OFF))
        self.one(a.scq)
        before = self.dev()['counters']
        stat = self.rdma_statistic()
        after = self.dev()['counters']
        self.assertEqual(set(before), set(stat))
        quiet = [c for c in before if before[c] == after[c]]
        self.assertGreater(len(quiet), len(before) // 2)
        for c in quiet:
            with self.subTest(counter=c):
                self.assertEqual(before[c], stat[c])
        self.assertGreaterEqual(after['tx_packets'], 8)
        self.assertGreaterEqual(stat['tx_packets'], before['tx_packets'])
        self.assertLessEqual(stat['tx_packets'], after['tx_packets'])

    def test_monitor_rates(self):
        r = rmpctl('--json', 'monitor', self.dev_name, '-i', '0.3', '-n',
                   '2')
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        totals = []
        for line in lines:
            m = json.loads(line)
            self.assertGreater(m['interval'], 0.25)
            (d,) = m['devs']
            self.assertEqual(d['dev'], self.dev_name)
            self.assertEqual(set(d['counters']), set(self.dev()['counters']))
            totals.append(d['counters'])
        # A rate is the rise of its counter over the interval.
        m = json.loads(lines[1])
        for c, v in m['devs'][0]['counters'].items():
            rise = v['value'] - totals[0][c]['value']
            self.assertAlmostEqual(v['rate'] * m['interval'], rise,
                                   delta=0.02 + 0.01 * rise)
        r = rmpctl('monitor', self.dev_name, '-i', '0.2', '-n', '1')
        self.assertIn('%s (netdev eth0)' % self.dev_name, r.stdout)
        self.assertEqual(rmpctl('monitor', '-i', 'soon',
                                check=False).returncode, 2)

    # Queue pairs.

    def qp(self, end):
        (q,) = rmpctl_json('qp', 'show', self.dev_name, str(end.qpn))
        return q

    def test_qp_show_lists_live_qps(self):
        a, b = self.rc_pair()
        qps = {q['qpn']: q for q in rmpctl_json('qp', 'show', self.dev_name)}
        for end, peer in ((a, b), (b, a)):
            with self.subTest(qpn=end.qpn):
                q = qps[end.qpn]
                self.assertEqual((q['dev'], q['type'], q['state'],
                                  q['peer_qpn']),
                                 (self.dev_name, 'RC', 'RTS', peer.qpn))
                self.assertEqual(self.qp(end)['qpn'], end.qpn)
        self.assertEqual(qps[1]['type'], 'GSI')
        self.assertEqual([q['qpn'] for q in rmpctl_json('qp', 'show')],
                         sorted(qps))
        text = rmpctl('qp', 'show', self.dev_name, str(a.qpn)).stdout
        self.assertEqual(text.splitlines()[0], '%s qpn %d RC RTS peer %d' %
                         (self.dev_name, a.qpn, b.qpn))
        # Its state follows the QP; a destroyed QP is gone.
        attr = self.rc_attr(b.qpn, 0, 0)
        attr.qp_state = e.IBV_QPS_ERR
        a.qp.modify(attr, e.IBV_QP_STATE)
        self.assertEqual(self.qp(a)['state'], 'ERR')
        qpn = b.qpn
        b.qp.close()
        r = rmpctl('qp', 'show', self.dev_name, str(qpn), check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('no QP of that number', r.stderr)
        self.assertNotIn(qpn, [q['qpn'] for q in
                               rmpctl_json('qp', 'show', self.dev_name)])

    def test_qp_figures_are_the_rdma_tool_ones(self):
        self.set('ext', 'auto')
        a, _b = self.rc_pair()
        self.wait_res(a, 'drv_ext', 'agreed')
        figures = self.qp(a)['figures']
        res = {k[4:]: v for k, v in self.qp_res(a).items()
               if k.startswith('drv_')}
        self.assertEqual(set(figures), set(res))
        for k in ('ext', 'cc', 'retransmits', 'req-state', 'retries-left'):
            with self.subTest(figure=k):
                self.assertEqual(figures[k], res[k])

    def test_qp_paths(self):
        self.set('ext', 'auto')
        self.set('paths', '8')
        a, b = self.rc_pair()
        for end in (a, b):
            self.wait_res(end, 'drv_ext', 'agreed')
        self.wait_res(a, 'drv_paths', 8)
        res = self.qp_res(a)
        q = self.qp(a)
        self.assertEqual(q['figures']['paths'], 8)
        self.assertEqual(q['figures']['spray'], 'rr')
        self.assertEqual([p['index'] for p in q['paths']], list(range(8)))
        self.assertEqual([p['sport'] for p in q['paths']],
                         [res['drv_path%d-sport' % i] for i in range(8)])
        self.assertTrue(all(p['live'] == 1 for p in q['paths']))
        _payload, src, dst = self.write_buffers(64 * MTU, 2)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, 64 * MTU)),
                       1, rdma=(dst.rkey, dst.buf + OFF))
        self.one(a.scq)
        stop = time.monotonic() + 5
        while time.monotonic() < stop:
            paths = self.qp(a)['paths']
            if sum(p['delivered_bytes'] for p in paths) >= 64 * MTU:
                break
            time.sleep(0.05)
        self.assertGreaterEqual(sum(p['sent'] for p in paths), 64)
        self.assertGreaterEqual(sum(p['delivered'] for p in paths), 64)
        self.assertGreater(len([p for p in paths if p['sent']]), 1)
        # Bytes: at least what the WRITE moved, each path's sent covering
        # its delivered, and the text output shows them too.
        self.assertGreaterEqual(sum(p['delivered_bytes'] for p in paths),
                                64 * MTU)
        for p in paths:
            self.assertGreaterEqual(p['sent_bytes'], p['delivered_bytes'])
            self.assertGreaterEqual(p['delivered_bytes'], p['delivered'])
        text = rmpctl('qp', 'show', self.dev_name, str(a.qpn)).stdout
        self.assertRegex(text, r'path 0: .* sent_bytes \d+ '
                         r'delivered_bytes \d+')

    def test_dumps_while_qps_and_devices_come_and_go(self):
        """Dumps run while QPs are created and destroyed on this device and
        a device of the other namespace is added and deleted: each dump
        succeeds and shows a consistent list (the debug kernel watches
        for use after free and lock misuse)."""
        stop = threading.Event()
        failures = []
        counts = {'h1': 0, 'h2': 0}

        def dump(ns, prefix, cmds):
            while not stop.is_set():
                for args in cmds:
                    r = rmpctl('--json', *args, prefix=prefix, check=False)
                    try:
                        json.loads(r.stdout)
                    except ValueError:
                        failures.append((ns, args, r.stdout, r.stderr))
                    if r.returncode:
                        failures.append((ns, args, r.returncode, r.stderr))
                    counts[ns] += 1

        def link(*args):
            subprocess.run(OTHER_NS + ['rdma', 'link'] + list(args),
                           check=True, capture_output=True)

        self.addCleanup(subprocess.run, OTHER_NS + ['rdma', 'link',
                                                    'delete', 'rmpnl0'],
                        capture_output=True)
        threads = [threading.Thread(target=dump, args=(
                       'h1', (), (('qp', 'show'), ('dev', 'show')))),
                   threading.Thread(target=dump, args=(
                       'h2', OTHER_NS, (('dev', 'show'), ('qp', 'show'))))]
        for t in threads:
            t.start()
        try:
            for _ in range(4):
                link('add', 'rmpnl0', 'type', 'rmp', 'netdev', 'eth0')
                pairs = [self.rc_pair() for _ in range(3)]
                for a, b in pairs:
                    a.qp.close()
                    b.qp.close()
                link('delete', 'rmpnl0')
        finally:
            stop.set()
            for t in threads:
                t.join()
        self.assertEqual(failures, [])
        self.assertGreater(min(counts.values()), 4)
