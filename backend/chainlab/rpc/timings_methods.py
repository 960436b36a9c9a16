"""JSON-RPC method of measured times: a CSV of per-sample or per-bin times read into per-name statistics and bins."""

from __future__ import annotations

import os
from typing import Any

from chainlab.errors import ChainlabError
from chainlab.interchange.timings_csv import read_timings
from chainlab.rpc.context import RequestContext
from chainlab.rpc.methods import method


@method("interchange/timings")
def interchange_timings(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    """Reads ``params.path`` (absolute); ``params.names``, when given, are the only names a row may have."""
    path = params.get("path")
    if not isinstance(path, str) or not path:
        raise ChainlabError("interchange/timings: name the CSV file (path)")
    if not os.path.isabs(path):
        raise ChainlabError(f"interchange/timings: the path must be absolute, not '{path}'")
    names = params.get("names")
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise ChainlabError("interchange/timings: names must be a list of strings")
    return read_timings(path, names).to_json()
