"""The ``gc`` job: retention from the UI (``docorbit_assets.instance.run_gc``, ``lib/gc.py``).

Config ``apply`` (default true) removes unreferenced snapshots, index files, vectors and a
killed build's debris, and marks failed the STARTED runs whose process is gone; it fails
while another run is in progress (its files would look like debris). ``apply: false`` only
reports the plan. The result (kept per source, removed paths, bytes) is the op's
output metadata. Safe beside a running server: the served publication is never touched.
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import json

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource

__all__ = ["GC_JOB"]


class GcConfig(dg.Config):
    apply: bool = True
    keep_last: int = 0  # 0 = [settings] keep_snapshots


@dg.op(description="Remove what no publication, recent snapshot or docs.lock references.")
def collect_garbage(context: dg.OpExecutionContext, config: GcConfig, docorbit: DocOrbitResource):
    from docorbit_assets.instance import run_gc

    result = run_gc(
        docorbit.resolve(),
        apply=config.apply,
        keep_last=config.keep_last or None,
        instance=context.instance if config.apply else None,
        run_id=context.run_id,
    )
    context.add_output_metadata(
        {
            "applied": result["applied"],
            "removed": len(result["removed"]) if result["applied"] else len(result["remove"]),
            "bytes": result["bytes"],
            "failed_runs": ", ".join(result["failed_runs"]),
            "plan": dg.MetadataValue.json(json.loads(json.dumps(result, default=str))),
        }
    )
    return result["bytes"]


@dg.job(name="gc", description="Retention: dead runs failed, unreferenced files removed.")
def gc_job():
    collect_garbage()


GC_JOB = gc_job
