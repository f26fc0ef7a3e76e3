"""Dagster resources: where the pipeline reads its configuration and writes its data.

``DocOrbitResource`` resolves the DocOrbit home when a run (or sensor tick) asks for it, never at
import time, so ``dagster dev`` started anywhere picks the right project:

1. ``home`` (and optionally ``project_root``) given explicitly, as ``run_ingest`` does;
2. otherwise ``DOCORBIT_HOME`` (the ladder's first rung), then ``DOCORBIT_PROJECT`` (a project
   folder: home = ``<project>/.docorbit``), then the nearest project root above the working
   directory, then ``~/.docorbit`` (``docorbit_serve.home.resolve_home``).

``io_manager.build_resources(home)`` builds the resource dict from it (resources never import
the IO manager, so the two modules do not import each other).
"""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg
from pydantic import Field

from docorbit_assets.instance import PID_TAG
from docorbit_serve.home import Home, pipeline_home, resolve_home
from docorbit_serve.registry import Registry, SourceConfig, load_registry

__all__ = ["DocOrbitResource"]


class DocOrbitResource(dg.ConfigurableResource):
    """The DocOrbit home (data folder) and the project whose ``docorbit.toml`` lists the sources."""

    home: str = Field(
        default="",
        description="Home folder; empty = DOCORBIT_HOME, DOCORBIT_PROJECT or the working directory's project, resolved at run time.",
    )
    project_root: str = Field(
        default="",
        description="Folder holding docorbit.toml; empty = derived from the home by the resolution ladder.",
    )

    def resolve(self) -> Home:
        """The ``Home`` this run works on (reads the environment now, not at import)."""
        if self.home:
            path = Path(self.home).expanduser().resolve()
            root = (
                Path(self.project_root).expanduser().resolve()
                if self.project_root
                else resolve_home(home=path).project_root
            )
            return Home(path, root)
        return pipeline_home()

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """Tag the run with its worker's pid (``docorbit/pid``, as ``run_ingest`` tags its
        runs): a run the UI's daemon launched and whose process then died is marked failed at
        the next ingest or gc (``instance.recover_dead_runs``), daemon or not."""
        run, instance = context.run, context.instance
        if run is None or instance is None or PID_TAG in run.tags:
            return
        instance.add_run_tags(run.run_id, {PID_TAG: str(os.getpid())})

    def registry(self) -> Registry:
        return load_registry(self.resolve().config_path)

    def source(self, name: str) -> SourceConfig:
        """The configured source behind partition ``name`` (``SourceNotFound`` when removed)."""
        return self.registry().get(name)
