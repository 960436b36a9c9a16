"""The planner: from a box chain (IR) to a plan the C generator executes and the IDE draws.

Thesis 000 §3.4 tool flow: a. data parallelism (`instantiate`), b. scheduling onto threads with the
heuristics simple / barrier / fixed / predictable / reduced (`heuristics`, `reduced`), c. memory
allocation simple / reuse (`memory`), d. synchronization with signals and anti-dependencies
(`sync`), checked with a token game; plus the active-data profile (`activity`) and a predicted
latency distribution (`predict`) that serves as the ETP of `etp chain X` in a PTTS.

Entry points: `make_plan` (with `PlanOptions`), `plan_to_json`, `predict_latency`, `chain_latency_etp`, `token_game`;
`plan_for_cores` and `pin_threads` for running on a machine's cores.
"""

from chainlab.plan.api import PlanError, chain_latency_etp, make_plan, plan_to_json
from chainlab.plan.memory import greedy_by_size
from chainlab.plan.options import PlanOptions
from chainlab.plan.pinning import pin_threads, plan_for_cores
from chainlab.plan.predict import RUN_PREDICTION_DRAWS, LatencyPrediction, predict_latency
from chainlab.plan.sync import token_game

__all__ = [
    "RUN_PREDICTION_DRAWS",
    "LatencyPrediction",
    "PlanError",
    "PlanOptions",
    "chain_latency_etp",
    "greedy_by_size",
    "make_plan",
    "pin_threads",
    "plan_for_cores",
    "plan_to_json",
    "predict_latency",
    "token_game",
]
