# SPDX-License-Identifier: GPL-2.0
"""RC ATOMIC WRITE (IBTA Memory Placement Extensions), posted through
ibv_wr_atomic_write() on an extended QP: 8 bytes placed in one piece,
ordered with the READs around it, refused where a WRITE would be."""
import struct

import pyverbs.enums as e

from rmpdata import ALL, FILL, LW, RA, RR, DataTestCase

OK = e.IBV_WC_SUCCESS
FLUSH = e.IBV_WC_WR_FLUSH_ERR
AW = e.IBV_WC_ATOMIC_WRITE
OPS = (e.IBV_QP_EX_WITH_ATOMIC_WRITE | e.IBV_QP_EX_WITH_RDMA_READ |
       e.IBV_QP_EX_WITH_SEND)


def word(v):
    return struct.pack('<Q', v)


class RcAtomicWriteTest(DataTestCase):
    def pair(self, **kw):
        return self.rc_pair(send_ops=OPS, max_send_wr=64, max_recv_wr=64,
                            **kw)

    @staticmethod
    def atomic_write(end, rkey, addr, value, wr_id):
        qp = end.qp
        qp.wr_start()
        qp.wr_id = wr_id
        qp.wr_flags = e.IBV_SEND_SIGNALED
        qp.wr_atomic_write(rkey, addr, value)
        qp.wr_complete()

    def test_writes_the_word(self):
        a, _ = self.pair()
        remote = self.mr(24)
        self.atomic_write(a, remote.rkey, remote.buf + 8,
                          word(0x0123456789abcdef), 7)
        self.one(a.scq, wr_id=7, status=OK, opcode=AW, byte_len=8,
                 qp_num=a.qpn)
        # The 8 bytes land as given, nothing around them moves.
        self.assertEqual(remote.read(24, 0), bytes([FILL]) * 8 +
                         word(0x0123456789abcdef) + bytes([FILL]) * 8)

    def test_ordered_with_reads(self):
        """Each READ posted after an ATOMIC WRITE of the same word reads
        what it wrote; completions come in posting order."""
        a, _ = self.pair()
        remote = self.mr(8)
        local = self.mr(8 * 20)
        for i in range(20):
            self.atomic_write(a, remote.rkey, remote.buf, word(1000 + i),
                              2 * i)
            self.post_send(a, e.IBV_WR_RDMA_READ, self.sges(local, (8 * i, 8)),
                           2 * i + 1, rdma=(remote.rkey, remote.buf))
        wcs = self.poll(a.scq, 40)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(40)))
        for wc in wcs:
            self.check_wc(wc, status=OK,
                          opcode=e.IBV_WC_RDMA_READ if wc.wr_id % 2 else AW)
        self.assertEqual(struct.unpack('<20Q', local.read(160, 0)),
                         tuple(range(1000, 1020)))
        self.assertEqual(remote.read(8, 0), word(1019))

    def test_more_than_max_rd_atomic(self):
        """Twice as many as the QP may have outstanding: they wait for
        room and all land."""
        a, _ = self.pair(a_attr={'max_rd_atomic': 4})
        remote = self.mr(8 * 16)
        for i in range(16):
            self.atomic_write(a, remote.rkey, remote.buf + 8 * i,
                              word(i * 0x0101010101010101), i)
        wcs = self.poll(a.scq, 16)
        self.assertEqual([wc.wr_id for wc in wcs], list(range(16)))
        self.assertEqual(remote.read(128, 0),
                         b''.join(word(i * 0x0101010101010101)
                                  for i in range(16)))

    def failed(self, a, b, status, b_error=True):
        """The ATOMIC WRITE (wr_id 1) failed with status, the SEND after
        it was flushed, and the QPs went to ERR."""
        wcs = self.poll(a.scq, 2)
        self.check_wc(wcs[0], wr_id=1, status=status, opcode=AW,
                      qp_num=a.qpn)
        self.check_wc(wcs[1], wr_id=2, status=FLUSH, qp_num=a.qpn)
        self.assertEqual(self.state(a), e.IBV_QPS_ERR)
        if b_error:
            self.wait_state(b, e.IBV_QPS_ERR)

    def refused(self, status, remote_access=ALL, b_access=ALL, rkey=None,
                offset=0, b_error=True):
        a, b = self.pair(b_access=b_access)
        remote = self.mr(16, access=remote_access)
        self.atomic_write(a, remote.rkey if rkey is None else rkey,
                          remote.buf + offset, word(42), 1)
        self.post_send(a, e.IBV_WR_SEND, (), 2)
        self.failed(a, b, status, b_error)
        self.assertEqual(remote.read(16, 0), bytes([FILL]) * 16)

    def test_region_without_remote_write(self):
        self.refused(e.IBV_WC_REM_ACCESS_ERR, remote_access=LW | RR | RA)

    def test_bad_rkey(self):
        self.refused(e.IBV_WC_REM_ACCESS_ERR, rkey=0xdead00)

    def test_past_the_region(self):
        self.refused(e.IBV_WC_REM_ACCESS_ERR, offset=16)

    def test_qp_without_remote_write(self):
        self.refused(e.IBV_WC_REM_INV_REQ_ERR, b_access=LW | RR | RA)

    def test_misaligned_address(self):
        # Refused before it is sent: the peer never sees it.
        self.refused(e.IBV_WC_LOC_QP_OP_ERR, offset=4, b_error=False)

    def test_needs_responder_resources(self):
        a, b = self.pair(b_attr={'max_dest_rd_atomic': 0})
        remote = self.mr(8)
        self.atomic_write(a, remote.rkey, remote.buf, word(5), 1)
        self.post_send(a, e.IBV_WR_SEND, (), 2)
        self.failed(a, b, e.IBV_WC_REM_INV_REQ_ERR)
        self.assertEqual(remote.read(8, 0), bytes([FILL]) * 8)
