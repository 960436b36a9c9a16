"""Slack and the critical path of the estimated schedule (`chainlab.plan.slack`)."""

from __future__ import annotations

import pytest
from plan_helpers import appendix_a_ir_by_hand, fig35_ir_by_hand

from chainlab.plan import PlanOptions, make_plan, plan_to_json
from chainlab.plan.model import Instantiation, Mapping, SubBox
from chainlab.plan.slack import _successors, plan_slack, schedule_slack

HEURISTICS = ["simple", "barrier", "fixed", "predictable", "reduced"]


def _plan(heuristic: str, ir_of=fig35_ir_by_hand):
    ir = ir_of()
    return make_plan(ir, ir["chains"][0]["name"], PlanOptions(heuristic=heuristic, predict=False))


def _finish_with_delay(plan, sync_ns: float, delayed: int, by: float) -> float:
    """The end of the schedule graph run as early as possible when sub-box `delayed` starts `by` ns later."""
    inst, mapping = plan.inst, plan.mapping
    succs = _successors(inst, mapping, sync_ns)
    preds: list[list[tuple[int, float]]] = [[] for _ in inst.subs]
    for s, edges in enumerate(succs):
        for t, lag in edges:
            preds[t].append((s, lag))
    finish: dict[int, float] = {}
    pending = set(range(len(inst.subs)))
    while pending:
        for s in sorted(pending):
            if all(p in finish for p, _ in preds[s]):
                start = max((finish[p] + lag for p, lag in preds[s]), default=mapping.est_start[s])
                finish[s] = start + (by if s == delayed else 0.0) + inst.subs[s].mean_cost_ns
                pending.discard(s)
    return max(finish.values())


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_slack_is_the_delay_the_plan_absorbs(heuristic):
    """Starting a sub-box its slack later keeps the nominal finish; 1 µs more delays it (critical: at once)."""
    plan = _plan(heuristic)
    charged = plan.mapping.pinned and heuristic in ("predictable", "reduced")
    sync = plan.options.sync_ns if charged else 0.0
    slack, critical = plan_slack(plan)
    end = max(plan.mapping.est_finish)
    assert _finish_with_delay(plan, sync, -1, 0.0) == pytest.approx(end)
    for s in range(len(plan.inst.subs)):
        assert _finish_with_delay(plan, sync, s, slack[s]) == pytest.approx(end)
        assert _finish_with_delay(plan, sync, s, slack[s] + 1000.0) == pytest.approx(end + 1000.0)
        assert critical[s] == (slack[s] < 0.5)
    assert any(critical)


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_critical_sub_boxes_span_the_nominal_schedule(heuristic):
    """The critical sub-boxes run from the first start to the last finish of the estimated schedule."""
    plan = _plan(heuristic, appendix_a_ir_by_hand)
    _, critical = plan_slack(plan)
    starts = [plan.mapping.est_start[s] for s in range(len(critical)) if critical[s]]
    finishes = [plan.mapping.est_finish[s] for s in range(len(critical)) if critical[s]]
    assert min(starts) == pytest.approx(min(plan.mapping.est_start))
    assert max(finishes) == pytest.approx(max(plan.mapping.est_finish))


def test_plan_json_has_slack_and_critical():
    data = plan_to_json(_plan("predictable"))
    for sub in data["sub_boxes"]:
        assert isinstance(sub["slack_ns"], int) and sub["slack_ns"] >= 0
        assert sub["critical"] is (sub["slack_ns"] == 0)


def _sub(i: int, cost: float) -> SubBox:
    return SubBox(i, f"b{i}.0", i, 0, 1, 0, 1, 1, cost)


def test_thread_order_gives_slack_to_the_short_branch():
    """a -> {b, c} -> d on two pinned threads: c (30 ns, on the other thread, behind a
    5 ns signal each way) carries the path to d; b (10 ns) may start 30 ns late, when d would start anyway."""
    subs = [_sub(0, 10), _sub(1, 10), _sub(2, 30), _sub(3, 10)]
    preds = [[], [0], [0], [1, 2]]
    succs = [[1, 2], [3], [3], []]
    inst = Instantiation(subs, [], [[0], [1], [2], [3]], [], [], preds, succs, [{}] * 4, [0, 1, 2, 3])
    start = [0.0, 10.0, 15.0, 50.0]
    finish = [10.0, 20.0, 45.0, 60.0]
    mapping = Mapping(True, [0, 0, 1, 0], [[0, 1, 3], [2]], [0, 1], start, finish)
    slack, critical = schedule_slack(inst, mapping, sync_ns=5.0)
    assert slack == [0.0, 30.0, 0.0, 0.0]
    assert critical == [True, False, True, True]


def test_empty_plan_has_no_slack():
    inst = Instantiation([], [], [], [], [], [], [], [], [])
    assert schedule_slack(inst, Mapping(True, [], [], [], [], [])) == ([], [])
