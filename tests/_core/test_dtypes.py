import numpy
import pytest

from cuarray._core import dtypes

NUMERIC_CHARS = "?bBhHiIlLqQefdFD"


def test_supported_is_the_14_numeric_dtypes():
    assert len(dtypes.SUPPORTED) == 14 and len(set(dtypes.SUPPORTED)) == 14
    assert set(dtypes.SUPPORTED) == {numpy.dtype(c) for c in NUMERIC_CHARS}
    assert dtypes.ALL == dtypes.SUPPORTED
    assert dtypes.SUPPORTED[0] == numpy.bool_


def test_kind_groups():
    kinds = lambda group: {d.kind for d in group}
    assert kinds(dtypes.SIGNED) == {"i"} and kinds(dtypes.UNSIGNED) == {"u"}
    assert set(dtypes.INTEGER) == set(dtypes.SIGNED) | set(dtypes.UNSIGNED)
    assert kinds(dtypes.FLOATING) == {"f"} and kinds(dtypes.COMPLEX) == {"c"}
    assert set(dtypes.INEXACT) == set(dtypes.FLOATING) | set(dtypes.COMPLEX)
    assert set(dtypes.NUMERIC) == set(dtypes.SUPPORTED) - {numpy.dtype(bool)}
    assert [d.itemsize for d in dtypes.SIGNED] == [1, 2, 4, 8]


@pytest.mark.parametrize("spec", [*NUMERIC_CHARS, int, float, complex, bool, "float32", numpy.int16, "c16"])
def test_check_dtype_accepts_numeric(spec):
    dt = dtypes.check_dtype(spec)
    assert isinstance(dt, numpy.dtype) and dt == numpy.dtype(spec)


def test_check_dtype_makes_byte_order_native():
    dt = dtypes.check_dtype(">i4")
    assert dt == numpy.dtype("int32") and dt.isnative


@pytest.mark.parametrize("spec", ["U3", "S2", object, "(2,)i4", "V8"])
def test_check_dtype_refuses_non_numeric(spec):
    with pytest.raises(TypeError) as e:
        dtypes.check_dtype(spec)
    assert str(e.value) == ("cuarray supports bool, integer, floating, complex, datetime64, "
                            f"timedelta64 and structured dtypes; got {numpy.dtype(spec)!r}")


@pytest.mark.parametrize("spec", ["M8[s]", "m8[ns]", "M8", [("a", "f4")],
                                  [("a", "i4"), ("b", "f8", (3,))]])
def test_check_dtype_accepts_datetime_and_structured(spec):
    assert dtypes.check_dtype(spec) == numpy.dtype(spec)


@pytest.mark.parametrize("spec", [[("a", "i4"), ("b", object)], [("s", "U3")], [("t", "M8[s]")],
                                  [("q", [("u", "S2")])]])
def test_check_dtype_refuses_structs_of_other_fields(spec):
    with pytest.raises(TypeError, match="numeric fields only"):
        dtypes.check_dtype(spec)


def test_check_dtype_message_is_numpys_repr():
    with pytest.raises(TypeError, match=r"got dtype\('<U3'\)$"):
        dtypes.check_dtype("<U3")


@pytest.mark.parametrize("spec", ["g", "G"])
def test_check_dtype_refuses_long_double(spec):
    with pytest.raises(TypeError, match="no long double; use (float64|complex128)"):
        dtypes.check_dtype(spec)


def test_check_dtype_refuses_what_numpy_refuses():
    with pytest.raises(TypeError):
        dtypes.check_dtype("not a dtype")


def test_ctype():
    expected = {
        "?": "bool", "b": "signed char", "B": "unsigned char", "h": "short", "H": "unsigned short",
        "i": "int", "I": "unsigned int", "l": "long long", "q": "long long", "L": "unsigned long long",
        "Q": "unsigned long long", "e": "half", "f": "float", "d": "double",
        "F": "complex<float>", "D": "complex<double>",
    }
    for c, name in expected.items():
        assert dtypes.ctype(c) == name
        assert dtypes.ctype(numpy.dtype(c)) == name
    with pytest.raises(TypeError, match="structured dtypes; got"):
        dtypes.ctype("U3")


def test_complex_helpers():
    assert dtypes.is_complex("F") and dtypes.is_complex(numpy.complex128)
    assert not dtypes.is_complex("f") and not dtypes.is_complex(bool)
    assert dtypes.real_dtype("F") == numpy.float32
    assert dtypes.real_dtype(numpy.complex128) == numpy.float64
    assert dtypes.real_dtype("i2") == numpy.int16


def test_check_dtype_remembers_only_what_it_accepted():
    import numpy as np
    from cuarray._core import dtypes as d
    for spec in (np.float32, "f4", "<f4", ">f4", float, int, bool, complex, "e", np.dtype("u2")):
        want = np.dtype(spec).newbyteorder("=")
        for _ in range(2):   # the second answer comes from the cache
            got = d.check_dtype(spec)
            assert got == want and got.isnative
    for bad in (np.dtype("U3"), [("a", object)], "f16", np.longdouble, object, "(2,)f4"):
        for _ in range(2):
            with pytest.raises(TypeError):
                d.check_dtype(bad)
    assert all(isinstance(v, np.dtype) for v in d._checked.values())
    assert len(d._checked) <= 256
