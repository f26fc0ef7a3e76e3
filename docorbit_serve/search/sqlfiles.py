"""Loader for the SQL files in ``sql/`` (named parameters only, never formatted with values).

Contract: ``sql(name)`` returns the text of ``<sql dir>/<name>.sql``; ``statements(name)`` splits
a file into statements at lines ending with ``;``, leaving out whole-line ``--`` comments
(so a parameter named in a comment is not mistaken for one the statement uses). The SQL directory is the repository's
``sql/`` in a source checkout / editable install, or ``docorbit_serve/_sql`` inside a wheel
(pyproject ``force-include``). Files are read once and cached.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from docorbit_serve.errors import ConfigError

__all__ = ["sql", "sql_dir", "statements"]

_PKG = Path(__file__).resolve().parents[1]  # docorbit_serve/


@cache
def sql_dir() -> Path:
    for cand in (_PKG / "_sql", _PKG.parent / "sql"):
        if cand.is_dir():
            return cand
    raise ConfigError(
        "DocOrbit's SQL files are missing (looked for docorbit_serve/_sql and <repo>/sql); "
        "reinstall the package",
        detail={"package": str(_PKG)},
    )


@cache
def sql(name: str) -> str:
    path = sql_dir() / f"{name}.sql"
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read SQL file {path}", detail={"path": str(path)}) from e


@cache
def statements(name: str) -> tuple[str, ...]:
    out: list[str] = []
    cur: list[str] = []
    for line in sql(name).splitlines():
        if line.lstrip().startswith("--"):
            continue
        cur.append(line)
        if line.rstrip().endswith(";"):
            stmt = "\n".join(cur).strip()
            if stmt.strip(";").strip():
                out.append(stmt)
            cur = []
    tail = "\n".join(cur).strip()
    if tail:
        out.append(tail)
    return tuple(out)
