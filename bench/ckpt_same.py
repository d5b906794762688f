#!/usr/bin/env python3
"""ckpt_same.py A B: whether checkpoints A and B hold the same state.

Every section's bytes must be the same (decompressed: the compression level
may differ between builds), but for the fill levels of the L1 lines in the
warm state: functional warming no longer records where an L1 fill came from
(its lines are ready at once, so no request ever waits on one; memsys.h),
so a build from before that records levels that say nothing. Exit 0: the
same; 1: different (what differs on stdout); 2: unreadable.

Layouts: lib/ckpt/ckpt_file.c (the container), lib/uarch/uarch.c, memsys.c and
cache.c (the warm state's start: the caches' geometry, then their lines).
"""
import struct
import sys
import zlib

MAGIC = b"RVCKPT\r\n"
HEADER = struct.Struct("<8sIII")          # magic, version, sections, crc
SECTION = struct.Struct("<IQQII")         # tag, raw length, stored length, crc, head crc
UARCH_TAG = struct.unpack("<I", b"UARC")[0]
CACHES, L1S = 4, 2                        # L1I, L1D, L2, LLC; the first two are the L1s
LINE_BYTES = 9                            # tag (u64), flags (dirty, prefetched, level << 2)
LEVEL_BITS = 0x0C


def sections(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, _version, count, _crc = HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise ValueError(f"{path}: not a checkpoint")
    at, found = HEADER.size, {}
    for _ in range(count):
        tag, raw_len, stored_len, _crc, _head = SECTION.unpack_from(data, at)
        at += SECTION.size
        raw = zlib.decompress(data[at:at + stored_len])
        if len(raw) != raw_len:
            raise ValueError(f"{path}: a section is {len(raw)} bytes, its head says {raw_len}")
        found[tag] = raw
        at += stored_len
    return found


def without_l1_fill_levels(warm):
    """The warm state with the L1 lines' level bits cleared."""
    b = bytearray(warm)
    at = 4 * 8                            # uarch magic, digest; memsys magic, line shift
    geometry = struct.unpack_from(f"<{2 * CACHES}Q", b, at)
    at += 2 * CACHES * 8
    for cache in range(L1S):
        sets, ways = geometry[2 * cache], geometry[2 * cache + 1]
        for line in range(sets * ways):
            b[at + 8] &= ~LEVEL_BITS & 0xFF
            at += LINE_BYTES
    return bytes(b)


def main():
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    try:
        a, b = sections(sys.argv[1]), sections(sys.argv[2])
    except (OSError, ValueError, zlib.error, struct.error) as e:
        print(f"ckpt_same: {e}", file=sys.stderr)
        return 2
    if sorted(a) != sorted(b):
        print("different sections")
        return 1
    for tag in a:
        x, y = a[tag], b[tag]
        if tag == UARCH_TAG:
            x, y = without_l1_fill_levels(x), without_l1_fill_levels(y)
        if x != y:
            print(f"section {struct.pack('<I', tag).decode()} differs")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
