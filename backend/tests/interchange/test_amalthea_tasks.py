"""Tasks as components: which are periodic, the core that times them, and their exact execution-time profile."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chainlab.interchange.amalthea_model import AmaltheaModel, read_model
from chainlab.interchange.amalthea_tasks import hz_text, periodic_tasks, runnable_tasks, task_core, task_etp
from chainlab.interchange.ptts_text import PmfEtp, PointEtp
from chainlab.interchange.xml_input import ImportRefused, read_xml
from tests.interchange.amalthea_helpers import amalthea_doc

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "import" / "xray-system.amxmi"
HW = (
    '<hwModel><domains xsi:type="am:FrequencyDomain" name="F"><defaultValue value="1" unit="GHz"/></domains>'
    '<structures name="S"><modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain"/>'
    '<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain"/></structures></hwModel>'
)


def model_of(tmp_path: Path, sw: str, extra: str = HW) -> AmaltheaModel:
    return read_model(amalthea_doc(tmp_path, f"<swModel>{sw}</swModel>{extra}"))


def test_the_sample_tasks() -> None:
    model = read_model(read_xml(SAMPLE))
    notes: list[str] = []
    periodic = periodic_tasks(model, notes)
    assert list(periodic) == ["Acquire", "Process", "Display", "Housekeeping"]
    assert "task 'Service' is activated by SporadicStimulus 'ServiceRequest' only" in notes[0]
    process = model.tasks["Process"]
    core = task_core(model, process, notes)
    assert core.name == "Core_Gpu"
    etp = task_etp(model, process, core, notes).etp
    assert etp == PmfEtp(
        {
            8_000_000: Fraction(63, 100),
            9_000_000: Fraction(59, 200),
            10_000_000: Fraction(7, 100),
            11_000_000: Fraction(1, 200),
        }
    )
    assert runnable_tasks(model, ["Acquire", "Housekeeping", "Service"])["LogStatus"] == {"Housekeeping", "Service"}


def test_an_unmapped_task_is_timed_at_the_first_core(tmp_path: Path) -> None:
    model = model_of(
        tmp_path,
        '<tasks name="T"><activityGraph><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" '
        'value="7"/></items></activityGraph></tasks>',
    )
    notes: list[str] = []
    core = task_core(model, model.tasks["T"], notes)
    assert core.name == "C0"
    assert notes == ["task 'T' is mapped to no core: its ticks are read at the first processing unit 'C0' (1 GHz)"]
    assert task_etp(model, model.tasks["T"], core, notes).etp == PointEtp(7)


def test_runnables_calling_themselves_are_refused(tmp_path: Path) -> None:
    call = '<activityGraph><items xsi:type="am:RunnableCall" runnable="{}?type=Runnable"/></activityGraph>'
    model = model_of(
        tmp_path,
        f'<tasks name="T">{call.format("A")}</tasks><runnables name="A">{call.format("B")}</runnables>'
        f'<runnables name="B">{call.format("A")}</runnables>',
    )
    with pytest.raises(ImportRefused, match="runnable 'A' calls itself"):
        task_etp(model, model.tasks["T"], model.cores["C0"], [])


def test_a_runnable_without_ticks_takes_no_time_and_is_said(tmp_path: Path) -> None:
    model = model_of(
        tmp_path,
        '<tasks name="T"><activityGraph><items xsi:type="am:RunnableCall" runnable="Idle?type=Runnable"/>'
        '</activityGraph></tasks><runnables name="Idle"/>',
    )
    notes: list[str] = []
    assert task_etp(model, model.tasks["T"], model.cores["C0"], notes).etp == PointEtp(0)
    assert "runnable 'Idle' has no Ticks: it takes no time" in notes


def test_two_periodic_stimuli_are_refused(tmp_path: Path) -> None:
    stimuli = "".join(
        f'<stimuli xsi:type="am:PeriodicStimulus" name="{n}"><recurrence value="1" unit="ms"/></stimuli>' for n in "PQ"
    )
    model = model_of(
        tmp_path,
        '<tasks name="T" stimuli="P?type=PeriodicStimulus Q?type=PeriodicStimulus"/>',
        f"<stimuliModel>{stimuli}</stimuliModel>",
    )
    with pytest.raises(ImportRefused, match="task 'T' has 2 periodic stimuli"):
        periodic_tasks(model, [])


def test_frequencies_read_well() -> None:
    assert [hz_text(Fraction(f)) for f in (10**9, 15 * 10**8, 32_768, Fraction(1, 3))] == [
        "1 GHz",
        "1500 MHz",
        "32768 Hz",
        "0.333333 Hz",
    ]
