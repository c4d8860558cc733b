# SPDX-License-Identifier: GPL-2.0
"""Memory window verbs: allocation and deallocation of types 1 and 2.

Binding a window (ibv_bind_mw, or IBV_WR_BIND_MW in ibv_post_send) is a
work request: it is tested once the transport executes work requests.
"""
import errno

from pyverbs.mr import MR, MW
from pyverbs.pd import PD
import pyverbs.enums as e

from rmptest import RmpTestCase


class MwTest(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)

    def tearDown(self):
        self.pd.close()
        super().tearDown()

    def check_alloc(self, mw_type):
        mws = [MW(self.pd, mw_type) for _ in range(64)]
        rkeys = {mw.rkey for mw in mws}
        self.assertEqual(len(rkeys), len(mws))
        self.assertEqual(len({k >> 8 for k in rkeys}), len(mws))
        self.assertNotIn(0, {k >> 8 for k in rkeys})
        for mw in mws:
            self.assertEqual(mw.type, mw_type)
            mw.close()

    def test_alloc_type1(self):
        self.check_alloc(e.IBV_MW_TYPE_1)

    def test_alloc_type2(self):
        self.check_alloc(e.IBV_MW_TYPE_2)

    def test_bad_type(self):
        self.assertErrno(errno.EINVAL, MW, self.pd, 3)

    def test_keys_shared_with_mrs(self):
        mrs = [MR(self.pd, 64, e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_MW_BIND)
               for _ in range(8)]
        mws = [MW(self.pd, t) for t in (e.IBV_MW_TYPE_1, e.IBV_MW_TYPE_2)
               for _ in range(8)]
        indices = [mr.lkey >> 8 for mr in mrs] + [mw.rkey >> 8 for mw in mws]
        self.assertEqual(len(set(indices)), len(indices))
        # A region with unbound windows deregisters normally.
        for mr in mrs:
            mr.close()
        for mw in mws:
            mw.close()

    def test_windows_in_two_pds(self):
        pd2 = PD(self.ctx)
        mw1 = MW(self.pd, e.IBV_MW_TYPE_2)
        mw2 = MW(pd2, e.IBV_MW_TYPE_2)
        self.assertNotEqual(mw1.rkey >> 8, mw2.rkey >> 8)
        pd2.close()
        mw1.close()
