/**
 * Wrong answers with status ok found at the command line's and the library's layers in the
 * fourth round: runs that start elsewhere than the model's start, run backwards, or reuse one
 * Simulator, each against its exact answer or the run from the model's start.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import { transformReport } from '../src/report/print.js';

/** the instants of a run's events, and the counter n after the last */
const ticks = (r: ReturnType<typeof simulate>) => r.events.map((e) => e.t);

describe('a periodic event keeps its phase whatever range the run covers', () => {
  it('every 0.3 from 0 on a range from 2.1 ticks at 2.1 (the first tick was lost: n = 3, not 4)', () => {
    // (2.1 - 0)/0.3 is 7.000000000000001 in doubles: the first k was rounded up past 7
    const text =
      "independent t from 2.1 to 3\ndiscrete n = 0\nevent tick every 0.3 from 0 do n := n + 1 end\nx' = 1\nx(2.1) = 0";
    for (const method of ['auto', 'dopri5'] as const) {
      const r = simulate(text, { method });
      expect(r.status).toBe('ok');
      // 0.3 k for k = 7..10, the doubles nearest the decimals (the decimal grid of event-times.ts)
      expect(ticks(r)).toEqual([2.1, 2.4, 2.7, 3]);
      expect(r.final.n).toBe(4);
    }
    expect(transformReport(compileModel(text)).events[0].times).toEqual([2.1, 2.4, 2.7, 3]);
  });

  it('a run from the state at 0.45 (--from, init) ticks where the run from the model start does', () => {
    // every 0.3 without from: the model's start, 0, is its phase; the run from 0.45 ticked at
    // 0.45, 0.75, ... (an extra tick at its start, every later one 0.15 late)
    const text = "independent t from 0 to 2\ndiscrete n = 0\nevent tick every 0.3 do n := n + 1 end\nx' = 1\nx(0) = 0";
    const whole = simulate(text);
    expect(ticks(whole)).toEqual([0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8]);
    for (const method of ['auto', 'dopri5'] as const) {
      // x(0.45) = 0.45 and two ticks (0, 0.3) before it
      const r = simulate(text, { method, from: 0.45, init: { x: 0.45, n: 2 } });
      expect(r.status).toBe('ok');
      expect(ticks(r)).toEqual([0.6, 0.9, 1.2, 1.5, 1.8]);
      expect(r.final.n).toBe(whole.final.n);
      expect(Math.abs(r.final.x - 2)).toBeLessThan(1e-14);
    }
  });

  it('a run backwards from 2 to 0.5 undoes the kicks at 1.8, 1.5, ..., 0.6 (it kicked at 2, 1.7, ..., 0.5)', () => {
    // x'' = sum of delta(t - tick), ticks at 0.3 k from 0: forwards x'(2) = 7 and
    // x(2) = sum (2 - 0.3 k) over k = 0..6 = 7.7; at 0.5, x' = 2 (kicks at 0, 0.3) and x = 0.5 + 0.2 = 0.7
    const text = "independent t from 0 to 2\nevent tick every 0.3\nx'' = delta(t - tick)\nx(0) = 0; x'(0) = 0";
    const forward = simulate(text);
    expect(Math.abs(forward.final.x - 7.7)).toBeLessThan(1e-14);
    expect(forward.final["x'"]).toBe(7);
    const back = simulate(text, { from: 2, to: 0.5, init: { x: 7.7, "x'": 7 }, rtol: 1e-10, atol: 1e-12 });
    expect(back.status).toBe('ok');
    expect(ticks(back)).toEqual([1.8, 1.5, 1.2, 0.9, 0.6]);
    // (x is linear between kicks: dopri5 integrates it to rounding, a few ulps of 7.7 per step)
    expect(Math.abs(back.final.x - 0.7)).toBeLessThan(1e-12);
    expect(back.final["x'"]).toBe(2);
  });

  it('a model whose range runs backwards ticks from its start, where its initial values hold', () => {
    // from 2 to 0: ticks at 2, 1.7, ..., 0.2 (they were at 0, 0.3, ..., 1.8: the phase of the end)
    const text = "independent t from 2 to 0\nevent tick every 0.3\nx'' = delta(t - tick)\nx(2) = 0; x'(2) = 0";
    const r = simulate(text, { rtol: 1e-10, atol: 1e-12 });
    expect(r.status).toBe('ok');
    expect(ticks(r).map((t) => Math.round(t * 10) / 10)).toEqual([2, 1.7, 1.4, 1.1, 0.8, 0.5, 0.2]);
    expect(transformReport(compileModel(text)).events[0].times).toEqual(ticks(r));
  });
});

describe('a run from another start of a model with a delayed delta', () => {
  // spike at 0.4 kicks x' by 1 at 0.6: from the model's start x'(1) = 1 and x(1) = 0.4
  const text =
    "independent t from 0 to 1\nparameter D = 0.2\nevent spike at 0.4\nx'' = delta(t - spike - D)\nx(0) = 0; x'(0) = 0";

  it('is refused: the impulse on its way at 0.5 was lost (x(1) = 0, status ok)', () => {
    const whole = simulate(text);
    expect(whole.final["x'"]).toBe(1);
    expect(Math.abs(whole.final.x - 0.4)).toBeLessThan(1e-15);
    expect(() => simulate(text, { from: 0.5, init: { x: 0, "x'": 0 } })).toThrow(
      "from 0.5: delta(t - spike - D) (line 4) acts a delay after each spike, so impulses of occurrences before t = 0.5 may be on their way there, and init cannot give them. Start at t = 0, where Model states its initial values, or make t = 0.5 the start of the model's range",
    );
    // (the model's own start, said again, is no other start)
    expect(simulate(text, { from: 0, init: { x: 0, "x'": 0 } }).final).toEqual(whole.final);
  });
});

describe("the rows and ledger of an instant read an output's relations on their side", () => {
  const METHODS = ['auto', 'dopri5', 'rodas', 'rk4'] as const;

  it('G = 3*x while x < 0.5: the row before x reaches 0.5 shows 1.5 (the analytic path showed the held 0)', () => {
    // G = 3t up to t = 0.5, then held at 1.5: continuous, 1.5 on both sides of the instant
    const text = "independent t from 0 to 3\nG = 3*x while x < 0.5\nH = x while x > 2\nx' = 1\nx(0) = 0";
    for (const method of METHODS) {
      const r = simulate(text, { method, eventsOnly: true, dense: true });
      expect(r.status).toBe('ok');
      const [e] = r.events;
      // (the stepper's located x is a few ulps below 0.5: G within 8 ulps of 1.5)
      expect(Math.abs(e.pre.G - 1.5)).toBeLessThan(8 * Number.EPSILON);
      expect(Math.abs(e.post.G - 1.5)).toBeLessThan(8 * Number.EPSILON);
      expect(r.rows[1][2]).toBe(e.pre.G);
      // the dense solution's left limit is the ledger's pre, bit for bit
      expect(r.sol!(e.t, 'left')).toEqual(e.pre);
    }
  });

  it('G = if x < 0.5 then 1 else 2 at an event where x reaches 0.5: 1 before, 2 after, on every path', () => {
    // (before: the analytic path said 2, the value at the instant; after: the stepper said 1,
    // its located state a double short of 0.5; the action reads 1 before on both)
    const text =
      "independent t from 0 to 1\ndiscrete n = 0\nevent e when x - 0.5 rises do n := if x < 0.5 then 1 else 2 end\nG = if x < 0.5 then 1 else 2\nx' = 1\nx(0) = 0";
    for (const method of METHODS) {
      const r = simulate(text, { method, eventsOnly: true, dense: true });
      const [e] = r.events;
      expect([e.pre.G, e.post.G, e.post.n]).toEqual([1, 2, 1]);
      expect(r.rows.map((row) => row[3])).toEqual([1, 1, 2, 2]);
      expect(r.sol!(e.t, 'left')).toEqual(e.pre);
      expect(r.sol!(e.t)).toEqual(e.post);
      // a run that stops there ends after the instant, as its last row (the stepper's final said 1)
      const stopped = simulate(text.replace('n := if x < 0.5 then 1 else 2', 'n := 1; stop'), { method });
      expect(stopped.status).toBe('stopped');
      expect(stopped.final.G).toBe(2);
      expect(stopped.rows.at(-1)![3]).toBe(2);
    }
  });
});
