"""API intelligence on the published snapshot (issue 14): the services the CLI, the MCP tools
and the REST API call. Each returns a result model of ``docorbit_serve.models.api``.

    find_api(catalog, query | method+path, *, library, version, limit, pins)  -> ApiResult
    find_example(catalog, query, *, library, version, language, framework, limit, pins)
                                                                            -> ExampleResult
    find_pitfall(catalog, query | symbol | endpoint, *, library, version, kind, limit, pins)
                                                                            -> PitfallResult
    find_recipe(catalog, task, *, library, version, pins)                  -> RecipeResult

Modules: ``rank`` (BM25F over API rows in DuckDB SQL), ``scope`` (library/version checks and
version stamping), ``endpoints``, ``knowledge`` (examples, pitfalls), ``recipe``.
"""

from docorbit_serve.api.endpoints import find_api
from docorbit_serve.api.knowledge import find_example, find_pitfall
from docorbit_serve.api.recipe import find_recipe

__all__ = ["find_api", "find_example", "find_pitfall", "find_recipe"]
