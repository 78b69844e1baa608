"""Turn one run's table in benchmarks/RESULTS.md into a JSON record that `python -m cuarray
bench --from FILE --plot DIR` can print and chart (for runs made before records were kept).

Usage: python tools/results_to_record.py HEADING_TEXT OUT.json [--gpu NAME]
HEADING_TEXT is a piece of the run's `###` heading; rows whose cells hold several figures
("a / b") are left out.
"""
import argparse
import json
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "RESULTS.md"
_FIGURE = re.compile(r"^\s*([0-9.]+)\s*(?:\((\d+)%\))?\s*$")


def _section(text, heading):
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("###") and heading in l)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return lines[start], lines[start + 1:end]


def record_from_results(heading, gpu=None, text=None):
    title, lines = _section(text or RESULTS.read_text(), heading)
    rows = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or cells[0] in ("benchmark", "---") or cells[1].startswith("---"):
            continue
        a, b = _FIGURE.match(cells[1]), _FIGURE.match(cells[2])
        if not a or not b:
            continue
        unit = cells[3]
        pct = ({"cuarray": float(a.group(2)), "cupy": float(b.group(2))}
               if a.group(2) and b.group(2) else None)
        ca, cu = float(a.group(1)), float(b.group(1))
        rows.append({"group": "results", "name": cells[0], "unit": unit,
                     "better": "lower" if unit in ("µs", "ms", "s") else "higher",
                     "size": None, "cuarray": ca, "cupy": cu, "torch": None,
                     "ratio": ca / cu if cu else None, "ratio_torch": None,
                     "pct_of_copy": pct, "target": None, "status": "", "errors": {}})
    when = re.search(r"(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?", title)
    date = f"{when.group(1)}T{when.group(2) or '00:00'}:00" if when else ""
    return {"date": date, "quick": False,
            "buffer_size": "1 GiB", "copy_ceiling_gbps": None,
            "libraries": ["cuarray", "CuPy"], "gpu": gpu or title.split("—")[-1].split(",")[0].strip(),
            "source": "benchmarks/RESULTS.md, run of " + _when(title), "rows": rows}


def _when(title):
    """The run's date and time from its heading (the heading's prose stays in RESULTS.md)."""
    m = re.search(r"\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2})?", title)
    return m.group(0) if m else "unknown date"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("heading")
    p.add_argument("out")
    p.add_argument("--gpu")
    args = p.parse_args(argv)
    rec = record_from_results(args.heading, args.gpu)
    Path(args.out).write_text(json.dumps(rec, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(rec['rows'])} rows -> {args.out}")


if __name__ == "__main__":
    main()
