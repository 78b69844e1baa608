"""Input/output and formatting against NumPy: text files, formatting of arrays and floats,
number representations and NumPy's print options governing cuarray's output. Runs on the
GPU and through the host emulation."""
import io

import numpy
import pytest

from _backends import cp  # noqa: F401


def test_text_round_trip(cp, tmp_path):
    a = numpy.random.default_rng(0).standard_normal((3, 4))
    cp.savetxt(tmp_path / "a.txt", cp.asarray(a), fmt="%.17g", delimiter=",")
    numpy.testing.assert_array_equal(numpy.loadtxt(tmp_path / "a.txt", delimiter=","), a)
    r = cp.loadtxt(tmp_path / "a.txt", delimiter=",")
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_array_equal(r.get(), a)
    g = cp.genfromtxt(io.StringIO("1,2\n3,4"), delimiter=",")
    numpy.testing.assert_array_equal(g.get(), [[1.0, 2.0], [3.0, 4.0]])


def test_formatting_matches_numpy(cp):
    for h in (numpy.arange(6.0).reshape(2, 3) / 7, numpy.array([1, 2, 3], numpy.int8),
              numpy.array(1.5), numpy.zeros((0, 2)), numpy.array([1 + 2j, 3.5j])):
        g = cp.asarray(h)
        assert cp.array_repr(g) == numpy.array_repr(h)
        assert cp.array_str(g) == numpy.array_str(h)
        assert cp.array2string(g, separator=";") == numpy.array2string(h, separator=";")
        assert cp.array_repr(g, precision=2) == numpy.array_repr(h, precision=2)
        assert repr(g) == repr(h) and str(g) == str(h)


def test_printoptions_govern_output(cp):
    h = numpy.array([1.0 / 3, 2.0 / 3])
    g = cp.asarray(h)
    old = cp.get_printoptions()
    with cp.printoptions(precision=3):
        assert repr(g) == repr(h) == "array([0.333, 0.667])"
    assert cp.get_printoptions() == old
    cp.set_printoptions(precision=2)
    try:
        assert str(g) == "[0.33 0.67]"
    finally:
        cp.set_printoptions(**old)


def test_float_and_number_formatting(cp):
    x = numpy.float32(1.1)
    assert cp.format_float_positional(x) == numpy.format_float_positional(x)
    assert cp.format_float_scientific(x, precision=3) == numpy.format_float_scientific(x, precision=3)
    assert cp.format_float_positional(cp.asarray(numpy.float64(0.1))) == "0.1"
    assert cp.base_repr(255, 16) == "FF" and cp.base_repr(-5, 2, padding=3) == numpy.base_repr(-5, 2, 3)
    assert cp.binary_repr(cp.asarray(numpy.int64(5))) == "101"
    assert cp.binary_repr(-3, width=4) == numpy.binary_repr(-3, width=4)
    with pytest.raises(ValueError):
        cp.base_repr(3, 37)


def test_npy_round_trip(cp, tmp_path):
    a = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
    cp.save(tmp_path / "a.npy", cp.asarray(a))
    numpy.testing.assert_array_equal(numpy.load(tmp_path / "a.npy"), a)
    cp.savez(tmp_path / "b.npz", x=cp.asarray(a), y=a[0])
    with cp.load(tmp_path / "b.npz") as f:
        assert sorted(f.files) == ["x", "y"]
        numpy.testing.assert_array_equal(f["x"].get(), a)
    a.tofile(tmp_path / "raw.bin")
    numpy.testing.assert_array_equal(cp.fromfile(tmp_path / "raw.bin", dtype=numpy.int32).get(),
                                     a.ravel())
