"""The JSON-RPC server as a real process over stdio, as the CLI and the language server use it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path

from rpc_client import Client

VECTORS = Path(__file__).resolve().parents[3] / "tests" / "ir-vectors"
GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden" / "samples"


def test_version_and_clean_exit(client: Client) -> None:
    reply = client.request("backend/version", {})
    assert reply["result"]["ir_version"] == "1.0"
    assert "ir/validate" in reply["result"]["methods"]
    assert client.close() == 0


def test_valid_ir_is_accepted(client: Client) -> None:
    ir = json.loads((VECTORS / "valid-sketch.json").read_text())["ir"]
    assert client.request("ir/validate", {"ir": ir})["result"] == {"valid": True, "source": "sketch.chain"}


def test_invalid_ir_is_a_model_error_not_a_crash(client: Client) -> None:
    ir = json.loads((VECTORS / "invalid-split.json").read_text())["ir"]
    reply = client.request("ir/validate", {"ir": ir})
    assert reply["error"]["code"] == -32001
    assert "/boxes/1/split" in reply["error"]["message"]
    assert reply["error"]["data"]["code"] == "model-error"
    # The server is still alive and answers.
    assert client.request("backend/version", {})["result"]["version"]


def test_unknown_method_and_bad_params(client: Client) -> None:
    assert client.request("no/such", {})["error"]["code"] == -32601
    assert client.request("ir/validate", [1])["error"]["code"] == -32602
    assert client.close() == 0


GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden" / "samples"


def test_ptts_analysis_over_rpc(client: Client) -> None:
    ir = json.loads((GOLDEN / "ptts" / "thesis-fig5-2.ir.json").read_text())
    result = client.request("ptts/analyze", {"ir": ir, "ptts": "Fig52"})["result"]
    assert (result["hyperperiod_ms"], result["roots"]) == (40600, 203)
    error = client.request("ptts/analyze", {"ir": ir, "ptts": "Nope"})["error"]
    assert error["code"] == -32001 and "Fig52, Fig57" in error["message"]


def test_explore_over_rpc_uses_worker_processes_without_hanging(client: Client) -> None:
    ir = json.loads((GOLDEN / "ptts" / "case-study.ir.json").read_text())
    result = client.request("ptts/explore", {"ir": ir, "ptts": "ConfigE", "vary": ["Wall"], "step_ns": 4_000_000})[
        "result"
    ]
    assert len(result["points"]) == 5
    assert client.close() == 0


def test_plan_and_chain_etp_over_rpc(client: Client) -> None:
    ir = json.loads((GOLDEN / "chains" / "appendix-a.ir.json").read_text())
    plan = client.request("plan/make", {"ir": ir})["result"]
    assert plan["arena_bytes"] == 786432
    xray = json.loads((GOLDEN / "xray.ir.json").read_text())
    system = client.request("ptts/analyze", {"ir": xray, "ptts": "System"})["result"]
    assert system["requirements"] and abs(sum(p for _, p in system["distribution"]) - 1) < 1e-9


def test_a_run_accepted_as_the_client_goes_does_not_start(client: Client, tmp_path: Path) -> None:
    """The client gone (end of stdin) right after its run request: the backend starts nothing and exits.
    A stop that a new run could clear, as it clears a Ctrl-C, let the run go to its last iteration for nobody
    (CI: a backend left running after its CLI was killed)."""
    ir = json.loads((GOLDEN / "chains" / "appendix-a.ir.json").read_text())
    next(b for b in ir["boxes"] if b["name"] == "Source")["source_period_ns"] = 10_000_000  # 100,000 × 10 ms
    out = tmp_path / "out"
    # one write: the backend reads the request, hands it to a worker and then reads the end of its input
    client.send(
        {"jsonrpc": "2.0", "id": 1, "method": "run/local", "params": {"ir": ir, "iterations": 100_000, "out": str(out)}}
    )
    assert client.process.stdin
    client.process.stdin.close()
    assert client.process.wait(timeout=60) == 0
    reply = client.receive()
    assert reply["error"]["code"] == -32800, reply  # REQUEST_CANCELLED
    assert "the backend is ending" in reply["error"]["message"]
    assert not (out / "latencies.csv").exists()  # nothing was started


def test_sigterm_and_sighup_in_a_burst_end_the_backend() -> None:
    """SIGTERM and SIGHUP arriving together (the client's death: PR_SET_PDEATHSIG, and its process group's
    signals) end the backend. A handler that ran inside another one and took a lock the first held waited for
    itself forever (CI: two backends left asleep after code-server stopped; 2 of 20 bursts hung)."""
    for _ in range(20):
        c = Client()
        try:
            assert "result" in c.request("backend/version", {})  # serving: the handlers are installed
            for i in range(300):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(c.process.pid, signal.SIGHUP if i % 2 else signal.SIGTERM)
            assert c.process.wait(timeout=10) in (128 + signal.SIGTERM, 128 + signal.SIGHUP)
        finally:
            if c.process.poll() is None:
                c.process.kill()
                c.process.wait()


def test_a_flood_is_refused_busy_and_the_version_is_answered_ahead_of_the_queue(tmp_path: Path) -> None:
    """Both workers held (an experiment waiting on a port that never answers, ~5 s), then 3,000 requests and a
    backend/version: the pending ones stop at the bound, the rest are refused at once, the version is answered at
    once. Without a bound the queue grew with every request (20,000: 1.07 GB) and the version waited behind it."""
    from listeners import listener

    from chainlab.rpc.endpoint import BUSY, MAX_PENDING

    ir = json.loads((VECTORS / "valid-sketch.json").read_text())["ir"]
    flood = 3000
    with listener("silent") as silent:
        c = Client()
        try:
            replies: list[tuple[float, dict]] = []
            threading.Thread(target=lambda: _collect(c, replies), daemon=True).start()
            for i in range(2):  # hold both workers
                params = {"out": str(tmp_path / f"e{i}"), "chains": 2, "boxes": 20, "samples": 100}
                c.send(
                    _req(f"hold{i}", "experiment/heuristics", {**params, "scheduler": f"tcp://127.0.0.1:{silent.port}"})
                )
            c.send(_req("v0", "backend/version", {}))
            assert _wait_for(replies, "v0", 60), "the backend did not answer backend/version"
            start = time.monotonic()
            body = b"".join(_frame(_req(i, "ir/validate", {"ir": ir})) for i in range(flood))
            assert c.process.stdin
            c.process.stdin.write(body + _frame(_req("v1", "backend/version", {})))
            c.process.stdin.flush()
            version = _wait_for(replies, "v1", 30)
            assert version and "result" in version[1], version
            assert version[0] - start < 3  # answered ahead of ~1,000 queued requests
            busy = [m for _, m in replies if m.get("error", {}).get("code") == BUSY]
            assert len(busy) == flood - (MAX_PENDING - 2), len(busy)
            assert busy[0]["error"]["message"] == f"busy: {MAX_PENDING} requests pending; send it again later"
            held = _wait_for(replies, "hold1", 60)
            assert held and "is not a Dask scheduler" in held[1]["error"]["message"], held
            end = time.monotonic() + 60
            while len(_validated(replies)) < MAX_PENDING - 2 and time.monotonic() < end:
                time.sleep(0.05)
            assert len(_validated(replies)) == MAX_PENDING - 2  # every accepted request is answered
            assert c.close() == 0
        finally:
            if c.process.poll() is None:
                c.process.kill()


def _req(msg_id: object, method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _collect(c: Client, replies: list[tuple[float, dict]]) -> None:
    with contextlib.suppress(ValueError, OSError):
        while c.process.poll() is None:
            replies.append((time.monotonic(), c.receive()))


def _validated(replies: list[tuple[float, dict]]) -> set[int]:
    return {m["id"] for _, m in list(replies) if "result" in m and isinstance(m["id"], int)}


def _wait_for(replies: list[tuple[float, dict]], msg_id: object, timeout: float) -> tuple[float, dict] | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = next((r for r in list(replies) if r[1].get("id") == msg_id), None)
        if found:
            return found
        time.sleep(0.02)
    return None
