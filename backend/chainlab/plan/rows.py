"""The row rule of data parallelism (thesis §3.4.1): how many sub-boxes a box becomes, which rows each one
computes and which input rows it reads. The language shows the same split in its hover and diagrams
(language/src/dsl/row-slices.ts); tests/split-vectors holds the answers both sides must give.
"""

from __future__ import annotations


def kernel_halo_rows(kernel: str, args: list[float]) -> int:
    """Rows a kernel reads around each output row: (k-1)/2 for a k x k convolution, else none."""
    if kernel == "convolution":
        return (int(args[0] if args else 1) - 1) // 2
    return 0


def sub_box_count(split: str, height: int, threads: int) -> int:
    """One sub-box per thread for `split rows` (at most one per row); one for any other box."""
    return max(1, min(threads, height)) if split == "rows" else 1


def slice_rows(k: int, n: int, height: int) -> tuple[int, int]:
    """Rows [start, end) of slice k of n."""
    return k * height // n, (k + 1) * height // n


def read_rows(k: int, n: int, height: int, depends: str, halo: int) -> tuple[int, int]:
    """Input rows [start, end) slice k of n reads: its own rows, widened by the halo, or the whole frame."""
    if n == 1 or depends in ("whole", "none"):
        return 0, height
    r0, r1 = slice_rows(k, n, height)
    if depends == "halo":
        return max(0, r0 - halo), min(height, r1 + halo)
    return r0, r1
