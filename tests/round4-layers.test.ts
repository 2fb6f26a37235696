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
