# SPDX-License-Identifier: GPL-2.0
"""Every device knob in /sys/class/infiniband/<dev>/rmp/
(Documentation/ABI/testing/sysfs-class-infiniband-rmp): its default, values
in its range taken and read back with the unit reads show, values out of
range or of the wrong kind refused with EINVAL and the knob unchanged, and
writes by an unprivileged user refused."""
import errno
import os
import subprocess

from rmptest import RmpTestCase

# name: (default as read, unit or None for a word knob, values taken,
# values refused). The values taken end with the default.
KNOBS = {
    'ext': ('auto', None, ('off', 'on', 'auto'), ('', 'maybe', '1')),
    'paths': ('1', '', ('64', '8', '1'),
              ('0', '65', '-1', 'eight', '8 paths', '300')),
    'spray': ('rr', None, ('weighted', 'flowlet', 'rr'), ('zigzag', '')),
    'cc': ('none', None, ('dcqcn', 'rcc', 'none'), ('reno', 'DCQCN', '1')),
    'ecn': ('on', None, ('off', 'on'), ('1', 'yes', '')),
    'zcopy': ('on', None, ('off', 'on'), ('1', 'no', '')),
    'link_rate': ('0', 'Mbit/s', ('25000', '800000', '0'),
                  ('800001', '-5', 'fast', '10 Gbit/s', '10 us')),
    'cnp_interval': ('50', 'us', ('1', '1000000', '50'),
                     ('0', '1000001', '50 ms')),
    'cnp_dscp': ('48', '', ('0', '63', '48'), ('64', '-1', 'ef')),
    'dcqcn_min_rate': ('1000', 'kbit/s', ('1', '800000000', '1000'),
                       ('0', '800000001')),
    'dcqcn_g_shift': ('8', '', ('1', '16', '8'), ('0', '17')),
    'dcqcn_alpha_period': ('0', 'us', ('1', '1000000', '0'),
                           ('1000001', '-1')),
    'dcqcn_rate_period': ('0', 'us', ('1', '1000000', '0'),
                          ('1000001', '5 ms')),
    'dcqcn_byte_threshold': ('0', 'KiB', ('1', '1048576', '0'),
                             ('1048577', '1 MiB')),
    'dcqcn_fast_stages': ('5', '', ('1', '64', '5'), ('0', '65')),
    'dcqcn_ai_rate': ('0', 'kbit/s', ('1', '800000000', '0'),
                      ('800000001', '1 Mbit/s')),
    'dcqcn_hai_rate': ('0', 'kbit/s', ('1', '800000000', '0'),
                       ('800000001',)),
    'rcc_unsched': ('64', 'KiB', ('0', '65536', '64'), ('65537', '-1')),
    'rcc_window': ('64', 'KiB', ('1', '65536', '64'), ('0', '65537')),
    'rcc_overcommit': ('4', '', ('1', '64', '4'), ('0', '65')),
    'rcc_policy': ('fair', None, ('srpt', 'fair'), ('sjf', '0')),
    'rcc_ask_period': ('1000', 'us', ('10', '1000000', '1000'),
                       ('9', '1000001')),
    'rcc_idle': ('10000', 'us', ('100', '10000000', '10000'),
                 ('99', '10000001')),
    'grant_dscp': ('46', '', ('0', '63', '46'), ('64', 'ef')),
    'rcc_unsched_dscp': ('0', '', ('63', '26', '0'), ('64', 'af31')),
}


def shown(value, unit):
    """How a read shows VALUE of a knob with UNIT."""
    return '%s %s' % (value, unit) if unit else value


class KnobTest(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.dir = '/sys/class/infiniband/%s/rmp/' % self.dev_name
        for k in KNOBS:
            self.addCleanup(self.write, k, self.read(k))

    def read(self, k):
        with open(self.dir + k) as f:
            return f.read().rstrip('\n')

    def write(self, k, value):
        with open(self.dir + k, 'w') as f:
            f.write(value + '\n')

    def test_every_knob_is_here(self):
        self.assertEqual(set(os.listdir(self.dir)), set(KNOBS) | {'netdev'})

    def test_defaults(self):
        for k, (default, unit, _good, _bad) in KNOBS.items():
            with self.subTest(knob=k):
                self.assertEqual(self.read(k), shown(default, unit))

    def test_values_round_trip(self):
        for k, (_default, unit, good, _bad) in KNOBS.items():
            for v in good:
                with self.subTest(knob=k, value=v):
                    self.write(k, v)
                    self.assertEqual(self.read(k), shown(v, unit))

    def test_unit_may_follow_a_number(self):
        for k, (_default, unit, good, _bad) in KNOBS.items():
            if not unit:
                continue
            with self.subTest(knob=k):
                self.write(k, '%s %s' % (good[0], unit))
                self.assertEqual(self.read(k), shown(good[0], unit))
                # What a read shows can be written back as it is.
                self.write(k, shown(good[1], unit))
                self.write(k, self.read(k))
                self.assertEqual(self.read(k), shown(good[1], unit))

    def test_bad_values_refused_and_nothing_changes(self):
        for k, (_default, unit, good, bad) in KNOBS.items():
            self.write(k, good[0])
            for v in bad:
                with self.subTest(knob=k, value=v):
                    with self.assertRaises(OSError) as cm:
                        self.write(k, v)
                    self.assertEqual(cm.exception.errno, errno.EINVAL)
                    self.assertEqual(self.read(k), shown(good[0], unit))

    def test_unprivileged_refused(self):
        for k, (default, unit, good, _bad) in KNOBS.items():
            with self.subTest(knob=k):
                self.write(k, good[-1])
                r = subprocess.run(
                    ['setpriv', '--reuid=nobody', '--regid=nogroup',
                     '--clear-groups', '--inh-caps=-all', 'sh', '-c',
                     'echo %s > %s%s' % (good[0], self.dir, k)],
                    capture_output=True, text=True)
                self.assertNotEqual(r.returncode, 0)
                self.assertEqual(self.read(k), shown(good[-1], unit))
                self.assertTrue(os.access(self.dir + k, os.R_OK))
