"""The typed subset read from an Amalthea model: stimuli, processes, cores, mapping, events, chains, constraints."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chainlab.interchange.amalthea_model import EventChain, read_model
from chainlab.interchange.xml_input import ImportRefused, read_xml
from tests.interchange.amalthea_helpers import amalthea_doc

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "import" / "xray-system.amxmi"


def test_the_sample_is_read_into_typed_objects() -> None:
    model = read_model(read_xml(SAMPLE))
    assert list(model.tasks) == ["Acquire", "Process", "Display", "Housekeeping", "Service"]
    assert model.tasks["Acquire"].stimuli == ("XrayPulse",)
    pulse, gpu = model.stimuli["XrayPulse"], model.stimuli["GpuClock"]
    assert (pulse.recurrence_ns, pulse.offset_ns, gpu.offset_ns) == (66_600_000, 0, 2_000_000)
    assert model.stimuli["ServiceRequest"].kind == "SporadicStimulus"
    assert {n: c.frequency_hz for n, c in model.cores.items()} == {
        "Core_Sensor": Fraction(10**8),
        "Core_Gpu": Fraction(15 * 10**8),
        "Core_Wall": Fraction(5 * 10**8),
    }
    assert model.cores["Core_Gpu"].definition == "GpuCore"
    assert model.task_cores == {
        "Acquire": ("Core_Sensor",),
        "Process": ("Core_Gpu", "Core_Wall"),
        "Display": ("Core_Wall", "Core_Gpu"),
    }
    whole = model.chains["Xray-to-Wall"]
    assert (whole.stimulus, whole.response) == ("Xray_pulse", "Display_end")
    sub, reference = whole.items
    assert isinstance(sub, EventChain) and sub.name == "Acquire-to-Process"
    assert isinstance(reference, tuple) and reference[0] == "ProcessToDisplay"
    assert [(c.scope, c.kind, c.maximum_ns, c.minimum_ns) for c in model.constraints] == [
        ("Xray-to-Wall", "Reaction", 160_000_000, None),
        ("ProcessToDisplay", "Age", 80_000_000, 1_000_000),
    ]
    assert model.left_out["OS overhead"] == 1 and model.left_out["label"] == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('<stimuliModel><stimuli xsi:type="am:PeriodicStimulus" name="P"/></stimuliModel>', "has no recurrence"),
        (
            '<stimuliModel><stimuli xsi:type="am:PeriodicStimulus" name="P"><recurrence value="0" unit="ms"/>'
            "</stimuli></stimuliModel>",
            "the recurrence of 'P' must be positive",
        ),
        ('<swModel><tasks stimuli=""/></swModel>', "the task has no name"),
        ('<hwModel><domains xsi:type="am:FrequencyDomain" name="F"/></hwModel>', "has no defaultValue"),
        ('<mappingModel><taskAllocation task="Nope?type=Task"/></mappingModel>', "task: no task named 'Nope'"),
        (
            '<constraintsModel><eventChains name="E" itemType="parallel"/></constraintsModel>',
            "the event chain 'E' is parallel; chainlab reads sequences only",
        ),
        (
            '<constraintsModel><eventChains name="E"><items xsi:type="am:Other"/></eventChains></constraintsModel>',
            "unknown event chain item Other",
        ),
    ],
)
def test_refusals_name_the_element(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ImportRefused, match=message) as caught:
        read_model(amalthea_doc(tmp_path, body))
    assert str(caught.value).startswith(f"{tmp_path / 'm.amxmi'}:3:")


def test_a_scheduler_without_allocation(tmp_path: Path) -> None:
    body = (
        '<swModel><tasks name="T"/></swModel>'
        '<mappingModel><taskAllocation task="T?type=Task" scheduler="S?type=TaskScheduler"/></mappingModel>'
    )
    with pytest.raises(ImportRefused, match="scheduler: no schedulerAllocation for scheduler 'S'"):
        read_model(amalthea_doc(tmp_path, body))
