"""Event chains as component order and latency requirements."""

from __future__ import annotations

from pathlib import Path

import pytest

from chainlab.interchange.amalthea_chains import ordered_chains
from chainlab.interchange.amalthea_model import read_model
from chainlab.interchange.amalthea_tasks import periodic_tasks
from chainlab.interchange.xml_input import ImportRefused, read_xml
from tests.interchange.amalthea_helpers import amalthea_doc

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "import" / "xray-system.amxmi"
TASKS = "".join(
    f'<tasks name="{t}" stimuli="S{t}?type=PeriodicStimulus"><activityGraph>'
    f'<items xsi:type="am:RunnableCall" runnable="R{t}?type=Runnable"/></activityGraph></tasks><runnables name="R{t}"/>'
    for t in "ABC"
)
STIMULI = "".join(
    f'<stimuli xsi:type="am:PeriodicStimulus" name="S{t}"><recurrence value="10" unit="ms"/></stimuli>' for t in "ABC"
)
EVENTS = "".join(
    f'<events xsi:type="am:ProcessEvent" name="E{t}" entity="{t}?type=Task"/>'
    f'<events xsi:type="am:RunnableEvent" name="RE{t}" entity="R{t}?type=Runnable"/>'
    f'<events xsi:type="am:StimulusEvent" name="SE{t}" entity="S{t}?type=PeriodicStimulus"/>'
    for t in "ABC"
)


def chains_of(tmp_path: Path, constraints: str, events: str = EVENTS):
    body = (
        f"<swModel>{TASKS}</swModel><stimuliModel>{STIMULI}</stimuliModel><eventModel>{events}</eventModel>"
        f"<constraintsModel>{constraints}</constraintsModel>"
    )
    model = read_model(amalthea_doc(tmp_path, body))
    notes: list[str] = []
    return ordered_chains(model, list(periodic_tasks(model, notes)), notes), notes


def test_the_sample_chains() -> None:
    model = read_model(read_xml(SAMPLE))
    notes: list[str] = []
    chains = ordered_chains(model, list(periodic_tasks(model, notes)), notes)
    assert [(c.name, c.tasks, c.bounds_ns) for c in chains] == [
        ("Xray-to-Wall", ["Acquire", "Process", "Display"], [160_000_000]),
        ("ProcessToDisplay", ["Process", "Display"], [80_000_000]),
    ]
    assert "periodic task(s) in no event chain, left out: Housekeeping" in notes


def test_every_event_kind_names_its_task(tmp_path: Path) -> None:
    chains, _ = chains_of(
        tmp_path,
        '<eventChains name="X" stimulus="SEC?type=StimulusEvent" response="RBA?type=RunnableEvent">'
        '<items xsi:type="am:EventChainContainer"><eventChain name="sub" stimulus="EC?type=ProcessEvent" '
        'response="REB?type=RunnableEvent"/></items></eventChains>',
        EVENTS + '<events xsi:type="am:LabelEvent" name="RBA" runnable="RA?type=Runnable"/>',
    )
    assert chains[0].tasks == ["C", "B", "A"] and chains[0].bounds_ns == []


@pytest.mark.parametrize(
    ("constraints", "message"),
    [
        ('<eventChains name="X" stimulus="EA?type=ProcessEvent" response="Nope?type=ProcessEvent"/>', "no event named"),
        (
            '<eventChains name="X" stimulus="EA?type=ProcessEvent" response="EB?type=ProcessEvent">'
            '<items xsi:type="am:EventChainReference" eventChain="Y?type=EventChain"/></eventChains>',
            "eventChain: no event chain named 'Y'",
        ),
        (
            '<eventChains name="X" stimulus="EA?type=ProcessEvent" response="EA?type=ProcessEvent">'
            '<items xsi:type="am:EventChainReference" eventChain="X?type=EventChain"/></eventChains>',
            "event chain 'X' refers to itself",
        ),
        (
            '<eventChains name="X" stimulus="EA?type=ProcessEvent" response="EB?type=ProcessEvent">'
            '<items xsi:type="am:EventChainContainer"><eventChain name="s" stimulus="EB?type=ProcessEvent" '
            'response="EA?type=ProcessEvent"/></items></eventChains>',
            "visits task 'A' twice",
        ),
        (
            '<eventChains name="X" stimulus="EA?type=ProcessEvent"/>'
            '<timingConstraints xsi:type="am:EventChainLatencyConstraint" name="L" scope="Z?type=EventChain"/>',
            "scope: no event chain named 'Z'",
        ),
        ('<eventChains name="X"/>', "event chain 'X' names no event, so no task"),
    ],
)
def test_refusals(tmp_path: Path, constraints: str, message: str) -> None:
    with pytest.raises(ImportRefused, match=message):
        chains_of(tmp_path, constraints)


def test_an_event_of_no_single_task(tmp_path: Path) -> None:
    with pytest.raises(ImportRefused, match="the LabelEvent 'LE' names no single task"):
        chains_of(
            tmp_path,
            '<eventChains name="X" stimulus="LE?type=LabelEvent"/>',
            EVENTS + '<events xsi:type="am:LabelEvent" name="LE" entity="L?type=Label"/>',
        )


def test_a_constraint_without_maximum_is_left_out_and_said(tmp_path: Path) -> None:
    chains, notes = chains_of(
        tmp_path,
        '<eventChains name="X" stimulus="EA?type=ProcessEvent" response="EB?type=ProcessEvent"/>'
        '<timingConstraints xsi:type="am:EventChainLatencyConstraint" name="L" scope="X?type=EventChain">'
        '<minimum value="1" unit="ms"/></timingConstraints>',
    )
    assert chains[0].bounds_ns == [] and "latency constraint 'L' has no maximum: left out" in notes
