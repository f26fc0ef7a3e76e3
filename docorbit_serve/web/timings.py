"""Search latency and retrieval-benchmark history for the dashboard's plots.

Contract:
- ``SearchTimings(maxlen=500)``: an in-memory, thread-safe ring of the latest searches served
  by the dashboard and the REST API (``record(face, elapsed_ms)``; ``points()`` →
  ``{face: [(HH:MM:SS, ms), ...]}`` oldest first). Kept in memory on purpose: latency of a
  running server, gone with it; nothing is written to the home.
- ``benchmark_history(home)`` reads ``home/benchmarks/retrieval.jsonl`` (one JSON object a
  line: ``at``, ``source``, ``mrr@10``, ``r@5``, optional ``n``/``publish_id``), skipping bad
  lines, at most ``MAX_LINES`` newest; ``record_benchmark(home, row)`` appends one line. The
  ``retrieval_benchmark`` check scores are meant to land there (docs/dashboard.md).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from datetime import UTC, datetime
from typing import Any

from docorbit_serve.home import Home

__all__ = ["MAX_LINES", "SearchTimings", "benchmark_history", "record_benchmark"]

MAX_LINES = 1000


class SearchTimings:
    """Latest search latencies per face (see module docstring)."""

    def __init__(self, maxlen: int = 500):
        self._rows: deque[tuple[str, str, float]] = deque(maxlen=maxlen)
        self._lock = threading.Lock()

    def record(self, face: str, elapsed_ms: float) -> None:
        stamp = datetime.now(UTC).strftime("%H:%M:%S")
        with self._lock:
            self._rows.append((face, stamp, round(float(elapsed_ms), 2)))

    def points(self) -> dict[str, list[tuple[str, float]]]:
        with self._lock:
            rows = list(self._rows)
        out: dict[str, list[tuple[str, float]]] = {}
        for face, stamp, ms in rows:
            out.setdefault(face, []).append((stamp, ms))
        return out


def _path(home: Home) -> Any:
    return home.path / "benchmarks" / "retrieval.jsonl"


def benchmark_history(home: Home) -> list[dict[str, Any]]:
    """Retrieval benchmark rows, oldest first (see module docstring)."""
    try:
        lines = _path(home).read_text(encoding="utf-8").splitlines()[-MAX_LINES:]
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in lines:
        try:
            row = json.loads(line)
            out.append(
                {
                    "at": str(row["at"]),
                    "source": str(row["source"]),
                    "mrr@10": float(row["mrr@10"]),
                    "r@5": float(row["r@5"]),
                }
            )
        except (ValueError, KeyError, TypeError):
            continue
    return out


def record_benchmark(home: Home, row: dict[str, Any]) -> None:
    """Append one scored benchmark row (``at``, ``source``, ``mrr@10``, ``r@5`` …)."""
    path = _path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")
