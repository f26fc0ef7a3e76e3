"""Vectors stage of the optional hybrid search: ``build_vectors(home, manifest, index_path)``.

Contract:
  - Reads every chunk of a built index file (``search_docs`` joined to ``chunks``), embeds it with
    ``docorbit_serve.search.dense`` (``chunk_text`` of title, breadcrumb, heading and text) and
    writes ``index/<publish_id>.vectors.npy``: one float32 row of ``dense.DIM`` per chunk, row
    ``cid - 1`` for ``search_docs.cid``. Returns ``{"path": <relative to home>, "model":
    dense.MODEL_ID, "rows": n, "stage": stage}`` for the manifest's ``vectors`` entry (``stage``:
    what search does with the vectors, ``[settings] dense_stage``; ``search.rerank``).
  - Snapshots are immutable, so each snapshot's vectors are computed once and cached under
    ``home/vectors/<model tag>/<snapshot>.npz`` (chunk ids + vectors); a later publication that
    keeps the snapshot reuses them. A cache file whose chunk ids differ from the snapshot's is
    recomputed, never trusted. The publication's file is always assembled anew from the caches
    (milliseconds), so its rows follow the index's cids even if an index was rebuilt.
  - Files are written to a temp name and renamed into place, so a vectors file is either absent
    or complete; a failure raises ``IngestError`` (code ``ingest_failed``) and leaves no file.
  - Cost: ~15-40 ms per chunk on 2 cores (the model runs on the first ``dense.MAX_TOKENS``
    tokens), so the stage is off unless ``[settings] hybrid = true``.
  - Progress: ``progress(done, total)`` (when given) is called once before embedding, after
    every ``PROGRESS_EVERY`` chunks and at the end, counting only the chunks that need
    embedding (cached snapshots cost nothing); ``stderr_progress`` prints those calls as one
    line each on stderr (the ingest's embedding phase took a minute of silence before) and
    hands them to the sinks of ``progress_to`` (MCP progress notifications).
"""

from __future__ import annotations

import io
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from docorbit_serve.catalog import open_index
from docorbit_serve.errors import IngestError, SearchError
from docorbit_serve.home import Home, atomic_write_bytes
from docorbit_serve.search import dense
from docorbit_serve.search.sqlfiles import sql

__all__ = ["PROGRESS_EVERY", "build_vectors", "progress_to", "stderr_progress", "vectors_path"]

PROGRESS_EVERY = 256
Progress = Callable[[int, int], None]


def vectors_path(home: Home, publish_id: str) -> Path:
    return home.index_dir / f"{publish_id}.vectors.npy"


def _cache_path(home: Home, snapshot: str) -> Path:
    """A snapshot's vectors, in a folder named for the model that made them (read when called,
    so a caller measuring another model, ``scripts/eval_dev.py --dense-model``, only sets
    ``dense.MODEL_ID``)."""
    tag = re.sub(r"[^A-Za-z0-9_.-]+", "_", dense.MODEL_ID)
    return home.path / "vectors" / tag / f"{snapshot}.npz"


def _write_atomic(path: Path, write: Callable[[io.BytesIO], None]) -> None:
    buf = io.BytesIO()
    write(buf)
    atomic_write_bytes(path, buf.getvalue())


def _cached(path: Path, ids: list[str]) -> np.ndarray | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            cached_ids, vecs = z["ids"], z["vectors"]
    except (OSError, ValueError, KeyError):
        return None
    if vecs.shape != (len(ids), dense.DIM) or list(cached_ids) != ids:
        return None
    return np.asarray(vecs, dtype=np.float32)


_sinks: list[Progress] = []
_sinks_lock = threading.Lock()


@contextmanager
def progress_to(sink: Progress) -> Iterator[None]:
    """While inside, ``stderr_progress`` also hands each ``(done, total)`` to ``sink`` (the MCP
    ``ingest_doc`` tool turns them into progress notifications: an embedding phase of minutes is
    not silence to the client). The asset runs in-process, on the caller's thread."""
    with _sinks_lock:
        _sinks.append(sink)
    try:
        yield
    finally:
        with _sinks_lock:
            _sinks.remove(sink)


def stderr_progress(done: int, total: int) -> None:
    """One progress line on stderr (stdout carries the CLI's data), and to every ``progress_to``
    sink."""
    pct = 100 * done // total if total else 100
    print(f"embedding chunks for hybrid search: {done:,}/{total:,} ({pct}%)", file=sys.stderr)
    sys.stderr.flush()
    with _sinks_lock:
        sinks = list(_sinks)
    for sink in sinks:
        sink(done, total)


class _Counter:
    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done, self.total, self.progress = 0, total, progress
        if progress is not None:
            progress(0, total)

    def add(self, n: int) -> None:
        before, self.done = self.done, self.done + n
        crossed = before // PROGRESS_EVERY != self.done // PROGRESS_EVERY
        if self.progress is not None and (crossed or self.done == self.total):
            self.progress(self.done, self.total)


def _embed(rows: list[tuple[Any, ...]], counter: _Counter) -> np.ndarray:
    texts = [dense.chunk_text(r[3] or "", r[4], r[5] or "", r[6] or "") for r in rows]
    parts = []
    for start in range(0, len(texts), PROGRESS_EVERY):
        parts.append(dense.embed(texts[start : start + PROGRESS_EVERY]))
        counter.add(len(parts[-1]))
    return np.concatenate(parts) if parts else np.zeros((0, dense.DIM), dtype=np.float32)


def _snapshot_vectors(
    home: Home, snapshot: str, rows: list[tuple[Any, ...]], counter: _Counter
) -> np.ndarray:
    ids = [r[1] for r in rows]
    cache = _cache_path(home, snapshot)
    vecs = _cached(cache, ids)
    if vecs is None:
        vecs = _embed(rows, counter)
        _write_atomic(cache, lambda fh: np.savez(fh, ids=np.array(ids, dtype=str), vectors=vecs))
    return vecs


def build_vectors(
    home: Home,
    manifest: dict[str, Any],
    index_path: Path,
    progress: Progress | None = None,
    stage: str = "rrf",
) -> dict[str, Any]:
    """Write the publication's vectors file from the snapshot caches; see the module docstring."""
    out = vectors_path(home, manifest["publish_id"])
    try:
        # The serving configuration: a catalog in this process (an MCP server that ingests) may
        # hold the same file open, and DuckDB refuses a second configuration.
        with open_index(index_path) as con:
            rows = con.execute(sql("vectors_chunks")).fetchall()
    except duckdb.Error as e:
        raise IngestError(f"cannot read chunks from {index_path} for vectors: {e}") from e
    n = len(rows)
    if [r[0] for r in rows] != list(range(1, n + 1)):
        raise IngestError(f"{index_path}: search_docs ids are not 1..{n}; rebuild the index")
    entry = {
        "path": out.relative_to(home.path).as_posix(),
        "model": dense.MODEL_ID,
        "rows": n,
        "stage": stage,
    }
    matrix = np.zeros((n, dense.DIM), dtype=np.float32)
    by_snapshot: dict[str, list[tuple[Any, ...]]] = {}
    for r in rows:
        by_snapshot.setdefault(r[2], []).append(r)
    todo = sum(
        len(part)
        for snapshot, part in by_snapshot.items()
        if _cached(_cache_path(home, snapshot), [r[1] for r in part]) is None
    )
    counter = _Counter(todo, progress if todo else None)
    try:
        for snapshot, part in sorted(by_snapshot.items()):
            matrix[[r[0] - 1 for r in part]] = _snapshot_vectors(home, snapshot, part, counter)
    except SearchError as e:
        raise IngestError(f"cannot embed chunks for hybrid search: {e}", detail=e.detail) from e
    _write_atomic(out, lambda fh: np.save(fh, matrix, allow_pickle=False))
    return entry
