/**
 * Round 3 of the delta rules (issue 20 item 8, adversarial variants): a delta on the state
 * whose argument is visibly a square or an absolute value, scaled or negated by a constant
 * (-x^2, 2*x^2, x^2/a, 3*abs(x)) or through a named variable (sq = x^2, delta(sq)), touches
 * zero without crossing, so 1/|du/dt| is infinite there: a ModelError at the delta, as for
 * delta(x^2) itself. These were found only by the run, near the touch (a failure at
 * t = 0.99999617 for x = (t - 1)^2, whose touch is at t = 1), and not at all where the run
 * never reached the touch. The whole message is asserted.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, ModelError } from '../src/index.js';

const model = (argument: string) =>
  `independent t from 0 to 3\nparameter a = 2\nx' = 2*(t - 1)\nsq = x^2\ny' = delta(${argument})\nx(0) = 1; y(0) = 0`;

describe('a visibly even argument of a delta on the state is a model error', () => {
  it.each(['-x^2', '2*x^2', 'x^2*2', 'x^2/a', 'a*x^2', '3*abs(x)', '-abs(x)', 'sq', '-sq/2'])(
    'delta(%s)',
    (argument) => {
      let error: unknown;
      try {
        compileModel(model(argument), 'm.delta');
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toBe(
        `m.delta:5:6: the argument of delta(${argument}) touches zero without crossing it (a root of even multiplicity): the delta has no weight there, since 1/|d/dt (${argument})| is infinite\n  y' = delta(${argument})\n       ^\nWrite the delta of a quantity that crosses zero where the impulse acts, as delta(x) instead of delta(x^2).`,
      );
    },
  );

  it.each(['x', 'x - 2', '2*x - 1', 'x*y - 1', 'x^3 - 1'])('delta(%s) is not refused by the text', (argument) => {
    expect(() => compileModel(model(argument), 'm.delta')).not.toThrow();
  });
});
