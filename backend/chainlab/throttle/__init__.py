"""Throttling parameter synthesis: thesis §4.6.4 (duty-cycling) and Yun et al. (budget Q per period P)."""
