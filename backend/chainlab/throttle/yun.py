"""Memory-budget analysis of Yun, Yao, Pellizzoni, Caccamo, Sha (seed 004, NOTES §2).

All times are in one unit (the caller's, e.g. ms); a budget Q is expressed as stall time (misses × L).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Curve = Callable[[float], float]


@dataclass(frozen=True)
class Task:
    """A periodic task on the critical core: WCET C, period T, deadline D, worst-case misses CM."""

    name: str
    C: float
    T: float
    D: float
    CM: float


def alpha_step(t: float, Q: float, P: float) -> float:
    """Exact (step) arrival curve of a (P, Q) deferrable-server flow: 2Q back-to-back, then Q per P (§2.3)."""
    if Q <= 0 or t <= 0:
        return 0.0
    if Q >= P:
        return t
    if t <= P + Q:
        return min(t, 2 * Q)
    k = math.floor((t - (P + Q)) / P)
    return 2 * Q + k * Q + min(Q, t - (P + Q) - k * P)


def alpha_upper(t: float, Q: float, P: float) -> float:
    """Linear upper bound α^u(t) = t·Q/P + 2Q(P−Q)/P (Yun §IV-A)."""
    if Q <= 0 or t <= 0:
        return 0.0
    return t * Q / P + 2 * Q * (P - Q) / P


def curve(kind: str, Q: float, P: float) -> Curve:
    if kind == "step":
        return lambda t: alpha_step(t, Q, P)
    if kind == "upper":
        return lambda t: alpha_upper(t, Q, P)
    raise ValueError(f"unknown arrival curve {kind!r} (step or upper)")


def stall_response(C: float, CML: float, alphas: Sequence[Curve], iterations: int = 10_000) -> float:
    """Eq. (2)/(10): Ĉ = C + Σ_c min(CM·L, α_c(Ĉ)), iterated from C to the fixed point."""
    c_hat = C
    for _ in range(iterations):
        nxt = C + sum(min(CML, a(c_hat)) for a in alphas)
        if abs(nxt - c_hat) < 1e-12:
            return nxt
        c_hat = nxt
    return c_hat


def misses_in(t: float, task: Task, hp: Sequence[Task]) -> float:
    """Eq. (4): 𝒩(t) = CM_i + Σ_{hp} ⌈t/T_j⌉·CM_j."""
    return task.CM + sum(math.ceil(t / j.T - 1e-12) * j.CM for j in hp)


def response_time(
    task: Task, hp: Sequence[Task], L: float, alphas: Sequence[Curve], M: int = 1, limit: float | None = None
) -> float:
    """Eq. (3)/(11) extended RTA; with M > 1 and one (global) curve, the dynamic scheme (𝒩·L·M). Returns
    math.inf when R exceeds limit (default: 100 × D)."""
    cap = limit if limit is not None else 100 * task.D
    r = task.C
    for _ in range(100_000):
        stall = sum(min(misses_in(r, task, hp) * L * M, a(r)) for a in alphas)
        nxt = task.C + sum(math.ceil(r / j.T - 1e-12) * j.C for j in hp) + stall
        if nxt > cap:
            return math.inf
        if abs(nxt - r) < 1e-12:
            return nxt
        r = nxt
    return r


def testing_set(task: Task, hp: Sequence[Task]) -> list[float]:
    """Eq. (5) plus D_i (NOTES §2.6: as printed the set is empty for τ_1)."""
    pts = {task.D}
    for j in hp:
        k = 1
        while k * j.T <= task.D:
            if k * j.T >= task.C:
                pts.add(k * j.T)
            k += 1
    return sorted(pts)


def slack(t: float, task: Task, hp: Sequence[Task]) -> float:
    """Eq. (7): 𝒮(t) = t − C_i − Σ_{hp} ⌈t/T_j⌉·C_j, the stall the task can afford by t."""
    return t - task.C - sum(math.ceil(t / j.T - 1e-12) * j.C for j in hp)


def q_at(t: float, S: float, N_L: float, P: float) -> float | None:
    """Eq. (6): largest Q with α^u(t) ≤ 𝒮(t); None if 𝒮 ≤ 0, math.inf if the task bound already suffices."""
    if S <= 0:
        return None
    if S >= N_L:
        return math.inf
    disc = (2 * P + t) ** 2 - 8 * S * P
    if disc < 0:
        return math.inf
    return (2 * P + t) / 4 - math.sqrt(disc) / 4


@dataclass(frozen=True)
class BudgetResult:
    Q: float  # stall-time budget per period, in [0, P]
    per_task: list[tuple[str, float, float | None]]  # (task, R with the final Q, Q_i or None if not limiting)
    limiting: str | None


def _hp(tasks: Sequence[Task], i: int) -> list[Task]:
    return list(tasks[:i])


def max_budget_single(tasks: Sequence[Task], P: float, L: float, M: int = 1) -> BudgetResult:
    """Algorithm 1 with Eq. (6) and (9): the largest Q (one interfering core, or M cores sharing one global
    budget when M > 1 — the dynamic scheme, 𝒩(t)·L multiplied by M). Tasks in priority order."""
    Q = P
    limiting: str | None = None
    qs: dict[str, float | None] = {}
    for i, task in enumerate(tasks):
        hp = _hp(tasks, i)
        if response_time(task, hp, L, [curve("upper", Q, P)], M) <= task.D:
            qs[task.name] = None
            continue
        cands = [q_at(t, slack(t, task, hp), misses_in(t, task, hp) * L * M, P) for t in testing_set(task, hp)]
        vals = [min(c, P) for c in cands if c is not None]
        q_i = max(vals) if vals else 0.0
        if not vals:
            raise ValueError(f"task {task.name} misses its deadline even without interference")
        qs[task.name] = q_i
        if q_i < Q:
            Q, limiting = q_i, task.name
    per = [
        (t.name, response_time(t, _hp(tasks, i), L, [curve("upper", Q, P)], M), qs[t.name]) for i, t in enumerate(tasks)
    ]
    return BudgetResult(Q, per, limiting)


def max_budget_static(
    tasks: Sequence[Task], P: float, L: float, shares: Sequence[float], kind: str = "upper", tol: float = 1e-9
) -> BudgetResult:
    """Static distribution over M cores (Yun §V-A): the largest global Q such that Eq. (11) with
    α_c = α(r_c·Q) holds for every task. Solved by bisection on Q (R is monotone in Q) instead of the
    interval sets of Eq. (12)–(14), whose printed Eq. (13) has a typo (NOTES §2.7)."""
    if abs(sum(shares) - 1) > 1e-9 or any(r <= 0 for r in shares):
        raise ValueError("shares must be positive and sum to 1")

    def ok(Q: float) -> bool:
        alphas = [curve(kind, r * Q, P) for r in shares]
        return all(response_time(t, _hp(tasks, i), L, alphas) <= t.D for i, t in enumerate(tasks))

    if not ok(0.0):
        raise ValueError("the task set misses a deadline even without interference")
    if ok(P):
        lo = P
    else:
        lo, hi = 0.0, P
        while hi - lo > tol:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    alphas = [curve(kind, r * lo, P) for r in shares]
    per: list[tuple[str, float, float | None]] = [
        (t.name, response_time(t, _hp(tasks, i), L, alphas), None) for i, t in enumerate(tasks)
    ]
    worst = max(tasks, key=lambda t: dict((n, r) for n, r, _ in per)[t.name] / t.D)
    return BudgetResult(lo, per, None if lo >= P else worst.name)


def saturation_share(C: float, CML: float, P: float, kind: str, step: float = 1e-4) -> float:
    """Smallest bandwidth share Q/P at which Eq. (2) reaches its ceiling C + CM·L (Figure 6)."""
    share = 0.0
    while share <= 1.0:
        if stall_response(C, CML, [curve(kind, share * P, P)]) >= C + CML - 1e-9:
            return share
        share += step
    return 1.0


def misses(Q: float, L: float) -> int:
    """Budget in cache misses from a stall-time budget (paper: ×33 ns)."""
    return math.floor(Q / L + 1e-9)
