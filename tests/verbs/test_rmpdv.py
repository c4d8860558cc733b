# SPDX-License-Identifier: GPL-2.0
"""librmpdv (userspace/librmpdv, Documentation/rmp/librmpdv.rst) through its
example rmpdv_paths and its test program rmpdv_test: every option set and
read back, bad values refused with the QP unchanged, the values the QP
takes the same in ``rmpctl qp show`` and ``rdma resource show qp -dd``,
the paths of a spraying QP with counters that moved (packets and bytes),
entries of the old and new sizes, another process's QP
handle refused (handles are per verbs file), and an rxe device told apart
from rmp and answered EOPNOTSUPP."""
import os
import re
import subprocess

from rmpdata import DataTestCase
from test_rmpctl import rmpctl, rmpctl_json

BUILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'build', 'librmpdv')
EXAMPLE = os.path.join(BUILD, 'rmpdv_paths')
CHECKS = os.path.join(BUILD, 'rmpdv_test')
INIT_NS = ['nsenter', '--net=/proc/1/ns/net']


class Program:
    """A program that prints its checks, then waits for EOF on stdin."""

    def __init__(self, *args):
        self.p = subprocess.Popen(list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.lines = []

    def until(self, prefix):
        """Lines up to the first that starts with prefix; that one's
        words."""
        for line in self.p.stdout:
            self.lines.append(line.rstrip('\n'))
            if line.startswith(prefix):
                return line.split()
        raise AssertionError('no "%s" line: %s %s' %
                             (prefix, self.lines, self.p.stderr.read()))

    def finish(self):
        out, err = self.p.communicate('', timeout=60)
        self.lines += out.splitlines()
        return self.p.returncode, err


class RmpdvTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.set_knob('ext', 'auto')
        for k in ('paths', 'spray', 'cc', 'rcc_unsched'):
            self.set_knob(k, self.read_knob(k).split()[0])

    def assertChecks(self, lines, at_least):
        bad = [line for line in lines if line.startswith('not ok')]
        self.assertEqual(bad, [])
        self.assertGreaterEqual(len([line for line in lines
                                     if line.startswith('ok - ')]),
                                at_least, lines)

    def figures(self, qpn):
        (q,) = rmpctl_json('qp', 'show', self.dev_name, str(qpn))
        return q['figures']

    def test_options_round_trip(self):
        prog = Program(CHECKS, self.dev_name, 'options')
        self.addCleanup(prog.p.kill)
        words = prog.until('qpn ')
        qpn, peer = int(words[1]), int(words[3])
        self.assertChecks(prog.lines, 60)
        # What the library set is what the kernel shows everywhere.
        want = {'opt-paths': 7, 'opt-spray': 'flowlet', 'opt-cc': 'dcqcn',
                'opt-rcc-unsched': 100,
                'opt-own': 'paths,spray,cc,rcc_unsched'}
        f = self.figures(qpn)
        self.assertEqual({k: f[k] for k in want}, want)
        out = subprocess.run(['rdma', '-j', '-dd', 'resource', 'show', 'qp',
                              'link', self.dev_name + '/1', 'lqpn',
                              str(qpn)], check=True, capture_output=True,
                             text=True).stdout
        self.assertIn('"drv_opt-own":"paths,spray,cc,rcc_unsched"', out)
        self.assertIn('"drv_opt-paths":7', out)
        self.assertEqual(self.figures(peer)['opt-own'], 'none')
        # netlink's QP_SET and the library set the same override.
        rmpctl('qp', 'set', self.dev_name, str(qpn), 'paths', 'default')
        self.assertEqual(self.figures(qpn)['opt-own'], 'spray,cc,rcc_unsched')
        status, err = prog.finish()
        self.assertEqual(status, 0, err)

    def test_paths_of_a_spraying_qp(self):
        r = subprocess.run([EXAMPLE, self.dev_name, '6', '64'],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"\n  paths +6 \(the QP's own\)\n")
        self.assertRegex(r.stdout, r"\n  spray +rr \(the device's\)\n")
        paths = []
        for m in re.finditer(r'^path (\d+): sport (\d+) (live|dead) (.*)$',
                             r.stdout, re.M):
            words = m.group(4).split()
            p = {k: int(v) for k, v in zip(words[::2], words[1::2])}
            p.update(index=int(m.group(1)), sport=int(m.group(2)),
                     live=m.group(3))
            paths.append(p)
        self.assertEqual([p['index'] for p in paths], list(range(6)))
        self.assertEqual(len({p['sport'] for p in paths}), 6)
        self.assertTrue(all(p['live'] == 'live' for p in paths))
        # 64 KiB at a 1024-byte MTU: 64 packets, spread over the paths.
        self.assertGreaterEqual(sum(p['sent'] for p in paths), 64)
        self.assertGreaterEqual(sum(p['delivered'] for p in paths), 64)
        self.assertGreater(len([p for p in paths if p['sent'] > 0]), 1)
        self.assertEqual(sum(p['lost'] for p in paths), 0)
        # In bytes: every byte written was delivered once, none lost.
        self.assertEqual(sum(p['delivered_bytes'] for p in paths), 65536)
        self.assertGreaterEqual(sum(p['sent_bytes'] for p in paths), 65536)
        for p in paths:
            self.assertEqual(p['delivered_bytes'], p['delivered'] * 1024)

    def test_path_entries_of_every_size(self):
        """The byte counters grew the path entries: the library's 1.0
        symbol (the struct without them) and a kernel request of version 1
        (no entry size) read every entry where their caller expects it."""
        r = subprocess.run([CHECKS, self.dev_name, 'sizes'],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertChecks(r.stdout.splitlines(), 18)

    def test_another_process_cannot_touch_the_qp(self):
        holder = Program(CHECKS, self.dev_name, 'hold')
        self.addCleanup(holder.p.kill)
        words = holder.until('qpn ')
        qpn, handle = int(words[1]), int(words[3])
        self.assertChecks(holder.lines, 1)
        r = subprocess.run([CHECKS, self.dev_name, 'foreign', str(handle)],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertChecks(r.stdout.splitlines(), 5)
        self.assertIn('ok - set on another process\'s handle: ENOENT',
                      r.stdout)
        # The holder's QP kept its value.
        f = self.figures(qpn)
        self.assertEqual((f['opt-paths'], f['opt-own']), (5, 'paths'))
        status, err = holder.finish()
        self.assertEqual(status, 0, err)

    def rxe(self):
        """An rxe device in the initial namespace, for this test."""
        def init_ns(*args, check=True):
            return subprocess.run(INIT_NS + list(args), check=check,
                                  capture_output=True, text=True)
        init_ns('modprobe', 'rdma_rxe')
        init_ns('ip', 'link', 'add', 'rxdv0', 'type', 'veth', 'peer', 'name',
                'rxdv1')
        self.addCleanup(init_ns, 'ip', 'link', 'del', 'rxdv0', check=False)
        init_ns('ip', 'addr', 'add', '10.9.9.1/24', 'dev', 'rxdv0')
        init_ns('ip', 'link', 'set', 'rxdv0', 'up')
        init_ns('ip', 'link', 'set', 'rxdv1', 'up')
        init_ns('rdma', 'link', 'add', 'rxedv0', 'type', 'rxe', 'netdev',
                'rxdv0')
        self.addCleanup(init_ns, 'rdma', 'link', 'delete', 'rxedv0',
                        check=False)
        return 'rxedv0'

    def test_rxe_is_not_rmp(self):
        dev = self.rxe()
        r = subprocess.run([EXAMPLE, dev], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual((r.returncode, r.stdout),
                         (0, '%s: not an rmp device\n' % dev), r.stderr)
        r = subprocess.run([CHECKS, dev, 'other'], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertChecks(r.stdout.splitlines(), 4)
        # And rmp is one.
        r = subprocess.run([EXAMPLE, self.dev_name, '1', '4'],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn('not an rmp device', r.stdout)
