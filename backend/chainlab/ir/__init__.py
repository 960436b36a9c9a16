"""The chainlab IR: the versioned JSON the language exports, checked here against the same schema."""
from chainlab.ir.model import IR_VERSION, find_chain, find_ptts, load_ir, validate_ir

__all__ = ["IR_VERSION", "find_chain", "find_ptts", "load_ir", "validate_ir"]
