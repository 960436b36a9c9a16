"""The backend keeps the contract (contract/schemas): every method's reply on the samples, through the real stdio
server, validates against its result schema; error replies carry the contract's codes and data; the registered
methods, error codes and enums are the contract's; a client of another contract version is refused."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rpc_client import Client

from chainlab.errors import ChainlabError
from chainlab.rpc import contract
from chainlab.rpc.contract import BACKEND_METHODS, CONTRACT_VERSION, ERROR_CODES, validate_error, validate_reply

REPO = Path(__file__).resolve().parents[3]
GOLDEN = REPO / "tests" / "golden" / "samples"
CLI = REPO / "language" / "bin" / "chainlab.js"
HEURISTICS = contract.contract_file("ir.schema.json")["$defs"]["Heuristic"]["enum"]
MEMORIES = contract.contract_file("ir.schema.json")["$defs"]["MemoryAllocator"]["enum"]


def golden(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / name).read_text())


GOLDEN_IR = {p.relative_to(GOLDEN).as_posix(): json.loads(p.read_text()) for p in sorted(GOLDEN.rglob("*.ir.json"))}


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    c = Client()
    yield c
    if c.process.poll() is None:
        c.close()


def result_of(client: Client, method: str, params: dict[str, Any]) -> Any:
    reply = client.request(method, params)
    assert "result" in reply, reply.get("error")
    return validate_reply(method, reply["result"])


def error_of(client: Client, method: str, params: Any) -> dict[str, Any]:
    reply = client.request(method, params)
    assert "error" in reply, f"{method} answered {str(reply.get('result'))[:200]}"
    return validate_error(reply["error"])


def test_the_registered_methods_are_the_contracts() -> None:
    from chainlab.rpc.methods import METHODS, load_method_modules

    load_method_modules()
    assert sorted(METHODS) == sorted(BACKEND_METHODS)


def test_error_codes_versions_and_enums_are_the_contracts() -> None:
    from chainlab.ir import IR_VERSION
    from chainlab.plan.model import HEURISTICS as PLAN_HEURISTICS
    from chainlab.ptts.explore import OBJECTIVES
    from chainlab.rpc.server import MODEL_ERROR_CODE
    from chainlab.run.scenarios import SCENARIOS

    common = contract.contract_file("common.schema.json")["$defs"]
    assert MODEL_ERROR_CODE == ERROR_CODES["MODEL_ERROR"] == -32001
    assert len(set(ERROR_CODES.values())) == len(ERROR_CODES)
    assert IR_VERSION == contract.contract_file("ir.schema.json")["properties"]["ir_version"]["const"]
    assert list(PLAN_HEURISTICS) == HEURISTICS
    assert list(OBJECTIVES) == common["Objective"]["enum"]
    assert list(SCENARIOS) == common["Scenario"]["enum"]
    assert CONTRACT_VERSION == contract.contract_file("contract.json")["version"]


def test_every_error_kind_of_the_backend_is_in_the_contract() -> None:
    import chainlab.deploy.transport
    import chainlab.run  # noqa: F401

    def subclasses(cls: type) -> list[type]:
        return [cls] + [s for sub in cls.__subclasses__() for s in subclasses(sub)]

    codes = {cls.code for cls in subclasses(ChainlabError)}
    assert codes == set(contract.contract_file("common.schema.json")["$defs"]["ErrorCode"]["enum"])


def test_version_handshake(client: Client) -> None:
    version = result_of(client, "backend/version", {"contract_version": CONTRACT_VERSION})
    assert version["contract_version"] == CONTRACT_VERSION and sorted(version["methods"]) == sorted(BACKEND_METHODS)
    assert result_of(client, "backend/version", {})["contract_version"] == CONTRACT_VERSION  # tools that do not ask


def test_a_client_of_another_contract_version_is_refused(client: Client) -> None:
    error = error_of(client, "backend/version", {"contract_version": "0.9.0"})
    assert error["code"] == ERROR_CODES["CONTRACT_MISMATCH"]
    assert (
        error["message"] == f"chainlab backend speaks contract {CONTRACT_VERSION}, this client 0.9.0: "
        "install matching versions of the backend (chainlab-backend) and of the CLI or extension"
    )
    assert error["data"] == {"backend": CONTRACT_VERSION, "client": "0.9.0"}
    assert result_of(client, "backend/version", {"contract_version": CONTRACT_VERSION})  # still serving


@pytest.mark.parametrize("name", GOLDEN_IR)
def test_ir_validate(client: Client, name: str) -> None:
    assert result_of(client, "ir/validate", {"ir": GOLDEN_IR[name]})["valid"] is True


PTTS = [(name, p["name"]) for name, ir in GOLDEN_IR.items() for p in ir["ptts"]]


@pytest.mark.parametrize(("name", "ptts"), PTTS)
def test_analyze_and_cost_of_every_sample_ptts(client: Client, name: str, ptts: str) -> None:
    ir = GOLDEN_IR[name]
    result = result_of(client, "ptts/analyze", {"ir": ir, "ptts": ptts})
    assert result["name"] == ptts
    assert result_of(client, "ptts/cost", {"ir": ir, "ptts": ptts})["roots"] == result["roots"]


def test_analyze_per_root(client: Client) -> None:
    result = result_of(
        client, "ptts/analyze", {"ir": golden("ptts/thesis-fig5-2.ir.json"), "ptts": "Fig52", "per_root": True}
    )
    assert len(result["per_root"]) == result["roots"]


def test_simulate(client: Client) -> None:
    result = result_of(
        client,
        "ptts/simulate",
        {"ir": golden("ptts/thesis-fig5-2.ir.json"), "ptts": "Fig52", "iterations": 2000, "seed": 1},
    )
    assert result["iterations"] == 2000 and "ks_distance" in result


@pytest.mark.parametrize(
    ("name", "ptts", "vary"),
    [("ptts/case-study.ir.json", "ConfigE", ["Wall"]), ("ptts/thesis-fig5-2.ir.json", "Fig52", "C1")],
)
def test_explore(client: Client, name: str, ptts: str, vary: Any) -> None:
    result = result_of(client, "ptts/explore", {"ir": golden(name), "ptts": ptts, "vary": vary, "step_ns": 4_000_000})
    assert result["best"] in result["points"]


def test_nearby_periods_have_fewer_trees_each_analysed_exactly(client: Client) -> None:
    result = result_of(client, "ptts/periods", {"ir": golden("xray.ir.json"), "ptts": "System"})
    now = result["current"]
    assert now["roots"] == 13861 and now["periods_ms"]["Wall"] == 16.7
    assert result["proposals"]
    for p in result["proposals"]:
        assert p["roots"] < now["roots"] and p["max_relative_change"] <= 0.02
        assert p["analysis"]["percentiles"]["50"] <= p["analysis"]["percentiles"]["99"]
    # a period set of one latency tree: the Wall and the GPU in step, the distribution one point
    one = next(p for p in result["proposals"] if p["roots"] == 1)
    assert one["analysis"]["percentiles"]["50"] == one["analysis"]["percentiles"]["99"]


def test_nearby_periods_refuse_a_change_that_is_no_fraction(client: Client) -> None:
    error = error_of(
        client, "ptts/periods", {"ir": golden("xray.ir.json"), "ptts": "System", "max_relative_change": 1.5}
    )
    assert error["code"] == ERROR_CODES["MODEL_ERROR"] and "max_relative_change must be a fraction" in error["message"]


CHAINS = [(name, c["name"]) for name, ir in GOLDEN_IR.items() for c in ir["chains"]]


@pytest.mark.parametrize(("name", "chain"), CHAINS)
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_plan_of_every_sample_chain_with_every_heuristic(client: Client, name: str, chain: str, heuristic: str) -> None:
    for memory in MEMORIES:
        plan = result_of(
            client, "plan/make", {"ir": GOLDEN_IR[name], "chain": chain, "heuristic": heuristic, "memory": memory}
        )
        assert (plan["heuristic"], plan["memory"]) == (heuristic, memory)


def test_synth(client: Client) -> None:
    assert result_of(client, "plan/synth", {"boxes": 8, "seed": 3})["text"].startswith("//")


def test_generate(client: Client, tmp_path: Path) -> None:
    result = result_of(client, "run/generate", {"ir": golden("chains/appendix-a.ir.json"), "out": str(tmp_path)})
    assert "CMakeLists.txt" in result["files"]


@pytest.mark.parametrize(("target", "mode"), [("here", "duty-cycle"), ("lab1", "budget")])
def test_throttle_params(client: Client, target: str, mode: str) -> None:
    assert result_of(client, "throttle/params", {"ir": golden("xray.ir.json"), "target": target})["mode"] == mode


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("cmake") is None or not CLI.exists(),
    reason="needs node, the built CLI and cmake",
)
def test_run_local(client: Client, tmp_path: Path) -> None:
    ir = json.loads(
        subprocess.run(
            ["node", str(CLI), "export", str(REPO / "samples/chains/appendix-a.chain"), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    result = result_of(client, "run/local", {"ir": ir, "iterations": 50, "out": str(tmp_path / "run")})
    assert result["status"] == "ok" and result["scenarios"][0]["completed"] == 50


def test_experiment_heuristics(client: Client, tmp_path: Path) -> None:
    params = {"ir": golden("xray.ir.json"), "chains": 2, "boxes": 20, "samples": 100, "scheduler": "process"}
    result = result_of(client, "experiment/heuristics", {**params, "out": str(tmp_path)})
    assert result["status"] == "ok" and result["chains_done"] == 2 and len(result["tables"]["table1"]) == 8
    refused = error_of(client, "experiment/heuristics", {**params, "out": str(tmp_path)})  # results.csv is there
    assert "already exists: resume it (--resume)" in refused["message"]


def test_model_errors_carry_the_contracts_data(client: Client) -> None:
    invalid = json.loads((REPO / "tests" / "ir-vectors" / "invalid-split.json").read_text())["ir"]
    assert error_of(client, "ir/validate", {"ir": invalid})["data"]["code"] == "model-error"
    unknown = error_of(client, "ptts/analyze", {"ir": golden("ptts/thesis-fig5-2.ir.json"), "ptts": "Nope"})
    assert unknown["code"] == ERROR_CODES["MODEL_ERROR"]
    expensive = error_of(
        client, "ptts/analyze", {"ir": golden("ptts/case-study.ir.json"), "ptts": "ConfigD", "max_trees": 1}
    )
    assert expensive["data"]["code"] == "too-expensive" and "proposals" in expensive["data"]
    local = error_of(client, "deploy/trust-host", {"ir": golden("xray.ir.json"), "target": "here"})
    assert local["data"]["element"] == "here" and local["data"]["loc"]["line"] > 0


def test_unknown_methods_and_bad_params_have_the_contracts_codes(client: Client) -> None:
    assert error_of(client, "no/such", {})["code"] == ERROR_CODES["METHOD_NOT_FOUND"]
    assert error_of(client, "ir/validate", [1])["code"] == ERROR_CODES["INVALID_PARAMS"]


def test_a_reply_that_drifts_from_its_schema_is_caught() -> None:
    reply = validate_reply(
        "ptts/cost",
        {
            "source": "x.chain",
            "name": "P",
            "roots": 1,
            "hyperperiod_ns": 1,
            "hyperperiod_ms": 1e-6,
            "grid_ns": 1,
            "branching": [],
            "eq_5_15": 1,
            "per_root_rows": 1,
            "quotient_entries": 1,
            "refused": None,
        },
    )
    with pytest.raises(AssertionError, match="unexpected"):
        validate_reply("ptts/cost", {**reply, "extra": 1})
    with pytest.raises(AssertionError, match="'roots' is a required property"):
        validate_reply("ptts/cost", {k: v for k, v in reply.items() if k != "roots"})
