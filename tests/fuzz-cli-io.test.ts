/**
 * The command line under everything that can happen to its output (issue 21, "done when"):
 * generated command lines of every command with random flags, run with stdout a pipe that is
 * read whole or closed early, stdout a full device (/dev/full), --out and --plot files, and
 * SIGINT or SIGTERM at random moments. Whatever happens: no stack trace and no "internal
 * error" on stderr, an exit code that docs/cli.md lists, output that is valid or clearly
 * marked partial (a JSON document parses; a CSV's lines are rows of its header's width or a
 * last comment line), and no temporary file left behind.
 *
 * The suite runs FUZZ_CLI_IO_RUNS cases (default 30); `npm run fuzz` runs more.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from './helpers.js';

const RUNS = Number(process.env.FUZZ_CLI_IO_RUNS ?? 30);
/** every run here ends far sooner: past this it is a hang */
const HANG_MS = 60_000;
/** the exit codes of docs/cli.md */
const CODES = [0, 1, 2, 3, 4, 5, 130, 141, 143];

let dir = '';
let tmp = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-fuzz-io-'));
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  writeFileSync(
    join(dir, 'ball.delta'),
    "parameter g = 9.81, e = 0.8\nindependent t from 0 to 4\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 10; h'(0) = 0\n",
  );
  writeFileSync(
    join(dir, 'tick.delta'),
    "parameter k = 1\ndiscrete n = 0\nindependent t from 0 to 2000\nevent tick when c - 1 rises do c := 0; n := n + 1 end\nc' = k\nc(0) = 0\n",
  );
  writeFileSync(
    join(dir, 'rope.delta'),
    "model HeavyRope\nindependent x from 0 to 10\nparameter w = 1, F = 5, a = 4, l = 12\nunknown p1 = -1, H = 5\ny'' = w/H*sqrt(1 + y'^2) + F/H*delta(x - a)\nz'  = sqrt(1 + y'^2)\ny(0) = 8; y'(0) = p1; z(0) = 0\ny(10) = 8; z(10) = l\n",
  );
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command line that does something (most of the time), before the random flags. */
const core = fc.constantFrom(
  ['simulate', 'ball.delta'],
  ['simulate', 'tick.delta'],
  ['simulate', 'tick.delta', '--to', '1e6', '--max-events', '1e7'],
  ['sweep', 'tick.delta', '--vary', 'k=0:2:1000', '--report', 'n, c'],
  ['sweep', 'ball.delta', '--vary', 'e=0.3:0.9:40', '--report', 'h'],
  ['montecarlo', 'tick.delta', '--sample', 'k~normal(1,0.1)', '--samples', '2000', '--report', 'n'],
  ['montecarlo', 'ball.delta', '--sample', 'e~uniform(0.5,0.9)', '--report', 'h'],
  ['shoot', 'rope.delta'],
  ['transform', 'ball.delta'],
  ['merge', 'out.json'],
  ['simulate', 'none.delta'],
);
const flag = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      ['--format', 'json'],
      ['--format', 'csv'],
      ['--format', 'text'],
      ['--out', 'out.json'],
      ['--out', 'out.csv'],
      ['--out', 'out.txt'],
      ['--out', '/dev/full'],
      ['--plot', 'p.svg'],
      ['--plot', 'p.png'],
      ['--to', '2'],
      ['--output-step', '0.001'],
      ['--output-times', '0:1:5'],
      ['--events-only'],
      ['--max-rows', '100'],
      ['--max-events', '50'],
      ['--stats-over', 'all'],
      ['--workers', '2'],
      ['--shard', '1/2'],
      ['--title', 'T'],
      ['--method', 'rk4'],
      ['--quiet'],
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ['--format', 'latex'],
      ['--out', 'no/such/dir/out.json'],
      ['--plot', 'p.pdf'],
      ['--output-times', '9e9'],
      ['--width', '50'],
      ['--bogus', 'x'],
    ),
  },
);
/** What happens to stdout, and whether a signal comes. */
const delivery = fc.record({
  stdout: fc.constantFrom('read', 'read', 'close-early', 'full'),
  signal: fc.constantFrom(null, null, 'SIGINT', 'SIGTERM'),
  after: fc.integer({ min: 20, max: 1500 }),
});

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], d: { stdout: string; signal: string | null; after: number }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const full = d.stdout === 'full' && existsSync('/dev/full') ? openSync('/dev/full', 'w') : null;
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
      stdio: ['ignore', full ?? 'pipe', 'pipe'],
    });
    if (full !== null) closeSync(full);
    let stdout = '',
      stderr = '';
    child.stdout?.on('data', (b: Buffer) => {
      if (d.stdout === 'close-early') child.stdout!.destroy();
      else stdout += b.toString();
    });
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = d.signal ? setTimeout(() => child.kill(d.signal as NodeJS.Signals), d.after) : null;
    const hang = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hang: deltastep ${args.join(' ')}`));
    }, HANG_MS);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      clearTimeout(hang);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A CSV is rows of its header's width, and at most a last comment line (an interrupted run). */
function checkCsv(text: string, what: string): void {
  const lines = text.trimEnd().split('\n');
  if (lines.length === 0 || lines[0] === '') return;
  const width = lines[0].split(',').length;
  lines.slice(1).forEach((line, k) => {
    if (line.startsWith('#')) expect(k, `${what}: a comment line before the end`).toBe(lines.length - 2);
    else expect(line.split(',').length, `${what}: line ${k + 2} '${line}'`).toBe(width);
  });
}

describe('the command line under closed pipes, full disks and signals', () => {
  it(
    `${RUNS} generated runs`,
    async () => {
      const codes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(core, fc.array(flag, { maxLength: 4 }), delivery, async (start, flags, d) => {
          for (const f of ['out.json', 'out.csv', 'out.txt', 'p.svg', 'p.png']) rmSync(join(dir, f), { force: true });
          const cmd = start[0];
          const args = [...start, ...flags.flat()];
          const what = `deltastep ${args.join(' ')} (stdout ${d.stdout}${d.signal ? `, ${d.signal} after ${d.after} ms` : ''})`;
          const r = await run(args, d);
          const outcome = r.code === null ? String(r.signal) : String(r.code);
          codes.set(outcome, (codes.get(outcome) ?? 0) + 1);
          // no crash: no stack trace, no internal error, a documented exit code (or, for a signal
          // that came before the program could listen, the signal's own end)
          expect(r.stderr, what).not.toMatch(/internal error|\n\s+at .*:\d+:\d+|node:internal|FATAL/);
          if (r.code === null) expect(r.signal, `${what}: ended by ${r.signal}`).toBe(d.signal);
          else expect(CODES, `${what}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
          // the output: valid, or marked as partial
          const jsonOut = join(dir, 'out.json');
          const isJson = (args.includes('json') && cmd !== 'transform') || cmd === 'montecarlo';
          if (existsSync(jsonOut) && args.includes('out.json') && cmd !== 'merge' && isJson) {
            const text = readFileSync(jsonOut, 'utf8');
            if (text.length > 0) expect(() => JSON.parse(text), `${what}: out.json`).not.toThrow();
          }
          const csvOut = join(dir, 'out.csv');
          if (existsSync(csvOut) && (args.includes('csv') || cmd === 'montecarlo'))
            checkCsv(readFileSync(csvOut, 'utf8'), `${what}: out.csv`);
          const format = args[args.indexOf('--format') + 1];
          const onStdout = d.stdout === 'read' && r.code !== null && [0, 3, 4, 130, 143].includes(r.code) && r.stdout;
          if (onStdout && args.includes('--format') && !args.includes('--out')) {
            if (format === 'json' && cmd !== 'transform')
              expect(() => JSON.parse(r.stdout), `${what}: stdout`).not.toThrow();
            if (format === 'csv' && cmd === 'simulate') checkCsv(r.stdout, `${what}: stdout`);
          }
          if (d.stdout === 'full' && r.code === 5) expect(r.stderr, what).toMatch(/cannot write/);
          // nothing left in the temporary directory
          expect(readdirSync(tmp), what).toEqual([]);
        }),
        { seed: Number(process.env.FUZZ_SEED ?? 21_2026), numRuns: RUNS, interruptAfterTimeLimit: 20 * 60_000 },
      );
      if (process.env.FUZZ_CLI_IO_RUNS)
        console.log(`fuzz-cli-io: ${RUNS} runs, exit codes ${[...codes].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
      // the generator reaches the outcomes it is about, or it tests less than it seems to
      if (RUNS >= 30) for (const c of ['0', '2']) expect(codes.get(c) ?? 0, `exit ${c}`).toBeGreaterThan(0);
    },
    30 * 60_000,
  );
});
