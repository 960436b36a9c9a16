"""A dataflow graph as both readers (SDF3, PREESM) leave it: actors with rated ports, channels with initial tokens,
execution times and token sizes. `check_graph` refuses what has no chainlab equivalent, naming the element; the
repetition vector tells which actors run once per frame and which run on equal slices of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from xml.etree.ElementTree import Element

from chainlab.interchange.xml_input import XmlDocument


@dataclass
class DfPort:
    """A port: its direction and how many tokens a firing consumes or produces on it."""

    name: str
    direction: str  # "in" | "out"
    rate: int
    element: Element


@dataclass
class DfActor:
    """An actor: its ports and its execution time per firing (in the graph's time unit; None when not given)."""

    name: str
    ports: list[DfPort]
    element: Element
    time: Fraction | None = None
    type: str | None = None

    def port(self, name: str, direction: str) -> DfPort | None:
        return next((p for p in self.ports if p.name == name and p.direction == direction), None)

    @property
    def inputs(self) -> list[DfPort]:
        return [p for p in self.ports if p.direction == "in"]

    @property
    def outputs(self) -> list[DfPort]:
        return [p for p in self.ports if p.direction == "out"]


@dataclass
class DfChannel:
    """A channel from an output port to an input port, with its initial tokens and token size (bits, if known)."""

    name: str
    src: str
    src_port: str
    dst: str
    dst_port: str
    element: Element
    initial_tokens: int = 0
    token_bits: int | None = None


@dataclass
class DataflowGraph:
    """One graph read from a file, before it becomes a chain.

    Attributes
    ----------
    unit_ns : Fraction
        Nanoseconds per time unit of the graph's execution times and period.
    period : Fraction or None
        Time units between two graph iterations (frames), if the file constrains it.
    notes : list of str
        What the reader assumed or left out.
    """

    name: str
    doc: XmlDocument
    actors: list[DfActor] = field(default_factory=list)
    channels: list[DfChannel] = field(default_factory=list)
    unit_ns: Fraction = Fraction(1000)
    period: Fraction | None = None
    notes: list[str] = field(default_factory=list)
    _index: dict[str, DfActor] = field(default_factory=dict, repr=False)
    _indexed: int = field(default=-1, repr=False)

    def actor(self, name: str) -> DfActor | None:
        # an index kept in step with the list (the readers append to it): a large graph stays linear
        if self._indexed != len(self.actors):
            self._index = {a.name: a for a in reversed(self.actors)}
            self._indexed = len(self.actors)
        return self._index.get(name)


def check_graph(graph: DataflowGraph) -> dict[str, int]:
    """Refuses what a chain cannot say and returns the repetition vector (firings per frame of each actor).

    Parameters
    ----------
    graph
        The graph a reader filled.

    Returns
    -------
    dict of str to int
        Each actor's firings per graph iteration (one iteration is one frame).

    Raises
    ------
    ImportRefused
        At the element: a channel naming an unknown actor or port, a port used twice or not at all, a rate that is not
        positive, initial tokens (delays) other than an actor's own state, inconsistent rates, a multi-rate channel
        that is not a split into or a merge of equal slices, a cycle.
    """
    doc = graph.doc
    if not graph.actors:
        raise doc.error(doc.root, "the graph has no actors")
    _check_names(graph)
    used: dict[tuple[str, str, str], DfChannel] = {}
    for channel in graph.channels:
        _check_channel(graph, channel, used)
    for actor in graph.actors:
        for port in actor.ports:
            if port.rate <= 0:
                raise doc.error(port.element, f"port '{port.name}' of actor '{actor.name}' has rate {port.rate}")
            if port.direction == "in" and (actor.name, port.name, "in") not in used:
                raise doc.error(port.element, f"input port '{port.name}' of actor '{actor.name}' has no channel")
        if actor.time is not None and actor.time < 0:
            raise doc.error(actor.element, f"actor '{actor.name}' has a negative execution time ({actor.time})")
    state = [c for c in graph.channels if _is_state(graph, c)]
    graph.channels = [c for c in graph.channels if c not in state]
    for channel in state:
        owner = graph.actor(channel.src)
        assert owner is not None
        loop = {(channel.src_port, "out"), (channel.dst_port, "in")}
        owner.ports = [p for p in owner.ports if (p.name, p.direction) not in loop]
    repetitions = _repetitions(graph)
    for channel in graph.channels:
        _check_slices(graph, channel, repetitions)
    _check_acyclic(graph)
    return repetitions


def _check_names(graph: DataflowGraph) -> None:
    seen: set[str] = set()
    for actor in graph.actors:
        if actor.name in seen:
            raise graph.doc.error(actor.element, f"a second actor named '{actor.name}'")
        seen.add(actor.name)
        ports: set[tuple[str, str]] = set()
        for port in actor.ports:
            if (port.name, port.direction) in ports:
                raise graph.doc.error(port.element, f"actor '{actor.name}' has a second port named '{port.name}'")
            ports.add((port.name, port.direction))


def _check_channel(graph: DataflowGraph, channel: DfChannel, used: dict[tuple[str, str, str], DfChannel]) -> None:
    doc = graph.doc
    for actor_name, port_name, direction in (
        (channel.src, channel.src_port, "out"),
        (channel.dst, channel.dst_port, "in"),
    ):
        actor = graph.actor(actor_name)
        if actor is None:
            raise doc.error(channel.element, f"channel '{channel.name}' names an unknown actor '{actor_name}'")
        if actor.port(port_name, direction) is None:
            kind = "output" if direction == "out" else "input"
            raise doc.error(
                channel.element, f"channel '{channel.name}': actor '{actor_name}' has no {kind} port '{port_name}'"
            )
        key = (actor_name, port_name, direction)
        if key in used:
            raise doc.error(
                channel.element,
                f"channel '{channel.name}' uses port '{actor_name}.{port_name}' of channel '{used[key].name}'",
            )
        used[key] = channel
    if channel.initial_tokens < 0:
        raise doc.error(channel.element, f"channel '{channel.name}' has {channel.initial_tokens} initial tokens")
    if channel.token_bits is not None and channel.token_bits <= 0:
        raise doc.error(channel.element, f"channel '{channel.name}' has a token size of {channel.token_bits} bits")


def _rates(graph: DataflowGraph, channel: DfChannel) -> tuple[int, int]:
    src, dst = graph.actor(channel.src), graph.actor(channel.dst)
    assert src is not None and dst is not None
    produced, consumed = src.port(channel.src_port, "out"), dst.port(channel.dst_port, "in")
    assert produced is not None and consumed is not None
    return produced.rate, consumed.rate


def _is_state(graph: DataflowGraph, channel: DfChannel) -> bool:
    """A self-loop with a firing's worth of tokens: the actor keeps state (or runs one firing at a time), which every
    chainlab box does; dropped with a note. Any other initial token is a delay, which chains do not have."""
    produced, consumed = _rates(graph, channel)
    if channel.src == channel.dst and produced == consumed and channel.initial_tokens >= consumed:
        graph.notes.append(
            f"channel '{channel.name}' (a self-loop of actor '{channel.src}' with {channel.initial_tokens} initial "
            "token(s)) is the actor's state: a chainlab box keeps its state and runs one firing at a time; left out"
        )
        return True
    if channel.initial_tokens:
        raise graph.doc.error(
            channel.element,
            f"channel '{channel.name}' carries {channel.initial_tokens} initial token(s) (a delay); a chain has no "
            "delays: only an actor's self-loop with one firing's tokens (its state) is read",
        )
    return False


def _repetitions(graph: DataflowGraph) -> dict[str, int]:
    """The smallest positive solution of the balance equations, one connected part at a time."""
    rate: dict[str, Fraction] = {}
    links: dict[str, list[tuple[DfChannel, str]]] = {a.name: [] for a in graph.actors}
    for channel in graph.channels:
        links[channel.src].append((channel, channel.dst))
        links[channel.dst].append((channel, channel.src))
    result: dict[str, int] = {}
    for actor in graph.actors:
        if actor.name in rate:
            continue
        part = [actor.name]
        rate[actor.name] = Fraction(1)
        for name in part:
            for channel, other in links[name]:
                produced, consumed = _rates(graph, channel)
                # q[src] * produced == q[dst] * consumed
                want = rate[name] * produced / consumed if name == channel.src else rate[name] * consumed / produced
                if other not in rate:
                    rate[other] = want
                    part.append(other)
                elif rate[other] != want:
                    raise graph.doc.error(
                        channel.element,
                        f"channel '{channel.name}': the rates are inconsistent (no number of firings per frame "
                        "balances them)",
                    )
        scale = lcm(*(rate[n].denominator for n in part))
        whole = {n: int(rate[n] * scale) for n in part}
        divisor = 0
        for value in whole.values():
            divisor = _gcd(divisor, value)
        result.update({n: v // divisor for n, v in whole.items()})
    return result


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _check_slices(graph: DataflowGraph, channel: DfChannel, repetitions: dict[str, int]) -> None:
    """Exact in a chain: both ends run as often (slice to slice), or one runs once per frame (a split or a merge)."""
    q_src, q_dst = repetitions[channel.src], repetitions[channel.dst]
    if q_src == q_dst or q_src == 1 or q_dst == 1:
        return
    raise graph.doc.error(
        channel.element,
        f"multi-rate channel '{channel.name}': '{channel.src}' fires {q_src} and '{channel.dst}' {q_dst} times per "
        "frame; only a frame split into equal slices, the slices' own pipeline and their merge map to a chain "
        "(split rows)",
    )


def _check_acyclic(graph: DataflowGraph) -> None:
    indegree = {a.name: 0 for a in graph.actors}
    successors: dict[str, list[str]] = {a.name: [] for a in graph.actors}
    for channel in graph.channels:
        indegree[channel.dst] += 1
        successors[channel.src].append(channel.dst)
    ready = [n for n, d in indegree.items() if d == 0]
    for name in ready:
        for successor in successors[name]:
            indegree[successor] -= 1
            if indegree[successor] == 0:
                ready.append(successor)
    if len(ready) < len(graph.actors):
        stuck = next(c for c in graph.channels if indegree[c.dst] > 0 and indegree[c.src] > 0)
        raise graph.doc.error(
            stuck.element, f"channel '{stuck.name}' closes a cycle without initial tokens (a deadlock)"
        )


#: Time units a file may name (SDF3's `timeUnit`, chainlab's own attribute; PREESM has none).
TIME_UNITS_NS = {
    "s": Fraction(10**9),
    "ms": Fraction(10**6),
    "us": Fraction(1000),
    "µs": Fraction(1000),
    "ns": Fraction(1),
}


def attribute(doc: XmlDocument, element: Element, name: str) -> str:
    """A required attribute, or the error naming the element and the attribute."""
    value = element.get(name)
    if value is None or not value.strip():
        raise doc.error(element, f"has no attribute '{name}'")
    return value.strip()


def whole_number(doc: XmlDocument, element: Element, name: str, default: int | None = None) -> int:
    """A non-negative integer attribute (a rate, a token count)."""
    text = element.get(name)
    if text is None and default is not None:
        return default
    text = attribute(doc, element, name)
    if not text.isdigit():
        raise doc.error(element, f'attribute {name}="{text[:40]}" is not a whole number')
    return int(text)


def time_value(doc: XmlDocument, element: Element, text: str, what: str) -> Fraction:
    """A non-negative decimal (an execution time, a period), exactly."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise doc.error(element, f'{what} "{text[:40]}" is not a number') from None
    if value < 0:
        raise doc.error(element, f"{what} is negative ({text.strip()[:40]})")
    return value
