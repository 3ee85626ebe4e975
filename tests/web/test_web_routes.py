"""The web UI routes: the page, its static modules and /v1/config, served without credentials."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar.testing import TestClient

from chat.app.factory import create_app
from chat.app.web_routes import WEB_DIR, client_config, content_security_policy
from chat.app.wiring import Services
from store.config import Settings

MODULES = ["answer.js", "app.js", "api.js", "auth.js", "chat.js", "chat_tools.js", "documents.js", "dom.js",
           "feedback.js", "markdown.js", "ops.js", "review.js", "sessions.js", "sources.js", "sse.js",
           "turn_actions.js", "viewer.js",
           "share.js", "docpicker.js", "attach.js"]  # issue 16 (uib)


def _client(settings: Settings) -> TestClient:  # type: ignore[type-arg]
    return TestClient(app=create_app(settings, services=Services(settings=settings, web_ui=True)),
                      base_url="http://localhost")


@pytest.fixture
def local(tmp_path: Path) -> Settings:
    return Settings.from_env({}, data_dir=tmp_path)


def test_index_is_public_and_locked_down(local: Settings) -> None:
    with _client(local) as client:
        r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "img-src 'self' blob: data:" in csp
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("name", [*MODULES, "styles.css", "compose.css", "icon.svg"])
def test_static_files_are_served(local: Settings, name: str) -> None:
    with _client(local) as client:
        r = client.get(f"/static/{name}")
    assert r.status_code == 200, name
    assert r.content == (WEB_DIR / name).read_bytes()
    if name.endswith(".js"):
        # browsers refuse module scripts served with a non-JavaScript MIME type
        assert "javascript" in r.headers["content-type"]


@pytest.mark.parametrize("path", ["/ops", "/usage"])
def test_operations_pages_are_public_locked_down_and_chart_locally(local: Settings, path: str) -> None:
    with _client(local) as client:
        r = client.get(path)
        assert r.status_code == 200 and "script-src 'self'" in r.headers["content-security-policy"]
        assert '<script src="/static/vendor/uplot/uPlot.iife.min.js"></script>' in r.text and "https://" not in r.text
        for name in ("uPlot.iife.min.js", "uPlot.min.css", "LICENSE"):
            vendored = client.get(f"/static/vendor/uplot/{name}")
            assert vendored.status_code == 200
            assert vendored.content == (WEB_DIR / "vendor" / "uplot" / name).read_bytes()
    assert "MIT License" in (WEB_DIR / "vendor" / "uplot" / "LICENSE").read_text()


def test_every_shipped_module_is_checked() -> None:
    assert sorted(p.name for p in WEB_DIR.glob("*.js")) == sorted(MODULES)


def test_every_module_import_resolves() -> None:
    """Each relative import in a module names a file that is served (no bundler to catch typos)."""
    import re

    for name in MODULES:
        text = (WEB_DIR / name).read_text(encoding="utf-8")
        for target in re.findall(r'from "\./([\w.-]+)"', text):
            assert (WEB_DIR / target).is_file(), f"{name} imports missing ./{target}"


def test_static_cannot_escape_the_web_dir(local: Settings) -> None:
    with _client(local) as client:
        for path in ("/static/../web_routes.py", "/static/%2e%2e/web_routes.py", "/static/..%2fapp.py"):
            r = client.get(path)
            assert r.status_code in (400, 404), path
            assert "def web_route_handlers" not in r.text


def test_missing_static_file_is_404(local: Settings) -> None:
    with _client(local) as client:
        assert client.get("/static/nope.js").status_code == 404


def test_config_local(local: Settings) -> None:
    with _client(local) as client:
        r = client.get("/v1/config")
    assert r.status_code == 200
    body = r.json()
    assert body["mode"] == "local"
    assert body["cognito_domain"] is None and body["client_id"] is None
    assert body["render_dpi"] == local.ingest.render_dpi
    assert body["max_upload_bytes"] == local.ingest.max_upload_bytes
    import getpass

    assert body["default_user"] == (local.server.local_user or getpass.getuser())  # the CLI's default user too


def test_config_aws_names_the_hosted_ui(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {},
        backend="aws",
        data_dir=tmp_path,
        cognito_domain="docchat-test.auth.eu-west-1.amazoncognito.com",
        cognito_client_id="abc123",
        cognito_user_pool_id="eu-west-1_XYZ",
    )
    cfg = client_config(settings)
    assert cfg == {
        "mode": "aws",
        "cognito_domain": "https://docchat-test.auth.eu-west-1.amazoncognito.com",
        "client_id": "abc123",
        "render_dpi": settings.ingest.render_dpi,
        "max_upload_bytes": settings.ingest.max_upload_bytes,
    }
    # the page may talk to the Cognito token endpoint and nothing else outside the origin
    csp = content_security_policy(settings)
    assert "connect-src 'self' https://docchat-test.auth.eu-west-1.amazoncognito.com" in csp


def test_config_aws_domain_given_as_url(tmp_path: Path) -> None:
    settings = Settings.from_env({}, backend="aws", data_dir=tmp_path, cognito_domain="https://auth.example.com/")
    assert client_config(settings)["cognito_domain"] == "https://auth.example.com"


def test_api_routes_still_need_a_token(local: Settings) -> None:
    """Making the UI public must not open anything else: the API next to it still wants a token."""
    # the auth middleware answers before any handler runs, so the services behind the routes are never called
    services = Services(settings=local, dependencies={"uploads": object(), "documents": object()}, web_ui=True)
    with TestClient(app=create_app(local, services=services), base_url="http://localhost") as client:
        assert client.get("/").status_code == 200
        for path in ("/v1/projects", "/v1/projects/p1/documents", "/v1/workflows/w1"):
            assert client.get(path).status_code == 401, path


# --- issue 13 item 13: odd static names, headers, the docs UIs -----------------------------------------


@pytest.mark.parametrize("path", ["/static/%00", "/static/app.js%00", "/static/" + "a" * 256,
                                  "/static/" + "b" * 5000 + ".js", "/static/%2e%2e%2fweb_routes.py",
                                  "/static/", "/static/sub/app.js"])
def test_odd_static_names_are_404_not_500(local: Settings, path: str) -> None:
    with _client(local) as client:
        r = client.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text[:200])


def test_index_content_type_has_one_charset(local: Settings) -> None:
    with _client(local) as client:
        r = client.get("/")
    assert r.headers["content-type"] == "text/html; charset=utf-8"


def test_nosniff_everywhere_and_a_csp_on_the_schema(local: Settings) -> None:
    with _client(local) as client:
        for path in ("/", "/static/app.js", "/static/nope.js", "/v1/config", "/schema", "/schema/openapi.json",
                     "/healthz", "/no/such/route"):
            r = client.get(path)
            assert r.headers.get("x-content-type-options") == "nosniff", path
        for path in ("/schema", "/schema/swagger", "/schema/openapi.json"):
            csp = client.get(path).headers.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp, path


def test_the_docs_ui_serves_no_third_party_scripts(tmp_path: Path) -> None:
    """``/schema`` is Swagger UI from our origin (swagger-ui-py's files), in aws mode too; the stock CDN pages
    (ReDoc, Elements, RapiDoc) are gone."""
    import re

    aws = Settings.from_env({}, backend="aws", data_dir=tmp_path, cognito_user_pool_id="us-east-1_X",
                            cognito_client_id="c")
    services = Services(settings=aws, web_ui=True, verifier=lambda token: "u")
    with TestClient(app=create_app(aws, services=services), base_url="http://docchat.example.com") as client:
        spec = client.get("/schema/openapi.json")
        assert spec.status_code == 200 and spec.json()["info"]["title"] == "docchat"
        for path in ("/schema", "/schema/swagger"):
            r = client.get(path)
            assert r.status_code == 200
            sources = re.findall(r'(?:src|href)="([^"]+)"', r.text)
            assert sources and all(src.startswith("/schema/assets/") for src in sources), sources
            assert "<script>" not in r.text  # no inline script: the CSP allows none
            assert r.headers["content-security-policy"].startswith("default-src 'self'; script-src 'self';")
            for src in sources:
                asset = client.get(src)
                assert asset.status_code == 200 and asset.content, src
        assert client.get("/schema/assets/swagger-ui-bundle.js").headers["content-type"].startswith("text/javascript")
        for path in ("/schema/assets/index.html", "/schema/assets/%00", "/schema/assets/" + "a" * 300):
            assert client.get(path).status_code == 404, path
        for path in ("/schema/redoc", "/schema/elements", "/schema/rapidoc"):
            r = client.get(path)
            assert "cdn." not in r.text and "unpkg" not in r.text, path
        page = client.get("/")
        assert page.status_code == 200 and "https://" not in page.text  # the app page: own scripts only


def test_the_share_link_is_the_page_and_carries_no_secret(local: Settings) -> None:
    """Issue 16: ``/s/<session id>`` serves the page (same CSP) without credentials; the API checks the viewer."""
    with _client(local) as client:
        r = client.get("/s/01JABCDEF")
        index = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.content == index.content
    assert r.headers["content-security-policy"] == index.headers["content-security-policy"]
