"""The one Definitions object, workspace.yaml, and the partition sensor."""

# No `from __future__ import annotations`: kept like the defs modules it tests.

import importlib
from pathlib import Path

import dagster as dg
import yaml

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.sensors import source_partitions
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, load_registry, save_registry
from tests.support.paths import REPO

STAGE_GROUPS = {
    "sources": "discover",
    "discovered": "discover",
    "fetches": "fetch",
    "pages": "normalize",
    "chunks": "slice",
    "symbols": "extract",
    "endpoints": "extract",
    "examples": "extract",
    "pitfalls": "extract",
    "links": "extract",
    "postings": "extract",
    "snapshots": "snapshot",
    "diffs": "snapshot",
    "search_index": "index",
    "published": "publish",
}


def _workspace_defs() -> dg.Definitions:
    """What ``dagster dev -w workspace.yaml`` loads."""
    workspace = yaml.safe_load((REPO / "workspace.yaml").read_text(encoding="utf-8"))
    (entry,) = workspace["load_from"]
    target = entry["python_module"]
    assert (REPO / target["working_directory"]).resolve() == REPO
    return getattr(importlib.import_module(target["module_name"]), target["attribute"])


def test_workspace_loads_one_valid_definitions_with_every_stage_in_its_group() -> None:
    defs = _workspace_defs()
    dg.Definitions.validate_loadable(defs)
    graph = defs.resolve_asset_graph()
    groups = {k.to_user_string(): graph.get(k).group_name for k in graph.get_all_asset_keys()}
    assert groups == STAGE_GROUPS
    blocking = {
        (k.asset_key.to_user_string(), k.name)
        for k in graph.asset_check_keys
        if graph.get_check_spec(k).blocking
    }
    assert blocking == {
        ("pages", "pages_are_valid"),
        ("chunks", "chunks_are_valid"),
        ("search_index", "search_index_is_complete"),
        ("search_index", "retrieval_benchmark"),
    }
    assert defs.resolve_sensor_def("source_partitions") is not None


def test_resource_resolves_the_home_at_run_time_not_at_import(tmp_path: Path, monkeypatch) -> None:
    resource = DocOrbitResource()
    monkeypatch.setenv("DOCORBIT_HOME", str(tmp_path / "elsewhere"))
    assert resource.resolve().path == (tmp_path / "elsewhere").resolve()
    monkeypatch.delenv("DOCORBIT_HOME")
    monkeypatch.setenv("DOCORBIT_PROJECT", str(tmp_path))
    assert resource.resolve() == Home(tmp_path.resolve() / ".docorbit", tmp_path.resolve())


def _evaluate(home: Home, instance: dg.DagsterInstance):
    resource = DocOrbitResource(home=str(home.path), project_root=str(home.project_root))
    context = dg.build_sensor_context(instance=instance, resources={"docorbit": resource})
    result = source_partitions(context)
    if isinstance(result, dg.SensorResult):  # apply the requests as the daemon does
        for req in result.dynamic_partitions_requests or []:
            if isinstance(req, dg.AddDynamicPartitionsRequest):
                instance.add_dynamic_partitions(req.partitions_def_name, list(req.partition_keys))
            else:
                for key in req.partition_keys:
                    instance.delete_dynamic_partition(req.partitions_def_name, key)
    return result


def _source(name: str) -> SourceConfig:
    return SourceConfig(name=name, kind="local", location=name, library=name)


def test_sensor_keeps_source_partitions_in_step_with_docorbit_toml(tmp_path: Path) -> None:
    home = Home(tmp_path / ".docorbit", tmp_path)
    save_registry(Registry(home.config_path, [_source("httpx"), _source("pydantic")]))
    with dg.DagsterInstance.ephemeral() as instance:
        added = _evaluate(home, instance)
        assert [sorted(r.partition_keys) for r in added.dynamic_partitions_requests] == [
            ["httpx", "pydantic"]
        ]
        assert sorted(instance.get_dynamic_partitions("source")) == ["httpx", "pydantic"]
        assert isinstance(_evaluate(home, instance), dg.SkipReason)
        registry = load_registry(home.config_path)
        registry.remove("httpx")
        registry.add(_source("fastapi"))
        save_registry(registry)
        changed = _evaluate(home, instance)
        kinds = [
            (type(r).__name__, sorted(r.partition_keys))
            for r in changed.dynamic_partitions_requests
        ]
        assert kinds == [
            ("AddDynamicPartitionsRequest", ["fastapi"]),
            ("DeleteDynamicPartitionsRequest", ["httpx"]),
        ]
        assert sorted(instance.get_dynamic_partitions("source")) == ["fastapi", "pydantic"]
