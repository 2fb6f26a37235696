/**
 * Round 3 of the delta rules (issue 20, adversarial delta arguments of rule 1): arguments
 * whose weight 1/|u'| at a root has no value are refused with a message that says why, with
 * the whole message asserted.
 *
 * - A piecewise constant argument (step(t - 1) - 0.5, sign(t - 1), an if of constants) jumps
 *   across zero: its derivative is zero wherever it has one. It was called "identically
 *   zero", which it is nowhere; t - t, which is, keeps that message.
 * - sign(t - 1)*abs(t - 1)^0.5 crosses zero at t = 1 where its derivative, as written, is
 *   0 times infinity: not a number. The jump was NaN and the run failed at its end with
 *   "S1 is NaN at t = 3"; now the schedule says so at the root, before the run (the command
 *   line shows it as FILE:LINE:COL at the delta, as every schedule error).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, ModelError, simulate } from '../src/index.js';

const messageOf = (argument: string): string => {
  try {
    compileModel(`independent t from 0 to 3\ny' = delta(${argument})\ny(0) = 0`, 'm.delta');
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return (err as ModelError).message;
  }
  const run = simulate(`independent t from 0 to 3\ny' = delta(${argument})\ny(0) = 0`);
  return `no model error: status ${run.status}, ${run.message}`;
};

describe('a piecewise constant delta argument jumps across zero: no weight', () => {
  it.each([
    ['step(t - 1) - 0.5', 'step(t-1) - 0.5'],
    ['sign(t - 1)', 'sign(t-1)'],
    ['if t < 1 then -1 else 1', 'if t < 1 then -1 else 1'],
  ])('delta(%s)', (printed, written) => {
    expect(messageOf(written)).toBe(
      `m.delta:2:6: the argument of delta(${printed}) is piecewise constant in t (its derivative is zero wherever it has one): it jumps across zero instead of crossing it, so the weight 1/|d/dt (${printed})| has no value\n  y' = delta(${written})\n       ^\nFor an impulse where a switch flips, write the instant itself, as in delta(t - 1), or an event with an action.`,
    );
  });

  it('t - t is still identically zero', () => {
    expect(messageOf('t - t')).toBe(
      "m.delta:2:6: the argument of delta(t - t) is identically zero, so the delta has no instant to sit at\n  y' = delta(t - t)\n       ^\nA delta's argument must cross zero at the instants it acts, as in delta(t - 1).",
    );
  });
});

describe('a root where the slope of the argument is not a number', () => {
  it('sign(t - 1)*abs(t - 1)^0.5 at t = 1: the run fails before it starts and says why', () => {
    const run = simulate("independent t from 0 to 3\ny' = delta(sign(t-1)*abs(t-1)^0.5)\ny(0) = 0");
    expect(run.status).toBe('failed');
    expect(run.message).toBe(
      "the argument of delta(sign(t - 1)*abs(t - 1)^0.5) has no slope at its root 1 (its derivative is not a number there), so the weight 1/|u'| of that root is unknown",
    );
    expect(run.final).toEqual({ t: 0, y: 0 });
  });

  it('a root with a finite slope keeps its weight: delta(t^3 - 1) on [0, 3] is 1/3 at t = 1', () => {
    const run = simulate("independent t from 0 to 3\ny' = delta(t^3 - 1)\ny(0) = 0");
    expect(run.status).toBe('ok');
    // (one jump of 1/3 on a constant: the sum 0 + 1/3 rounds to the double nearest 1/3)
    expect(run.final.y).toBe(1 / 3);
  });
});

describe('a delta on the state whose argument does not move through zero', () => {
  // (found by the run as a touch, "a root of even multiplicity", or run with status ok and no
  // impulse: x - x, n - 1 for a discrete n that an action sets)
  const model = (argument: string) =>
    `independent t from 0 to 3\ndiscrete n = 0\nevent e at 1 do n := 2 end\nx' = 1\ny' = delta(${argument})\nx(0) = 0; y(0) = 0`;
  const errorOf = (argument: string): string => {
    try {
      compileModel(model(argument), 'm.delta');
    } catch (err) {
      expect(err).toBeInstanceOf(ModelError);
      return (err as ModelError).message;
    }
    return 'no model error';
  };
  const hint =
    'Write the delta of a quantity that moves through zero where the impulse acts, as delta(x - 1), or an event with an action for an impulse where a switch flips.';

  it.each([
    ['step(x - 1) - 0.5', 'step(x-1) - 0.5'],
    ['sign(x - 1)', 'sign(x - 1)'],
    ['if x < 1 then -1 else 1', 'if x < 1 then -1 else 1'],
  ])('delta(%s) jumps across zero: a model error', (printed, written) => {
    expect(errorOf(written)).toBe(
      `m.delta:5:6: the argument of delta(${printed}) is piecewise constant along the motion (its rate is zero wherever it has one): it jumps across zero instead of crossing it, so the weight 1/|d/dt (${printed})| has no value\n  y' = delta(${written})\n       ^\n${hint}`,
    );
  });

  it.each(['x - x', 'n - 1'])('delta(%s) does not move: a model error', (argument) => {
    expect(errorOf(argument)).toBe(
      `m.delta:5:6: the argument of delta(${argument}) does not move with the motion (its rate d/dt (${argument}) is zero): it never crosses zero, so the delta has no instant with a weight 1/|d/dt (${argument})|\n  y' = delta(${argument})\n       ^\n${hint}`,
    );
  });

  it("delta(x - 1) still crosses, at t = 1 with weight 1/|x'| = 1", () => {
    const run = simulate(model('x - 1'));
    expect(run.status).toBe('ok');
    expect(run.final.y).toBe(1);
  });
});

describe('a weight that is not a finite number, seen in the text', () => {
  // (the jump was infinite or NaN and the run failed at its end on "S1 is Infinity at t = 3")
  it.each([
    ['delta(t - 1)/0', 'delta(t-1)/0', 7, 'Infinity', "y'"],
    ['(1/0 - 1/0)*delta(t - 1)', '(1/0 - 1/0)*delta(t-1)', 19, 'NaN', "y'"],
    ["delta'(t - 1)/0", "delta'(t-1)/0", 7, 'Infinity', 'y'],
  ])('%s: a model error at the delta', (printed, written, column, value, level) => {
    let error: unknown;
    try {
      compileModel(`independent t from 0 to 3\ny'' = ${written}\ny(0) = 0; y'(0) = 0`, 'm.delta');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      `m.delta:2:${column}: the weight of ${printed} is ${value}, not a finite number, so the jump of ${level} it makes has no value\n  y'' = ${written}\n  ${' '.repeat(column - 1)}^\nGive the delta a finite weight (a division by zero, or a number too large for double precision, makes it infinite).`,
    );
  });
});
