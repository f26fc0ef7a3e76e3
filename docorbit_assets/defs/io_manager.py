"""The staging IO manager: asset outputs as files under ``home/staging/``.

- An Arrow table of a partitioned asset goes to ``staging/<asset>/source=<partition>/part-0.parquet``
  (``Home.staging_file``); partitions never share a file, so runs of different sources cannot
  overwrite each other. Unpartitioned tables go to ``staging/<asset>/part-0.parquet``.
- A dict (the candidate manifest of ``search_index``) goes to ``staging/<asset>/<asset>.json``.

Every file is written to a temporary name and ``os.replace``d, so a killed run leaves the
previous file or the new one. Staging holds only the latest materialization and is private to
the pipeline; what is served lives in the frozen snapshots (``lib/snapshot.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib.snapshot import read_parquet, write_parquet
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home, atomic_write_json

__all__ = ["StagingIOManager", "build_resources"]


class StagingIOManager(dg.ConfigurableIOManager):
    """Partition-aware Parquet (and JSON) files under ``home/staging``, written atomically."""

    docorbit: DocOrbitResource

    def _path(self, asset: str, partition: str | None, suffix: str) -> Path:
        home = self.docorbit.resolve()
        if suffix == ".json":
            return home.staging / asset / f"{asset}.json"
        if partition is not None:
            return home.staging_file(asset, partition)
        return home.staging / asset / "part-0.parquet"

    def handle_output(self, context: dg.OutputContext, obj: Any) -> None:
        asset = context.asset_key.path[-1]
        partition = context.asset_partition_key if context.has_asset_partitions else None
        if isinstance(obj, pa.Table):
            path = self._path(asset, partition, ".parquet")
            size = write_parquet(obj, path)
            context.add_output_metadata(
                {"rows": obj.num_rows, "bytes": size, "path": dg.MetadataValue.path(str(path))}
            )
        elif isinstance(obj, dict):
            path = self._path(asset, partition, ".json")
            atomic_write_json(path, obj)
            context.add_output_metadata({"path": dg.MetadataValue.path(str(path))})
        else:
            raise IngestError(
                f"asset {asset!r} returned {type(obj).__name__}; expected a table or dict"
            )

    def load_input(self, context: dg.InputContext) -> Any:
        asset = context.asset_key.path[-1]
        partition = context.asset_partition_key if context.has_asset_partitions else None
        json_path = self._path(asset, partition, ".json")
        path = json_path if json_path.exists() else self._path(asset, partition, ".parquet")
        try:
            if path == json_path:
                return json.loads(path.read_text(encoding="utf-8"))
            return read_parquet(path)
        except FileNotFoundError as e:
            raise IngestError(
                f"staged {asset!r} for {partition or 'all sources'} is missing ({path}); "
                "materialize it first",
                detail={"asset": asset, "partition": partition, "path": str(path)},
            ) from e


def build_resources(home: Home | None = None) -> dict[str, Any]:
    """The resource dict of the one ``Definitions`` object (``home`` None: resolved at run time)
    and of in-process runs (``home`` given)."""
    docorbit = (
        DocOrbitResource(home=str(home.path), project_root=str(home.project_root))
        if home is not None
        else DocOrbitResource()
    )
    return {"docorbit": docorbit, "io_manager": StagingIOManager(docorbit=docorbit)}
