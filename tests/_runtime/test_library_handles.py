"""Library handles (cuBLAS, cuSOLVER, cuSPARSE, cusolverSp): one per (thread, device,
purpose), created once, rebound only when the current stream changes. CPU: the
libraries' create/set_stream calls are replaced by recorders."""
import threading

import pytest

from cuarray._libs import _handles


@pytest.fixture
def env(monkeypatch):
    state = {"dev": 0, "stream": 0}
    monkeypatch.setattr(_handles, "ensure_context", lambda: state["dev"])
    monkeypatch.setattr(_handles, "current_stream_ptr", lambda: state["stream"])
    return state


def test_one_handle_per_thread_device_and_purpose(env):
    made, bound = [], []
    h = _handles.PerThread(lambda: made.append(len(made)) or made[-1],
                           lambda handle, s: bound.append((handle, s)))
    assert h.get() == 0 and h.get() == 0
    assert bound == [(0, 0)]
    env["stream"] = 7
    assert h.get() == 0 and h.get() == 0
    assert bound == [(0, 0), (0, 7)]            # rebound once, when the stream changed
    env["dev"] = 1
    assert h.get() == 1
    assert h.get("gesvdp") == 2 and h.get("gesvdp") == 2
    env["dev"] = 0
    assert h.get() == 0
    other = []
    t = threading.Thread(target=lambda: other.append(h.get()))
    t.start()
    t.join()
    assert other == [3] and made == [0, 1, 2, 3]


def test_each_library_wires_its_calls(env, monkeypatch):
    from nvmath.bindings import cublas, cusolverDn, cusolverSp
    from cuarray._libs import cublas as my_cublas
    from cuarray._libs import cusolver as my_cusolver
    from cuarray._libs import cusparse as my_cusparse
    calls = []

    def rec(name, ret=None):
        def f(*args):
            calls.append((name,) + args)
            return ret
        return f
    for mod, name, ret in [(cublas, "create", 11), (cublas, "set_math_mode", None),
                           (cublas, "set_stream", None), (cusolverDn, "create", 21),
                           (cusolverDn, "create_params", 22),
                           (cusolverDn, "create_syevj_info", 23),
                           (cusolverDn, "create_gesvdj_info", 24),
                           (cusolverDn, "xsyevj_set_sort_eig", None),
                           (cusolverDn, "xgesvdj_set_sort_eig", None),
                           (cusolverDn, "set_stream", None), (cusolverSp, "create", 41),
                           (cusolverSp, "set_stream", None)]:
        monkeypatch.setattr(mod, name, rec(f"{mod.__name__.split('.')[-1]}.{name}", ret))
    fake_sparse = type("M", (), {"create": staticmethod(rec("cusparse.create", 31)),
                                 "set_stream": staticmethod(rec("cusparse.set_stream"))})
    monkeypatch.setattr(my_cusparse, "_lib", lambda: fake_sparse)
    for m, attr in [(my_cublas, "_handles"), (my_cusolver, "_solvers"), (my_cusparse, "_handles"),
                    (my_cusparse, "_solvers_sp")]:
        monkeypatch.setattr(getattr(m, attr), "_tls", threading.local())
    env["stream"] = 5
    monkeypatch.delenv("CUARRAY_TF32", raising=False)
    assert my_cublas.get_handle() == 11 and my_cublas.get_handle() == 11
    solver = my_cusolver.get_solver()
    assert (solver.ptr, solver.params, solver.syevj, solver.gesvdj) == (21, 22, 23, 24)
    assert my_cusolver.get_solver() is solver
    assert my_cusolver.get_solver("gesvdp") is not solver
    assert my_cusparse.get_handle() == 31
    assert my_cusparse.get_solver_sp() == 41 and my_cusparse.get_solver_sp() == 41
    assert ("cublas.set_math_mode", 11, int(cublas.Math.DEFAULT_MATH)) in calls
    assert [c for c in calls if c[0].endswith("set_stream")] == [
        ("cublas.set_stream", 11, 5), ("cusolverDn.set_stream", 21, 5),
        ("cusolverDn.set_stream", 21, 5), ("cusparse.set_stream", 31, 5),
        ("cusolverSp.set_stream", 41, 5)]
    assert ("cusolverDn.xsyevj_set_sort_eig", 23, 1) in calls
