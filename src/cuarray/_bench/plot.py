"""PNG charts of a benchmark record: bandwidth, per-call time, scaling with size.

Drawn from the JSON record alone, so a saved record can be charted on any machine.
Uses matplotlib's object API (no pyplot state, no display needed).
"""
from pathlib import Path

# record key, legend label and colour of each library
_LIBS = (("cuarray", "cuarray", "#76b900"), ("cupy", "CuPy", "#5470c6"),
         ("torch", "PyTorch", "#ee6a3a"))


def _present(rows):
    return [lib for lib in _LIBS if any(r.get(lib[0]) is not None for r in rows)]


def _figure(n_rows, width=9.0):
    from matplotlib.figure import Figure
    return Figure(figsize=(width, max(2.5, 0.45 * n_rows + 1.5)), layout="constrained")


def _title(record, what):
    quick = " (quick)" if record.get("quick") else ""
    return f"{what}: {record.get('gpu')}, {record.get('date', '')[:10]}{quick}"


def _bars(ax, rows, libs, value):
    """Grouped horizontal bars, one group per row (top to bottom in record order)."""
    height = 0.8 / len(libs)
    for j, (key, label, colour) in enumerate(libs):
        ys, xs = [], []
        for i, r in enumerate(rows):
            v = value(r, key)
            if v is not None:
                ys.append(len(rows) - 1 - i + (len(libs) - 1 - j - (len(libs) - 1) / 2) * height)
                xs.append(v)
        ax.barh(ys, xs, height=height, label=label, color=colour)
    ax.set_yticks(range(len(rows)), [r["name"] for r in reversed(rows)])
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="x", alpha=0.3)


def bandwidth_chart(record, path):
    rows = [r for r in record["rows"] if r["unit"] == "GB/s" and r.get("pct_of_copy")]
    if not rows:
        return None
    libs = _present(rows)
    fig = _figure(len(rows))
    ax = fig.add_subplot()
    _bars(ax, rows, libs, lambda r, k: (r.get("pct_of_copy") or {}).get(k))
    ax.axvline(100, color="black", linewidth=1, linestyle="--")
    ceiling = record.get("copy_ceiling_gbps")
    ax.set_xlabel("% of the device-to-device copy bandwidth"
                  + (f" ({ceiling:.0f} GB/s, read + write)" if ceiling else "")
                  + "; higher is better")
    ax.set_title(_title(record, "Bandwidth"))
    fig.savefig(path, dpi=110)
    return path


def per_call_chart(record, path):
    rows = [r for r in record["rows"] if r["unit"] == "µs" and r.get("size") is None]
    if not rows:
        return None
    libs = _present(rows)
    fig = _figure(len(rows))
    ax = fig.add_subplot()
    _bars(ax, rows, libs, lambda r, k: r.get(k))
    ax.set_xlabel("µs per call (host clock around a loop of calls); lower is better")
    ax.set_title(_title(record, "Per-call time"))
    fig.savefig(path, dpi=110)
    return path


def scaling_chart(record, path):
    rows = sorted((r for r in record["rows"] if r.get("size")), key=lambda r: r["size"])
    if not rows:
        return None
    fig = _figure(8, width=7.5)
    ax = fig.add_subplot()
    for key, label, colour in _present(rows):
        pts = [(r["size"], r[key]) for r in rows if r.get(key) is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label, color=colour)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("elements per operand (float32)")
    ax.set_ylabel("µs per call; lower is better")
    ax.grid(which="both", alpha=0.3)
    ax.legend()
    ax.set_title(_title(record, rows[0]["name"].split(",")[0] + " by size"))
    fig.savefig(path, dpi=110)
    return path


def write_charts(record, directory):
    """Write every chart the record has rows for; return the paths written."""
    import matplotlib  # noqa: F401  (ImportError names the missing extra to the caller)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    charts = ((bandwidth_chart, "bandwidth.png"), (per_call_chart, "per_call.png"),
              (scaling_chart, "scaling.png"))
    return [p for chart, name in charts if (p := chart(record, directory / name)) is not None]
