"""Where DocOrbit keeps its data ("home") and the layout under it (DESIGN.md §4).

Resolution, first match wins (the environment read through ``settings.Environment``):
  1. ``--home DIR`` or ``DOCORBIT_HOME``
  2. ``-g/--global``                      -> ``~/.docorbit``
  3. ``-p/--project DIR``                 -> ``DIR/.docorbit``
  4. nearest project root above the working directory (a folder holding one of
     ``PROJECT_MARKERS``), stopping before the user's home directory -> ``ROOT/.docorbit``
  5. ``~/.docorbit``

``docorbit init`` is the exception (``init=True``): in a folder with no project marker above it
(and not the user's home itself), that folder becomes the project, as ``git init`` does:
``CWD/.docorbit`` with ``CWD/docorbit.toml``, which is a marker from then on.

Layout under home (``Home``):
  tables/<table>/source=<name>/snapshot=<id>/part-0.parquet   immutable once written
  staging/<table>/source=<name>/part-0.parquet                 latest materialization (pipeline only)
  published.json                                               replaced atomically
  index/<publish_id>.duckdb                                     built to the side, then published
  dagster/                                                      DAGSTER_HOME of in-process runs
  extensions/                                                   DuckDB extension_directory

The project root (where ``docorbit.toml`` lives) is the parent of a project home, or the
directory given by ``-p``; a global home keeps its ``docorbit.toml`` inside itself.

``workspace_root(home, project, cwd)`` / ``find_workspace(start)``: the workspace whose
dependency versions count (re-exported by ``versioned``). They live here, with no imports
beyond the standard library and ``settings`` (itself light), so a command finds out that there is no workspace without
loading the workspace scanners.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docorbit_serve.settings import Environment

__all__ = [
    "PROJECT_MARKERS",
    "Home",
    "atomic_write_bytes",
    "atomic_write_json",
    "find_project_root",
    "find_workspace",
    "pipeline_home",
    "resolve_home",
    "workspace_root",
]

PROJECT_MARKERS = (
    "docorbit.toml",
    "pyproject.toml",
    "package.json",
    "Cargo.toml",
    "go.mod",
    "composer.json",
    "Gemfile",
    "pubspec.yaml",
    "pom.xml",
    "setup.py",
    ".git",
)


def find_project_root(start: Path, *, stop: Path | None = None) -> Path | None:
    """Nearest directory at or above ``start`` holding a project marker; never ``stop`` or above."""
    stop = (stop or Path.home()).resolve()
    cur = start.resolve()
    while cur != stop:
        if any((cur / m).exists() for m in PROJECT_MARKERS):
            return cur
        if cur.parent == cur:
            return None
        cur = cur.parent
    return None


def _is_workspace(d: Path) -> bool:
    if any((d / m).exists() for m in (*PROJECT_MARKERS, "docs.lock")):
        return True
    return any(d.glob("requirements*.txt"))


def find_workspace(start: Path, *, stop: Path | None = None) -> Path | None:
    """Nearest folder at or above ``start`` holding a manifest, docs.lock or project marker
    (``requirements*.txt`` counts, unlike ``home.find_project_root``); never ``stop`` or above."""
    stop = (stop or Path.home()).resolve()
    cur = start.resolve()
    while cur != stop:
        if _is_workspace(cur):
            return cur
        if cur.parent == cur:
            return None
        cur = cur.parent
    return None


def workspace_root(
    home: Home,
    project: str | os.PathLike[str] | None = None,
    cwd: Path | None = None,
) -> Path | None:
    """The workspace whose versions count: ``project`` (``-p DIR`` or ``--workspace DIR``);
    else the project of a project home; else the nearest workspace above ``cwd`` (global or
    explicit homes, e.g. an MCP server started in the project). None when there is none."""
    if project:
        return Path(project).expanduser().resolve()
    if home.path == home.project_root / ".docorbit":
        return home.project_root
    return find_workspace(cwd or Path.cwd())


@dataclass(frozen=True)
class Home:
    """A resolved home folder and the project root whose ``docorbit.toml`` it serves."""

    path: Path
    project_root: Path

    @property
    def config_path(self) -> Path:
        return self.project_root / "docorbit.toml"

    @property
    def tables(self) -> Path:
        return self.path / "tables"

    @property
    def staging(self) -> Path:
        return self.path / "staging"

    @property
    def published_path(self) -> Path:
        return self.path / "published.json"

    @property
    def index_dir(self) -> Path:
        return self.path / "index"

    @property
    def dagster_home(self) -> Path:
        return self.path / "dagster"

    @property
    def extensions(self) -> Path:
        return self.path / "extensions"

    def table_dir(self, table: str, source: str, snapshot: str) -> Path:
        return self.tables / table / f"source={source}" / f"snapshot={snapshot}"

    def staging_file(self, table: str, source: str) -> Path:
        return self.staging / table / f"source={source}" / "part-0.parquet"

    def to_json(self) -> dict[str, str]:
        return {"home": str(self.path), "project_root": str(self.project_root)}


def resolve_home(
    *,
    home: str | os.PathLike[str] | None = None,
    global_: bool = False,
    project: str | os.PathLike[str] | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | Environment | None = None,
    init: bool = False,
) -> Home:
    """Apply the resolution ladder in the module docstring (``init``: ``docorbit init``'s rule).

    ``env``: the environment (``None``: this process's, read by ``Environment.read``)."""
    environment = env if isinstance(env, Environment) else Environment.read(env)
    cwd = (cwd or Path.cwd()).resolve()
    user_home = Path(environment.user_home or Path.home())
    explicit = home or environment.home
    if explicit:
        p = Path(explicit).expanduser().resolve()
        root = p.parent if p.name == ".docorbit" else p
        return Home(p, root)
    if global_:
        p = (user_home / ".docorbit").resolve()
        return Home(p, p)
    if project:
        root = Path(project).expanduser().resolve()
        return Home(root / ".docorbit", root)
    found = find_project_root(cwd, stop=user_home)
    if found is not None:
        return Home(found / ".docorbit", found)
    if init and cwd != user_home.resolve():
        return Home(cwd / ".docorbit", cwd)
    p = (user_home / ".docorbit").resolve()
    return Home(p, p)


def pipeline_home(env: Mapping[str, str] | Environment | None = None) -> Home:
    """The home the Dagster definitions and resources serve when none is given:
    ``DOCORBIT_HOME``, else ``DOCORBIT_PROJECT``'s, else the working directory's project."""
    environment = env if isinstance(env, Environment) else Environment.read(env)
    return resolve_home(project=environment.project or None, env=environment)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_write_json(path: Path, obj: Any) -> None:
    """Deterministic JSON (sorted keys, 2-space indent, trailing newline), written atomically."""
    text = json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))
