// The package's API on plain JavaScript values: outcomes, redaction, the consumer side,
// typed errors for bad input, and the input caps.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import {
  Normalizer,
  normalize,
  normalizeToJson,
  parseCallError,
  redactJson,
  redactText,
  toCallError,
  toMcpErrorEnvelope,
} from 'codemode-errors';

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

const failing = {
  tool: 'github::create_issue',
  annotations: { readOnlyHint: false },
  dispatched: true,
  tool_result: { isError: true, content: [{ type: 'text', text: `HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=${TOKEN})` }] },
};

/** The typed error `f` throws. */
function thrownBy(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
}

/** Assert `f` throws a TypeError with this `code` and `path`. */
function assertInputError(f, code, path) {
  const e = thrownBy(f);
  assert.ok(e instanceof TypeError, `expected a TypeError, got ${e}`);
  assert.deepEqual({ code: e.code, path: e.path }, { code, path }, e.message);
  return e;
}

describe('normalize', () => {
  test('returns the outcome object, equal to the parsed contract bytes', () => {
    const outcome = normalize(failing);
    assert.deepEqual(outcome, JSON.parse(normalizeToJson(failing)));
    assert.equal(outcome.breaker, 'success');
    assert.equal(outcome.error.kind, 'rate_limited');
    assert.equal(outcome.error.recovery.retry_after_ms, 20000);
    assert.ok(!normalizeToJson(failing).includes('ghp_'));
  });

  test('takes the report as an object or as JSON text, with the same bytes', () => {
    assert.equal(normalizeToJson(JSON.stringify(failing)), normalizeToJson(failing));
  });

  test('successes and input_required are not errors', () => {
    for (const tool_result of [{ content: [{ type: 'text', text: 'ok' }] }, { resultType: 'input_required', inputRequests: {} }]) {
      assert.deepEqual(normalize({ tool_result }), { error: null, breaker: 'success' });
    }
  });

  test('a reused Normalizer gives the bytes of the one-shot function under the same policy', () => {
    const policy = { max_text_chars: 64 };
    const normalizer = new Normalizer(policy);
    const long = { tool_result: { isError: true, content: [{ type: 'text', text: 'x'.repeat(500) }] } };
    for (const report of [failing, long, { transport: { kind: 'dns', message: 'ENOTFOUND' } }]) {
      assert.equal(normalizer.normalizeToJson(report), normalizeToJson(report, policy));
      assert.deepEqual(normalizer.normalize(report), normalize(report, policy));
    }
    assert.equal(normalizer.normalize(long).error.evidence.content[0].original_length, 500);
  });

  test('the policy getter lists every cap; bad policies are typed errors', () => {
    assert.equal(new Normalizer({ max_text_chars: 100 }).policy.max_text_chars, 100);
    assert.equal(new Normalizer().policy.max_content_blocks, 16);
    assert.equal(new Normalizer('{"max_content_blocks": 4}').policy.max_content_blocks, 4);
    assertInputError(() => new Normalizer({ max_text_chars: 1 }), 'invalid_policy', 'max_text_chars');
    assertInputError(() => normalize(failing, { max_text_char: 100 }), 'invalid_policy', 'max_text_char');
    assertInputError(() => new Normalizer({ max_text_chars: () => 1 }), 'invalid_policy', 'max_text_chars');
    assertInputError(() => new Normalizer('{'), 'invalid_policy', '');
  });

  test("a policy's redaction lists apply to everything the normalizer cleans, and it reads its own objects back", () => {
    const policy = {
      secret_keys: ['acme_session'],
      allow: ['pk_demo_0000'],
      allow_keys: ['token_budget'],
      token_formats: [{ family: 'acme_token', prefix: 'acme_', alphabet: 'alnum', min_body_length: 24 }],
    };
    const normalizer = new Normalizer(policy);
    const acme = 'acme_0123456789abcdefghijklmn';
    assert.equal(normalizer.redactText(`AcmeSession=s3cr3t key=pk_demo_0000 ${acme}`), 'AcmeSession=[REDACTED:secret_field] key=pk_demo_0000 [REDACTED:acme_token]');
    assert.equal(redactText(`AcmeSession=s3cr3t ${acme}`), `AcmeSession=s3cr3t ${acme}`);
    assert.deepEqual(normalizer.redactJson({ token_budget: 5, acmeSessions: 'x', api_key: 'pk_demo_0000' }), {
      acmeSessions: '[REDACTED:secret_field]',
      api_key: 'pk_demo_0000',
      token_budget: 5,
    });
    const error = normalizer.toCallError({ tool: 'a::b', transport: { kind: 'timeout', message: `api_key=pk_demo_0000 via ${acme}` } });
    assert.deepEqual(normalizer.normalize({ tool: 'a::b', transport: { kind: 'timeout', message: acme } }).error.evidence, { redactions: { acme_token: 1 } });
    assert.ok(error.message.includes('api_key=pk_demo_0000 via [REDACTED:acme_token]'), error.message);
    assert.deepEqual(normalizer.parseCallError(error), JSON.parse(error.message));
    assert.notDeepEqual(parseCallError(error), JSON.parse(error.message), 'the free reader knows no allowlist');
    assert.deepEqual(new Normalizer(policy).policy.token_formats, policy.token_formats);
    assertInputError(() => new Normalizer({ secret_keys: 'acme' }), 'invalid_policy', 'secret_keys');
    assertInputError(() => new Normalizer({ token_formats: [{ ...policy.token_formats[0], prefix: 'a' }] }), 'invalid_policy', 'token_formats[0].prefix');
    assertInputError(() => new Normalizer({ allow: ['x', ''] }), 'invalid_policy', 'allow[1]');
  });
});

describe('toCallError', () => {
  test('is the Error whose message is the contract JSON', () => {
    const error = toCallError(failing);
    assert.ok(error instanceof Error);
    assert.deepEqual(JSON.parse(String(error.message)), normalize(failing).error);
  });

  test('is null when the report is not a failure', () => {
    assert.equal(toCallError({ tool_result: { content: [], isError: false } }), null);
    assert.equal(new Normalizer().toCallError({ tool_result: { resultType: 'input_required' } }), null);
  });
});

describe('redaction', () => {
  test('redactText redacts secrets and strips invisible characters', () => {
    assert.equal(redactText('token=abc123\u202E'), 'token=[REDACTED:secret_field]');
    assert.ok(!redactText(`Authorization: Bearer ${TOKEN}`).includes('ghp_'));
    assertInputError(() => redactText(42), 'invalid_argument', '');
  });

  test('a long text crosses as UTF-8 and reads as its lines do; a clean one comes back as it was', () => {
    const lines = [
      'a plain log line with nothing secret in it, repeated past the long-text bound',
      `Authorization: Bearer ${TOKEN}`,
      'a lone \uD800 surrogate',
      'a kept \uFFFD replacement character',
      'a hidden\u202E bidi control',
    ];
    const long = Array.from({ length: 60 }, (_, i) => lines[i % lines.length]).join('\n');
    assert.ok(long.length >= 2048);
    // The core the package loads (the CommonJS build under Node), its staged entry spied on.
    const core = createRequire(import.meta.url)('../dist/cjs/binding.js').Normalizer.prototype;
    const original = core.redactStaged;
    const answers = [];
    core.redactStaged = function (len) {
      const answer = original.call(this, len);
      answers.push(answer === undefined ? 'same' : typeof answer === 'string' ? 'string' : 'ascii bytes');
      return answer;
    };
    try {
      const redacted = redactText(long);
      assert.deepEqual(answers, ['string'], 'the module-level redactText stages a long text');
      assert.equal(new Normalizer().redactText(long), redacted);
      assert.equal(answers.length, 2, 'so does a Normalizer');
      assert.equal(redacted, long.split('\n').map((line) => redactText(line)).join('\n'));
      assert.equal(answers.length, 2, 'a short line crosses as a string');
      assert.ok(!redacted.includes('ghp_') && !redacted.includes('\uD800') && !redacted.includes('\u202E'));
      const clean = lines[0].repeat(30);
      assert.equal(redactText(clean), clean);
      assert.equal(redactText(`${clean}\uD800`), `${clean}\uFFFD`);
      assert.deepEqual(answers.slice(2), ['same', 'string']);
      // An ASCII text redacted is read back from the module's memory as bytes.
      const ascii = `${lines[0]}\n${lines[1]}\n`.repeat(20);
      assert.equal(redactText(ascii), ascii.split('\n').map((line) => redactText(line)).join('\n'));
      assert.deepEqual(answers.slice(4), ['ascii bytes']);
    } finally {
      core.redactStaged = original;
    }
  });

  test('a long text of any characters is staged whole: room grows past the first byte a unit', () => {
    // The core's own entry for a string, which wasm-bindgen copies in a unit at a time:
    // the staged crossing must read exactly as it does.
    const binding = createRequire(import.meta.url)('../dist/cjs/binding.js');
    const core = new binding.Normalizer(undefined);
    // Two-, three- and four-byte characters (a surrogate pair, also at the first room's
    // edge), a lone surrogate, and secrets after each, in texts whose first room (a byte
    // a unit) ends at each offset of a four-byte character.
    const pieces = ['é', '€ ', '😀', ' password=hunter2 ', ` token ${TOKEN} `, 'ascii filler text, ', '\uDC00 ', '\n'];
    try {
      for (let shift = 0; shift < 6; shift++) {
        const parts = Array.from({ length: 300 }, (_, i) => pieces[(i * 5 + shift) % pieces.length]);
        const text = `${'x'.repeat(1024 + shift)}\n${parts.join('')}`;
        const redacted = redactText(text);
        assert.equal(redacted, core.redactText(text), `shift ${shift}`);
        assert.ok(!redacted.includes('hunter2') && !redacted.includes('ghp_') && !redacted.includes('\uDC00'));
        assert.ok(redacted.includes('😀') && redacted.includes('€') && redacted.includes('é'));
      }
      // Only non-ASCII characters: every unit needs more than the first room gave.
      const wide = '€😀'.repeat(700);
      assert.equal(redactText(wide), wide);
      assert.equal(redactText(`${wide} password=hunter2`), `${wide} password=[REDACTED:secret_field]`);
    } finally {
      core.free();
    }
  });

  test('redactJson returns a redacted copy as a value', () => {
    const value = { user: 'ada', password: 'hunter2', nested: [{ note: `key ${TOKEN}` }] };
    const redacted = redactJson(value);
    assert.equal(redacted.user, 'ada');
    assert.equal(redacted.password, '[REDACTED:secret_field]');
    assert.ok(!JSON.stringify(redacted).includes('ghp_'));
    assert.equal(value.password, 'hunter2', 'the input is not changed');
    assert.equal(new Normalizer().redactJson(value).password, '[REDACTED:secret_field]');
  });
});

describe('parseCallError', () => {
  const contract = normalize(failing).error;

  test('reads the Error, its message text, or the object', () => {
    const error = toCallError(failing);
    assert.deepEqual(parseCallError(error), contract);
    assert.deepEqual(parseCallError(error.message), contract);
    assert.deepEqual(parseCallError(contract), contract);
  });

  test('ignores unknown fields and upgrades legacy payloads', () => {
    assert.deepEqual(parseCallError({ ...contract, from_the_future: { a: 1 } }), contract);
    const legacy = parseCallError(new Error(JSON.stringify({ kind: 'server_error', message: 'boom' })));
    assert.equal(legacy.contract_version, 1);
    assert.equal(legacy.kind, 'tool_error');
    assert.equal(legacy.original_kind, 'server_error');
    assert.equal(legacy.side_effects, 'unknown');
  });

  test('refuses newer versions and non-contract payloads clearly', () => {
    const newer = assertInputError(() => parseCallError({ ...contract, contract_version: 2 }), 'unsupported_version', 'contract_version');
    assert.match(newer.message, /newer than this reader understands/);
    assertInputError(() => parseCallError(new Error('plain failure')), 'invalid_call_error', '');
    assertInputError(() => parseCallError(42), 'invalid_call_error', '');
    assertInputError(() => parseCallError({ ...contract, origin: 'mars' }), 'invalid_call_error', 'origin');
  });
});

describe('toMcpErrorEnvelope', () => {
  test('nests the same contract object as text, under error and in the trace', () => {
    const error = toCallError(failing);
    const envelope = toMcpErrorEnvelope(error, { run_id: 'r1', error: 'stale' });
    assert.equal(envelope.isError, true);
    const contract = parseCallError(error);
    assert.deepEqual(JSON.parse(envelope.content[0].text), contract);
    assert.deepEqual(envelope.structuredContent.error, contract);
    assert.deepEqual(envelope.structuredContent.trace, { run_id: 'r1', error: contract });
    assert.deepEqual(toMcpErrorEnvelope(contract).structuredContent.trace, { error: contract });
  });
});

describe('typed errors for bad input', () => {
  test('report shape problems name the field', () => {
    assertInputError(() => normalize([]), 'invalid_report', '');
    assertInputError(() => normalize({ tool: 'create_issue', transport: { kind: 'dns' } }), 'invalid_report', 'tool');
    assertInputError(() => normalize({ transport: { kind: 'gremlins' } }), 'invalid_report', 'transport.kind');
    assertInputError(() => normalize('{"tool":'), 'invalid_json', '');
  });

  test('values JSON cannot hold are refused at their path', () => {
    const result = (text) => ({ tool_result: { isError: true, content: [{ type: 'text', text }] } });
    assertInputError(() => normalize(result('a\uD800b')), 'invalid_json', 'tool_result.content[0].text');
    assertInputError(() => normalize(result(() => 1)), 'invalid_json', 'tool_result.content[0].text');
    assertInputError(() => normalize(result(Symbol('s'))), 'invalid_json', 'tool_result.content[0].text');
    assertInputError(() => normalize(result(10n)), 'invalid_json', 'tool_result.content[0].text');
    assertInputError(() => normalize(result(Number.NaN)), 'invalid_json', 'tool_result.content[0].text');
    assertInputError(() => normalize(undefined), 'invalid_json', '');
    assertInputError(() => normalize({ tool_result: { isError: true, content: [], structuredContent: { ['k\uDC00']: 1 } } }), 'invalid_json', 'tool_result.structuredContent.k\uFFFD');
  });

  test('nesting deeper than the input limit is too_deep, cycles included', () => {
    // The report is level 1 and tool_result level 2, so the object at level 120 is 118
    // structuredContent steps down; its first container member (content) is level 121.
    const cyclic = { isError: true, content: [] };
    cyclic.structuredContent = cyclic;
    // A deep path is written with counts: each run of a step, once.
    const e = assertInputError(() => normalize({ tool_result: cyclic }), 'too_deep', 'tool_result.structuredContent×118.content');
    assert.match(e.message, /deeper than 120 levels, or holds itself \(a cycle\)/);
    // Levels: report 1, tool_result 2, structuredContent 3, then arrays from level 4.
    const nested = (levels) => {
      let deep = [];
      for (let i = 1; i < levels; i++) deep = [deep];
      return { tool_result: { isError: true, content: [], structuredContent: { deep } } };
    };
    assert.equal(normalize(nested(117)).breaker, 'success');
    assert.equal(normalize(JSON.stringify(nested(117))).breaker, 'success');
    assertInputError(() => normalize(nested(118)), 'too_deep', 'tool_result.structuredContent.deep[0]×117');
    assertInputError(() => normalize(JSON.stringify(nested(118))), 'too_deep', '');
  });

  test('undefined follows JSON.stringify: absent in objects, null in arrays', () => {
    const report = { tool: 'fs::read', annotations: undefined, tool_result: { isError: true, content: [{ type: 'text', text: 'no' }], structuredContent: { a: undefined, b: [undefined, 1] } } };
    assert.equal(normalizeToJson(report), normalizeToJson(JSON.stringify(report)));
  });

  test('a value whose properties throw is refused, and the instance keeps working', () => {
    const hostile = new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
    assertInputError(() => normalize({ tool_result: { isError: true, content: [], structuredContent: hostile } }), 'invalid_json', 'tool_result.structuredContent');
    const getter = { isError: true, get content() { throw new Error('no content'); } };
    assertInputError(() => normalize({ tool_result: getter }), 'invalid_json', 'tool_result');
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    assertInputError(() => normalize({ tool_result: { isError: true, content: proxy } }), 'invalid_json', 'tool_result.content');
    assert.equal(normalize(failing).error.kind, 'rate_limited');
  });
});

describe('input caps', () => {
  const block = (text) => ({ tool_result: { isError: true, content: [{ type: 'text', text }] } });

  test('a 50 MB text block keeps its head and its real length', () => {
    const huge = 'y'.repeat(50_000_000);
    const descriptor = normalize(block(huge)).error.evidence.content[0];
    assert.equal(descriptor.original_length, 50_000_000);
    assert.equal(descriptor.truncated, true);
    assert.equal(descriptor.text.length, 8192);
  });

  test('ten thousand content blocks are counted, not read', () => {
    const content = Array.from({ length: 10_000 }, (_, i) => ({ type: 'text', text: `block ${i}` }));
    const outcome = normalize({ tool_result: { isError: true, content } });
    assert.equal(outcome.error.evidence.content.length, 16);
    assert.equal(outcome.error.evidence.omitted_content_blocks, 10_000 - 16);
    assert.equal(normalizeToJson({ tool_result: { isError: true, content } }), normalizeToJson(JSON.stringify({ tool_result: { isError: true, content } })));
  });

  test('a surrogate pair cut by the input limit is dropped whole, as the text reader does', () => {
    const head = 128 * 1024;
    const text = `${'a'.repeat(head - 1)}😀${'b'.repeat(10)}`;
    const policy = { max_text_chars: 65536 };
    assert.equal(normalizeToJson(block(text), policy), normalizeToJson(JSON.stringify(block(text)), policy));
    // A lone surrogate just inside the limit is still refused.
    assertInputError(() => normalize(block(`${'a'.repeat(head - 1)}\uD800x`)), 'invalid_json', 'tool_result.content[0].text');
  });

  test('keys holding NUL or a lone surrogate are read one by one', () => {
    const structuredContent = { 'a\u0000b': 1, c: 2, d: 3, e: 4 };
    const report = { tool_result: { isError: true, content: [], structuredContent } };
    assert.equal(normalizeToJson(report), normalizeToJson(JSON.stringify(report)));
    const lone = { tool_result: { isError: true, content: [], structuredContent: { a: 1, b: 2, ['c\uD800']: 3, d: 4 } } };
    assertInputError(() => normalize(lone), 'invalid_json', 'tool_result.structuredContent.c\uFFFD');
  });

  test('keys are capped like any string, in small and large objects', () => {
    const long = 'k'.repeat(200_000);
    for (const others of [1, 8]) {
      const structuredContent = Object.fromEntries([...Array.from({ length: others }, (_, i) => [`k${i}`, i]), [long, 1]]);
      const report = { tool_result: { isError: true, content: [], structuredContent } };
      assert.equal(normalizeToJson(report), normalizeToJson(JSON.stringify(report)));
    }
  });

  test('objects with more members than the input limit are counted past it', () => {
    const structuredContent = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const report = { tool_result: { isError: true, content: [], structuredContent } };
    assert.equal(normalizeToJson(report), normalizeToJson(JSON.stringify(report)));
  });
});

describe('Normalizer.free', () => {
  test('releases the core now; later calls say the normalizer was freed; freeing twice is harmless', () => {
    const n = new Normalizer({ max_text_chars: 64 });
    const before = n.normalizeToJson(failing);
    n.free();
    n.free();
    assert.throws(() => n.normalizeToJson(failing), /this Normalizer was freed/);
    assert.throws(() => n.redactText('x'), /this Normalizer was freed/);
    assert.throws(() => n.policy, /this Normalizer was freed/);
    assert.equal(new Normalizer({ max_text_chars: 64 }).normalizeToJson(failing), before, 'a new one answers as the freed one did');
  });

  test('is the normalizer\'s dispose method where the runtime has Symbol.dispose', () => {
    if (typeof Symbol.dispose !== 'symbol') return;
    const n = new Normalizer();
    n[Symbol.dispose]();
    assert.throws(() => n.redactText('x'), /this Normalizer was freed/);
  });
});
