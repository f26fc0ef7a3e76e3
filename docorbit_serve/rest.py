"""The REST API (``/api/v1``): the same services and result models as the CLI's ``--json`` and MCP.

Contract:
- ``build_rest_app(home, catalog, timings=None) -> Starlette`` serves, all ``GET``:
  ``/search`` (q, library?, version?, limit 1-50, cursor? → ``SearchPage``), ``/context``
  (task, budget 50-200000, library?, version?, cursor? → ``ContextPack``), ``/docs/{id}``
  (mode chunk|section|page, max_tokens 1-20000, cursor? → ``Doc``; a ``p_`` id reads a page),
  ``/sources`` (→ ``SourceList``), ``/endpoints`` (library?, limit 1-200, cursor? →
  ``EndpointPage``), ``/diff`` (target, from?, to?, limit 1-1000, cursor? → ``DiffResult``) and
  ``/openapi.json`` (its own OpenAPI 3.1 document, ``openapi_document()``).
- Parameters are declared once in ``ENDPOINTS`` and used both to parse requests and to write
  the OpenAPI document, so the two cannot drift. Ranges are those of the CLI and MCP; a query
  or task is at most ``MAX_TEXT`` characters; unknown parameters are ignored.
- Errors are ``{"error": {"code", "message", "detail"}}`` (``ApiError``) with the status of
  ``http_status``: usage/bad_input 400, not found 404, nothing published 503, anything else
  500; an unknown path is 404 ``not_found``, a non-GET method 405 ``method_not_allowed``.
- Paging: ``next_cursor`` in a result continues it (opaque, bound to the request and the
  publication; a stale one is ``bad_input``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from docorbit_serve.errors import DocOrbitError, InputError, NotFound, NotPublished, UsageError
from docorbit_serve.home import Home

__all__ = ["ENDPOINTS", "MAX_TEXT", "build_rest_app", "http_status", "openapi_document"]

MAX_TEXT = 2000  # characters of a query or task (search.query.MAX_QUERY_CHARS)
API_VERSION = "1.0.0"


def http_status(e: DocOrbitError) -> int:
    """HTTP status of a DocOrbit error (see module docstring)."""
    if isinstance(e, UsageError | InputError):
        return 400
    if isinstance(e, NotFound):
        return 404
    if isinstance(e, NotPublished):
        return 503
    return 500


@dataclass(frozen=True)
class Param:
    name: str
    kind: str = "string"  # string | integer
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    enum: tuple[str, ...] = ()
    max_length: int = 200
    where: str = "query"
    description: str = ""

    def schema(self) -> dict[str, Any]:
        s: dict[str, Any] = {"type": self.kind}
        if self.kind == "integer":
            s.update(minimum=self.minimum, maximum=self.maximum)
        elif self.enum:
            s["enum"] = list(self.enum)
        else:
            s.update(minLength=1 if self.required else 0, maxLength=self.max_length)
            if self.required:
                s["pattern"] = r"\S"
        if self.default is not None:
            s["default"] = self.default
        return s

    def parse(self, raw: str | None) -> Any:
        if raw is None or (raw == "" and not self.required):
            if self.required:
                raise InputError(
                    f"parameter {self.name!r} is required", detail={"param": self.name}
                )
            return self.default
        if self.kind == "integer":
            try:
                value = int(raw)
            except ValueError:
                raise InputError(
                    f"{self.name} must be an integer", detail={"param": self.name}
                ) from None
            if not (self.minimum or 0) <= value <= (self.maximum or value):
                raise InputError(
                    f"{self.name} must be between {self.minimum} and {self.maximum}",
                    detail={"param": self.name, "value": value},
                )
            return value
        if self.enum and raw not in self.enum:
            raise InputError(
                f"{self.name} must be one of {', '.join(self.enum)}", detail={"param": self.name}
            )
        if len(raw) > self.max_length:
            raise InputError(
                f"{self.name} is longer than {self.max_length} characters",
                detail={"param": self.name, "length": len(raw)},
            )
        if self.required and not raw.strip():
            raise InputError(f"parameter {self.name!r} is empty", detail={"param": self.name})
        return raw


_LIB = Param("library", description="Only this library (see /sources).")
_VER = Param("version", description="Only this version label.")
_CUR = Param("cursor", max_length=4000, description="next_cursor of the previous page.")


@dataclass(frozen=True)
class Endpoint:
    path: str
    operation_id: str
    summary: str
    model: type[BaseModel]
    params: tuple[Param, ...] = field(default=())


def _models() -> dict[str, type[BaseModel]]:
    from docorbit_serve.models.change import DiffResult
    from docorbit_serve.models.core import ContextPack, Doc, SearchPage, SourceList
    from docorbit_serve.models.web import ApiError, EndpointPage

    return {
        "SearchPage": SearchPage,
        "ContextPack": ContextPack,
        "Doc": Doc,
        "SourceList": SourceList,
        "EndpointPage": EndpointPage,
        "DiffResult": DiffResult,
        "ApiError": ApiError,
    }


def _endpoints() -> tuple[Endpoint, ...]:
    m = _models()
    return (
        Endpoint(
            "/search",
            "search",
            "Search the published documentation.",
            m["SearchPage"],
            (
                Param(
                    "q", required=True, max_length=MAX_TEXT, description="What you are looking for."
                ),
                _LIB,
                _VER,
                Param(
                    "limit",
                    "integer",
                    minimum=1,
                    maximum=50,
                    default=10,
                    description="Hits per page.",
                ),
                _CUR,
            ),
        ),  # fmt: skip
        Endpoint(
            "/context",
            "context",
            "Documentation for a task, packed into a token budget.",
            m["ContextPack"],
            (
                Param(
                    "task",
                    required=True,
                    max_length=MAX_TEXT,
                    description="What you are implementing.",
                ),
                Param(
                    "budget",
                    "integer",
                    minimum=50,
                    maximum=200_000,
                    default=2000,
                    description="Token budget.",
                ),
                _LIB,
                _VER,
                _CUR,
            ),
        ),  # fmt: skip
        Endpoint(
            "/docs/{id}",
            "get_doc",
            "Read a chunk, its section or its page.",
            m["Doc"],
            (
                Param(
                    "id",
                    required=True,
                    where="path",
                    description="A chunk_id (c_…) or page id (p_…).",
                ),
                Param("mode", enum=("chunk", "section", "page"), default="chunk"),
                Param("max_tokens", "integer", minimum=1, maximum=20000, default=2000),
                _CUR,
            ),
        ),  # fmt: skip
        Endpoint("/sources", "list_sources", "Configured and published sources.", m["SourceList"]),
        Endpoint(
            "/endpoints",
            "list_endpoints",
            "OpenAPI endpoints of the published docs.",
            m["EndpointPage"],
            (
                _LIB,
                Param("limit", "integer", minimum=1, maximum=200, default=50),
                _CUR,
            ),
        ),  # fmt: skip
        Endpoint(
            "/diff",
            "diff_docs",
            "Changes between two snapshots or versions.",
            m["DiffResult"],
            (
                Param("target", required=True, description="A source name or a library name."),
                Param("from", description="Old snapshot id (source) or version label (library)."),
                Param("to", description="New snapshot id (source) or version label (library)."),
                Param("limit", "integer", minimum=1, maximum=1000, default=200),
                _CUR,
            ),
        ),  # fmt: skip
    )


ENDPOINTS = _endpoints()


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``/api/v1`` (schemas from the pydantic models)."""
    models = _models()
    _keys, defs = models_json_schema(
        [(m, "serialization") for m in models.values()],
        ref_template="#/components/schemas/{model}",
    )
    schemas = dict(sorted(defs.get("$defs", {}).items()))
    error_ref = {"$ref": "#/components/schemas/ApiError"}
    err = {"description": "Error", "content": {"application/json": {"schema": error_ref}}}
    paths: dict[str, Any] = {}
    for ep in ENDPOINTS:
        params = [
            {
                "name": p.name,
                "in": p.where,
                "required": p.required or p.where == "path",
                "description": p.description or p.name,
                "schema": p.schema(),
            }
            for p in ep.params
        ]
        ref = {"$ref": f"#/components/schemas/{ep.model.__name__}"}
        paths[ep.path] = {
            "get": {
                "operationId": ep.operation_id,
                "summary": ep.summary,
                "parameters": params,
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": ref}}},
                    "400": err,
                    "404": err,
                    "500": err,
                    "503": err,
                },
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "DocOrbit REST API",
            "version": API_VERSION,
            "description": "Versioned documentation with provenance. Fetched text is "
            "untrusted third-party data (untrusted: true).",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _error(e: DocOrbitError) -> JSONResponse:
    return JSONResponse(e.to_json(), status_code=http_status(e))


class _Api:
    """Handlers: parse parameters, call one service, dump the model."""

    def __init__(self, home: Home, catalog: Any, timings: Any):
        self.home, self.catalog, self.timings = home, catalog, timings

    def search(self, a: dict[str, Any]) -> BaseModel:
        from docorbit_serve import service

        page = service.search_docs(
            self.catalog, a["q"], library=a["library"], version=a["version"],
            limit=a["limit"], cursor=a["cursor"], root=service.workspace_dir(self.home),
        )  # fmt: skip
        if self.timings is not None:
            self.timings.record("rest", page.elapsed_ms)
        return page

    def context(self, a: dict[str, Any]) -> BaseModel:
        from docorbit_serve import service

        return service.context_pack(
            self.catalog, a["task"], budget=a["budget"], library=a["library"],
            version=a["version"], cursor=a["cursor"], root=service.workspace_dir(self.home),
        )  # fmt: skip

    def get_doc(self, a: dict[str, Any]) -> BaseModel:
        from docorbit_serve import service

        ident = a["id"]
        key = "page_id" if ident.startswith("p_") else "chunk_id"
        return service.read_doc(
            self.catalog, **{key: ident}, mode=a["mode"], max_tokens=a["max_tokens"],
            cursor=a["cursor"],
        )  # fmt: skip

    def list_sources(self, _a: dict[str, Any]) -> BaseModel:
        from docorbit_serve import service

        return service.list_sources(self.home, self.catalog)

    def list_endpoints(self, a: dict[str, Any]) -> BaseModel:
        from docorbit_serve.cursors import decode_cursor, encode_cursor
        from docorbit_serve.models.web import EndpointPage, EndpointRow
        from docorbit_serve.table_rows import table_rows

        publish_id = str(self.catalog.manifest().get("publish_id", ""))
        offset = 0
        if a["cursor"]:
            state = decode_cursor(a["cursor"], "invalid cursor: pass back next_cursor unchanged",
                                  fields=("o",))  # fmt: skip
            if state.get("u") != publish_id or state.get("l") != a["library"]:
                raise InputError("this cursor belongs to another listing or publication")
            offset = int(state["o"])
        rows, more = table_rows(
            self.catalog, "endpoints", library=a["library"], limit=a["limit"], offset=offset
        )
        nxt = {"v": 1, "o": offset + a["limit"], "l": a["library"], "u": publish_id}
        return EndpointPage(
            endpoints=[EndpointRow.model_validate(r) for r in rows],
            next_cursor=encode_cursor(nxt) if more else None,
            publish_id=publish_id,
        )

    def diff_docs(self, a: dict[str, Any]) -> BaseModel:
        from docorbit_serve.changes import diff

        return diff(
            self.home, a["target"], a["from"], a["to"], limit=a["limit"], cursor=a["cursor"]
        )


def _handler(api: _Api, ep: Endpoint) -> Callable[[Request], Any]:
    fn = getattr(api, ep.operation_id)

    async def handle(request: Request) -> Response:
        try:
            args = {
                p.name: p.parse(
                    request.path_params.get(p.name)
                    if p.where == "path"
                    else request.query_params.get(p.name)
                )
                for p in ep.params
            }
            model = await anyio.to_thread.run_sync(lambda: fn(args))
        except DocOrbitError as e:
            return _error(e)
        return JSONResponse(model.model_dump(mode="json", by_alias=True))

    return handle


async def _http_error(_request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
    detail = getattr(exc, "detail", "") or code
    return JSONResponse(
        {"error": {"code": code, "message": str(detail), "detail": {}}}, status_code=status
    )


def build_rest_app(home: Home, catalog: Any, timings: Any = None) -> Starlette:
    """The ``/api/v1`` app (mount it at ``/api/v1``); see the module docstring."""
    api = _Api(home, catalog, timings)
    doc = openapi_document()

    async def openapi(_r: Request) -> Response:
        return JSONResponse(doc)

    routes = [Route(ep.path, _handler(api, ep), methods=["GET"]) for ep in ENDPOINTS]
    routes.append(Route("/openapi.json", openapi, methods=["GET"]))
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
