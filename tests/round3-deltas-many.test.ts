/**
 * Round 3 of the delta rules (issue 20 item 11, adversarial variant): one sum of N deltas,
 * `y' = sum(i in 1:N, delta(t - i/N))` on [0, 1], at N = 1e5.
 *
 * - Each term's source was found by looking through all N terms of the side and printing the
 *   argument of each at the same place (the copies of a sum share one span): quadratic, half
 *   a minute at N = 8000 and minutes at 2e4, before the first step.
 * - Each time event's argument, slope and exact root were scalar functions taken in turn
 *   (u, u', root, u, u', root, ...), so no loop's copies stood side by side to fold: 3e5
 *   functions whose list V8 could not compile ("Maximum call stack size exceeded", an
 *   internal error) at N = 1e5.
 *
 * Exact: the roots i/N are all in [0, 1] (the last, 1, at the end of the range, counts), each
 * of weight 1: y(1) = N, with N events. The sum of N ones is exact in doubles.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('a sum of 1e5 deltas in one equation', () => {
  it('transforms, compiles and runs: y = N', { timeout: 120_000 }, () => {
    const N = 100_000;
    const run = simulate(
      `independent t from 0 to 1\nparameter N = ${N}\ny' = sum(i in 1:N, delta(t - i/N))\ny(0) = 0`,
      {
        eventsOnly: true,
      },
    );
    expect(run.status).toBe('ok');
    expect(run.stats.events).toBe(N);
    expect(run.final.y).toBe(N);
  });
});
