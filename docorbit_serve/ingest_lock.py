"""One ingest at a time per home: the lock, taken before anything is written or imported.

Contract: ``ingest_lock(home)`` is a context manager holding an exclusive, non-blocking
``flock`` on ``home/dagster/ingest.lock`` (standard library only: no Dagster, no pipeline). When
another process, or another thread of this process, holds it, it raises ``IngestError`` at once
(code ``ingest_failed``, message "another ingest is running on HOME; wait for it to finish").
It is re-entrant for the thread that holds it, so the faces take it first (``docorbit ingest``
before importing the pipeline, ``ingest_doc`` before writing ``docorbit.toml``) and
``docorbit_assets.ingest.run_ingest`` takes it again inside without deadlocking itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import threading
from collections.abc import Iterator
from pathlib import Path

from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home

__all__ = ["ingest_lock"]

_held: dict[str, tuple[int, int]] = {}  # lock path -> (holding thread id, depth)
_guard = threading.Lock()


def _busy(home: Home, path: Path) -> IngestError:
    return IngestError(
        f"another ingest is running on {home.path}; wait for it to finish",
        detail={"home": str(home.path), "lock": str(path)},
    )


@contextlib.contextmanager
def ingest_lock(home: Home) -> Iterator[None]:
    """Hold the home's ingest lock (see the module docstring)."""
    path = home.dagster_home / "ingest.lock"
    key = str(path)
    me = threading.get_ident()
    with _guard:
        holder = _held.get(key)
        if holder is not None:
            if holder[0] != me:
                raise _busy(home, path)
            _held[key] = (me, holder[1] + 1)
    if holder is not None:  # re-entered by the holding thread
        try:
            yield
        finally:
            with _guard:
                _held[key] = (me, _held[key][1] - 1)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as f:  # noqa: PTH123 - a lock file held open
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as e:
            raise _busy(home, path) from e
        with _guard:
            _held[key] = (me, 1)
        try:
            yield
        finally:
            with _guard:
                _held.pop(key, None)
            fcntl.flock(f, fcntl.LOCK_UN)
