"""Raw rows of the published index's ``pitfalls`` and ``endpoints`` tables, paged — shared by the
dashboard (``web``), the REST API (``rest``) and the exports (``export``), so none of them imports
another face.

Contract: ``table_rows(catalog, table, library=None, limit=100, offset=0) -> (rows, truncated)``;
an unknown table or a limit outside 1..``MAX_ROWS`` is ``InputError``.
"""

from __future__ import annotations

from typing import Any

from docorbit_serve.errors import InputError
from docorbit_serve.search.sqlfiles import sql

__all__ = ["MAX_ROWS", "table_rows"]

MAX_ROWS = 1000
_TABLE_SQL = {"pitfalls": "dashboard_pitfalls", "endpoints": "dashboard_endpoints"}


def _query(cur: Any, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur.execute(sql(name), params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def table_rows(
    catalog: Any, table: str, *, library: str | None = None, limit: int = 100, offset: int = 0
) -> tuple[list[dict[str, Any]], bool]:
    """Raw ``pitfalls``/``endpoints`` rows of the published index, paged (rows, truncated)."""
    if table not in _TABLE_SQL:
        raise InputError(f"unknown table {table!r}", detail={"table": table})
    if not 1 <= limit <= MAX_ROWS or offset < 0:
        raise InputError(f"limit must be 1-{MAX_ROWS} and offset >= 0", detail={"limit": limit})
    cur = catalog.cursor()
    try:
        rows = _query(
            cur,
            _TABLE_SQL[table],
            {"library": library, "max_rows": limit + 1, "offset": offset},
        )
    finally:
        cur.close()
    for r in rows:
        if isinstance(r.get("tags"), tuple):
            r["tags"] = list(r["tags"])
    return rows[:limit], len(rows) > limit
