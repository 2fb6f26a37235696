/**
 * Round 16, the command line and library layers (second helper):
 * 1. rows at listed times (outputTimes) around an event that radau5, or rodas over a stiff
 *    step, locates again on the solution: the rows stay in time order, a row after the instant
 *    has the values after it, and a run stopped there writes no row after the stop; sol(t)
 *    (dense: true) between the dense output's guess and the instant reads the step.
 * 2. transform --format js: the closed forms' header names what each array advances (it said
 *    "every part is a polynomial in the independent variable" above linear blocks' matrices).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';

/** the doubles k ulps (of t's binade) from t, for k in -n..n */
function aroundUlps(t: number, n: number): number[] {
  const ulp = 2 ** (Math.floor(Math.log2(t)) - 52);
  return Array.from({ length: 2 * n + 1 }, (_, k) => t + (k - n) * ulp);
}

/** rows in the run's time order, and a row at every listed time the run reached */
function expectOrdered(r: ReturnType<typeof simulate>, listed: number[]): void {
  const t = r.rows.map((row) => row[0]);
  for (let i = 1; i < t.length; i++) expect(t[i] >= t[i - 1], `row ${i}: ${t[i]} after ${t[i - 1]}`).toBe(true);
  const written = new Set(t);
  for (const x of listed) if (x <= r.final.t) expect(written.has(x), `a row at ${x}`).toBe(true);
}

describe('1. listed times around an event located again on the solution', () => {
  // y1' = -1e8 (y1^3 - y2), y2' = 1; where y1 - 0.8 rises, y2 := y2 - 0.5 and n := 1.
  // y1 follows y1^3 = y2 within 1e-8 of time: the event is at 0.512 + 1/(3 * 0.64)/1e8 to
  // O(1e-16) (radau5-events.test.ts). radau5 (and rodas over a stiff step) locate it on the
  // dense output and then again on the solution, a few ulps of t away (rodas: 2e-15 earlier).
  // Listed times every ulp around it: each row before the instant reads n = 0, each after
  // n = 1, and the rows are in time order. (The rows at the instant's own time are its two:
  // before (n = 0) and after (n = 1), after the listed time's left limit.)
  const STIFF = `model St
independent t from 0 to 1
parameter L = 1e8
discrete n = 0
event e when y1 - 0.8 rises do y2 := y2 - 0.5; n := n + 1 end
y1' = -L*(y1^3 - y2)
y2' = 1
y1(0) = 0; y2(0) = 0`;
  const at = 0.512 + 1 / (3 * 0.64) / 1e8;
  for (const method of ['radau5', 'rodas', 'auto'] as const)
    it(method, () => {
      const listed = aroundUlps(at, 48);
      const r = simulate(STIFF, { method, rtol: 1e-12, atol: 1e-15, outputTimes: listed });
      expect(r.status).toBe('ok');
      expect(r.events).toHaveLength(1);
      const te = r.events[0].t;
      // the location to the tolerance (radau5-events: within 1e-12 of the expansion)
      expect(Math.abs(te - at)).toBeLessThan(1e-12);
      expectOrdered(r, listed);
      const n = r.columns.indexOf('n');
      for (const row of r.rows) if (row[0] > te) expect(row[n], `row at ${row[0]}, event at ${te}`).toBe(1);
      for (const row of r.rows) if (row[0] < te) expect(row[n], `row at ${row[0]}, event at ${te}`).toBe(0);
    });

  // dense: true keeps each step's dense output up to the instant; the step was kept up to the
  // dense output's guess, and sol(t) between the guess and a later instant read no piece: the
  // end's values (n = 1, y2 = 0.5 at t = 0.512). y2' = 1 between events: y2 = t before the
  // instant and t - 0.5 after it, to rounding on every interpolant.
  for (const method of ['radau5', 'rodas', 'auto'] as const)
    it(`sol(t) around it: ${method}`, () => {
      const r = simulate(STIFF, { method, rtol: 1e-12, atol: 1e-15, dense: true });
      const te = r.events[0].t;
      for (const t of aroundUlps(te, 48)) {
        const v = r.sol!(t);
        if (t < te) {
          expect(v.n, `sol(${t}), event at ${te}`).toBe(0);
          expect(Math.abs(v.y2 - t)).toBeLessThan(1e-14);
        } else {
          expect(v.n, `sol(${t}), event at ${te}`).toBe(1);
          expect(Math.abs(v.y2 - (t - 0.5))).toBeLessThan(1e-14);
        }
      }
    });

  // y' = t, y(0) = 0 stops where y - 1 rises: at sqrt(2) = 1.41421356237309504880...
  // y = t^2/2 is a polynomial every method of order 2 and more integrates to rounding, so the
  // stop is within a few ulps of sqrt(2). Listed times every ulp around it: none after the
  // stop has a row, the last row is the stop's (the final values).
  const STOP = `model S
independent t from 0 to 5
event hit when y - 1 rises do stop end
y' = t
y(0) = 0`;
  for (const method of ['analytic', 'radau5', 'rodas', 'dopri5', 'dop853', 'rk4'] as const)
    it(`a stop: ${method}`, () => {
      const listed = aroundUlps(Math.SQRT2, 24);
      const r = simulate(STOP, { method, step: method === 'rk4' ? 0.01 : undefined, outputTimes: listed });
      expect(r.status).toBe('stopped');
      expect(Math.abs(r.final.t - Math.SQRT2)).toBeLessThan(16 * 2 ** -52);
      expectOrdered(r, listed);
      for (const row of r.rows) expect(row[0]).toBeLessThanOrEqual(r.final.t);
      expect(r.rows[r.rows.length - 1]).toEqual([r.final.t, r.final.y]);
    });
});

describe("2. the generated source's closed forms say what they advance", () => {
  // x'' = -k x (a linear block x, u1 with a delayed kick), z' = -z + delta(t^3 - 3t - 1) (a
  // linear block of one state, the kick at the root 2 cos(pi/9) found numerically), w' = t^2 +
  // delta(x - 0.1) (a polynomial of degree 3, a state event on the block's x)
  const CAP = `model C
independent t from 0 to 4
parameter d = 0.5, k = 2
event fire every 1 from 0.25
x'' = -k*x + delta(t - fire - d)
z' = -z + delta(t^3 - 3*t - 1)
w' = t^2 + delta(x - 0.1)
x(0) = 1; x'(0) = 0; z(0) = 1; w(0) = 0`;
  // (by slot and event index: the generated source holds no text of the model)
  it('linear blocks, a polynomial and an event on a block', () => {
    const source = compileModel(CAP).source;
    const header = source.slice(source.indexOf('// Closed forms of the analytic path'));
    expect(header.slice(0, header.indexOf('\n\n'))).toBe(
      [
        '// Closed forms of the analytic path (every part in closed form; h is the time advanced from t)',
        '// advance[k]: a clock group of polynomials, by their Taylor coefficients in h:',
        '//   [0] y[3]: degree 3',
        "// matrix[k]: a linear block's A and b, y' = A y + b, advanced by exp(A h):",
        '//   [0] y[0], y[1]',
        '//   [1] y[2]',
        "// gradient[k]: a state event's function affine in a linear block's states:",
        "//   [0] event 3: c and the constant of its function, c·(the block's states) + constant",
      ].join('\n'),
    );
  });
  it('polynomials only: a ball', () => {
    const source = compileModel(`model B
independent t from 0 to 5
event bounce when h falls
h'' = -9.81 - 1.8*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0`).source;
    expect(source).toContain(
      [
        '// advance[k]: a clock group of polynomials, by their Taylor coefficients in h:',
        '//   [0] y[0], y[1]: degree 2',
        "// coefficients[k]: a state event's function, a polynomial in h (its coefficients and their rounding):",
        '//   [0] event 0: degree 2',
      ].join('\n'),
    );
    expect(source).not.toContain('matrix[k]');
  });
});
