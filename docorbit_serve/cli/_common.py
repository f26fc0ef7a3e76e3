"""Shared pieces of the ``docorbit`` command line: the click group, global state, the JSON/text
emitter and the error contract (entry point ``main``). Command families live beside this module
(``sources``, ``reading``, ``versions`` …) and attach their commands to ``cli`` on import.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

import click

from docorbit_serve.errors import (
    DocOrbitError,
    ExitCode,
    UsageError,
)
from docorbit_serve.home import Home, resolve_home

__all__ = ["EXIT_CODES", "cli", "json_option", "main"]

_MEANING = {
    ExitCode.OK: "ok",
    ExitCode.ERROR: "error (configuration, search or unexpected failure)",
    ExitCode.USAGE: "usage (bad command line or arguments)",
    ExitCode.NOT_FOUND: "not found (unknown id, source or library) or nothing published yet",
    ExitCode.MISMATCH: "mismatch (verify found a call that contradicts the served API contract; eval scored below --min-mrr)",
    ExitCode.BLOCKED_URL: "blocked_url (a URL refused by the fetch policy)",
    ExitCode.FETCH_ERROR: "fetch_error (a source could not be fetched)",
    ExitCode.BAD_INPUT: "bad_input (an invalid file, path, cursor or query)",
    ExitCode.INGEST_FAILED: (
        "ingest_failed (the pipeline run failed; the previous publication is still served)"
    ),
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}
EXIT_CODES = {int(code): _MEANING[code] for code in ExitCode}
_EPILOG = "\b\nExit codes:\n" + "\n".join(f"  {k:>3}  {v}" for k, v in EXIT_CODES.items())


@dataclasses.dataclass
class _State:
    home_opt: str | None = None
    global_: bool = False
    project: str | None = None
    json: bool = False

    def home(self, *, init: bool = False) -> Home:
        """The resolved home; ``init=True`` applies ``docorbit init``'s rule (``home.py``)."""
        given = [x for x in (self.home_opt, self.project) if x] + (["-g"] if self.global_ else [])
        if len(given) > 1:
            raise UsageError("--home, -g/--global and -p/--project are alternatives: give one")
        return resolve_home(
            home=self.home_opt, global_=self.global_, project=self.project, init=init
        )


def _set_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.ensure_object(_State).json = True
    return value


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` after the command name (same effect as before it)."""
    return click.option(
        "--json",
        "json_",
        is_flag=True,
        expose_value=False,
        callback=_set_json,
        help="Print data as JSON on stdout.",
    )(f)


def _emit(state: _State, data: Any, text: str) -> None:
    if state.json:
        click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(text.rstrip("\n"))


def _info(msg: str) -> None:
    click.echo(msg, err=True)


class _DocOrbitGroup(click.Group):
    """A group whose ``main`` applies DocOrbit's error contract (also under click's CliRunner)."""

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        code = _run(
            self, list(sys.argv[1:] if args is None else args), prog_name or "docorbit", **extra
        )
        if standalone_mode:
            sys.exit(code)
        return code


@click.group(
    cls=_DocOrbitGroup,
    epilog=_EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option("--home", "home_opt", metavar="DIR", help="Home folder (also DOCORBIT_HOME).")
@click.option("-g", "--global", "global_", is_flag=True, help="Use the global home ~/.docorbit.")
@click.option("-p", "--project", metavar="DIR", help="Use DIR/.docorbit and DIR/docorbit.toml.")
@click.option("--json", "json_", is_flag=True, help="Print data as JSON on stdout.")
@click.version_option(package_name="docorbit", prog_name="docorbit")
@click.pass_context
def cli(
    ctx: click.Context, home_opt: str | None, global_: bool, project: str | None, json_: bool
) -> None:
    """DocOrbit: versioned, searchable, safe documentation for AI coding agents.

    stdout carries data only (JSON with --json, else Markdown); diagnostics go to stderr.
    """
    state = ctx.ensure_object(_State)
    state.home_opt, state.global_, state.project = home_opt, global_, project
    state.json = state.json or json_


def _catalog(home: Home) -> Any:
    from docorbit_serve.catalog import Catalog

    return Catalog(home)


# --------------------------------------------------------------------------- entry point


def _print_error(err: DocOrbitError, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(err.to_json(), sort_keys=True, ensure_ascii=False, default=str))
    else:
        click.echo(f"error [{err.code}]: {err.message}", err=True)


def _wants_json(args: list[str]) -> bool:
    return "--json" in (args[: args.index("--")] if "--" in args else args)


def _run(group: click.Group, args: list[str], prog_name: str, **extra: Any) -> int:
    as_json = _wants_json(args)
    try:
        rv = click.Group.main(group, args=args, prog_name=prog_name, standalone_mode=False, **extra)
        return rv if isinstance(rv, int) else 0
    except DocOrbitError as e:
        _print_error(e, as_json)
        return e.exit_code
    except click.UsageError as e:
        if as_json:
            _print_error(UsageError(e.format_message()), True)
        else:
            e.show()
        return ExitCode.USAGE
    except click.ClickException as e:
        _print_error(DocOrbitError(e.format_message()), as_json)
        return e.exit_code or ExitCode.ERROR
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        return ExitCode.INTERRUPTED
    except Exception as e:  # top-level handler: report, never a bare traceback on stdout
        traceback.print_exc(file=sys.stderr)
        _print_error(DocOrbitError(f"unexpected {type(e).__name__}: {e}", code="internal"), as_json)
        return ExitCode.ERROR


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (see ``EXIT_CODES``)."""
    return cli.main(args=argv, standalone_mode=False)
