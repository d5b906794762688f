#!/usr/bin/env python3
"""Rewrite a checkpoint the way a crafted or damaged one would look, with
valid CRCs, so that the tests reach the code behind the container checks.

  ckpt_edit.py IN OUT [--drop TAG]... [--json TAG PYTHON]... [--bytes TAG PYTHON]...

--drop TAG removes a section ("FDAT", "OS  "; short tags are space-padded).
--json TAG PYTHON runs PYTHON with `j` bound to the section's parsed JSON; the
section is replaced by the new value of `j` (or raw text if `j` is a str).
--bytes TAG PYTHON runs PYTHON with `b` bound to a bytearray of the section
("FDAT": the descriptors' bytes), and stores `b` back.
The container (lib/ckpt/ckpt_file.c): magic[8] version:u32 nsections:u32
header_crc:u32, then per section tag:u32 raw_len:u64 stored_len:u64
crc:u32 head_crc:u32 and the zlib-compressed bytes.
"""
import json
import struct
import sys
import zlib


def read(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    at, sections = 20, []
    for _ in range(n):
        tag, raw, stored = struct.unpack_from("<IQQ", data, at)
        at += 28
        sections.append([struct.pack("<I", tag).decode(), zlib.decompress(data[at:at + stored])])
        at += stored
    return data[:12], sections


def write(path, head, sections):
    out = bytearray(head + struct.pack("<I", len(sections)))
    out += struct.pack("<I", zlib.crc32(bytes(out)))
    for tag, raw in sections:
        stored = zlib.compress(raw)
        h = struct.pack("<IQQI", struct.unpack("<I", tag.encode())[0], len(raw), len(stored), zlib.crc32(stored))
        out += h + struct.pack("<I", zlib.crc32(h)) + stored
    open(path, "wb").write(out)


def main(argv):
    src, dst, ops = argv[1], argv[2], argv[3:]
    head, sections = read(src)
    i = 0
    while i < len(ops):
        tag = ops[i + 1].ljust(4)
        if ops[i] == "--drop":
            sections = [s for s in sections if s[0] != tag]
            i += 2
        elif ops[i] == "--json":
            for s in sections:
                if s[0] == tag:
                    scope = {"j": json.loads(s[1])}
                    exec(ops[i + 2], scope)
                    j = scope["j"]
                    s[1] = (j if isinstance(j, str) else json.dumps(j)).encode()
            i += 3
        elif ops[i] == "--bytes":
            for s in sections:
                if s[0] == tag:
                    scope = {"b": bytearray(s[1])}
                    exec(ops[i + 2], scope)
                    s[1] = bytes(scope["b"])
            i += 3
        else:
            sys.exit(f"ckpt_edit.py: unknown operation {ops[i]}")
    write(dst, head, sections)


if __name__ == "__main__":
    main(sys.argv)
