#!/usr/bin/python3
# Post one request of each kind from an rxe device to a peer that never
# answers; used by tests/tools/rxe-capture. Retries are not waited for.
import ipaddress
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AH, AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, SendWR

dev, peer4, peer6 = sys.argv[1:4]
ctx = Context(name=dev)
pd = PD(ctx)
cq = CQ(ctx, 64)
access = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
          e.IBV_ACCESS_REMOTE_READ | e.IBV_ACCESS_REMOTE_ATOMIC)
mr = MR(pd, 4096, access)
mr.write(bytes(range(256)) * 16, 4096)


def gid_of(addr):
    return GID(ipaddress.IPv6Address(addr).exploded if ':' in addr else
               ipaddress.IPv6Address('::ffff:' + addr).exploded)


def sgid_index(addr):
    want = str(gid_of(addr))
    for i in range(64):
        try:
            if str(ctx.query_gid(1, i)) == want:
                return i
        except Exception:
            break
    raise SystemExit('no local GID for ' + addr)


def ah_attr(peer, local):
    gr = GlobalRoute(dgid=gid_of(peer), sgid_index=sgid_index(local))
    gr.hop_limit = 64
    return AHAttr(gr=gr, is_global=1, port_num=1)


def rc_qp(peer, local, dest_qpn):
    cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                max_recv_sge=1)
    qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
    attr = QPAttr()
    attr.qp_access_flags = access
    attr.pkey_index = 0
    attr.port_num = 1
    qp.to_init(attr)
    attr = QPAttr()
    attr.path_mtu = e.IBV_MTU_1024
    attr.dest_qp_num = dest_qpn
    attr.rq_psn = 0x100
    attr.max_dest_rd_atomic = 1
    attr.min_rnr_timer = 12
    attr.ah_attr = ah_attr(peer, local)
    qp.to_rtr(attr)
    attr = QPAttr()
    attr.sq_psn = 0x100
    attr.timeout = 14
    attr.retry_cnt = 1
    attr.rnr_retry = 1
    attr.max_rd_atomic = 1
    qp.to_rts(attr)
    return qp


def post(qp, opcode, length=64, **kw):
    sge = SGE(mr.buf, length, mr.lkey)
    wr = SendWR(opcode=opcode, num_sge=1, sg=[sge],
                send_flags=e.IBV_SEND_SIGNALED)
    if 'imm' in kw:
        wr.imm_data = kw['imm']
    if 'rkey' in kw:
        wr.set_wr_rdma(kw['rkey'], kw['addr'])
    if 'atomic' in kw:
        wr.set_wr_atomic(kw['rkey'], kw['addr'], kw['atomic'][0],
                         kw['atomic'][1])
    qp.post_send(wr)
    time.sleep(0.2)


local4 = '10.1.0.1'
local6 = 'fd01::1'
for peer, local in ((peer4, local4), (peer6, local6)):
    # A fresh QP per request: the peer never acks, so each QP sends its
    # request once before retrying.
    post(rc_qp(peer, local, 0x12), e.IBV_WR_SEND, 40)
    post(rc_qp(peer, local, 0x13), e.IBV_WR_SEND_WITH_IMM, 17, imm=0x11223344)
    post(rc_qp(peer, local, 0x14), e.IBV_WR_RDMA_WRITE, 64, rkey=0xabcd,
         addr=0x10000)
    post(rc_qp(peer, local, 0x15), e.IBV_WR_RDMA_WRITE_WITH_IMM, 3,
         rkey=0xabcd, addr=0x10040, imm=0x55667788)
    post(rc_qp(peer, local, 0x16), e.IBV_WR_RDMA_READ, 128, rkey=0xbeef,
         addr=0x20000)
    post(rc_qp(peer, local, 0x17), e.IBV_WR_ATOMIC_CMP_AND_SWP, 8,
         rkey=0xbeef, addr=0x20008, atomic=(1, 2))
    post(rc_qp(peer, local, 0x18), e.IBV_WR_ATOMIC_FETCH_AND_ADD, 8,
         rkey=0xbeef, addr=0x20010, atomic=(5, 0))

    cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1, max_recv_sge=1)
    ud = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq, cap=cap))
    attr = QPAttr()
    attr.qkey = 0x1111
    attr.pkey_index = 0
    attr.port_num = 1
    ud.to_rts(attr)
    ah = AH(pd, attr=ah_attr(peer, local))
    wr = SendWR(opcode=e.IBV_WR_SEND, num_sge=1,
                sg=[SGE(mr.buf, 24, mr.lkey)], send_flags=e.IBV_SEND_SIGNALED)
    wr.set_wr_ud(ah, 0x19, 0x1111)
    ud.post_send(wr)
    time.sleep(0.2)
