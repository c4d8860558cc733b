# SPDX-License-Identifier: GPL-2.0
"""Limits: thousands of QPs, MRs, MWs and CQs on one device, each carrying
or holding what it should and all freed; every maximum query_device reports
taken and the next value refused; the device-wide counts that fit in the
guest reached and enforced; a full send queue and an overflowing CQ, and
how each recovers. See "Limits" in Documentation/rmp/verbs.rst."""
import errno
import json
import os
import subprocess
import time

from pyverbs.addr import AH, AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.mr import MR, MW
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
import pyverbs.enums as e

from rmpdata import LW, RW, SELF_V4, DataTestCase, data
from test_mr import PAGE, Mapping
from test_qp import INIT_MASK, RTR_MASK, RTS_MASK, make_gid

OK = e.IBV_WC_SUCCESS

# The debug kernel (KASAN, lockdep, kmemleak) creates and frees objects
# about four times slower: tests/suites/verbs.sh sets RMP_LIMITS_SCALE to 4
# there, which divides the many-object counts by it and leaves filling the
# device-wide counts (minutes there) to the normal kernel's run.
SCALE = int(os.environ.get('RMP_LIMITS_SCALE', '1'))
DEBUG_KERNEL = os.uname().release.endswith('-rmp-debug')
# QPs on the device at once, and how many of them are connected in pairs
# and carry a SEND each.
MANY_QPS = 4096 // SCALE
PAIRS = 256 // SCALE
# Smallest rings: one send and one receive WQE of one entry.
SMALL = dict(max_send_wr=1, max_recv_wr=1, max_send_sge=1, max_recv_sge=1)
# Bytes each pair's SEND carries.
MSG = 64
# Capacities whose memory per QP is measured (Documentation/rmp/verbs.rst,
# "Memory per QP"): send and receive WRs and SGEs, inline bytes.
MEMORY_CAPS = ((1, 1, 1, 1, 0), (16, 16, 1, 1, 0), (64, 64, 4, 4, 64),
               (128, 128, 1, 1, 0))
# What a QP costs beyond the formula: ib_core's objects, the process's
# (provider, pyverbs, the two mappings), a measurement's noise.
MEMORY_SLACK = 16 * 1024


def pow2(n):
    """n rounded up to a power of two."""
    return 1 << (n - 1).bit_length()


def page_align(n):
    return (n + PAGE - 1) // PAGE * PAGE


def qp_memory(send_wr, recv_wr, send_sge, recv_sge, inline):
    """The kernel memory of a QP by the formula of the documentation: its
    rings (a 384-byte header, then slots of a power of two of bytes, in
    whole pages), the requester's copy of each send slot (24 + 744 bytes,
    allocated in powers of two), an RC QP's state for sprayed SENDs
    (1152 bytes, kmalloc-2k; the QPs measured are RC without an SRQ) and
    struct rmp_qp (kmalloc-4k)."""
    send_slots = pow2(send_wr + 1)
    send = page_align(384 + send_slots *
                      pow2(208 + max(16 * send_sge, inline)))
    recv = page_align(384 + pow2(recv_wr + 1) * pow2(40 + 16 * recv_sge))
    taken = pow2(send_slots - 1)
    return (send + recv + pow2(24 * taken) + pow2(744 * taken) + 2048 +
            4096)


def mem_available():
    """MemAvailable of /proc/meminfo, in bytes."""
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('MemAvailable:'):
                return int(line.split()[1]) * 1024
    raise RuntimeError('no MemAvailable in /proc/meminfo')


def wait_for(pred, timeout=10):
    """pred() within timeout seconds; returns its last value."""
    end = time.monotonic() + timeout
    while not pred() and time.monotonic() < end:
        time.sleep(0.01)
    return pred()


class LimitTestCase(DataTestCase):
    def counts(self):
        """The device's line of ``rdma resource show``: objects by type."""
        out = subprocess.run(['rdma', '-j', 'resource', 'show'], check=True,
                             capture_output=True, text=True).stdout
        for line in json.loads(out):
            if line['ifname'] == self.dev_name:
                return line
        raise AssertionError('%s not in rdma resource show' % self.dev_name)

    def fill_up(self, make, limit):
        """Call make() until it fails, at most limit times; it must fail
        with ENOMEM. Returns what it made."""
        made = []
        while len(made) < limit:
            try:
                made.append(make())
            except PyverbsRDMAError as ex:
                self.assertEqual(ex.error_code, errno.ENOMEM, ex)
                return made
        self.fail('no ENOMEM after %d objects' % limit)

    def exhaust(self, make, room):
        """make() succeeds room times and then fails with ENOMEM; after one
        of them is closed it succeeds once more. Closes all."""
        made = self.fill_up(make, room + 1)
        try:
            self.assertEqual(len(made), room)
            made.pop().close()
            made.append(make())
            self.assertErrno(errno.ENOMEM, make)
        finally:
            for obj in made:
                obj.close()


class ManyObjectsTest(LimitTestCase):
    def test_thousands_of_rc_qps(self):
        before = self.counts()['qp']
        scq = self.cq(PAIRS)
        rcq = self.cq(PAIRS)
        ends = [self.create_qp(scq=scq, rcq=rcq, **SMALL)
                for _ in range(MANY_QPS)]
        self.assertEqual(len({end.qpn for end in ends}), MANY_QPS)
        self.assertEqual(self.counts()['qp'], before + MANY_QPS)

        # Pairs spread over the whole set: every step-th QP and the next.
        step = MANY_QPS // PAIRS
        pairs = [(ends[i], ends[i + 1]) for i in range(0, MANY_QPS, step)]
        src = self.mr(PAIRS * MSG)
        dst = self.mr(PAIRS * MSG)
        for i, (a, b) in enumerate(pairs):
            self.to_rts(a.qp, self.rc_attr(b.qpn, i, 0, LW))
            self.to_rts(b.qp, self.rc_attr(a.qpn, 0, i, LW))
            src.write(data(MSG, i), MSG, i * MSG)
            self.post_recv(b, self.sges(dst, (i * MSG, MSG)), i)
            self.post_send(a, sg=self.sges(src, (i * MSG, MSG)), wr_id=i)
        by_qpn = {a.qpn: i for i, (a, _) in enumerate(pairs)}
        for wc in self.poll(scq, PAIRS):
            self.check_wc(wc, status=OK, opcode=e.IBV_WC_SEND,
                          wr_id=by_qpn[wc.qp_num])
        by_qpn = {b.qpn: i for i, (_, b) in enumerate(pairs)}
        for wc in self.poll(rcq, PAIRS):
            self.check_wc(wc, status=OK, byte_len=MSG,
                          wr_id=by_qpn[wc.qp_num])
        for i in range(PAIRS):
            self.assertEqual(dst.read(MSG, i * MSG), data(MSG, i), i)

        for end in ends:
            end.qp.close()
        self.assertEqual(self.counts()['qp'], before)

    def test_thousands_of_mrs_mws_cqs(self):
        n_mrs, n_mws, n_cqs = 8192 // SCALE, 4096 // SCALE, 1024 // SCALE
        before = self.counts()
        m = Mapping(n_mrs * PAGE)
        self.addCleanup(m.close)
        mrs = [MR(self.pd, PAGE, LW | RW, address=m.addr + i * PAGE)
               for i in range(n_mrs)]
        mws = [MW(self.pd, e.IBV_MW_TYPE_2) for _ in range(n_mws)]
        cqs = [CQ(self.ctx, 1) for _ in range(n_cqs)]
        keys = [mr.lkey for mr in mrs] + [mw.rkey for mw in mws]
        self.assertEqual(len({k >> 8 for k in keys}), n_mrs + n_mws)
        now = self.counts()
        self.assertEqual(now['mr'], before['mr'] + n_mrs)
        self.assertEqual(now['cq'], before['cq'] + n_cqs)
        for obj in mrs + mws + cqs:
            obj.close()
        now = self.counts()
        self.assertEqual((now['mr'], now['cq']), (before['mr'], before['cq']))


# KASAN's redzones, shadow and quarantine add to every allocation on the
# debug kernel: the formula holds for the normal one only.
if not DEBUG_KERNEL:
    class MemoryTest(LimitTestCase):
        def test_memory_per_qp(self):
            """What a QP takes, as MemAvailable sees it, against the formula;
            printed as a TAP comment."""
            n = 512
            scq = self.cq(1)
            rcq = self.cq(1)
            for caps in MEMORY_CAPS:
                cap = dict(zip(('max_send_wr', 'max_recv_wr', 'max_send_sge',
                                'max_recv_sge', 'max_inline_data'), caps))
                before = mem_available()
                ends = [self.create_qp(scq=scq, rcq=rcq, **cap)
                        for _ in range(n)]
                each = (before - mem_available()) / n
                for end in ends:
                    end.qp.close()
                print('# memory per QP %s: %.1f KiB, formula %.1f KiB' %
                      (caps, each / 1024, qp_memory(*caps) / 1024))
                self.assertLess(each, qp_memory(*caps) + MEMORY_SLACK, caps)


class MaximaTest(LimitTestCase):
    def setUp(self):
        super().setUp()
        self.dev = self.ctx.query_device()

    def test_qp_caps(self):
        """Each QP capacity at its maximum, then one beyond (EINVAL)."""
        d = self.dev
        for cap, top in (('max_send_wr', d.max_qp_wr),
                         ('max_recv_wr', d.max_qp_wr),
                         ('max_send_sge', d.max_sge),
                         ('max_recv_sge', d.max_sge),
                         # RMP_MAX_INLINE: ibv_device_attr has no field.
                         ('max_inline_data', 512)):
            with self.subTest(cap=cap):
                end = self.create_qp(**{cap: top})
                got = end.qp.query(e.IBV_QP_CAP)[1].cap
                self.assertGreaterEqual(getattr(got, cap), top)
                end.qp.close()
                self.assertErrno(errno.EINVAL, self.create_qp,
                                 **{cap: top + 1})

    def test_rd_atomic(self):
        """max_dest_rd_atomic (RTR) and max_rd_atomic (RTS) up to what
        query_device says, refused beyond with the QP's state unchanged."""
        d = self.dev
        a = self.create_qp()
        attr = self.rc_attr(a.qpn, 0, 0)
        attr.qp_state = e.IBV_QPS_INIT
        a.qp.modify(attr, INIT_MASK)
        for state, mask, name, top in (
                (e.IBV_QPS_RTR, RTR_MASK, 'max_dest_rd_atomic',
                 d.max_qp_rd_atom),
                (e.IBV_QPS_RTS, RTS_MASK, 'max_rd_atomic',
                 d.max_qp_init_rd_atom)):
            attr.qp_state = state
            setattr(attr, name, top + 1)
            before = self.state(a)
            self.assertErrno(errno.EINVAL, a.qp.modify, attr, mask)
            self.assertEqual(self.state(a), before)
            setattr(attr, name, top)
            a.qp.modify(attr, mask)
            self.assertEqual(getattr(a.qp.query(mask)[0], name), top)

    def test_cq_and_srq_sizes(self):
        d = self.dev
        with CQ(self.ctx, d.max_cqe) as cq:
            self.assertGreaterEqual(cq.cqe, d.max_cqe)
            self.assertErrno(errno.EINVAL, cq.resize, d.max_cqe + 1)
        self.assertErrno(errno.EINVAL, CQ, self.ctx, d.max_cqe + 1)
        for max_wr, max_sge, err in ((d.max_srq_wr, d.max_srq_sge, 0),
                                     (d.max_srq_wr + 1, 1, errno.EINVAL),
                                     (1, d.max_srq_sge + 1, errno.EINVAL)):
            attr = SrqInitAttr(SrqAttr(max_wr=max_wr, max_sge=max_sge))
            if err:
                self.assertErrno(err, SRQ, self.pd, attr)
            else:
                SRQ(self.pd, attr).close()


if SCALE == 1:
    class DeviceCountTest(LimitTestCase):
        """The device-wide counts small enough to reach in the guest."""

        def setUp(self):
            super().setUp()
            self.dev = self.ctx.query_device()

        def test_max_pd(self):
            self.exhaust(lambda: PD(self.ctx),
                         self.dev.max_pd - self.counts()['pd'])

        def test_max_srq(self):
            attr = SrqInitAttr(SrqAttr(max_wr=1, max_sge=1))
            self.exhaust(lambda: SRQ(self.pd, attr),
                         self.dev.max_srq - self.counts()['srq'])

        def test_max_ah(self):
            gr = GlobalRoute(dgid=make_gid(SELF_V4), sgid_index=self.sgid)
            attr = AHAttr(port_num=1, is_global=1, gr=gr)
            # AHs are not in rdma resource; the test's process has none yet.
            self.exhaust(lambda: AH(self.pd, attr=attr), self.dev.max_ah)


class FullQueueTest(LimitTestCase):
    def test_full_send_queue(self):
        """A send queue takes as many WRs as its capacity and refuses the
        next with ENOMEM; once they complete it takes WRs again."""
        a, b = self.rc_pair(a_attr=dict(rnr_retry=7),
                            b_attr=dict(min_rnr_timer=14), max_send_wr=16,
                            max_recv_wr=16)
        depth = a.qp.query(e.IBV_QP_CAP)[1].cap.max_send_wr
        # b has no receive WQE: the first SEND waits on RNR NAKs and the
        # ones behind it in the ring.
        for i in range(depth):
            self.post_send(a, wr_id=i)
        self.assertErrno(errno.ENOMEM, self.post_send, a, wr_id=depth)
        self.assertNoCompletion(a.scq)
        for i in range(depth):
            self.post_recv(b, wr_id=i)
        for i, wc in enumerate(self.poll(a.scq, depth)):
            self.check_wc(wc, wr_id=i, status=OK)
        self.poll(b.rcq, depth)
        self.post_recv(b)
        self.post_send(a, wr_id=depth)
        self.one(a.scq, wr_id=depth, status=OK)
        self.assertEqual(self.state(a), e.IBV_QPS_RTS)

    def overflowed_cqs(self):
        """The device's CQs that ``rdma -dd resource show cq`` says
        overflowed."""
        out = subprocess.run(['rdma', '-j', '-dd', 'resource', 'show', 'cq'],
                             check=True, capture_output=True,
                             text=True).stdout
        return [cq for cq in json.loads(out)
                if cq['ifname'] == self.dev_name and
                cq.get('drv_overflowed')]

    def test_cq_overflow(self):
        """A CQ with no room loses the completion, goes into error (it
        takes no completion any more) and raises IBV_EVENT_CQ_ERR; the
        QPs go on. A new CQ and QPs work."""
        scq = CQ(self.ctx, 1)
        cap = scq.cqe
        a, b = self.rc_pair(scq=scq, max_send_wr=16, max_recv_wr=16)
        for i in range(cap + 2):
            self.post_recv(b, wr_id=i)
            self.post_send(a, wr_id=i)
        # Nothing is polled before the CQ overflows. The event is queued
        # once the CQ says it overflowed: reading it then does not block.
        self.assertTrue(wait_for(lambda: len(self.overflowed_cqs()) == 1))
        self.assertEqual(self.overflowed_cqs()[0]['cqe'], cap)
        event = self.ctx.get_async_event()
        self.assertEqual(event.event_type, e.IBV_EVENT_CQ_ERR)
        event.ack()
        self.poll(b.rcq, cap + 2)
        wcs = self.poll(a.scq, cap)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(cap)))
        # The CQ has room again but stays in error.
        self.post_recv(b, wr_id=99)
        self.post_send(a, wr_id=99)
        self.one(b.rcq, wr_id=99, status=OK)
        self.assertNoCompletion(a.scq, 0.5)
        self.assertEqual(self.state(a), e.IBV_QPS_RTS)
        a.qp.close()
        b.qp.close()
        scq.close()
        a, b = self.rc_pair()
        self.post_recv(b, wr_id=1)
        self.post_send(a, wr_id=1)
        self.one(a.scq, wr_id=1, status=OK)
        self.one(b.rcq, wr_id=1, status=OK)
