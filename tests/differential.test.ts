/**
 * A differential oracle for the analytic path, opt-in (DIFF_N=2000 npx vitest run
 * tests/differential.test.ts; DIFF_SEED picks the sample): random polynomial and linear models
 * with state events, resets, deltas and time events, each run three ways. Two of them must agree
 * exactly, and the test asserts that: the analytic path recording rows and the ledger (its
 * general instant) and recording nothing (its one-event loop). The third, dop853 at rtol
 * 1e-12, is printed where it disagrees on the status, the event count or the final values:
 * such a pair has a wrong answer or a false diagnosis on one side, decided by hand (tests/
 * round5-noise.test.ts came from this list; tests/README.md, Differential, keeps what is left).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileModel,
  SimulationInputError,
  Simulator,
  type SimulateOptions,
  type SimulationResult,
} from '../src/index.js';

const N = Number(process.env.DIFF_N ?? 0);

// (values and thresholds on very different scales among them: events that coincide on
// scales 1e-6 and 1e6 apart, EVENTS.md 1)
const num = fc.constantFrom('0', '1', '-1', '0.5', '2', '-9.81', '3', '1e-3', '1e3', '0.25', '1e6', '-1e-6');
const fn = fc.constantFrom(
  'x',
  'x - 1',
  'x - y',
  'v',
  'z - 2',
  'y - 0.5',
  'x + v',
  'z - x',
  'y*y - 1',
  'x - 0.5*t',
  'x - 1e6',
  '1e6*x - y',
  'z - 1e-6',
);
const act = fc.constantFrom(
  'v := -0.8*v',
  'x := 0',
  'y := y + 1',
  'n := n + 1',
  'stop',
  'v := v',
  'v := -v',
  'x := x - 0.5',
  'k := -k',
  'x := 1e-6*x',
  'v := 0',
);
const model = fc.record({
  // (polynomial motions, and linear ones: a rotation, a damped one, a decay, a relaxation)
  xdd: fc.constantFrom('-9.81', 'k', '-1', '0', 'y', 't', '-k*t', '-x', '-4*x - 0.5*v', '-k*x + 1'),
  yd: fc.constantFrom('1', 'k', '0.5*t', '-1', 'n', '-y', '-k*y + 2'),
  zd: fc.constantFrom('x', 'y', '1', 'v', 'x - z'),
  x0: num,
  v0: num,
  y0: num,
  z0: num,
  events: fc.array(
    fc.tuple(fn, fc.constantFrom('rises', 'falls', 'crosses'), fc.array(act, { minLength: 1, maxLength: 2 })),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  timed: fc.option(fc.tuple(fc.constantFrom('at 1', 'every 0.5', 'at 0', 'at 2', 'every 0.1', 'at 1e-6'), act)),
  delta: fc.option(fc.constantFrom(' - 1.8*v*delta(t - e1)', ' + delta(t - 1)', ' + 2*delta(t - 0.75)')),
  end: fc.constantFrom('2', '5', '1'),
  options: fc.constantFrom<SimulateOptions>(
    {},
    { outputStep: 0.1 },
    { from: 0.5, init: { x: 1, y: 0, z: 0 } },
    { to: 0.9 },
    { init: { x: 0.3 } },
    { set: { k: 2 } },
    { probes: [0.5, 1] },
    { eventsOnly: true },
  ),
});

type Case = typeof model extends fc.Arbitrary<infer T> ? T : never;

/** The model's text: with a delta, v is x' (the velocity of a second-order equation). */
function text(c: Case): string {
  const lines = [`independent t from 0 to ${c.end}`, 'parameter k = 1', 'discrete n = 0'];
  c.events.forEach((e, i) => lines.push(`event e${i + 1} when ${e[0]} ${e[1]} do ${e[2].join('; ')} end`));
  if (c.timed) lines.push(`event tm ${c.timed[0]} do ${c.timed[1]} end`);
  if (c.delta) lines.push(`x'' = ${c.xdd}${c.delta}`, `x(0) = ${c.x0}; x'(0) = ${c.v0}`);
  else lines.push(`x' = v`, `v' = ${c.xdd}`, `x(0) = ${c.x0}; v(0) = ${c.v0}`);
  lines.push(`y' = ${c.yd}`, `z' = ${c.zd}`, `y(0) = ${c.y0}; z(0) = ${c.z0}`, 'output x, y, z, n');
  const body = lines.join('\n');
  return c.delta ? body.replace(/\bv\b(?!')/g, "x'") : body;
}

const near = (p: number, q: number, tol: number) =>
  Object.is(p, q) || Math.abs(p - q) <= tol * Math.max(1, Math.abs(p));
const agree = (a: SimulationResult, b: SimulationResult, tol: number) =>
  a.events.length === b.events.length && Object.keys(a.final).every((k) => near(a.final[k], b.final[k], tol));

describe.skipIf(N === 0)('the analytic path against itself and against dop853', () => {
  it(`${N} generated models`, () => {
    const cases = fc.sample(model, { numRuns: N, seed: Number(process.env.DIFF_SEED ?? 11) });
    let analytic = 0;
    const disagreements: string[] = [];
    for (const c of cases) {
      const source = text(c);
      let m;
      try {
        m = compileModel(source, 'differential.delta');
      } catch {
        continue;
      }
      const base: SimulateOptions = { ...c.options, maxSteps: 20_000, maxEvents: 300, maxRows: 20_000 };
      let a: SimulationResult;
      try {
        a = new Simulator(m).run(base);
      } catch (err) {
        // (a start without init, a method refused: input errors, not runs)
        if (err instanceof SimulationInputError) continue;
        throw err;
      }
      if (a.stats.method !== 'analytic') continue;
      analytic++;
      const quiet = new Simulator(m).run({ ...base, record: false, eventValues: false });
      expect({ status: quiet.status, message: quiet.message, agree: agree(a, quiet, 1e-12) }, source).toEqual({
        status: a.status,
        message: a.message,
        agree: true,
      });
      const r = new Simulator(m).run({ ...base, method: 'dop853', rtol: 1e-12, atol: 1e-14 });
      if (a.status !== r.status || (a.status === 'ok' && !agree(a, r, 1e-6)))
        disagreements.push(
          `${JSON.stringify(c.options)}\n${source}\nanalytic: ${a.status} ${a.message ?? ''} ${a.events.length} events ${JSON.stringify(a.final)}\ndop853:   ${r.status} ${r.message ?? ''} ${r.events.length} events ${JSON.stringify(r.final)}\n`,
        );
    }
    console.log(
      `${analytic} analytic models; ${disagreements.length} disagree with dop853:\n\n${disagreements.join('\n')}`,
    );
    expect(analytic).toBeGreaterThan(N / 4);
  }, 1_800_000);
});
