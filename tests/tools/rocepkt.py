# SPDX-License-Identifier: GPL-2.0
"""Hand-made RoCEv2 packets over IPv4, for tests that play a peer.

A packet is built from its transport headers and payload; datagram() wraps
it in IPv4 and UDP headers with a correct (or deliberately wrong) ICRC, to
be sent whole through a raw socket with IP_HDRINCL. The ICRC covers the IP
header, identification included, which is why the test builds all of it;
the kernel fills in only the header checksum, which the ICRC masks.
"""
import socket
import struct
import zlib

ROCE_PORT = 4791
SPORT = 49999
IP_ID = 0x4242

# Opcodes (IBTA vol. 1, table 39): RC 0x00-0x1f, UC 0x20-0x3f, UD 0x60-0x7f.
RC_SEND_LAST = 0x02
RC_SEND_ONLY = 0x04
RC_WRITE_FIRST = 0x06
RC_WRITE_MIDDLE = 0x07
RC_WRITE_LAST = 0x08
RC_WRITE_ONLY = 0x0a
RC_READ_REQUEST = 0x0c
RC_READ_RESPONSE_FIRST = 0x0d
RC_READ_RESPONSE_MIDDLE = 0x0e
RC_READ_RESPONSE_LAST = 0x0f
RC_READ_RESPONSE_ONLY = 0x10
RC_ACK = 0x11
RC_ATOMIC_ACK = 0x12
RC_CMP_SWAP = 0x13
RC_FETCH_ADD = 0x14
RC_ATOMIC_WRITE = 0x1d
UD_SEND_ONLY = 0x64
# rmp's multipath extension: an ACK carrying a SACK block (wire.rst).
EXT_SACK = 0xc0
# rmp's read reports: the READ responses a requester received, a SACK
# block after the BTH (wire.rst).
EXT_READ_REPORT = 0xc3
# rmp's send spraying: pieces of a SEND, each with an SPETH (wire.rst): one
# before the last, the last, the last with immediate data or invalidate.
EXT_SEND_PIECE = 0xc4
EXT_SEND_PIECE_LAST = 0xc5
EXT_SEND_PIECE_LAST_IMM = 0xc6
EXT_SEND_PIECE_LAST_INV = 0xc7
# ... and the last piece of a WRITE with immediate data: SPETH, RETH, ImmDt.
EXT_WRITE_PIECE_LAST_IMM = 0xc8

# AETH syndromes: the top three bits say ACK (000), RNR NAK (001) or NAK
# (011); a NAK's low five bits say which.
SYN_ACK = 0x00
SYN_RNR = 0x20
NAK_PSN_SEQ = 0x60
NAK_INV_REQ = 0x61
NAK_REM_ACCESS = 0x62

PSN_MASK = 0xffffff


def bth(opcode, qpn, psn, pad=0, ackreq=False, pkey=0xffff, spray=False):
    """The 12-byte Base Transport Header; spray is rmp's read spraying
    bit (0x40 of byte 8)."""
    return struct.pack('!BBHII', opcode, pad << 4, pkey, qpn & 0xffffff,
                       (psn & PSN_MASK) | (ackreq << 31) | (spray << 30))


def reth(vaddr, rkey, length):
    """RDMA Extended Transport Header: WRITE FIRST/ONLY and READ REQUEST."""
    return struct.pack('!QII', vaddr, rkey, length)


def sack(cum_ack, highest, words=(), ecn=False):
    """A SACK block: version 1, the bitmap's 32-bit words, the flag that
    says an ECN echo block follows, the cumulative ack and the highest PSN
    received."""
    return (struct.pack('!BBBBII', 1, len(words), 0x80 if ecn else 0, 0,
                        cum_ack & PSN_MASK, highest & PSN_MASK) +
            b''.join(struct.pack('!I', w) for w in words))


def ecn_echo(base, words):
    """An ECN echo block: bit k of word j is PSN base + 32 j + k."""
    return (struct.pack('!I', len(words) << 24 | base & PSN_MASK) +
            b''.join(struct.pack('!I', w) for w in words))


def speth(ssn, offset):
    """rmp's send spraying header: the SEND's sequence number among the
    messages that take a receive WQE, and the piece's offset in it."""
    return struct.pack('!II', ssn & PSN_MASK, offset)


def aeth(syndrome, msn):
    """The 4-byte ACK Extended Transport Header."""
    return struct.pack('!I', syndrome << 24 | msn & PSN_MASK)


def atomic_eth(vaddr, rkey, swap_add, compare=0):
    """Atomic Extended Transport Header."""
    return struct.pack('!QIQQ', vaddr, rkey, swap_add, compare)


def transport(opcode, qpn, psn, ext=b'', payload=b'', ackreq=False, pad=None,
              spray=False):
    """BTH, extension headers, payload, its pad and an ICRC placeholder."""
    if pad is None:
        pad = -len(payload) % 4
    return (bth(opcode, qpn, psn, pad, ackreq, spray=spray) + ext + payload +
            bytes(pad) + bytes(4))


def _headers(src, dst, length, tos, ttl, csum):
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, tos, 20 + 8 + length, IP_ID,
                     0x4000, ttl, socket.IPPROTO_UDP, csum,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack('!HHHH', SPORT, ROCE_PORT, 8 + length,
                      0xffff if csum else 0)
    return ip + udp


def icrc(src, dst, pkt):
    """The ICRC of transport packet pkt (BTH through ICRC placeholder)."""
    masked = bytearray(pkt[:12])
    masked[4] = 0xff
    data = (b'\xff' * 8 + _headers(src, dst, len(pkt), 0xff, 0xff, 0xffff) +
            bytes(masked) + pkt[12:-4])
    return struct.pack('<I', zlib.crc32(data))


def datagram(src, dst, pkt, bad_icrc=False, raw=False):
    """The IPv4 datagram carrying transport packet pkt from src to dst with
    its ICRC filled in (inverted if bad_icrc); raw sends pkt as it is."""
    if not raw:
        crc = icrc(src, dst, pkt)
        if bad_icrc:
            crc = bytes(b ^ 0x5a for b in crc)
        pkt = pkt[:-4] + crc
    return _headers(src, dst, len(pkt), 0, 64, 0) + pkt


def raw_socket():
    """A socket that sends whole IPv4 datagrams (root only)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    return s


def parse(pkt):
    """Fields of a received transport packet (UDP payload): opcode, qpn,
    psn, ackreq, spray (rmp's read spraying bit, 0x40 of byte 8), and for
    acknowledgements syndrome and msn, for atomic
    acknowledgements orig, and payload (ICRC stripped)."""
    opcode, flags, _, qpn, psn = struct.unpack('!BBHII', pkt[:12])
    out = dict(opcode=opcode, qpn=qpn & 0xffffff, psn=psn & PSN_MASK,
               ackreq=bool(psn >> 31), spray=bool(psn >> 30 & 1))
    rest = pkt[12:-4]
    if opcode in (RC_ACK, RC_ATOMIC_ACK, EXT_SACK) or 0x0d <= opcode <= 0x10:
        if opcode != 0x0e:  # READ RESPONSE MIDDLE has no AETH
            out['syndrome'] = rest[0]
            out['msn'] = int.from_bytes(rest[1:4], 'big')
            rest = rest[4:]
    if opcode == RC_ATOMIC_ACK:
        out['orig'] = struct.unpack('!Q', rest[:8])[0]
        rest = rest[8:]
    pad = (flags >> 4) & 3
    out['payload'] = rest[:len(rest) - pad]
    return out
