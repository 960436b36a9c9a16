#!/usr/bin/env python3
"""Synthetic bandwidth experiment in the style of thesis §4.7.2 / Tables 4.1-4.3 on this machine.

A measured "real-time" probe (chainlab-hog, one core) runs on core 0; the best-effort hog (Syn 'C') runs on core 1:
alone, congested, and duty-cycled by chainlab-throttle (coop source; periodic sampling pinned to the best-effort core 1
as in the thesis, so it takes no time from the probe; or overflow sampling, its handler also on core 1). Reports the
probe's bandwidth, the degradation reduction 100·(BW_dc − BW_cong)/(BW_1 − BW_cong) (NOTES §1.8) and the hog's progress.

Usage: python3 bench/throttle/bench_effect.py [BUILD_DIR] [--seconds N] [--size BYTES] [--mode read|write|rw]
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def opt(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def hog_cmd(hog: Path, cpu: int, shm: Path | None, size: str, mode: str, ms: int | None) -> list[str]:
    cmd = ["taskset", "-c", str(cpu), str(hog), f"--size={size}", f"--mode={mode}"]
    if shm:
        cmd.append(f"--shm={shm}")
    if ms:
        cmd.append(f"--duration-ms={ms}")
    return cmd


def bw(out: str, mode: str) -> float:
    d = json.loads(out)
    moved = d["read_bytes"] + d["write_bytes"]
    return moved / d["seconds"]


def moved(shm: Path) -> tuple[int, float]:
    """Bytes the hog published so far (read + write), and when."""
    _, _, r, w = struct.unpack("<QqQQ", shm.read_bytes()[:32])  # th_hog_shm: magic, pid, read_bytes, write_bytes
    return r + w, time.monotonic()


def main() -> None:
    pos = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and not sys.argv[i - 1].startswith("--")]
    build = Path(pos[0] if pos else "runtime-c/build") / "throttle"
    th, hog = build / "chainlab-throttle", build / "chainlab-hog"
    seconds, size, mode = float(opt("--seconds", "2")), opt("--size", str(32 << 20)), opt("--mode", "rw")
    ms = int(seconds * 1000)
    settings = [
        ("alone", None),
        ("congested", None),
        ("dc 100/900 25%", ("100us", "900us", "25%", "periodic")),
        ("dc 500/500 25%", ("500us", "500us", "25%", "periodic")),
        ("dc 100/900 10%", ("100us", "900us", "10%", "periodic")),
        ("dc 100/900 25% overflow", ("100us", "900us", "25%", "overflow")),
        ("dc 100/900 10% overflow", ("100us", "900us", "10%", "overflow")),
    ]
    rows = []
    with tempfile.TemporaryDirectory(prefix="chainlab-effect-") as d:
        cal = json.loads(subprocess.run([str(th), "--calibrate"], capture_output=True, text=True, check=True).stdout)
        for name, dc in settings:
            shm = Path(d) / f"hog-{len(rows)}.shm"
            bg = None
            daemon = None
            if name != "alone":
                bg = subprocess.Popen(hog_cmd(hog, 1, shm, size, mode, None), stdout=subprocess.PIPE, text=True)
                for _ in range(200):
                    if shm.exists():
                        break
                    time.sleep(0.01)
            if dc and bg:
                s, t, thr, sampling = dc
                daemon = subprocess.Popen(
                    [
                        str(th),
                        "source=coop",
                        f"shm={shm}",
                        "cores=1",
                        f"sample={s}",
                        f"suspend={t}",
                        f"threshold={thr}",
                        f"calib_read={cal['read_bps']:.0f}",
                        f"calib_write={cal['write_bps']:.0f}",
                        "mechanism=sigstop",
                        f"pids={bg.pid}",
                        "sampler_cpu=1",
                        f"duration={ms + 500}ms",
                        f"sampling={sampling}",
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                )
                time.sleep(0.1)
            before = moved(shm) if bg else None
            probe = subprocess.run(hog_cmd(hog, 0, None, size, mode, ms), capture_output=True, text=True, check=True)
            after = moved(shm) if bg else None
            summary = None
            if daemon:
                daemon.send_signal(15)
                summary = json.loads(daemon.communicate(timeout=30)[0])
            hog_bw = None
            if bg:
                bg.send_signal(15)
                bg.communicate(timeout=30)
                assert before and after
                hog_bw = (after[0] - before[0]) / (after[1] - before[1])
            rows.append(
                {
                    "setting": name,
                    "probe_GBps": round(bw(probe.stdout, mode) / 1e9, 2),
                    "hog_GBps": round(hog_bw / 1e9, 2) if hog_bw is not None else None,
                    "suspended_fraction": round(summary["cores"][0]["suspended_ns"] / summary["wall_ns"], 3)
                    if summary
                    else None,
                    "daemon_cpu_pct": round(100 * summary["sampler_cpu_ns"] / summary["wall_ns"], 2)
                    if summary
                    else None,
                }
            )
    base, cong = rows[0]["probe_GBps"], rows[1]["probe_GBps"]
    for r in rows[2:]:
        r["degradation_reduction_pct"] = (
            round(100 * (r["probe_GBps"] - cong) / (base - cong), 1) if base != cong else None
        )
    print(
        json.dumps(
            {"mode": mode, "size_bytes": int(size), "seconds": seconds, "calibration": cal, "rows": rows}, indent=1
        )
    )


if __name__ == "__main__":
    main()
