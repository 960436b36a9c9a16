"""Files shipped with the package: the C runtime's sources (runtime-c, a link to the repository's copy).

They are found through the package (importlib.resources), so an installed backend needs no checkout
around it. Install the package as files (pip does for wheels and editable installs), not as a zip.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def runtime_sources() -> Path:
    """The runtime-c tree: lib/ (the runtime generated projects compile) and throttle/ (throttler and hog)."""
    root = resources.files("chainlab") / "resources" / "runtime-c"
    if not isinstance(root, Path) or not root.is_dir():
        raise FileNotFoundError(f"the C runtime's sources are missing from the chainlab package ({root})")
    return root
