"""Benchmark harness shared by `python -m cuarray bench` and the developers' `python -m benchmarks`.

`harness` times rows and keeps the registry, `report` prints the table and writes the JSON
record, `plot` draws charts from a record, `suite` holds the groups that ship with the
package and `cli` is the command line of both fronts.
"""
