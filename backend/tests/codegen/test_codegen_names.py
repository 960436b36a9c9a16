"""Model text never becomes code in the generated project (issue 17, F21): the IR schema admits only the
language's identifiers as names, the generator refuses other names and escapes free text (the model's path)."""

from __future__ import annotations

import copy
import dataclasses
import sys
from pathlib import Path

import pytest
from cg_helpers import have_tools, quick_build, sample_ir

from chainlab.codegen import generate_project
from chainlab.codegen.names import c_comment, c_string
from chainlab.errors import ModelError
from chainlab.plan import PlanOptions, make_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rpc"))
from rpc_client import Client

pytestmark = pytest.mark.skipif(not have_tools(), reason="needs node, the built CLI and gcc")

EVIL = 'x"; system("id"); //'


def _ir() -> dict:
    return copy.deepcopy(sample_ir("samples/chains/appendix-a.chain"))


def _plan(ir: dict, chain: str = "App"):
    return make_plan(ir, chain, PlanOptions(threads=2, cores=(0, 1), predict=False))


@pytest.mark.parametrize("where", ["chain", "instance", "box", "image"])
def test_backend_refuses_a_name_that_is_no_identifier(where: str, tmp_path: Path) -> None:
    ir = _ir()
    if where == "chain":
        ir["chains"][0]["name"] = EVIL
    elif where == "instance":
        ir["chains"][0]["instances"][0]["name"] = EVIL
    elif where == "box":
        ir["boxes"][0]["name"] = EVIL
    else:
        ir["images"][0]["name"] = EVIL
    client = Client()
    try:
        reply = client.request("run/generate", {"ir": ir, "out": str(tmp_path / "p")})
        assert reply["error"]["code"] == -32001, reply
        assert "does not match" in reply["error"]["message"] or "identifier" in reply["error"]["message"]
        assert not (tmp_path / "p").exists()
    finally:
        client.close()


def test_generator_refuses_names_the_schema_was_bypassed_for() -> None:
    plan = _plan(_ir())
    view = dataclasses.replace(plan.chain, name=EVIL)
    with pytest.raises(ModelError, match="not an identifier"):
        generate_project(dataclasses.replace(plan, chain=view))


def test_hostile_model_path_and_c_keywords_as_names_still_build(tmp_path: Path) -> None:
    ir = _ir()
    ir["source"] = 'evil*/ int x = system("id"); /*\n#include <stdio.h>\r\x1b]0;t\x07é??/'
    renames = {"f6": "int", "f7": "main"}  # instances named like C keywords and functions
    text = str(ir).replace("'f6'", "'int'").replace("'f7'", "'main'")  # check the sample has them
    assert "'int'" in text and "'main'" in text
    for chain in ir["chains"]:
        for inst in chain["instances"]:
            inst["name"] = renames.get(inst["name"], inst["name"])
        for conn in chain["connections"]:
            for end in ("from", "to"):
                conn[end]["instance"] = renames.get(conn[end]["instance"], conn[end]["instance"])
    files = generate_project(_plan(ir))
    first = files["src/chain.c"].splitlines()[0]  # the path stays inside the header comment
    assert first.startswith("/* Generated") and first.count("*/") == 1 and first.endswith("*/")
    quick_build(files, tmp_path)


def test_escapes() -> None:
    assert c_string('a"\\\n?é') == '"a\\"\\\\\\012\\?\\303\\251"'
    assert "*/" not in c_comment("a */ b /* c") and "\n" not in c_comment("a\nb")
