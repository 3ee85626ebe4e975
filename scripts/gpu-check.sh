#!/usr/bin/env bash
# The GPU path of issue 18, measured on one GPU machine: PaddleOCR (pages per predict call) and the torch
# embedder (batched chunks) on real pages rendered from ../shared/evaldata as scans. Prints one JSON line
# (pages/s, chunks/s, GPU memory, CER against the text layer and against the CPU engine) plus nvidia-smi.
#
#   scripts/gpu-check.sh                      # installs into .gpu-venv, then runs (a few minutes)
#   WHEELS=/path/to/wheelhouse scripts/gpu-check.sh   # offline: pip installs from a wheel directory
#   E5_DIR=/models/multilingual-e5-small PAGES=48 BATCH=16 CHUNKS=8192 scripts/gpu-check.sh
#
# Needs: an NVIDIA GPU with a CUDA 12 driver; PaddleOCR's PP-OCR models either reachable (its first pipeline
# fetches them) or already in ~/.paddlex; E5_DIR = a Hugging Face export of intfloat/multilingual-e5-small
# (the embedding part is skipped without it). Nothing is installed into the project's own venv.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.gpu-venv}
PAGES=${PAGES:-24}
BATCH=${BATCH:-8}
CHUNKS=${CHUNKS:-4096}
EMBED_BATCH=${EMBED_BATCH:-256}
DPI=${DPI:-150}
PIP_OPTS=()
if [[ -n "${WHEELS:-}" ]]; then PIP_OPTS=(--no-index --find-links "$WHEELS"); fi

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "${PIP_OPTS[@]}" --upgrade pip
  "$VENV/bin/pip" install -q "${PIP_OPTS[@]}" -e . \
    "torch==2.13.0" "transformers>=4.44" paddleocr paddlepaddle-gpu
fi
"$VENV/bin/python" -c "import paddle, torch; print('paddle', paddle.__version__, 'cuda', paddle.is_compiled_with_cuda(), \
'torch', torch.__version__, 'cuda', torch.cuda.is_available())"

# GPU memory sampled every 0.5 s while the check runs (the peak is printed after it)
SMI_LOG=$(mktemp)
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 >"$SMI_LOG" &
SMI=$!
trap 'kill $SMI 2>/dev/null || true; rm -f "$SMI_LOG"' EXIT
ARGS=(--pages "$PAGES" --batch "$BATCH" --chunks "$CHUNKS" --embed-batch "$EMBED_BATCH" --dpi "$DPI")
if [[ -n "${E5_DIR:-}" ]]; then ARGS+=(--e5-dir "$E5_DIR"); fi
PYTHONPATH=$PWD "$VENV/bin/python" -m bench.gpu_check "${ARGS[@]}"
kill $SMI 2>/dev/null || true
echo "{\"nvidia_smi_peak_used_mb\": $(sort -n "$SMI_LOG" | tail -1)}"
