"""cuarray.scipy.signal.max_len_seq against scipy.signal (GPU; host emulation elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


@pytest.mark.parametrize("nbits", [2, 3, 5, 8, 12, 16])
def test_default_taps_full_period(xp, nbits):
    from cuarray.scipy import signal as s
    seq, state = s.max_len_seq(nbits)
    want_seq, want_state = ss.max_len_seq(nbits)
    got = xp.asnumpy(seq)
    assert got.dtype == np.int8 and xp.asnumpy(state).dtype == np.int8
    np.testing.assert_array_equal(got, want_seq)
    np.testing.assert_array_equal(xp.asnumpy(state), want_state)


@pytest.mark.parametrize("nbits,taps,length", [
    (4, [1], 20), (7, [6, 3, 1], 1000), (10, [0, 3], 3000), (10, [10, 7], 2049),
    (5, None, 0), (9, None, 512), (9, None, 1024), (31, None, 5000), (70, [69, 3], 1800),
])
def test_taps_state_length(xp, nbits, taps, length):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(nbits)
    state = rng.integers(0, 2, nbits)
    state[0] = 1
    seq, st = s.max_len_seq(nbits, state=state, length=length, taps=taps)
    want_seq, want_state = ss.max_len_seq(nbits, state=state, length=length, taps=taps)
    np.testing.assert_array_equal(xp.asnumpy(seq), want_seq)
    np.testing.assert_array_equal(xp.asnumpy(st), want_state)


def test_device_state(xp):
    from cuarray.scipy import signal as s
    state = np.array([1, 0, 0, 1, 1, 0], dtype=np.int8)
    seq, st = s.max_len_seq(6, state=xp.asarray(state), length=200)
    want_seq, want_state = ss.max_len_seq(6, state=state, length=200)
    np.testing.assert_array_equal(xp.asnumpy(seq), want_seq)
    np.testing.assert_array_equal(xp.asnumpy(st), want_state)


def test_errors():
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match="nbits must be between 2 and 32"):
        s.max_len_seq(33)
    with pytest.raises(ValueError, match="taps must be non-empty"):
        s.max_len_seq(5, taps=[6])
    with pytest.raises(ValueError, match="taps must be non-empty"):
        s.max_len_seq(5, taps=[-1])
    with pytest.raises(ValueError, match="length must be"):
        s.max_len_seq(5, length=-1)
    with pytest.raises(ValueError, match="size nbits"):
        s.max_len_seq(5, state=[1, 0, 1])
    with pytest.raises(ValueError, match="all zeros"):
        s.max_len_seq(5, state=[0] * 5)
    with pytest.raises(TypeError):
        s.max_len_seq(5.5)


def test_jump_table_matches_stepping():
    """The chunk jump matrices equal CHUNK single steps of the register (host logic)."""
    from cuarray.scipy.signal import _max_len_seq as m
    nbits, mask = 7, 1 | (1 << 6)
    rows = m._table(nbits, mask, 2).reshape(2, nbits)
    st = 0b1010011
    walk = st
    for _ in range(m.CHUNK):
        fb = bin(walk & mask).count("1") & 1
        walk = (walk >> 1) | (fb << (nbits - 1))
    jumped = sum((bin(int(rows[0, r]) & st).count("1") & 1) << r for r in range(nbits))
    assert jumped == walk
