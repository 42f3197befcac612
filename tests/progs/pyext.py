# pyext.py - Python's extension modules at work, each in turn for an
# equal share of CPU time (20 ms slices): _lzma (liblzma), _bz2 (libbz2),
# _decimal (libmpdec), _sqlite3 (libsqlite3), _hashlib (libcrypto) and
# _ctypes (libffi, calling libz's crc32).  Each library's code runs only
# under its extension module, which Python loads with dlopen after it has
# started.  usage: python3 pyext.py SECONDS
import bz2, ctypes, ctypes.util, decimal, hashlib, lzma, sqlite3, sys, time

data = b"".join(b"the quick brown fox jumps over the lazy dog %d\n" % i for i in range(20000))
db = sqlite3.connect(":memory:")
db.execute("create table t (x integer)")
db.executemany("insert into t values (?)", ((i,) for i in range(20000)))
libz = ctypes.CDLL(ctypes.util.find_library("z") or "libz.so.1")
libz.crc32.restype = ctypes.c_ulong
libz.crc32.argtypes = (ctypes.c_ulong, ctypes.c_char_p, ctypes.c_uint)
ctx = decimal.Context(prec=3000)

work = [
    lambda: lzma.compress(data[:100000], preset=1),
    lambda: bz2.compress(data[:100000], 1),
    lambda: ctx.sqrt(decimal.Decimal(2)),
    lambda: db.execute("select sum(x * x % 7) from t").fetchone(),
    lambda: hashlib.sha256(data).digest(),
    lambda: libz.crc32(0, data, len(data)),
]
secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
t0 = time.process_time()
while time.process_time() - t0 < secs:
    for w in work:
        t1 = time.process_time()
        while time.process_time() - t1 < 0.02:
            w()
