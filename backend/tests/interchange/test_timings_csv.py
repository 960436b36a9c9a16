"""Reading a timings CSV: both layouts, every way to give the unit, and each refusal with its file and row."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from chainlab.files import UserFileError
from chainlab.interchange.timings_csv import MAX_NS, TimingsRefused, read_timings


def csv_file(tmp_path: Path, text: str, name: str = "times.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path, names: list[str] | None = None) -> str:
    with pytest.raises(TimingsRefused) as caught:
        read_timings(path, names)
    return str(caught.value)


def test_one_row_per_sample_with_the_unit_in_the_header(tmp_path: Path) -> None:
    table = read_timings(csv_file(tmp_path, "box,time_ms\nGain,1.5\nGain,2\nConv,3.25\nGain,1.5\n"))
    assert table.layout == "samples" and table.rows == 4
    assert table.columns == {"name": "box", "time": "time_ms", "count": None, "unit": None}
    gain, conv = table.timings
    assert (gain.name, gain.samples, gain.first_row, gain.unit) == ("Gain", 3, 2, "ms")
    assert gain.stats == {
        "mean_ns": 1666667,
        "median_ns": 1500000,
        "p90_ns": 2000000,
        "p99_ns": 2000000,
        "min_ns": 1500000,
        "max_ns": 2000000,
    }
    assert gain.bins == [("1.5", 2), ("2", 1)] and gain.bin_ns is None
    assert (conv.first_row, conv.bins) == (4, [("3.25", 1)])


def test_one_row_per_bin_with_a_unit_column_semicolons_and_micro_signs(tmp_path: Path) -> None:
    path = csv_file(tmp_path, "Task;Time;Count;Unit\nA;10;3;µs\nA;12;1;us\nB;1.5e3;2;ns\nA;10;0;μs\n")
    table = read_timings(path, ["A", "B"])
    assert table.layout == "bins" and table.rows == 4
    a, b = table.timings
    assert (a.samples, a.unit, a.bins, a.stats["mean_ns"], a.stats["p90_ns"]) == (
        4,
        "us",
        [("10", 3), ("12", 1)],
        10500,
        12000,
    )
    assert (b.samples, b.unit, b.bins, b.stats["min_ns"]) == (2, "ns", [("1500", 2)], 1500)


@pytest.mark.parametrize(
    ("header", "ns"),
    [
        ("component,time [us]", 2500),
        ("name,duration (ns)", 3),
        ("NAME,Time µs", 2500),
        ("task,latency_sec", 2_500_000_000),
        ("box,time in ms", 2_500_000),
        ("box,time/usec", 2500),
    ],
)
def test_the_unit_in_the_header(tmp_path: Path, header: str, ns: int) -> None:
    value = "3" if "(ns)" in header else "2.5"
    (timings,) = read_timings(csv_file(tmp_path, f"{header}\nX,{value}\n")).timings
    assert timings.stats["max_ns"] == ns


def test_exact_decimals_and_sub_ns_rounding(tmp_path: Path) -> None:
    path = csv_file(tmp_path, "box,time_ms\nA,0.0000005\nA,0.0000015\nA,1e-3\nA,+2.50E1\nA,.5\n")
    (a,) = read_timings(path).timings
    assert sorted(int(b[0].replace(".", "")) for b in a.bins)  # decimals, not floats
    assert a.stats["min_ns"] == 0 and a.stats["max_ns"] == 25_000_000  # 0.5 ns → 0, 1.5 ns → 2 (half to even)
    assert [b[0] for b in a.bins] == ["0", "0.000002", "0.001", "0.5", "25"]


def test_many_distinct_times_make_at_most_50_bins_of_a_1_2_5_width(tmp_path: Path) -> None:
    rows = "".join(f"G,{1000 + i}\n" for i in range(1000))  # 1000..1999 us
    (g,) = read_timings(csv_file(tmp_path, "box,time_us\n" + rows)).timings
    assert g.bin_ns == 50_000 and len(g.bins) <= 50
    assert g.bins[0] == ("1000", 1) and g.bins[1] == ("1050", 50) and g.bins[-1] == ("2000", 49)
    assert sum(count for _, count in g.bins) == 1000
    assert g.stats["median_ns"] == 1_499_000 and g.stats["p99_ns"] == 1_989_000


def test_blank_lines_comments_and_a_byte_order_mark_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes("\ufeff# exported by a scope\nbox,time_ns\n\nA,5\n# pause\nA,7\n".encode())
    (a,) = read_timings(path).timings
    assert (a.samples, a.first_row) == (2, 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("box,time\nA,1\n", "t.csv:1: no unit: name it in the header"),
        ("box,time,unit\nA,1,\n", "t.csv:2: no unit on this row"),
        ("box,time,unit\nA,1,min\n", "t.csv:2: unknown unit 'min'"),
        ("box,time_ms,unit\nA,1,us\n", "t.csv:2: the unit column says us, the header ms"),
        ("box,time_ms\nA,1\nA,-2\n", "t.csv:3: time '-2' is negative"),
        ("box,time_ms\nA,abc\n", "t.csv:2: time 'abc' is not a number"),
        ('box,time_ms\nA,"1,5"\n', "t.csv:2: time '1,5' is not a number"),
        ("box;time_ms\nA;1,5\n", "t.csv:2: time '1,5' is not a number"),
        ("box,time_ms\nA,NaN\n", "t.csv:2: time 'NaN' is not finite"),
        ("box,time_ms\nA,inf\n", "t.csv:2: time 'inf' is not finite"),
        ("box,time_ms\nA,\n", "t.csv:2: no time in this row"),
        ("box,time_ms\nA,1,2\n", "t.csv:2: 3 field(s), the header has 2"),
        ("box,time_ms\n,1\n", "t.csv:2: no name in the box column"),
        ("box,time_ms,count\nA,1,2.5\n", "t.csv:2: count '2.5' is not a whole number"),
        ("box,time_ms,count\nA,1,-1\n", "t.csv:2: count '-1' is negative"),
        ("box,time_ms,count\nA,1,0\n", "t.csv:2: every count of 'A' is 0"),
        ("what,time_ms\nA,1\n", "t.csv:1: no name column in the header (what, time_ms)"),
        ("box,when\nA,1\n", "t.csv:1: no time column"),
        ("box,time_ms,duration_ms\nA,1,2\n", "t.csv:1: two time columns in the header: 'time_ms' and 'duration_ms'"),
        ("box,time_ms\n", "t.csv:1: no data rows after the header"),
        ("", "t.csv: empty: no header row"),
        ("# only a comment\n\n", "t.csv: empty: no header row"),
        (f"box,time_ns\nA,{MAX_NS + 1}\n", "t.csv:2: time '9007199254740992 ns' is longer than 2^53 - 1 ns"),
    ],
)
def test_refusals_name_the_file_and_row(tmp_path: Path, text: str, message: str) -> None:
    path = csv_file(tmp_path, text, "t.csv")
    assert refusal(path).startswith(f"{tmp_path}/{message}")


def test_an_unknown_name_is_refused_with_its_row_and_the_closest_name(tmp_path: Path) -> None:
    path = csv_file(tmp_path, "box,time_ms\nGain,1\nConv,2\nGian,3\n")
    assert refusal(path, ["Gain", "Conv"]) == (
        f"{path}:4: unknown name 'Gian' (the model has: Conv, Gain); did you mean 'Gain'?"
    )


def test_not_utf8_is_refused_with_its_row(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(b"box,time_us\nA,1\nB\xb5,2\n")
    assert refusal(path) == f"{path}:3: not UTF-8 text (save the CSV as UTF-8)"


def test_missing_file_and_folder_are_the_readers_refusals(tmp_path: Path) -> None:
    with pytest.raises(UserFileError):
        read_timings(tmp_path / "none.csv")
    with pytest.raises(UserFileError):
        read_timings(tmp_path)


def test_two_million_rows_in_seconds(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    names = ["Source", "Conv", "Gain", "Mul", "Out"]
    with path.open("w") as f:
        f.write("box,time [us]\n")
        f.writelines(f"{names[i % 5]},{1000 + (i * 7919) % 4000}.{i % 10}\n" for i in range(2_000_000))
    start = time.perf_counter()
    table = read_timings(path, names)
    elapsed = time.perf_counter() - start
    assert table.rows == 2_000_000 and [t.samples for t in table.timings] == [400_000] * 5
    assert all(len(t.bins) <= 50 for t in table.timings)
    assert elapsed < 30, f"2 M rows took {elapsed:.1f} s"  # about 3 s on a 2-core machine
