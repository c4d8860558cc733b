# SPDX-License-Identifier: GPL-2.0
"""RC RDMA WRITE (with and without immediate), RDMA READ and atomics."""
import struct

import pyverbs.enums as e

from rmpdata import FILL, MTU, OFF, SIZES, DataTestCase, data



class RcRdmaTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.a, self.b = self.rc_pair(max_send_wr=128, max_recv_wr=128)

    def test_write_sizes(self):
        # Acknowledged: the data is in place when the WRITE completes.
        self.write_sizes(lambda mr, image:
                         self.assertEqual(mr.read(len(image), 0), image))

    def test_write_gather(self):
        src = self.mr(6000)
        dst = self.mr(6000)
        image = data(6000, 9)
        src.write(image, 6000, 0)
        pieces = ((1, 1), (7, 1023), (2049, 2500), (5999, 1))
        message = b''.join(image[o:o + n] for o, n in pieces)
        self.post_send(self.a, e.IBV_WR_RDMA_WRITE,
                       self.sges(src, *pieces), 5,
                       rdma=(dst.rkey, dst.buf + 1001))
        self.check_send_wc(self.one(self.a.scq), 5, e.IBV_WC_RDMA_WRITE,
                           len(message))
        self.assertEqual(dst.read(6000, 0), bytes([FILL]) * 1001 + message +
                         bytes([FILL]) * (6000 - 1001 - len(message)))

    def test_write_with_immediate(self):
        recv = self.mr(64)
        for i, size in enumerate((0, 1, MTU, MTU + 1, 3 * MTU + 17)):
            with self.subTest(size=size):
                payload, src, dst = self.write_buffers(size, i)
                imm = 0xa0b0c000 + i
                self.post_recv(self.b, self.sges(recv), 100 + i)
                self.post_send(self.a, e.IBV_WR_RDMA_WRITE_WITH_IMM,
                               self.sges(src, (0, size)) if size else (), i,
                               imm=imm, rdma=(dst.rkey, dst.buf + OFF))
                self.check_send_wc(self.one(self.a.scq), i,
                                   e.IBV_WC_RDMA_WRITE, size)
                self.one(self.b.rcq, wr_id=100 + i, status=e.IBV_WC_SUCCESS,
                         opcode=e.IBV_WC_RECV_RDMA_WITH_IMM, byte_len=size,
                         wc_flags=e.IBV_WC_WITH_IMM, imm_data=imm,
                         qp_num=self.b.qpn, src_qp=self.a.qpn)
                self.assertEqual(dst.read(size + 2 * OFF, 0),
                                 bytes([FILL]) * OFF + payload +
                                 bytes([FILL]) * OFF)
                # The receive WQE's buffer is not written.
                self.assertEqual(recv.read(64, 0), bytes([FILL]) * 64)

    def test_read_sizes(self):
        for i, size in enumerate(SIZES):
            with self.subTest(size=size):
                payload = data(size, i)
                src = self.mr(size + OFF)
                dst = self.mr(size + 2 * OFF)
                if size:
                    src.write(payload, size, OFF)
                self.post_send(self.a, e.IBV_WR_RDMA_READ,
                               self.sges(dst, (OFF, size)) if size else (),
                               i, rdma=(src.rkey, src.buf + OFF))
                self.check_send_wc(self.one(self.a.scq), i,
                                   e.IBV_WC_RDMA_READ, size)
                self.assertEqual(dst.read(size + 2 * OFF, 0),
                                 bytes([FILL]) * OFF + payload +
                                 bytes([FILL]) * OFF)
        self.assertNoCompletion(self.b.rcq, 0)

    def test_acked_counts_each_packet_once(self):
        """tx_acked: each request packet the peer acknowledged or
        answered, once: a WRITE's packets, a READ's responses."""
        before = self.counter('tx_acked')
        size = 3 * MTU + 17
        payload, src, dst = self.write_buffers(size, 1)
        self.post_send(self.a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, size)),
                       1, rdma=(dst.rkey, dst.buf + OFF))
        self.check_send_wc(self.one(self.a.scq), 1, e.IBV_WC_RDMA_WRITE,
                           size)
        back = self.mr(2 * MTU)
        self.post_send(self.a, e.IBV_WR_RDMA_READ,
                       self.sges(back, (0, 2 * MTU)), 2,
                       rdma=(dst.rkey, dst.buf + OFF))
        self.check_send_wc(self.one(self.a.scq), 2, e.IBV_WC_RDMA_READ,
                           2 * MTU)
        self.assertEqual(back.read(2 * MTU, 0), payload[:2 * MTU])
        self.assertEqual(self.counter('tx_acked') - before, 4 + 2)

    def test_read_scatter(self):
        src = self.mr(8192)
        image = data(8192, 3)
        src.write(image, 8192, 0)
        dst1, dst2 = self.mr(4096), self.mr(4096)
        scatter = [(dst1, 1, 5), (dst2, 3, 1021), (dst1, 1000, 3000),
                   (dst2, 4095, 1)]
        size = sum(n for _, _, n in scatter)
        self.post_send(self.a, e.IBV_WR_RDMA_READ,
                       [self.sges(m, (o, n))[0] for m, o, n in scatter], 9,
                       rdma=(src.rkey, src.buf + 77))
        self.check_send_wc(self.one(self.a.scq), 9, e.IBV_WC_RDMA_READ, size)
        want = {id(dst1): bytearray([FILL]) * 4096,
                id(dst2): bytearray([FILL]) * 4096}
        pos = 77
        for m, o, n in scatter:
            want[id(m)][o:o + n] = image[pos:pos + n]
            pos += n
        self.assertEqual(dst1.read(4096, 0), bytes(want[id(dst1)]))
        self.assertEqual(dst2.read(4096, 0), bytes(want[id(dst2)]))

    def atomic(self, opcode, initial, compare_add, swap, wr_id):
        """Run one atomic on the 8 bytes at offset 8 of a remote buffer;
        return (original value returned, remote value after)."""
        remote = self.mr(24)
        local = self.mr(24)
        remote.write(struct.pack('<Q', initial), 8, 8)
        self.post_send(self.a, opcode, self.sges(local, (8, 8)), wr_id,
                       atomic=(remote.rkey, remote.buf + 8, compare_add,
                               swap))
        wc_opcode = (e.IBV_WC_COMP_SWAP if opcode ==
                     e.IBV_WR_ATOMIC_CMP_AND_SWP else e.IBV_WC_FETCH_ADD)
        self.check_send_wc(self.one(self.a.scq), wr_id, wc_opcode, 8)
        # Only the 8 bytes are touched, on either side.
        for mr in (remote, local):
            self.assertEqual(mr.read(8, 0) + mr.read(8, 16),
                             bytes([FILL]) * 16)
        return (struct.unpack('<Q', local.read(8, 8))[0],
                struct.unpack('<Q', remote.read(8, 8))[0])

    def test_compare_swap(self):
        cas = e.IBV_WR_ATOMIC_CMP_AND_SWP
        v = 0x0123456789abcdef
        self.assertEqual(self.atomic(cas, v, v, 0xfedcba9876543210, 1),
                         (v, 0xfedcba9876543210))
        self.assertEqual(self.atomic(cas, v, v + 1, 0xfedcba9876543210, 2),
                         (v, v))
        self.assertEqual(self.atomic(cas, 0, 0, 1 << 63, 3), (0, 1 << 63))

    def test_fetch_add(self):
        faa = e.IBV_WR_ATOMIC_FETCH_AND_ADD
        self.assertEqual(self.atomic(faa, 40, 2, 0, 1), (40, 42))
        self.assertEqual(self.atomic(faa, (1 << 64) - 1, 2, 0, 2),
                         ((1 << 64) - 1, 1))
        self.assertEqual(self.atomic(faa, 0x100000000, (1 << 64) - 1, 0, 3),
                         (0x100000000, 0xffffffff))

    def test_fetch_add_repeated(self):
        remote = self.mr(8)
        local = self.mr(8 * 32)
        remote.write(struct.pack('<Q', 1000), 8, 0)
        for i in range(32):
            self.post_send(self.a, e.IBV_WR_ATOMIC_FETCH_AND_ADD,
                           self.sges(local, (8 * i, 8)), i,
                           atomic=(remote.rkey, remote.buf, i, 0))
        wcs = self.poll(self.a.scq, 32)
        for i, wc in enumerate(wcs):
            self.check_send_wc(wc, i, e.IBV_WC_FETCH_ADD, 8)
        origs = struct.unpack('<32Q', local.read(256, 0))
        self.assertEqual(list(origs),
                         [1000 + i * (i - 1) // 2 for i in range(32)])
        self.assertEqual(struct.unpack('<Q', remote.read(8, 0))[0],
                         1000 + 31 * 32 // 2)

    def test_mixed_in_flight(self):
        """SENDs, WRITEs, READs and atomics posted at once complete in
        posting order, each with its own result."""
        n = 40
        src = self.mr(n * 2048)
        dst = self.mr(n * 2048)
        recv = self.mr(n * 2048)
        image = data(n * 2048, 5)
        src.write(image, n * 2048, 0)
        dst.write(image[::-1], n * 2048, 0)
        counter = self.mr(8)
        counter.write(struct.pack('<Q', 7), 8, 0)
        kinds = []
        for i in range(n):
            off, size = i * 2048, 100 + i * 47
            kind = i % 4
            kinds.append(kind)
            sg = self.sges(src, (off, size))
            if kind == 0:
                self.post_recv(self.b, self.sges(recv, (off, 2048)), i)
                self.post_send(self.a, e.IBV_WR_SEND, sg, i)
            elif kind == 1:
                self.post_send(self.a, e.IBV_WR_RDMA_WRITE, sg, i,
                               rdma=(dst.rkey, dst.buf + off))
            elif kind == 2:
                # READ back what the WRITE before it put there.
                self.post_send(self.a, e.IBV_WR_RDMA_READ,
                               self.sges(recv, (off, size)), i,
                               rdma=(dst.rkey, dst.buf + off - 2048))
            else:
                self.post_send(self.a, e.IBV_WR_ATOMIC_FETCH_AND_ADD,
                               self.sges(recv, (off, 8)), i,
                               atomic=(counter.rkey, counter.buf, 1, 0))
        opcodes = (e.IBV_WC_SEND, e.IBV_WC_RDMA_WRITE, e.IBV_WC_RDMA_READ,
                   e.IBV_WC_FETCH_ADD)
        wcs = self.poll(self.a.scq, n)
        for i, wc in enumerate(wcs):
            size = 8 if kinds[i] == 3 else 100 + i * 47
            self.check_send_wc(wc, i, opcodes[kinds[i]], size)
        rwcs = self.poll(self.b.rcq, n // 4)
        self.assertEqual([wc.wr_id for wc in rwcs], list(range(0, n, 4)))
        adds = 0
        for i in range(n):
            off, size = i * 2048, 100 + i * 47
            if kinds[i] == 0:
                self.assertEqual(recv.read(size, off), image[off:off + size])
            elif kinds[i] == 1:
                self.assertEqual(dst.read(size, off), image[off:off + size])
            elif kinds[i] == 2:
                prev = off - 2048
                rev = image[::-1]
                self.assertEqual(recv.read(size, off),
                                 image[prev:prev + size - 47] +
                                 rev[prev + size - 47:prev + size])
            else:
                self.assertEqual(struct.unpack('<Q', recv.read(8, off))[0],
                                 7 + adds)
                adds += 1
        self.assertEqual(struct.unpack('<Q', counter.read(8, 0))[0],
                         7 + adds)
