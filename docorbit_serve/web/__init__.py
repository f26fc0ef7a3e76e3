"""The dashboard face (issue 18): ``app.build_web_app`` (pages + REST API, mounted by
``mcp_http`` beside ``/mcp`` and ``/health``), ``data`` (what the pages show, as plain
functions), ``inert`` (fetched Markdown → inert HTML), ``plots`` (server-rendered SVG) and
``timings`` (search latency in memory, retrieval benchmark history). See docs/dashboard.md.
"""
