# SPDX-License-Identifier: GPL-2.0
"""UD SEND/RECV: the GRH area, source QP, immediate data, Q_Keys and
messages over the MTU."""
import ipaddress
import struct

import pyverbs.enums as e

from rmpdata import FILL, GRH, MTU, QKEY, DataTestCase, data

BTH, DETH, IMMDT, ICRC, UDP, IPV4 = 12, 8, 4, 4, 8, 20


def ip_checksum(header):
    total = sum(struct.unpack('!10H', header))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return total


class UdTest(DataTestCase):
    def setUp(self):
        super().setUp()
        self.s = self.ud_qp()
        self.r = self.ud_qp()
        self.av = self.ah()

    def ud(self, qkey=QKEY, qpn=None):
        return (self.av, self.r.qpn if qpn is None else qpn, qkey)

    def check_grh(self, grh, size, imm):
        """The IPv4 header in the last 20 bytes; the payload is padded to
        4 bytes on the wire."""
        self.assertEqual(grh[:20], bytes(20))
        ip = grh[20:]
        (ver_ihl, tos, tot_len, _, _, ttl, proto, _, saddr,
         daddr) = struct.unpack('!BBHHHBBH4s4s', ip)
        self.assertEqual(ver_ihl, 0x45)
        self.assertEqual(tos, 0)
        self.assertEqual(tot_len, IPV4 + UDP + BTH + DETH +
                         (IMMDT if imm is not None else 0) +
                         (size + 3) // 4 * 4 + ICRC)
        self.assertEqual(ttl, 64)
        self.assertEqual(proto, 17)
        self.assertEqual(ip_checksum(ip), 0xffff)
        local = ipaddress.ip_address('10.0.0.1').packed
        self.assertEqual((saddr, daddr), (local, local))

    def send_one(self, size, wr_id, imm=None):
        src = self.mr(size)
        dst = self.mr(GRH + size + 32)
        payload = data(size, wr_id)
        if size:
            src.write(payload, size, 0)
        self.post_recv(self.r, self.sges(dst), wr_id + 100)
        self.post_send(self.s, e.IBV_WR_SEND_WITH_IMM if imm is not None
                       else e.IBV_WR_SEND,
                       self.sges(src, (0, size)) if size else (), wr_id,
                       imm=imm, ud=self.ud())
        self.one(self.s.scq, wr_id=wr_id, status=e.IBV_WC_SUCCESS,
                 opcode=e.IBV_WC_SEND, byte_len=size, qp_num=self.s.qpn)
        flags = e.IBV_WC_GRH
        want = dict(wr_id=wr_id + 100, status=e.IBV_WC_SUCCESS,
                    opcode=e.IBV_WC_RECV, byte_len=GRH + size,
                    qp_num=self.r.qpn, src_qp=self.s.qpn)
        if imm is not None:
            flags |= e.IBV_WC_WITH_IMM
            want['imm_data'] = imm
        want['wc_flags'] = flags
        self.one(self.r.rcq, **want)
        self.check_grh(dst.read(GRH, 0), size, imm)
        self.assertEqual(dst.read(size + 32, GRH),
                         payload + bytes([FILL]) * 32)

    def test_sizes(self):
        for i, size in enumerate((0, 1, 100, MTU - 1, MTU)):
            with self.subTest(size=size):
                self.send_one(size, i)

    def test_immediate(self):
        for i, size in enumerate((0, 7, MTU)):
            with self.subTest(size=size):
                self.send_one(size, i, 0xc0de0000 + i)

    def test_scatter_around_grh(self):
        # The GRH area may span SGEs; the payload follows it.
        src = self.mr(300)
        src.write(data(300), 300, 0)
        dst = self.mr(1024)
        sg = self.sges(dst, (1, 30), (100, 11), (500, 400))
        self.post_recv(self.r, sg, 1)
        self.post_send(self.s, e.IBV_WR_SEND, self.sges(src), 2,
                       ud=self.ud())
        self.one(self.s.scq, wr_id=2, status=e.IBV_WC_SUCCESS)
        self.one(self.r.rcq, wr_id=1, status=e.IBV_WC_SUCCESS,
                 byte_len=GRH + 300, src_qp=self.s.qpn)
        image = dst.read(1024, 0)
        received = image[1:31] + image[100:111] + image[500:900]
        self.check_grh(received[:GRH], 300, None)
        self.assertEqual(received[GRH:GRH + 300], data(300))
        self.assertEqual(received[GRH + 300:], bytes([FILL]) * 101)

    def test_wrong_qkey_dropped(self):
        dst = self.mr(GRH + 64)
        self.post_recv(self.r, self.sges(dst), 1)
        drops = self.counter('rx_drop_qp')
        self.post_send(self.s, e.IBV_WR_SEND, (), 5, ud=self.ud(QKEY + 1))
        # The sender does not know: UD is unacknowledged.
        self.one(self.s.scq, wr_id=5, status=e.IBV_WC_SUCCESS)
        self.assertNoCompletion(self.r.rcq, 0.5)
        self.assertEqual(self.counter('rx_drop_qp') - drops, 1)
        self.assertEqual(dst.read(GRH + 64, 0), bytes([FILL]) * (GRH + 64))
        # The receive WQE is still there for the right Q_Key.
        self.post_send(self.s, e.IBV_WR_SEND, (), 6, ud=self.ud())
        self.one(self.s.scq, wr_id=6, status=e.IBV_WC_SUCCESS)
        self.one(self.r.rcq, wr_id=1, status=e.IBV_WC_SUCCESS,
                 byte_len=GRH, src_qp=self.s.qpn)
        self.check_grh(dst.read(GRH, 0), 0, None)

    def test_qkey_high_bit_uses_own(self):
        # A WR's Q_Key with the high bit set stands for the sender QP's.
        dst = self.mr(GRH + 8)
        self.post_recv(self.r, self.sges(dst), 1)
        self.post_send(self.s, e.IBV_WR_SEND, (), 5, ud=self.ud(0x80000000))
        self.one(self.s.scq, wr_id=5, status=e.IBV_WC_SUCCESS)
        self.one(self.r.rcq, wr_id=1, status=e.IBV_WC_SUCCESS, byte_len=GRH,
                 src_qp=self.s.qpn)

    def test_no_receive_dropped(self):
        drops = self.counter('rx_drop_no_wqe')
        self.post_send(self.s, e.IBV_WR_SEND, (), 5, ud=self.ud())
        self.one(self.s.scq, wr_id=5, status=e.IBV_WC_SUCCESS)
        self.assertNoCompletion(self.r.rcq, 0.3)
        self.assertEqual(self.counter('rx_drop_no_wqe') - drops, 1)

    def test_receive_too_small(self):
        dst = self.mr(GRH + 99)
        src = self.mr(100)
        self.post_recv(self.r, self.sges(dst), 1)
        self.post_send(self.s, e.IBV_WR_SEND, self.sges(src), 5,
                       ud=self.ud())
        self.one(self.s.scq, wr_id=5, status=e.IBV_WC_SUCCESS)
        self.one(self.r.rcq, wr_id=1, status=e.IBV_WC_LOC_LEN_ERR,
                 qp_num=self.r.qpn)

    def test_over_mtu(self):
        src = self.mr(MTU + 1)
        dst = self.mr(GRH + MTU + 1)
        self.post_recv(self.r, self.sges(dst), 1)
        self.post_send(self.s, e.IBV_WR_SEND, self.sges(src), 5,
                       ud=self.ud())
        self.one(self.s.scq, wr_id=5, status=e.IBV_WC_LOC_LEN_ERR,
                 opcode=e.IBV_WC_SEND, qp_num=self.s.qpn)
        self.assertNoCompletion(self.r.rcq, 0.3)
        self.assertEqual(dst.read(GRH + MTU + 1, 0),
                         bytes([FILL]) * (GRH + MTU + 1))

    def test_many_to_one(self):
        senders = [self.ud_qp() for _ in range(3)]
        dst = self.mr(30 * 64)
        for i in range(30):
            self.post_recv(self.r, self.sges(dst, (64 * i, 64)), i)
        for i in range(30):
            self.post_send(senders[i % 3], e.IBV_WR_SEND_WITH_IMM, (), i,
                           imm=i, ud=self.ud())
        for i, s in enumerate(senders):
            wcs = self.poll(s.scq, 10)
            self.assertEqual([wc.wr_id for wc in wcs], list(range(i, 30, 3)))
        # The receiver sees the three senders' messages interleaved in any
        # order, but each sender's in its own order.
        wcs = self.poll(self.r.rcq, 30)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(30)))
        by_src = {}
        for wc in wcs:
            self.assertEqual(wc.byte_len, GRH)
            by_src.setdefault(wc.src_qp, []).append(wc.imm_data)
        self.assertEqual(by_src, {s.qpn: list(range(i, 30, 3))
                                  for i, s in enumerate(senders)})
