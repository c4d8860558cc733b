# SPDX-License-Identifier: GPL-2.0
"""Address handles over the RoCEv2 GIDs of the port."""
import errno

from pyverbs.addr import AH, AHAttr, GlobalRoute
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError

from rmptest import RmpTestCase
from test_qp import PEER_V4, PEER_V6, gid_index, make_gid


class AHTest(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)
        self.v4 = gid_index(self.ctx, True)
        self.v6 = gid_index(self.ctx, False)

    def tearDown(self):
        self.pd.close()
        super().tearDown()

    def ah(self, sgid_index, dgid, **grh):
        gr = GlobalRoute(dgid=make_gid(dgid), sgid_index=sgid_index, **grh)
        return AH(self.pd, attr=AHAttr(port_num=1, is_global=1, gr=gr))

    def test_ipv4(self):
        self.ah(self.v4, PEER_V4, traffic_class=0x60, hop_limit=8).close()

    def test_ipv6(self):
        self.ah(self.v6, PEER_V6, flow_label=0xabcde).close()

    def test_many(self):
        ahs = [self.ah(self.v4 if i % 2 else self.v6,
                       PEER_V4 if i % 2 else PEER_V6) for i in range(200)]
        for ah in ahs:
            ah.close()

    def test_family_mismatch(self):
        self.assertErrno(errno.EINVAL, self.ah, self.v4, PEER_V6)
        self.assertErrno(errno.EINVAL, self.ah, self.v6, PEER_V4)

    def test_wide_flow_label(self):
        # The GRH field is 20 bits; UCX passes all-ones. Accepted, and
        # only the low 20 bits are used.
        self.ah(self.v6, PEER_V6, flow_label=0xffffffff).close()
        self.ah(self.v4, PEER_V4, flow_label=1 << 20).close()

    def test_bad_gid_index(self):
        tbl = self.ctx.query_port(1).gid_tbl_len
        self.assertErrno(errno.EINVAL, self.ah, tbl + 1, PEER_V4)
        # An empty entry: ib_core finds no GID attribute there.
        self.assertErrno(errno.ENODATA, self.ah, tbl - 1, PEER_V4)

    def test_no_grh(self):
        with self.assertRaises(PyverbsRDMAError):
            AH(self.pd, attr=AHAttr(port_num=1, is_global=0, dlid=1))

    def test_bad_port(self):
        gr = GlobalRoute(dgid=make_gid(PEER_V4), sgid_index=self.v4)
        with self.assertRaises(PyverbsRDMAError):
            AH(self.pd, attr=AHAttr(port_num=2, is_global=1, gr=gr))
