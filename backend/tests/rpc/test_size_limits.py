"""Requests whose work would not fit in memory are refused before anything is allocated, with a size that does
fit (issue 17: F14 simulate iterations, F15 explore step), through the backend as a process."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from rpc_client import Client

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden" / "samples"


def test_simulate_of_10_to_the_12_iterations_is_refused_with_a_count_that_fits(client: Client) -> None:
    ir = json.loads((GOLDEN / "ptts" / "thesis-fig5-2.ir.json").read_text())
    error = client.request("ptts/simulate", {"ir": ir, "ptts": "Fig52", "iterations": 10**12})["error"]
    assert error["code"] == -32001
    assert "GiB" in error["message"] and "use at most" in error["message"]
    fits = int(error["message"].rsplit("use at most ", 1)[1].split()[0])
    assert 10_000 < fits < 10**8
    assert client.close() == 0


def test_explore_with_a_1_ns_step_over_a_100_s_period_is_refused_with_a_step(client: Client) -> None:
    ir = json.loads((GOLDEN / "ptts" / "thesis-fig5-2.ir.json").read_text())
    ptts = copy.deepcopy(next(p for p in ir["ptts"] if p["name"] == "Fig52"))
    ptts["components"][0]["period_ns"] = 100 * 10**9
    ir["ptts"] = [ptts]
    error = client.request("ptts/explore", {"ir": ir, "ptts": "Fig52", "vary": ["C0"], "step_ns": 1})["error"]
    assert error["code"] == -32001
    assert "100000000000 points" in error["message"]
    assert "step of at least 1 ms (1000000 ns, 100000 points)" in error["message"]
    assert client.close() == 0


@pytest.mark.parametrize(
    ("method", "key", "value"),
    [
        ("run/local", "iterations", 10**20),  # F12: the binary's saturated strtoull
        ("run/local", "iterations", 0),
        ("run/local", "calibrate", 10**20),  # F13
        ("run/local", "calibrate", "abc"),
        ("ptts/simulate", "seed", -1),
    ],
)
def test_numeric_params_out_of_range_are_model_errors_naming_them(
    client: Client, method: str, key: str, value: object
) -> None:
    name = "chains/appendix-a.ir.json" if method == "run/local" else "ptts/thesis-fig5-2.ir.json"
    ir = json.loads((GOLDEN / name).read_text())
    params = {"ir": ir, key: value, "out": "/nonexistent/never-written"}
    if method == "ptts/simulate":
        params.update(ptts="Fig52", iterations=10)
    error = client.request(method, params)["error"]
    assert error["code"] == -32001, error
    assert f"{key} takes a whole number" in error["message"]
    assert client.close() == 0
