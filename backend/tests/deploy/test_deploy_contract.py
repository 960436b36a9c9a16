"""deploy/run and deploy/trust-host through the real stdio server keep the contract (contract/schemas): one small
experiment on this machine (three scenarios) and a host key trusted on the SSH lab host, each reply validated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lab import Lab
from test_deploy_cycle import CLI, model

from chainlab.rpc.contract import validate_reply

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rpc"))
from rpc_client import Client


def exported(path: Path) -> dict[str, Any]:
    return json.loads(
        subprocess.run(
            ["node", str(CLI), "export", str(path), "--json"], capture_output=True, text=True, check=True
        ).stdout
    )


def call(method: str, params: dict[str, Any]) -> Any:
    client = Client()
    try:
        reply = client.request(method, params)
        assert "result" in reply, reply.get("error")
        return validate_reply(method, reply["result"])
    finally:
        client.close()


def test_deploy_run_reply_on_this_machine(tmp_path: Path) -> None:
    ir = exported(model(tmp_path, None, "bench"))
    reply = call(
        "deploy/run",
        {
            "ir": ir,
            "target": "bench",
            "scenario": "baseline,congested,throttled",
            "iterations": 200,
            "runs": str(tmp_path / "runs"),
            "file": "lab.chain",
        },
    )
    assert [s["scenario"] for s in reply["scenarios"]] == ["baseline", "congested", "throttled"]
    assert reply["scenarios"][2]["throttle"] is not None


def test_trust_host_reply_on_the_lab(lab: Lab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    known_hosts = tmp_path / "known_hosts"
    known_hosts.write_text("")
    monkeypatch.setenv("CHAINLAB_KNOWN_HOSTS", str(known_hosts))  # inherited by the server process
    ir = exported(model(tmp_path, lab))
    reply = call("deploy/trust-host", {"ir": ir, "target": "lab"})
    assert (
        reply["added"]
        and reply["fingerprint"].startswith("SHA256:")
        and os.environ["CHAINLAB_KNOWN_HOSTS"] == reply["known_hosts"]
    )
