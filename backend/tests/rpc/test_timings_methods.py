"""interchange/timings through the real backend process: a result in the contract's shape, refusals as MODEL_ERROR."""

from __future__ import annotations

from pathlib import Path

import pytest
from rpc_client import Client

from chainlab.rpc.contract import BACKEND_METHODS, schema_errors


def test_a_csv_is_read_into_the_contracts_result(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "times.csv"
    path.write_text("component,time [ms],count\nC0,50,3\nC0,51,1\nC1,25,2\n")
    reply = client.request("interchange/timings", {"path": str(path), "names": ["C0", "C1", "C2"]})
    result = reply["result"]
    assert schema_errors(BACKEND_METHODS["interchange/timings"]["result"], result) == []
    assert [t["name"] for t in result["timings"]] == ["C0", "C1"]
    assert result["timings"][0]["bins"] == [["50", 3], ["51", 1]]
    assert result["timings"][0]["stats"]["mean_ns"] == 50_250_000
    assert client.close() == 0


def test_an_unknown_name_is_a_model_error_with_the_row(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "times.csv"
    path.write_text("box,time_us\nGain,1\nGian,2\n")
    error = client.request("interchange/timings", {"path": str(path), "names": ["Gain"]})["error"]
    assert error["code"] == -32001
    assert error["message"] == f"{path}:3: unknown name 'Gian' (the model has: Gain); did you mean 'Gain'?"
    assert error["data"]["loc"] == {"file": str(path), "line": 3, "column": 0}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "name the CSV file"),
        ({"path": "times.csv"}, "the path must be absolute"),
        ({"path": "/nonexistent/times.csv"}, "no such file"),
        ({"path": "/tmp", "names": "Gain"}, "names must be a list of strings"),
    ],
)
def test_bad_params_are_refused_in_words(client: Client, params: dict, message: str) -> None:
    error = client.request("interchange/timings", params)["error"]
    assert error["code"] == -32001 and message in error["message"], error
