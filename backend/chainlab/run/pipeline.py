"""Running a chain on a target: connect → preflight → prepare (plan, calibrate, pin, generate, build) → a session
of its scenarios → one RunReport (report.json, report.html, plots). `chainlab run`, `chainlab deploy`, the
editor's *Run on target* and the heuristics experiment all run chains through `run_chain`.

A local target runs in the run's own folder; an ssh target in a dated folder under its root, each scenario's
files fetched as soon as it ends. Whatever ends the run (an error, a lost connection, Ctrl-C), what was measured
until then is kept and reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chainlab.deploy.names import check_name, check_target
from chainlab.deploy.preflight import Preflight, preflight
from chainlab.deploy.targets import open_transport, resolve_target, target_root
from chainlab.deploy.transport import TransportError
from chainlab.errors import FileSystemError, ModelError, RunError
from chainlab.files import resolved, write_atomic
from chainlab.finite_json import dumps
from chainlab.ir import find_chain
from chainlab.run.build import content_hash
from chainlab.run.interrupt import interrupted
from chainlab.run.options import RunOptions
from chainlab.run.prepare import Prepared, prepare, write_prediction
from chainlab.run.report import RunReport, fill_results
from chainlab.run.report_files import write_report
from chainlab.run.report_text import summary_text
from chainlab.run.scenarios import SCENARIOS, daemon_args
from chainlab.run.session import OnTarget, ScenarioRun, recover, run_scenario
from chainlab.run.target_build import build_on_target, tool_files

TOOLS = ["build/throttle/chainlab-throttle", "build/throttle/chainlab-hog"]


class _Phases:
    """Wall time of each phase of the run, in seconds (a phase entered twice adds up)."""

    def __init__(self, into: dict[str, float]):
        self.times, self.t0 = into, time.monotonic()

    def __call__(self, name: str) -> None:
        now = time.monotonic()
        self.times[name] = round(self.times.get(name, 0) + now - self.t0, 3)
        self.t0 = now


def checked_target(ir: dict[str, Any], chain: str, options: RunOptions) -> dict[str, Any]:
    """The target, refused before anything connects when a name is unsafe or the scenarios need what it lacks."""
    check_name(chain, "chain name")
    target = resolve_target(ir, options.target)
    check_target(target)
    unknown = [s for s in options.scenarios if s not in SCENARIOS]
    if unknown or not options.scenarios:
        raise ModelError(f"unknown scenario {', '.join(unknown) or '(none)'}: choose from {', '.join(SCENARIOS)}")
    if set(options.scenarios) - {"baseline"} and not target.get("be_cores"):
        raise ModelError(
            f"target {target['name']}: congested and throttled scenarios need be-cores",
            target.get("loc"),
            f"target {target['name']}",
        )
    if "throttled" in options.scenarios:
        daemon_args(ir, target, [])  # a missing throttle is refused before anything connects
    return target


#: What a run writes into a scenario's folder: a rerun into the same folder removes them first, so that a file
#: this run fails to write is missing rather than the previous run's.
SCENARIO_FILES = ("latencies.csv", "run.json", "tasks.csv", "throttle-trace.csv", "throttle-args.txt", "hog.shm")


def _out_dir(chain: str, target: dict[str, Any], options: RunOptions, stamp: str) -> Path:
    """The run's folder here, cleared of what a previous run in it left that this one writes again."""
    out = resolved(options.out_dir or options.runs_root / f"{stamp}-{chain}-{target['name']}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        for stale in ("pids", "logs"):
            shutil.rmtree(out / stale, ignore_errors=True)
        (out / "done").unlink(missing_ok=True)
        for scenario in options.scenarios:
            for name in SCENARIO_FILES:
                (out / scenario / name).unlink(missing_ok=True)
    except OSError as error:
        raise FileSystemError(error, "the run's folder cannot be used:") from error
    return out


def run_chain(ir: dict[str, Any], chain: str, options: RunOptions) -> RunReport:
    """Run `chain` of the model on `options.target` in `options.scenarios` and report measured against predicted
    latency.

    Parameters
    ----------
    ir : dict
        The validated model.
    chain : str
        The chain to run.
    options : RunOptions
        Where and how (see RunOptions).

    Returns
    -------
    RunReport
        Also written as report.json beside report.html and the plots in the run's folder.
    """
    return asyncio.run(_run_chain(ir, chain, options))


async def _run_chain(ir: dict[str, Any], chain: str, options: RunOptions) -> RunReport:
    target = checked_target(ir, chain, options)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = _out_dir(chain, target, options, stamp)
    write_atomic(out / "model.ir.json", dumps(ir, indent=1))
    iterations = options.iterations or int(find_chain(ir, chain).get("iterations") or 1000)
    report = RunReport("failed", chain, target["name"], target["kind"], str(out), iterations=iterations)
    phase = _Phases(report.phases_s)
    options.log(f"connecting to {target['name']} ({target['kind']})")
    transport = await open_transport(target, options.model_file or "FILE")
    phase("connect")
    on = OnTarget(transport, target, ir, options.model_file or "FILE", "", "", "", iterations, 0)
    on.chain_args = options.chain_args
    prepared: Prepared | None = None
    runs: list[ScenarioRun] = []
    pre_lines: list[str] = []
    error: BaseException | None = None
    try:
        root = await target_root(transport, target)
        on.run_dir = str(out) if target["kind"] == "local" else f"{root}/runs/{stamp}-{chain}"
        pre_lines = [*transport.notes, *await _preflight(on, root, options, report, out)]
        phase("preflight")
        cores = list(target.get("rt_cores") or range(int(report.preflight["facts"].get("cores") or 1)))
        await on.transport.keepalive(on.run_dir)
        report.remote_dir = on.run_dir
        prepared = await prepare(on, chain, cores, root, options, out)
        await _prepare_tools(on, root, options, out)
        phase("prepare")
        await _scenarios(on, options, out, phase, runs)
        await on.transport.finish(on.run_dir)
    except TransportError as e:
        error = RunError(f"{e.message}\nwhat was measured before is kept in {out}")
    except BaseException as e:  # Ctrl-C, a failed build, ...: what was measured is still reported
        error = e
    await _close(on, phase)
    if prepared is not None:
        try:
            _finish_report(report, prepared, runs, on, out, pre_lines)
        except Exception:
            if error is None:
                raise
    if error is not None:
        raise error
    return report


async def _close(on: OnTarget, phase: _Phases) -> None:
    if on.run_dir:
        with contextlib.suppress(TransportError):  # the connection is gone: the target's watchdog stops the run
            await on.transport.cleanup(on.run_dir)
    await on.transport.close()
    phase("cleanup")


async def _preflight(on: OnTarget, root: str, options: RunOptions, report: RunReport, out: Path) -> list[str]:
    """The target's checklist; the lines worth printing (what is missing or falls back)."""
    pre: Preflight = await preflight(on.transport, on.target, root, need_throttle="throttled" in options.scenarios)
    report.preflight = pre.to_json()
    on.has_pmu = pre.has_pmu
    write_atomic(out / "preflight.json", dumps(report.preflight, indent=1))
    options.log(pre.text())
    if not pre.ok:
        raise RunError(f"the target {on.target['name']} lacks essentials:\n{pre.text()}")
    text = pre.text().splitlines()
    notable = [ln for ln in text[1:] if "[ok]" not in ln and "[info]" not in ln]
    return [text[0], *notable] if notable else []


async def _prepare_tools(on: OnTarget, root: str, options: RunOptions, out: Path) -> None:
    """The throttler and the hog built there, and the throttler's calibration, when a scenario needs them."""
    if not set(options.scenarios) - {"baseline"}:
        return
    files = tool_files()
    on.tools = f"{root}/tools/{content_hash(files)}"
    await build_on_target(
        on.transport, files, on.tools, "throttler", out / "tools", TOOLS, ["chainlab-throttle", "chainlab-hog"]
    )
    if "throttled" in options.scenarios:
        be0 = str((on.target.get("be_cores") or [0])[0])
        done = await on.transport.run(
            ["taskset", "-c", be0, f"{on.tools}/build/throttle/chainlab-throttle", "--calibrate"]
        )
        on.throttle_calib = json.loads(done.stdout)


async def _scenarios(on: OnTarget, options: RunOptions, out: Path, phase: _Phases, runs: list[ScenarioRun]) -> None:
    """Each scenario in turn into `runs` (kept whatever ends the session) until one does not end ok; a lost
    connection is recovered from once."""
    names = options.scenarios
    done = options.calibration_share(on.iterations)  # the calibration run's part of the bar
    for k, name in enumerate(names):
        if interrupted():
            options.log(f"interrupted: scenario {name} and later ones not run")
            break
        options.log(f"scenario {name}")

        def sub(fraction: float, message: str, k: int = k, name: str = name) -> None:
            if options.progress is not None:
                options.progress(done + (1 - done) * (k + fraction) / len(names), f"{name}: {message}")

        try:
            runs.append(await run_scenario(on, name, out / name, sub))
        except TransportError as e:
            options.log(f"connection lost during {name}: reconnecting to stop the run and fetch what it measured")
            why: list[str] = []
            recovered = await recover(on, name, out / name, e.message, why)
            if recovered is None:
                runs.append(ScenarioRun(name, "partial", str(out / name), iterations=on.iterations, error=e.message))
                raise TransportError(
                    f"{e.message}; could not reconnect ({why[-1] if why else 'no answer'}): "
                    "the target's watchdog stops the run"
                ) from None
            runs.append(recovered)
            raise TransportError(
                f"{e.message}; reconnected, stopped the run and fetched the {recovered.completed} iterations "
                f"scenario {name} had measured (partial)"
            ) from None
        finally:
            phase(f"run {name}")
        if runs[-1].status != "ok":
            break


def _finish_report(
    report: RunReport, prepared: Prepared, runs: list[ScenarioRun], on: OnTarget, out: Path, pre_lines: list[str]
) -> None:
    """The report of what ran (also after an error: what was measured is kept), written to the run's folder."""
    from chainlab.plan import plan_to_json

    report.period_ns = on.period_ns
    report.plan = plan_to_json(prepared.pinned)
    report.cached_build = prepared.cached_build
    report.calibrated = prepared.calibration is not None
    report.calibration = str(prepared.calibration_file) if prepared.calibration_file else None
    write_prediction(prepared, out)
    report.files = [str(out / "plan.json"), str(out / "predicted.csv")]
    threads = {s.name: prepared.pinned.mapping.thread_of[s.id] for s in prepared.pinned.inst.subs}
    fill_results(report, runs, on.ir, prepared.prediction, prepared.calibration, threads)
    if not runs:
        report.status = "failed"
    report.summary = summary_text(report, pre_lines)
    write_report(report, on.ir, out)
