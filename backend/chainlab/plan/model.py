"""The planner's data: a checked chain, its sub-boxes, the mapping onto threads, signals, memory.

Everything here is plain data (dataclasses with integer ids); the algorithms live in the other
modules of `chainlab.plan`. Ids are dense indices so that the hot loops can use numpy arrays:
instances are numbered in a topological order of the chain, sub-boxes in the order of their
instance and slice, buffers in the order of their producer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from chainlab.plan.options import PlanOptions

HEURISTICS = ("simple", "barrier", "fixed", "predictable", "reduced")
MEMORIES = ("simple", "reuse")

Heuristic = Literal["simple", "barrier", "fixed", "predictable", "reduced"]
Memory = Literal["simple", "reuse"]


@dataclass
class Instance:
    """One box instance of the chain, with what the planner needs from its box."""

    index: int
    name: str
    box: str
    kernel: str
    args: list[float]  # the kernel's arguments as the IR gives them (ints stay ints)
    split: str  # "rows" | "none"
    depends: str  # "pointwise" | "halo" | "whole" | "none"
    halo_rows: int
    cost_ns: int | None
    etp: dict[str, Any] | None
    source_period_ns: int | None
    inputs: list[str]
    outputs: list[str]
    port_images: dict[str, dict[str, Any]]
    height: int  # rows of the image the box is sliced by (its first output, else its first input)
    pixels: int
    loc: dict[str, Any] | None
    box_loc: dict[str, Any] | None
    position: int  # where the chain declares it (`index` follows the data flow)


@dataclass
class BufferSpec:
    """One buffer per output port: written once by the producer, read by every connected input."""

    index: int
    name: str  # "instance.port"
    producer: int  # instance index
    port: str
    image: str
    bytes: int
    height: int
    row_bytes: int
    consumers: list[tuple[int, str]]  # (instance index, input port)


@dataclass
class ChainView:
    """A chain of the IR after the planner's checks (see `chainview.load_chain`)."""

    name: str
    loc: dict[str, Any] | None
    platform: dict[str, Any] | None
    instances: list[Instance]
    buffers: list[BufferSpec]
    input_buffer: dict[tuple[int, str], int]  # (instance, input port) -> buffer
    heuristic: str
    memory: str
    threads: int
    cores: list[int]
    iterations: int | None
    period_ns: int | None  # frame period of the sources (the largest, if several), None = self-timed
    source: str

    def input_buffers(self, inst: Instance) -> list[BufferSpec]:
        """The buffers `inst` reads, one per input port in the box's port order."""
        return [self.buffers[self.input_buffer[(inst.index, port)]] for port in inst.inputs]

    def output_buffers(self, inst: Instance) -> list[BufferSpec]:
        """The buffers `inst` writes, one per output port in the box's port order."""
        return [b for b in self.buffers if b.producer == inst.index]

    def image_of(self, buffer: BufferSpec) -> dict[str, Any]:
        """The IR image type of a buffer (its producer's output port)."""
        return self.instances[buffer.producer].port_images[buffer.port]


@dataclass
class SubBox:
    """A row slice of a box instance: slice `index` of `count` (rows [row_start, row_end))."""

    id: int
    name: str  # "instance.index", as in the thesis' f6.0 / f6.1
    instance: int
    index: int
    count: int
    row_start: int
    row_end: int
    height: int
    mean_cost_ns: float


@dataclass
class Dep:
    """Fine-grained data dependency: `dst` reads rows [row_start, row_end) of `buffer` that `src` wrote."""

    src: int
    dst: int
    buffer: int
    row_start: int
    row_end: int
    bytes: int


@dataclass
class Instantiation:
    """The instantiated description (thesis Figure 3.2): sub-boxes and fine-grained dependencies."""

    subs: list[SubBox]
    deps: list[Dep]
    by_instance: list[list[int]]
    writers: list[list[int]]  # per buffer: sub-boxes that write it
    readers: list[list[int]]  # per buffer: sub-boxes that read it
    preds: list[list[int]]  # per sub-box: distinct data predecessors
    succs: list[list[int]]
    read_bytes: list[dict[int, int]]  # per sub-box: predecessor -> bytes read from it
    topo: list[int]  # a topological order of the sub-boxes


@dataclass
class Mapping:
    """Sub-boxes onto threads. `pinned`: one thread per core with a static order (fixed and later);
    otherwise one OS-scheduled thread per sub-box (simple, barrier)."""

    pinned: bool
    thread_of: list[int]
    orders: list[list[int]]
    cores: list[int | None]
    est_start: list[float]
    est_finish: list[float]
    sos: list[int] | None = None  # the box-level static order schedule (reduced only)
    notes: list[str] = field(default_factory=list)


@dataclass
class Signal:
    """A counting signal from one thread to another. `data`: the sender's sub-box produced rows the
    receiver's sub-box reads (same iteration). `anti`: the sender's sub-box read rows the receiver's
    sub-box will overwrite in the next iteration; it starts with one token so iteration 0 can run.
    `reuse`: two buffers share memory; the sender's sub-box is the last user of the first buffer and
    the receiver's sub-box writes the second (tokens 0), or the same for the second buffer before the
    first is written again in the next iteration (tokens 1)."""

    id: int
    name: str
    kind: Literal["data", "anti", "reuse"]
    src: int  # sub-box after which it is sent
    dst: int  # sub-box before which it is waited for
    src_thread: int
    dst_thread: int
    initial_tokens: int
    buffers: list[int]


@dataclass
class Step:
    op: Literal["wait", "execute", "signal", "barrier"]
    ref: int  # signal id, sub-box id, or barrier id


@dataclass
class ThreadPlan:
    index: int
    name: str
    core: int | None
    affinity: list[int]
    steps: list[Step]


@dataclass
class Allocation:
    kind: str
    offsets: list[int]
    sizes: list[int]  # aligned sizes
    arena_bytes: int
    lower_bound_bytes: int
    lower_bound_exact: bool
    sum_bytes: int
    alignment: int
    huge_pages: bool
    order: str  # which placement order won (reuse)
    interference_edges: int


@dataclass
class ActiveData:
    """Live buffer bytes over one steady-state iteration of the nominal (mean-cost) execution."""

    window_ns: float
    profile: list[tuple[int, int]]  # (time from the iteration's start, live bytes from then on)
    peak_bytes: int
    peak_buffers: list[int]
    sos_peak_bytes: int | None


@dataclass
class LatencySummary:
    model: str
    samples: int
    nominal_ns: int
    mean_ns: float
    std_ns: float
    min_ns: int
    p50_ns: int
    p90_ns: int
    p99_ns: int
    max_ns: int
    period_ns: int | None
    overloaded: bool


@dataclass
class TokenGameReport:
    ok: bool
    iterations: int
    executed: int
    message: str


@dataclass
class Plan:
    chain: ChainView
    heuristic: str
    memory: str
    threads: int
    cores: list[int]
    inst: Instantiation
    mapping: Mapping
    signals: list[Signal]
    thread_plans: list[ThreadPlan]
    barrier: bool
    allocation: Allocation
    active: ActiveData
    latency: LatencySummary | None
    check: TokenGameReport
    options: PlanOptions
    timings_s: dict[str, float]
    seed: int
