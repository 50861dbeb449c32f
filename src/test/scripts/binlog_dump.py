#!/usr/bin/env python3
"""Prints the records of a binlog directory (FORMAT.md, version 1), oldest first, one a line.

  src/test/scripts/binlog_dump.py DIR            every record
  src/test/scripts/binlog_dump.py DIR ID [ID...] the records that name these job ids

For looking at what a crash left behind; it checks nothing and stops at the first bad frame of a
segment. Checksums (CRC32C) are not verified.
"""
import os
import re
import struct
import sys

STATES = {0: "ready", 1: "delayed", 2: "buried"}


def counters(b, o):
    return "res=%d to=%d rel=%d bur=%d kick=%d" % struct.unpack_from(">5I", b, o)


def describe(t, b, o):
    if t == 1:
        return None, "HighWater next=%d" % struct.unpack_from(">Q", b, o)
    job = struct.unpack_from(">Q", b, o)[0]
    if t == 2:
        state, pri, delay, ttr, ready_at, created = struct.unpack_from(">BIIIqq", b, o + 8)
        p = o + 8 + 1 + 12 + 16
        c = counters(b, p)
        p += 20
        tube_len = b[p]
        tube = b[p + 1:p + 1 + tube_len].decode("latin-1")
        body_len = struct.unpack_from(">I", b, p + 1 + tube_len)[0]
        body = b[p + 5 + tube_len:p + 5 + tube_len + min(body_len, 24)]
        return job, "Snapshot %s tube=%s pri=%d delay=%d ttr=%d readyAt=%d %s body=%d:%r" % (
            STATES.get(state, state), tube, pri, delay, ttr, ready_at, c, body_len, body)
    if t == 3:
        return job, "Delete"
    if t == 4:
        pri, delay, ready_at = struct.unpack_from(">IIq", b, o + 8)
        return job, "Release pri=%d delay=%d readyAt=%d %s" % (pri, delay, ready_at, counters(b, o + 24))
    if t == 5:
        return job, "Bury pri=%d %s" % (struct.unpack_from(">I", b, o + 8)[0], counters(b, o + 12))
    if t == 6:
        return job, "Kick %s" % counters(b, o + 8)
    if t == 7:
        return job, "Reserve %s" % counters(b, o + 8)
    return job, "type %d?" % t


def main():
    directory = sys.argv[1]
    wanted = {int(a) for a in sys.argv[2:]}
    names = sorted(f for f in os.listdir(directory) if re.fullmatch(r"binlog\.\d{6,18}", f))
    for name in names:
        b = open(os.path.join(directory, name), "rb").read()
        o = 24
        while o + 8 <= len(b):
            length, crc = struct.unpack_from(">II", b, o)
            if length == 0 or o + 8 + length > len(b):
                print("%s@%d: end (length %d, %d bytes left)" % (name, o, length, len(b) - o))
                break
            job, text = describe(b[o + 8], b, o + 9)
            if not wanted or job in wanted:
                print("%s@%d: job %s %s" % (name, o, job, text))
            o += 8 + length


if __name__ == "__main__":
    main()
