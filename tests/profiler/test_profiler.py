"""cuarray.profiler: benchmark's report (CuPy's format), time_range's NVTX calls, profile()."""
import ctypes
import re

import numpy
import pytest

import cuarray
from cuarray._runtime import profiler as _rt
from cuarray.profiler import _PerfCaseResult, benchmark, nvtx_available, profile, time_range


def test_report_format_matches_cupy():
    ts = numpy.array([[25.292e-6, 21.103e-6, 51.869e-6], [101.437e-6, 96.256e-6, 125.952e-6]])
    r = _PerfCaseResult("sum", ts, (0,))
    cpu, gpu = ts[0] * 1e6, ts[1] * 1e6
    want = (f"sum                 :    CPU:{cpu.mean():9.03f} us   +/-{cpu.std():6.03f} "
            f"(min:{cpu.min():9.03f} / max:{cpu.max():9.03f}) us     GPU-0:{gpu.mean():9.03f} us"
            f"   +/-{gpu.std():6.03f} (min:{gpu.min():9.03f} / max:{gpu.max():9.03f}) us")
    assert str(r) == want == repr(r)
    # The line CuPy's tutorial shows, with its numbers masked.
    shown = ("sum                 :    CPU:   25.292 us   +/- 5.547 (min:   21.103 / max:   51.869) us"
             "     GPU-0:  101.437 us   +/- 5.273 (min:   96.256 / max:  125.952) us")
    def shape(text):
        return re.sub(r"\s+", "", re.sub(r"\d+\.\d+", "N", text))
    assert shape(str(r)) == shape(shown)
    assert r.to_str() == str(r).split("     GPU-0")[0]
    numpy.testing.assert_array_equal(r.cpu_times, ts[0])
    assert r.gpu_times.shape == (1, 3)
    one = _PerfCaseResult("f", numpy.array([[1e-6], [2e-6]]), (0,))
    assert str(one) == "f                   :    CPU:    1.000 us     GPU-0:    2.000 us"
    with pytest.raises(ValueError):
        _PerfCaseResult("f", numpy.zeros((3, 2)), (0,))


def test_benchmark_argument_checks():
    for kwargs in ({"args": [1]}, {"kwargs": ()}, {"n_repeat": 1.5}, {"name": 3},
                   {"n_warmup": None}, {"max_duration": "1s"}, {"devices": [0]}):
        with pytest.raises(ValueError):
            benchmark(lambda: None, **kwargs)


class _FakeNVTX:
    def __init__(self):
        self.calls = []

    def nvtxRangePushA(self, msg):
        self.calls.append(("push", msg.decode(), None))

    def nvtxRangePushEx(self, attr):
        a = ctypes.cast(attr, ctypes.POINTER(_rt._EventAttributes)).contents
        assert a.version == 2 and a.size == 48 and a.colorType == 1 and a.messageType == 1
        self.calls.append(("push", a.message.decode(), a.color))

    def nvtxRangePop(self):
        self.calls.append(("pop",))

    def nvtxMarkA(self, msg):
        self.calls.append(("mark", msg.decode()))


@pytest.fixture
def fake_nvtx(monkeypatch):
    lib = _FakeNVTX()
    monkeypatch.setattr(_rt, "_lib", lib)
    return lib


def test_time_range_pushes_and_pops(fake_nvtx):
    assert nvtx_available()
    with time_range("plain"):
        pass
    with time_range("green", color_id=0):
        pass
    with time_range("argb", argb_color=0x80123456):
        pass

    @time_range()
    def work(x):
        return x + 1

    @time_range("named", color_id=8)
    def other():
        return 2

    assert work(1) == 2 and work.__name__ == "work" and other() == 2
    assert fake_nvtx.calls == [
        ("push", "plain", None), ("pop",), ("push", "green", 0xFF00FF00), ("pop",),
        ("push", "argb", 0x80123456), ("pop",), ("push", "work", None), ("pop",),
        ("push", "named", 0xFF0000FF), ("pop",)]


def test_time_range_errors(fake_nvtx):
    with pytest.raises(ValueError, match="either"):
        time_range("x", color_id=1, argb_color=2)
    with pytest.raises(ValueError, match="message"):
        with time_range():
            pass
    with pytest.raises(KeyError):
        with time_range("block"):
            raise KeyError("the range is closed all the same")
    assert fake_nvtx.calls[-1] == ("pop",)


def test_time_range_without_nvtx_marks_nothing(monkeypatch):
    monkeypatch.setattr(_rt, "_lib", False)
    assert not nvtx_available()
    with time_range("nothing", color_id=2):
        pass


def test_public_names():
    import cuarray.profiler as p
    assert cuarray.profiler is p
    assert {"benchmark", "time_range", "profile"} <= set(p.__all__)


gpu = pytest.mark.gpu


@gpu
def test_benchmark_times_cpu_and_gpu():
    a = cuarray.random.random((256, 256, 256), dtype=cuarray.float32)
    r = benchmark(a.sum, (), n_repeat=20)
    assert r.name == "sum"
    assert r.cpu_times.shape == (20,) and r.gpu_times.shape == (1, 20)
    assert (r.cpu_times > 0).all() and (r.gpu_times > 0).all()
    assert re.fullmatch(r"sum {17}:    CPU: *\d+\.\d{3} us   \+/- *\d+\.\d{3} \(min: *\d+\.\d{3} / "
                        r"max: *\d+\.\d{3}\) us     GPU-0: *\d+\.\d{3} us   \+/- *\d+\.\d{3} "
                        r"\(min: *\d+\.\d{3} / max: *\d+\.\d{3}\) us", str(r))
    r = benchmark(lambda x, y=1: x + y, (a,), {"y": 2}, n_repeat=1000, n_warmup=0,
                  max_duration=0.01, name="add")
    assert r.name == "add" and 1 <= r.cpu_times.size < 1000


@gpu
def test_profile_and_synchronised_ranges():
    x = cuarray.arange(10)
    with profile():
        with time_range("sync", sync=True):
            y = x * 2
    assert int(y.sum()) == 90
