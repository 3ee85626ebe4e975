"""The OpenAPI docs UI at ``/schema`` (and ``/schema/swagger``), served from our own origin.

Litestar's stock docs pages load Swagger UI, ReDoc, Elements and RapiDoc from public CDNs and start them
with an inline script: a third-party script on the app's origin. Here Swagger UI 5's files (OpenAPI 3.1,
which Litestar writes) come from the ``swagger-ui-py`` package's ``static/`` folder (``/schema/assets/…``;
the package is never imported: it would pull in its framework glue) and our own script file starts it, so
the page runs under a CSP without ``unsafe-inline`` scripts or foreign origins (``chat.app.guards``).
The spec itself stays at ``/schema/openapi.json``.
"""

from __future__ import annotations

import html
import importlib.util
import mimetypes
from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.params import FromPath

from store.errors import NotFound

ASSETS_PATH = "/schema/assets"
#: the Swagger UI files the page uses (everything else in the package is not served)
_VENDOR_FILES = ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css",
                 "favicon-32x32.png", "oauth2-redirect.html")
_INIT_JS = b"""// docchat: start Swagger UI on the spec next to this page (no inline script: see the page's CSP)
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/schema/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
  });
});
"""


def swagger_dir() -> Path | None:
    """Swagger UI's files (``swagger-ui-py``'s ``swagger_ui/static``), or None when it is not installed."""
    spec = importlib.util.find_spec("swagger_ui")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location) / "static"
        if (path / "swagger-ui-bundle.js").is_file():
            return path
    return None


class LocalSwaggerPlugin(OpenAPIRenderPlugin):
    """Swagger UI from ``/schema/assets`` with an external start-up script."""

    def __init__(self, path: str | tuple[str, ...] = ("/", "/swagger"), **kwargs: Any) -> None:
        super().__init__(path=list(path) if isinstance(path, tuple) else path, **kwargs)

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = html.escape(str(openapi_schema.get("info", {}).get("title", "API")))
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} API</title>
  <link rel="icon" type="image/png" href="{ASSETS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="{ASSETS_PATH}/swagger-ui.css">
  <script src="{ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="{ASSETS_PATH}/swagger-ui-standalone-preset.js"></script>
  <script src="{ASSETS_PATH}/docchat-init.js"></script>
</head>
<body><div id="swagger-ui"></div></body>
</html>
""".encode()


def docs_asset_handlers() -> list[Any]:
    """``GET /schema/assets/{name}``: the allow-listed Swagger UI files and the start-up script."""
    vendor = swagger_dir()
    files = {name: vendor / name for name in _VENDOR_FILES} if vendor is not None else {}

    @get(ASSETS_PATH + "/{name:str}", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
    def docs_asset(name: FromPath[str]) -> Response[bytes]:
        headers = {"Cache-Control": "public, max-age=86400"}
        if name == "docchat-init.js":
            return Response(_INIT_JS, media_type="text/javascript", headers=headers)
        path = files.get(name)
        if path is None or not path.is_file():
            raise NotFound("no such file")
        media_type = "text/javascript" if name.endswith(".js") else (
            mimetypes.guess_type(name)[0] or "application/octet-stream")
        return Response(path.read_bytes(), media_type=media_type, headers=headers)

    return [docs_asset]
