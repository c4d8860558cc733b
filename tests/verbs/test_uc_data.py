# SPDX-License-Identifier: GPL-2.0
"""UC SEND/RECV and RDMA WRITE (with and without immediate) between two
connected UC QPs, and what UC refuses: RDMA READ and atomics."""
import time

import pyverbs.enums as e

from rmpdata import FILL, LW, MTU, OFF, RW, SIZES, DataTestCase, data

UC_INIT_MASK = (e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT |
                e.IBV_QP_ACCESS_FLAGS)
UC_RTR_MASK = (e.IBV_QP_STATE | e.IBV_QP_AV | e.IBV_QP_PATH_MTU |
               e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN)
UC_RTS_MASK = e.IBV_QP_STATE | e.IBV_QP_SQ_PSN



class UcTestCase(DataTestCase):
    def uc_attr(self, dest_qpn, sq_psn, rq_psn, access=LW | RW):
        return self.conn_attr(dest_qpn, sq_psn, rq_psn, access)

    def uc_to_rts(self, qp, attr):
        self.to_rts(qp, attr, (UC_INIT_MASK, UC_RTR_MASK, UC_RTS_MASK))

    def uc_pair(self, b_access=LW | RW, **cap):
        """Two connected UC QPs; the PSNs of a->b cross the 24-bit wrap."""
        a = self.create_qp(e.IBV_QPT_UC, **cap)
        b = self.create_qp(e.IBV_QPT_UC, **cap)
        self.uc_to_rts(a.qp, self.uc_attr(b.qpn, 0xfffff0, 0x000100))
        self.uc_to_rts(b.qp, self.uc_attr(a.qpn, 0x000100, 0xfffff0,
                                          b_access))
        return a, b


class UcDataTest(UcTestCase):
    def setUp(self):
        super().setUp()
        self.a, self.b = self.uc_pair(max_send_wr=128, max_recv_wr=128,
                                      max_inline_data=256)

    def check_recv_wc(self, wc, wr_id, size, opcode=e.IBV_WC_RECV, imm=None):
        want = dict(wr_id=wr_id, status=e.IBV_WC_SUCCESS, opcode=opcode,
                    byte_len=size, qp_num=self.b.qpn, src_qp=self.a.qpn,
                    wc_flags=e.IBV_WC_WITH_IMM if imm is not None else 0)
        if imm is not None:
            want['imm_data'] = imm
        self.check_wc(wc, **want)

    def send_one(self, size, opcode=e.IBV_WR_SEND, imm=None, wr_id=1):
        payload = data(size, wr_id)
        src = self.mr(size)
        dst = self.mr(size + 64)
        if size:
            src.write(payload, size, 0)
        self.post_recv(self.b, self.sges(dst), wr_id + 1000)
        self.post_send(self.a, opcode, self.sges(src, (0, size)) if size
                       else (), wr_id, imm=imm)
        self.check_send_wc(self.one(self.a.scq), wr_id, e.IBV_WC_SEND, size)
        self.check_recv_wc(self.poll(self.b.rcq, 1)[0], wr_id + 1000, size,
                           imm=imm)
        self.assertEqual(dst.read(size + 64, 0),
                         payload + bytes([FILL]) * 64)

    def test_send_sizes(self):
        for i, size in enumerate(SIZES):
            with self.subTest(size=size):
                self.send_one(size, wr_id=i + 1)

    def test_send_immediate(self):
        for i, (size, imm) in enumerate(((0, 0x01020304), (1, 0xffffffff),
                                         (MTU, 0), (3 * MTU + 17,
                                                    0x12345678))):
            with self.subTest(size=size):
                self.send_one(size, e.IBV_WR_SEND_WITH_IMM, imm, i + 1)

    def test_send_inline(self):
        payload = data(200, 5)
        dst = self.mr(256)
        src = self.mr(200)
        src.write(payload, 200, 0)
        self.post_recv(self.b, self.sges(dst), 9)
        self.post_send(self.a, e.IBV_WR_SEND, self.sges(src), 8,
                       flags=e.IBV_SEND_SIGNALED | e.IBV_SEND_INLINE)
        self.check_send_wc(self.one(self.a.scq), 8, e.IBV_WC_SEND, 200)
        self.check_recv_wc(self.one(self.b.rcq), 9, 200)
        self.assertEqual(dst.read(200, 0), payload)

    def test_many_in_flight(self):
        n = 32
        dst = [self.mr(3 * MTU) for _ in range(n)]
        src = self.mr(3 * MTU)
        src.write(data(3 * MTU, 3), 3 * MTU, 0)
        for i in range(n):
            self.post_recv(self.b, self.sges(dst[i]), 100 + i)
        for i in range(n):
            self.post_send(self.a, e.IBV_WR_SEND, self.sges(src), i)
        wcs = self.poll(self.a.scq, n)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(n)))
        wcs = self.poll(self.b.rcq, n)
        self.assertEqual([wc.wr_id for wc in wcs],
                         [100 + i for i in range(n)])
        for i in range(n):
            self.assertEqual(dst[i].read(3 * MTU, 0), data(3 * MTU, 3))

    def test_send_without_receive_wqe_is_dropped(self):
        # No RNR on UC: the message is lost, the sender does not know.
        before = self.counter('rx_drop_no_wqe')
        src = self.mr(2 * MTU + 5)
        src.write(data(2 * MTU + 5, 1), 2 * MTU + 5, 0)
        self.post_send(self.a, e.IBV_WR_SEND, self.sges(src), 1)
        self.check_send_wc(self.one(self.a.scq), 1, e.IBV_WC_SEND,
                           2 * MTU + 5)
        self.assertNoCompletion(self.b.rcq)
        self.assertEqual(self.counter('rx_drop_no_wqe'), before + 1)
        self.assertEqual(self.state(self.b), e.IBV_QPS_RTS)
        # The next message is received whole.
        self.send_one(MTU + 1, wr_id=2)

    def test_send_too_long_for_receive_wqe(self):
        src = self.mr(100)
        dst = self.mr(10)
        self.post_recv(self.b, self.sges(dst), 7)
        self.post_send(self.a, e.IBV_WR_SEND, self.sges(src), 1)
        self.check_send_wc(self.one(self.a.scq), 1, e.IBV_WC_SEND, 100)
        self.one(self.b.rcq, wr_id=7, status=e.IBV_WC_LOC_LEN_ERR)
        self.assertEqual(self.state(self.b), e.IBV_QPS_ERR)

    def test_write_sizes(self):
        # Nothing acknowledges a UC WRITE: wait for its data.
        self.write_sizes(self.wait_for)

    def wait_for(self, mr, image, timeout=30):
        end = time.monotonic() + timeout
        while mr.read(len(image), 0) != image and time.monotonic() < end:
            time.sleep(0.01)
        self.assertEqual(mr.read(len(image), 0), image)

    def test_write_with_immediate(self):
        for i, size in enumerate((0, 1, MTU, MTU + 1, 3 * MTU + 17)):
            with self.subTest(size=size):
                payload, src, dst = self.write_buffers(size, i)
                self.post_recv(self.b, (), 100 + i)
                self.post_send(self.a, e.IBV_WR_RDMA_WRITE_WITH_IMM,
                               self.sges(src, (0, size)) if size else (), i,
                               imm=0x1000 + i,
                               rdma=(dst.rkey, dst.buf + OFF))
                self.check_send_wc(self.one(self.a.scq), i,
                                   e.IBV_WC_RDMA_WRITE, size)
                self.check_recv_wc(self.one(self.b.rcq), 100 + i, size,
                                   e.IBV_WC_RECV_RDMA_WITH_IMM, 0x1000 + i)
                self.assertEqual(dst.read(size + 2 * OFF, 0),
                                 bytes([FILL]) * OFF + payload +
                                 bytes([FILL]) * OFF)

    def test_write_bad_rkey_dropped(self):
        # An R_Key violation drops the message silently; the QP goes on.
        src = self.mr(2 * MTU)
        dst = self.mr(2 * MTU)
        self.post_recv(self.b, (), 50)
        self.post_send(self.a, e.IBV_WR_RDMA_WRITE_WITH_IMM, self.sges(src),
                       1, imm=5, rdma=(dst.rkey + 0x100, dst.buf))
        self.check_send_wc(self.one(self.a.scq), 1, e.IBV_WC_RDMA_WRITE,
                           2 * MTU)
        self.assertNoCompletion(self.b.rcq)
        self.assertEqual(dst.read(2 * MTU, 0), bytes([FILL]) * 2 * MTU)
        self.assertEqual(self.state(self.b), e.IBV_QPS_RTS)
        # The receive WQE the dropped message took serves the next one.
        self.post_send(self.a, e.IBV_WR_RDMA_WRITE_WITH_IMM, self.sges(src),
                       2, imm=6, rdma=(dst.rkey, dst.buf))
        self.one(self.a.scq, wr_id=2, status=e.IBV_WC_SUCCESS)
        self.check_recv_wc(self.one(self.b.rcq), 50, 2 * MTU,
                           e.IBV_WC_RECV_RDMA_WITH_IMM, 6)

    def test_write_not_permitted_dropped(self):
        a, b = self.uc_pair(b_access=LW)
        src = self.mr(10)
        dst = self.mr(10)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src), 1,
                       rdma=(dst.rkey, dst.buf))
        self.one(a.scq, wr_id=1, status=e.IBV_WC_SUCCESS)
        self.assertNoCompletion(b.rcq)
        self.assertEqual(dst.read(10, 0), bytes([FILL]) * 10)
        self.assertEqual(self.state(b), e.IBV_QPS_RTS)

    def test_read_and_atomics_refused(self):
        # The stock provider does not check the QP type: the WQE reaches
        # rmp, which fails it with a local QP operation error.
        for opcode, kw in ((e.IBV_WR_RDMA_READ, 'rdma'),
                           (e.IBV_WR_ATOMIC_FETCH_AND_ADD, 'atomic'),
                           (e.IBV_WR_ATOMIC_CMP_AND_SWP, 'atomic')):
            with self.subTest(opcode=opcode):
                a, b = self.uc_pair()
                buf = self.mr(8)
                remote = self.mr(8)
                args = ({'rdma': (remote.rkey, remote.buf)} if kw == 'rdma'
                        else {'atomic': (remote.rkey, remote.buf, 1, 2)})
                self.post_send(a, opcode, self.sges(buf), 3, **args)
                self.one(a.scq, wr_id=3, status=e.IBV_WC_LOC_QP_OP_ERR)
                self.assertEqual(self.state(a), e.IBV_QPS_ERR)
                self.assertEqual(remote.read(8, 0), bytes([FILL]) * 8)

    def test_send_with_invalidate_refused(self):
        src = self.mr(8)
        self.post_send(self.a, e.IBV_WR_SEND_WITH_INV, self.sges(src), 4,
                       imm=0x1234)
        self.one(self.a.scq, wr_id=4, status=e.IBV_WC_LOC_QP_OP_ERR)
