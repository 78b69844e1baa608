"""Overlapping host-to-device copies with kernels on two streams, timed with events.

A 256 MiB pinned host buffer is processed in 16 chunks: copy a chunk to the GPU, run
y = sqrt(x) * 2 + 1 on it, copy it back. On one stream every step waits for the one
before; on two streams, one chunk's copies overlap the other's kernel. Writes
stream_overlap.png.
"""
import numpy as np

import cuarray as cp
from _common import args, bars, check

CHUNKS = 16


def process(h_in, h_out, d_in, d_out, streams):
    """Queue every chunk's copy in, kernel and copy out, chunk i on streams[i % len]."""
    size = h_in.size // CHUNKS
    for i in range(CHUNKS):
        s = streams[i % len(streams)]
        part = slice(i * size, (i + 1) * size)
        with s:
            d_in[part].set(h_in[part], stream=s)
            y = d_out[part]
            cp.multiply(cp.sqrt(d_in[part]), 2, out=y)
            y += 1
            d_out[part].get(stream=s, out=h_out[part], blocking=False)


def timed(fn, streams):
    """GPU time of fn in ms: events on the null stream around work that every stream joins."""
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for s in streams:
        s.wait_event(start)
    fn()
    current = cp.cuda.get_current_stream()
    for s in streams:
        done = cp.cuda.Event()
        done.record(s)
        current.wait_event(done)
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end)


def main():
    opts = args(__doc__.splitlines()[0])
    n = (256 << 20) // 4
    h_in, h_out = cp.empty_pinned(n, np.float32), cp.empty_pinned(n, np.float32)
    h_in[:] = np.random.default_rng(0).random(n, dtype=np.float32)
    d_in, d_out = cp.empty(n, cp.float32), cp.empty(n, cp.float32)
    want = np.sqrt(h_in) * 2 + 1
    one = [cp.cuda.Stream(non_blocking=True)]
    two = [cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)]
    results = {}
    for label, streams in (("one stream", one), ("two streams", two)):
        process(h_in, h_out, d_in, d_out, streams)  # warm-up: compiles the kernels
        for s in streams:
            s.synchronize()
        h_out[:] = 0
        results[label] = min(timed(lambda: process(h_in, h_out, d_in, d_out, streams), streams)
                             for _ in range(max(1, opts.repeat // 5)))
        check(label, h_out, want)
    for label, ms in results.items():
        print(f"{label:<12} {ms:8.2f} ms  ({2 * h_in.nbytes / ms / 1e6:6.1f} GB/s over PCIe/NVLink)")
    print(f"overlap saved {100 * (1 - results['two streams'] / results['one stream']):.0f}% "
          "of the time")
    bars(opts.out, "stream_overlap.png", "256 MiB in 16 chunks: copy in, kernel, copy out",
         list(results), list(results.values()), "ms (lower is better)")


if __name__ == "__main__":
    main()
