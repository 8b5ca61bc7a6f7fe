// No executor process outlives its host. On Node the `node-vm` executor runs in a child
// process; a guest spinning there never lets that process see its host disconnect, so a
// watchdog thread in it ends it when the host is gone, whether the host exited or was
// killed. (Found by this project's own red team: spinning guests kept running for an hour
// after their hosts were gone.)

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';

const DIST = new URL('../dist/cjs/index.js', import.meta.url).pathname;

/** A host that starts spinning node-vm runs, prints its child processes, then ends as `how`. */
function host(how) {
  const script = `
    const { execute } = require(${JSON.stringify(DIST)});
    const { execFileSync } = require('node:child_process');
    const options = { executor: 'node-vm', timeoutMs: 600000, catalog: {}, dispatch: async () => ({ content: [] }) };
    execute('for (;;) {}', options);
    execute('await null;\\nfor (;;) {}', options);
    setTimeout(() => {
      const kids = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\\n').filter((l) => l.includes('worker.js')).map((l) => Number(l.trim().split(/\\s+/)[0]));
      process.stdout.write(JSON.stringify(kids) + '\\n', () => ${how === 'exit' ? 'process.exit(0)' : "process.kill(process.pid, 'SIGKILL')"});
    }, 1500);`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

/** Whether the process `pid` still runs (a zombie waiting for its reaper counts as gone). */
function alive(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('node-vm executor processes end with their host', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  for (const how of ['exit', 'kill']) {
    test(`spinning guests end when the host ${how === 'exit' ? 'exits' : 'is killed'}`, async () => {
      const kids = host(how);
      assert.equal(kids.length, 2, `two executor processes ran: ${JSON.stringify(kids)}`);
      let left = kids;
      for (let i = 0; i < 30 && left.length > 0; i++) {
        await sleep(100);
        left = left.filter(alive);
      }
      for (const pid of left) process.kill(pid, 'SIGKILL');
      assert.deepEqual(left, [], 'executor processes outlived their host');
    });
  }
});
