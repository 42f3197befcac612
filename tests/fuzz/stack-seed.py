#!/usr/bin/env python3
"""tests/fuzz/stack-seed.py SEED OUT - make a fuzz seed with -g stack
records from a seed without them: the header grows to 320 bytes
(pct_format.h), every section moves up by 64 bytes, and a stack region of
two records (x86_64: 17 registers) is appended."""
import struct, sys

src = bytearray(open(sys.argv[1], 'rb').read())
hdr, rest = src[:256], src[256:]
u64 = lambda off: struct.unpack_from('<Q', hdr, off)[0]
for off in (112, 136, 168, 232):           # strings, modules, table, threads offsets
    struct.pack_into('<Q', hdr, off, u64(off) + 64)
struct.pack_into('<I', hdr, 16, 320)      # header_size
body = hdr + bytes(64) + rest
while len(body) % 8:
    body += b'\0'
records = b''
for weight, ctx, sp in ((3, 0, 0x7ffd0000), (1, 0, 0x7ffd0100)):
    regs = [0x1000 + i for i in range(17)]
    regs[7] = sp                          # rsp
    regs[16] = 0x401000                   # the PC
    stack = struct.pack('<8Q', *[0x401100 + 8 * i for i in range(8)])
    size = 32 + 17 * 8 + len(stack)
    records += struct.pack('<IIQQII', size, ctx | 0x80000000, weight, sp, len(stack), 0)
    records += struct.pack('<17Q', *regs) + stack
stacks_offset = len(body)
out = body + records
ext = struct.pack('<QQQQIIII', stacks_offset, len(records), len(records), 0, 62, 17, 256, 0) + bytes(16)
out[256:320] = ext
struct.pack_into('<Q', out, 24, len(out))  # file_size
open(sys.argv[2], 'wb').write(out)
