"""FTS-extension backend, and loading the extension offline.

Contract: ``load_extension(con)`` loads DuckDB's ``fts`` extension from the
``duckdb_extension_fts`` wheel by path (nothing is downloaded, nothing written to
``~/.duckdb``); connections must be opened with autoinstall/autoload off (``DUCKDB_CONFIG``, which
also carries the join setting search relies on).
``ensure_loaded(cur)`` loads it into the cursor's database unless it is loaded already (the
catalog leaves it to the first FTS search). ``candidates(cur, terms, ...)`` runs ``sql/search_fts.sql``: BM25 over all fields via
``match_bm25`` plus a weighted heading/title/breadcrumb-only BM25. The query text handed to FTS
is the analysed terms joined by spaces (typed terms only: match_bm25 has no per-term weights,
so weighted expansions are left out) (only ``[a-z0-9_.]`` tokens, bound as a parameter),
so user text never reaches the FTS query parser raw.
"""

from __future__ import annotations

import importlib.resources
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import duckdb

from docorbit_serve.errors import ConfigError
from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = [
    "DUCKDB_CONFIG",
    "candidates",
    "ensure_loaded",
    "extension_path",
    "load_extension",
    "safe_fts_query",
]

DUCKDB_CONFIG = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    # A hash join whose build side has at most this many keys hands them to the probe side's
    # scan as an IN filter (DuckDB's default: 50). The ~100 candidates of a search joined to
    # search_docs then skip the row groups without them (100k chunks: ~4 ms of ~40 per search).
    "dynamic_or_filter_threshold": 1024,
}
_load_lock = threading.Lock()


def extension_path() -> Path:
    """The signed ``fts.duckdb_extension`` matching the installed DuckDB."""
    try:
        root = importlib.resources.files("duckdb_extension_fts")
    except ModuleNotFoundError as e:
        raise ConfigError(
            "the duckdb-extension-fts package is not installed (pip install "
            f"duckdb-extension-fts=={duckdb.__version__})"
        ) from e
    path = Path(str(root)) / "extensions" / f"v{duckdb.__version__}" / "fts.duckdb_extension"
    if not path.is_file():
        raise ConfigError(
            f"no FTS extension for DuckDB {duckdb.__version__} at {path}; install "
            f"duckdb-extension-fts=={duckdb.__version__}",
            detail={"path": str(path)},
        )
    return path


def load_extension(con: duckdb.DuckDBPyConnection) -> None:
    path = extension_path()
    # LOAD takes a literal, not a parameter; the path is ours (the installed wheel), and
    # single quotes are doubled so that no path can break out of the literal.
    literal = str(path).replace("'", "''")
    try:
        con.execute(f"LOAD '{literal}'")
    except duckdb.Error as e:
        raise ConfigError(f"cannot load the DuckDB FTS extension from {path}: {e}") from e


def ensure_loaded(cur: duckdb.DuckDBPyConnection) -> None:
    """Load the FTS extension into ``cur``'s database unless it is loaded already."""
    query = "SELECT loaded FROM duckdb_extensions() WHERE extension_name = 'fts'"
    row = cur.execute(query).fetchone()
    if row and row[0]:
        return
    with _load_lock:
        row = cur.execute(query).fetchone()
        if not (row and row[0]):
            load_extension(cur)


def safe_fts_query(terms: list[str]) -> str:
    """The FTS query string for analysed terms: tokens are ``[a-z0-9_.]`` only, space-joined."""
    return " ".join(t for t in terms if t and all(ch.isalnum() or ch in "_." for ch in t))


def candidates(
    cur: duckdb.DuckDBPyConnection,
    terms: list[str] | Mapping[str, float],
    *,
    library: str | None,
    version: str | None,
    cap: int,
    cfg: ScoringConfig = SCORING,
) -> list[dict[str, Any]]:
    q = safe_fts_query([t for t, w in _weighted(terms) if w >= 1.0])
    if not q:
        return []
    ensure_loaded(cur)
    params = {
        "q": q,
        "heading_weight": cfg.fts_heading_weight,
        "library": library,
        "version": version,
        "cap": cap,
    }
    res = cur.execute(sql("search_fts"), params)
    cols = [d[0] for d in res.description]
    out = []
    for r in res.fetchall():
        row = dict(zip(cols, r, strict=True))
        row["score"] = float(row["score"])
        out.append(row)
    return out


def _weighted(terms: list[str] | Mapping[str, float]) -> list[tuple[str, float]]:
    if isinstance(terms, Mapping):
        return [(t, float(w)) for t, w in terms.items()]
    return [(t, 1.0) for t in terms]
