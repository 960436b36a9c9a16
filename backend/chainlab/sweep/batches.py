"""How a sweep's points are cut into Dask tasks: batches of about equal estimated time.

A point's time is measured in the client on a few points before the cluster starts (the first also catches a
broken model before any worker starts): the first point of each cost class (the caller's relative cost of a point;
for PTTS points eq. 5.15 of its period set, which differs 100x or more between candidate periods, and whose real
time does not follow it linearly), then each class again, warm: its first point also builds what the class's points
share (a period set's structure, once per batch on a worker), and where points are computed a run at a time, a part
of a run costs nearly what the whole does, so the warm time is that of the class's next whole run (timed on 8
points of a 34-point run, the ConfigE sweep's costly points came out 5-15x dearer than they are, and were cut into
tasks of ~30 ms). A class never measured is scaled from the measured class of the nearest cost. A batch of costly
points then holds fewer points, so no task runs much longer than TASK_SECONDS and the last tasks of a sweep end
together. Points a caller labels as one group (a run whose rows are computed together) are never cut apart in a
batch.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

TASK_SECONDS = 0.3  # aimed-at duration of one Dask task: long enough to hide the task overhead (5-10 ms of the
# client's and the scheduler's CPU a task, measured on 2 cores), short enough that a cancelled or killed task wastes
# little and the progress moves
TASKS_PER_WORKER = 4  # at least: the last tasks then balance over the workers
PROBE_CLASSES = 8  # cost classes timed in the client (their first point each)
PROBE_WARM = 4  # warm points of the first class (the first point of a class pays its cold start)
WARM_WINDOW = 64  # a warm point of a class is looked for this many points after its first
WARM_RUN = 64  # points of a class's warm run timed at most
RUN_WINDOW = 4096  # a class's next run is looked for this many points after its first group
PROBE_SECONDS = 0.2  # the warm points stop once this much time has gone into probing


def probe_order(costs: Sequence[float]) -> list[int]:
    """Indices of the points to time in the client: the first of each cost class, then the next point of each class
    (warm: a class's first point also pays what its points share, a period set's structure, which a batch pays once),
    then further points of the first class."""
    if not costs:
        return []
    firsts: dict[float, int] = {}
    for i, c in enumerate(costs):
        if c not in firsts and len(firsts) < PROBE_CLASSES:
            firsts[c] = i
    first_class = [i for i, c in enumerate(costs[: 1 + WARM_WINDOW * PROBE_WARM]) if c == costs[0] and i != 0]
    others = [_next_of_class(costs, i) for i in list(firsts.values())[1:]]
    warm = [*first_class[:1], *[i for i in others if i is not None], *first_class[1:PROBE_WARM]]
    return [*firsts.values(), *warm]


def _next_of_class(costs: Sequence[float], first: int) -> int | None:
    """The next point of the class of `first` within WARM_WINDOW points, if any."""
    window = range(first + 1, min(len(costs), first + 1 + WARM_WINDOW))
    return next((i for i in window if costs[i] == costs[first]), None)


def probe_groups(costs: Sequence[float], run: int, labels: Sequence[Hashable] | None = None) -> list[list[int]]:
    """`probe_order` for rows computed `run` points at a time: the first `run` consecutive points of each cost class
    (those of one class after its first point), then the next ones of each class (warm); run 1: probe_order.
    labels: a group (up to `run` points) ends where the label changes too, so it times one whole run of points that
    share their work, as the sweep computes them."""
    if run == 1:
        return [[i] for i in probe_order(costs)]
    firsts = probe_order(costs)[: min(len(set(costs)), PROBE_CLASSES)]
    groups = [_consecutive(costs, labels, i, run) for i in firsts]
    return [g for g in [*groups, *(_warm_group(costs, labels, g, run) for g in groups if g)] if g]


def _warm_group(costs: Sequence[float], labels: Sequence[Hashable] | None, first: list[int], run: int) -> list[int]:
    """What times a class warm after its first group: the next whole run of the class (up to WARM_RUN points; the
    rows of a run share its work, so part of one costs nearly the whole), else the points after the first group."""
    cost = costs[first[0]]
    if labels is not None:
        window = range(first[-1] + 1, min(len(costs), first[-1] + 1 + RUN_WINDOW))
        start = next((i for i in window if labels[i] != labels[i - 1] and costs[i] == cost), None)
        if start is not None:
            return _consecutive(costs, labels, start, max(run, WARM_RUN), cost)
    return _consecutive(costs, labels, first[-1] + 1, run, cost)


def _consecutive(
    costs: Sequence[float], labels: Sequence[Hashable] | None, start: int, run: int, cost: float | None = None
) -> list[int]:
    """Up to `run` points from `start` on while they are of the cost class of `start` (or `cost`) and, with labels,
    of its label."""
    want = costs[start] if cost is None and start < len(costs) else cost
    end = start
    while end < len(costs) and end - start < run and costs[end] == want:
        if labels is not None and labels[end] != labels[start]:
            break
        end += 1
    return list(range(start, end))


def point_seconds(measured: dict[float, float]) -> Callable[[float], float]:
    """Estimated seconds of a point of cost c: its class's measured time, else the nearest measured class's time
    scaled by the cost ratio."""
    if not measured:
        raise ValueError("no point was timed")
    classes = sorted(measured)

    def seconds(c: float) -> float:
        if c in measured:
            return measured[c]
        nearest = min(classes, key=lambda m: abs(m - c))
        return measured[nearest] * (c / nearest if nearest > 0 else 1.0)

    return seconds


def plan_batches(
    keys: Sequence[str], seconds: Sequence[float], workers: int, labels: Sequence[Hashable] | None = None
) -> list[list[str]]:
    """Consecutive batches of `keys` (neighbours share their period set's structures in a worker), each of about
    TASK_SECONDS estimated time, and at least TASKS_PER_WORKER batches a worker when there are enough points.
    labels: consecutive keys of one label stay in one batch (a batch ends at the first change of label once full)."""
    total = float(sum(seconds))
    budget = max(min(TASK_SECONDS, total / (TASKS_PER_WORKER * max(1, workers))), 1e-9)
    batches: list[list[str]] = []
    current: list[str] = []
    filled = 0.0
    for i, (key, s) in enumerate(zip(keys, seconds)):
        if filled >= budget and (labels is None or labels[i] != labels[i - 1]):
            batches.append(current)
            current, filled = [], 0.0
        current.append(key)
        filled += s
    if current:
        batches.append(current)
    return batches


def fixed_batches(keys: Sequence[str], size: int) -> list[list[str]]:
    """Batches of `size` points (the caller chose it)."""
    return [list(keys[i : i + size]) for i in range(0, len(keys), size)]


def run_slices(count: int, size: int, labels: Sequence[Hashable] | None = None) -> list[range]:
    """`count` indices in consecutive slices of `size` at most, each ending where the label changes if it changes
    in the slice's second half (a run computed together and cut in two pays its shared work twice)."""
    slices: list[range] = []
    start = 0
    while start < count:
        end = min(start + size, count)
        if labels is not None and end < count:
            end = next((e for e in range(end, start + size // 2, -1) if labels[e] != labels[e - 1]), end)
        slices.append(range(start, end))
        start = end
    return slices


def run_ids(labels: Iterable[Hashable]) -> list[int]:
    """A number for each label, the same for consecutive equal labels: what batches compare, kept as small ints
    rather than the labels (a sweep's thousands of nested tuples kept alive cost the collector tens of ms)."""
    ids: list[int] = []
    previous: object = object()
    run = -1
    for label in labels:
        if label != previous:
            run, previous = run + 1, label
        ids.append(run)
    return ids
