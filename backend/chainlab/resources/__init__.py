"""Files shipped with the package: the C runtime's sources (runtime-c, a link to the repository's copy) and the
script and style of a run's report.html (report/, built from the editor's plot view by extension/esbuild.mjs).

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


def report_assets() -> tuple[str, str]:
    """report.html's script and style: the editor's plot view, bundled (report.js) and its CSS (report.css).

    Returns
    -------
    tuple of str
        The script and the style sheet, as text.

    Raises
    ------
    FileNotFoundError
        In a checkout where they were not built (``node scripts/setup.mjs`` builds them).
    """
    folder = resources.files("chainlab") / "resources" / "report"
    try:
        return (folder / "report.js").read_text(encoding="utf-8"), (folder / "report.css").read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise FileNotFoundError(
            f"report.html's script is missing from the chainlab package ({folder}): "
            "build it with `node scripts/setup.mjs` (or `node extension/esbuild.mjs report`)"
        ) from e
