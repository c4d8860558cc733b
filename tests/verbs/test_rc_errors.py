# SPDX-License-Identifier: GPL-2.0
"""RC error semantics: remote access and invalid request NAKs, local
protection and length errors, RNR and transport retries, flushing."""
import struct
import time

from pyverbs.qp import QPAttr
import pyverbs.enums as e

from rmpdata import ALL, FILL, LW, RA, RR, RW, DataTestCase, data

OK = e.IBV_WC_SUCCESS
FLUSH = e.IBV_WC_WR_FLUSH_ERR


class RcErrorTest(DataTestCase):
    def pair(self, **kw):
        return self.rc_pair(max_send_wr=32, max_recv_wr=32, **kw)

    def post_tail(self, a, first_id, n=2):
        """Post n SENDs after a failing WR; they must be flushed."""
        for i in range(n):
            self.post_send(a, e.IBV_WR_SEND, (), first_id + i)

    def check_failed(self, a, b, wr_id, status, opcode, flushed=(),
                     b_error=True):
        """The WR wr_id failed with status, the ones after it were flushed,
        a is in ERR (and b too when the responder failed)."""
        wcs = self.poll(a.scq, 1 + len(flushed))
        self.check_wc(wcs[0], wr_id=wr_id, status=status, opcode=opcode,
                      qp_num=a.qpn)
        for wc, fid in zip(wcs[1:], flushed):
            self.check_wc(wc, wr_id=fid, status=FLUSH, qp_num=a.qpn)
        self.assertEqual(self.state(a), e.IBV_QPS_ERR)
        if b_error:
            self.wait_state(b, e.IBV_QPS_ERR)
        # Posting on a QP in ERR is flushed at once.
        self.post_send(a, e.IBV_WR_SEND, (), 999)
        self.one(a.scq, wr_id=999, status=FLUSH, qp_num=a.qpn)

    def remote_cases(self, remote, bad_rkey, bad_addr):
        """(name, opcode, rdma or atomic arguments) of accesses to remote
        with a bad rkey or a range outside it."""
        return [
            ('write_rkey', e.IBV_WR_RDMA_WRITE, (bad_rkey, remote.buf)),
            ('write_range', e.IBV_WR_RDMA_WRITE, (remote.rkey, bad_addr)),
            ('read_rkey', e.IBV_WR_RDMA_READ, (bad_rkey, remote.buf)),
            ('read_range', e.IBV_WR_RDMA_READ, (remote.rkey, bad_addr)),
            ('cas_rkey', e.IBV_WR_ATOMIC_CMP_AND_SWP,
             (bad_rkey, remote.buf, 0, 1)),
            ('faa_range', e.IBV_WR_ATOMIC_FETCH_AND_ADD,
             (remote.rkey, remote.buf + 4096, 1, 0)),
        ]

    def run_remote_error(self, opcode, args, status, access=ALL):
        a, b = self.pair(b_access=access)
        local = self.mr(64)
        atomic = opcode in (e.IBV_WR_ATOMIC_CMP_AND_SWP,
                            e.IBV_WR_ATOMIC_FETCH_AND_ADD)
        sg = self.sges(local, (0, 8 if atomic else 64))
        self.post_send(a, opcode, sg, 1, rdma=None if atomic else args,
                       atomic=args if atomic else None)
        self.post_tail(a, 2)
        wc_opcode = {e.IBV_WR_RDMA_WRITE: e.IBV_WC_RDMA_WRITE,
                     e.IBV_WR_RDMA_READ: e.IBV_WC_RDMA_READ,
                     e.IBV_WR_ATOMIC_CMP_AND_SWP: e.IBV_WC_COMP_SWAP,
                     e.IBV_WR_ATOMIC_FETCH_AND_ADD: e.IBV_WC_FETCH_ADD}
        self.check_failed(a, b, 1, status, wc_opcode[opcode], (2, 3))
        # Nothing was read into the local buffer.
        self.assertEqual(local.read(64, 0), bytes([FILL]) * 64)

    def test_remote_access_error(self):
        remote = self.mr(4096)
        remote.write(data(4096), 4096, 0)
        bad_rkey = remote.rkey ^ 0x80
        for name, opcode, args in self.remote_cases(remote, bad_rkey,
                                                    remote.buf + 4090):
            with self.subTest(name):
                self.run_remote_error(opcode, args, e.IBV_WC_REM_ACCESS_ERR)
        # The remote memory is as it was.
        self.assertEqual(remote.read(4096, 0), data(4096))

    def test_remote_access_region_rights(self):
        # The region does not grant the access.
        ro = self.mr(4096, LW | RR)
        wo = self.mr(4096, LW | RW)
        for name, opcode, args in (
                ('write', e.IBV_WR_RDMA_WRITE, (ro.rkey, ro.buf)),
                ('read', e.IBV_WR_RDMA_READ, (wo.rkey, wo.buf)),
                ('atomic', e.IBV_WR_ATOMIC_FETCH_AND_ADD,
                 (ro.rkey, ro.buf, 1, 0))):
            with self.subTest(name):
                self.run_remote_error(opcode, args, e.IBV_WC_REM_ACCESS_ERR)
        self.assertEqual(ro.read(4096, 0), bytes([FILL]) * 4096)

    def test_qp_access_not_granted(self):
        """The responder QP does not enable the operation. As in Soft-RoCE
        and the verbs documentation of IBV_WC_REM_INV_REQ_ERR ("the
        operation is not supported by this receive queue"), it answers
        with an invalid request NAK; the region would allow it."""
        remote = self.mr(4096)
        for name, opcode, args, access in (
                ('write', e.IBV_WR_RDMA_WRITE, (remote.rkey, remote.buf),
                 LW | RR | RA),
                ('read', e.IBV_WR_RDMA_READ, (remote.rkey, remote.buf),
                 LW | RW | RA),
                ('atomic', e.IBV_WR_ATOMIC_CMP_AND_SWP,
                 (remote.rkey, remote.buf, 0, 5), LW | RW | RR)):
            with self.subTest(name):
                self.run_remote_error(opcode, args, e.IBV_WC_REM_INV_REQ_ERR,
                                      access)
        self.assertEqual(remote.read(4096, 0), bytes([FILL]) * 4096)

    def test_send_longer_than_receive(self):
        a, b = self.pair()
        src = self.mr(3000)
        dst = self.mr(4096)
        self.post_recv(b, self.sges(dst, (0, 2999)), 50)
        self.post_recv(b, self.sges(dst, (3000, 64)), 51)
        self.post_send(a, e.IBV_WR_SEND, self.sges(src), 1)
        self.post_tail(a, 2)
        self.check_failed(a, b, 1, e.IBV_WC_REM_INV_REQ_ERR, e.IBV_WC_SEND,
                          (2, 3))
        wcs = self.poll(b.rcq, 2)
        self.check_wc(wcs[0], wr_id=50, status=e.IBV_WC_LOC_LEN_ERR,
                      qp_num=b.qpn)
        self.check_wc(wcs[1], wr_id=51, status=FLUSH, qp_num=b.qpn)

    def test_bad_lkey(self):
        for name, opcode, kw in (
                ('send', e.IBV_WR_SEND, {}),
                ('write', e.IBV_WR_RDMA_WRITE, {'rdma': True}),
                ('read', e.IBV_WR_RDMA_READ, {'rdma': True})):
            with self.subTest(name):
                a, b = self.pair()
                local = self.mr(4096)
                remote = self.mr(4096)
                self.post_recv(b, self.sges(remote), 10)
                sg = self.sges(local, (0, 100), (100, 2000))
                sg[1].lkey = local.lkey ^ 0x80
                self.post_send(a, opcode, sg, 1,
                               rdma=(remote.rkey, remote.buf) if kw else None)
                self.post_tail(a, 2)
                wc_opcode = {e.IBV_WR_SEND: e.IBV_WC_SEND,
                             e.IBV_WR_RDMA_WRITE: e.IBV_WC_RDMA_WRITE,
                             e.IBV_WR_RDMA_READ: e.IBV_WC_RDMA_READ}[opcode]
                self.check_failed(a, b, 1, e.IBV_WC_LOC_PROT_ERR, wc_opcode,
                                  (2, 3), b_error=False)
                self.assertEqual(local.read(4096, 0), bytes([FILL]) * 4096)

    def test_rnr_retry_exceeded(self):
        a, b = self.pair(a_attr=dict(rnr_retry=0),
                         b_attr=dict(min_rnr_timer=1))
        naks = self.counter('rx_rnr_naks')
        self.post_send(a, e.IBV_WR_SEND, (), 1)
        self.post_tail(a, 2)
        self.check_failed(a, b, 1, e.IBV_WC_RNR_RETRY_EXC_ERR, e.IBV_WC_SEND,
                          (2, 3), b_error=False)
        self.assertEqual(self.counter('rx_rnr_naks') - naks, 1)
        # The responder is fine: it only had no receive WQE.
        self.assertEqual(self.state(b), e.IBV_QPS_RTS)

    def test_rnr_retry_exceeded_write_imm(self):
        a, b = self.pair(a_attr=dict(rnr_retry=2),
                         b_attr=dict(min_rnr_timer=1))
        remote = self.mr(64)
        naks = self.counter('rx_rnr_naks')
        self.post_send(a, e.IBV_WR_RDMA_WRITE_WITH_IMM, (), 1, imm=5,
                       rdma=(remote.rkey, remote.buf))
        self.check_failed(a, b, 1, e.IBV_WC_RNR_RETRY_EXC_ERR,
                          e.IBV_WC_RDMA_WRITE, b_error=False)
        self.assertEqual(self.counter('rx_rnr_naks') - naks, 3)

    def test_rnr_then_receive(self):
        a, b = self.pair(a_attr=dict(rnr_retry=7),
                         b_attr=dict(min_rnr_timer=12))
        src = self.mr(5000)
        dst = self.mr(5000)
        src.write(data(5000), 5000, 0)
        naks = self.counter('rx_rnr_naks')
        self.post_send(a, e.IBV_WR_SEND, self.sges(src), 1)
        self.post_send(a, e.IBV_WR_SEND, self.sges(src, (0, 10)), 2)
        time.sleep(0.5)
        self.assertNoCompletion(a.scq, 0)
        self.assertGreater(self.counter('rx_rnr_naks') - naks, 0)
        self.post_recv(b, self.sges(dst), 10)
        self.one(b.rcq, wr_id=10, status=OK, byte_len=5000)
        self.assertEqual(dst.read(5000, 0), data(5000))
        self.one(a.scq, wr_id=1, status=OK, opcode=e.IBV_WC_SEND)
        # The second SEND waits for its own receive WQE.
        self.post_recv(b, self.sges(dst, (0, 64)), 11)
        self.one(a.scq, wr_id=2, status=OK, opcode=e.IBV_WC_SEND)
        self.one(b.rcq, wr_id=11, status=OK, byte_len=10)
        self.assertEqual(self.state(a), e.IBV_QPS_RTS)

    def test_retry_exceeded_destroyed(self):
        a, b = self.pair(a_attr=dict(timeout=10, retry_cnt=2))
        timeouts = self.counter('ack_timeouts')
        b.qp.close()
        self.post_send(a, e.IBV_WR_SEND, (), 1)
        self.post_tail(a, 2)
        self.check_failed(a, b, 1, e.IBV_WC_RETRY_EXC_ERR, e.IBV_WC_SEND,
                          (2, 3), b_error=False)
        self.assertEqual(self.counter('ack_timeouts') - timeouts, 3)

    def test_retry_exceeded_peer_in_error(self):
        a, b = self.pair(a_attr=dict(timeout=10, retry_cnt=1))
        remote = self.mr(64)
        attr = QPAttr(qp_state=e.IBV_QPS_ERR)
        b.qp.modify(attr, e.IBV_QP_STATE)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, (), 1,
                       rdma=(remote.rkey, remote.buf))
        self.check_failed(a, b, 1, e.IBV_WC_RETRY_EXC_ERR,
                          e.IBV_WC_RDMA_WRITE)

    def test_error_flushes_receives(self):
        a, b = self.pair()
        dst = self.mr(64 * 20)
        for i in range(20):
            self.post_recv(b, self.sges(dst, (64 * i, 64)), i)
        for i in range(5):
            self.post_send(a, e.IBV_WR_SEND, (), 100 + i)
        self.poll(a.scq, 5)
        for i, wc in enumerate(self.poll(b.rcq, 5)):
            self.check_wc(wc, wr_id=i, status=OK, byte_len=0)
        b.qp.modify(QPAttr(qp_state=e.IBV_QPS_ERR), e.IBV_QP_STATE)
        wcs = self.poll(b.rcq, 15)
        for i, wc in enumerate(wcs):
            self.check_wc(wc, wr_id=5 + i, status=FLUSH, qp_num=b.qpn)
        self.assertEqual(dst.read(64 * 20, 0), bytes([FILL]) * 64 * 20)

    def test_responder_error_completes_earlier_wrs(self):
        """WRs before the failing one succeed and keep their results."""
        a, b = self.pair()
        src = self.mr(4096)
        dst = self.mr(4096)
        src.write(data(4096), 4096, 0)
        counter = self.mr(8)
        counter.write(struct.pack('<Q', 1), 8, 0)
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, 3000)), 1,
                       rdma=(dst.rkey, dst.buf))
        self.post_send(a, e.IBV_WR_ATOMIC_FETCH_AND_ADD,
                       self.sges(src, (3000, 8)), 2,
                       atomic=(counter.rkey, counter.buf, 1, 0))
        self.post_send(a, e.IBV_WR_RDMA_WRITE, self.sges(src, (0, 10)), 3,
                       rdma=(dst.rkey ^ 0x80, dst.buf))
        self.post_tail(a, 4)
        wcs = self.poll(a.scq, 5)
        self.check_wc(wcs[0], wr_id=1, status=OK)
        self.check_wc(wcs[1], wr_id=2, status=OK)
        self.check_wc(wcs[2], wr_id=3, status=e.IBV_WC_REM_ACCESS_ERR)
        self.check_wc(wcs[3], wr_id=4, status=FLUSH)
        self.check_wc(wcs[4], wr_id=5, status=FLUSH)
        self.assertEqual(dst.read(3000, 0), data(4096)[:3000])
        self.assertEqual(struct.unpack('<Q', src.read(8, 3000))[0], 1)
        self.assertEqual(struct.unpack('<Q', counter.read(8, 0))[0], 2)
