"""Join the raw captures with the hand labels into ../failures.jsonl and ../held_out.jsonl.

    python merge.py ROOT raw-ts.jsonl raw-py.jsonl [raw-ts-more.jsonl raw-py-more.jsonl]

ROOT (the scratch directory the captures ran in) is rewritten to /srv/mcp-root everywhere,
so the corpus does not depend on the machine; so is ROOT's parent (the scratch directory the
servers are installed in) to /srv/mcp-work. The few texts that carry a clock or an id are
rewritten to fixed ones (REWRITES). Every capture must have a label in labels.json and every
label a capture; the labels' kinds and families are checked against the lists below. Lines
keep the capture order (the raw files in order, each in the order of its cases). The failures
of the HELD_OUT servers go to ../held_out.jsonl, the rest to ../failures.jsonl. Standard
library only.
"""

import json
import re
import sys
from pathlib import Path

PLACEHOLDER = "/srv/mcp-root"
WORK_PLACEHOLDER = "/srv/mcp-work"
# Servers whose failures are held out of the corpus the recognizer is tuned on (chosen before
# anything was scored): they go to ../held_out.jsonl.
HELD_OUT = {"database-server", "code-runner", "firecrawl", "obsidian", "clickhouse", "echo-mcp"}
# Clocks and ids in captured texts, rewritten so two runs give the same bytes.
REWRITES = [
    # kubectl's klog prefix: severity, date, time, thread id (kubernetes server)
    (re.compile(r"([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ "), r"\g<1>0101 00:00:00.000000   12345 "),
    # ClickHouse's query_id, a random UUID a request (clickhouse server)
    (re.compile(r"query_id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
     "query_id=00000000-0000-0000-0000-000000000000"),
]
HERE = Path(__file__).resolve().parent
FAMILIES = {
    "not_found", "conflict", "outside_root", "invalid_value", "missing_argument", "type_error", "unknown_tool",
    "auth", "rate_limit", "timeout", "http_status", "errno", "sdk_validation", "other",
    "backend_unreachable", "validator", "git", "database", "http_client", "process",
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
    work = str(Path(root).parent)
    labels = json.loads((HERE / "labels.json").read_text())
    lines, held, seen = [], [], set()
    for raw in raws:
        text = Path(raw).read_text().replace(root, PLACEHOLDER).replace(work + "/", WORK_PLACEHOLDER + "/")
        for pattern, replacement in REWRITES:
            text = pattern.sub(replacement, text)
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
            properties = (capture["input_schema"] or {}).get("properties", {})
            for name in label["arguments"]:
                if capture["input_schema"] is not None and name not in properties:
                    sys.exit(f"labels.json: {cid}: argument {name} is not a property of the tool's input_schema")
            out = {k: capture[k] for k in FIELDS}
            tags = [t for t in ("tool_result", "jsonrpc_error") if t in capture]
            if len(tags) != 1:
                sys.exit(f"{raw}:{n}: {cid} holds {tags}, not exactly one failure")
            out["failure"] = {tags[0]: capture[tags[0]]}
            if "raised" in capture:
                out["raised"] = capture["raised"]
            out["expected"] = label
            (held if capture["server"] in HELD_OUT else lines).append(out)
    stale = sorted(set(labels) - seen)
    if stale:
        sys.exit(f"labels.json labels failures that were not captured: {', '.join(stale)}")
    for name, part in (("failures.jsonl", lines), ("held_out.jsonl", held)):
        body = "".join(json.dumps(l, ensure_ascii=False, separators=(",", ":")) + "\n" for l in part)
        if root in body or work + "/" in body:
            sys.exit("a machine path survived the rewrite")
        (HERE.parent / name).write_text(body)
        print(f"wrote {len(part)} failures to {HERE.parent / name}", file=sys.stderr)


main()
