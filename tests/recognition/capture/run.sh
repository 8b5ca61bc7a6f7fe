#!/usr/bin/env bash
# Capture the recognition corpus: install the pinned SDKs and servers into a scratch directory,
# run every case through the official TypeScript and Python SDK clients, and join the captures
# with labels.json into ../failures.jsonl and ../held_out.jsonl. Needs the npm registry, PyPI
# and crates.io (with cargo), PostgreSQL 15 (/usr/lib/postgresql/15, run as the `postgres`
# user), sqlite3, kubectl and Chromium (/usr/bin/chromium); run by hand as root, not in CI
# (see ../README.md).
#
#   bash tests/recognition/capture/run.sh [WORK]      (WORK defaults to /tmp/mcp-capture)
#
# WORK/root must be at most 24 characters: pydantic shortens a long `input_value` in its
# messages ('/tmp/codem...ognition/root/git/repo'), and the committed texts were captured
# with a root short enough to be kept whole (merge.py then rewrites it to /srv/mcp-root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(realpath -m "${1:-/tmp/mcp-capture}")"
if [ "${#work}" -gt 19 ]; then
  echo "run.sh: WORK ($work) must be at most 19 characters (WORK/root at most 24), or pydantic shortens paths" >&2
  exit 2
fi
mkdir -p "$work/node"
cp "$here/package.json" "$here/capture.mjs" "$here/capture-more.mjs" "$work/node/"
(cd "$work/node" && npm install --no-audit --no-fund --silent)
if [ ! -x "$work/venv/bin/python" ]; then python3 -m venv "$work/venv"; fi
"$work/venv/bin/pip" install --quiet -r "$here/requirements.txt"

# More servers: one npm install, or one virtualenv, each (their dependencies differ).
grep -v '^#' "$here/npm-servers.txt" | while read -r dir spec; do
  [ -n "$dir" ] || continue
  mkdir -p "$work/npm-servers/$dir"
  [ -f "$work/npm-servers/$dir/package.json" ] || echo '{"private": true}' >"$work/npm-servers/$dir/package.json"
  (cd "$work/npm-servers/$dir" && npm install --no-audit --no-fund --silent --save-exact "$spec" </dev/null)
done
grep -v '^#' "$here/py-servers.txt" | while read -r name reqs; do
  [ -n "$name" ] || continue
  if [ ! -x "$work/py-servers/$name/bin/python" ]; then python3 -m venv "$work/py-servers/$name"; fi
  # shellcheck disable=SC2086
  "$work/py-servers/$name/bin/pip" install --quiet $reqs </dev/null
done

# Rust servers (crates.io), built with their own Cargo.lock.
grep -v '^#' "$here/cargo-servers.txt" | while read -r crate ver; do
  [ -n "$crate" ] || continue
  CARGO_TARGET_DIR="$work/cargo-target" cargo install --quiet --locked --root "$work/cargo-servers" "$crate@$ver" </dev/null
done

rm -rf "$work/root" && mkdir -p "$work/root"

# A PostgreSQL cluster on a Unix socket only (no TCP), with a database `demo`.
pgbin=/usr/lib/postgresql/15/bin
mkdir -p "$work/root/pg/sock" && chown -R postgres "$work/root/pg"
runuser -u postgres -- "$pgbin/initdb" -D "$work/root/pg/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/root/pg/data" -l "$work/root/pg/log" -w \
  -o "-c listen_addresses='' -k $work/root/pg/sock -c fsync=off" start >/dev/null
trap 'runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/root/pg/data" -m fast -w stop >/dev/null' EXIT
psql -q -v ON_ERROR_STOP=1 "postgresql:///postgres?host=$work/root/pg/sock&user=postgres" -c 'CREATE DATABASE demo'
psql -q -v ON_ERROR_STOP=1 "postgresql:///demo?host=$work/root/pg/sock&user=postgres" \
  -c "CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL); INSERT INTO users (email) VALUES ('ada@example.invalid');"

(cd "$work/node" && node capture.mjs "$work/root" "$work/raw-ts.jsonl")
"$work/venv/bin/python" "$here/capture.py" "$work/root" "$work/raw-py.jsonl"
(cd "$work/node" && node capture-more.mjs "$work/root" "$work/npm-servers" "$work/raw-ts-more.jsonl")
"$work/venv/bin/python" "$here/capture-more.py" "$work/root" "$work/py-servers" "$work/raw-py-more.jsonl"
python3 "$here/merge.py" "$work/root" "$work/raw-ts.jsonl" "$work/raw-py.jsonl" "$work/raw-ts-more.jsonl" "$work/raw-py-more.jsonl"
