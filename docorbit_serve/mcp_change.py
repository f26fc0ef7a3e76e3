"""MCP tool family ``change`` (issue 15): ``check_api``, ``diff_docs``, ``analyze_impact``.

Contract: each tool is a thin face over one library function (``verify.verify_text`` /
``verify_paths``, ``changes.diff``, ``impact.analyze_impact``) and returns its shared model
(``models/change.py``) as ``structuredContent`` plus the Markdown of ``changes.render``. Paths
are read only inside the server's workspace (its project root, else its working directory's
workspace); a path outside it, an empty request or code over ``MAX_CODE_CHARS`` is a
``[bad_input]`` tool error. Large diffs page with ``next_cursor``.
"""

# No `from __future__ import annotations`: the SDK reads the tool's annotations at runtime.

from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import Field

from docorbit_serve.errors import DocOrbitError
from docorbit_serve.home import Home, workspace_root
from docorbit_serve.mcp_common import READ_ONLY, tool_error, tool_result
from docorbit_serve.models.change import DiffResult, ImpactResult, VerifyResult

__all__ = ["MAX_CODE_CHARS", "TOOL_NAMES", "add_tools"]

TOOL_NAMES = ("check_api", "diff_docs", "analyze_impact")
MAX_CODE_CHARS = 200_000
Kind = Literal["endpoint", "page", "section", "pitfall", "symbol"]
Language = Literal["python", "javascript", "typescript", "tsx", "shell", "markdown"]


def _inside(home: Home, path: str) -> tuple[Path, Path]:
    root = workspace_root(home)
    if root is None:
        raise ToolError("[bad_input] no workspace: pass the code as text instead of a path")
    p = Path(path)
    full = (p if p.is_absolute() else root / p).resolve()
    if not full.is_relative_to(root.resolve()):
        raise ToolError(f"[bad_input] {path} is outside the workspace {root}")
    if not full.exists():
        raise ToolError(f"[bad_input] no such file or folder in the workspace: {path}")
    return full, root


def add_tools(server: MCPServer, home: Home, catalog: Any) -> None:
    del catalog  # the change tools read frozen snapshots under home, not the index

    @server.tool(name="check_api", annotations=READ_ONLY)
    def check_api(
        code: Annotated[str | None, Field(description="Code to check (give language).")] = None,
        language: Annotated[
            Language | None, Field(description="Language of code: python, javascript, …")
        ] = None,
        path: Annotated[
            str | None, Field(description="Or a file/folder of the workspace to check.")
        ] = None,
    ) -> Annotated[CallToolResult, VerifyResult]:
        """Check code's API calls against the documented contract of the pinned version."""
        from docorbit_serve.changes.render import render_verify
        from docorbit_serve.verify import verify_paths, verify_text

        if (code is None) == (path is None):
            raise ToolError("[bad_input] give either code (with language) or path")
        try:
            if code is not None:
                if not language:
                    raise ToolError("[bad_input] code needs a language: python, javascript, …")
                if len(code) > MAX_CODE_CHARS:
                    raise ToolError(f"[bad_input] code is over {MAX_CODE_CHARS} characters")
                res = verify_text(home, code, language=language, workspace=workspace_root(home))
            else:
                full, root = _inside(home, path or "")
                res = verify_paths(home, [full], workspace=root)
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_verify(res))

    @server.tool(name="diff_docs", annotations=READ_ONLY)
    def diff_docs(
        target: Annotated[
            str | None, Field(description="A source name or a library (see list_sources).")
        ] = None,
        from_ref: Annotated[
            str | None, Field(description="Older side: a snapshot id (source) or a version.")
        ] = None,
        to_ref: Annotated[
            str | None, Field(description="Newer side: a snapshot id (source) or a version.")
        ] = None,
        kinds: Annotated[list[Kind] | None, Field(description="Only these kinds.")] = None,
        limit: Annotated[int, Field(ge=1, le=500, description="Items per page.")] = 100,
        cursor: Annotated[
            str | None, Field(description="next_cursor of the previous page.")
        ] = None,
    ) -> Annotated[CallToolResult, DiffResult]:
        """What changed between two snapshots or versions: endpoints, pages, sections, …"""
        from docorbit_serve.changes import diff
        from docorbit_serve.changes.render import render_diff

        try:
            res = diff(home, target, from_ref, to_ref, kinds=kinds, limit=limit, cursor=cursor)
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_diff(res))

    @server.tool(name="analyze_impact", annotations=READ_ONLY)
    def analyze_impact(
        target: Annotated[
            str | None, Field(description="A source name or a library (see list_sources).")
        ] = None,
        from_ref: Annotated[
            str | None, Field(description="Older side (snapshot or version).")
        ] = None,
        to_ref: Annotated[
            str | None, Field(description="Newer side (snapshot or version).")
        ] = None,
        path: Annotated[
            str | None, Field(description="Workspace file or folder (default: all of it).")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=2000, description="At most this many uses.")] = 200,
    ) -> Annotated[CallToolResult, ImpactResult]:
        """Workspace files and lines that use what a diff removes, deprecates or changes."""
        from docorbit_serve.changes.render import render_impact
        from docorbit_serve.impact import analyze_impact as run

        full, root = _inside(home, path or ".")
        try:
            res = run(
                home, [full], target=target, from_=from_ref, to=to_ref, root=root, limit=limit
            )
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_impact(res))
