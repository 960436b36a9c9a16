"""Preflight: what the target offers, checked with one shell script over any Transport, shown as a checklist.

Essentials (a C compiler, cmake, the model's cores, free disk) stop the run with what to install; optional
items (hardware counters, cgroup v2 freeze, SCHED_FIFO) name the fallback that will be used instead. The
jitter sources of the thesis (governor, turbo, SMT) are reported as facts.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from chainlab.deploy.transport import Transport

# key=value lines; each probe tolerates a missing tool
PROBE = r"""
echo "cc=$(command -v cc || command -v gcc || command -v clang || true)"
echo "cmake=$(command -v cmake || true)"
echo "cmake_version=$(cmake --version 2>/dev/null | head -1 | awk '{print $3}')"
echo "cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 0)"
echo "kernel=$(uname -r)"
echo "cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
echo "paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)"
echo "pmu=$(ls /sys/bus/event_source/devices/ 2>/dev/null | grep -c -e '^cpu$' -e '^cpu_core$' -e '^armv' || true)"
echo "cgroup2=$(grep -c ' cgroup2 ' /proc/mounts 2>/dev/null || echo 0)"
echo "fifo=$(chrt -f 1 true 2>/dev/null && echo yes || echo no)"
echo "taskset=$(command -v taskset || true)"
echo "setsid=$(command -v setsid || true)"
echo "governor=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)"
echo "no_turbo=$(cat /sys/devices/system/cpu/intel_pstate/no_turbo 2>/dev/null || \
cat /sys/devices/system/cpu/cpufreq/boost 2>/dev/null || echo unknown)"
echo "smt=$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo unknown)"
mkdir -p "$1" 2>/dev/null
echo "free_kb=$(df -Pk "$1" 2>/dev/null | awk 'NR==2 {print $4}')"
"""

MIN_FREE_KB = 200 * 1024


@dataclass
class Check:
    name: str
    status: str  # ok | missing | optional-missing | info
    detail: str
    fix: str = ""


@dataclass
class Preflight:
    target: str
    facts: dict[str, str]
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(c.status == "missing" for c in self.checks)

    @property
    def has_pmu(self) -> bool:
        return self.facts.get("pmu", "0") not in ("", "0")

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "ok": self.ok, "facts": self.facts, "checks": [asdict(c) for c in self.checks]}

    def text(self) -> str:
        mark = {"ok": "[ok]", "missing": "[MISSING]", "optional-missing": "[fallback]", "info": "[info]"}
        lines = [f"preflight on {self.target}:"]
        for c in self.checks:
            lines.append(f"  {mark[c.status]:10} {c.name}: {c.detail}" + (f" -> {c.fix}" if c.fix else ""))
        return "\n".join(lines)


async def preflight(transport: Transport, target: dict[str, Any], root: str, *, need_throttle: bool) -> Preflight:
    done = await transport.run(["sh", "-c", PROBE, "preflight", root], check=False, timeout=30)
    facts = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    p = Preflight(target["name"], facts)
    add = p.checks.append
    install = "install it on the target (Debian: apt-get install {})"
    add(
        Check("C compiler", "ok", facts["cc"])
        if facts.get("cc")
        else Check("C compiler", "missing", "no cc, gcc or clang on the PATH", install.format("gcc"))
    )
    add(
        Check("cmake", "ok", f"{facts['cmake']} {facts.get('cmake_version', '')}".strip())
        if facts.get("cmake")
        else Check("cmake", "missing", "cmake is not on the PATH", install.format("cmake"))
    )
    for tool, pkg in (("taskset", "util-linux"), ("setsid", "util-linux")):
        if not facts.get(tool):
            add(Check(tool, "missing", f"{tool} is not on the PATH", install.format(pkg)))
    cores = int(facts.get("cores") or 0)
    wanted = sorted(set(target.get("rt_cores") or []) | set(target.get("be_cores") or []))
    if wanted and max(wanted) >= cores:
        add(
            Check(
                "cores",
                "missing",
                f"the model uses cores {wanted} (rt {target.get('rt_cores')}, be {target.get('be_cores')}) "
                f"but the target has {cores}",
                "change rt-cores/be-cores of the target",
            )
        )
    else:
        add(
            Check(
                "cores",
                "ok",
                f"{cores} online; rt {target.get('rt_cores') or 'all'}, be {target.get('be_cores') or 'none'}",
            )
        )
    free = int(facts.get("free_kb") or 0)
    add(
        Check(
            "disk",
            "ok" if free >= MIN_FREE_KB else "missing",
            f"{free // 1024} MiB free at {root}",
            "" if free >= MIN_FREE_KB else f"free at least {MIN_FREE_KB // 1024} MiB or set the target's root",
        )
    )
    if need_throttle:
        add(
            Check("hardware counters", "ok", f"PMU present (perf_event_paranoid {facts.get('paranoid')})")
            if p.has_pmu
            else Check(
                "hardware counters",
                "optional-missing",
                "no PMU (perf_event_open has no hardware events)",
                "the throttler reads the built-in hog's cooperative byte counters",
            )
        )
        add(
            Check(
                "cgroup v2 freeze",
                "ok" if facts.get("cgroup2", "0") != "0" else "optional-missing",
                "cgroup2 mounted" if facts.get("cgroup2", "0") != "0" else "no cgroup2 mount",
                "" if facts.get("cgroup2", "0") != "0" else "mechanism freeze unavailable: use sigstop or fifo-hold",
            )
        )
        add(
            Check(
                "SCHED_FIFO",
                "ok" if facts.get("fifo") == "yes" else "optional-missing",
                "allowed" if facts.get("fifo") == "yes" else "not allowed for this user",
                ""
                if facts.get("fifo") == "yes"
                else "mechanism fifo-hold unavailable: use sigstop; threads run SCHED_OTHER",
            )
        )
    add(
        Check(
            "jitter sources",
            "info",
            f"governor {facts.get('governor')}, turbo/boost {facts.get('no_turbo')}, SMT {facts.get('smt')}"
            f", kernel {facts.get('kernel')}, {facts.get('cpu') or 'unknown CPU'}",
        )
    )
    return p
