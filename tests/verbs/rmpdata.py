# SPDX-License-Identifier: GPL-2.0
"""Helpers for the data transfer tests: QPs on one rmp device that talk to
each other through its local delivery, buffers, work requests, completions.

Both ends of a connection are QPs of the test's own process on the device in
namespace h1 (GID 10.0.0.1): every packet goes through rmp's transmit and
receive paths, ICRC and all, without leaving the device.
"""
import json
import random
import subprocess
import time

from pyverbs.addr import AH, AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPEx, QPInitAttr, QPInitAttrEx
from pyverbs.wr import RecvWR, SendWR, SGE
import pyverbs.enums as e

from rmptest import RmpTestCase
from test_qp import (INIT_MASK, RTR_MASK, RTS_MASK, gid_index, make_gid,
                     poll_cq)

SELF_V4 = '::ffff:10.0.0.1'
MTU = 1024
GRH = 40
QKEY = 0x11111111

LW = e.IBV_ACCESS_LOCAL_WRITE
RW = e.IBV_ACCESS_REMOTE_WRITE
RR = e.IBV_ACCESS_REMOTE_READ
RA = e.IBV_ACCESS_REMOTE_ATOMIC
MWB = e.IBV_ACCESS_MW_BIND
ALL = LW | RW | RR | RA

# Sizes around the packet boundaries of a 1024-byte path MTU.
SIZES = (0, 1, MTU - 1, MTU, MTU + 1, 3 * MTU + 17, 1 << 20)

# Filler of buffer bytes a transfer must not touch.
FILL = 0xa5

# Remote buffers are written from an odd offset.
OFF = 3


def data(n, seed=0):
    """n bytes, reproducible from seed."""
    return random.Random(seed * 1000003 + n).randbytes(n)


class End:
    """One QP with its own send and receive CQs."""

    def __init__(self, qp, scq, rcq):
        self.qp = qp
        self.scq = scq
        self.rcq = rcq

    @property
    def qpn(self):
        return self.qp.qp_num


class DataTestCase(RmpTestCase):
    """A PD, the device's IPv4 RoCEv2 GID, and builders of connected QPs."""

    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)
        self.sgid = gid_index(self.ctx)

    def tearDown(self):
        # Closing the context closes the PD's and the context's objects.
        self.pd.close()
        super().tearDown()

    # Objects.

    def cq(self, n=512):
        return CQ(self.ctx, n)

    def mr(self, size, access=ALL, fill=FILL, pd=None):
        mr = MR(pd or self.pd, max(size, 1), access)
        mr.write(bytes([fill]) * max(size, 1), max(size, 1), 0)
        return mr

    def create_qp(self, qp_type=e.IBV_QPT_RC, scq=None, rcq=None, srq=None,
                  sig_all=0, pd=None, send_ops=0, **cap):
        """A QP; with send_ops (IBV_QP_EX_WITH_* bits), an extended QP
        that also takes work requests through ibv_wr_*()."""
        caps = dict(max_send_wr=64, max_recv_wr=64, max_send_sge=4,
                    max_recv_sge=4, max_inline_data=0)
        caps.update(cap)
        scq = scq or self.cq()
        rcq = rcq or self.cq()
        if send_ops:
            init = QPInitAttrEx(qp_type=qp_type, scq=scq, rcq=rcq, srq=srq,
                                cap=QPCap(**caps), sq_sig_all=sig_all,
                                pd=pd or self.pd, send_ops_flags=send_ops,
                                comp_mask=e.IBV_QP_INIT_ATTR_PD |
                                e.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
            return End(QPEx(self.ctx, init), scq, rcq)
        init = QPInitAttr(qp_type=qp_type, scq=scq, rcq=rcq, srq=srq,
                          cap=QPCap(**caps), sq_sig_all=sig_all)
        return End(QP(pd or self.pd, init), scq, rcq)

    def conn_attr(self, dest_qpn, sq_psn, rq_psn, access, dgid=SELF_V4):
        """What a connected (RC or UC) QP needs on its way to RTS."""
        attr = QPAttr()
        attr.pkey_index = 0
        attr.port_num = 1
        attr.qp_access_flags = access
        gr = GlobalRoute(dgid=make_gid(dgid), sgid_index=self.sgid)
        attr.ah_attr = AHAttr(port_num=1, is_global=1, gr=gr)
        attr.path_mtu = e.IBV_MTU_1024
        attr.dest_qp_num = dest_qpn
        attr.rq_psn = rq_psn
        attr.sq_psn = sq_psn
        return attr

    def rc_attr(self, dest_qpn, sq_psn, rq_psn, access=ALL, dgid=SELF_V4,
                **over):
        attr = self.conn_attr(dest_qpn, sq_psn, rq_psn, access, dgid)
        attr.max_dest_rd_atomic = 16
        attr.max_rd_atomic = 16
        attr.min_rnr_timer = 12
        attr.timeout = 14
        attr.retry_cnt = 7
        attr.rnr_retry = 7
        for name, value in over.items():
            setattr(attr, name, value)
        return attr

    def to_rts(self, qp, attr, masks=(INIT_MASK, RTR_MASK, RTS_MASK)):
        for state, mask in zip((e.IBV_QPS_INIT, e.IBV_QPS_RTR,
                                e.IBV_QPS_RTS), masks):
            attr.qp_state = state
            qp.modify(attr, mask)

    def rc_pair(self, a_access=ALL, b_access=ALL, a_attr=None, b_attr=None,
                **cap):
        """Two connected RC QPs. The PSNs of a->b start just before the
        24-bit wrap, so multi-packet messages cross it."""
        a = self.create_qp(**cap)
        b = self.create_qp(**cap)
        self.to_rts(a.qp, self.rc_attr(b.qpn, 0xfffff0, 0x000100, a_access,
                                       **(a_attr or {})))
        self.to_rts(b.qp, self.rc_attr(a.qpn, 0x000100, 0xfffff0, b_access,
                                       **(b_attr or {})))
        return a, b

    def ud_qp(self, qkey=QKEY, **cap):
        end = self.create_qp(e.IBV_QPT_UD, **cap)
        attr = QPAttr()
        attr.pkey_index = 0
        attr.port_num = 1
        attr.qkey = qkey
        attr.sq_psn = 0x42
        attr.qp_state = e.IBV_QPS_INIT
        end.qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX |
                      e.IBV_QP_PORT | e.IBV_QP_QKEY)
        attr.qp_state = e.IBV_QPS_RTR
        end.qp.modify(attr, e.IBV_QP_STATE)
        attr.qp_state = e.IBV_QPS_RTS
        end.qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_SQ_PSN)
        return end

    def ah(self, pd=None):
        gr = GlobalRoute(dgid=make_gid(SELF_V4), sgid_index=self.sgid)
        return AH(pd or self.pd, attr=AHAttr(port_num=1, is_global=1, gr=gr))

    # Work requests.

    @staticmethod
    def sges(mr, *pieces):
        """SGEs over mr for (offset, length) pieces; just mr when none."""
        if not pieces:
            pieces = ((0, mr.length),)
        return [SGE(mr.buf + off, length, mr.lkey) for off, length in pieces]

    @staticmethod
    def post_send(end, opcode=e.IBV_WR_SEND, sg=(), wr_id=0,
                  flags=e.IBV_SEND_SIGNALED, imm=None, rdma=None,
                  atomic=None, ud=None):
        """Post one send WR. rdma is (rkey, addr), atomic (rkey, addr,
        compare_add, swap), ud (ah, qpn, qkey); imm is the immediate
        data or the rkey to invalidate (they share the WR's union)."""
        wr = SendWR(wr_id=wr_id, opcode=opcode, num_sge=max(len(sg), 1),
                    sg=list(sg) or [SGE(0, 0, 0)], send_flags=flags)
        # pyverbs wants an SGE at construction; the WR may have none.
        wr.num_sge = len(sg)
        if imm is not None:
            wr.imm_data = imm
        if rdma:
            wr.set_wr_rdma(*rdma)
        if atomic:
            wr.set_wr_atomic(*atomic)
        if ud:
            wr.set_wr_ud(*ud)
        end.qp.post_send(wr)

    @staticmethod
    def post_recv(end_or_srq, sg=(), wr_id=0):
        wr = RecvWR(wr_id=wr_id, num_sge=max(len(sg), 1),
                    sg=list(sg) or [SGE(0, 0, 0)])
        wr.num_sge = len(sg)
        target = end_or_srq.qp if isinstance(end_or_srq, End) else end_or_srq
        target.post_recv(wr)

    # Completions.

    def poll(self, cq, n, timeout=60):
        """Exactly n completions within timeout seconds, and no more."""
        wcs = poll_cq(cq, n, timeout, nap=0.002)
        self.assertEqual(len(wcs), n, 'completions: %s' %
                         [(wc.wr_id, wc.status) for wc in wcs])
        self.assertNoCompletion(cq, wait=0)
        return wcs

    def assertNoCompletion(self, cq, wait=0.2):
        time.sleep(wait)
        got, wcs = cq.poll(1)
        self.assertEqual(got, 0, 'unexpected completion: %s' %
                         [(wc.wr_id, wc.status, wc.opcode) for wc in wcs])

    def check_wc(self, wc, **want):
        """Each named field of wc must equal its value."""
        got = {name: getattr(wc, name) for name in want}
        self.assertEqual(got, want)

    def one(self, cq, **want):
        """Exactly one completion, with the given fields."""
        wc = self.poll(cq, 1)[0]
        self.check_wc(wc, **want)
        return wc

    def check_send_wc(self, wc, wr_id, opcode, size):
        """A successful send completion of QP a."""
        self.check_wc(wc, wr_id=wr_id, status=e.IBV_WC_SUCCESS,
                      opcode=opcode, byte_len=size, qp_num=self.a.qpn)

    def write_buffers(self, size, seed):
        """(payload, src, dst): size bytes from seed, in src; dst with room
        for them at OFF and as much again."""
        payload = data(size, seed)
        src = self.mr(size)
        dst = self.mr(size + 2 * OFF)
        if size:
            src.write(payload, size, 0)
        return payload, src, dst

    def write_sizes(self, check):
        """RDMA WRITE of each of SIZES from a into b's buffer at OFF, between
        filler; check(mr, image) verifies b's buffer once the WRITE has
        completed at a. A WRITE without immediate takes no receive WQE."""
        for i, size in enumerate(SIZES):
            with self.subTest(size=size):
                payload, src, dst = self.write_buffers(size, i)
                self.post_send(self.a, e.IBV_WR_RDMA_WRITE,
                               self.sges(src, (0, size)) if size else (), i,
                               rdma=(dst.rkey, dst.buf + OFF))
                self.check_send_wc(self.one(self.a.scq), i,
                                   e.IBV_WC_RDMA_WRITE, size)
                check(dst, bytes([FILL]) * OFF + payload +
                      bytes([FILL]) * OFF)
        self.assertNoCompletion(self.b.rcq, 0)

    def state(self, end):
        return end.qp.query(e.IBV_QP_STATE)[0].qp_state

    def wait_state(self, end, state, timeout=10):
        stop = time.monotonic() + timeout
        while self.state(end) != state and time.monotonic() < stop:
            time.sleep(0.01)
        self.assertEqual(self.state(end), state)

    def qp_res(self, end):
        """The QP's entry in ``rdma -dd resource show qp``, its driver
        attributes (``drv_*``) included."""
        out = subprocess.run(['rdma', '-j', '-dd', 'resource', 'show', 'qp',
                              'link', self.dev_name + '/1', 'lqpn',
                              str(end.qpn)], check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)[0]

    def wait_res(self, end, key, want, timeout=5):
        """Wait until the QP's driver attribute key reads want."""
        stop = time.monotonic() + timeout
        while (self.qp_res(end).get(key) != want and
               time.monotonic() < stop):
            time.sleep(0.02)
        self.assertEqual(self.qp_res(end).get(key), want)

    # Device knobs and counters.

    def knob_path(self, name):
        return '/sys/class/infiniband/%s/rmp/%s' % (self.dev_name, name)

    def read_knob(self, name):
        with open(self.knob_path(name)) as f:
            return f.read().strip()

    def set_knob(self, name, value):
        """Set a device knob; the test's cleanup sets it back."""
        old = self.read_knob(name)
        with open(self.knob_path(name), 'w') as f:
            f.write(value + '\n')
        self.addCleanup(self.write_knob, name, old)

    def write_knob(self, name, value):
        with open(self.knob_path(name), 'w') as f:
            f.write(value + '\n')

    def counter(self, name):
        # The hw_counters directory is not in a namespace's sysfs view.
        out = subprocess.run(['rdma', '-j', 'statistic', 'show', 'link',
                              self.dev_name + '/1'], check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)[0][name]


def read_all(mr, n, off=0):
    return mr.read(n, off) if n else b''


def mr_write(mr, buf, off=0):
    if buf:
        mr.write(buf, len(buf), off)
