// Start-up of builds of the package side by side: `node bench/startup.mjs RUNS DIR...`,
// each DIR a package folder (its package.json and dist/). Every round runs, in fresh Node
// processes, a package whose entry is one line and then each DIR, for `require` and for
// `import` (after importing `node:path`, so the ESM loader's own start is not counted),
// timing the load and a first `normalize` of the typical report; it prints medians and
// what each build adds over the one-line package. Builds compared in one run share the
// machine's state. Not part of the tests: timings are reported, not asserted.

import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { oneLinePackage } from './one-line.mjs';

const [runs = '21', ...dirs] = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node bench/startup.mjs RUNS PACKAGE_DIR...');
  process.exit(2);
}

const body = 'GitHub API error: HTTP/1.1 422 Unprocessable Entity\nValidation Failed: title is too long. See https://docs.github.com/rest/issues#create-an-issue for the field limits. '.repeat(4);
const typical = {
  tool: 'github::create_issue',
  annotations: { readOnlyHint: false, idempotentHint: false },
  dispatched: true,
  tool_result: { isError: true, content: [{ type: 'text', text: body }, { type: 'text', text: 'request id C0DE:1234 auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' }] },
};


/** `[load, first call]` in ms of one fresh process. */
function sample(kind, name, cwd) {
  const report = JSON.stringify(typical);
  const timed = `const t1 = performance.now(); m.normalize(${report}); const t2 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  const args =
    kind === 'import'
      ? ['--input-type=module', '-e', `await import('node:path'); const t0 = performance.now(); const m = await import('${name}'); ${timed}`]
      : ['-e', `const t0 = performance.now(); const m = require('${name}'); ${timed}`];
  return JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const floorDir = oneLinePackage();
try {
  for (const kind of ['require', 'import']) {
    const floor = [];
    const ours = dirs.map(() => []);
    for (let i = 0; i < Number(runs); i++) {
      floor.push(sample(kind, 'one-line', floorDir));
      dirs.forEach((dir, j) => ours[j].push(sample(kind, 'codemode-errors', dir)));
    }
    const base = median(floor.map(([a, b]) => a + b));
    dirs.forEach((dir, j) => {
      const s = ours[j];
      const total = median(s.map(([a, b]) => a + b));
      console.log(`${kind} ${dir}: load ${median(s.map((x) => x[0])).toFixed(2)} ms, first call ${median(s.map((x) => x[1])).toFixed(2)} ms, adds ${(total - base).toFixed(2)} ms over the one-line package (${base.toFixed(2)} ms)`);
    });
  }
} finally {
  rmSync(floorDir, { recursive: true, force: true });
}
