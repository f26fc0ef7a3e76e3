"""Export command: ``docorbit export FORMAT`` writes AGENTS.md, CLAUDE.md, SKILL.md, llms.txt or
docs-map.md for a repository (``docorbit_serve.export``)."""

from __future__ import annotations

from pathlib import Path

import click

from docorbit_serve.cli._common import _catalog, _emit, _info, _State, cli, json_option
from docorbit_serve.models.web import EXPORT_FORMATS

__all__: list[str] = []


@cli.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(EXPORT_FORMATS))
@click.option("--library", help="Only this library.")
@click.option("--out", "out", metavar="PATH", help="Write the file here ('-' = stdout only).")
@click.option("--budget", type=click.IntRange(300, 200000), default=4000, show_default=True,
              help="Token budget of the whole file (cl100k).")  # fmt: skip
@click.option("--base-url", default="http://127.0.0.1:8765", show_default=True,
              help="Where `docorbit dashboard` serves (links in the file).")  # fmt: skip
@click.option("--workspace", metavar="DIR", help="Workspace whose pinned versions to list.")
@json_option
@click.pass_obj
def export(
    state: _State,
    fmt: str,
    library: str | None,
    out: str | None,
    budget: int,
    base_url: str,
    workspace: str | None,
) -> None:
    """Write the docs an agent needs (libraries, pinned versions, entry points, pitfalls).

    FORMAT: agents-md, claude-md, skill, llms-txt or docs-map. The same publication gives
    byte-identical files. Without --out the text goes to stdout.
    """
    from docorbit_serve import service
    from docorbit_serve.export import export_context

    home = state.home()
    ctx = export_context(
        home,
        _catalog(home),
        fmt,
        library=library,
        budget=budget,
        base_url=base_url,
        root=service.workspace_dir(home, workspace),
    )
    if out and out != "-":
        from docorbit_serve.home import atomic_write_bytes

        path = Path(out)
        if path.is_dir():
            path = path / ctx.filename
        atomic_write_bytes(path, ctx.text.encode("utf-8"))
        _info(f"docorbit export: wrote {path} ({ctx.tokens}/{ctx.budget} tokens)")
    _emit(state, ctx.model_dump(mode="json"), ctx.text if not out or out == "-" else "")
