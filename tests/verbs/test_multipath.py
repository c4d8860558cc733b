# SPDX-License-Identifier: GPL-2.0
"""Multipath between RC QPs of rmp (Documentation/rmp/wire.rst): the device
knobs ``paths`` and ``spray``, the switch once the peers agree, data that
arrives whole whatever the operations between the sprayed WRITEs, and READ
responses sprayed back. The QPs talk through the device's local delivery,
which keeps packets in order; the faults suite sprays over a reordering
link."""
import time

import pyverbs.enums as e
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr

from rmpdata import FILL, MTU, OFF, DataTestCase, data


class MultipathTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.set_knob('ext', 'auto')

    def pair(self, paths):
        """An RC pair whose QPs agreed; with paths > 1, a sprays."""
        self.set_knob('paths', str(paths))
        a, b = self.rc_pair(max_send_wr=128, max_recv_wr=128)
        for end in (a, b):
            self.wait_res(end, 'drv_ext', 'agreed')
            self.wait_res(end, 'drv_ooo', 1)
        if paths > 1:
            self.wait_res(a, 'drv_paths', paths)
        self.a, self.b = a, b
        return a, b

    def counters(self, *names):
        return {n: self.counter(n) for n in names}

    def write(self, a, size, seed, wr_id):
        """Post an RDMA WRITE of size bytes from a to its peer. Returns
        (src, dst, image): src must live until the WRITE completes (its
        MR is deregistered with it); dst should then read as image."""
        payload, src, dst = self.write_buffers(size, seed)
        self.post_send(a, e.IBV_WR_RDMA_WRITE,
                       self.sges(src, (0, size)) if size else (), wr_id,
                       rdma=(dst.rkey, dst.buf + OFF))
        return src, dst, bytes([FILL]) * OFF + payload + bytes([FILL]) * OFF

    def read(self, a, size, seed, wr_id):
        """Post an RDMA READ by a of size bytes of its peer's memory.
        Returns (src, back, image): back should then read as image, its
        canaries around the READ's bytes untouched."""
        payload = data(size, seed)
        src = self.mr(size)
        src.write(payload, size, 0)
        back = self.mr(size + 2 * OFF)
        self.post_send(a, e.IBV_WR_RDMA_READ, self.sges(back, (OFF, size)),
                       wr_id, rdma=(src.rkey, src.buf))
        return src, back, bytes([FILL]) * OFF + payload + bytes([FILL]) * OFF

    def test_sprayed_read_responses_arrive_whole(self):
        """READs of QPs that agreed to read spraying, paths 8: the READs
        ask for it, the responder sprays their responses over its 8 paths,
        every byte lands where it belongs; a READ over 1024 PSNs is
        answered in order, whole too. a reports the responses it got
        (read reports), b takes the reports in, and none of its paths
        dies: nothing is lost on the way."""
        a, b = self.pair(8)
        self.wait_res(a, 'drv_rd-spray', 1)
        self.wait_res(b, 'drv_rd-paths', 8)
        self.wait_res(b, 'drv_rd-paths-live', 8)
        reports = self.counters('tx_read_reports', 'rx_read_reports',
                                'rx_bad_read_reports')
        before = self.counter('tx_read_sprayed')
        sizes = (1, MTU, MTU + 1, 5 * MTU + 3, 64 * 1024, 1024 * MTU)
        for i, size in enumerate(sizes):
            with self.subTest(size=size):
                _src, back, want = self.read(a, size, 20 + i, i)
                self.check_send_wc(self.one(a.scq), i, e.IBV_WC_RDMA_READ,
                                   size)
                self.assertEqual(back.read(len(want), 0), want)
        packets = sum(-(-n // MTU) for n in sizes)
        self.assertGreaterEqual(self.counter('tx_read_sprayed') - before,
                                packets)
        before = self.counter('tx_read_sprayed')
        size = 1024 * MTU + 1
        _src, back, want = self.read(a, size, 30, 30)
        self.check_send_wc(self.one(a.scq), 30, e.IBV_WC_RDMA_READ, size)
        self.assertEqual(back.read(len(want), 0), want)
        self.assertEqual(self.counter('tx_read_sprayed'), before)
        self.assertNoCompletion(b.rcq, 0)
        after = self.counters('tx_read_reports', 'rx_read_reports',
                              'rx_bad_read_reports')
        self.assertGreater(after['tx_read_reports'],
                           reports['tx_read_reports'])
        self.assertGreater(after['rx_read_reports'],
                           reports['rx_read_reports'])
        self.assertEqual(after['rx_bad_read_reports'],
                         reports['rx_bad_read_reports'])
        res = self.qp_res(b)
        self.assertEqual((res['drv_rd-paths-live'], res['drv_rd-path-deaths']),
                         (8, 0), res)
        self.assertGreater(res['drv_rd-reports'], 0)

    def test_sprayed_writes_arrive_whole(self):
        a, b = self.pair(8)
        res = self.qp_res(a)
        sports = {res['drv_path%d-sport' % i] for i in range(8)}
        self.assertEqual(len(sports), 8)
        self.assertTrue(all(0xc000 <= p <= 0xffff for p in sports))
        before = self.counters('tx_sprayed', 'rx_sacks')
        sizes = (1, MTU, MTU + 1, 5 * MTU + 3, 64 * 1024, 1 << 20)
        for i, size in enumerate(sizes):
            with self.subTest(size=size):
                _src, dst, want = self.write(a, size, i, i)
                self.check_send_wc(self.one(a.scq), i, e.IBV_WC_RDMA_WRITE,
                                   size)
                self.assertEqual(dst.read(len(want), 0), want)
        after = self.counters('tx_sprayed', 'rx_sacks')
        packets = sum(-(-n // MTU) for n in sizes)
        self.assertGreaterEqual(after['tx_sprayed'] - before['tx_sprayed'],
                                packets)
        self.assertGreater(after['rx_sacks'], before['rx_sacks'])
        self.assertNoCompletion(b.rcq, 0)

    def test_knob_raised_on_a_connected_qp(self):
        """A pair that agreed with paths 1 does not spray; once the device's
        paths goes to 4, the connected QP's next WRITEs are sprayed over 4
        paths (its runs take the knobs up again when they change), and
        arrive whole."""
        a, _b = self.pair(1)
        before = self.counter('tx_sprayed')
        _src, dst, want = self.write(a, 4 * MTU, 1, 1)
        self.check_send_wc(self.one(a.scq), 1, e.IBV_WC_RDMA_WRITE, 4 * MTU)
        self.assertEqual(dst.read(len(want), 0), want)
        self.assertEqual(self.counter('tx_sprayed'), before)
        self.set_knob('paths', '4')
        _src, dst, want = self.write(a, 4 * MTU, 2, 2)
        self.check_send_wc(self.one(a.scq), 2, e.IBV_WC_RDMA_WRITE, 4 * MTU)
        self.assertEqual(dst.read(len(want), 0), want)
        self.wait_res(a, 'drv_paths', 4)
        _src, dst, want = self.write(a, 8 * MTU, 3, 3)
        self.check_send_wc(self.one(a.scq), 3, e.IBV_WC_RDMA_WRITE, 8 * MTU)
        self.assertEqual(dst.read(len(want), 0), want)
        self.assertGreaterEqual(self.counter('tx_sprayed') - before, 8)

    def send(self, a, size, seed, wr_id, imm=None):
        """Post a SEND (with immediate data if imm) of size bytes from a.
        Returns its source MR, which must live until the SEND completes."""
        src = self.mr(max(size, 1))
        if size:
            src.write(data(size, seed), size, 0)
        self.post_send(a, e.IBV_WR_SEND_WITH_IMM if imm is not None else
                       e.IBV_WR_SEND, self.sges(src, (0, size)) if size
                       else (), wr_id, imm=imm)
        return src

    def test_sprayed_sends_arrive_whole(self):
        """QPs that agreed to send spraying, paths 8: SENDs of every size,
        some with immediate data, all posted at once, travel in sprayed
        pieces; each lands whole in its own receive buffer, between
        untouched canaries, and the receives complete in order with the
        SENDs' lengths and immediate data."""
        a, b = self.pair(8)
        self.wait_res(a, 'drv_send-spray', 1)
        sizes = (0, 1, MTU, MTU + 1, 5 * MTU + 3, 64 * 1024, 1 << 20)
        bufs = []
        for i, size in enumerate(sizes):
            buf = self.mr(size + 2 * OFF)
            buf.write(bytes([FILL]) * (size + 2 * OFF), size + 2 * OFF, 0)
            self.post_recv(b, self.sges(buf, (OFF, size)), 100 + i)
            bufs.append(buf)
        before = self.counter('tx_sprayed')
        srcs = [self.send(a, size, 40 + i, i, imm=0x1000 + i if i % 2
                          else None) for i, size in enumerate(sizes)]
        wcs = self.poll(a.scq, len(sizes))
        self.assertEqual([(wc.wr_id, wc.status) for wc in wcs],
                         [(i, e.IBV_WC_SUCCESS) for i in range(len(sizes))])
        rwcs = self.poll(b.rcq, len(sizes))
        for i, (size, wc, buf) in enumerate(zip(sizes, rwcs, bufs)):
            with self.subTest(size=size):
                self.check_wc(wc, wr_id=100 + i, status=e.IBV_WC_SUCCESS,
                              opcode=e.IBV_WC_RECV, byte_len=size,
                              wc_flags=e.IBV_WC_WITH_IMM if i % 2 else 0)
                if i % 2:
                    self.assertEqual(wc.imm_data, 0x1000 + i)
                want = (bytes([FILL]) * OFF + data(size, 40 + i) +
                        bytes([FILL]) * OFF)
                self.assertEqual(buf.read(len(want), 0), want)
        packets = sum(max(1, -(-n // MTU)) for n in sizes)
        self.assertGreaterEqual(self.counter('tx_sprayed') - before, packets)
        del srcs

    def test_sprayed_writes_with_immediate_arrive_whole(self):
        """With send spraying, WRITEs with immediate data are sprayed too:
        WRITE ONLY pieces, the last carrying the immediate data. Each
        lands whole between untouched canaries, and the receives complete
        in order with the WRITEs' lengths and immediate data."""
        a, b = self.pair(8)
        self.wait_res(a, 'drv_send-spray', 1)
        sizes = (0, 1, MTU, 5 * MTU + 3, 64 * 1024, 1 << 20)
        for i in range(len(sizes)):
            self.post_recv(b, (), 200 + i)
        before = self.counter('tx_sprayed')
        keep = []
        for i, size in enumerate(sizes):
            payload, src, dst = self.write_buffers(size, 60 + i)
            self.post_send(a, e.IBV_WR_RDMA_WRITE_WITH_IMM,
                           self.sges(src, (0, size)) if size else (), i,
                           imm=0x2000 + i, rdma=(dst.rkey, dst.buf + OFF))
            keep.append((src, dst, bytes([FILL]) * OFF + payload +
                         bytes([FILL]) * OFF))
        wcs = self.poll(a.scq, len(sizes))
        self.assertEqual([(wc.wr_id, wc.status) for wc in wcs],
                         [(i, e.IBV_WC_SUCCESS) for i in range(len(sizes))])
        rwcs = self.poll(b.rcq, len(sizes))
        for i, (size, wc, (_src, dst, want)) in enumerate(zip(sizes, rwcs,
                                                            keep)):
            with self.subTest(size=size):
                self.check_wc(wc, wr_id=200 + i, status=e.IBV_WC_SUCCESS,
                              opcode=e.IBV_WC_RECV_RDMA_WITH_IMM,
                              byte_len=size, wc_flags=e.IBV_WC_WITH_IMM,
                              imm_data=0x2000 + i)
                self.assertEqual(dst.read(len(want), 0), want)
        packets = sum(max(1, -(-n // MTU)) for n in sizes)
        self.assertGreaterEqual(self.counter('tx_sprayed') - before, packets)

    def test_many_small_sprayed_sends(self):
        """More sprayed SENDs outstanding than the responder keeps track
        of (64): the requester holds the rest back until earlier ones are
        acknowledged, and all 120 arrive, in order, none lost."""
        a, b = self.pair(8)
        self.wait_res(a, 'drv_send-spray', 1)
        n = 120
        buf = self.mr(n * 8)
        for i in range(n):
            self.post_recv(b, self.sges(buf, (i * 8, 8)), 1000 + i)
        srcs = [self.send(a, 1 + i % 8, i, i) for i in range(n)]
        wcs = self.poll(a.scq, n)
        self.assertEqual([(wc.wr_id, wc.status) for wc in wcs],
                         [(i, e.IBV_WC_SUCCESS) for i in range(n)])
        rwcs = self.poll(b.rcq, n)
        self.assertEqual([(wc.wr_id, wc.byte_len) for wc in rwcs],
                         [(1000 + i, 1 + i % 8) for i in range(n)])
        for i in range(n):
            self.assertEqual(buf.read(1 + i % 8, i * 8), data(1 + i % 8, i))
        del srcs

    def test_srq_takes_sprayed_sends_whole(self):
        """Two QPs on one SRQ, each the peer of a QP that sprays over 8
        paths: both agree to send spraying, and SENDs of every size from
        both peers, posted at once, travel in sprayed pieces. Each lands
        whole, between untouched canaries, in the SRQ buffer its receive
        completion names; each QP's receives complete in the order of its
        peer's SENDs, with the SRQ's WQEs in the order they were posted."""
        self.set_knob('paths', '8')
        srq = SRQ(self.pd, SrqInitAttr(SrqAttr(max_wr=64, max_sge=1)))
        pairs = []
        for n in range(2):
            a = self.create_qp(max_send_wr=32)
            b = self.create_qp(srq=srq)
            self.to_rts(a.qp, self.rc_attr(b.qpn, 0x10 + n, 0x20 + n))
            self.to_rts(b.qp, self.rc_attr(a.qpn, 0x20 + n, 0x10 + n))
            pairs.append((a, b))
        for a, b in pairs:
            self.wait_res(a, 'drv_send-spray', 1)
            self.wait_res(a, 'drv_paths', 8)
        sizes = (0, 1, MTU, MTU + 1, 5 * MTU + 3, 64 * 1024, 3)
        room = 64 * 1024 + 2 * OFF
        total = 2 * len(sizes)
        buf = self.mr(total * room)
        for i in range(total):
            self.post_recv(srq, self.sges(buf, (i * room + OFF, 64 * 1024)),
                           i)
        before = self.counter('tx_sprayed')
        srcs = [self.send(a, size, 10 * n + i, i, imm=n << 8 | i)
                for i, size in enumerate(sizes)
                for n, (a, _b) in enumerate(pairs)]
        for a, _b in pairs:
            wcs = self.poll(a.scq, len(sizes))
            self.assertEqual([(wc.wr_id, wc.status) for wc in wcs],
                             [(i, e.IBV_WC_SUCCESS)
                              for i in range(len(sizes))])
        image = bytearray([FILL]) * (total * room)
        for n, (_a, b) in enumerate(pairs):
            rwcs = self.poll(b.rcq, len(sizes))
            self.assertEqual([(wc.imm_data, wc.byte_len) for wc in rwcs],
                             [(n << 8 | i, size)
                              for i, size in enumerate(sizes)])
            wr_ids = [wc.wr_id for wc in rwcs]
            self.assertEqual(wr_ids, sorted(wr_ids))
            for i, (size, wc) in enumerate(zip(sizes, rwcs)):
                at = wc.wr_id * room + OFF
                image[at:at + size] = data(size, 10 * n + i)
        self.assertEqual(buf.read(len(image), 0), bytes(image))
        packets = sum(max(1, -(-size // MTU)) for size in sizes)
        self.assertGreaterEqual(self.counter('tx_sprayed') - before,
                                2 * packets)
        del srcs

    def test_other_operations_between_writes(self):
        """SENDs and WRITEs with immediate (sprayed too), READs and atomics
        posted between sprayed WRITEs, all at once: the READs and atomics
        wait for the WRITEs before them, and everything completes in order
        with the right data."""
        a, b = self.pair(8)
        recv = self.mr(4 * MTU)
        for i in range(2):
            self.post_recv(b, self.sges(recv, (2 * i * MTU, 2 * MTU)),
                           100 + i)
        _s1, w1, want1 = self.write(a, 20 * MTU, 1, 1)
        send = self.mr(2 * MTU)
        send.write(data(2 * MTU, 2), 2 * MTU, 0)
        self.post_send(a, e.IBV_WR_SEND, self.sges(send, (0, 2 * MTU)), 2)
        _s3, w3, want3 = self.write(a, 7 * MTU + 5, 3, 3)
        src = self.mr(3 * MTU)
        src.write(data(3 * MTU, 4), 3 * MTU, 0)
        back = self.mr(3 * MTU)
        self.post_send(a, e.IBV_WR_RDMA_READ, self.sges(back, (0, 3 * MTU)),
                       4, rdma=(src.rkey, src.buf))
        payload5, src5, dst5 = self.write_buffers(3 * MTU, 5)
        self.post_send(a, e.IBV_WR_RDMA_WRITE_WITH_IMM,
                       self.sges(src5, (0, 3 * MTU)), 5, imm=0x5050,
                       rdma=(dst5.rkey, dst5.buf + OFF))
        _s6, w6, want6 = self.write(a, 9 * MTU, 6, 6)
        word = self.mr(8)
        word.write(bytes(8), 8, 0)
        old = self.mr(8)
        self.post_send(a, e.IBV_WR_ATOMIC_FETCH_AND_ADD, self.sges(old),
                       7, atomic=(word.rkey, word.buf, 3, 0))
        wcs = self.poll(a.scq, 7)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(1, 8)))
        for wc in wcs:
            self.assertEqual(wc.status, e.IBV_WC_SUCCESS)
        self.assertEqual(w1.read(len(want1), 0), want1)
        self.assertEqual(w3.read(len(want3), 0), want3)
        self.assertEqual(w6.read(len(want6), 0), want6)
        self.assertEqual(back.read(3 * MTU, 0), data(3 * MTU, 4))
        self.assertEqual(dst5.read(3 * MTU, OFF), payload5)
        self.assertEqual(word.read(8, 0), (3).to_bytes(8, 'little'))
        rwcs = self.poll(b.rcq, 2)
        self.assertEqual([wc.wr_id for wc in rwcs], [100, 101])
        self.assertEqual(recv.read(2 * MTU, 0), data(2 * MTU, 2))
        self.assertEqual(rwcs[1].imm_data, 0x5050)

    def test_one_path_sprays_nothing(self):
        """paths 1: no WRITE and no READ response sprayed, though the
        READs ask for it (the peer agreed)."""
        a, b = self.pair(1)
        self.assertNotIn('drv_paths', self.qp_res(a))
        self.assertNotIn('drv_rd-paths', self.qp_res(b))
        before = self.counters('tx_sprayed', 'tx_read_sprayed')
        _src, dst, want = self.write(a, 16 * MTU, 9, 9)
        self.check_send_wc(self.one(a.scq), 9, e.IBV_WC_RDMA_WRITE, 16 * MTU)
        self.assertEqual(dst.read(len(want), 0), want)
        _src, back, want = self.read(a, 16 * MTU, 11, 11)
        self.check_send_wc(self.one(a.scq), 11, e.IBV_WC_RDMA_READ,
                           16 * MTU)
        self.assertEqual(back.read(len(want), 0), want)
        self.assertEqual(self.counters('tx_sprayed', 'tx_read_sprayed'),
                         before)

    def test_ext_off_stays_plain(self):
        self.set_knob('ext', 'off')
        self.set_knob('paths', '8')
        a, b = self.rc_pair()
        self.a, self.b = a, b
        time.sleep(0.5)
        for end in (a, b):
            res = self.qp_res(end)
            self.assertEqual(res['drv_ext'], 'none')
            self.assertEqual(res['drv_ooo'], 0)
            self.assertNotIn('drv_paths', res)
        before = self.counters('tx_sprayed', 'rx_sacks')
        _src, dst, want = self.write(a, 16 * MTU, 10, 10)
        self.check_send_wc(self.one(a.scq), 10, e.IBV_WC_RDMA_WRITE,
                           16 * MTU)
        self.assertEqual(dst.read(len(want), 0), want)
        self.assertEqual(self.counters('tx_sprayed', 'rx_sacks'), before)
