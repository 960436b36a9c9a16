"""The XML conventions of an Amalthea (.amxmi) file: the schema version read, `xsi:type`, references
(`name?type=Task`, several separated by spaces, or an element's id), times and frequencies with units, exactly."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from urllib.parse import unquote
from xml.etree.ElementTree import Element

from chainlab.interchange.xml_input import XmlDocument, local_name

#: The one Amalthea version read: APP4MC 3.3 (other versions: migrate with APP4MC's model migration first).
VERSION = "3.3.0"
NAMESPACE = f"http://app4mc.eclipse.org/amalthea/{VERSION}"
_NAMESPACE_STEM = "http://app4mc.eclipse.org/amalthea/"
_XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"
_ID_ATTRIBUTES = ("{http://www.omg.org/XMI}id", "id", "uuid")
_TIME_NS: dict[str, Fraction] = {
    "s": Fraction(10**9),
    "ms": Fraction(10**6),
    "us": Fraction(10**3),
    "ns": Fraction(1),
    "ps": Fraction(1, 1000),
}
_FREQUENCY_HZ: dict[str, int] = {"Hz": 1, "kHz": 10**3, "MHz": 10**6, "GHz": 10**9}


def check_root(doc: XmlDocument) -> None:
    """Refuses a root that is not an Amalthea model of the version read, naming the version found."""
    root = doc.root
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if local_name(root.tag) != "Amalthea" or not namespace.startswith(_NAMESPACE_STEM):
        raise doc.error(
            root,
            f"not an Amalthea model: the root must be <am:Amalthea> in namespace {NAMESPACE}, "
            f"not <{local_name(root.tag)}>" + (f" in namespace {namespace}" if namespace else ""),
        )
    if namespace != NAMESPACE:
        found = namespace[len(_NAMESPACE_STEM) :] or "?"
        raise doc.error(
            root,
            f"this is Amalthea {found} ({namespace}); chainlab reads Amalthea {VERSION} ({NAMESPACE}): "
            f"migrate the model with APP4MC's model migration first",
        )


def xsi_type(el: Element) -> str:
    """`xsi:type="am:PeriodicStimulus"` → ``PeriodicStimulus``; '' when there is none."""
    # read_xml leaves attribute names as expat gives them (`namespace}name`); accept ElementTree's form too
    return (el.get(_XSI_TYPE) or el.get(_XSI_TYPE[1:]) or "").rsplit(":", 1)[-1]


def kids(el: Element | None, name: str) -> Iterator[Element]:
    """The children of `el` called `name` (namespace-free), in document order."""
    if el is None:
        return iter(())
    return (c for c in el if local_name(c.tag) == name)


def kid(el: Element | None, name: str) -> Element | None:
    return next(kids(el, name), None)


def element_name(doc: XmlDocument, el: Element, what: str) -> str:
    name = el.get("name", "").strip()
    if not name:
        raise doc.error(el, f"the {what} has no name")
    return name


def id_map(root: Element) -> dict[str, str]:
    """Each element id → the element's name (references may be ids instead of `name?type=...`)."""
    out: dict[str, str] = {}
    for el in root.iter():
        name = el.get("name")
        for attribute in _ID_ATTRIBUTES:
            value = el.get(attribute) or el.get(attribute.lstrip("{"))
            if value and name:
                out[value] = name
    return out


def refs(doc: XmlDocument, el: Element, attribute: str, ids: dict[str, str]) -> list[tuple[str, str]]:
    """The references in `attribute`: (name, type) pairs; type '' for a reference by id."""
    out = []
    for token in el.get(attribute, "").split():
        if "?type=" in token:
            name, kind = token.split("?type=", 1)
            out.append((unquote(name), kind))
        elif token in ids:
            out.append((ids[token], ""))
        else:
            raise doc.error(el, f"{attribute}: '{token}' is neither a `name?type=...` reference nor a known id")
    return out


def ref(doc: XmlDocument, el: Element, attribute: str, ids: dict[str, str]) -> str | None:
    """The one reference in `attribute` (None when absent)."""
    found = refs(doc, el, attribute, ids)
    if len(found) > 1:
        raise doc.error(el, f"{attribute}: one reference expected, found {len(found)}")
    return found[0][0] if found else None


def _decimal(doc: XmlDocument, el: Element, attribute: str, default: str | None = None) -> Decimal:
    # EMF leaves out attributes that hold their default (a Time of 0, a histogram entry seen once)
    text = el.get(attribute, default)
    if text is None:
        raise doc.error(el, f"'{attribute}' is missing")
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise doc.error(el, f"{attribute}='{text}' is not a number") from None
    if not value.is_finite():
        raise doc.error(el, f"{attribute}='{text}' is not a finite number")
    return value


def integer(doc: XmlDocument, el: Element, attribute: str, minimum: int = 0, default: str | None = None) -> int:
    """A whole number attribute (ticks, occurrences), at least `minimum`."""
    value = _decimal(doc, el, attribute, default)
    if value != value.to_integral_value():
        raise doc.error(el, f"{attribute}='{el.get(attribute)}' is not a whole number")
    if value < minimum:
        raise doc.error(el, f"{attribute}='{el.get(attribute)}' must be at least {minimum}")
    return int(value)


def time_ns(doc: XmlDocument, el: Element) -> int:
    """A Time element (`value`, `unit` s|ms|us|ns|ps) in whole ns, exactly; refused when negative or finer."""
    unit = el.get("unit", "")
    if unit not in _TIME_NS:
        raise doc.error(el, f"time unit '{unit}' is not one of {', '.join(_TIME_NS)}")
    value = Fraction(_decimal(doc, el, "value", "0")) * _TIME_NS[unit]
    if value < 0:
        raise doc.error(el, f"the time {el.get('value')} {unit} is negative")
    if value.denominator != 1:
        raise doc.error(el, f"the time {el.get('value')} {unit} is not a whole number of ns")
    return int(value)


def frequency_hz(doc: XmlDocument, el: Element) -> Fraction:
    """A Frequency element (`value`, `unit` Hz|kHz|MHz|GHz) in Hz, exactly; refused unless positive."""
    unit = el.get("unit", "")
    if unit not in _FREQUENCY_HZ:
        raise doc.error(el, f"frequency unit '{unit}' is not one of {', '.join(_FREQUENCY_HZ)}")
    value = Fraction(_decimal(doc, el, "value")) * _FREQUENCY_HZ[unit]
    if value <= 0:
        raise doc.error(el, f"the frequency {el.get('value')} {unit} must be positive")
    return value
