"""`chainlab deploy`: one experiment on a target (this machine or a lab machine over SSH).

connect → preflight → plan and generate here → upload and build there (content-hash cache) → calibrate when
asked → each scenario (baseline, congested, throttled) → collect → statistics, prediction, report.

Everything started on the target goes through Transport.start and is stopped by Transport.cleanup in a finally;
a remote watchdog stops the run when this controller vanishes. Each scenario's files are collected as soon as it
ends, so a broken connection loses at most the scenario in flight (reported as partial).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import struct
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chainlab.codegen import generate_project, write_project
from chainlab.deploy.names import check_name, check_target
from chainlab.deploy.preflight import Preflight, preflight
from chainlab.deploy.targets import resolve_target
from chainlab.deploy.transport import LocalTransport, RemoteProcess, Transport, TransportError
from chainlab.errors import ChainlabError, ModelError
from chainlab.files import resolved
from chainlab.ir import find_chain
from chainlab.plan import (
    RUN_PREDICTION_DRAWS,
    PlanOptions,
    pin_threads,
    plan_for_cores,
    plan_to_json,
    predict_latency,
)
from chainlab.progress import ProgressFn
from chainlab.resources import runtime_sources
from chainlab.run.build import content_hash, default_cache
from chainlab.run.calibration import (
    apply_calibration,
    calibration_from_trace,
    calibration_path,
    load_calibration,
    measured_costs,
    save_calibration,
)
from chainlab.run.interrupt import interrupted
from chainlab.run.scenarios import HOG_BYTES, SCENARIOS, daemon_args
from chainlab.run.trace import DEFAULT_TRACE, read_trace


class DeployError(ChainlabError):
    code = "deploy-failed"


@dataclass
class ScenarioRun:
    scenario: str
    status: str  # ok | stopped | watchdog | partial (connection lost) | failed
    local_dir: str
    completed: int = 0
    iterations: int = 0
    checksum: str | None = None
    be_bytes_per_s: float | None = None
    throttle: dict[str, Any] | None = None
    error: str | None = None


@dataclass
class Deployment:
    chain: str
    target: str
    kind: str
    local_dir: str
    remote_dir: str
    plan: dict[str, Any]
    preflight: dict[str, Any]
    scenarios: list[ScenarioRun] = field(default_factory=list)
    phases_s: dict[str, float] = field(default_factory=dict)
    cached_build: bool = False
    calibrated: bool = False
    calibration: str | None = None  # the calibration file the prediction used
    error: str | None = None
    predicted: list[tuple[int, float]] = field(default_factory=list)
    threads: dict[str, int] = field(default_factory=dict)  # sub-box -> plan thread

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


async def open_transport(target: dict[str, Any], file: str) -> Transport:
    if target["kind"] == "local":
        return LocalTransport(target["name"])
    from chainlab.deploy.ssh import SshTransport

    return await SshTransport(target, file=file).connect()


async def _root(transport: Transport, target: dict[str, Any]) -> str:
    if target.get("root"):
        root = str(target["root"])
        if root.startswith("~"):
            home = (await transport.run(["sh", "-c", 'echo "$HOME"'])).stdout.strip()
            root = home + root[1:]
        return root
    if target["kind"] == "local":
        return str(default_cache().parent / "targets" / target["name"])
    home = (await transport.run(["sh", "-c", 'echo "$HOME"'])).stdout.strip()
    return f"{home}/chainlab"


def _tool_files() -> dict[str, str]:
    """The throttler and the hog as a standalone CMake project (runtime-c/throttle + a top-level file)."""
    files = {
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(chainlab_tools C)\nset(CMAKE_C_STANDARD 11)\n"
        "if(NOT CMAKE_BUILD_TYPE)\n  set(CMAKE_BUILD_TYPE Release)\nendif()\n"
        "add_compile_options(-Wall -Wextra -Werror)\n"
        "enable_testing()\nadd_subdirectory(throttle)\n"
    }
    base = runtime_sources() / "throttle"
    for p in sorted(base.rglob("*")):
        if p.is_file() and "build" not in p.relative_to(base).parts:
            files[f"throttle/{p.relative_to(base)}"] = p.read_text()
    return files


async def _build(
    transport: Transport,
    files: dict[str, str],
    remote: str,
    what: str,
    local_copy: Path,
    targets: list[str] | None = None,
) -> bool:
    """Upload and build unless that exact content is already built there. Returns whether it was cached."""
    marker = f"{remote}/build/.chainlab-built"
    if await transport.exists(marker):
        return True
    write_project(files, local_copy)
    await transport.put_tree(local_copy, remote)
    steps = [
        ["cmake", "-S", remote, "-B", f"{remote}/build", "-DCMAKE_BUILD_TYPE=Release"],
        ["cmake", "--build", f"{remote}/build", "-j", "2", *(["--target", *targets] if targets else [])],
    ]
    for argv in steps:
        done = await transport.run(argv, check=False, timeout=600)
        if done.returncode != 0:
            out = done.stdout + done.stderr
            errors = [ln for ln in out.splitlines() if re.search(r":\d+:\d+: (error|warning)", ln)]
            where = "\n".join(errors[:10]) or out.strip()[-3000:]
            raise DeployError(
                f"building the {what} on {transport.name} failed:\n{where}\n"
                f"(the generated sources are in {local_copy}; "
                f"full output above the last lines:\n{out.strip()[-2000:]})"
            )
    await transport.run(["touch", marker])
    return False


def _hog_moved(data: bytes) -> int:
    _, _, r, w = struct.unpack("<QqQQ", data[:32])
    return r + w


async def _read_hog(transport: Transport, shm: str, local: Path) -> tuple[int, float] | None:
    try:
        await transport.get_file(shm, local)
        return _hog_moved(local.read_bytes()), time.monotonic()
    except (TransportError, OSError, struct.error):
        return None


_PROGRESS = re.compile(r"(\d+)% (\d+)/(\d+)")


async def _run_chain(
    transport: Transport,
    argv: list[str],
    run_dir: str,
    name: str,
    progress: ProgressFn,
    watch: RemoteProcess | None = None,
    ended: list[int] | None = None,
) -> int | None:
    """Start the chain, follow its progress bar, pass Ctrl-C on. Returns its exit status. When `watch` (the
    throttler) ends first, the chain is stopped like on Ctrl-C (what it measured is kept) and `ended` gets its
    exit status: the rest would not be the scenario asked for."""
    proc = await transport.start(argv, run_dir=run_dir, name=name)
    log, offset, sent = f"{run_dir}/logs/{name}.log", 0, False
    while True:
        status = await proc.wait(0.3)
        if watch is not None and status is None and not sent and ended is not None:
            gone = await watch.wait(0.01)
            if gone is not None:
                ended.append(gone)
                await proc.signal(signal.SIGINT)
                sent = True
        try:
            text = await transport.read_text(log, offset)
            offset += len(text.encode())
            found = _PROGRESS.findall(text)
            if found:
                pct, done, total = found[-1]
                progress(int(pct) / 100, f"{done}/{total} iterations")
        except (TransportError, OSError):
            pass
        if status is not None:
            return status
        if interrupted() and not sent:
            await proc.signal(signal.SIGINT)  # the chain writes what it measured and exits
            sent = True


RECONNECT_TRIES = 8


async def _recover(
    target: dict[str, Any], file: str, run_dir: str, name: str, local: Path, iterations: int, error: str, why: list[str]
) -> tuple[ScenarioRun, Transport] | None:
    """After a dropped connection: reconnect (a few tries), stop everything of the run there (the chain writes what
    it measured on SIGTERM) and fetch the scenario's files. None when the target stays unreachable."""
    rdir = f"{run_dir}/{name}"
    for _ in range(RECONNECT_TRIES):
        await asyncio.sleep(1)
        try:
            t = await open_transport(target, file)
        except TransportError as e:
            why.append(e.message)
            continue
        try:
            await t.cleanup(run_dir)
            for _ in range(100):
                if await t.exists(f"{rdir}/run.json"):
                    break
                await asyncio.sleep(0.1)
            local.mkdir(parents=True, exist_ok=True)
            for f in ("latencies.csv", "run.json"):
                await t.get_file(f"{rdir}/{f}", local / f)
            header = json.loads((local / "run.json").read_text())
            return ScenarioRun(
                name,
                "partial",
                str(local),
                completed=int(header["completed"]),
                iterations=iterations,
                checksum=header["checksum"],
                error=error,
            ), t
        except (TransportError, OSError, ValueError) as e:
            why.append(getattr(e, "message", None) or f"{type(e).__name__}: {e}")
            await t.close()
    return None


def _trace_args(iterations: int) -> list[str]:
    """The chain binary's trace of the last iterations: tasks.csv (run/trace.py)."""
    return ["--trace", str(min(iterations, DEFAULT_TRACE))]


def _in_dir(directory: str, argv: list[str]) -> list[str]:
    """argv run after creating its output directory (one command on the target instead of two)."""
    return ["sh", "-c", 'mkdir -p "$0" && exec "$@"', directory, *argv]


async def _scenario(
    transport: Transport,
    ir: dict[str, Any],
    target: dict[str, Any],
    name: str,
    binary: str,
    tools: str,
    run_dir: str,
    local: Path,
    iterations: int,
    period_ns: int,
    calib: dict[str, float] | None,
    has_pmu: bool,
    progress: ProgressFn,
    log: Callable[[str], None],
) -> ScenarioRun:
    rdir = f"{run_dir}/{name}"
    local.mkdir(parents=True, exist_ok=True)
    result = ScenarioRun(name, "failed", str(local), iterations=iterations)
    be = ",".join(map(str, target.get("be_cores") or []))
    work = target.get("workload") or {"kind": "hog"}
    shm = f"{rdir}/hog.shm"
    workload = (
        ["taskset", "-c", be, f"{tools}/build/throttle/chainlab-hog", f"--shm={shm}", f"--size={HOG_BYTES}"]
        if work.get("kind") == "hog"
        else ["taskset", "-c", be, "sh", "-c", str(work["command"])]
    )
    clean = False
    throttler_ended: list[int] = []
    try:
        daemon = None
        if name == "congested":
            await transport.start(_in_dir(rdir, workload), run_dir=run_dir, name=f"workload-{name}")
        elif name == "throttled":
            source = ["source=perf"] if has_pmu else ["source=coop", f"shm={shm}"]
            if calib:
                source += [f"calib_read={calib['read_bps']:.0f}", f"calib_write={calib['write_bps']:.0f}"]
            args = [*daemon_args(ir, target, source), f"trace={rdir}/throttle-trace.csv"]
            # the daemon starts the workload itself, so sigstop reaches it and nothing outlives the daemon
            daemon = await transport.start(
                _in_dir(rdir, [f"{tools}/build/throttle/chainlab-throttle", *args, "--", *workload]),
                run_dir=run_dir,
                name=f"throttle-{name}",
            )
            (local / "throttle-args.txt").write_text(" ".join(args) + "\n")
        before = None
        if name != "baseline" and work.get("kind") == "hog":
            for _ in range(250):  # the hog has started streaming before the chain starts
                before = await _read_hog(transport, shm, local / "hog.before")
                if before and before[0] > 0:
                    break
                await asyncio.sleep(0.02)
        status = await _run_chain(
            transport,
            _in_dir(
                rdir,
                [
                    binary,
                    "--iterations",
                    str(iterations),
                    "--out",
                    rdir,
                    "--period-ns",
                    str(period_ns),
                    "--progress",
                    *_trace_args(iterations),
                ],
            ),
            run_dir,
            f"chain-{name}",
            progress,
            daemon,
            throttler_ended,
        )
        after = await _read_hog(transport, shm, local / "hog.after") if before else None
        if before and after and after[1] > before[1]:
            result.be_bytes_per_s = (after[0] - before[0]) / (after[1] - before[1])
        if daemon is not None:
            await daemon.signal(signal.SIGTERM)
            await daemon.wait(10)
            text = await transport.read_text(f"{run_dir}/logs/throttle-{name}.log")
            totals = [ln for ln in text.splitlines() if ln.startswith("{")]
            result.throttle = json.loads(totals[-1]) if totals else None
        if status not in (0, None):
            result.error = (await transport.read_text(f"{run_dir}/logs/chain-{name}.log"))[-2000:]
        clean = status is not None and name == "baseline"
    finally:
        if not clean:  # workload, daemon, an interrupted chain: stopped (resumed first) whatever happened
            await transport.cleanup(run_dir, keep="watchdog")
    for f in ("latencies.csv", "run.json", "throttle-trace.csv", "tasks.csv"):
        try:
            await transport.get_file(f"{rdir}/{f}", local / f)
        except (TransportError, OSError):
            if f in ("latencies.csv", "run.json"):
                raise
    header = json.loads((local / "run.json").read_text())
    result.status, result.completed, result.checksum = header["status"], int(header["completed"]), header["checksum"]
    if throttler_ended:
        result.status = "partial"
        result.error = (
            f"the throttler ended during the run (exit {throttler_ended[0]}): the chain was stopped, "
            f"the {result.completed} iterations measured until then are kept"
        )
    return result


async def deploy(
    ir: dict[str, Any],
    chain: str,
    target_name: str,
    *,
    file: str,
    scenarios: list[str],
    iterations: int | None = None,
    calibrate: int = 0,
    options: PlanOptions = PlanOptions(),
    period_ns: int | None = None,
    runs_root: Path = Path("runs"),
    progress: ProgressFn | None = None,
    log: Callable[[str], None] = lambda s: None,
) -> Deployment:
    check_name(chain, "chain name")
    target = resolve_target(ir, target_name)
    check_target(target)
    unknown = [s for s in scenarios if s not in SCENARIOS]
    if unknown or not scenarios:
        raise ModelError(f"unknown scenario {', '.join(unknown) or '(none)'}: choose from {', '.join(SCENARIOS)}")
    if set(scenarios) - {"baseline"} and not target.get("be_cores"):
        raise ModelError(
            f"target {target['name']}: congested and throttled scenarios need be-cores",
            target.get("loc"),
            f"target {target['name']}",
        )
    if "throttled" in scenarios:
        daemon_args(ir, target, [])  # a missing throttle is refused before anything connects
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    local = resolved(runs_root / f"{stamp}-{chain}-{target['name']}")
    local.mkdir(parents=True, exist_ok=True)
    phases: dict[str, float] = {}
    t0 = time.monotonic()

    def phase(name: str) -> None:
        nonlocal t0
        now = time.monotonic()
        phases[name] = round(phases.get(name, 0) + now - t0, 3)
        t0 = now

    (local / "model.ir.json").write_text(json.dumps(ir, indent=1))
    log(f"connecting to {target['name']} ({target['kind']})")
    transport = await open_transport(target, file)
    phase("connect")
    dep = Deployment(chain, target["name"], target["kind"], str(local), "", {}, {})
    run_dir = ""
    try:
        root = await _root(transport, target)
        pre: Preflight = await preflight(transport, target, root, need_throttle="throttled" in scenarios)
        dep.preflight = pre.to_json()
        (local / "preflight.json").write_text(json.dumps(dep.preflight, indent=1))
        log(pre.text())
        phase("preflight")
        if not pre.ok:
            raise DeployError(f"the target {target['name']} lacks essentials:\n{pre.text()}")
        cores = list(target.get("rt_cores") or range(int(pre.facts.get("cores") or 1)))
        iterations = iterations or int(find_chain(ir, chain).get("iterations") or 1000)
        plan = plan_for_cores(ir, chain, cores, options)
        pinned = pin_threads(plan, cores)
        files = generate_project(pinned)
        build_dir = f"{root}/builds/{content_hash(files)}"
        phase("plan")
        log(f"building the chain on {target['name']}")
        dep.cached_build = await _build(transport, files, build_dir, "generated chain", local / "project")
        tools = ""
        if set(scenarios) - {"baseline"}:
            tool_files = _tool_files()
            tools = f"{root}/tools/{content_hash(tool_files)}"
            await _build(
                transport, tool_files, tools, "throttler", local / "tools", ["chainlab-throttle", "chainlab-hog"]
            )
        phase("build")
        run_dir = f"{root}/runs/{stamp}-{chain}"
        dep.remote_dir = run_dir
        await transport.keepalive(run_dir)
        period = (plan.chain.period_ns or 0) if period_ns is None else period_ns
        cal_file = calibration_path(file, chain, target["name"]) or local / "calibration.json"
        calibration = load_calibration(cal_file, chain, target["name"]) if calibrate == 0 else None
        if calibrate > 0:
            log(f"calibrating: {calibrate} iterations of {chain} as planned, every sub-box timed")
            cdir = f"{run_dir}/calibration"
            await transport.run(["mkdir", "-p", cdir])
            await transport.run(
                [
                    f"{build_dir}/build/chain",
                    "--iterations",
                    str(calibrate),
                    "--period-ns",
                    str(period),
                    "--out",
                    cdir,
                    *_trace_args(calibrate),
                ],
                timeout=600,
            )
            await transport.get_file(f"{cdir}/tasks.csv", local / "calibration-tasks.csv")
            trace = read_trace(local / "calibration-tasks.csv")
            if trace is None:
                raise DeployError(f"the calibration run on {target['name']} traced no complete iteration")
            calibration = calibration_from_trace(trace, ir, chain, target["name"], int(period))
            save_calibration(calibration, cal_file)
            log(f"calibration kept in {cal_file}")
        elif calibration is not None:
            log(f"using the calibration in {cal_file} ({calibration.created}, {calibration.iterations} iterations)")
        if calibration is not None:
            ir = apply_calibration(ir, calibration)
            plan = plan_for_cores(ir, chain, cores, options)
            pinned = pin_threads(plan, cores)
            files = generate_project(pinned)
            build_dir = f"{root}/builds/{content_hash(files)}"
            await _build(transport, files, build_dir, "calibrated chain", local / "project-calibrated")
            dep.calibrated = True
            dep.calibration = str(cal_file)
            phase("calibrate")
        measured = measured_costs(calibration, plan) if calibration is not None else None
        prediction = predict_latency(
            plan, iterations=RUN_PREDICTION_DRAWS, seed=1, measured=measured, period_ns=int(period)
        )
        dep.predicted = [(int(v), float(q)) for v, q in prediction.points]
        pinned.latency = prediction.summary()  # the plan that runs, with the prediction at its period
        dep.plan = plan_to_json(pinned)
        dep.threads = {s.name: pinned.mapping.thread_of[s.id] for s in pinned.inst.subs}
        (local / "plan.json").write_text(json.dumps(dep.plan, indent=1))
        calib = None
        if "throttled" in scenarios:
            be0 = str((target.get("be_cores") or [0])[0])
            done = await transport.run(
                ["taskset", "-c", be0, f"{tools}/build/throttle/chainlab-throttle", "--calibrate"]
            )
            calib = json.loads(done.stdout)
        phase("prepare runs")
        for k, name in enumerate(scenarios):
            if interrupted():
                log(f"interrupted: scenario {name} and later ones not run")
                break
            log(f"scenario {name}")

            def sub(fraction: float, message: str, k: int = k, name: str = name) -> None:
                if progress is not None:
                    progress((k + fraction) / len(scenarios), f"{name}: {message}")

            try:
                r = await _scenario(
                    transport,
                    ir,
                    target,
                    name,
                    f"{build_dir}/build/chain",
                    tools,
                    run_dir,
                    local / name,
                    iterations,
                    int(period),
                    calib,
                    pre.has_pmu,
                    sub,
                    log,
                )
            except TransportError as e:
                log(f"connection lost during {name}: reconnecting to stop the run and fetch what it measured")
                dep.error = e.message
                why: list[str] = []
                recovered = await _recover(target, file, run_dir, name, local / name, iterations, e.message, why)
                if recovered is None:
                    dep.scenarios.append(
                        ScenarioRun(name, "partial", str(local / name), iterations=iterations, error=e.message)
                    )
                    raise TransportError(
                        f"{e.message}; could not reconnect ({why[-1] if why else 'no answer'}): "
                        "the target's watchdog stops the run"
                    ) from None
                await transport.close()
                dep.scenarios.append(recovered[0])
                transport = recovered[1]
                raise TransportError(
                    f"{e.message}; reconnected, stopped the run and fetched the {recovered[0].completed} iterations "
                    f"scenario {name} had measured (partial)"
                ) from None
            dep.scenarios.append(r)
            phase(f"run {name}")
            if r.status != "ok":
                break
        await transport.finish(run_dir)
    except TransportError as e:
        dep.error = dep.error or e.message
        raise DeployError(f"{e.message}\nwhat was measured before is kept in {local}") from None
    finally:
        (local / "deployment.json").write_text(json.dumps(dep.to_json(), indent=1))
        if run_dir:
            with contextlib.suppress(TransportError):  # the connection is gone: the remote watchdog stops the run
                await transport.cleanup(run_dir)
        await transport.close()
        phase("cleanup")
        dep.phases_s = phases
        (local / "deployment.json").write_text(json.dumps(dep.to_json(), indent=1))
    return dep


def deploy_sync(*args: Any, **kwargs: Any) -> Deployment:
    return asyncio.run(deploy(*args, **kwargs))
