"""Typed result models shared by every face (CLI ``--json``, MCP ``structuredContent``, REST API,
dashboard): one pydantic model per result, defined once, serialised with
``model_dump(mode="json")``. One module per family (``models/<family>.py``).
"""
