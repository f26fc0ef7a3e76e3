"""API-intelligence commands: ``api``, ``examples``, ``pitfalls``, ``recipe``.

Each parses its arguments, calls one service of ``docorbit_serve.api`` and prints the result
model: ``--json`` prints ``model_dump(mode="json")`` (the same object the MCP tool returns as
``structuredContent``), else Markdown (``docorbit_serve.api.render``). Answers are ranked for
the versions the workspace pins (``--workspace DIR``, default: ``-p`` or the project) unless
``--version`` is given.
"""

from __future__ import annotations

import copy
from typing import Any

import click

from docorbit_serve.cli._common import _catalog, _emit, _State, cli, json_option

__all__: list[str] = []

_LIMIT = click.IntRange(1, 50)


def _scope(state: _State, workspace: str | None) -> tuple[Any, dict[str, Any]]:
    from docorbit_serve import service
    from docorbit_serve.api.scope import workspace_pins

    home = state.home()
    catalog = _catalog(home)
    root = service.workspace_dir(home, workspace or state.project)
    return catalog, workspace_pins(catalog, root)


def _common(f: Any) -> Any:
    for opt in reversed(
        [
            click.option("--library", help="Only this library."),
            click.option("--version", "version_", help="Only this version label."),
            click.option("--workspace", metavar="DIR", help="Workspace whose versions count."),
        ]
    ):
        f = opt(f)
    return f


@cli.command()
@click.argument("query", nargs=-1, required=True)
@_common
@click.option("--limit", type=_LIMIT, default=5, show_default=True)
@json_option
@click.pass_obj
def api(
    state: _State,
    query: tuple[str, ...],
    library: str | None,
    version_: str | None,
    workspace: str | None,
    limit: int,
) -> None:
    """Endpoint contracts for a task ("create a chat completion") or METHOD PATH.

    \b
    docorbit api "list the files of an organization" --library openai
    docorbit api POST /chat/completions
    docorbit api GET /pets/123          (a concrete path matches /pets/{petId})
    """
    from docorbit_serve.api import find_api
    from docorbit_serve.api.render import render_api

    catalog, pins = _scope(state, workspace)
    res = find_api(
        catalog, " ".join(query), library=library, version=version_, limit=limit, pins=pins
    )
    _emit(state, res.model_dump(mode="json"), render_api(res))


@cli.command()
@click.argument("query")
@_common
@click.option("--language", help="Only code in this language (py/python, js, ts, shell …).")
@click.option("--framework", help="Only examples of this framework (fastapi, express …).")
@click.option("--limit", type=_LIMIT, default=5, show_default=True)
@json_option
@click.pass_obj
def examples(
    state: _State,
    query: str,
    library: str | None,
    version_: str | None,
    workspace: str | None,
    language: str | None,
    framework: str | None,
    limit: int,
) -> None:
    """Code examples from the docs for a task, with language, framework and provenance."""
    from docorbit_serve.api import find_example
    from docorbit_serve.api.render import render_examples

    catalog, pins = _scope(state, workspace)
    res = find_example(
        catalog, query, library=library, version=version_, language=language,
        framework=framework, limit=limit, pins=pins,
    )  # fmt: skip
    _emit(state, res.model_dump(mode="json"), render_examples(res))


@cli.command()
@click.argument("query", required=False)
@_common
@click.option("--symbol", help="Only pitfalls naming this symbol.")
@click.option("--endpoint", help="Only pitfalls naming this endpoint (METHOD /path).")
@click.option("--kind", help="deprecated, removed, breaking_change, security, rate_limit …")
@click.option("--limit", type=_LIMIT, default=10, show_default=True)
@json_option
@click.pass_obj
def pitfalls(
    state: _State,
    query: str | None,
    library: str | None,
    version_: str | None,
    workspace: str | None,
    symbol: str | None,
    endpoint: str | None,
    kind: str | None,
    limit: int,
) -> None:
    """Documented traps (deprecations, removals, limits, security …) with their evidence."""
    from docorbit_serve.api import find_pitfall
    from docorbit_serve.api.render import render_pitfalls

    catalog, pins = _scope(state, workspace)
    res = find_pitfall(
        catalog, query, symbol=symbol, endpoint=endpoint, library=library, version=version_,
        kind=kind, limit=limit, pins=pins,
    )  # fmt: skip
    _emit(state, res.model_dump(mode="json"), render_pitfalls(res))


@cli.command()
@click.argument("task")
@_common
@json_option
@click.pass_obj
def recipe(
    state: _State, task: str, library: str | None, version_: str | None, workspace: str | None
) -> None:
    """Steps for a task from documented evidence only; each item says whether it is a
    documented fact, an inferred relationship or missing information."""
    from docorbit_serve.api import find_recipe
    from docorbit_serve.api.render import render_recipe

    catalog, pins = _scope(state, workspace)
    res = find_recipe(catalog, task, library=library, version=version_, pins=pins)
    _emit(state, res.model_dump(mode="json"), render_recipe(res))


# DESIGN.md §5 lists the command as ``recipes``: the same command under that name, hidden.
_alias = copy.copy(recipe)
_alias.hidden = True
cli.add_command(_alias, name="recipes")
