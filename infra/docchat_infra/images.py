"""Container images, built by ``cdk deploy`` from the repository (Docker needed then, not for ``cdk synth``).

The build context is the repository root, narrowed to what the Dockerfiles copy (an allow-list), so the
virtual environment, test data, caches and ``cdk.out`` never reach the image or the asset hash.
"""

from __future__ import annotations

from pathlib import Path

from aws_cdk import IgnoreMode
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_ecs as ecs

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCKER_DIR = REPO_ROOT / "infra" / "docker"
API_DOCKERFILE = "infra/docker/api.Dockerfile"
WORKER_DOCKERFILE = "infra/docker/worker.Dockerfile"

#: Docker-ignore patterns: exclude everything, then admit the packages and the docker folder.
BUILD_CONTEXT = (
    "*",
    "!pyproject.toml",
    "!README.md",
    "!store",
    "!chat",
    "!ingest",
    "!retrieval",
    "!infra",
    "infra/*",
    "!infra/docker",
    "**/__pycache__",
    "**/*.pyc",
)


def _image(file: str) -> ecs.ContainerImage:
    return ecs.ContainerImage.from_asset(
        str(REPO_ROOT),
        file=file,
        exclude=list(BUILD_CONTEXT),
        ignore_mode=IgnoreMode.DOCKER,
        platform=ecr_assets.Platform.LINUX_AMD64,
    )


def api_image() -> ecs.ContainerImage:
    return _image(API_DOCKERFILE)


def worker_image() -> ecs.ContainerImage:
    return _image(WORKER_DOCKERFILE)
