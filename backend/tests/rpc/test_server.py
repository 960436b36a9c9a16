"""The JSON-RPC server as a real process over stdio, as the CLI and the language server use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rpc_client import Client

VECTORS = Path(__file__).resolve().parents[3] / "tests" / "ir-vectors"


@pytest.fixture()
def client():
    c = Client()
    yield c
    if c.process.poll() is None:
        c.process.kill()


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
