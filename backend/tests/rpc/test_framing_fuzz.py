"""Fuzz of the backend's framing through serve(): no crash, no hang, bounded memory, every request answered at
most once and the request after the hostile bytes answered (seeded; bench/rpc/fuzz_framing.py runs 10,000+)."""

from __future__ import annotations

from frame_fuzz import cases, check_case
from hypothesis import HealthCheck, given, settings


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(cases)
def test_hostile_frames_never_crash_hang_or_repeat(data: bytes) -> None:
    check_case(data)
