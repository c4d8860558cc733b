# SPDX-License-Identifier: GPL-2.0
"""Device, port and PD verbs."""
from pyverbs.pd import PD
import pyverbs.enums as e

from rmptest import RmpTestCase


class DeviceTest(RmpTestCase):
    def test_query_device(self):
        attr = self.ctx.query_device()
        self.assertGreater(attr.max_pd, 0)

    def test_query_port(self):
        port = self.ctx.query_port(1)
        self.assertEqual(port.link_layer, e.IBV_LINK_LAYER_ETHERNET)

    def test_pd(self):
        pds = [PD(self.ctx) for _ in range(16)]
        for pd in pds:
            pd.close()
