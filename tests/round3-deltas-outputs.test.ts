/**
 * Round 3 of the delta rules (issue 20): a named variable defined with a delta has no value
 * at an instant, so `output` of it (directly or through another variable defined with it) is
 * a model error at the name, with the whole message asserted; it was "internal error: no slot
 * for a name in the compiled system". y' = r with r = 3 delta(t - 1) + 1 on [0, 3] from 0 is
 * 3 + 3 = 6 exactly.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, ModelError, simulate } from '../src/index.js';

describe('a variable defined with a delta is not an output', () => {
  it.each([
    [
      'directly',
      "independent t from 0 to 3\nq = delta(t - 1)\ny' = q\noutput y, q\ny(0) = 0",
      'm.delta:4:11: cannot output q: it is defined with a delta, an impulse that has no value at an instant\n  output y, q\n            ^\nOutput what the impulse changes (the states of the equations that use q), or define its regular part under another name and output that.',
    ],
    [
      'through another variable',
      "independent t from 0 to 3\nq = delta(t - 1)\nr = 3*q + 1\ny' = r\noutput r\ny(0) = 0",
      'm.delta:5:8: cannot output r: it is defined with a delta, an impulse that has no value at an instant\n  output r\n         ^\nOutput what the impulse changes (the states of the equations that use r), or define its regular part under another name and output that.',
    ],
  ])('%s: a model error at the name', (_what, text, message) => {
    let error: unknown;
    try {
      compileModel(text, 'm.delta');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(message);
  });

  it('without the output, the same model runs: y jumps by 3 at t = 1 and grows by 1 a unit', () => {
    const run = simulate("independent t from 0 to 3\nq = delta(t - 1)\nr = 3*q + 1\ny' = r\ny(0) = 0");
    expect(run.status).toBe('ok');
    // (a closed form of degree 1 between the instants: the default tolerances, 10 (atol + rtol 6))
    expect(Math.abs(run.final.y - 6)).toBeLessThanOrEqual(10 * (1e-9 + 1e-6 * 6));
  });
});

describe('a delta in the coefficient of the solved derivative', () => {
  // ((1 + delta(t - 1))*y' = 1 was "a delta in a denominator", which the user did not write:
  // it is one once the equation is solved for y')
  it.each([
    ["(1 + delta(t - 1))*y' = 1", 6],
    ["y'*delta(t - 1) = 1", 4],
    ["y'/(2 + delta(t - 1)) = 1", 9],
  ])('%s: a model error at the delta that says where it stands', (equation, column) => {
    let error: unknown;
    try {
      compileModel(`independent t from 0 to 3\n${equation}\ny(0) = 0`, 'm.delta');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      `m.delta:2:${column}: a delta in the coefficient of y', the derivative this equation is solved for, is not linear\n  ${equation}\n  ${' '.repeat(column - 1)}^\nDeltas must enter linearly, as terms g*delta(u) beside y': y' = f + g*delta(u).`,
    );
  });

  it("a delta beside y' on the left is a term: y' + delta(t - 1) = 0 makes y jump by -1", () => {
    const run = simulate("independent t from 0 to 3\ny' + delta(t - 1) = 0\ny(0) = 0");
    expect(run.final.y).toBe(-1);
  });
});
