// Types of the codemode-errors package. The contract types follow the JSON Schema
// schema/code-mode-call-error.v1.schema.json field by field; test/types.test.mjs fails
// when they drift apart.

/** Where a failure came from. */
export type Origin = 'code_mode' | 'tool_execution' | 'upstream_transport' | 'validation' | 'policy' | 'budget';

/** Whether the failed call may have changed anything. */
export type SideEffects = 'none_expected' | 'possible' | 'unknown';

/** The next move the model should make. */
export type RecoveryAction =
  | 'revise_and_retry'
  | 'retry_later'
  | 'reauthenticate'
  | 'confirm'
  | 'rediscover'
  | 'reduce_work'
  | 'start_dependency'
  | 'inspect_and_escalate'
  | 'do_not_retry';

/** Whether repeating the exact same call is appropriate. */
export type SameArguments = 'safe' | 'conditional' | 'discouraged' | 'never';

/** How the canonical kind was decided. */
export type KindSource = 'structured' | 'recognized' | 'default';

/** What an outcome means for the upstream's circuit breaker. */
export type Breaker = 'success' | 'failure' | 'none';

/** Recovery advice. */
export interface Recovery {
  /** The next move. */
  action: RecoveryAction;
  /** Whether repeating the exact call is appropriate. */
  same_arguments: SameArguments;
  /** Authoritative advice in a sentence or two. */
  guidance: string;
  /** How long to wait before retrying, when known. */
  retry_after_ms?: number;
}

/** The tool's MCP annotations, echoed as untrusted hints. */
export interface Safety {
  read_only_hint?: boolean;
  destructive_hint?: boolean;
  idempotent_hint?: boolean;
  open_world_hint?: boolean;
}

/** One argument problem. */
export interface InvalidArgument {
  /** The argument, e.g. `title` or `labels[2]`; empty for the arguments object itself. */
  path: string;
  /** What is wrong, e.g. `missing required argument`. */
  problem: string;
}

/** A sanitized description of one MCP content block. Binary data never appears. */
export interface ContentDescriptor {
  type: string;
  text?: string;
  truncated?: true;
  original_length?: number;
  mime_type?: string;
  encoded_bytes?: number;
  data_omitted?: true;
  content_omitted?: true;
  uri?: string;
  name?: string;
}

/** Sanitized, redacted, capped evidence from the failure. */
export interface Evidence {
  content?: ContentDescriptor[];
  structured_content?: unknown;
  parsed_error?: unknown;
  omitted_content_blocks?: number;
  /** How many redactions each family made. */
  redactions?: Record<string, number>;
}

/** The contract object (version 1): what `Error.message` holds as JSON. */
export interface CodeModeCallError {
  contract_version: 1;
  /** The canonical kind. */
  kind: string;
  /** A standalone, model-readable account of the failure. */
  message: string;
  /** `namespace::name`, when known. */
  tool?: string;
  origin: Origin;
  recovery: Recovery;
  side_effects: SideEffects;
  /** The untrusted kind as the upstream sent it, when it differs from `kind`. */
  original_kind?: string;
  /** A short sanitized cause. */
  cause?: string;
  safety?: Safety;
  evidence?: Evidence;
  kind_source?: KindSource;
  /** The recognition rule that decided `kind` from failure text, when one did (ours). */
  recognized_by?: string;
  /** Whether the host knows the request left the gateway. */
  dispatched?: boolean;
  /** The arguments that were missing, unexpected or mistyped. */
  invalid_arguments?: InvalidArgument[];
}

/** The result of normalizing one failure report. */
export interface Outcome {
  /** The contract object, or null when the report is not a failure. */
  error: CodeModeCallError | null;
  breaker: Breaker;
}

/** Which characters a token's body uses (`docs/contract.md`, "Redaction rules a policy adds"). */
export type TokenAlphabet =
  | 'alnum'
  | 'base64url'
  | 'base64url_dot'
  | 'base64url_eq'
  | 'word'
  | 'alnum_dash'
  | 'upper_alnum'
  | 'hex'
  | 'base64'
  | 'two_segments';

/** A token format a policy adds, in the built-in token table's form. */
export interface TokenFormat {
  /** Named in the marker `[REDACTED:<family>]` and counted in `evidence.redactions`: `[a-z][a-z0-9_]{0,31}`, not itself redacted by the rules in force. */
  family: string;
  /** The literal every token starts with, case-sensitive: 3 to 32 of `[A-Za-z0-9_.=+/%-]`. */
  prefix: string;
  /** The body's alphabet; the body is the longest run of it after the prefix. */
  alphabet: TokenAlphabet;
  /** The shortest body after the prefix a real token has: 8 to 256. */
  min_body_length: number;
}

/**
 * Caps a normalizer applies, and what it adds to the redaction rules; omitted settings
 * keep their defaults. A bad setting throws `invalid_policy` with the member's path
 * (`token_formats[1].prefix`).
 */
export interface Policy {
  /** Content blocks shown as evidence (default 16). */
  max_content_blocks?: number;
  /** UTF-16 code units kept of each text block (default 8192). */
  max_text_chars?: number;
  /** Serialized bytes of `evidence.structured_content` (default 8192). */
  max_structured_bytes?: number;
  /** Serialized bytes of `evidence.parsed_error` (default 4096). */
  max_parsed_error_bytes?: number;
  /** Serialized bytes of the whole error object (default 32768). */
  max_error_bytes?: number;
  /** Nesting levels kept in structured evidence (default 8). */
  max_json_depth?: number;
  /** Items or members kept per level of structured evidence (default 32). */
  max_json_items?: number;
  /** UTF-16 code units kept of each string in structured evidence (default 1024). */
  max_json_string_chars?: number;
  /** Largest text block parsed in search of a JSON error object (default 65536). */
  max_parse_chars?: number;
  /** Key names judged secret besides the built-in ones, compared as they are (at most 256, each ≤ 128 printable ASCII). */
  secret_keys?: string[];
  /** Token formats besides the built-in ones (at most 64). */
  token_formats?: TokenFormat[];
  /** Exact values never redacted: a span is kept only when it is one of them whole (at most 256, each ≤ 128). */
  allow?: string[];
  /** Key names never judged secret; their values are still scanned for tokens (at most 256). */
  allow_keys?: string[];
}

/** MCP tool annotations (untrusted hints). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** One MCP content block. */
export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}

/** An MCP `CallToolResult`, as the SDK returns it. */
export interface CallToolResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  resultType?: string;
  [key: string]: unknown;
}

/** Transport failure kinds. */
export type TransportKind =
  | 'timeout'
  | 'connection_closed'
  | 'connection_refused'
  | 'dns'
  | 'tls'
  | 'response_too_large'
  | 'malformed_response'
  | 'cancelled'
  | 'other';

/** A call the gateway, a budget or the sandbox blocked; `kind` is snake_case. */
export interface BlockedFailure {
  kind: string;
  message: string;
  retry_after_ms?: number | null;
}

/** Arguments rejected by validation: arguments with a schema, ready-made problems, or a message. */
export interface ValidationFailure {
  arguments?: unknown;
  input_schema?: unknown;
  problems?: InvalidArgument[];
  message?: string;
}

/** What every report may say besides its one failure. */
export interface ReportHeader {
  /** `namespace::name`, when known. */
  tool?: string | null;
  annotations?: ToolAnnotations | null;
  /** The trusted fact whether the request left the gateway (null: unknown). */
  dispatched?: boolean | null;
  /** The called tool's `inputSchema`: the tool's own failure text then names its arguments. */
  input_schema?: Record<string, unknown> | null;
  /** The arguments the call sent (used with `input_schema`). */
  arguments?: unknown;
}

/** A failure report: a header and exactly one failure. */
export type FailureReport = ReportHeader &
  (
    | { tool_result: CallToolResult }
    | { jsonrpc_error: { code: number; message?: string; data?: unknown } }
    | { transport: { kind: TransportKind; message?: string } }
    | { validation: ValidationFailure }
    | { policy: BlockedFailure }
    | { budget: BlockedFailure }
    | { code_mode: BlockedFailure }
  );

/** The error thrown for input the core cannot work with. */
export interface CodemodeInputError extends TypeError {
  /** `invalid_json`, `too_deep`, `invalid_report`, `invalid_policy`, `invalid_call_error`, `unsupported_version`, `input_too_large` or `invalid_argument`. */
  code: 'invalid_json' | 'too_deep' | 'invalid_report' | 'invalid_policy' | 'invalid_call_error' | 'unsupported_version' | 'input_too_large' | 'invalid_argument';
  /** Where in the input, e.g. `tool_result.content[2].type`; empty for the whole input. */
  path: string;
}

/**
 * Turns failure reports into outcomes under one policy; build once, reuse.
 * @example
 * const normalizer = new Normalizer({ max_text_chars: 2048 });
 * const { error, breaker } = normalizer.normalize({ tool: 'fs::read_file', transport: { kind: 'timeout', message: 'no answer in 30 s' } });
 * // error.kind === 'timeout', breaker === 'failure'
 */
export class Normalizer {
  /**
   * @throws {CodemodeInputError} `invalid_policy`
   * @example
   * new Normalizer({ secret_keys: ['acme_session'] }).redactText('acme_session=s3cr3t');
   * // 'acme_session=[REDACTED:secret_field]'
   */
  constructor(policy?: Policy | string);
  /**
   * The outcome of a report (an object, or its JSON text).
   * @example
   * new Normalizer().normalize({ tool: 'search::web', transport: { kind: 'timeout', message: 'no answer in 30 s' } });
   * // { error: { contract_version: 1, kind: 'timeout', origin: 'upstream_transport', ... }, breaker: 'failure' }
   */
  normalize(report: FailureReport | string): Outcome;
  /**
   * The outcome as the core's exact JSON text.
   * @example
   * new Normalizer().normalizeToJson('{"tool":"search::web","transport":{"kind":"timeout","message":"no answer"}}');
   * // '{"error":{"contract_version":1,"kind":"timeout",...},"breaker":"failure"}'
   */
  normalizeToJson(report: FailureReport | string): string;
  /**
   * The Error whose message is the contract JSON, or null when not a failure.
   * @example
   * const result = { isError: true, content: [{ type: 'text', text: 'ENOENT: no such file or directory' }] };
   * const error = new Normalizer().toCallError({ tool: 'fs::read_file', dispatched: true, tool_result: result });
   * JSON.parse(error.message).kind; // 'not_found'
   */
  toCallError(report: FailureReport | string): Error | null;
  /**
   * Sanitized, redacted free text.
   * @example
   * new Normalizer().redactText('password=hunter2'); // 'password=[REDACTED:secret_field]'
   */
  redactText(text: string): string;
  /**
   * A redacted copy of a JSON value.
   * @example
   * new Normalizer().redactJson({ user: 'ada', api_key: 'abc' });
   * // { api_key: '[REDACTED:secret_field]', user: 'ada' }
   */
  redactJson<T = unknown>(value: T): unknown;
  /**
   * Read a contract object back from a rejection under this normalizer's policy (allowed values kept).
   * @example
   * const normalizer = new Normalizer();
   * const rejection = normalizer.toCallError({ tool: 'kv::get', transport: { kind: 'timeout', message: 'no answer' } });
   * normalizer.parseCallError(rejection).recovery.action; // 'retry_later'
   */
  parseCallError(error: unknown): CodeModeCallError;
  /**
   * The policy in force, every cap and list included.
   * @example
   * new Normalizer({ max_text_chars: 2048 }).policy.max_error_bytes; // 32768 (the default)
   */
  readonly policy: Required<Policy>;
  /**
   * Release the core's memory now instead of at garbage collection (also
   * `[Symbol.dispose]` where the runtime has it); later calls throw.
   * @example
   * const normalizer = new Normalizer();
   * normalizer.free();
   * normalizer.redactText('x'); // throws: this Normalizer was freed: create a new one
   */
  free(): void;
}

/**
 * The outcome of one report under `policy` (defaults when omitted).
 * @example
 * const { error, breaker } = normalize({ tool: 'search::web', transport: { kind: 'timeout', message: 'no answer in 30 s' } });
 * // error.kind === 'timeout', error.origin === 'upstream_transport', breaker === 'failure'
 */
export function normalize(report: FailureReport | string, policy?: Policy | string): Outcome;

/**
 * The outcome as the core's exact JSON text.
 * @example
 * normalizeToJson({ tool: 'search::web', transport: { kind: 'timeout', message: 'no answer in 30 s' } });
 * // '{"error":{"contract_version":1,"kind":"timeout",...},"breaker":"failure"}'
 */
export function normalizeToJson(report: FailureReport | string, policy?: Policy | string): string;

/**
 * The Error whose message is the contract JSON, or null when the report is not a failure.
 * @example
 * const result = { isError: true, content: [{ type: 'text', text: 'ENOENT: no such file or directory' }] };
 * const error = toCallError({ tool: 'fs::read_file', dispatched: true, tool_result: result });
 * JSON.parse(error.message).kind; // 'not_found'
 * toCallError({ tool: 'fs::read_file', tool_result: { content: [{ type: 'text', text: 'ok' }] } }); // null
 */
export function toCallError(report: FailureReport | string, policy?: Policy | string): Error | null;

/**
 * Sanitized, redacted free text (no cap).
 * @example
 * redactText('token=abc123 Authorization: Bearer sk-live-0123456789abcdefghij');
 * // 'token=[REDACTED:secret_field] Authorization: Bearer [REDACTED:openai_key]'
 */
export function redactText(text: string): string;

/**
 * A redacted copy of a JSON value.
 * @example
 * redactJson({ user: 'ada', password: 'hunter2' }); // { password: '[REDACTED:secret_field]', user: 'ada' }
 */
export function redactJson(value: unknown): unknown;

/**
 * Read the contract object back from a rejection (the Error, its message, or the object).
 * @example
 * try { await codemode.github.create_issue({ title }) }
 * catch (e) {
 *   const error = parseCallError(e);
 *   if (error.recovery.action === 'retry_later') await sleep(error.recovery.retry_after_ms ?? 1000);
 * }
 * parseCallError({ kind: 'timeout', message: 'no answer' }).contract_version; // 1 (a legacy payload, upgraded)
 */
export function parseCallError(error: unknown): CodeModeCallError;

/**
 * The MCP result a gateway returns for an uncaught failure.
 * @example
 * const envelope = toMcpErrorEnvelope(rejection, { run_id: 'r1' });
 * // envelope.isError === true, envelope.content[0].text is the contract JSON,
 * // envelope.structuredContent.error.kind === envelope.structuredContent.trace.error.kind
 */
export function toMcpErrorEnvelope(
  error: unknown,
  trace?: Record<string, unknown>,
): CallToolResult & {
  content: [{ type: 'text'; text: string }];
  isError: true;
  structuredContent: { error: CodeModeCallError; trace: Record<string, unknown> & { error: CodeModeCallError } };
};

/** The terminal error code of a failed run. */
export type RunErrorCode =
  | 'invalid_input'
  | 'runtime_unavailable'
  | 'aborted'
  | 'timeout'
  | 'output_limit_exceeded'
  | 'snapshot_limit_exceeded'
  | 'internal_error';

/** Where a run's terminal error came from, when guest code was running. */
export type FailurePhase = 'input' | 'guest' | 'bridge' | 'host';

/** An executor's description of what ended a run. */
export interface RunFailureMessage {
  message: string;
}

/** A contract object from before version 1, upgraded by the tolerant reader. */
export interface LegacyCallError {
  kind: string;
  message: string;
  [key: string]: unknown;
}

/**
 * How a code-mode run ended, as the executor saw it: its own record of whether a nested
 * tool call was dispatched, and exactly one failure member.
 */
export type RunReport = {
  /** Whether any nested tool call left the sandbox (the executor's record, never the guest's). */
  bridge_dispatch_started: boolean;
  /** The exec request's `restartSafe`: the caller declares that running the code again is safe (default false). */
  restart_safe?: boolean;
} & (
  | { invalid_request: RunFailureMessage }
  | { syntax_error: RunFailureMessage & { line: number; column: number } }
  | { runtime_unavailable: RunFailureMessage }
  | { aborted: Record<string, never> }
  | { timeout: { deadline_ms?: number | null } }
  | { output_unserializable: RunFailureMessage }
  | { snapshot_too_large: RunFailureMessage }
  | { uncaught_tool_error: CodeModeCallError | LegacyCallError | string }
  | { guest_exception: RunFailureMessage & { name?: string | null } }
  | { internal: RunFailureMessage }
);

/** The terminal error of a failed run, with the exec surface's field names. */
export interface RunError {
  code: RunErrorCode;
  /** A standalone, sanitized, capped message. */
  message: string;
  /** Where the error came from, when guest code was running. */
  failurePhase?: FailurePhase;
  /** Whether any nested tool call was dispatched during the run. */
  bridgeDispatchStarted: boolean;
  /** The exec request's `restartSafe` (the report's `restart_safe`): the caller's declaration that running the code again is safe. */
  replaySafe: boolean;
  /** One-based line of a syntax error. */
  line?: number;
  /** One-based column of a syntax error. */
  column?: number;
  /** The uncaught tool error, the same contract object the guest saw. */
  toolError?: CodeModeCallError;
}

/**
 * The terminal error of a failed run, from a run report (an object, or its JSON text).
 * @example
 * classifyRun({ bridge_dispatch_started: true, guest_exception: { name: 'TypeError', message: 'x is undefined' } });
 * // { code: 'internal_error', message: 'the code threw TypeError: x is undefined',
 * //   failurePhase: 'guest', bridgeDispatchStarted: true, replaySafe: false }
 */
export function classifyRun(report: RunReport | string): RunError;

/**
 * The terminal error of a failed run as the core's exact JSON text.
 * @example
 * classifyRunToJson({ bridge_dispatch_started: false, timeout: { deadline_ms: 30000 } });
 * // '{"code":"timeout","message":"the run exceeded its execution deadline of 30000 ms","bridgeDispatchStarted":false,"replaySafe":false}'
 */
export function classifyRunToJson(report: RunReport | string): string;

/** How an executor wrapped the submitted source before compiling it. */
export interface ExecWrapping {
  /** The file name the wrapped source was compiled under (`agent:user.js`, say). */
  file: string;
  /** Lines of the wrapper before the source. */
  lines_before: number;
  /** Columns of the wrapper before the source on its first line. */
  columns_before: number;
  /** The source's line count: a frame after it is the wrapper's. */
  source_lines?: number;
}

/** A JavaScript engine, for the shapes of its syntax errors and stack frames. */
export type JsEngine = 'v8' | 'quickjs' | 'spidermonkey';

/** One executor step, the forms of the core's `run::ExecStep` (booleans default to false). */
export type ExecStep =
  | { step: 'request'; request: unknown }
  | { step: 'module_access'; code: string; restart_safe?: boolean }
  | {
      step: 'syntax_error';
      engine: JsEngine;
      message: string;
      stack: string;
      /** The engine's own one-based `[line, column]`, when it gives them. */
      position?: [number, number] | null;
      wrapping: ExecWrapping;
      source: string;
      restart_safe?: boolean;
    }
  | { step: 'user_stack'; engine: JsEngine; name: string; message: string; stack: string; wrapping: ExecWrapping; label: string }
  | { step: 'project_completed'; output: string; value: string; max_bytes: number; dispatched?: boolean; restart_safe?: boolean }
  | { step: 'fit_output'; output: string; budget: number }
  | {
      step: 'source_check';
      /** The submitted source. */
      source: string;
      /** Where a JavaScript parser stopped: its message and UTF-16 offset into `source`. */
      syntax_error?: { message: string; offset: number } | null;
      /** Each use of the module system the parser found in the syntax tree. */
      uses: { kind: 'import_declaration' | 'dynamic_import' | 'import_meta' | 'require_call'; offset: number }[];
      restart_safe?: boolean;
    }
  | {
      step: 'failed_run';
      /** A run error as the core wrote it (a step answer's `failed` member). */
      error: RunError;
      /** The guest error's frames (see `user_stack`). */
      stack?: string;
      output: string;
      max_bytes: number;
    };

/**
 * One executor step answered by the core, as JSON text: `{"code","restartSafe"}` for a
 * valid request; `{"failed": <run error>}` when the run ends at the step; `null` when a
 * source reaches for no module (or passes its source check); the stack as a JSON string;
 * `{"output","value","truncated"}` for a completed run; `{"output","truncated"}` for cut
 * output; the failed run (`{"status":"failed", ...run error, "stack"?, "output",
 * "truncated"?}`) fitted to `max_bytes`. A malformed step throws a
 * TypeError with `code` and `path`.
 * @example
 * execStepToJson({ step: 'request', request: { code: 'return 1' } }); // '{"code":"return 1","restartSafe":false}'
 * execStepToJson({ step: 'module_access', code: 'return 1' }); // 'null'
 * execStepToJson({ step: 'fit_output', output: 'x'.repeat(100), budget: 40 });
 * // '{"output":"xxxxxxxxxxxxxxxxxxx…[output truncated]","truncated":true}'
 */
export function execStepToJson(step: ExecStep | string): string;

/** Called after every call with what it means for the upstream's circuit breaker. */
export type BreakerCallback = (breaker: Breaker, details: { tool: string | undefined; error: CodeModeCallError | null }) => void;

/** How a wrapped `callTool` reports and limits its calls. */
export interface CallToolContext {
  /** Tools become `namespace::name`. */
  namespace?: string;
  /** MCP annotations by tool name, or a function of the name. */
  annotations?: Record<string, ToolAnnotations | undefined> | ((name: string) => ToolAnnotations | undefined);
  policy?: Policy | string;
  /** Reject with a `timeout` error when no result arrives in time. */
  timeoutMs?: number;
  onBreaker?: BreakerCallback;
}

/** A function that calls one tool of one server. */
export type CallTool = (name: string, args: Record<string, unknown> | undefined, options: { signal: AbortSignal }) => Promise<CallToolResult>;

/**
 * Wrap `callTool` so every failure rejects with `new Error(<contract JSON>)`.
 * @example
 * const callTool = wrapCallTool(
 *   (name, args, { signal }) => client.callTool({ name, arguments: args }, undefined, { signal }),
 *   { namespace: 'github', timeoutMs: 30_000 },
 * );
 * try { await callTool('create_issue', { title: 'x' }) }
 * catch (e) { JSON.parse(String(e.message)).tool } // 'github::create_issue'
 */
export function wrapCallTool(
  callTool: CallTool,
  context?: CallToolContext,
): (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

/** One tool of a catalog, as `listTools()` returns it. */
export interface CatalogTool {
  name: string;
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  [key: string]: unknown;
}

/** Sends one call upstream. */
export type Dispatch = (
  namespace: string,
  name: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal },
) => Promise<CallToolResult>;

/** Options of `createCodemode`. */
export interface CodemodeOptions {
  policy?: Policy | string;
  timeoutMs?: number;
  onBreaker?: BreakerCallback;
}

/** A tool helper model code calls. */
export type ToolHelper = (args?: Record<string, unknown>) => Promise<CallToolResult>;

/**
 * Build `codemode.<namespace>.<tool>()` helpers and `callTool(fqName, args)` from a catalog.
 * @throws {CodemodeInputError} `invalid_argument` for a malformed catalog, or one whose
 * `namespace::tool` names collide (a name holding `::`)
 * @example
 * const catalog = { kv: [{ name: 'get', inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } }] };
 * const { codemode, callTool } = createCodemode(catalog, (namespace, name, args, { signal }) => clients[namespace].callTool({ name, arguments: args }));
 * await codemode.kv.get({});
 * // rejects before dispatch: kind 'missing_param', invalid_arguments [{ path: 'key', problem: 'missing required argument' }]
 * await callTool('kv::put', { key: 'a' });
 * // rejects: kind 'unknown_tool', cause 'no tool named "kv::put" in this code-mode catalog; the nearest: "kv::get"'
 */
export function createCodemode(
  catalog: Record<string, CatalogTool[]>,
  dispatch: Dispatch,
  options?: CodemodeOptions,
): {
  codemode: Record<string, Record<string, ToolHelper>>;
  callTool: (tool: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
};

/** The exec tool's arguments as the model sent them; a string is shorthand for `{ code }`. */
export type ExecRequest = string | { code: string; restartSafe?: boolean };

/** What a run's telemetry reports: no secrets, no raw environment values, no tool inputs. */
export interface RunTelemetry {
  /**
   * The catalog's tools, and how many each source offers: by namespace, the MCP server its
   * tools came from (names cleaned like evidence).
   */
  catalog: { tools: number; bySource: Record<string, number> };
  calls: { total: number; failed: number; byTool: Record<string, number> };
  durationMs: number;
  /** One counter lifetime: stable while the same catalog object is used. */
  counterScope: string;
}

/** How an executor's run ended, as `Executor.compile(...).run` resolves it. */
export type RunEnding =
  | { valueJson: string }
  | { unserializable: string }
  /** An uncaught value that is one of the rejections the bridge delivered (by identity): the contract JSON. */
  | { bridgeError: string }
  | { guestError: { name: string; message: string; stack: string } }
  | { timeout: true };

/**
 * What `execute` gives an executor object's run: the bridge to the tools, the console sink,
 * the deadline. The bridge refuses every dispatch once the run has ended.
 */
export interface RunContext {
  bridge: {
    namespaces: Record<string, string[]>;
    /** Resolves with the tool's result, or rejects with the contract JSON text. */
    call(namespace: string, name: string, args: unknown): Promise<unknown>;
  };
  log: (args: unknown[]) => void;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * An executor `execute` runs code with: `quickjs` and `node-vm` are built in (each in a
 * worker the host can always stop); an object of this shape runs the code elsewhere
 * (another sandbox) and is called in the host's own thread, so only it can stop its code:
 * the deadline and the signal end the run's result at once and abort `RunContext.signal`.
 * The source is parsed and checked before `compile` is called; the core decides every rule.
 */
export interface Executor {
  /** The engine, for placing syntax errors and frames: `v8`, `quickjs` or `spidermonkey`. */
  engine: 'v8' | 'quickjs' | 'spidermonkey';
  compile(
    code: string,
    file: string,
  ): {
    syntaxError?: { message: string; stack?: string; line?: number; column?: number };
    /** Lines (and, on the source's first line, columns) the wrapper put before the source. */
    linesBefore: number;
    columnsBefore: number;
    run?: (context: RunContext) => Promise<RunEnding>;
    /** Release what the compiled run holds (called once the run has ended). */
    dispose?: () => void;
  };
}

/** Options of `execute`. */
export interface ExecuteOptions {
  catalog: Record<string, CatalogTool[]>;
  dispatch: Dispatch;
  /**
   * `quickjs` (the default: QuickJS in WebAssembly, in a worker), `node-vm` (a `node:vm`
   * context, in a worker; Node and Deno), or an executor object.
   */
  executor?: 'quickjs' | 'node-vm' | Executor;
  /** The run's deadline, a positive number of milliseconds (default 30 000), whatever the code does. */
  timeoutMs?: number;
  /** Each tool call's own deadline, a positive number of milliseconds. */
  callTimeoutMs?: number;
  /** The caller's signal: the run ends `aborted` (also in CPU-bound code) and pending calls are cancelled; an aborted one runs nothing. */
  signal?: AbortSignal;
  /**
   * One budget, a whole number of bytes, for console output plus the final value, or for
   * a failed run's error, stack and output together (default 65 536 bytes).
   */
  maxOutputBytes?: number;
  /** Frames read `<label>:user.js:LINE:COL` (default `codemode`). */
  label?: string;
  policy?: Policy | string;
}

/** A run that completed: its value as plain JSON data. */
export interface CompletedRun {
  status: 'completed';
  /** The returned value as JSON data; absent when the code returned nothing (`undefined`). */
  value?: unknown;
  output: string;
  bridgeDispatchStarted: boolean;
  replaySafe: boolean;
  truncated?: true;
  telemetry: RunTelemetry;
}

/** A run that failed: the run error's fields, output and telemetry. */
export interface FailedRun extends RunError {
  status: 'failed';
  /** A guest error's frames in the submitted source. */
  stack?: string;
  output: string;
  /** The message, `toolError`, stack or output was cut or left out to fit `maxOutputBytes`. */
  truncated?: true;
  telemetry: RunTelemetry;
}

/**
 * Run model-written code as a code-mode run; resolves with how it ended, never rejects for
 * anything the code does. Rejects with a `CodemodeInputError` (`code` `invalid_argument`,
 * `path` the option) for options the host got wrong, such as a `timeoutMs` that is not a
 * positive number or a catalog whose `namespace::tool` names collide.
 * @example
 * const result = await execute('const r = await codemode.kv.get({ key: "a" });\nreturn r.structuredContent.value + 1;', { catalog, dispatch });
 * // { status: 'completed', value: 43, output: '', bridgeDispatchStarted: true, ... } when kv::get answers { value: 42 }
 * await execute('while (true) {}', { catalog, dispatch, timeoutMs: 200 });
 * // { status: 'failed', code: 'timeout', ... }
 */
export function execute(request: ExecRequest, options: ExecuteOptions): Promise<CompletedRun | FailedRun>;
