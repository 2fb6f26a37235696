/**
 * Delayed deltas, `delta(t - E - D)` (rule 2, delayed; docs/language.md): each occurrence of
 * event E at t_E is an impulse at t_E + D, its weight read just before t_E + D. What the
 * network of examples/lif_network.delta is made of, one property at a time, on the stepper
 * and on the analytic path: the times (exact: t_E + D in two doubles), impulses in flight
 * while E fires again, the ends of the range, weights at the arrival, the forms `transform`
 * prints, and the errors (a delay that is not positive, a run backwards).
 */
import { describe, expect, it } from 'vitest';
import { analyseModel, compileModel, formatLatex, formatText, simulate, transformReport } from '../src/index.js';
import { splitLinear, classifyArgument } from '../src/transform/delta-rules.js';
import { toText } from '../src/expression/expr.js';
import { modelErrorOf } from './helpers.js';
import { EVERY_STEPPER } from './methods.js';

/** a decaying x kicked by J each time a delay d after each tick (every 1 from 0.5) */
const kicked = (end: number, extra = '') => `model Kicked
independent t from 0 to ${end}
parameter k = 0.5, J = 2, d = 0.25
event tick every 1 from 0.5
x' = -k*x + J*delta(t - tick - d)${extra}
x(0) = 1`;

/** x at T for a decay from x(0) = 1 with kicks of J at the times given */
function decayed(T: number, kicks: number[], J = 2, k = 0.5): number {
  let x = Math.exp(-k * T);
  for (const tk of kicks) x += J * Math.exp(-k * (T - tk));
  return x;
}

const PATHS = [
  ['analytic', {}],
  ['dopri5', { method: 'dopri5' as const, rtol: 1e-12, atol: 1e-14 }],
] as const;

describe('delta(t - E - D): the argument classes', () => {
  const classOf = (arg: string) => {
    const m = analyseModel(
      `parameter d = 0.5\nevent hit when x - 1 rises\nx'' = delta(${arg})\nx(0) = 0; x'(0) = 1`,
      'm.delta',
    );
    const [term] = splitLinear(m.states[0].solved, m.reporter).terms;
    const c = classifyArgument(term, 't', m.kinds, m.reporter);
    return c.kind === 'delayed' ? { ...c, delay: toText(c.delay) } : c;
  };

  it.each([
    ['t - hit - d', 'd'],
    ['t - (hit + 2*d)', '2*d'],
    ['hit - t + 0.5', '0.5'],
    ['t - d - hit', 'd'],
  ])('%s is hit delayed by %s', (arg, delay) => {
    expect(classOf(arg)).toEqual({ kind: 'delayed', event: 'hit', delay });
  });

  it('a delay of zero is the event itself', () => {
    expect(classOf('t - hit - 0')).toEqual({ kind: 'event', event: 'hit' });
  });

  it('a negative delay, or one that is not made of parameters, is a model error at the delta', () => {
    const negative = modelErrorOf("event hit when x - 1 rises\nx'' = delta(t - hit + 1)\nx(0) = 0; x'(0) = 1");
    expect(negative.what).toBe(
      'the delay of delta(t - hit + 1) after hit is -1: an impulse cannot act before the event that causes it',
    );
    expect([negative.line, negative.column]).toEqual([2, 7]);
    expect(modelErrorOf("event hit when x - 1 rises\nx'' = delta(t - hit - x)\nx(0) = 0; x'(0) = 1").what).toBe(
      'an event name can only be used as delta(t - hit), or delayed as delta(t - hit - D) with D made of parameters',
    );
  });
});

describe('delta(t - E - D): when the impulses act', () => {
  it.each(PATHS)('%s: D after each occurrence, the weight added to the decaying state', (_, options) => {
    const r = simulate(kicked(5), options);
    expect(r.status).toBe('ok');
    if (!('method' in options)) expect(r.stats.method).toBe('analytic');
    const kicks = r.events.filter((e) => e.name === 'delta(t - tick - d)');
    expect(kicks.map((e) => e.t)).toEqual([0.75, 1.75, 2.75, 3.75, 4.75]);
    expect(kicks.every((e) => e.kind === 'time' && e.source === 'J*delta(t - tick - d)')).toBe(true);
    expect(r.events.filter((e) => e.name === 'tick').map((e) => e.t)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
    expect(Math.abs(r.final.x - decayed(5, [0.75, 1.75, 2.75, 3.75, 4.75]))).toBeLessThanOrEqual(1e-12);
  });

  it.each(PATHS)('%s: impulses in flight while the event fires again (D longer than its period)', (_, options) => {
    const r = simulate(kicked(6), { ...options, set: { d: 2.5 } });
    const kicks = r.events.filter((e) => e.name === 'delta(t - tick - d)').map((e) => e.t);
    expect(kicks).toEqual([3, 4, 5, 6]);
    // the last at the end of the range counts (as a delta at the end does); those past it do not
    expect(Math.abs(r.final.x - decayed(6, kicks))).toBeLessThanOrEqual(1e-12);
  });

  it.each(PATHS)('%s: the weight is read just before the arrival, not at the event', (_, options) => {
    // x' = -k x + x delta(t - tick - d): each arrival doubles x as it is then (deltaRule left)
    const r = simulate(
      `independent t from 0 to 3
parameter k = 0.5, d = 0.25
event tick every 1 from 0.5
x' = -k*x + x*delta(t - tick - d)
x(0) = 1`,
      options,
    );
    expect(r.events.filter((e) => e.name.startsWith('delta')).map((e) => e.t)).toEqual([0.75, 1.75, 2.75]);
    expect(Math.abs(r.final.x - 8 * Math.exp(-1.5))).toBeLessThanOrEqual(1e-12);
  });

  it.each(PATHS)('%s: after a state event, at its located time plus D', (_, options) => {
    // y = t crosses 1 at t = 1; z gets 3 at 1.5
    const r = simulate(
      `independent t from 0 to 2
event one when y - 1 rises
y' = 1
z' = 3*delta(t - one - 0.5)
y(0) = 0; z(0) = 0`,
      options,
    );
    const arrival = r.events.find((e) => e.name.startsWith('delta'))!;
    expect(Math.abs(arrival.t - 1.5)).toBeLessThanOrEqual(4 * Number.EPSILON);
    expect(r.final.z).toBe(3);
  });

  it.each(
    [...EVERY_STEPPER.filter(([m]) => m !== 'rk4'), ['analytic', {}] as const].flatMap(([method, tol]) =>
      [
        [0.5, 3],
        [0.25, 2.75],
        [0.1, 2.6],
      ].map(([d, end]) => [method, d, end, tol] as const),
    ),
  )("%s: a state event's impulse due at the end in exact arithmetic counts (D = %s, end %s)", (method, d, end, tol) => {
    // x = t - 0.5 (mod 1) reaches 1 at 0.5, 1.5, 2.5: the last impulse is due at the end
    // exactly, and a cause located an ulp or a few late must not push it out of the range.
    // (rk4's fixed steps let x drift by dozens of ulps over a range: an integration error,
    // not the location's rounding, which is all this allowance covers.)
    const r = simulate(
      `independent t from 0 to ${end}
parameter d = ${d}
event e when x - 1 rises do x := 0 end
y' = delta(t - e - d)
x' = 1
x(0) = 0.5; y(0) = 0`,
      { method, ...tol },
    );
    expect(r.status).toBe('ok');
    expect(r.final.y).toBe(3);
  });

  it('a delay that a run makes zero, or a run backwards, fails with what to do', () => {
    const zero = simulate(kicked(5), { set: { d: 0 } });
    expect(zero.status).toBe('failed');
    expect(zero.message).toBe(
      'the delay of delta(t - tick - d) is 0; it must be a positive number (an impulse cannot act before the event that causes it)',
    );
    const back = simulate(kicked(5), { from: 5, to: 0, init: { x: 1 } });
    expect(back.status).toBe('failed');
    expect(back.message).toBe(
      'delta(t - tick - d) acts a delay after an event: a run backwards in time would meet the impulse before its cause',
    );
  });
});

describe('delta(t - E - D): what transform shows', () => {
  const model = compileModel(kicked(5), 'kicked.delta');
  const report = transformReport(model);
  const ev = report.events.find((e) => e.name === 'delta(t - tick - d)')!;

  it('text: the delay after the event, with its value', () => {
    expect(formatText(report)).toContain(
      '  delta(t - tick - d)  [time] d after each tick (d = 0.25)\n      from: J*delta(t - tick - d)\n      S1 := S1 + J',
    );
  });

  it('JSON: the event followed and the delay, as written and its value', () => {
    expect(ev).toMatchObject({ kind: 'time', times: [], delay: { after: 'tick', by: 'd', value: 0.25 } });
  });

  it('LaTeX: the arrival time', () => {
    expect(formatLatex(model.system, report)).toContain(
      '\\item \\texttt{delta(t - tick - d)} at $t = t_{\\mathit{tick}} + d$ for each occurrence of \\texttt{tick}: $S_{1} \\leftarrow S_{1} + J$',
    );
  });

  it('JavaScript: the delay is a scalar of the parameters, no text of the model', () => {
    expect(model.source).toMatch(/return p\[\d+\];/);
  });
});
