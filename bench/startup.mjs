#!/usr/bin/env node
// Start-up of the command line beside a bare `node -e 0`, median of 10 whole processes each
// (issue 15: --help, transform and simulate of a small model within 1.5 times node -e 0).
//
//   node bench/startup.mjs          (after npm run build; also the first part of npm run bench)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const model = fileURLToPath(new URL('../examples/iderk_551.delta', import.meta.url));
const REPEATS = 10;

function median(command) {
  const times = [];
  for (let i = 0; i < REPEATS + 1; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, command, { cwd: root, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${command.join(' ')} exited with ${r.status}`);
    if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6); // the first warms the disk cache
  }
  times.sort((a, b) => a - b);
  return (times[(REPEATS - 1) >> 1] + times[REPEATS >> 1]) / 2;
}

const base = median(['-e', '0']);
const rows = [
  ['node -e 0', base],
  ['deltastep --help', median(['dist/cli.js', '--help'])],
  ['deltastep transform iderk_551', median(['dist/cli.js', 'transform', model])],
  ['deltastep simulate iderk_551', median(['dist/cli.js', 'simulate', model])],
];
console.log(`start-up, median of ${REPEATS} processes (target: at most 1.5 times node -e 0)\n`);
console.log('command                          ms      ratio');
for (const [name, ms] of rows)
  console.log(`${name.padEnd(32)} ${ms.toFixed(1).padStart(6)}  ${(ms / base).toFixed(2)}`);
