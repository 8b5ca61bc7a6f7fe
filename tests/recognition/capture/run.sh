#!/usr/bin/env bash
# Capture the recognition corpus: install the pinned SDKs and reference servers into a scratch
# directory, run every case through the official TypeScript and Python SDK clients, and join
# the captures with labels.json into ../failures.jsonl. Needs the npm registry and PyPI;
# run by hand, not in CI (see ../README.md).
#
#   bash tests/recognition/capture/run.sh [WORK]      (WORK defaults to /tmp/codemode-recognition)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-/tmp/codemode-recognition}"
mkdir -p "$work/node"
cp "$here/package.json" "$here/capture.mjs" "$work/node/"
(cd "$work/node" && npm install --no-audit --no-fund --silent)
if [ ! -x "$work/venv/bin/python" ]; then python3 -m venv "$work/venv"; fi
"$work/venv/bin/pip" install --quiet -r "$here/requirements.txt"
rm -rf "$work/root" && mkdir -p "$work/root"
(cd "$work/node" && node capture.mjs "$work/root" "$work/raw-ts.jsonl")
"$work/venv/bin/python" "$here/capture.py" "$work/root" "$work/raw-py.jsonl"
python3 "$here/merge.py" "$work/root" "$work/raw-ts.jsonl" "$work/raw-py.jsonl"
