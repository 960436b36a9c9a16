"""The words of chain.langium that are not names: an imported name equal to one is renamed by the printers
(chain_text, ptts_text). The grammar's Name rule accepts its other keywords as names (`in`, `rows`, `bin`, ...);
tests/interchange/test_dsl_words.py holds this set to the grammar."""

from __future__ import annotations

RESERVED = frozenset(
    {
        *("box", "budget", "cache", "chain", "component", "cooperative", "cores", "cost", "counter", "depends"),
        *("distribution", "etp", "freeze", "image", "iterations", "kernel", "mechanism", "memory", "misses", "of"),
        *("offset", "order", "per", "period", "platform", "proportional", "ptts", "raw", "replay", "require"),
        *("resolution", "sample", "schedule", "sigstop", "smt", "source", "split", "ssh", "suspend", "target"),
        *("threads", "threshold", "throttle", "workload", "KiB", "MiB", "GiB"),
    }
)
