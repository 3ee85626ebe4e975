# syntax=docker/dockerfile:1.7
# docchat ingest worker (`docchat worker`) for ECS GPU instances (g6/g5: NVIDIA L4/A10G, driver from the
# ECS GPU-optimised AMI). PaddleOCR on paddlepaddle-gpu; every OCR model is downloaded HERE, at build time,
# into /opt/paddlex — at run time nothing is fetched (every language the worker maps to is already there, and
# PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK skips the model-hoster probe at start-up).
# Build context: the repository root (see infra/docchat_infra/images.py).
ARG CUDA_IMAGE=nvidia/cuda:12.6.3-cudnn-runtime-ubuntu24.04

FROM ${CUDA_IMAGE}
ARG PADDLE_VERSION=3.3.1
ARG PADDLE_INDEX=https://www.paddlepaddle.org.cn/packages/stable/cu126/
ARG PADDLEOCR_VERSION=3.7.0
# PaddleOCR `lang` values to pre-download (ingest/steps/ocr.py PADDLE_LANGS): Korean, Japanese, Chinese, English.
ARG OCR_LANGS="korean japan ch en"
ENV DEBIAN_FRONTEND=noninteractive \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PADDLE_PDX_CACHE_HOME=/opt/paddlex \
    PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK=True
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3 python3-venv ca-certificates libgl1 libglib2.0-0 libgomp1 tesseract-ocr tesseract-ocr-kor \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /opt/venv \
    && useradd --system --uid 10001 --create-home --home-dir /home/docchat docchat
RUN pip install --no-cache-dir "paddlepaddle-gpu==${PADDLE_VERSION}" --index-url "${PADDLE_INDEX}" \
    && pip install --no-cache-dir "paddleocr==${PADDLEOCR_VERSION}"
WORKDIR /src
COPY pyproject.toml README.md ./
COPY store ./store
COPY retrieval ./retrieval
COPY ingest ./ingest
COPY chat ./chat
RUN pip install --no-cache-dir . && rm -rf /src/build
COPY infra/docker/fetch_ocr_models.py /opt/docchat/fetch_ocr_models.py
# Download (and load once, on CPU) every pipeline the worker can build; the runtime user owns the cache.
RUN python /opt/docchat/fetch_ocr_models.py ${OCR_LANGS} \
    && chown -R 10001 /opt/paddlex
ENV DOCCHAT_BACKEND=aws \
    DOCCHAT_OCR_ENGINE=paddle \
    DOCCHAT_LOG_JSON=true \
    DOCCHAT_DATA_DIR=/home/docchat/data \
    NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
USER 10001
WORKDIR /home/docchat
CMD ["docchat", "worker"]
