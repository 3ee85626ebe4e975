# syntax=docker/dockerfile:1.7
# docchat API (`docchat serve`): Litestar + uvicorn. Build context: the repository root (see infra/docchat_infra/images.py).
ARG PYTHON_IMAGE=python:3.12-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /src
COPY pyproject.toml README.md ./
COPY store ./store
COPY retrieval ./retrieval
COPY ingest ./ingest
COPY chat ./chat
RUN /opt/venv/bin/pip install --no-cache-dir .

FROM ${PYTHON_IMAGE}
RUN useradd --system --uid 10001 --create-home --home-dir /home/docchat docchat
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DOCCHAT_BACKEND=aws \
    DOCCHAT_HOST=0.0.0.0 \
    DOCCHAT_PORT=8000 \
    DOCCHAT_LOG_JSON=true \
    DOCCHAT_DATA_DIR=/home/docchat/data
USER 10001
WORKDIR /home/docchat
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]
CMD ["docchat", "serve"]
