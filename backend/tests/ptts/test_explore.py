"""Design-space exploration (Figure 5.14, section 5.7): the sweep equals individual analyses, wherever it runs."""

from __future__ import annotations

import importlib
import itertools
from pathlib import Path

import pytest
from ptts_cases import MS, config, fig52, loc

from chainlab.errors import ChainlabError, ModelError
from chainlab.ptts import analyze, estimate_cost, explore

explore_module = importlib.import_module("chainlab.ptts.explore")  # the package's `explore` is the function
C2_PERIODS = [16_600_000, 16_700_000, 16_670_000]  # the issue's --periods C2=16.6ms,16.7ms,16.67ms


def with_deadline():
    ir = config("e")
    ir["requirements"] = [{"kind": "deadline", "op": "<=", "bound_ns": 90 * MS, "probability": 0.9, "loc": loc(9)}]
    return ir


def test_offset_sweep_of_c2_in_config_e():
    ir = with_deadline()
    r = explore(ir, ["C2"], step_ns=2 * MS, objective="p99", cluster="process")
    assert (r["engine"], r["workers"], r["complete"]) == ("process", 1, True)
    assert [p["offsets_ms"]["C2"] for p in r["points"]] == [0, 2, 4, 6, 8, 10, 12, 14, 16]
    for p in r["points"][::4]:
        ir2 = config("e")
        ir2["components"][2]["offset_ns"] = p["offsets_ns"]["C2"]
        a = analyze(ir2)
        assert p["mean_ms"] == pytest.approx(a["mean_ms"])
        assert p["p99_ms"] == a["percentiles"]["99"] and p["p50_ms"] == a["percentiles"]["50"]
    assert r["best"]["p99_ms"] == min(p["p99_ms"] for p in r["points"])
    means = [p["mean_ms"] for p in r["points"]]
    assert means != sorted(means) and means != sorted(means, reverse=True)  # not monotonic in the offset
    best_deadline = explore(ir, ["C2"], step_ns=2 * MS, objective="deadline")["best"]
    assert best_deadline["p_deadline"] == max(p["p_deadline"] for p in r["points"])
    assert explore(ir, ["C2"], step_ns=2 * MS, objective="p50")["best"]["p50_ms"] == min(
        p["p50_ms"] for p in r["points"]
    )


def test_default_step_and_two_components():
    r = explore(config("e"), ["C1", "C2"], objective="mean")
    assert 1 < len(r["points"]) <= 400
    assert all(set(p["offsets_ns"]) == {"C1", "C2"} and p["periods_ns"] == {} for p in r["points"])
    assert r["best"]["mean_ms"] == min(p["mean_ms"] for p in r["points"])


def test_periods_are_a_grid_dimension_and_each_point_is_its_own_analysis():
    r = explore(config("e"), ["C1"], step_ns=4 * MS, periods={"C2": C2_PERIODS}, pareto=["p99", "loss"])
    offsets = list(range(0, 16_600_000, 4 * MS))
    assert [(p["periods_ns"]["C2"], p["offsets_ns"]["C1"]) for p in r["points"]] == list(
        itertools.product(C2_PERIODS, offsets)
    )
    assert r["periods_ns"] == {"C2": C2_PERIODS} and r["total_points"] == len(r["points"]) == 15
    # a point holds exactly what was swept: the editor writes the best one into the model as it is (contract)
    assert all(set(p["offsets_ns"]) == {"C1"} and set(p["periods_ns"]) == {"C2"} for p in r["points"])
    for p in r["points"][1::4]:
        ir = config("e")
        ir["components"][1]["offset_ns"] = p["offsets_ns"]["C1"]
        ir["components"][2]["period_ns"] = p["periods_ns"]["C2"]
        a = analyze(ir)
        assert (p["p99_ms"], p["loss"]) == (a["percentiles"]["99"], a["loss_probability"])
    # periods change the hyper-period, so the points differ in cost (eq. 5.15): the sweep's cost is their sum
    costs = []
    for period in C2_PERIODS:
        ir = config("e")
        ir["components"][2]["period_ns"] = period
        costs.append(estimate_cost(ir)["eq_5_15"])
    assert r["cost"]["eq_5_15"] == 5 * sum(costs) and max(costs) > 100 * min(costs)
    front = r["pareto"]["points"]
    assert r["pareto"]["objectives"] == ["p99", "loss"]
    for p in r["points"]:  # every point is on the front or dominated by one on it
        on = p in front
        beaten = any(q["p99_ms"] <= p["p99_ms"] and q["loss"] <= p["loss"] and q != p for q in front)
        assert on != beaten or (on and not beaten)
        assert not (on and any(q["p99_ms"] <= p["p99_ms"] and q["loss"] < p["loss"] for q in r["points"]))


def test_the_same_points_in_process_and_on_a_local_cluster():
    args = (config("e"), ["C1", "C2"])
    options = {"step_ns": 4 * MS, "periods": {"C2": C2_PERIODS[:2]}}
    here = explore(*args, **options, cluster="process")
    local = explore(*args, **options, cluster="local")
    assert (local["engine"], local["workers"]) == ("local", 2) or local["engine"] == "local"
    assert local["points"] == here["points"] and local["best"] == here["best"]


def test_a_sweep_too_costly_is_refused_with_a_coarser_step_or_fewer_periods():
    with pytest.raises(ModelError) as refused:
        explore(config("e"), ["C0", "C1"], step_ns=MS // 10, periods={"C2": C2_PERIODS}, max_operations=10**9)
    message = str(refused.value)
    assert "operations (eq. 5.15 summed over" in message and "limit 1e+09" in message
    assert "a step of at least" in message and "fewer periods (the costliest, C2=16.67 ms" in message
    step_ms = float(message.split("a step of at least ")[1].split(" ms")[0])
    with pytest.raises(ModelError, match="cancelled before its first point"):  # the suggested step is not refused
        explore(
            config("e"),
            ["C0", "C1"],
            step_ns=round(step_ms * MS),
            periods={"C2": C2_PERIODS},
            max_operations=10**9,
            cluster="process",
            cancelled=lambda: True,
        )


def test_out_csv_resume_and_another_model_refused(tmp_path: Path):
    out = tmp_path / "sweep.csv"
    ir = with_deadline()
    calls = itertools.count()
    step = MS // 10  # 166 points: this process analyses them in slices, checking for a cancel before each
    first = explore(ir, ["C2"], step_ns=step, out=out, cancelled=lambda: next(calls) >= 1, cluster="process")
    done = first["done_points"]
    assert not first["complete"] and 0 < done < 166 and len(first["points"]) == done
    assert len(out.read_text().splitlines()) == 1 + done
    whole = explore(ir, ["C2"], step_ns=step, out=out, resume=True)
    assert whole["complete"] and (whole["resumed_points"], whole["done_points"]) == (done, 166)
    assert whole["points"][:done] == first["points"]
    assert whole["points"] == explore(ir, ["C2"], step_ns=step, cluster="process")["points"]
    header = out.read_text().splitlines()[0]
    assert header == "key,model_hash,offset_ns.C2,mean_ms,p50_ms,p99_ms,max_ms,loss,p_deadline"
    again = explore(ir, ["C2"], step_ns=step, out=out, resume=True)
    assert again["resumed_points"] == 166 and again["points"] == whole["points"]
    with pytest.raises(ChainlabError, match="already exists: resume it"):
        explore(ir, ["C2"], step_ns=step, out=out)
    changed = with_deadline()
    changed["components"][0]["period_ns"] += MS
    with pytest.raises(ChainlabError, match="holds results of another model"):
        explore(changed, ["C2"], step_ns=step, out=out, resume=True)


def test_a_candidate_period_the_analysis_refuses_is_named_before_anything_runs():
    with pytest.raises(
        ModelError, match=r"with periods C2=16.67 ms: the hyper-period of .* latency trees \(limit 1000\)"
    ):
        explore(config("e"), ["C1"], step_ns=4 * MS, periods={"C2": [16_600_000, 16_670_000]}, max_trees=1000)


def test_a_flat_objective_is_said_and_the_best_keeps_the_current_offset():
    # Fig52's mean does not depend on C1's offset: the analysis gives 200 ms at every offset, with noise in the
    # 14th digit that must neither pick a best (it picked 43 ms) nor read as a dependence
    r = explore(fig52(), ["C1"], objective="mean", cluster="process")
    means = [p["mean_ms"] for p in r["points"]]
    assert len(r["points"]) == 58 and max(means) - min(means) < 1e-9
    assert r["depends"] == {"offsets": {"C1": False}, "periods": {}}
    assert r["current"] == {"offsets_ns": {"C1": 30 * MS}, "periods_ns": {}}
    assert r["best"]["offsets_ns"] == {"C1": 30 * MS}
    assert 0 < r["resolution"] < 1e-6
    # the loss does depend on it (odd and even ms differ): a real difference is not a tie
    loss = explore(fig52(), ["C1"], objective="loss", cluster="process")
    assert loss["depends"]["offsets"] == {"C1": True}
    assert loss["best"]["loss"] == pytest.approx(min(p["loss"] for p in loss["points"]), rel=1e-9)
    assert loss["best"]["offsets_ns"]["C1"] in (29 * MS, 31 * MS)  # the lowest loss nearest 30 ms


def test_p99_over_two_offsets_depends_on_one_the_other_keeps_its_offset():
    r = explore(fig52(), ["C1", "C2"], objective="p99", cluster="process")
    assert r["depends"]["offsets"] == {"C1": False, "C2": True}
    assert r["resolution"] == 1.0  # the time grid: 1 ms
    assert r["best"]["offsets_ns"]["C1"] == 30 * MS  # moving C1 changes nothing: it stays
    assert r["best"]["p99_ms"] == min(p["p99_ms"] for p in r["points"])
    lowest = [p["offsets_ns"]["C2"] for p in r["points"] if p["p99_ms"] == r["best"]["p99_ms"]]
    assert r["best"]["offsets_ns"]["C2"] == min(lowest, key=lambda o: abs(o - 8 * MS))


def test_the_current_offset_is_swept_where_the_step_misses_it():
    r = explore(fig52(), ["C2"], step_ns=5 * MS, objective="p99", cluster="process")
    assert [p["offsets_ms"]["C2"] for p in r["points"]] == [0, 5, 8, *range(10, 56, 5)]
    assert r["total_points"] == 13 and r["current"]["offsets_ns"] == {"C2": 8 * MS}
    current = next(p for p in r["points"] if p["offsets_ns"]["C2"] == 8 * MS)
    ir = fig52()
    assert current["p99_ms"] == analyze(ir)["percentiles"]["99"]  # the point at the model's offset is the model


def test_the_time_estimate_times_each_period_choice_in_runs_not_scaled_by_eq_5_15(monkeypatch):
    timed: list[tuple[int, int]] = []
    real = explore_module._timed

    def recording(shared, run):
        timed.append((run[0]["periods_ns"]["C2"], len(run)))
        return real(shared, run)

    monkeypatch.setattr(explore_module, "_timed", recording)
    r = explore(config("e"), ["C1", "C2"], step_ns=MS // 2, periods={"C2": [16_600_000, 16_700_000]})
    # eq. 5.15 says a 16.7 ms point costs 167x a 16.6 ms one; a run of them in one pass costs about the same
    assert (16_700_000, 1) in timed and (16_700_000, explore_module.ESTIMATE_RUN) in timed
    assert r["complete"] and r["done_points"] == 2 * 34 * 34
