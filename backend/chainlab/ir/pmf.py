"""The contract's one rule for a pmf's probabilities (ir.schema.json#/$defs/PmfSumTolerance), as the language's
validator applies it: each probability as its shortest round-trip decimal, summed exactly, |sum - 1| <= tolerance
(the bound included). `check` 0.5 + 0.499999999 and `analyze` must agree."""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from decimal import Decimal

from chainlab.ir.model import ir_schema

#: How far from 1 the probabilities may sum; the contract states it once for both sides.
PMF_SUM_TOLERANCE: float = ir_schema()["$defs"]["PmfSumTolerance"]["const"]
_TOLERANCE = Decimal(repr(PMF_SUM_TOLERANCE))
# every float's shortest decimal fits: 17 significant digits, exponents down to 1e-324
_EXACT = decimal.Context(prec=800)


def exact_sum(probabilities: Sequence[float]) -> Decimal:
    """The exact sum of the probabilities' shortest decimals (what the IR's JSON numbers say)."""
    with decimal.localcontext(_EXACT):
        total = Decimal(0)
        for p in probabilities:
            total += Decimal(repr(float(p)))
        return total


def sums_to_one(probabilities: Sequence[float]) -> bool:
    """The rule. Far from the bound the float sum decides (it is within 1e-15 of the exact one); near it, the
    exact decimal sum does, so both sides agree on a pmf off by exactly the tolerance."""
    off = abs(math.fsum(probabilities) - 1.0)
    if off < PMF_SUM_TOLERANCE / 2:
        return True
    if off > PMF_SUM_TOLERANCE * 2:
        return False
    with decimal.localcontext(_EXACT):
        return abs(exact_sum(probabilities) - 1) <= _TOLERANCE
