"""The catalog: what is published, and a read-only connection to its index.

Contract:
  - ``Catalog(home).manifest()`` -> the parsed ``published.json`` (format in ARCHITECTURE.md);
    raises ``NotPublished`` (with the fix: run an ingest) when nothing is published or the
    file is unreadable.
  - ``.connection()`` -> a read-only DuckDB connection to the published index file
    (autoinstall/autoload off; the FTS extension is loaded from its wheel by the ``fts`` backend
    on first use, so the default backend's first answer does not pay for it). Each call checks
    ``published.json`` cheaply (stat: mtime, size, inode) and, when it names another
    publication, opens the new index; the old connection is dropped, not closed, so a search
    already running on it finishes on the file it started with. Index files are immutable, so a
    reader never sees half of a publication.
  - An index built by another analyzer version (``index_meta``) raises ``SearchError`` asking
    for a rebuild: its terms would not match this version's query terms.
  - ``.cursor()`` -> a new cursor on the current connection; use one per thread/query.
  - Connections run each query on ``SEARCH_THREADS`` DuckDB threads (1): search queries are
    small, and on a shared 2-core machine a second thread mostly adds scheduling waits
    (measured at 100k chunks: ~88 -> ~50 ms per search); one thread also sums floats in a fixed
    order, so equal inputs give bit-identical scores.
  - Importing this module makes ``import pandas`` fail at once when pandas is absent: DuckDB's
    client tries ``import pandas`` for every bound parameter, and a failed import walks
    ``sys.path`` each time (~13 ms per search with ~25 parameters). A finder at the head of
    ``sys.meta_path`` raises ``ModuleNotFoundError`` (not ``sys.modules["pandas"] = None``:
    pyarrow's pandas shim, active when numpy is installed, reads that entry and fails).
  - ``.publish_id`` -> the publish id of the open connection (``None`` before the first open).
  - ``IndexFile(path, manifest)``: the same ``cursor()``/``manifest()``/``close()`` over one
    index file that is not (yet) published, e.g. a candidate index scored by the retrieval
    benchmark check before publish.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from docorbit_serve.errors import NotPublished, SearchError
from docorbit_serve.home import Home
from docorbit_serve.manifest import BadManifest, read_manifest
from docorbit_serve.search.analyze import ANALYZER_VERSION
from docorbit_serve.search.fts import DUCKDB_CONFIG
from docorbit_serve.search.scoring import INDEX_FORMAT
from docorbit_serve.search.sqlfiles import sql

if TYPE_CHECKING:  # numpy is imported only when a publication has vectors
    from docorbit_serve.search.dense import VectorIndex

__all__ = ["SEARCH_THREADS", "Catalog", "IndexFile", "open_index", "open_vectors", "vectors_file"]

SEARCH_THREADS = 1


class _Absent(importlib.abc.MetaPathFinder):
    """Fails imports of a module known to be absent without walking ``sys.path``."""

    def __init__(self, name: str):
        self.name = name

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname == self.name or fullname.startswith(self.name + "."):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


if (
    "pandas" not in sys.modules
    and importlib.util.find_spec("pandas") is None
    and not any(isinstance(f, _Absent) for f in sys.meta_path)
):
    sys.meta_path.insert(0, _Absent("pandas"))


def open_index(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to an index file, set up for serving (raises ``duckdb.Error``)."""
    return duckdb.connect(
        str(path), read_only=True, config={**DUCKDB_CONFIG, "threads": SEARCH_THREADS}
    )


def vectors_file(entry: dict[str, Any], index_dir: Path) -> Path:
    """The file a manifest's ``vectors`` entry names; it lives beside the index file."""
    return index_dir / Path(str(entry.get("path", ""))).name


def open_vectors(entry: dict[str, Any] | None, index_dir: Path) -> VectorIndex | None:
    """The vectors named by a manifest's ``vectors`` entry (``None`` without one)."""
    if not entry:
        return None
    from docorbit_serve.search.dense import VectorIndex

    return VectorIndex.cached(vectors_file(entry, index_dir), entry.get("model"))


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class Catalog:
    def __init__(self, home: Home):
        self.home = home
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._manifest: dict[str, Any] | None = None
        self._con: duckdb.DuckDBPyConnection | None = None
        self._con_publish_id: str | None = None
        self._con_vectors: tuple[dict[str, Any] | None, Path] = (None, home.index_dir)

    @property
    def publish_id(self) -> str | None:
        return self._con_publish_id

    def _not_published(self, why: str) -> NotPublished:
        return NotPublished(
            f"nothing is published in {self.home.path} ({why}); add a source with "
            "`docorbit add` and run `docorbit ingest` to publish one",
            detail={"home": str(self.home.path), "reason": why},
        )

    def _read_manifest(self) -> dict[str, Any]:
        try:
            data = read_manifest(self.home.published_path)
        except BadManifest as e:  # unreadable, not JSON, or not a Manifest
            raise self._not_published(str(e)) from e
        if data is None:
            raise self._not_published("no published.json")
        return data

    def _refresh(self) -> dict[str, Any]:
        """Re-read published.json if its stat changed (caller holds the lock)."""
        stamp = _stamp(self.home.published_path)
        if stamp is None:
            self._stamp, self._manifest = None, None
            raise self._not_published("no published.json")
        if stamp != self._stamp or self._manifest is None:
            self._manifest = self._read_manifest()
            self._stamp = stamp
        return self._manifest

    def manifest(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._refresh())

    def _index_path(self, manifest: dict[str, Any]) -> Path:
        rel = Path(str(manifest["index"]))
        path = rel if rel.is_absolute() else self.home.path / rel
        if not path.is_file():
            raise self._not_published(f"the published index {path} is missing")
        return path

    def _index_dir(self, manifest: dict[str, Any]) -> Path:
        rel = Path(str(manifest["index"]))
        return (rel if rel.is_absolute() else self.home.path / rel).parent

    def connection(self) -> duckdb.DuckDBPyConnection:
        with self._lock:
            return self._connection()

    def _connection(self) -> duckdb.DuckDBPyConnection:
        """The connection of the current publication (caller holds the lock)."""
        manifest = self._refresh()
        pid = str(manifest["publish_id"])
        if self._con is None or pid != self._con_publish_id:
            path = self._index_path(manifest)
            try:
                con = open_index(path)
            except duckdb.Error as e:
                raise self._not_published(f"cannot open the index {path}: {e}") from e
            self._check_index(con, path)
            # Dropped, not closed: cursors taken from it keep working until they finish.
            self._con, self._con_publish_id = con, pid
        # Read on every call: switching hybrid on or off republishes the same index with or
        # without a vectors entry (same publish id, same chunk ids).
        self._con_vectors = (manifest.get("vectors"), self._index_dir(manifest))
        return self._con

    def search_view(self) -> tuple[duckdb.DuckDBPyConnection, VectorIndex | None]:
        """A cursor and the vectors of the same publication (``None`` without vectors)."""
        with self._lock:
            cur = self._connection().cursor()
            entry, index_dir = self._con_vectors
        return cur, open_vectors(entry, index_dir)

    @staticmethod
    def _check_index(con: duckdb.DuckDBPyConnection, path: Path) -> None:
        try:
            meta = dict(con.execute(sql("index_info")).fetchall())
        except duckdb.Error as e:
            raise SearchError(f"{path} is not a DocOrbit search index: {e}") from e
        if meta.get("analyzer_version") != ANALYZER_VERSION:
            raise SearchError(
                f"the published index {path.name} was built by analyzer version "
                f"{meta.get('analyzer_version')!r}, this DocOrbit uses {ANALYZER_VERSION!r}; "
                "run `docorbit ingest` to rebuild it",
                detail={"index": str(path), "analyzer_version": meta.get("analyzer_version")},
            )
        if meta.get("index_format", "1") != INDEX_FORMAT:
            raise SearchError(
                f"the published index {path.name} has format "
                f"{meta.get('index_format', '1')!r}, this DocOrbit reads {INDEX_FORMAT!r}; "
                "run `docorbit ingest` to rebuild it",
                detail={"index": str(path), "index_format": meta.get("index_format", "1")},
            )

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self.connection().cursor()

    def close(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
            self._con, self._con_publish_id = None, None


class IndexFile:
    """A read-only catalog over one index file (published or not)."""

    def __init__(self, path: Path, manifest: dict[str, Any] | None = None):
        self.path = Path(path)
        self._manifest = dict(manifest or {})
        try:
            self._con = open_index(self.path)
        except duckdb.Error as e:
            raise SearchError(f"cannot open the index {self.path}: {e}") from e
        Catalog._check_index(self._con, self.path)

    def manifest(self) -> dict[str, Any]:
        return dict(self._manifest)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self._con.cursor()

    def search_view(self) -> tuple[duckdb.DuckDBPyConnection, VectorIndex | None]:
        return self._con.cursor(), open_vectors(self._manifest.get("vectors"), self.path.parent)

    def close(self) -> None:
        self._con.close()
