"""Experiments of the papers, reproduced on chainlab's planner: `heuristics` (papers 002/003, Tables I-III, Fig. 3)."""
