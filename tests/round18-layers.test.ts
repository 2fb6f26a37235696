/**
 * Round 18 (helper layers19), the command line's and the library's layers by differential
 * checks: pairs of ways to ask for the same thing must give the same rows, ledger and final
 * values. Checked and agreeing (not repeated here): simulate --format json against csv against
 * the library's simulate on the examples (every method); sweep against separate simulate --set
 * runs, with --workers 1 and 2 and --shard K/3 + merge; montecarlo across runs, worker counts
 * and shards, and each sample of --out against simulate --set of its draws; --from T with the
 * straight run's values at T; exit codes and --out of ok, stopped, zeno, failed, interrupted.
 *
 * 1. A point of the --output-step grid at an end of the range where an instant acts (a delta
 *    or a tick at the start or at the end) had only the instant's two rows, where the same
 *    time listed with --output-times (outputTimes) has three (its own row, the left limit,
 *    then the instant's before and after rows, cli.md), and where a grid point inside the
 *    range at an instant has three with --output-step too.
 * 2. transform --format js said how each part is integrated only when every part has a closed
 *    form; text, latex and json say it for every model.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, type SimulateOptions } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';

// y'' = -k y + 2 delta(t - 1) + 0.5 delta(t - tick), tick at 2, at rest at t = 0 (k = 1):
// y = 0 up to t = 1, then y = 2 sin(t - 1), y' = 2 cos(t - 1); at t = 2 y' jumps by 1/2.
// Exact: y(2) = 2 sin 1 = 1.68294196961579301..., y'(2-) = 2 cos 1 = 1.08060461173627944...
const KICK = `model Kick
independent t from 0 to 5
parameter k = 1
event tick at 2
y'' = -k*y + 2*delta(t - 1) + 0.5*delta(t - tick)
y(0) = 0; y'(0) = 0
`;
const model = compileModel(KICK);
const Y2 = 2 * Math.sin(1);
const V2 = 2 * Math.cos(1);

/** the grid from..to by h (count n, both ends), as the decimals mean it */
function grid(from: number, to: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Number((from + ((to - from) * i) / (n - 1)).toPrecision(12)));
}

describe('1. an --output-step grid point at an end with an instant: its own row, as --output-times', () => {
  const cases: { label: string; o: SimulateOptions; n: number; at: number; before: number[]; after: number[] }[] = [
    // the end: t = 2, the tick there; rows (t, y, y') = (2, 2 sin 1, 2 cos 1) twice, then y' + 0.5
    { label: 'the tick at the end (t = 2)', o: { to: 2 }, n: 5, at: 2, before: [2, Y2, V2], after: [2, Y2, V2 + 0.5] },
    // the start: from t = 1 at rest (init), the kick there: (1, 0, 0) twice, then y' = 2
    {
      label: 'the kick at the start (from t = 1)',
      o: { from: 1, to: 2, init: { y: 0, "y'": 0 } },
      n: 5,
      at: 1,
      before: [1, 0, 0],
      after: [1, 0, 2],
    },
    // backwards from t = 2 with the values after the tick (y = 2 sin 1, y' = 2 cos 1 + 0.5; the
    // tick at the start is undone there) to t = 1: the end is the kick, undone: (1, 0, 2) is
    // the left limit in the run's direction, then (1, 0, 2) and (1, 0, 0)
    {
      label: 'backwards, the kick at the end (t = 1)',
      o: { from: 2, to: 1, init: { y: Y2, "y'": V2 + 0.5 } },
      n: 5,
      at: 1,
      before: [1, 0, 2],
      after: [1, 0, 0],
    },
  ];
  for (const method of ['auto', 'dopri5', 'rk4'] as const) {
    for (const c of cases) {
      it(`${method}: ${c.label}`, () => {
        const from = c.o.from ?? 0;
        const to = c.o.to!;
        const h = Math.abs(to - from) / (c.n - 1);
        const extra: SimulateOptions = method === 'rk4' ? { method, step: 0.01 } : { method, rtol: 1e-12, atol: 1e-14 };
        const byStep = simulate(model, { ...c.o, ...extra, outputStep: h });
        const byTimes = simulate(model, { ...c.o, ...extra, outputTimes: grid(from, to, c.n) });
        expect(byStep.status).toBe('ok');
        expect(byTimes.status).toBe('ok');
        // three rows at the end's instant: the grid's own (the left limit), before, after
        const at = (rows: number[][]) => rows.filter((r) => r[0] === c.at);
        expect(at(byTimes.rows).length).toBe(3);
        expect(at(byStep.rows).length).toBe(3);
        // the same rows both ways, to the bit (the same dense output at the same times)
        expect(byStep.rows).toEqual(byTimes.rows);
        // and the exact values (rk4 with step 0.01 over a unit range: error ~ h^4 = 1e-8;
        // the adaptive ones at rtol 1e-12: 1e-9 is generous)
        const tol = 1e-7;
        const [left, pre, post] = at(byStep.rows);
        for (let i = 0; i < 3; i++) {
          expect(Math.abs(left[i] - c.before[i])).toBeLessThan(tol);
          expect(Math.abs(pre[i] - c.before[i])).toBeLessThan(tol);
          expect(Math.abs(post[i] - c.after[i])).toBeLessThan(tol);
        }
      });
    }
  }
});

/**
 * 2. transform says how each part is integrated in every format (CLI.md): text, latex and
 *    JSON did; --format js only for a model whose every part has a closed form (its analytic
 *    path's header). Here x, x' are a linear block with a closed form, w a polynomial of degree
 *    1 and z' = sin(z) + 1 numeric: the generated source said nothing of any of them.
 */
describe('2. transform --format js says how each part is integrated, as text, latex and json', () => {
  const MIX = `model Mix
independent t from 0 to 4
parameter k = 2, c = 0.3
x'' = -k*x - c*x' + delta(t - 1)
z' = sin(z) + 1
w' = 3
x(0) = 0; x'(0) = 1; z(0) = 0; w(0) = 0
`;
  it('every segment line of the text is in the js, as a comment', () => {
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'ds-r18-'));
    try {
      const file = join(dir, 'mix.delta');
      writeFileSync(file, MIX);
      const text = runCli(['transform', file]);
      const json = runCli(['transform', file, '--format', 'json']);
      const js = runCli(['transform', file, '--format', 'js']);
      expect(js.status, js.stderr).toBe(0);
      const segments = (JSON.parse(json.stdout) as { segments: { states: string[]; integration: string }[] }).segments;
      expect(segments.map((s) => [s.states.join(', '), s.integration.split(':')[0]])).toEqual([
        ['x, u1', 'closed form'],
        ['z', 'numerically'],
        ['w', 'closed form'],
      ]);
      const section = text.stdout.split('integration between events (closed form where the algebra allows)\n')[1];
      const lines = section.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length).toBe(4);
      for (const line of lines) expect(js.stdout).toContain(`// ${line}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
