# SPDX-License-Identifier: GPL-2.0
"""Queue pairs: creation, the state machine, attributes, flush on error."""
import errno
import ipaddress
import time

from pyverbs.addr import AHAttr, GlobalRoute, GID
from pyverbs.cq import CQ
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE
import pyverbs.enums as e

from rmptest import RmpTestCase

LOCAL_V4 = ipaddress.ip_address('10.0.0.1')
LOCAL_V6 = ipaddress.ip_address('fd00::1')
PEER_V4 = '::ffff:10.0.0.2'
PEER_V6 = 'fd00::2'

RTR_MASK = (e.IBV_QP_STATE | e.IBV_QP_AV | e.IBV_QP_PATH_MTU |
            e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN |
            e.IBV_QP_MAX_DEST_RD_ATOMIC | e.IBV_QP_MIN_RNR_TIMER)
RTS_MASK = (e.IBV_QP_STATE | e.IBV_QP_TIMEOUT | e.IBV_QP_RETRY_CNT |
            e.IBV_QP_RNR_RETRY | e.IBV_QP_SQ_PSN | e.IBV_QP_MAX_QP_RD_ATOMIC)
INIT_MASK = (e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT |
             e.IBV_QP_ACCESS_FLAGS)
ALL_MASK = INIT_MASK | RTR_MASK | RTS_MASK


def gid_address(ctx, index):
    """The IP address a GID table entry holds, or None."""
    try:
        gid = ctx.query_gid(1, index).gid
    except PyverbsRDMAError:
        return None
    addr = ipaddress.IPv6Address(bytes.fromhex(gid.replace(':', '')))
    if addr.is_unspecified:
        return None
    return addr.ipv4_mapped or addr


def gid_index(ctx, v4=True):
    """Index of the RoCEv2 GID of 10.0.0.1 (v4) or fd00::1."""
    want = LOCAL_V4 if v4 else LOCAL_V6
    # ib_core fills the GID table from a work item after the link is added.
    for _ in range(50):
        for i in range(ctx.query_port(1).gid_tbl_len):
            if (gid_address(ctx, i) == want and ctx.query_gid_type(1, i) ==
                    e.IBV_GID_TYPE_SYSFS_ROCE_V2):
                return i
        time.sleep(0.1)
    raise AssertionError('no RoCEv2 GID for %s' % want)


def make_gid(text):
    gid = GID()
    gid.gid = ':'.join('%04x' % int.from_bytes(b[i:i + 2], 'big')
                       for b in [ipaddress.IPv6Address(text).packed]
                       for i in range(0, 16, 2))
    return gid


def poll_cq(cq, n, timeout=10, nap=0.01):
    """Poll cq until n completions arrived or timeout seconds passed."""
    wcs = []
    end = time.monotonic() + timeout
    while len(wcs) < n and time.monotonic() < end:
        got, more = cq.poll(n - len(wcs))
        wcs += more
        if not got:
            time.sleep(nap)
    return wcs


def rc_attr(sgid_index, dgid=PEER_V4):
    """Attributes for the whole RESET->RTS path of an RC QP."""
    attr = QPAttr(qp_state=e.IBV_QPS_INIT)
    attr.pkey_index = 0
    attr.port_num = 1
    attr.qp_access_flags = (e.IBV_ACCESS_LOCAL_WRITE |
                            e.IBV_ACCESS_REMOTE_WRITE |
                            e.IBV_ACCESS_REMOTE_READ)
    gr = GlobalRoute(dgid=make_gid(dgid), sgid_index=sgid_index,
                     flow_label=0x12345, traffic_class=0x48)
    attr.ah_attr = AHAttr(port_num=1, is_global=1, gr=gr)
    attr.path_mtu = e.IBV_MTU_1024
    attr.dest_qp_num = 0x123456
    attr.rq_psn = 0xabcdef
    attr.max_dest_rd_atomic = 4
    attr.min_rnr_timer = 12
    attr.timeout = 14
    attr.retry_cnt = 6
    attr.rnr_retry = 5
    attr.sq_psn = 0x654321
    attr.max_rd_atomic = 3
    return attr


class QPBase(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)
        self.scq = CQ(self.ctx, 256)
        self.rcq = CQ(self.ctx, 256)
        self.attr = self.ctx.query_device()
        self.v4 = gid_index(self.ctx)

    def tearDown(self):
        self.scq.close()
        self.rcq.close()
        self.pd.close()
        super().tearDown()

    def qp(self, qp_type=e.IBV_QPT_RC, srq=None, sig_all=1, **cap):
        caps = dict(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                    max_recv_sge=1)
        caps.update(cap)
        init = QPInitAttr(qp_type=qp_type, scq=self.scq, rcq=self.rcq,
                          srq=srq, cap=QPCap(**caps), sq_sig_all=sig_all)
        return QP(self.pd, init)

    def move(self, qp, state, attr, mask):
        attr.qp_state = state
        qp.modify(attr, mask)

    def to_rts(self, qp, attr=None):
        attr = attr or rc_attr(self.v4)
        self.move(qp, e.IBV_QPS_INIT, attr, INIT_MASK)
        self.move(qp, e.IBV_QPS_RTR, attr, RTR_MASK)
        self.move(qp, e.IBV_QPS_RTS, attr, RTS_MASK)

    def to_sqd(self, qp):
        # In SQD no new send WQE starts: posted sends stay queued.
        self.to_rts(qp)
        self.move(qp, e.IBV_QPS_SQD, QPAttr(), e.IBV_QP_STATE)

    def state(self, qp):
        return qp.query(e.IBV_QP_STATE)[0].qp_state


class QPCreateTest(QPBase):
    def test_caps_rounded_and_returned(self):
        cases = [(1, 1, 0, 0, 0), (16, 16, 4, 4, 64), (100, 37, 32, 2, 0),
                 (3, 3, 1, 32, 512),
                 (self.attr.max_qp_wr, self.attr.max_qp_wr, 1, 1, 0)]
        for qp_type in (e.IBV_QPT_RC, e.IBV_QPT_UD):
            for swr, rwr, ssge, rsge, inl in cases:
                qp = self.qp(qp_type, max_send_wr=swr, max_recv_wr=rwr,
                             max_send_sge=ssge, max_recv_sge=rsge,
                             max_inline_data=inl)
                _, init = qp.query(e.IBV_QP_CAP)
                cap = init.cap
                self.assertGreaterEqual(cap.max_send_wr, swr)
                self.assertGreaterEqual(cap.max_recv_wr, rwr)
                self.assertGreaterEqual(cap.max_send_sge, ssge)
                self.assertGreaterEqual(cap.max_recv_sge, rsge)
                self.assertGreaterEqual(cap.max_inline_data, inl)
                self.assertLessEqual(cap.max_send_sge,
                                     self.attr.max_sge)
                self.assertEqual(init.qp_type, qp_type)
                self.assertGreaterEqual(qp.qp_num, 16)
                self.assertLessEqual(qp.qp_num, 0xffffff)
                self.assertEqual(self.state(qp), e.IBV_QPS_RESET)
                qp.close()

    def test_sig_type_reported(self):
        for sig in (0, 1):
            with self.qp(sig_all=sig) as qp:
                self.assertEqual(qp.query(e.IBV_QP_CAP)[1].sq_sig_all, sig)

    def test_too_large_caps(self):
        a = self.attr
        for cap in (dict(max_send_wr=a.max_qp_wr + 1),
                    dict(max_recv_wr=a.max_qp_wr + 1),
                    dict(max_send_sge=a.max_sge + 1),
                    dict(max_recv_sge=a.max_sge + 1),
                    dict(max_inline_data=513)):
            with self.assertRaises(PyverbsRDMAError, msg=str(cap)) as cm:
                self.qp(**cap)
            self.assertEqual(cm.exception.error_code, errno.EINVAL, cap)

    def test_unsupported_types(self):
        # RC, UC and UD are offered; raw packet QPs are not.
        with self.assertRaises(PyverbsRDMAError):
            self.qp(e.IBV_QPT_RAW_PACKET)

    def test_many_distinct_qpns(self):
        qps = [self.qp(max_send_wr=2, max_recv_wr=2) for _ in range(64)]
        self.assertEqual(len({qp.qp_num for qp in qps}), 64)
        for qp in qps:
            qp.close()


class QPModifyTest(QPBase):
    def test_rc_to_rts_and_query(self):
        with self.qp() as qp:
            self.to_rts(qp)
            a, init = qp.query(ALL_MASK)
            self.assertEqual(a.qp_state, e.IBV_QPS_RTS)
            self.assertEqual(a.cur_qp_state, e.IBV_QPS_RTS)
            self.assertEqual(a.path_mtu, e.IBV_MTU_1024)
            self.assertEqual(a.dest_qp_num, 0x123456)
            self.assertEqual(a.rq_psn, 0xabcdef)
            self.assertEqual(a.sq_psn, 0x654321)
            self.assertEqual(a.max_dest_rd_atomic, 4)
            self.assertEqual(a.max_rd_atomic, 3)
            self.assertEqual(a.min_rnr_timer, 12)
            self.assertEqual(a.timeout, 14)
            self.assertEqual(a.retry_cnt, 6)
            self.assertEqual(a.rnr_retry, 5)
            self.assertEqual(a.port_num, 1)
            self.assertEqual(a.pkey_index, 0)
            self.assertEqual(a.qp_access_flags,
                             e.IBV_ACCESS_LOCAL_WRITE |
                             e.IBV_ACCESS_REMOTE_WRITE |
                             e.IBV_ACCESS_REMOTE_READ)
            ah = a.ah_attr
            self.assertEqual(ah.is_global, 1)
            self.assertEqual(ah.port_num, 1)
            self.assertEqual(ah.sgid_index, self.v4)
            # ib_core sets the hop limit from the route it resolves.
            self.assertEqual(ah.hop_limit, 64)
            self.assertEqual(ah.flow_label, 0x12345)
            self.assertEqual(ah.traffic_class, 0x48)
            self.assertEqual(ipaddress.IPv6Address(bytes.fromhex(
                str(ah.dgid).replace(':', ''))),
                ipaddress.IPv6Address(PEER_V4))
            self.assertEqual(init.qp_type, e.IBV_QPT_RC)

    def test_rc_ipv6_path(self):
        with self.qp() as qp:
            self.to_rts(qp, rc_attr(gid_index(self.ctx, False), PEER_V6))
            self.assertEqual(self.state(qp), e.IBV_QPS_RTS)

    def test_ud_to_rts(self):
        with self.qp(e.IBV_QPT_UD) as qp:
            attr = QPAttr(qp_state=e.IBV_QPS_INIT)
            attr.pkey_index = 0
            attr.port_num = 1
            attr.qkey = 0x11111111
            qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX |
                      e.IBV_QP_PORT | e.IBV_QP_QKEY)
            self.move(qp, e.IBV_QPS_RTR, attr, e.IBV_QP_STATE)
            attr.sq_psn = 77
            self.move(qp, e.IBV_QPS_RTS, attr,
                      e.IBV_QP_STATE | e.IBV_QP_SQ_PSN)
            a, _ = qp.query(e.IBV_QP_QKEY | e.IBV_QP_SQ_PSN)
            self.assertEqual(a.qp_state, e.IBV_QPS_RTS)
            self.assertEqual(a.qkey, 0x11111111)
            self.assertEqual(a.sq_psn, 77)

    def test_invalid_transitions(self):
        with self.qp() as qp:
            attr = rc_attr(self.v4)
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTR,
                             attr, RTR_MASK | INIT_MASK)
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTS,
                             attr, ALL_MASK)
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_SQD,
                             attr, e.IBV_QP_STATE)
            # INIT without its required attributes.
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_INIT,
                             attr, e.IBV_QP_STATE)
            self.assertEqual(self.state(qp), e.IBV_QPS_RESET)
            self.move(qp, e.IBV_QPS_INIT, attr, INIT_MASK)
            # RTR without an address vector; INIT straight to RTS.
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTR,
                             attr, RTR_MASK & ~e.IBV_QP_AV)
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTS,
                             attr, RTS_MASK)
            # A claimed current state that is not the current state.
            attr.cur_qp_state = e.IBV_QPS_RTS
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTR,
                             attr, RTR_MASK | e.IBV_QP_CUR_STATE)
            self.assertEqual(self.state(qp), e.IBV_QPS_INIT)

    def check_bad(self, qp, state, mask, **fields):
        for name, value in fields.items():
            attr = rc_attr(self.v4)
            setattr(attr, name, value)
            with self.assertRaises(PyverbsRDMAError, msg=name) as cm:
                self.move(qp, state, attr, mask)
            self.assertEqual(cm.exception.error_code, errno.EINVAL, name)

    def test_invalid_attributes(self):
        with self.qp() as qp:
            self.check_bad(qp, e.IBV_QPS_INIT, INIT_MASK, port_num=2,
                           pkey_index=1, qp_access_flags=e.IBV_ACCESS_ZERO_BASED)
            self.assertEqual(self.state(qp), e.IBV_QPS_RESET)
            self.move(qp, e.IBV_QPS_INIT, rc_attr(self.v4), INIT_MASK)
            self.check_bad(qp, e.IBV_QPS_RTR, RTR_MASK, path_mtu=6,
                           max_dest_rd_atomic=129, min_rnr_timer=32,
                           dest_qp_num=1 << 24)
            for gr in (GlobalRoute(dgid=make_gid(PEER_V4), sgid_index=200),):
                attr = rc_attr(self.v4)
                attr.ah_attr = AHAttr(port_num=1, is_global=1, gr=gr)
                self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTR,
                                 attr, RTR_MASK)
            self.assertEqual(self.state(qp), e.IBV_QPS_INIT)
            self.move(qp, e.IBV_QPS_RTR, rc_attr(self.v4), RTR_MASK)
            self.check_bad(qp, e.IBV_QPS_RTS, RTS_MASK, retry_cnt=8,
                           rnr_retry=8, timeout=32, max_rd_atomic=129)
            self.check_bad(qp, e.IBV_QPS_RTS, RTS_MASK | e.IBV_QP_PATH_MIG_STATE,
                           path_mig_state=e.IBV_MIG_REARM)
            self.assertEqual(self.state(qp), e.IBV_QPS_RTR)

    def test_no_alternate_path(self):
        with self.qp() as qp:
            attr = rc_attr(self.v4)
            self.move(qp, e.IBV_QPS_INIT, attr, INIT_MASK)
            self.move(qp, e.IBV_QPS_RTR, attr, RTR_MASK)
            attr.alt_ah_attr = attr.ah_attr
            attr.alt_port_num = 1
            attr.alt_timeout = 14
            self.assertErrno(errno.EINVAL, self.move, qp, e.IBV_QPS_RTS,
                             attr, RTS_MASK | e.IBV_QP_ALT_PATH)

    def test_sqd_and_back(self):
        with self.qp() as qp:
            self.to_rts(qp)
            attr = QPAttr(qp_state=e.IBV_QPS_SQD)
            attr.en_sqd_async_notify = 1
            qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_EN_SQD_ASYNC_NOTIFY)
            self.assertEqual(self.state(qp), e.IBV_QPS_SQD)
            attr.timeout = 20
            self.move(qp, e.IBV_QPS_SQD, attr, e.IBV_QP_TIMEOUT)
            self.assertEqual(qp.query(e.IBV_QP_TIMEOUT)[0].timeout, 20)
            self.move(qp, e.IBV_QPS_RTS, attr, e.IBV_QP_STATE)
            self.assertEqual(self.state(qp), e.IBV_QPS_RTS)

    def test_reset_from_any_state(self):
        with self.qp() as qp:
            self.to_rts(qp)
            self.move(qp, e.IBV_QPS_RESET, QPAttr(), e.IBV_QP_STATE)
            a, _ = qp.query(ALL_MASK)
            self.assertEqual(a.qp_state, e.IBV_QPS_RESET)
            self.assertEqual(a.sq_psn, 0)
            self.to_rts(qp)
            self.assertEqual(self.state(qp), e.IBV_QPS_RTS)


class QPFlushTest(QPBase):
    def post_sends(self, qp, ids, opcode=e.IBV_WR_SEND, ah=None):
        for i, wr_id in enumerate(ids):
            # Unsignalled WRs are flushed too.
            wr = SendWR(wr_id=wr_id, opcode=opcode, num_sge=1,
                        sg=[SGE(0x1000 * (i + 1), 64, 0)],
                        send_flags=e.IBV_SEND_SIGNALED if i % 2 else 0)
            if ah:
                wr.set_wr_ud(ah, 0x42, 0x11111111)
            if opcode == e.IBV_WR_RDMA_WRITE:
                wr.set_wr_rdma(0x1234, 0x10000)
            qp.post_send(wr)

    def post_recvs(self, qp, ids):
        for wr_id in ids:
            qp.post_recv(RecvWR(wr_id=wr_id, num_sge=1,
                                sg=[SGE(0x2000, 128, 0)]))

    def check_flushed(self, cq, ids, opcode):
        wcs = poll_cq(cq, len(ids))
        self.assertEqual([wc.wr_id for wc in wcs], ids)
        for wc in wcs:
            self.assertEqual(wc.status, e.IBV_WC_WR_FLUSH_ERR)
            self.assertEqual(wc.opcode, opcode)
        self.assertEqual(cq.poll(1), (0, []))

    def error(self, qp):
        self.move(qp, e.IBV_QPS_ERR, QPAttr(), e.IBV_QP_STATE)

    def test_flush_rc(self):
        with self.qp(sig_all=0, max_send_wr=32, max_recv_wr=32) as qp:
            self.to_sqd(qp)
            recvs = list(range(100, 110))
            sends = list(range(1, 8))
            self.post_recvs(qp, recvs)
            self.post_sends(qp, sends)
            self.post_sends(qp, [8, 9], e.IBV_WR_RDMA_WRITE)
            # In SQD the WQEs stay queued.
            self.assertEqual(self.scq.poll(1), (0, []))
            self.assertEqual(self.rcq.poll(1), (0, []))
            self.error(qp)
            wcs = poll_cq(self.scq, 9)
            self.assertEqual([wc.wr_id for wc in wcs], sends + [8, 9])
            # The opcode of a flushed WR follows the WR.
            self.assertEqual([wc.opcode for wc in wcs],
                             [e.IBV_WC_SEND] * 7 + [e.IBV_WC_RDMA_WRITE] * 2)
            for wc in wcs:
                self.assertEqual(wc.status, e.IBV_WC_WR_FLUSH_ERR)
            self.check_flushed(self.rcq, recvs, e.IBV_WC_RECV)
            # WRs posted in the error state are flushed too; receives are
            # seen at the next doorbell.
            self.post_recvs(qp, [200, 201])
            self.post_sends(qp, [20, 21, 22])
            self.check_flushed(self.scq, [20, 21, 22], e.IBV_WC_SEND)
            self.check_flushed(self.rcq, [200, 201], e.IBV_WC_RECV)
            self.assertEqual(self.state(qp), e.IBV_QPS_ERR)

    def test_flush_qp_num_and_one_cq(self):
        init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.scq, rcq=self.scq,
                          cap=QPCap(max_send_wr=8, max_recv_wr=8))
        with QP(self.pd, init) as qp:
            self.to_sqd(qp)
            self.post_sends(qp, [1, 2, 3])
            self.post_recvs(qp, [4, 5])
            self.error(qp)
            wcs = poll_cq(self.scq, 5)
            self.assertEqual(self.scq.poll(1), (0, []))
            self.assertEqual(sorted(wc.wr_id for wc in wcs), [1, 2, 3, 4, 5])
            self.assertEqual([wc.wr_id for wc in wcs if wc.opcode ==
                              e.IBV_WC_SEND], [1, 2, 3])
            self.assertEqual([wc.wr_id for wc in wcs if wc.opcode ==
                              e.IBV_WC_RECV], [4, 5])
            for wc in wcs:
                self.assertEqual(wc.qp_num, qp.qp_num)
                self.assertEqual(wc.status, e.IBV_WC_WR_FLUSH_ERR)

    def test_flush_full_ring_and_wrap(self):
        with self.qp(max_send_wr=4, max_recv_wr=4) as qp:
            cap = qp.query(e.IBV_QP_CAP)[1].cap
            self.to_sqd(qp)
            sends = list(range(cap.max_send_wr))
            self.post_sends(qp, sends)
            self.assertErrno(errno.ENOMEM, self.post_sends, qp, [99])
            self.error(qp)
            self.check_flushed(self.scq, sends, e.IBV_WC_SEND)
            # The ring has wrapped; the indices keep working.
            for base in (1000, 2000, 3000):
                ids = [base + i for i in range(cap.max_send_wr)]
                self.post_sends(qp, ids)
                self.check_flushed(self.scq, ids, e.IBV_WC_SEND)

    def test_flush_from_init(self):
        with self.qp() as qp:
            attr = rc_attr(self.v4)
            self.move(qp, e.IBV_QPS_INIT, attr, INIT_MASK)
            self.post_recvs(qp, [7, 8, 9])
            self.error(qp)
            self.check_flushed(self.rcq, [7, 8, 9], e.IBV_WC_RECV)

    def test_reset_discards(self):
        with self.qp() as qp:
            self.to_sqd(qp)
            self.post_sends(qp, [1, 2])
            self.post_recvs(qp, [3])
            self.move(qp, e.IBV_QPS_RESET, QPAttr(), e.IBV_QP_STATE)
            self.to_sqd(qp)
            self.error(qp)
            self.assertEqual(self.scq.poll(4), (0, []))
            self.assertEqual(self.rcq.poll(4), (0, []))

    def test_flush_ud(self):
        from pyverbs.addr import AH
        with self.qp(e.IBV_QPT_UD) as qp:
            attr = QPAttr(qp_state=e.IBV_QPS_INIT)
            attr.qkey = 0x11111111
            qp.modify(attr, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX |
                      e.IBV_QP_PORT | e.IBV_QP_QKEY)
            self.move(qp, e.IBV_QPS_RTR, attr, e.IBV_QP_STATE)
            self.move(qp, e.IBV_QPS_RTS, attr,
                      e.IBV_QP_STATE | e.IBV_QP_SQ_PSN)
            self.move(qp, e.IBV_QPS_SQD, attr, e.IBV_QP_STATE)
            gr = GlobalRoute(dgid=make_gid(PEER_V4), sgid_index=self.v4)
            with AH(self.pd, attr=AHAttr(port_num=1, is_global=1,
                                         gr=gr)) as ah:
                self.post_recvs(qp, [50, 51])
                self.post_sends(qp, [1, 2, 3], ah=ah)
                self.error(qp)
                self.check_flushed(self.scq, [1, 2, 3], e.IBV_WC_SEND)
                self.check_flushed(self.rcq, [50, 51], e.IBV_WC_RECV)

    def test_destroy_with_queued_wrs(self):
        for _ in range(4):
            qp = self.qp()
            self.to_sqd(qp)
            self.post_sends(qp, [1, 2, 3])
            self.post_recvs(qp, [4])
            qp.close()
        self.assertEqual(self.scq.poll(8), (0, []))
