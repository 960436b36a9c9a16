"""Bad input gets a ModelError naming the element, never a traceback."""

from __future__ import annotations

import copy

import pytest
from plan_helpers import appendix_a_ir_by_hand

from chainlab.errors import ModelError
from chainlab.plan import PlanOptions, make_plan


def chain_of(ir):
    return ir["chains"][0]


def test_cycle_without_delay():
    ir = appendix_a_ir_by_hand()
    # conv gets a second input fed by the sink's... make gain read conv's output instead of the source
    chain = chain_of(ir)
    chain["connections"][0]["from"] = {"instance": "f7", "port": "o"}
    chain["connections"][0]["loc"] = {"file": "appendix-a.chain", "line": 10, "column": 5}
    with pytest.raises(ModelError) as err:
        make_plan(ir, "App")
    assert "cycle without delay" in err.value.message and "f6 -> f7 -> f6" in err.value.message.replace(
        "f7 -> f6 -> f7", "f6 -> f7 -> f6"
    )
    assert err.value.loc is not None and err.value.loc.line == 10


def test_unconnected_input():
    ir = appendix_a_ir_by_hand()
    del chain_of(ir)["connections"][1]  # f6.o -> f7.i
    with pytest.raises(ModelError) as err:
        make_plan(ir, "App")
    assert err.value.element == "f7.i" and "not connected" in err.value.message
    assert err.value.loc is not None


def test_more_threads_than_cores():
    ir = appendix_a_ir_by_hand()
    with pytest.raises(ModelError) as err:
        make_plan(ir, "App", PlanOptions(threads=3))
    assert "3 threads exceed the 2 core(s)" in err.value.message
    with pytest.raises(ModelError):
        make_plan(ir, "App", PlanOptions(threads=8, cores=(0, 1, 2, 3, 4, 5, 6, 7)))  # the platform has 4 cores
    chain_of(ir)["schedule"]["threads"] = 5
    with pytest.raises(ModelError):
        make_plan(ir, "App")


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda ir: None, "no chain named 'Nope'"),
        (lambda ir: chain_of(ir)["instances"][0].update(box="Missing"), "does not define"),
        (lambda ir: chain_of(ir)["connections"][0]["to"].update(port="zz"), "not a port"),
        (lambda ir: chain_of(ir)["connections"][0]["to"].update(port="o"), "an output"),
        (lambda ir: chain_of(ir)["connections"].append(copy.deepcopy(chain_of(ir)["connections"][0])), "two writers"),
        (lambda ir: chain_of(ir)["schedule"].update(heuristic="fastest"), "unknown schedule heuristic"),
        (lambda ir: chain_of(ir).update(memory="magic"), "unknown memory"),
        (lambda ir: chain_of(ir).update(instances=[], connections=[]), "no box instances"),
    ],
)
def test_other_bad_input(mutate, words):
    ir = appendix_a_ir_by_hand()
    mutate(ir)
    with pytest.raises(ModelError) as err:
        make_plan(ir, "Nope" if "Nope" in words else "App")
    assert words in err.value.message
    assert "Traceback" not in str(err.value)


def test_error_json_names_the_element():
    ir = appendix_a_ir_by_hand()
    del chain_of(ir)["connections"][2]
    with pytest.raises(ModelError) as err:
        make_plan(ir, "App")
    data = err.value.to_json()
    assert data["code"] == "model-error" and data["element"] == "f9.i" and data["loc"]["file"] == "appendix-a.chain"
