# SPDX-License-Identifier: GPL-2.0
"""Memory windows on the wire: type 1 binds (ibv_bind_mw), type 2 binds
(IBV_WR_BIND_MW), access through a window, SEND with invalidate and local
invalidate."""
import pyverbs.enums as e
from pyverbs.mr import MW, MWBind, MWBindInfo
from pyverbs.wr import SendWR, SGE

from rmpdata import ALL, FILL, MWB, RR, RW, DataTestCase, data

OK = e.IBV_WC_SUCCESS
SIZE = 8192
WIN_OFF, WIN_LEN = 1000, 3000


def next_rkey(rkey):
    return (rkey & ~0xff) | ((rkey + 1) & 0xff)


class MwDataTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.a, self.b = self.rc_pair()
        self.target = self.mr(SIZE, ALL | MWB)

    def bind1(self, mw, off=WIN_OFF, length=WIN_LEN, access=RW | RR,
              end=None, wr_id=77):
        """Bind a type 1 window with ibv_bind_mw on end's QP (b)."""
        end = end or self.b
        info = MWBindInfo(self.target, self.target.buf + off, length, access)
        old = mw.rkey
        end.qp.bind_mw(mw, MWBind(info, e.IBV_SEND_SIGNALED, wr_id))
        self.one(end.scq, wr_id=wr_id, status=OK, opcode=e.IBV_WC_BIND_MW,
                 qp_num=end.qpn)
        self.assertEqual(mw.rkey, next_rkey(old))
        return mw.rkey

    def bind2(self, mw, rkey, off=WIN_OFF, length=WIN_LEN, access=RW | RR,
              end=None, wr_id=78):
        """Bind a type 2 window with a BIND_MW WR on end's QP (b); return
        the window's new rkey."""
        end = end or self.b
        info = MWBindInfo(self.target, self.target.buf + off, length, access)
        wr = SendWR(wr_id=wr_id, opcode=e.IBV_WR_BIND_MW, num_sge=1,
                    sg=[SGE(0, 0, 0)], send_flags=e.IBV_SEND_SIGNALED)
        wr.num_sge = 0
        wr.set_bind_wr(mw, info)
        new = wr.rkey
        self.assertEqual(new, next_rkey(rkey))
        end.qp.post_send(wr)
        self.one(end.scq, wr_id=wr_id, status=OK, opcode=e.IBV_WC_BIND_MW,
                 qp_num=end.qpn)
        return new

    def write(self, rkey, off, size, wr_id=1, status=OK):
        src = self.mr(size)
        src.write(data(size, wr_id), size, 0)
        self.post_send(self.a, e.IBV_WR_RDMA_WRITE, self.sges(src), wr_id,
                       rdma=(rkey, self.target.buf + off))
        self.one(self.a.scq, wr_id=wr_id, status=status,
                 opcode=e.IBV_WC_RDMA_WRITE)
        return data(size, wr_id)

    def read(self, rkey, off, size, wr_id=2, status=OK):
        dst = self.mr(size)
        self.post_send(self.a, e.IBV_WR_RDMA_READ, self.sges(dst), wr_id,
                       rdma=(rkey, self.target.buf + off))
        self.one(self.a.scq, wr_id=wr_id, status=status,
                 opcode=e.IBV_WC_RDMA_READ)
        return dst.read(size, 0)

    def check_target(self, pieces):
        want = bytearray([FILL]) * SIZE
        for off, buf in pieces:
            want[off:off + len(buf)] = buf
        self.assertEqual(self.target.read(SIZE, 0), bytes(want))

    def fails(self):
        self.assertEqual(self.state(self.a), e.IBV_QPS_ERR)

    def test_type1(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_1)
        rkey = self.bind1(mw)
        first = self.write(rkey, WIN_OFF, WIN_LEN, 1)
        second = self.write(rkey, WIN_OFF + 5, 100, 2)
        self.assertEqual(self.read(rkey, WIN_OFF, WIN_LEN, 3),
                         first[:5] + second + first[105:])
        self.check_target([(WIN_OFF, first), (WIN_OFF + 5, second)])
        # One byte past the window's end.
        self.write(rkey, WIN_OFF + WIN_LEN - 10, 11, 4,
                   e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
        self.check_target([(WIN_OFF, first), (WIN_OFF + 5, second)])

    def test_type1_before_window(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_1)
        rkey = self.bind1(mw)
        self.read(rkey, WIN_OFF - 1, 2, 1, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()

    def test_type1_rebind_and_unbind(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_1)
        old = self.bind1(mw)
        new = self.bind1(mw, 4000, 100, RW, wr_id=79)
        self.assertNotEqual(old, new)
        buf = self.write(new, 4000, 100, 1)
        self.check_target([(4000, buf)])
        # A zero-length bind unbinds the window.
        info = MWBindInfo(self.target, self.target.buf, 0, RW)
        self.b.qp.bind_mw(mw, MWBind(info, e.IBV_SEND_SIGNALED, 80))
        self.one(self.b.scq, wr_id=80, status=OK, opcode=e.IBV_WC_BIND_MW)
        self.write(mw.rkey, 4000, 1, 2, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
        self.check_target([(4000, buf)])

    def test_type1_old_key(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_1)
        old = self.bind1(mw)
        self.bind1(mw, wr_id=79)
        self.write(old, WIN_OFF, 8, 1, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()

    def test_type1_access(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_1)
        rkey = self.bind1(mw, access=RR)
        self.assertEqual(self.read(rkey, WIN_OFF, 16, 1),
                         bytes([FILL]) * 16)
        self.write(rkey, WIN_OFF, 16, 2, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
        self.check_target([])

    def test_type2(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_2)
        rkey = self.bind2(mw, mw.rkey)
        buf = self.write(rkey, WIN_OFF + 1, WIN_LEN - 1, 1)
        self.assertEqual(self.read(rkey, WIN_OFF + 1, WIN_LEN - 1, 2), buf)
        self.write(rkey, WIN_OFF + WIN_LEN, 1, 3, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
        self.check_target([(WIN_OFF + 1, buf)])

    def test_type2_tied_to_qp(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_2)
        rkey = self.bind2(mw, mw.rkey)
        c, d = self.rc_pair()
        # (A zero-length WRITE would check no key at all.)
        src = self.mr(8)
        self.post_send(c, e.IBV_WR_RDMA_WRITE, self.sges(src), 1,
                       rdma=(rkey, self.target.buf + WIN_OFF))
        self.one(c.scq, wr_id=1, status=e.IBV_WC_REM_ACCESS_ERR)
        # Through the QP it is bound to, it works.
        buf = self.write(rkey, WIN_OFF, 10, 2)
        self.check_target([(WIN_OFF, buf)])

    def test_send_with_invalidate(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_2)
        rkey = self.bind2(mw, mw.rkey)
        buf = self.write(rkey, WIN_OFF, 64, 1)
        dst = self.mr(64)
        src = self.mr(10)
        src.write(data(10), 10, 0)
        self.post_recv(self.b, self.sges(dst), 50)
        self.post_send(self.a, e.IBV_WR_SEND_WITH_INV, self.sges(src), 2,
                       imm=rkey)
        self.one(self.a.scq, wr_id=2, status=OK, opcode=e.IBV_WC_SEND,
                 byte_len=10)
        self.one(self.b.rcq, wr_id=50, status=OK, opcode=e.IBV_WC_RECV,
                 byte_len=10, wc_flags=e.IBV_WC_WITH_INV, imm_data=rkey,
                 qp_num=self.b.qpn, src_qp=self.a.qpn)
        self.assertEqual(dst.read(10, 0), data(10))
        # The key no longer works.
        self.write(rkey, WIN_OFF, 8, 3, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
        self.check_target([(WIN_OFF, buf)])

    def test_send_with_invalidate_bad_key(self):
        # Invalidating a key the responder QP may not invalidate (a plain
        # MR) fails the SEND with an invalid request.
        dst = self.mr(64)
        self.post_recv(self.b, self.sges(dst), 50)
        self.post_send(self.a, e.IBV_WR_SEND_WITH_INV, (), 2,
                       imm=self.target.rkey)
        self.one(self.a.scq, wr_id=2, status=e.IBV_WC_REM_INV_REQ_ERR)
        self.one(self.b.rcq, wr_id=50, status=e.IBV_WC_REM_INV_REQ_ERR)
        self.fails()
        self.assertEqual(self.target.rkey, self.target.lkey)
        buf = self.read(self.target.rkey, 0, 8, 3, e.IBV_WC_WR_FLUSH_ERR)
        self.assertEqual(buf, bytes([FILL]) * 8)

    def test_local_invalidate(self):
        mw = MW(self.pd, e.IBV_MW_TYPE_2)
        rkey = self.bind2(mw, mw.rkey)
        self.write(rkey, WIN_OFF, 8, 1)
        self.post_send(self.b, e.IBV_WR_LOCAL_INV, (), 60, imm=rkey)
        self.one(self.b.scq, wr_id=60, status=OK, opcode=e.IBV_WC_LOCAL_INV)
        self.write(rkey, WIN_OFF, 8, 2, e.IBV_WC_REM_ACCESS_ERR)
        self.fails()
