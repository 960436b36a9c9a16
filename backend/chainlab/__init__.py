"""chainlab backend: PTTS latency analysis, planning, code generation, throttling and runs, driven by the IR."""

__version__ = "0.1.0"
