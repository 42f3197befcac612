# pynumpy.py - numpy at work, each in turn for an equal share of CPU time
# (20 ms slices): a matrix product (libblas, under _multiarray_umath), a
# sort (_multiarray_umath itself), an FFT (_pocketfft_internal) and a
# solve (_umath_linalg, liblapack).  numpy's modules are loaded with
# dlopen after Python has started.  usage: python3 pynumpy.py SECONDS
import sys, time
import numpy as np

rng = np.random.default_rng(1)
a = rng.random((160, 160))
v = rng.random(200000)
s = rng.random(1 << 16)
m = rng.random((120, 120)) + 120 * np.eye(120)
work = [
    lambda: a @ a,
    lambda: np.sort(v),
    lambda: np.fft.fft(s),
    lambda: np.linalg.solve(m, a[:120, :120]),
]
secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
t0 = time.process_time()
while time.process_time() - t0 < secs:
    for w in work:
        t1 = time.process_time()
        while time.process_time() - t1 < 0.02:
            w()
