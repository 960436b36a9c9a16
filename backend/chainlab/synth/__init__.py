"""Synthetic image-processing chains like the thesis' generator (`chainlab synth --boxes 100 --seed N`)."""

from chainlab.synth.generator import generate, render_ir, render_text, synth_chain_ir, synth_chain_text

__all__ = ["generate", "render_ir", "render_text", "synth_chain_ir", "synth_chain_text"]
