# SPDX-License-Identifier: GPL-2.0
"""RC SEND/RECV: sizes, scatter/gather, immediate data, inline data,
signalling and many WRs in flight."""
import pyverbs.enums as e

from rmpdata import FILL, MTU, SIZES, DataTestCase, data


class RcSendTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.a, self.b = self.rc_pair(max_send_wr=256, max_recv_wr=256,
                                      max_inline_data=512)

    def check_recv_wc(self, wc, wr_id, size, flags=0, imm=None):
        want = dict(wr_id=wr_id, status=e.IBV_WC_SUCCESS,
                    opcode=e.IBV_WC_RECV, byte_len=size, wc_flags=flags,
                    qp_num=self.b.qpn, src_qp=self.a.qpn)
        if imm is not None:
            want['imm_data'] = imm
        self.check_wc(wc, **want)

    def send_one(self, size, opcode=e.IBV_WR_SEND, imm=None, wr_id=1):
        """SEND size bytes into a receive buffer 64 bytes larger; check
        both completions and the buffer, byte for byte."""
        payload = data(size, wr_id)
        src = self.mr(size)
        dst = self.mr(size + 64)
        if size:
            src.write(payload, size, 0)
        self.post_recv(self.b, self.sges(dst), wr_id + 1000)
        self.post_send(self.a, opcode, self.sges(src, (0, size)) if size
                       else (), wr_id, imm=imm)
        self.check_send_wc(self.one(self.a.scq), wr_id, e.IBV_WC_SEND,
                           size)
        flags = e.IBV_WC_WITH_IMM if imm is not None else 0
        self.check_recv_wc(self.poll(self.b.rcq, 1)[0], wr_id + 1000, size,
                           flags, imm)
        self.assertEqual(dst.read(size + 64, 0),
                         payload + bytes([FILL]) * 64)

    def test_sizes(self):
        for i, size in enumerate(SIZES):
            with self.subTest(size=size):
                self.send_one(size, wr_id=i + 1)

    def test_no_sge(self):
        # A zero-length SEND into a receive WQE without any SGE.
        self.post_recv(self.b, (), 77)
        self.post_send(self.a, e.IBV_WR_SEND, (), 7)
        self.check_send_wc(self.one(self.a.scq), 7, e.IBV_WC_SEND, 0)
        self.check_recv_wc(self.poll(self.b.rcq, 1)[0], 77, 0)

    def test_immediate(self):
        for i, (size, imm) in enumerate(((0, 0x01020304), (1, 0xffffffff),
                                         (MTU, 0), (MTU + 1, 0x80000001),
                                         (5 * MTU, 0x12345678))):
            with self.subTest(size=size):
                self.send_one(size, e.IBV_WR_SEND_WITH_IMM, imm, i + 1)

    def test_sges_odd_offsets(self):
        src1, src2 = self.mr(8192), self.mr(4096)
        dst1, dst2 = self.mr(8192), self.mr(4096)
        image1 = bytearray(data(8192, 1))
        image2 = bytearray(data(4096, 2))
        src1.write(bytes(image1), 8192, 0)
        src2.write(bytes(image2), 4096, 0)
        gather = [(src1, 1, 7), (src2, 333, 1500), (src1, 4001, 1),
                  (src1, 5003, 1111)]
        message = b''.join(bytes((image1 if m is src1 else image2)
                                 [off:off + n]) for m, off, n in gather)
        # The last receive SGE is filled only in part.
        scatter = [(dst1, 3, 10), (dst2, 1, 1), (dst1, 101, 1024),
                   (dst2, 2049, 2000)]
        self.assertEqual(len(message), 2619)

        self.post_recv(self.b, [self.sges(m, (off, n))[0]
                                for m, off, n in scatter], 5)
        self.post_send(self.a, e.IBV_WR_SEND,
                       [self.sges(m, (off, n))[0] for m, off, n in gather],
                       4)
        self.check_send_wc(self.one(self.a.scq), 4, e.IBV_WC_SEND,
                           len(message))
        self.check_recv_wc(self.one(self.b.rcq), 5, len(message))

        want1 = bytearray([FILL]) * 8192
        want2 = bytearray([FILL]) * 4096
        pos = 0
        for m, off, n in scatter:
            piece = message[pos:pos + n]
            (want1 if m is dst1 else want2)[off:off + len(piece)] = piece
            pos += len(piece)
        self.assertEqual(pos, len(message))
        self.assertEqual(dst1.read(8192, 0), bytes(want1))
        self.assertEqual(dst2.read(4096, 0), bytes(want2))

    def test_inline(self):
        src = self.mr(1024)
        dst = self.mr(1024)
        for i, pieces in enumerate((((0, 1),), ((3, 100),),
                                    ((1, 200), (500, 312)),
                                    ((0, 0),))):
            size = sum(n for _, n in pieces)
            with self.subTest(size=size):
                image = data(1024, i)
                src.write(image, 1024, 0)
                dst.write(bytes([FILL]) * 1024, 1024, 0)
                message = b''.join(image[off:off + n] for off, n in pieces)
                self.post_recv(self.b, self.sges(dst), i)
                # Inline data is copied at post time: a bogus lkey is
                # never looked at and the buffer may change at once.
                sg = self.sges(src, *pieces)
                for s in sg:
                    s.lkey = 0xdead00
                self.post_send(self.a, e.IBV_WR_SEND, sg, 100 + i,
                               e.IBV_SEND_SIGNALED | e.IBV_SEND_INLINE)
                src.write(bytes(1024), 1024, 0)
                self.check_send_wc(self.one(self.a.scq), 100 + i,
                                   e.IBV_WC_SEND, size)
                self.check_recv_wc(self.one(self.b.rcq), i, size)
                self.assertEqual(dst.read(1024, 0), message +
                                 bytes([FILL]) * (1024 - size))

    def test_unsignaled(self):
        src = self.mr(64 * 10)
        dst = self.mr(64 * 10)
        src.write(data(640), 640, 0)
        for i in range(10):
            self.post_recv(self.b, self.sges(dst, (64 * i, 64)), 200 + i)
        for i in range(10):
            self.post_send(self.a, e.IBV_WR_SEND, self.sges(src, (64 * i, 64)),
                           i, e.IBV_SEND_SIGNALED if i == 9 else 0)
        self.check_send_wc(self.one(self.a.scq), 9, e.IBV_WC_SEND, 64)
        wcs = self.poll(self.b.rcq, 10)
        for i, wc in enumerate(wcs):
            self.check_recv_wc(wc, 200 + i, 64)
        self.assertEqual(dst.read(640, 0), data(640))

    def test_sq_sig_all(self):
        a, b = self.rc_pair(sig_all=1)
        self.post_recv(b, (), 1)
        self.post_recv(b, (), 2)
        self.post_send(a, e.IBV_WR_SEND, (), 10, 0)
        self.post_send(a, e.IBV_WR_SEND, (), 11, 0)
        self.assertEqual([wc.wr_id for wc in self.poll(a.scq, 2)], [10, 11])
        self.assertEqual([wc.wr_id for wc in self.poll(b.rcq, 2)], [1, 2])

    def test_queue_depth(self):
        cap = self.a.qp.query(e.IBV_QP_CAP)[1].cap
        n = min(cap.max_send_wr, cap.max_recv_wr)
        self.assertGreaterEqual(n, 255)
        sizes = [(i * 677) % 3000 for i in range(n)]
        total = sum(sizes)
        src = self.mr(total)
        dst = self.mr(total + n)
        src.write(data(total), total, 0)
        pos = 0
        for i, size in enumerate(sizes):
            self.post_recv(self.b, self.sges(dst, (pos + i, size + 1)), i)
            pos += size
        pos = 0
        for i, size in enumerate(sizes):
            self.post_send(self.a, e.IBV_WR_SEND,
                           self.sges(src, (pos, size)) if size else (),
                           1000 + i)
            pos += size
        swcs = self.poll(self.a.scq, n)
        rwcs = self.poll(self.b.rcq, n)
        pos = 0
        for i, size in enumerate(sizes):
            self.check_send_wc(swcs[i], 1000 + i, e.IBV_WC_SEND, size)
            self.check_recv_wc(rwcs[i], i, size)
            self.assertEqual(dst.read(size + 1, pos + i),
                             data(total)[pos:pos + size] + bytes([FILL]))
            pos += size
