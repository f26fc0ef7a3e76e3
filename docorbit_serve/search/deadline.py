"""One deadline shared by every step of a search.

Contract: ``Deadline(seconds)`` starts the clock; ``remaining()`` is the time left (never below
zero); ``check(step)`` raises ``SearchError`` with code ``search_timeout`` when the time is up,
naming the step that found it so; ``interrupting(cur)`` interrupts a DuckDB cursor when the
deadline passes (DuckDB has no per-query timeout) and turns the interrupt into the same error.

Query understanding, the filter check, the lexical candidates, the re-ranking, the dense
ranking and the hit rows all run under the one deadline a search starts with: a slow early
step leaves less time to the later ones instead of each step getting the whole limit. Python
steps cannot be interrupted, so each is bounded by its input caps (``query.MAX_QUERY_CHARS``)
and the deadline is checked between steps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from docorbit_serve.errors import SearchError

__all__ = ["Deadline"]


class Deadline:
    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self._end = time.monotonic() + self.seconds

    def remaining(self) -> float:
        return max(0.0, self._end - time.monotonic())

    def _error(self, step: str) -> SearchError:
        return SearchError(
            f"search took longer than {self.seconds:g} s and was stopped ({step}); use a more "
            "specific query or a --library filter",
            detail={"time_limit_s": self.seconds, "step": step},
            code="search_timeout",
        )

    def check(self, step: str) -> None:
        """Raise ``search_timeout`` if the deadline has passed (``step`` names where)."""
        if self.remaining() <= 0.0:
            raise self._error(step)

    @contextmanager
    def interrupting(self, cur: duckdb.DuckDBPyConnection, step: str = "query") -> Iterator[None]:
        """Interrupt ``cur`` when the deadline passes; DuckDB errors become ``SearchError``."""
        self.check(step)
        timer = threading.Timer(self.remaining(), cur.interrupt)
        timer.daemon = True
        timer.start()
        try:
            yield
        except duckdb.InterruptException as e:
            raise self._error(step) from e
        except duckdb.Error as e:
            raise SearchError(f"search failed: {e}", detail={"duckdb": type(e).__name__}) from e
        finally:
            timer.cancel()
