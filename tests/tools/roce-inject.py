#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send one hand-made RoCEv2 packet over a raw IPv4 socket.

    roce-inject.py SRC DST [--qpn N] [--opcode N] [--psn N] [--payload N]
                   [--pad N] [--bad-icrc] [--raw HEX]

--raw sends the given bytes as the whole UDP payload instead (for malformed
packets). Root only (see rocepkt.py).
"""
import argparse

import rocepkt


def main():
    p = argparse.ArgumentParser()
    p.add_argument('src')
    p.add_argument('dst')
    p.add_argument('--qpn', type=lambda v: int(v, 0), default=0x1234)
    p.add_argument('--opcode', type=lambda v: int(v, 0),
                   default=rocepkt.RC_SEND_ONLY)
    p.add_argument('--psn', type=int, default=1)
    p.add_argument('--payload', type=int, default=16)
    p.add_argument('--pad', type=int, help='pad count (default: natural)')
    p.add_argument('--bad-icrc', action='store_true')
    p.add_argument('--raw')
    a = p.parse_args()

    if a.raw is not None:
        pkt = bytes.fromhex(a.raw)
    else:
        pkt = rocepkt.transport(a.opcode, a.qpn, a.psn,
                                payload=bytes(range(256))[:a.payload],
                                pad=a.pad)
    dgram = rocepkt.datagram(a.src, a.dst, pkt, a.bad_icrc, a.raw is not None)
    rocepkt.raw_socket().sendto(dgram, (a.dst, 0))


if __name__ == '__main__':
    main()
