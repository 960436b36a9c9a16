"""One hop of a latency tree: which trigger of C_{i+1} consumes the output of a trigger of C_i.

This is eq. 5.7 of the thesis, u(i+1, t_a, t_b) = sum_{t=t_b-d+1}^{t_b} f_i(t - t_a), grouped by
consumer. For production-first the consumer trigger t_b reads productions in (t_b - d, t_b];
for consumption-first in [t_b - d, t_b). The result depends only on the *phase* of the producing
trigger relative to the consumer's period, phi = (t_a - o_{i+1}) mod d_{i+1}, and producer
triggers t_a = o_i + n d_i only take d_{i+1} / gcd(d_i, d_{i+1}) phases. So the whole hop is a
small table, built once with vectorised CDF look-ups (a difference of two cumulative sums per
entry) and then gathered for millions of triggers at a time.
"""

from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from chainlab.ptts.grid import GridChain

TABLE_LIMIT = 4_000_000  # phases x columns above which rows are computed on the fly


class Hop:
    """Consumer offsets and probabilities for every phase of a producer trigger."""

    def __init__(
        self,
        prod_period: int,
        prod_offset: int,
        cons_period: int,
        cons_offset: int,
        etp_values: np.ndarray,
        etp_probs: np.ndarray,
        production_first: bool,
    ) -> None:
        self.D = int(cons_period)
        self.O = int(cons_offset)
        self.G = math.gcd(int(prod_period), self.D)
        self.phases = self.D // self.G
        self.c0 = (int(prod_offset) - self.O) % self.G
        self.values = np.asarray(etp_values, dtype=np.int64)
        self.probs = np.asarray(etp_probs, dtype=np.float64)
        self.cum = np.concatenate([[0.0], np.cumsum(self.probs)])
        self.emin = int(self.values[0])
        self.emax = int(self.values[-1])
        self.production_first = production_first
        self.K = (self.emax - self.emin) // self.D + 2
        self.table_off: np.ndarray | None = None
        self.table_prob: np.ndarray | None = None
        if self.phases * self.K <= TABLE_LIMIT:
            phi = self.c0 + self.G * np.arange(self.phases, dtype=np.int64)
            off, prob = self._rows(phi)
            # move each phase's non-zero entries to the front (sparse ETPs leave gaps), keep order
            order = np.argsort(prob <= 0, axis=1, kind="stable")
            off = np.take_along_axis(off, order, axis=1)
            prob = np.take_along_axis(prob, order, axis=1)
            k = max(1, int((prob > 0).sum(axis=1).max()))
            self.K = k
            self.table_off = np.ascontiguousarray(off[:, :k])
            self.table_prob = np.ascontiguousarray(prob[:, :k])

    def at_offsets(self, prod_offset: int, cons_offset: int) -> Hop:
        """The same hop for other offsets of the same phase class c0: the phase table depends only on c0, so it is
        shared (not copied); lookups use the new consumer offset."""
        if (int(prod_offset) - int(cons_offset)) % self.G != self.c0:
            raise ValueError(f"offsets {prod_offset}, {cons_offset} are not in the phase class {self.c0} of the hop")
        moved = copy.copy(self)
        moved.O = int(cons_offset)
        return moved

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """P(e <= x) for integer x (grid units)."""
        return self.cum[np.searchsorted(self.values, x, side="right")]

    def window(self, rel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inclusive ETP-value range read by a consumer trigger at `rel` after the producer trigger."""
        if self.production_first:
            return rel - self.D + 1, rel
        return rel - self.D, rel - 1

    def _rows(self, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        D = self.D
        k_lo = -(-(phi + self.emin) // D) if self.production_first else (phi + self.emin) // D + 1
        ks = k_lo[:, None] + np.arange(self.K, dtype=np.int64)[None, :]
        rel = ks * D - phi[:, None]
        lo, hi = self.window(rel)
        prob = self.cdf(hi) - self.cdf(lo - 1)
        return rel, prob

    def overtake_mass(self, rel: np.ndarray, delta: np.ndarray, later: np.ndarray) -> np.ndarray:
        """P(both containers land in the window of the consumer and the second one is written last).

        Producer triggers t and t2 = t - delta feed the same consumer trigger at t + rel. The
        second container is written last when it is produced strictly later, or at the same
        instant and `later` (its trigger is the later one). Exact: a sum over the ETP support
        computed with per-delta cumulative sums.
        """
        out = np.zeros(len(rel))
        lo, hi = self.window(rel)
        up2 = self.window(rel + delta)[1]
        mass = self.cdf(hi) - self.cdf(lo - 1)
        out += mass * self.cdf(up2)
        ihi = np.searchsorted(self.values, hi, side="right")
        ilo = np.searchsorted(self.values, lo - 1, side="right")
        for dv in np.unique(delta):
            sel = delta == dv
            shifted = self.values + dv
            below = self.probs * self.cdf(shifted)
            pos = np.searchsorted(self.values, shifted)
            pos_c = np.minimum(pos, len(self.values) - 1)
            tie = np.where(self.values[pos_c] == shifted, self.probs[pos_c], 0.0) * self.probs
            cb = np.concatenate([[0.0], np.cumsum(below)])
            ct = np.concatenate([[0.0], np.cumsum(tie)])
            out[sel] -= cb[ihi[sel]] - cb[ilo[sel]]
            out[sel] += np.where(later[sel], ct[ihi[sel]] - ct[ilo[sel]], 0.0)
        return np.clip(out, 0.0, None)

    def lookup(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(offsets, probabilities), each (len(t), K): consumer trigger time minus t, and u()."""
        phi = (t - self.O) % self.D
        if self.table_off is not None and self.table_prob is not None:
            idx = phi // self.G
            return self.table_off[idx], self.table_prob[idx]
        return self._rows(phi)


def build_hops(chain: GridChain) -> list[Hop]:
    """The N-1 hops of a GridChain."""
    return [
        Hop(
            chain.periods[i],
            chain.offsets[i],
            chain.periods[i + 1],
            chain.offsets[i + 1],
            chain.etp_values[i],
            chain.etp_probs[i],
            chain.production_first,
        )
        for i in range(chain.n - 1)
    ]
