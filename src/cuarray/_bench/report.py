"""The JSON record of a benchmark run and the markdown table printed from it.

The table is rendered from the record, so a saved record prints (and plots) the same
table later, on a machine without a GPU.
"""
import datetime
import json
import platform
import re
from pathlib import Path

from cuarray._bench.harness import fmt

# record key of each library's figure, by column label
_KEYS = {"cuarray": "cuarray", "CuPy": "cupy", "PyTorch": "torch"}


def copy_ceiling(results, ctx, libs):
    """The best device-to-device copy bandwidth of this run (GB/s), measuring it if needed."""
    if not any(r.bench.copy_pct for r in results):
        return None
    best = None
    for xp in libs.values():
        if xp is None:
            continue
        try:
            v = ctx.copy_gbps(xp)
        except Exception:
            continue
        best = v if best is None else max(best, v)
    return best


def make_record(results, ctx, libs, meta, now=None):
    """A JSON-ready dict: the run's metadata and one entry per row."""
    now = now or datetime.datetime.now()
    ceiling = copy_ceiling(results, ctx, libs)
    rows = []
    for r in results:
        b = r.bench
        row = {"group": b.group, "name": r.name, "unit": b.unit, "better": b.better,
               "size": b.size}
        for label, key in _KEYS.items():
            row[key] = r.figures.get(label)
        row["ratio"] = r.ratio
        row["ratio_torch"] = r.ratio_to("PyTorch")
        row["pct_of_copy"] = ({_KEYS[k]: 100 * v / ceiling for k, v in r.figures.items()
                               if v is not None} if b.copy_pct and ceiling else None)
        row["target"] = b.target.label(b.unit) if b.target else None
        row["status"] = r.status
        row["errors"] = r.errors
        rows.append(row)
    return {
        "date": now.isoformat(timespec="seconds"),
        "quick": ctx.quick,
        "buffer_bytes": ctx.big,
        "buffer_size": ctx.size,
        "copy_ceiling_gbps": ceiling,
        "libraries": [label for label, xp in libs.items() if xp is not None],
        **meta,
        "python": platform.python_version(),
        "rows": rows,
    }


def _cell(row, key):
    v = row.get(key)
    if v is None:
        return "error" if _label(key) in (row.get("errors") or {}) else "—"
    pct = (row.get("pct_of_copy") or {}).get(key)
    return f"{fmt(v)} ({pct:.0f}%)" if pct is not None else fmt(v)


def _label(key):
    return next(label for label, k in _KEYS.items() if k == key)


def _ratio(x):
    return f"{x:.2f}×" if x is not None else "—"


def markdown(record):
    """The record's rows as a markdown table (paste into RESULTS.md), then the errors."""
    libs = record.get("libraries") or ["cuarray", "CuPy"]
    # CuPy's column is always shown (the project's reference); PyTorch's when it ran
    keys = ["cuarray", "cupy"] + (["torch"] if "PyTorch" in libs else [])
    head = ["benchmark"] + [_label(k) for k in keys] + ["unit", "cuarray/CuPy"]
    head += ["cuarray/PyTorch"] if "torch" in keys else []
    head += ["better", "target", "result"]
    align = ["---"] + ["---:"] * len(keys) + ["---", "---:"] + (["---:"] if "torch" in keys else [])
    align += ["---", "---", "---"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    for row in record["rows"]:
        unit = row["unit"] + (" (% of copy)" if row.get("pct_of_copy") else "")
        cells = [row["name"]] + [_cell(row, k) for k in keys] + [unit, _ratio(row.get("ratio"))]
        cells += [_ratio(row.get("ratio_torch"))] if "torch" in keys else []
        cells += [row["better"], row.get("target") or "", row.get("status") or ""]
        lines.append("| " + " | ".join(cells) + " |")
    errors = [f"- {row['name']} ({lib}): {msg}" for row in record["rows"]
              for lib, msg in (row.get("errors") or {}).items()]
    if errors:
        lines += ["", "Errors:", *errors]
    return "\n".join(lines)


def heading(record):
    """The line above the table: date, GPU, versions, buffer size."""
    skip = {"date", "quick", "buffer_bytes", "buffer_size", "copy_ceiling_gbps", "libraries",
            "rows", "gpu", "python"}
    date = record["date"].replace("T", " ")[:16]
    parts = [date, str(record.get("gpu"))]
    parts += [f"{k} {v}" for k, v in record.items() if k not in skip and v is not None]
    parts.append(f"buffers {record.get('buffer_size')}" + (" (quick)" if record.get("quick") else ""))
    return ", ".join(parts)


def print_record(record, out=print):
    out("\n" + heading(record))
    if record.get("copy_ceiling_gbps"):
        out(f"device-to-device copy ceiling: {fmt(record['copy_ceiling_gbps'])} GB/s (read + write)")
    out("")
    out(markdown(record))


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "gpu"


def write_record(record, path):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path


def read_record(path):
    record = json.loads(Path(path).read_text())
    if not isinstance(record, dict) or not isinstance(record.get("rows"), list):
        raise ValueError(f"{path} is not a benchmark record (no 'rows' list)")
    return record
