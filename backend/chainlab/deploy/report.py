"""Results of a deployment: statistics per scenario against the prediction, the PTTS system re-analysed with the
measured chain ETP, plots (CDF and PMF, PNG and SVG) and one self-contained HTML report."""

from __future__ import annotations

import html
import io
import json
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from chainlab.deploy.diagnosis import diagnose
from chainlab.deploy.experiment import Deployment
from chainlab.errors import ChainlabError
from chainlab.run.calibration import load_calibration
from chainlab.run.stats import (
    ks_distance,
    latency_histogram_ms,
    latency_stats,
    measured_etp,
    pmf_quantile,
    pmf_stats,
    read_latencies,
)
from chainlab.run.trace import read_trace, task_summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

QUANTILES = (50, 90, 99, 99.9)


def _ptts_with(ir: dict[str, Any], chain: str, counts: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Every PTTS chain whose component runs this box chain, analysed exactly with the measured ETP."""
    from chainlab.ptts.api import analyze

    total = sum(n for _, n in counts)
    etp = [(v, n / total) for v, n in counts]
    out = []
    for p in ir.get("ptts", []):
        if not any((c.get("etp") or {}).get("chain") == chain for c in p["components"]):
            continue
        comp = next(c for c in p["components"] if (c.get("etp") or {}).get("chain") == chain)
        if etp and comp.get("period_ns") and max(v for v, _ in etp) > comp["period_ns"]:
            # an overloaded run's backlog is no execution-time profile; analysing it would also take too long
            out.append(
                {"ptts": p["name"], "error": f"the measured latency exceeds {comp['name']}'s period: not analysed"}
            )
            continue
        grid = int(p.get("resolution_ns") or 1_000_000)  # measured ns values onto the analysis grid (rounded up)
        on_grid: dict[int, float] = {}
        for v, q in etp:
            on_grid[-(-v // grid) * grid] = on_grid.get(-(-v // grid) * grid, 0.0) + q
        points = sorted(on_grid.items())

        def resolve(name: str, points: list[tuple[int, float]] = points) -> list[tuple[int, float]]:
            return points if name == chain else []

        try:
            r = analyze(p, resolve_chain=resolve, max_trees=100_000, max_operations=20_000_000)
            out.append(
                {
                    "ptts": p["name"],
                    "mean_ms": r["mean_ms"],
                    "p99_ms": r["percentiles"]["99"],
                    "max_ms": r["max_ms"],
                    "loss": r["loss_probability"],
                    "requirements": r["requirements"],
                }
            )
        except ChainlabError as e:
            out.append({"ptts": p["name"], "error": str(e)})
    return out


def source_period_ns(ir: dict[str, Any], chain: str) -> int | None:
    """The release period of a chain: its source box's period (None when free-running)."""
    boxes = {b["name"]: b for b in ir.get("boxes", [])}
    ch = next((c for c in ir.get("chains", []) if c["name"] == chain), None)
    periods = [
        boxes[i["box"]].get("source_period_ns") for i in (ch or {}).get("instances", []) if i.get("box") in boxes
    ]
    return next((p for p in periods if p), None)


def overloaded(lat: np.ndarray, period_ns: int | None) -> bool:
    """A chain released every period that cannot keep up builds a backlog: its latency grows through the run.
    Growth of more than one period between the first and the last tenth of the iterations says so."""
    if not period_ns or lat.size < 20:
        return False
    tenth = lat.size // 10
    return float(np.median(lat[-tenth:]) - np.median(lat[:tenth])) > period_ns


def results(dep: Deployment, ir: dict[str, Any], predicted: list[tuple[int, float]]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    base_mean = None
    period = source_period_ns(ir, dep.chain)
    for s in dep.scenarios:
        csv = Path(s.local_dir) / "latencies.csv"
        lat = read_latencies(csv) if csv.exists() else np.zeros(0, dtype=np.int64)
        stats = latency_stats(lat)
        row: dict[str, Any] = {
            "scenario": s.scenario,
            "dir": s.local_dir,
            "status": s.status,
            "completed": s.completed,
            "iterations": s.iterations,
            "checksum": s.checksum,
            "measured": stats,
            "be_bytes_per_s": s.be_bytes_per_s,
            "throttle": s.throttle,
            "error": s.error,
            "overloaded": overloaded(lat, period),
        }
        if stats.get("samples"):
            if s.scenario == "baseline":
                base_mean = stats["mean_ns"]
            row["ks"] = ks_distance(lat, predicted) if predicted else None
            row["quantiles_ms"] = {
                str(q): {
                    "measured": float(np.percentile(lat, q)) / 1e6,
                    "predicted": pmf_quantile(predicted, q / 100) / 1e6 if predicted else None,
                }
                for q in QUANTILES
            }
            row["etp"] = measured_etp(lat)  # [ns, count]: what the editor writes as `etp pmf { … }`
            row["histogram_ms"] = latency_histogram_ms(lat)
            row["ptts"] = _ptts_with(ir, dep.chain, row["etp"])
        trace = read_trace(Path(s.local_dir) / "tasks.csv")
        if trace is not None:
            row["tasks"] = task_summary(trace, dep.threads)
        rows.append(row)
    for row in rows:
        if base_mean and row["measured"].get("samples"):
            row["increase_pct"] = 100 * (row["measured"]["mean_ns"] / base_mean - 1)
    checksums = {r["checksum"] for r in rows if r["checksum"]}
    res = {
        "chain": dep.chain,
        "target": dep.target,
        "scenarios": rows,
        "checksums_equal": len(checksums) <= 1,
        "predicted": {"points": predicted, "stats": pmf_stats(predicted)},
        "phases_s": dep.phases_s,
        "calibration": dep.calibration,
    }
    if dep.plan:
        res["plan"] = dep.plan
    res["diagnosis"] = diagnose(res, dep.calibrated, _calibrated_p50(dep))
    return res


def _calibrated_p50(dep: Deployment) -> dict[str, float]:
    """Each sub-box's median time in the calibration run the prediction used (none without one)."""
    if not dep.calibration or not Path(dep.calibration).exists():
        return {}
    cal = load_calibration(Path(dep.calibration), dep.chain, dep.target)
    if cal is None or not cal.durations_ns:
        return {}
    medians = np.median(np.asarray(cal.durations_ns, dtype=float), axis=0)
    return dict(zip(cal.sub_boxes, (float(m) for m in medians)))


def _cell(value: float | None, width: int, spec: str) -> str:
    """A number of the table, or '-' where there is none (no best-effort work, no ptts, no prediction)."""
    if value is None or value != value:  # None or NaN
        return f"{'-':>{width}}"
    return f"{value:{width}{spec}}"


def summary_table(res: dict[str, Any]) -> str:
    head = (
        f"{'scenario':10} {'mean ms':>8} {'sigma':>7} {'p50':>8} {'p99':>8} {'max':>8} {'+mean%':>7} {'KS':>5} "
        f"{'BE GB/s':>7} {'susp%':>6} {'e2e p99':>8} {'loss':>8}  iterations"
    )
    lines = [head, "-" * len(head)]
    for r in res["scenarios"]:
        m = r["measured"]
        if not m.get("samples"):
            lines.append(
                f"{r['scenario']:10} no iteration measured ({r['status']}"
                f"{': ' + r['error'][:200] if r.get('error') else ''})"
            )
            continue
        susp = "-"
        t = r.get("throttle")
        if t and t.get("wall_ns") and t.get("cores"):
            susp = f"{100 * sum(c['suspended_ns'] for c in t['cores']) / (t['wall_ns'] * len(t['cores'])):.1f}"
        e2e = next((p for p in r.get("ptts", []) if "p99_ms" in p), None)
        be = r["be_bytes_per_s"] / 1e9 if r.get("be_bytes_per_s") else None
        lines.append(
            f"{r['scenario']:10} {m['mean_ns'] / 1e6:8.3f} {m['std_ns'] / 1e6:7.3f} {m['p50_ns'] / 1e6:8.3f} "
            f"{m['p99_ns'] / 1e6:8.3f} {m['max_ns'] / 1e6:8.3f} {r.get('increase_pct', 0):+7.1f} "
            f"{_cell(r.get('ks'), 5, '.2f')} {_cell(be, 7, '.2f')} {susp:>6} "
            f"{_cell(e2e and e2e['p99_ms'], 8, '.2f')} {_cell(e2e and e2e['loss'], 8, '.2g')}  "
            f"{r['completed']}/{r['iterations']}" + ("" if r["status"] == "ok" else f" {r['status'].upper()}")
        )
    if not res["checksums_equal"]:
        lines.append("WARNING: the scenarios computed different checksums")
    if res.get("diagnosis"):
        lines += ["", "what the numbers say:", *(f"  - {line}" for line in res["diagnosis"])]
    for r in res["scenarios"]:
        if r.get("overloaded"):
            lines.append(
                f"OVERLOADED in {r['scenario']}: the latency grew through the run (a backlog): the chain needs more "
                "than one source period per frame on these cores; the numbers measure the backlog, not the chain"
            )
    return "\n".join(lines)


def _figure(res: dict[str, Any], kind: str, requirements_ms: list[float]) -> tuple[Figure, ModuleType]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for r in res["scenarios"]:
        csv = Path(r.get("dir", "")) / "latencies.csv"
        lat = np.sort(read_latencies(csv)) / 1e6 if csv.exists() else np.zeros(0)
        if lat.size == 0:
            continue
        if kind == "cdf":
            ax.step(lat, np.arange(1, lat.size + 1) / lat.size, where="post", label=f"{r['scenario']} (measured)")
        else:
            ax.hist(
                lat,
                bins=min(60, max(5, lat.size // 10)),
                density=True,
                histtype="step",
                label=f"{r['scenario']} (measured)",
            )
    pts = res["predicted"]["points"]
    if pts:
        xs = [p[0] / 1e6 for p in pts]
        if kind == "cdf":
            ax.step(xs, np.cumsum([p[1] for p in pts]), where="post", linestyle="--", color="black", label="predicted")
    for bound in requirements_ms:
        ax.axvline(bound, color="red", linestyle=":", label=f"requirement {bound:g} ms")
    ax.set_xlabel("latency (ms)")
    ax.set_ylabel("P(latency <= x)" if kind == "cdf" else "density")
    ax.set_title(f"{res['chain']} on {res['target']}: {'CDF' if kind == 'cdf' else 'PMF'}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig, plt


def write_report(res: dict[str, Any], ir: dict[str, Any], out: Path) -> list[Path]:
    """results.json, cdf/pmf as PNG and SVG, and report.html (self-contained: inline SVG, no external resources)."""
    chain: dict[str, Any] = next((c for c in ir.get("chains", []) if c["name"] == res["chain"]), {})
    bounds = [r["bound_ns"] / 1e6 for r in chain.get("requirements", []) if r.get("bound_ns")]
    files = [out / "results.json"]
    (out / "results.json").write_text(json.dumps(res, indent=1))
    svgs = {}
    for kind in ("cdf", "pmf"):
        fig, plt = _figure(res, kind, bounds)
        for ext in ("png", "svg"):
            fig.savefig(out / f"{kind}.{ext}", dpi=120)
            files.append(out / f"{kind}.{ext}")
        buf = io.StringIO()
        fig.savefig(buf, format="svg")
        svgs[kind] = buf.getvalue()[buf.getvalue().find("<svg") :]
        plt.close(fig)
    rows = []
    for r in res["scenarios"]:
        m = r["measured"]
        q = r.get("quantiles_ms", {})
        e2e: dict[str, Any] = next((p for p in r.get("ptts", []) if "p99_ms" in p), {})
        status = r["status"] + (" — OVERLOADED (latency grew through the run)" if r.get("overloaded") else "")
        cells = [r["scenario"], status, f"{r['completed']}/{r['iterations']}"]
        if m.get("samples"):
            cells += [
                f"{m['mean_ns'] / 1e6:.3f}",
                f"{m['std_ns'] / 1e6:.3f}",
                f"{m['p99_ns'] / 1e6:.3f}",
                f"{m['max_ns'] / 1e6:.3f}",
                f"{r.get('increase_pct', 0):+.1f}",
                _cell(r.get("ks"), 0, ".3f"),
                " / ".join(
                    f"{k}: {v['measured']:.2f} vs {v['predicted']:.2f}"
                    if v["predicted"] is not None
                    else f"{k}: {v['measured']:.2f}"
                    for k, v in q.items()
                ),
                f"{r['be_bytes_per_s'] / 1e9:.2f}" if r.get("be_bytes_per_s") else "-",
                f"{_cell(e2e.get('p99_ms'), 0, '.2f')} ms, loss {_cell(e2e.get('loss'), 0, '.2g')}" if e2e else "-",
            ]
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    head = [
        "scenario",
        "status",
        "iterations",
        "mean ms",
        "σ ms",
        "p99 ms",
        "max ms",
        "+mean %",
        "KS",
        "quantiles ms (measured vs predicted)",
        "BE GB/s",
        "end-to-end (PTTS, measured ETP)",
    ]
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>chainlab: {html.escape(res["chain"])} on {html.escape(res["target"])}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}\
td,th{{border:1px solid #ccc;padding:4px 8px;font-size:13px}}</style>
</head><body>
<h1>{html.escape(res["chain"])} on {html.escape(res["target"])}</h1>
<p>Checksums equal across scenarios: {res["checksums_equal"]}. \
Phases (s): {html.escape(json.dumps(res["phases_s"]))}</p>
<table><tr>{"".join(f"<th>{html.escape(h)}</th>" for h in head)}</tr>{"".join(rows)}</table>
<h2>What the numbers say</h2><ul>{"".join(f"<li>{html.escape(line)}</li>" for line in res.get("diagnosis", []))}</ul>
<h2>CDF</h2>{svgs["cdf"]}
<h2>PMF</h2>{svgs["pmf"]}
</body></html>
"""
    (out / "report.html").write_text(page)
    files.append(out / "report.html")
    return files
