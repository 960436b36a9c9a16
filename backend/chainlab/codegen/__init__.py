"""Code generation: a plan (chainlab.plan) -> a standalone C project on the chainlab runtime."""

from chainlab.codegen.generate import generate_project, reference_source, write_project
from chainlab.codegen.validate import validate_plan

__all__ = ["generate_project", "reference_source", "validate_plan", "write_project"]
