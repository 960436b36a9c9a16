"""interchange/import and interchange/export through the real backend process: formats by extension and root
element, the reply the contract describes, and refusals as MODEL_ERROR naming file, line and element."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rpc_client import Client

from chainlab.rpc.contract import BACKEND_METHODS, schema_errors

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "backend" / "tests" / "interchange" / "fixtures"
GOLDEN = REPO / "tests" / "golden" / "samples"


@pytest.fixture(scope="module")
def client():
    c = Client()
    yield c
    if c.process.poll() is None:
        c.process.kill()


def result_of(client: Client, method: str, params: dict) -> dict:
    reply = client.request(method, params)
    assert "result" in reply, reply
    assert schema_errors(BACKEND_METHODS[method]["result"], reply["result"]) == []
    return reply["result"]


def error_of(client: Client, method: str, params: dict) -> dict:
    reply = client.request(method, params)
    assert reply["error"]["code"] == -32001, reply
    return reply["error"]


def test_the_methods_are_listed(client: Client) -> None:
    methods = client.request("backend/version", {})["result"]["methods"]
    assert {"interchange/import", "interchange/export"} <= set(methods)


def test_sdf3_by_root_element(client: Client) -> None:
    result = result_of(client, "interchange/import", {"path": str(FIXTURES / "sdf3-split.xml")})
    assert result["format"] == "sdf3"
    assert "chain Rows on RowsPC {" in result["text"]
    assert any("self-loop" in n for n in result["notes"])


def test_preesm_by_extension_with_a_named_scenario(client: Client) -> None:
    result = result_of(
        client,
        "interchange/import",
        {"path": str(FIXTURES / "preesm-split.pi"), "scenario": str(FIXTURES / "preesm-split.scenario")},
    )
    assert result["format"] == "preesm" and "cost 1.2 ms" in result["text"]


def test_a_named_format_is_used(client: Client) -> None:
    error = error_of(client, "interchange/import", {"path": str(FIXTURES / "preesm-split.pi"), "format": "sdf3"})
    assert error["data"]["loc"]["line"] == 2 and "not an SDF3 file" in error["message"]


def test_no_format_chainlab_reads(client: Client) -> None:
    error = error_of(client, "interchange/import", {"path": str(FIXTURES / "preesm-split.scenario")})
    assert error["data"]["element"] == "<scenario>"
    assert error["data"]["loc"] == {"file": str(FIXTURES / "preesm-split.scenario"), "line": 2, "column": 1}
    assert "no format chainlab imports" in error["message"]


def test_refusals_name_file_line_and_element(client: Client) -> None:
    error = error_of(client, "interchange/import", {"path": str(FIXTURES / "sdf3-delay.xml")})
    assert error["message"].startswith(f"{FIXTURES / 'sdf3-delay.xml'}:11:7: ")
    assert error["data"]["element"] == "<channel>" and "a delay" in error["data"]["message"]
    error = error_of(client, "interchange/import", {"path": str(FIXTURES / "sdf3-entities.xml")})
    assert "DOCTYPE" in error["message"]


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "path must be a non-empty string"),
        ({"path": 3}, "path must be a non-empty string"),
        ({"path": "x.xml", "format": "xmi"}, "format must be one of sdf3, preesm, amalthea"),
        ({"path": "/no/such/model.xml"}, "no such file"),
    ],
)
def test_bad_import_params(client: Client, params: dict, message: str) -> None:
    assert message in error_of(client, "interchange/import", params)["message"]


def test_export_writes_sdf3_of_the_chain(client: Client) -> None:
    ir = json.loads((GOLDEN / "chains" / "fig3-5.ir.json").read_text())
    result = result_of(client, "interchange/export", {"ir": ir, "format": "sdf3"})
    assert '<sdf name="Fig35" type="Fig35">' in result["text"] and result["notes"]
    assert "format must be sdf3" in error_of(client, "interchange/export", {"ir": ir, "format": "dot"})["message"]
    assert (
        "no chain"
        in error_of(client, "interchange/export", {"ir": ir, "format": "sdf3", "chain": "Nope"})["message"].lower()
    )
