"""Change commands: ``diff``, ``verify`` and ``impact`` (issue 15; docs/changes.md).

Each command calls one library function (``changes.diff``, ``verify.verify_paths`` /
``verify_text``, ``impact.analyze_impact``) and prints its shared model (``--json``: the MCP
tool's ``structuredContent``) or its Markdown. ``verify`` exits 4 when any call is a
``mismatch`` (for CI), 0 otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from docorbit_serve.cli._common import _emit, _State, cli, json_option
from docorbit_serve.errors import ExitCode, InputError, UsageError
from docorbit_serve.home import workspace_root

__all__: list[str] = []


def _dump(model: object) -> object:
    return model.model_dump(mode="json")  # type: ignore[attr-defined]


@cli.command()
@click.argument("target", required=False)
@click.option(
    "--from", "from_", metavar="SNAP|VERSION", help="Older side (snapshot id or version)."
)
@click.option("--to", "to", metavar="SNAP|VERSION", help="Newer side (snapshot id or version).")
@click.option("--kind", "kinds", multiple=True, help="endpoint, page, section, pitfall or symbol.")
@click.option("--limit", type=click.IntRange(1, 500), default=200, show_default=True,
              help="Items per page (1-500, as MCP diff_docs).")  # fmt: skip
@click.option("--cursor", default=None, help="next_cursor of the previous page.")
@json_option
@click.pass_obj
def diff(
    state: _State,
    target: str | None,
    from_: str | None,
    to: str | None,
    kinds: tuple[str, ...],
    limit: int,
    cursor: str | None,
) -> None:
    """What changed between two snapshots of a SOURCE or two versions of a LIBRARY."""
    from docorbit_serve.changes import diff as run_diff
    from docorbit_serve.changes.render import render_diff

    res = run_diff(state.home(), target, from_, to, kinds=kinds or None, limit=limit, cursor=cursor)
    _emit(state, _dump(res), render_diff(res))


def _workspace(state: _State, given: str | None) -> Path | None:
    if given:
        root = Path(given).resolve()
        if not root.is_dir():
            raise InputError(
                f"workspace folder {root} does not exist", detail={"workspace": str(root)}
            )
        return root
    return workspace_root(state.home(), state.project)


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--workspace", metavar="DIR", help="Workspace whose pinned versions are checked.")
@click.option(
    "--language",
    metavar="L",
    help="Language of stdin (python, javascript, typescript, shell, markdown).",
)
@json_option
@click.pass_obj
def verify(
    state: _State, paths: tuple[str, ...], workspace: str | None, language: str | None
) -> int:
    """Check the API calls in PATHs against the served contract (exit 4 on a mismatch)."""
    from docorbit_serve.changes.render import render_verify
    from docorbit_serve.verify import verify_paths, verify_text

    home = state.home()
    root = _workspace(state, workspace)
    if paths == ("-",):
        if not language:
            raise UsageError("reading code from stdin needs --language (python, javascript, …)")
        res = verify_text(home, sys.stdin.read(), language=language, workspace=root)
    else:
        missing = [p for p in paths if not Path(p).exists()]
        if missing:
            raise InputError(
                f"no such file or folder: {', '.join(missing)}", detail={"paths": missing}
            )
        res = verify_paths(home, [Path(p).resolve() for p in paths], workspace=root)
    _emit(state, _dump(res), render_verify(res))
    return ExitCode.MISMATCH if res.status == "mismatch" else 0


@cli.command()
@click.argument("path", required=False)
@click.option(
    "--library", "target", metavar="SOURCE|LIBRARY", help="What to diff (default: the only source)."
)
@click.option("--from", "from_", metavar="SNAP|VERSION", help="Older side.")
@click.option("--to", "to", metavar="SNAP|VERSION", help="Newer side.")
@click.option("--limit", type=click.IntRange(1, 2000), default=500, show_default=True,
              help="At most this many uses (1-2000, as MCP analyze_impact).")  # fmt: skip
@json_option
@click.pass_obj
def impact(
    state: _State,
    path: str | None,
    target: str | None,
    from_: str | None,
    to: str | None,
    limit: int,
) -> None:
    """Files and lines of PATH (default: the project) that a diff's changes touch."""
    from docorbit_serve.changes.render import render_impact
    from docorbit_serve.impact import analyze_impact

    home = state.home()
    base = Path(path).resolve() if path else workspace_root(home, state.project)
    if base is None or not base.exists():
        raise InputError(
            f"no such file or folder: {path or '(no project root)'}", detail={"path": path}
        )
    res = analyze_impact(home, [base], target=target, from_=from_, to=to, limit=limit)
    _emit(state, _dump(res), render_impact(res))
