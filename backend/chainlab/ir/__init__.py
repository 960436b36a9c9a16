"""The chainlab IR: the versioned JSON the language exports, checked here against the same schema."""

from chainlab.ir.elements import find_target, has_target, select_chain
from chainlab.ir.model import IR_VERSION, find_chain, find_ptts, load_ir, validate_ir

__all__ = [
    "IR_VERSION",
    "find_chain",
    "find_ptts",
    "find_target",
    "has_target",
    "load_ir",
    "select_chain",
    "validate_ir",
]
