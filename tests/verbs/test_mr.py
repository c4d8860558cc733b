# SPDX-License-Identifier: GPL-2.0
"""Memory region verbs: registration, access checks, keys, deregistration.

The DMA MR (get_dma_mr) and fast-registration MRs (alloc_mr) are kernel-only
verbs with no path from userspace; they are exercised once kernel consumers
run over the transport.
"""
import ctypes
import errno
import itertools
import mmap

from pyverbs.mr import MR
from pyverbs.pd import PD
import pyverbs.enums as e

from rmptest import RmpTestCase

LW = e.IBV_ACCESS_LOCAL_WRITE
RW = e.IBV_ACCESS_REMOTE_WRITE
RR = e.IBV_ACCESS_REMOTE_READ
RA = e.IBV_ACCESS_REMOTE_ATOMIC
MWB = e.IBV_ACCESS_MW_BIND
PAGE = mmap.PAGESIZE

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
MAP_FAILED = ctypes.c_void_p(-1).value


class Mapping:
    """An anonymous private mapping of whole pages."""

    def __init__(self, size, prot=mmap.PROT_READ | mmap.PROT_WRITE):
        self.size = (size + PAGE - 1) // PAGE * PAGE
        self.addr = libc.mmap(None, self.size, prot,
                              mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        if self.addr in (None, MAP_FAILED):
            raise OSError(ctypes.get_errno(), 'mmap')

    def unmap(self, offset, size):
        """Punch a hole of whole pages at offset."""
        if libc.munmap(self.addr + offset, size):
            raise OSError(ctypes.get_errno(), 'munmap')

    def close(self):
        libc.munmap(self.addr, self.size)


class IbvMr(ctypes.Structure):
    _fields_ = [('context', ctypes.c_void_p), ('pd', ctypes.c_void_p),
                ('addr', ctypes.c_void_p), ('length', ctypes.c_size_t),
                ('handle', ctypes.c_uint32), ('lkey', ctypes.c_uint32),
                ('rkey', ctypes.c_uint32)]


class Verbs:
    """Just enough of libibverbs through ctypes for ibv_reg_mr_iova(), which
    pyverbs 44 does not wrap (it registers with iova == address only)."""

    def __init__(self, name):
        lib = ctypes.CDLL('libibverbs.so.1', use_errno=True)
        self.lib = lib
        lib.ibv_get_device_list.restype = ctypes.POINTER(ctypes.c_void_p)
        lib.ibv_get_device_list.argtypes = [ctypes.POINTER(ctypes.c_int)]
        lib.ibv_get_device_name.restype = ctypes.c_char_p
        lib.ibv_get_device_name.argtypes = [ctypes.c_void_p]
        lib.ibv_free_device_list.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.ibv_open_device.restype = ctypes.c_void_p
        lib.ibv_open_device.argtypes = [ctypes.c_void_p]
        lib.ibv_close_device.argtypes = [ctypes.c_void_p]
        lib.ibv_alloc_pd.restype = ctypes.c_void_p
        lib.ibv_alloc_pd.argtypes = [ctypes.c_void_p]
        lib.ibv_dealloc_pd.argtypes = [ctypes.c_void_p]
        lib.ibv_reg_mr_iova.restype = ctypes.POINTER(IbvMr)
        lib.ibv_reg_mr_iova.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                        ctypes.c_size_t, ctypes.c_uint64,
                                        ctypes.c_uint]
        lib.ibv_dereg_mr.argtypes = [ctypes.POINTER(IbvMr)]
        n = ctypes.c_int()
        devs = lib.ibv_get_device_list(ctypes.byref(n))
        self.ctx = None
        for i in range(n.value):
            if lib.ibv_get_device_name(devs[i]).decode() == name:
                self.ctx = lib.ibv_open_device(devs[i])
        lib.ibv_free_device_list(devs)
        if not self.ctx:
            raise OSError(errno.ENODEV, name)
        self.pd = lib.ibv_alloc_pd(self.ctx)
        if not self.pd:
            raise OSError(ctypes.get_errno(), 'ibv_alloc_pd')

    def reg_mr_iova(self, addr, length, iova, access):
        """Returns the ibv_mr pointer, or raises OSError with the errno."""
        ctypes.set_errno(0)
        mr = self.lib.ibv_reg_mr_iova(self.pd, addr, length, iova, access)
        if not mr:
            raise OSError(ctypes.get_errno(), 'ibv_reg_mr_iova')
        return mr

    def dereg_mr(self, mr):
        err = self.lib.ibv_dereg_mr(mr)
        if err:
            raise OSError(err, 'ibv_dereg_mr')

    def close(self):
        self.lib.ibv_dealloc_pd(self.pd)
        self.lib.ibv_close_device(self.ctx)


def vm_pinned_kb():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmPin:'):
                return int(line.split()[1])
    raise RuntimeError('no VmPin in /proc/self/status')


def access_valid(access):
    return not (access & (RW | RA)) or bool(access & LW)


class MrTest(RmpTestCase):
    def setUp(self):
        super().setUp()
        self.pd = PD(self.ctx)
        self.maps = []

    def tearDown(self):
        self.pd.close()
        for m in self.maps:
            m.close()
        super().tearDown()

    def mapping(self, size, **kwargs):
        m = Mapping(size, **kwargs)
        self.maps.append(m)
        return m

    def assertKey(self, mr):
        attr = self.ctx.query_device()
        self.assertEqual(mr.lkey, mr.rkey)
        index = mr.lkey >> 8
        self.assertGreaterEqual(index, 1)
        self.assertLessEqual(index, attr.max_mr + attr.max_mw)

    def test_device_caps(self):
        attr = self.ctx.query_device()
        for cap in (e.IBV_DEVICE_MEM_MGT_EXTENSIONS,
                    e.IBV_DEVICE_MEM_WINDOW,
                    e.IBV_DEVICE_MEM_WINDOW_TYPE_2B):
            self.assertTrue(attr.device_cap_flags & cap, hex(cap))
        self.assertEqual(attr.max_mr, 0x40000)
        self.assertEqual(attr.max_mw, 0x40000)

    def test_reg_sizes_and_offsets(self):
        m = self.mapping(4 * 1024 * 1024)
        keys = set()
        mrs = []
        for size in (1, 8, PAGE - 1, PAGE, PAGE + 1, 3 * PAGE, 1 << 20,
                     3 * 1024 * 1024 + 7):
            for offset in (0, 1, 64, PAGE - 1, PAGE + 100):
                mr = MR(self.pd, size, LW | RW | RR,
                        address=m.addr + offset)
                self.assertEqual(mr.length, size)
                self.assertEqual(mr.buf, m.addr + offset)
                self.assertKey(mr)
                self.assertNotIn(mr.lkey, keys)
                keys.add(mr.lkey)
                mrs.append(mr)
        # The same memory may be registered any number of times.
        self.assertEqual(len({k >> 8 for k in keys}), len(mrs))
        for mr in mrs:
            mr.close()

    def test_access_combinations(self):
        m = self.mapping(2 * PAGE)
        flags = (LW, RW, RR, RA, MWB)
        n_valid = 0
        for bits in itertools.product((0, 1), repeat=len(flags)):
            access = sum(f for f, b in zip(flags, bits) if b)
            if access_valid(access):
                mr = MR(self.pd, PAGE + 3, access, address=m.addr + 5)
                self.assertKey(mr)
                mr.close()
                n_valid += 1
            else:
                self.assertErrno(errno.EINVAL, MR, self.pd, PAGE, access,
                                 address=m.addr)
        self.assertEqual(n_valid, 20)
        # Optional flags are accepted (and may be ignored).
        MR(self.pd, PAGE, LW | e.IBV_ACCESS_RELAXED_ORDERING,
           address=m.addr).close()

    def test_unknown_access_flags(self):
        m = self.mapping(PAGE)
        for bad in (1 << 8, 1 << 15, 1 << 30):
            self.assertErrno(errno.EINVAL, MR, self.pd, PAGE, LW | bad,
                             address=m.addr)

    def test_on_demand_paging_refused(self):
        # ib_core refuses ODP for a device without the capability before
        # rmp sees the request; rmp itself would answer EOPNOTSUPP.
        m = self.mapping(PAGE)
        self.assertErrno(errno.EINVAL, MR, self.pd, PAGE,
                         LW | e.IBV_ACCESS_ON_DEMAND, address=m.addr)
        odp = self.ctx.query_device_ex().odp_caps
        self.assertFalse(odp.general_caps & e.IBV_ODP_SUPPORT)

    def test_bad_address(self):
        m = self.mapping(3 * PAGE)
        m.unmap(PAGE, PAGE)
        # A hole in the middle, the hole alone, and the page after it.
        self.assertErrno(errno.EFAULT, MR, self.pd, 3 * PAGE, LW,
                         address=m.addr)
        self.assertErrno(errno.EFAULT, MR, self.pd, 8, 0,
                         address=m.addr + PAGE + 8)
        self.assertErrno(errno.EFAULT, MR, self.pd, PAGE + 1, LW,
                         address=m.addr + 2 * PAGE - 1)
        # The mapped pages around the hole still register.
        MR(self.pd, PAGE, LW, address=m.addr).close()
        MR(self.pd, PAGE, LW, address=m.addr + 2 * PAGE).close()

    def test_read_only_memory(self):
        m = self.mapping(2 * PAGE, prot=mmap.PROT_READ)
        MR(self.pd, 2 * PAGE, RR, address=m.addr).close()
        self.assertErrno(errno.EFAULT, MR, self.pd, 2 * PAGE, LW,
                         address=m.addr)

    def test_zero_length(self):
        m = self.mapping(PAGE)
        self.assertErrno(errno.EINVAL, MR, self.pd, 0, LW, address=m.addr)
        self.assertErrno(errno.EINVAL, MR, self.pd, 0, LW,
                         address=m.addr + 17)

    def test_iova(self):
        m = self.mapping(4 * PAGE)
        v = Verbs(self.dev_name)
        try:
            addr = m.addr + 100
            mr = v.reg_mr_iova(addr, 2 * PAGE, 0x7f0000000000 + 100, LW | RW)
            self.assertEqual(mr.contents.lkey, mr.contents.rkey)
            self.assertNotEqual(mr.contents.lkey, 0)
            v.dereg_mr(mr)
            # The iova ends at the top of the address space: still fine.
            top = (1 << 64) - 2 * PAGE + 100
            v.dereg_mr(v.reg_mr_iova(addr, 2 * PAGE - 100, top, LW))
            # Offsets in the page must agree.
            with self.assertRaises(OSError) as cm:
                v.reg_mr_iova(addr, PAGE, 0x7f0000000000 + 101, LW)
            self.assertEqual(cm.exception.errno, errno.EINVAL)
            # iova + length would wrap.
            with self.assertRaises(OSError) as cm:
                v.reg_mr_iova(addr, 2 * PAGE, top, LW)
            self.assertEqual(cm.exception.errno, errno.EINVAL)
        finally:
            v.close()

    def test_many_mrs_no_pinned_leak(self):
        n = 1000
        m = self.mapping(n * PAGE)
        before = vm_pinned_kb()
        mrs = [MR(self.pd, PAGE, LW | RR, address=m.addr + i * PAGE)
               for i in range(n)]
        self.assertEqual(vm_pinned_kb() - before, n * PAGE // 1024)
        keys = {mr.lkey for mr in mrs}
        self.assertEqual(len(keys), n)
        self.assertEqual(len({k >> 8 for k in keys}), n)
        for mr in mrs:
            mr.close()
        self.assertEqual(vm_pinned_kb(), before)

    def test_index_not_reused_at_once(self):
        m = self.mapping(PAGE)
        mr = MR(self.pd, PAGE, LW, address=m.addr)
        old = mr.lkey
        mr.close()
        mr = MR(self.pd, PAGE, LW, address=m.addr)
        self.assertNotEqual(mr.lkey >> 8, old >> 8)
        mr.close()
