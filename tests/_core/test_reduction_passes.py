"""The reduction engine's second pass (a reduced range split into partials): with fewer than
32 outputs each output's partials are read by a block of 256 threads, otherwise by the
eight thread rows of a 32-output column block. Values against NumPy on the emulated device
("emu": a larger multiprocessor count stood in so that a range splits into more partials
than a block has threads) and on the GPU."""
import numpy
import pytest

from cuarray._core import reduction
from emulation import pytest_generate_tests  # noqa: F401  (the xp fixture's hook)


@pytest.fixture
def passes(xp, monkeypatch):
    """The `frow` flag of every reduction kernel generated during the test."""
    seen = []
    generate = reduction.generate

    def record(op, args, nk, nr, row, block, idx64, split, frow=False):
        seen.append((split, frow))
        return generate(op, args, nk, nr, row, block, idx64, split, frow)

    monkeypatch.setattr(reduction, "generate", record)
    monkeypatch.setattr(reduction, "_sm_count", lambda: 40)   # up to 320 partials
    return seen


def test_few_outputs_split_into_many_partials(xp, passes, rng):
    n = 260 * 1024 + 77      # 260 partials: some of the 256 threads read two
    xn = rng.standard_normal(n)
    numpy.testing.assert_allclose(xp.asarray(xn).sum().get(), xn.sum(), rtol=1e-12)
    mn = rng.standard_normal((3, 5000)).astype(numpy.float32)
    m = xp.asarray(mn)
    numpy.testing.assert_allclose(m.sum(axis=1).get(), mn.sum(axis=1), rtol=1e-4)
    numpy.testing.assert_array_equal(m.max(axis=1, keepdims=True).get(),
                                     mn.max(axis=1, keepdims=True))
    tn = numpy.zeros((3, 5000), numpy.float32)
    tn[:, [5, 2100, 4500]] = 1    # ties in different partials: the first index wins
    numpy.testing.assert_array_equal(xp.asarray(tn).argmax(axis=1).get(), tn.argmax(axis=1))
    assert passes and all(frow for split, frow in passes if split)


def test_many_outputs_keep_the_column_pass(xp, passes, rng):
    mn = rng.standard_normal((40, 3000))
    numpy.testing.assert_allclose(xp.asarray(mn).sum(axis=1).get(), mn.sum(axis=1), rtol=1e-12)
    assert (True, False) in passes
