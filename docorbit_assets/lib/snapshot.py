"""Freeze one source's tables into an immutable snapshot (ARCHITECTURE.md, "Decisions").

``freeze(home, cfg, tables) -> pa.Table`` takes every per-source table (``PER_SOURCE_TABLES``)
of one source, validates each against its schema in ``docorbit_serve.schemas`` (``conform``:
columns must match by name, types are cast when compatible, anything else is an ``IngestError``)
and writes::

    tables/<table>/source=<source>/snapshot=<id>/part-0.parquet   one per per-source table,
                                                                  with the extra ``snapshot`` column
    tables/snapshots/source=<source>/snapshot=<id>/part-0.parquet the 1-row SNAPSHOTS table

It returns that 1-row SNAPSHOTS table.

Identity. ``snapshot_id`` = ``"s_"`` + the first 20 hex digits of ``content_hash``, a SHA-256
over ``SCHEMA_VERSION``, the source configuration (canonical JSON) and, per table in
``PER_SOURCE_TABLES`` order, the Arrow IPC stream bytes of the conformed table with its
``fetched_at`` column dropped. Same input, same id; ``fetched_at`` is provenance, not identity.

Immutability and atomicity. Every table folder is written into a temporary folder under
``tables/.tmp/`` (outside the hive tree, so globs over ``tables/<t>/*/*/`` never see a half
folder) and then renamed into place; each Parquet file inside is itself written to a temporary
file and ``os.replace``d. The ``snapshots`` folder is written last and is the commit marker:
when it exists, the snapshot is complete and ``freeze`` returns the stored row without touching
anything, so re-running on unchanged input leaves every file byte-identical and the first
``created_at`` stands. A folder that exists already (a killed earlier attempt that got that far)
is kept as it is. A killed run can leave folders in ``tables/.tmp/``; they are never read.

Parquet files are written deterministically (``write_parquet``: zstd level 3, dictionary
encoding, statistics, no timestamps in the metadata) so identical tables give identical bytes.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import (
    PER_SOURCE_TABLES,
    SCHEMA_VERSION,
    SCHEMAS,
    canonical_json,
    with_snapshot,
)

__all__ = [
    "PARQUET_FILE",
    "conform",
    "content_hash",
    "freeze",
    "read_parquet",
    "snapshot_id",
    "table_problems",
    "write_parquet",
]

PARQUET_FILE = "part-0.parquet"
_ID_TABLES = ("pages", "chunks", "symbols", "endpoints", "examples", "pitfalls")


def conform(name: str, table: pa.Table) -> pa.Table:
    """``table`` with exactly the columns and types of ``SCHEMAS[name]``; ``IngestError`` if not possible."""
    schema = SCHEMAS[name]
    missing = [n for n in schema.names if n not in table.column_names]
    extra = [n for n in table.column_names if n not in schema.names]
    if missing or extra:
        raise IngestError(
            f"table {name!r} does not match its schema (missing {missing}, unexpected {extra})",
            detail={"table": name, "missing": missing, "unexpected": extra},
        )
    try:
        out = table.select(schema.names).cast(schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as e:
        raise IngestError(
            f"table {name!r} has column types that do not cast to its schema: {e}",
            detail={"table": name},
        ) from e
    return out.replace_schema_metadata(None)


def table_problems(name: str, table: pa.Table, *, source: str) -> list[str]:
    """Contract violations of one staged table of ``source`` (empty list = valid).

    Checks the schema, that every ``source`` value is ``source`` (partitions never overwrite each
    other), and that ``id`` values are present and unique where the table has ids.
    """
    try:
        table = conform(name, table)
    except IngestError as e:
        return [e.message]
    problems: list[str] = []
    if "source" in table.column_names:
        others = sorted({s for s in table.column("source").to_pylist() if s != source})
        if others:
            problems.append(f"{name}: rows of other sources {others[:5]}")
    if name in _ID_TABLES:
        ids = table.column("id").to_pylist()
        if any(not i for i in ids):
            problems.append(f"{name}: empty id")
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        if dupes:
            problems.append(f"{name}: {len(dupes)} duplicate ids, e.g. {dupes[:3]}")
    return problems


def _config_json(cfg: SourceConfig) -> str:
    return canonical_json(cfg.identity())


def _table_digest(table: pa.Table) -> bytes:
    if "fetched_at" in table.column_names:
        table = table.drop_columns(["fetched_at"])
    table = table.combine_chunks()
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, table.schema) as writer:
        for batch in table.to_batches():
            if batch.num_rows:  # empty batches depend on how the table was built; skip them
                writer.write_batch(batch)
    return hashlib.sha256(sink.getvalue().to_pybytes()).digest()


def content_hash(cfg: SourceConfig, tables: dict[str, pa.Table]) -> str:
    """SHA-256 hex over schema version, source config and the conformed tables (no ``fetched_at``)."""
    h = hashlib.sha256()
    h.update(f"docorbit-snapshot\x00{SCHEMA_VERSION}\x00".encode())
    h.update(_config_json(cfg).encode("utf-8") + b"\x00")
    for name in PER_SOURCE_TABLES:
        h.update(name.encode("utf-8") + b"\x00" + _table_digest(tables[name]))
    return h.hexdigest()


def snapshot_id(cfg: SourceConfig, tables: dict[str, pa.Table]) -> str:
    return "s_" + content_hash(cfg, tables)[:20]


def write_parquet(table: pa.Table, path: Path) -> int:
    """Write ``table`` to ``path`` deterministically via a temp file + ``os.replace``; returns bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.tmp-{secrets.token_hex(4)}"
    try:
        pq.write_table(
            table,
            tmp,
            compression="zstd",
            compression_level=3,
            use_dictionary=True,
            write_statistics=True,
        )
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path.stat().st_size


def read_parquet(path: Path) -> pa.Table:
    return pq.read_table(path)


def _write_folder(home: Home, final: Path, table: pa.Table) -> None:
    """Write ``final/part-0.parquet`` so that ``final`` appears complete or not at all."""
    if final.exists():
        return
    scratch = home.tables / ".tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    tmp = (
        scratch
        / f"{final.parent.parent.name}.{final.parent.name}.{final.name}.{secrets.token_hex(4)}"
    )
    tmp.mkdir()
    try:
        write_parquet(table, tmp / PARQUET_FILE)
        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(tmp, final)
        except OSError:
            if not final.exists():  # not a lost race with an identical writer
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def freeze(home: Home, cfg: SourceConfig, tables: dict[str, pa.Table]) -> pa.Table:
    """Freeze ``tables`` (every name in ``PER_SOURCE_TABLES``) of ``cfg`` as a snapshot; see module doc."""
    missing = [n for n in PER_SOURCE_TABLES if n not in tables]
    if missing:
        raise IngestError(
            f"cannot freeze source {cfg.name!r}: tables {missing} are missing",
            detail={"source": cfg.name, "missing": missing},
        )
    conformed = {n: conform(n, tables[n]) for n in PER_SOURCE_TABLES}
    digest = content_hash(cfg, conformed)
    sid = "s_" + digest[:20]
    marker = home.table_dir("snapshots", cfg.name, sid)
    if (marker / PARQUET_FILE).exists():
        return conform("snapshots", read_parquet(marker / PARQUET_FILE))
    for name in PER_SOURCE_TABLES:
        _write_folder(
            home, home.table_dir(name, cfg.name, sid), with_snapshot(conformed[name], sid)
        )
    row = {
        "id": sid,
        "source": cfg.name,
        "library": cfg.library,
        "version": cfg.version,
        "kind": cfg.kind,
        "location": cfg.resolved_location(home.project_root),
        "content_hash": digest,
        "created_at": _now(),
        "schema_version": SCHEMA_VERSION,
        "row_counts_json": canonical_json({n: conformed[n].num_rows for n in PER_SOURCE_TABLES}),
    }
    snap = pa.Table.from_pylist([row], schema=SCHEMAS["snapshots"])
    _write_folder(home, marker, snap)
    # A concurrent freeze of the same input may have won the rename: the stored row is the truth.
    return conform("snapshots", read_parquet(marker / PARQUET_FILE))
