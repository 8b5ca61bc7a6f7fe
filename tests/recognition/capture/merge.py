"""Join the raw captures with the hand labels into ../failures.jsonl.

    python merge.py ROOT raw-ts.jsonl raw-py.jsonl

ROOT (the scratch directory the captures ran in) is rewritten to /srv/mcp-root everywhere,
so the corpus does not depend on the machine. Every capture must have a label in
labels.json and every label a capture; the labels' kinds and families are checked against
the lists below. Lines keep the capture order (TypeScript servers, then Python servers, each
in the order of its cases). Standard library only.
"""

import json
import sys
from pathlib import Path

PLACEHOLDER = "/srv/mcp-root"
HERE = Path(__file__).resolve().parent
FAMILIES = {
    "not_found", "conflict", "outside_root", "invalid_value", "missing_argument", "type_error", "unknown_tool",
    "auth", "rate_limit", "timeout", "http_status", "errno", "sdk_validation", "other",
}
# The kinds of src/rules/kinds.rs that a label may name.
KINDS = {
    "unknown_action", "unknown_subaction", "missing_param", "invalid_param", "unknown_instance",
    "confirmation_required", "conflict", "forbidden", "unknown_tool", "route_scope_denied", "path_traversal",
    "permission_denied", "timeout", "budget_exceeded", "quota_exceeded", "invalid_code_mode_id",
    "snippet_not_found", "artifact_too_large", "auth_failed", "oauth_needs_reauth", "not_found", "rate_limited",
    "validation_failed", "tool_error", "network_error", "upstream_error", "server_error", "internal_error",
    "decode_error", "cancelled", "output_limit_exceeded", "runtime_unavailable",
}
FIELDS = [
    "id", "server", "package", "package_version", "server_info", "server_args", "sdk", "sdk_package", "sdk_version",
    "tool", "tool_listed", "input_schema", "annotations", "arguments",
]


def main() -> None:
    root, *raws = sys.argv[1:]
    root = str(Path(root).resolve())
    labels = json.loads((HERE / "labels.json").read_text())
    lines, seen = [], set()
    for raw in raws:
        text = Path(raw).read_text().replace(root, PLACEHOLDER)
        for n, line in enumerate(text.splitlines(), 1):
            capture = json.loads(line)
            cid = capture["id"]
            if cid in seen:
                sys.exit(f"{raw}:{n}: duplicate id {cid}")
            seen.add(cid)
            label = labels.get(cid)
            if label is None:
                sys.exit(f"{raw}:{n}: no label for {cid} in labels.json; failure: {json.dumps(capture)[:600]}")
            if label["family"] not in FAMILIES:
                sys.exit(f"labels.json: {cid}: unknown family {label['family']}")
            for kind in [label["kind"], *label.get("acceptable", [])]:
                if kind not in KINDS:
                    sys.exit(f"labels.json: {cid}: unknown kind {kind}")
            out = {k: capture[k] for k in FIELDS}
            tags = [t for t in ("tool_result", "jsonrpc_error") if t in capture]
            if len(tags) != 1:
                sys.exit(f"{raw}:{n}: {cid} holds {tags}, not exactly one failure")
            out["failure"] = {tags[0]: capture[tags[0]]}
            if "raised" in capture:
                out["raised"] = capture["raised"]
            out["expected"] = label
            lines.append(out)
    stale = sorted(set(labels) - seen)
    if stale:
        sys.exit(f"labels.json labels failures that were not captured: {', '.join(stale)}")
    body = "".join(json.dumps(l, ensure_ascii=False, separators=(",", ":")) + "\n" for l in lines)
    if root in body:
        sys.exit("a machine path survived the rewrite")
    (HERE.parent / "failures.jsonl").write_text(body)
    print(f"wrote {len(lines)} failures to {HERE.parent / 'failures.jsonl'}", file=sys.stderr)


main()
