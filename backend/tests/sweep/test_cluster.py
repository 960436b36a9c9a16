"""Where a sweep runs: a LocalCluster's client takes rows straight from its workers, whose event loops do their
periodic work less often (no profiler) and whose malloc keeps its own thresholds; a scheduler on this machine's
loopback is reached the same way, one elsewhere through itself."""

from __future__ import annotations

import os

import dask
import pytest

from chainlab.errors import ModelError
from chainlab.sweep.cluster import check_cluster, on_this_machine, open_client


def _profiling() -> bool:
    return bool(dask.config.get("distributed.worker.profile.enabled"))


def _ticks() -> str:
    return str(dask.config.get("distributed.admin.tick.interval"))


def _allocation_environ() -> tuple[str | None, str | None]:
    return os.environ.get("MALLOC_TRIM_THRESHOLD_"), os.environ.get("OMP_NUM_THREADS")


def test_loopback_schedulers_are_on_this_machine() -> None:
    assert on_this_machine("tcp://127.0.0.1:8786") and on_this_machine("tcp://localhost:8786")
    assert on_this_machine("tcp://[::1]:8786") and on_this_machine("tls://127.0.0.2:8786")
    assert not on_this_machine("tcp://10.0.0.2:8786") and not on_this_machine("tcp://scheduler.lan:8786")


def test_a_local_cluster_gives_rows_straight_and_does_not_profile() -> None:
    with open_client("local", 1) as (client, engine):
        assert (engine.engine, engine.workers) == ("local", 1)
        assert client.direct_to_workers is True
        assert list(client.run(_profiling).values()) == [False]
        assert list(client.run(_ticks).values()) == ["1s"]
        # glibc's own malloc thresholds (Dask's trim setting maps every large array afresh), numpy on one thread
        assert list(client.run(_allocation_environ).values()) == [(None, "1")]
    assert _profiling() and _ticks() == "20ms"  # the setting is the LocalCluster's, not left behind in this process


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ModelError, match="'process', 'local' or a scheduler address"):
        check_cluster("cluster")
