"""Thesis §4.6.4 made concrete: threshold and suspension time from the real-time chain's isolated latency,
its requirement (the slack) and the bandwidths. The thesis gives no formula (NOTES §1.5); this rule is ours:

* threshold (per direction): the bandwidth left for best-effort work, (B_max − B_rt) / n_be, never more than
  one core's maximum; also given as a percentage of the single-core maximum.
* suspension time: while a best-effort core stays above its threshold it runs at most a fraction
  f = S / (S + T) of the time. Assuming the real-time latency increase scales with that fraction,
  f · d_cong ≤ d_allowed, with d_allowed = (requirement − isolated) / isolated and d_cong the congested
  increase (measured, else the thesis' worst case +136.5%, Table 4.4 X-rays), so
  T = S · (d_cong / d_allowed − 1), rounded up to whole sample intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chainlab.number_format import format_duration, format_number

#: Thesis Table 4.4, X-rays/X-rays congested: 13873 / 5867 − 1.
WORST_CONGESTED_INCREASE = 13873 / 5867 - 1


@dataclass(frozen=True)
class DutyProposal:
    sample_ns: int
    suspend_ns: int
    read_threshold_bps: float
    write_threshold_bps: float
    read_threshold_pct: float
    write_threshold_pct: float
    allowed_increase: float
    be_run_fraction: float
    reasoning: list[str] = field(default_factory=list)


def propose_duty_cycle(
    isolated_ns: float,
    requirement_ns: float,
    *,
    be_cores: int,
    core_read_bps: float,
    core_write_bps: float,
    aggregate_read_bps: float | None = None,
    aggregate_write_bps: float | None = None,
    rt_read_bps: float = 0.0,
    rt_write_bps: float = 0.0,
    congested_increase: float | None = None,
    sample_ns: int = 100_000,
    max_suspend_ns: int = 10_000_000,
) -> DutyProposal:
    if isolated_ns <= 0 or requirement_ns <= 0:
        raise ValueError("isolated latency and requirement must be positive")
    if be_cores < 1:
        raise ValueError("at least one best-effort core is needed")
    if requirement_ns <= isolated_ns:
        raise ValueError(
            f"no slack: the requirement ({format_duration(requirement_ns)}) is not above the isolated "
            f"latency ({format_duration(isolated_ns)}); no throttling can meet it"
        )
    why: list[str] = []
    agg_r = aggregate_read_bps if aggregate_read_bps is not None else core_read_bps * (be_cores + 1)
    agg_w = aggregate_write_bps if aggregate_write_bps is not None else core_write_bps * (be_cores + 1)
    # never 0 (the daemon reads 0 as "no threshold"): at least 1% of a core's maximum
    thr_r = min(core_read_bps, max(0.01 * core_read_bps, (agg_r - rt_read_bps) / be_cores))
    thr_w = min(core_write_bps, max(0.01 * core_write_bps, (agg_w - rt_write_bps) / be_cores))
    why.append(
        f"bandwidth left for best-effort: read {(agg_r - rt_read_bps) / 1e9:.2f} GB/s, write "
        f"{(agg_w - rt_write_bps) / 1e9:.2f} GB/s, over {be_cores} core(s), capped at one core's maximum"
    )
    allowed = (requirement_ns - isolated_ns) / isolated_ns
    d_cong = congested_increase if congested_increase is not None else WORST_CONGESTED_INCREASE
    why.append(
        f"slack: requirement {format_duration(requirement_ns)} vs isolated {format_duration(isolated_ns)} allows "
        f"+{100 * allowed:.1f}%; "
        f"congested increase {'measured' if congested_increase is not None else 'assumed (thesis worst case)'} "
        f"+{100 * d_cong:.1f}%"
    )
    if d_cong <= allowed:
        suspend = sample_ns
        why.append("the congested increase fits in the slack: suspend for one sample interval only")
    else:
        ratio = d_cong / allowed - 1
        suspend = math.ceil(ratio) * sample_ns
        why.append(
            f"T = S·(d_cong/d_allowed − 1) = {format_duration(sample_ns)} × {format_number(ratio)} → "
            f"{format_duration(suspend)} "
            f"(whole sample intervals)"
        )
        if suspend > max_suspend_ns:
            suspend = max_suspend_ns
            why.append(f"capped at {format_duration(max_suspend_ns)} so best-effort work keeps making progress")
    frac = sample_ns / (sample_ns + suspend)
    why.append(f"a best-effort core above its threshold runs at most {100 * frac:.1f}% of the time")
    return DutyProposal(
        sample_ns, suspend, thr_r, thr_w, 100 * thr_r / core_read_bps, 100 * thr_w / core_write_bps, allowed, frac, why
    )
