"""Fuzz of the backend's JSON-RPC framing at bench scale (not a test; tests/rpc/test_framing_fuzz.py runs 300).

Run: backend/.venv/bin/python bench/rpc/fuzz_framing.py [--cases 10000] [--process-cases 200] [--seed 17]

In process: every case goes through serve() (the backend's reader, endpoint and writer) followed by a sentinel
request; the case passes when the server finishes, answers the sentinel exactly once, answers no request more
often than it was sent and its traced memory stays under 32 MiB. Through the real process: the cases are sent
back to back to one `python -m chainlab.rpc`, each followed by a sentinel, then Content-Length: 10^12; the backend
must answer every sentinel and keep its peak RSS bounded. Prints the counts and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "backend" / "tests" / "rpc"))

from frame_fuzz import SENTINEL_ID, cases, check_case, replies, sentinel  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402


def in_process(count: int, seed: int) -> int:
    ran = 0

    @hypothesis_seed(seed)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(cases)
    def case(data: bytes) -> None:
        nonlocal ran
        ran += 1
        check_case(data)

    case()
    return ran


def through_process(count: int, seed: int) -> tuple[int, int]:
    """(sentinels answered, peak RSS of the backend in KiB)."""
    samples: list[bytes] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(cases)
    def collect(data: bytes) -> None:
        samples.append(data)

    collect()
    stream = b"".join(s + sentinel() for s in samples) + b"Content-Length: 1000000000000\r\n\r\n{}" + sentinel()
    stream += b'Content-Length: 40\r\n\r\n{"jsonrpc": "2.0", "method": "exit"}    '
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], input=stream, capture_output=True, timeout=600, cwd=ROOT / "backend"
    )
    answered = [m for m in replies(done.stdout) if m.get("id") == SENTINEL_ID]
    if done.returncode != 0:
        print(done.stderr.decode(errors="replace")[-2000:], file=sys.stderr)
    return len(answered), int(done.stderr.decode().rsplit("maxrss=", 1)[-1]) if b"maxrss=" in done.stderr else -1


# the backend as a process that prints its own peak RSS when it ends (VmHWM: ru_maxrss would carry the
# bench's own peak across exec)
_CHILD = """
import re, sys
from chainlab.rpc.methods import load_method_modules
from chainlab.rpc.server import serve
load_method_modules()
serve(sys.stdin.buffer, sys.stdout.buffer)
hwm = re.search(r"VmHWM:\\s*(\\d+)", open("/proc/self/status").read())
print("maxrss=%s" % (hwm.group(1) if hwm else -1), file=sys.stderr)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--process-cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    logging.getLogger("chainlab.rpc").setLevel(logging.ERROR)  # one warning per bad frame otherwise
    started = time.monotonic()
    ran = in_process(args.cases, args.seed)
    in_s = time.monotonic() - started
    answered, rss_kib = through_process(args.process_cases, args.seed + 1)
    result = {
        "in_process_cases": ran,
        "in_process_s": round(in_s, 1),
        "process_cases": args.process_cases,
        "process_sentinels_answered": answered,
        "process_peak_rss_mib": round(rss_kib / 1024, 1),
        "bench_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(result, indent=1))
    ok = answered == args.process_cases + 1 and 0 < rss_kib < 512 * 1024
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
