/**
 * Round 17, end: the watched functions' rounding bound as a running error bound (Emitter.rounding)
 * instead of 8 ulps of the magnitudes each function adds up.
 *
 * The models are round 16's (tests/round16-end.test.ts): u' = u from 1, thresholds
 * u - exp(k eps). Exact answers: u = e^t, so u - exp(k eps) crosses zero once, at t = k eps
 * (ln(exp(k eps)) = k eps to 1e-30; exp(k eps) rounds to 1 + k eps, and u - c is exact by
 * Sterbenz). The running bound gives u - c exp's ulp (eps) plus the 8 ulps a state carries
 * (a stepper's accumulated rounding): 9 eps, and the band (4 x) 36 eps, where 8 ulps of
 * |u| + |c| made 64 eps.
 *
 * Then the bound's soundness: for random operands, |computed - exact| <= bound, the exact value
 * by rational arithmetic (BigInt) on the same double inputs, exp and sqrt to 2^-300.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import type { MethodName } from '../src/index.js';

const eps = Number.EPSILON;
const model = (range: number, ks: number[]) => `parameter ep = 2.220446049250313e-16
independent t from 0 to ${range}*2.220446049250313e-16
discrete ${ks.map((_, i) => `c${i + 1} = 0`).join(', ')}
${ks.map((k, i) => `event e${i + 1} when u - exp(${k}*ep) crosses do c${i + 1} := c${i + 1} + 1 end`).join('\n')}
u' = u
u(0) = 1`;

describe("round 16's open cases, with the running bound (band 36 eps)", () => {
  // [0, 1000 eps], threshold 10 eps: one event at 10 eps. u - c is -10 eps at t = 0, outside
  // the analytic path's band: its linear block's crossing is found from the start. Was: none,
  // status ok (u - c within its band, 64 eps, read as at rest at the start).
  // (2 eps: u's dense output resolves t to a few ulps of 1 near t = 0: 1 eps of u is 1 eps of t)
  it('auto: [0, 1000 eps], threshold 10 eps: one event at 10 eps', () => {
    const r = simulate(model(1000, [10]), { method: 'auto', eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events).toHaveLength(1);
    expect(Math.abs(r.events[0].t - 10 * eps)).toBeLessThan(2 * eps);
  });

  // OPEN (it.fails): [0, 1000 eps], k = 50..90: exact, five events, each at k eps. The
  // steppers give e1..e4 at 49.22 eps and e5 at 89.6 eps, status ok (was: all five at 49.22):
  // at e1's instant e2..e4 are -10.8, -20.8 and -30.8 eps, within their band (36 eps), heading
  // across, so coincident (EVENTS.md 2). Their actual rounding is exp's ulp: u, one step from
  // its exact initial value, is within an ulp of e^t. The 8 ulps a state carries in the bound
  // stand for a stepper's accumulated rounding (radau5 ends x' = 3 on [0, 1] at 3 - 8 ulps,
  // tests/range-ends; dop853 leaves 19 ulps of 0.5 in x = u + S, tests/round10-zerorate),
  // which the generated bound cannot know: it needs each state's accumulated rounding from
  // the run (an error estimate kept beside y and passed to the bound), not a fixed weight.
  it.fails.each(['dopri5', 'rodas'] as MethodName[])(
    '%s: [0, 1000 eps], five thresholds, each at k eps (e1..e4 fire at 49.22 eps)',
    (method) => {
      const r = simulate(model(1000, [50, 60, 70, 80, 90]), { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.events).toHaveLength(5);
      [50, 60, 70, 80, 90].forEach((k, i) => expect(Math.abs(r.events[i].t - k * eps)).toBeLessThan(2 * eps));
    },
  );

  // [0, 300 eps], threshold 250 eps: one event, 50 eps from the end, beyond the band (36 eps).
  // Was: none, status ok (within 64 eps of the end, dropped as the end's).
  it.each(['auto', 'dopri5'] as MethodName[])('%s: [0, 300 eps], threshold 250 eps: one event', (method) => {
    const r = simulate(model(300, [250]), { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events).toHaveLength(1);
    expect(Math.abs(r.events[0].t - 250 * eps)).toBeLessThan(2 * eps);
  });

  // OPEN (it.fails, found in round 17, as before it): [0, 10 eps], threshold 5 eps: exact, one
  // event at 5 eps. auto gives none, status ok; the steppers fail, "precision ran out" (the
  // end's rule: the function never leaves twice its band, 36 eps, over the range). On the
  // analytic path u - c is -5 eps at t = 0, within its band, and is read as at rest at the
  // start, whose crossing is no event. Needs the start's rule to do what the end's does
  // (range-ends.ts, crossingAtEnd): a function within twice its band over the whole range is
  // unresolved, not at rest. Status ok with 0 events is the wrong answer; "failed" would do.
  it.fails('auto: [0, 10 eps], threshold 5 eps: an event at 5 eps or "precision ran out" (gives none, ok)', () => {
    const r = simulate(model(10, [5]), { method: 'auto', eventsOnly: true });
    if (r.status === 'ok') {
      expect(r.events).toHaveLength(1);
      expect(Math.abs(r.events[0].t - 5 * eps)).toBeLessThan(2 * eps);
    } else expect(r.message).toMatch(/^precision ran out/);
  });
});

// ---------- exact rational arithmetic on doubles ----------
type Q = { n: bigint; d: bigint };
const B = (v: number): Q => {
  if (!Number.isFinite(v)) throw new Error('finite only');
  if (v === 0) return { n: 0n, d: 1n };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const ex = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = ex === 0 ? frac : frac | (1n << 52n);
  const e2 = (ex === 0 ? 1 : ex) - 1075;
  return e2 >= 0 ? { n: sign * mant * (1n << BigInt(e2)), d: 1n } : { n: sign * mant, d: 1n << BigInt(-e2) };
};
const add = (a: Q, b: Q): Q => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const neg = (a: Q): Q => ({ n: -a.n, d: a.d });
const mul = (a: Q, b: Q): Q => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: Q, b: Q): Q => (b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n } : { n: a.n * b.d, d: a.d * b.n });
// to 2^-300 (fixed point): exp by its series after halving, sqrt by the integer square root
const SCALE = 300n;
const fixed = (a: Q): bigint => (a.n << SCALE) / a.d;
const fromFixed = (x: bigint): Q => ({ n: x, d: 1n << SCALE });
const expQ = (a: Q): Q => {
  let x = fixed(a),
    halvings = 0n;
  while ((x < 0n ? -x : x) > 1n << (SCALE - 4n)) {
    x >>= 1n;
    halvings++;
  }
  let term = 1n << SCALE,
    sum = term;
  for (let k = 1n; k < 80n; k++) {
    term = (term * x) / (k << SCALE);
    sum += term;
  }
  for (; halvings > 0n; halvings--) sum = (sum * sum) >> SCALE;
  return fromFixed(sum);
};
const isqrt = (n: bigint): bigint => {
  if (n < 2n) return n;
  // (Newton from above: a power of two at or over the root)
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
};
// sin by its series, for |x| < 30 (400 terms at 2^-300 leave far less than an ulp)
const sinQ = (a: Q): Q => {
  const x = fixed(a);
  let term = x,
    sum = x;
  for (let k = 1n; k < 400n; k++) {
    term = -(term * x * x) / ((2n * k * (2n * k + 1n)) << (2n * SCALE));
    sum += term;
  }
  return fromFixed(sum);
};
const qNumber = (a: Q): number => Number((a.n << 64n) / a.d) / 2 ** 64;
const sqrtQ = (a: Q): Q => fromFixed(isqrt(fixed(a) << SCALE));
const absDiff = (v: number, exact: Q): number => {
  const d = add(B(v), neg(exact));
  const n = d.n < 0n ? -d.n : d.n;
  // |n/d| as a double, rounded up by a hair (the comparison below has room of its own)
  return (Number((n << 64n) / d.d) / 2 ** 64) * (1 + 1e-12) + (n === 0n ? 0 : 2 ** -1074);
};

describe('the running bound is a bound: |computed - exact| <= boundOne on random operands', () => {
  // states x, y, z, w; parameters a, b. Each event's function as the model writes it, and
  // the same expression in exact arithmetic on the same doubles.
  const cases: [string, (x: Q, y: Q, z: Q, w: Q, a: Q, b: Q) => Q | null][] = [
    ['x - y', (x, y) => add(x, neg(y))],
    ['x*y - z*w', (x, y, z, w) => add(mul(x, y), neg(mul(z, w)))],
    ['(x - y)/(z + w)', (x, y, z, w) => div(add(x, neg(y)), add(z, w))],
    ['x^2 - y^3 + z^4', (x, y, z) => add(add(mul(x, x), neg(mul(mul(y, y), y))), mul(mul(z, z), mul(z, z)))],
    ['a*x + b - y/a', (x, y, _z, _w, a, b) => add(add(mul(a, x), b), neg(div(y, a)))],
    ['exp(x - y) - z', (x, y, z) => add(expQ(add(x, neg(y))), neg(z))],
    ['sqrt(x*x + y*y) - z', (x, y, z) => add(sqrtQ(add(mul(x, x), mul(y, y))), neg(z))],
    ['x*(y - z)*(y - z) - w', (x, y, z, w) => add(mul(mul(x, add(y, neg(z))), add(y, neg(z))), neg(w))],
    ['1/(x + y) - z', (x, y, z) => add(div({ n: 1n, d: 1n }, add(x, y)), neg(z))],
    ['sin(x*y) - z', (x, y, z) => (Math.abs(qNumber(mul(x, y))) < 30 ? add(sinQ(mul(x, y)), neg(z)) : null)],
  ];
  const text = `parameter a = 1.7, b = -0.3
discrete n = 0
${cases.map(([g], k) => `event g${k} when ${g} crosses do n := n + 1 end`).join('\n')}
x' = 0; y' = 0; z' = 0; w' = 0
x(0) = 1; y(0) = 1; z(0) = 1; w(0) = 1`;
  const m = compileModel(text);
  // a small deterministic generator (xorshift32) of operands that cancel: y near x, z near the function's other terms
  let seed = 0x9e3779b9;
  const rand = () => {
    seed ^= seed << 13;
    seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    seed >>>= 0;
    return seed / 2 ** 32;
  };
  const near = (v: number) => v * (1 + (rand() - 0.5) * 2 ** -(1 + Math.floor(rand() * 52)));

  it.each(cases.map((c, k) => [c[0], k] as const))('%s', (_g, k) => {
    const [, exact] = cases[k];
    const idx = (name: string) => m.stateNames.indexOf(name);
    const p = new Float64Array(m.paramNames.length),
      d = new Float64Array(m.nDiscrete),
      sw = new Float64Array(m.nSwitch),
      y = new Float64Array(m.nStates);
    let worst = 0;
    for (let i = 0; i < 1000; i++) {
      const x = (rand() - 0.3) * 4 * 10 ** Math.floor(rand() * 6 - 3);
      const vals: Record<string, number> = { x, y: near(x), z: rand() * 3, w: near(x * x) };
      const pa = 0.5 + rand() * 2,
        pb = rand() - 0.5;
      p[m.paramNames.indexOf('a')] = pa;
      p[m.paramNames.indexOf('b')] = pb;
      for (const s of ['x', 'y', 'z', 'w']) y[idx(s)] = vals[s];
      // (z set where the function is near zero: the terms before it, as evaluated, nudged)
      const w = m.events[k].watchIndex;
      y[idx('z')] = 0;
      const partial = m.watchOne[w](0, y, p, d, sw);
      y[idx('z')] = vals.z;
      if (Number.isFinite(partial) && _g.endsWith('- z')) y[idx('z')] = near(partial);
      const v = m.watchOne[w](0, y, p, d, sw),
        bound = m.boundOne[w](0, y, p, d, sw);
      if (!Number.isFinite(v) || !Number.isFinite(bound)) continue;
      const exactValue = exact(B(y[idx('x')]), B(y[idx('y')]), B(y[idx('z')]), B(y[idx('w')]), B(pa), B(pb));
      if (exactValue === null) continue;
      const err = absDiff(v, exactValue);
      expect(
        err,
        `${_g} at x=${y[idx('x')]}, y=${y[idx('y')]}, z=${y[idx('z')]}, w=${y[idx('w')]}`,
      ).toBeLessThanOrEqual(bound);
      worst = Math.max(worst, err / bound);
    }
    // (and not vacuous: the largest error takes a part of its bound, 0.007 to 0.8 of it (the
    // states' 8 ulps are most of it where they are read), but for x - y, exact here by
    // Sterbenz: y is within a factor 1.25 of x)
    if (_g !== 'x - y') expect(worst).toBeGreaterThan(1e-3);
  });
});
