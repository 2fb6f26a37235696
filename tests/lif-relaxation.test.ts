/**
 * The crossing of an event function along a relaxation (a 1x1 linear block: a leaky membrane,
 * a one-compartment concentration) in closed form, s = log1p(-g0/P)/a
 * (src/analytic/relaxation-roots.ts): where it crosses, in which direction, where it cannot
 * (moving away, sitting at zero, past the horizon), and where the signs cannot be told, so
 * that the window scan decides (NaN).
 */
import { describe, expect, it } from 'vitest';
import { relaxationRoot } from '../src/analytic/relaxation-roots.js';
import { simulate } from '../src/index.js';

const EPS = Number.EPSILON;
/** g(s) = γ + P e^{as} as the predictor passes it: γ, P, a, their rounding */
const r = (gamma: number, P: number, a: number, bound = 1e-15) => Float64Array.from([gamma, P, a, bound, 0]);

describe('relaxationRoot', () => {
  it('a membrane charging towards I = 1.2 reaches the threshold 1 at tau ln(I/(I - 1))', () => {
    // g = v - 1, v = 1.2 - 1.2 e^{-s/10}: γ = 0.2, P = -1.2, g0 = -1
    const s = relaxationRoot(r(0.2, -1.2, -0.1), -1, 1e-15, false, 1, Infinity);
    expect(Math.abs(s - 10 * Math.log(6))).toBeLessThanOrEqual(4 * EPS * s);
    // rising only: the falling event never fires
    expect(relaxationRoot(r(0.2, -1.2, -0.1), -1, 1e-15, false, -1, Infinity)).toBe(Infinity);
    // past the horizon
    expect(relaxationRoot(r(0.2, -1.2, -0.1), -1, 1e-15, false, 1, 17)).toBe(Infinity);
  });

  it('a growth crosses where it leaves the side of P behind: x = e^{s/2} reaches 2 at 2 ln 2', () => {
    // g = x - 2 with x' = x/2: γ = -2 (x_eq = 0), P = 1, g0 = -1
    const s = relaxationRoot(r(-2, 1, 0.5), -1, 1e-15, false, 0, Infinity);
    expect(Math.abs(s - 2 * Math.log(2))).toBeLessThanOrEqual(4 * EPS);
    // already beyond 2 and growing: never back
    expect(relaxationRoot(r(-2, 3, 0.5), 1, 1e-15, false, 0, Infinity)).toBe(Infinity);
  });

  it('a root close to the instant keeps its digits (log1p, not log of a ratio near 1)', () => {
    const g0 = -1e-9;
    // g = γ - e^{-s} with γ = 1 + g0: e^{-s} = 1 + g0, s = -log1p(g0), to a few ulps of s
    const s = relaxationRoot(r(1 + g0, -1, -1), g0, 1e-16, false, 1, Infinity);
    expect(Math.abs(s - -Math.log1p(g0))).toBeLessThanOrEqual(4 * EPS * s);
  });

  it('no crossing: decaying to a value on its own side, sitting at zero, or nothing moving it', () => {
    expect(relaxationRoot(r(-0.5, -0.5, -0.1), -1, 1e-15, false, 0, Infinity)).toBe(Infinity);
    expect(relaxationRoot(r(0.2, -1.2, -0.1), -1, 1e-15, true, 1, Infinity)).toBe(Infinity);
    expect(relaxationRoot(r(-1, 1e-17, -0.1), -1, 1e-15, false, 0, Infinity)).toBe(Infinity);
  });

  it('a decay onto its zero itself, or a value within rounding of zero: NaN, the scan decides', () => {
    expect(relaxationRoot(r(1e-17, -1, -0.1), -1, 1e-15, false, 1, Infinity)).toBeNaN();
    expect(relaxationRoot(r(0.2, -1.2, -0.1), 1e-17, 1e-15, false, 1, Infinity)).toBeNaN();
  });
});

describe('relaxations on the analytic path', () => {
  it('a membrane whose input is exactly the threshold never fires (the scan decides: no crossing)', () => {
    const r = simulate(
      `independent t from 0 to 1000
parameter tau = 10, I = 1, vth = 1
event spike when V - vth rises do V := 0 end
V' = (I - V)/tau
V(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(0);
  });

  it('a growth to a threshold and a reset: x = e^{t/2} from 1, reset to 1 at 2, every 2 ln 2', () => {
    const r = simulate(
      `independent t from 0 to 10
event full when x - 2 rises do x := 1 end
x' = x/2
x(0) = 1`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    const T = 2 * Math.log(2);
    expect(r.events).toHaveLength(Math.floor(10 / T));
    r.events.forEach((e, i) => expect(Math.abs(e.t - (i + 1) * T)).toBeLessThanOrEqual(4 * (i + 1) * EPS * e.t));
  });
});
