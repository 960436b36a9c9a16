"""Batches of about equal estimated time: costly points get fewer to a batch; probing times each cost class."""

from __future__ import annotations

import pytest

from chainlab.sweep.batches import (
    TASK_SECONDS,
    fixed_batches,
    plan_batches,
    point_seconds,
    probe_groups,
    probe_order,
    run_ids,
    run_slices,
)


def test_costly_points_get_smaller_batches_of_about_the_task_time() -> None:
    keys = [f"k{i}" for i in range(4000)]
    seconds = [0.001] * 2000 + [0.05] * 2000  # a cheap period set, then one 50x costlier
    batches = plan_batches(keys, seconds, workers=2)
    assert [k for b in batches for k in b] == keys  # consecutive, every key once
    per_batch = {k: len(b) for b in batches for k in b}
    assert per_batch["k0"] == round(TASK_SECONDS / 0.001) and per_batch["k2500"] == round(TASK_SECONDS / 0.05)


def test_a_short_sweep_still_gets_batches_for_every_worker() -> None:
    batches = plan_batches([str(i) for i in range(100)], [0.0001] * 100, workers=2)
    assert len(batches) == 8  # 4 a worker, though all of it is far under one task's time


def test_probing_times_every_cost_class_then_each_class_warm() -> None:
    costs = [1.0] * 10 + [50.0] * 10 + [1.0] * 5 + [7.0]
    # the first of each class; a second point of each (7.0 has none), then more of the first class
    assert probe_order(costs) == [0, 10, 25, 1, 11, 2, 3, 4]
    far = [1.0] * 2 + [2.0] + [1.0] * 100 + [2.0]  # 2.0's next point is too far on to be looked for
    assert probe_order(far) == [0, 2, 1, 3, 4, 5]


def test_probing_rows_computed_together_times_runs_of_one_class() -> None:
    costs = [1.0] * 10 + [50.0] * 10 + [1.0] * 5 + [7.0]
    assert probe_groups(costs, 1) == [[i] for i in probe_order(costs)]
    # then warm: the next 4 of each class
    assert probe_groups(costs, 4) == [[0, 1, 2, 3], [10, 11, 12, 13], [25], [4, 5, 6, 7], [14, 15, 16, 17]]
    first, costly = list(range(8)), list(range(10, 18))
    assert probe_groups(costs, 8) == [first, costly, [25], [8, 9], [18, 19]]
    assert probe_groups([1.0, 2.0, 1.0], 8) == [[0], [1]]  # the next point is of another class: no warm run
    assert probe_groups([], 8) == []


def test_a_labelled_group_is_never_cut_apart() -> None:
    keys = [f"k{i}" for i in range(600)]
    labels = [i // 70 for i in range(600)]  # runs of 70 points
    batches = plan_batches(keys, [0.001] * 600, workers=1, labels=labels)
    assert [k for b in batches for k in b] == keys
    assert all(labels[keys.index(b[0])] != labels[keys.index(b[0]) - 1] for b in batches[1:])  # each at a run's start
    assert [len(b) for b in batches] == [210, 210, 180]  # full (0.15 s) at 150 points: cut at the next run's start
    assert plan_batches(keys, [1.0] * 600, workers=1, labels=labels)[0] == keys[:70]  # a long run stays whole


def test_probing_groups_end_where_the_label_changes() -> None:
    costs = [1.0] * 10 + [50.0] * 10
    labels = [0] * 3 + [1] * 7 + [2] * 10
    assert probe_groups(costs, 256, labels) == [
        [0, 1, 2],
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        [3, 4, 5, 6, 7, 8, 9],
    ]
    # warm: the class's next whole run (up to 64 points), else what follows its first group
    assert probe_groups(costs, 4, labels) == [[0, 1, 2], [10, 11, 12, 13], [3, 4, 5, 6, 7, 8, 9], [14, 15, 16, 17]]
    runs = [i // 20 for i in range(100)]  # runs of 20 points; the next run of the class is timed whole
    assert probe_groups([1.0] * 100, 8, runs) == [list(range(8)), list(range(20, 40))]


def test_an_unmeasured_class_is_scaled_from_the_nearest_measured_one() -> None:
    seconds = point_seconds({1.0: 0.002, 100.0: 0.05})
    assert seconds(1.0) == 0.002 and seconds(100.0) == 0.05
    assert seconds(200.0) == pytest.approx(0.1) and seconds(2.0) == pytest.approx(0.004)
    with pytest.raises(ValueError):
        point_seconds({})


def test_fixed_batches_keep_the_callers_size() -> None:
    assert fixed_batches(["a", "b", "c", "d", "e"], 2) == [["a", "b"], ["c", "d"], ["e"]]


def test_slices_here_end_where_a_run_ends() -> None:
    labels = [i // 5 for i in range(23)]  # runs of 5
    assert run_slices(23, 8, labels) == [range(0, 5), range(5, 10), range(10, 15), range(15, 23)]
    assert run_slices(23, 12, labels) == [range(0, 10), range(10, 20), range(20, 23)]
    assert run_slices(23, 8) == [range(0, 8), range(8, 16), range(16, 23)]
    assert run_slices(20, 8, [0] * 20) == [range(0, 8), range(8, 16), range(16, 20)]  # a long run: cut, at most 8
    assert run_slices(0, 8) == []


def test_consecutive_equal_labels_get_one_run_number() -> None:
    assert run_ids([("a", (1,)), ("a", (1,)), ("b", (1,)), ("a", (1,)), ("a", (1,))]) == [0, 0, 1, 2, 2]
    assert run_ids([]) == []
