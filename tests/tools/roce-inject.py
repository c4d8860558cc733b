#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send one hand-made RoCEv2 packet over a raw IPv4 socket.

    roce-inject.py SRC DST [--qpn N] [--opcode N] [--psn N] [--payload N]
                   [--pad N] [--bad-icrc] [--raw HEX]

The ICRC covers the IP header, identification included, so the whole IP
datagram is built here and sent with IP_HDRINCL (root only); the kernel
fills in the header checksum, which the ICRC does not cover. --raw sends the
given bytes as the whole UDP payload instead (for malformed packets).
"""
import argparse
import socket
import struct
import zlib

SPORT = 49999
ROCE_PORT = 4791
IP_ID = 0x4242


def headers(src, dst, transport, tos, ttl, csum):
    """IPv4 and UDP headers for a transport packet."""
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, tos, 20 + 8 + len(transport),
                     IP_ID, 0x4000, ttl, socket.IPPROTO_UDP, csum,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack('!HHHH', SPORT, ROCE_PORT, 8 + len(transport),
                      0xffff if csum else 0)
    return ip + udp


def icrc(src, dst, transport):
    """ICRC of a transport packet (BTH through ICRC placeholder)."""
    bth = bytearray(transport[:12])
    bth[4] = 0xff
    data = (b'\xff' * 8 + headers(src, dst, transport, 0xff, 0xff, 0xffff) +
            bytes(bth) + transport[12:-4])
    return struct.pack('<I', zlib.crc32(data))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('src')
    p.add_argument('dst')
    p.add_argument('--qpn', type=lambda v: int(v, 0), default=0x1234)
    p.add_argument('--opcode', type=lambda v: int(v, 0), default=0x04)  # RC SEND_ONLY
    p.add_argument('--psn', type=int, default=1)
    p.add_argument('--payload', type=int, default=16)
    p.add_argument('--pad', type=int, help='pad count (default: natural)')
    p.add_argument('--bad-icrc', action='store_true')
    p.add_argument('--raw')
    a = p.parse_args()

    if a.raw is not None:
        pkt = bytes.fromhex(a.raw)
    else:
        pad = -a.payload % 4 if a.pad is None else a.pad
        bth = struct.pack('!BBHII', a.opcode, pad << 4, 0xffff,
                          a.qpn & 0xffffff, a.psn & 0xffffff)
        pkt = bth + bytes(range(256))[:a.payload] + bytes(pad) + bytes(4)
        crc = icrc(a.src, a.dst, pkt)
        if a.bad_icrc:
            crc = bytes(b ^ 0x5a for b in crc)
        pkt = pkt[:-4] + crc
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    s.sendto(headers(a.src, a.dst, pkt, 0, 64, 0) + pkt, (a.dst, 0))


if __name__ == '__main__':
    main()
