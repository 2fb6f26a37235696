/**
 * Wrong answers with status ok and unhelpful errors found at the library's boundary and on
 * the analytic path in the second round (issue 21, items 3, 11 and 14; issue 20): each with
 * the answer or the whole message it gets now.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileModel,
  formatLatex,
  formatText,
  parse,
  simulate,
  SimulationInputError,
  Simulator,
  transformReport,
  type CompiledModel,
} from '../src/index.js';

const ball = readFileSync(new URL('../examples/bouncing_ball.delta', import.meta.url), 'utf8');
/** the ball's accumulation point t1 (1 + e)/(1 - e), t1 = sqrt(2/g) */
const accumulation = (e: number) => Math.sqrt(2 / 9.81) * ((1 + e) / (1 - e));

function inputError(f: () => unknown): SimulationInputError {
  try {
    f();
  } catch (err) {
    if (err instanceof SimulationInputError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('compileModel(text, file, { set }): the values are the compiled model own', () => {
  it('a parameter that shapes nothing takes its value too (e = 0.3 was silently ignored: Zeno at 4.06, not 0.84)', () => {
    const run = simulate(compileModel(ball, 'ball.delta', { set: { e: 0.3 } }));
    expect(run.status).toBe('zeno');
    expect(Math.abs(run.accumulationPoint! - accumulation(0.3))).toBeLessThan(1e-9);
    // and a run may still set it otherwise
    const other = simulate(compileModel(ball, 'ball.delta', { set: { e: 0.3 } }), { set: { e: 0.5 } });
    expect(Math.abs(other.accumulationPoint! - accumulation(0.5))).toBeLessThan(1e-9);
  });

  it('an element of an array parameter by its name', () => {
    const text = `independent t from 0 to 1
parameter k[1:3] = [1, 2, 3]
for i in 1:3
  x[i]' = k[i]
  x[i](0) = 0
end
`;
    const run = simulate(compileModel(text, 'k.delta', { set: { 'k[2]': 7 } }));
    expect([run.final['x[1]'], run.final['x[2]'], run.final['x[3]']]).toEqual([1, 7, 3]);
  });

  it.each([
    [{ set: { q: 1 } }, "'q' is not a parameter or unknown of BouncingBall; they are: g, e"],
    [
      { sett: { e: 1 } },
      "compileModel: unknown option 'sett' (the nearest is set); the only option here is set, the parameter values to write the model with",
    ],
    [{ set: { e: Number.NaN } }, 'compileModel: set must give finite numbers; e is NaN'],
    [{ set: { e: '1' } }, "compileModel: set must give finite numbers; e is '1' (string)"],
    [{ set: [1] }, 'compileModel: set must be numbers by name ({ e: 0.5 } or a Map), got an array'],
    ['x', 'compileModel: options must be an object ({ set }), got string'],
    [null, 'compileModel: options must be an object ({ set }), got null'],
  ])('options %j: %s', (options, message) => {
    const err = inputError(() => compileModel(ball, 'ball.delta', options as never));
    expect(err.message).toBe(message);
  });

  it('a file name that is not a string', () => {
    expect(inputError(() => parse(ball, 5 as never)).message).toBe(
      'parse: file must be a string (the name messages show), got number',
    );
  });
});

describe('what takes a compiled model says so', () => {
  it.each([
    ['new Simulator', (x: unknown) => new Simulator(x as CompiledModel)],
    ['transformReport', (x: unknown) => transformReport(x as CompiledModel)],
  ])('%s of null, text and a number', (name, f) => {
    const caller = name === 'new Simulator' ? 'new Simulator(model)' : name;
    const take = `${caller} takes what compileModel gives (compile the text first: compileModel(text)), got`;
    expect(inputError(() => f(null)).message).toBe(`${take} null`);
    expect(inputError(() => f(ball)).message).toBe(`${take} a string`);
    expect(inputError(() => f(5)).message).toBe(`${take} number`);
  });

  it('formatText and formatLatex of null', () => {
    expect(inputError(() => formatText(null as never)).message).toBe(
      'formatText takes what transformReport gives (transformReport(compileModel(text))), got null',
    );
    expect(inputError(() => formatLatex(null as never, null as never)).message).toBe(
      "formatLatex takes the model's FirstOrderSystem (model.system of what compileModel gives) and its report, got null",
    );
  });
});

describe('the analytic path never reports a value beyond double precision as ok', () => {
  it("y' = 1/T with T = 1e-320: the right-hand side is Infinity at the start", () => {
    const run = simulate("parameter T = 1\nindependent t from 0 to 1\ny' = 1/T\ny(0) = 0", { set: { T: 1e-320 } });
    expect(run.stats.method).toBe('analytic');
    expect(run.status).toBe('failed');
    expect(run.message).toBe(
      "the right-hand side of y' (1/T) is Infinity at t = 0: the solution cannot be continued there (a square root or logarithm of a negative number, a division by zero); check the model near this point",
    );
  });

  it("h'' = -g with g = 1e200 to t = 1e200: h overflows, and the run says so", () => {
    const run = simulate("parameter g = 1e200\nindependent t from 0 to 1e200\nh'' = -g\nh(0) = 0; h'(0) = 0");
    expect(run.status).toBe('failed');
    expect(run.message).toBe(
      'h is -Infinity at t = 1e+200: the solution has left the range of double precision (a parameter too large or too small, or a blow-up); check the model and its parameters',
    );
  });
});

describe('the row limit on the analytic path: the run ends at its last row', () => {
  it('the final values are those of the last row written, and no event after it is in the ledger', () => {
    const run = simulate(ball, { outputStep: 1e-6, maxRows: 1000 });
    expect(run.stats.method).toBe('analytic');
    expect(run.status).toBe('failed');
    expect(run.rows).toHaveLength(1000);
    const last = run.rows[run.rows.length - 1];
    expect(run.final.t).toBe(last[0]);
    // free fall from h = 1: h = 1 - g t^2 / 2 (the ball was far below the floor at t = 5)
    expect(Math.abs(run.final.h - (1 - (9.81 * last[0] ** 2) / 2))).toBeLessThan(1e-12);
    expect(run.events).toHaveLength(0);
  });
});

describe('messages', () => {
  it('a right-to-left override in a model is escaped in the message and masked in the line shown', () => {
    let message = '';
    try {
      compileModel('model M\nindependent t from 0 to 1\ny\u202e = -y\ny(0) = 1', 'bidi.delta');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      "bidi.delta:3:2: unexpected character '\\u{202E}' (U+202E)\n  y? = -y\n   ^\nRemove it: a model uses names, numbers, + - * / ^ ( ) , ; = := < <= > >= == != and # comments.",
    );
  });

  it('a fixed step below the resolution of t is said as such, not blamed on the right-hand side', () => {
    const run = simulate("parameter T = 1\nindependent t from 0 to T\ny' = -y\ny(0) = 1", {
      method: 'rk4',
      set: { T: 1e-320 },
    });
    expect(run.status).toBe('failed');
    expect(run.message).toBe(
      'the fixed step of rk4 (1e-323) is below the resolution of t (by default it is a thousandth of the range): give a larger step (option step, --step) or an adaptive method, at t = 0',
    );
  });

  it('a state that overflows inside a step although the right-hand side is finite', () => {
    const run = simulate("parameter T = 1\nindependent t from 0 to 1\ny' = T\ny(0) = 0", {
      method: 'rk4',
      set: { T: 1e308 },
    });
    expect(run.status).toBe('failed');
    expect(run.message).toBe(
      'the state overflowed within the step, although the right-hand side is finite along it (values beyond the range of double precision, about 1.8e308): rescale the model or its parameters, at t = 0',
    );
  });

  it('a name of 10^6 letters is transformed in linear time (the element pattern was quadratic)', () => {
    const name = 'a'.repeat(1_000_000);
    const m = compileModel(
      `independent t from 0 to 1\nparameter ${name}b = 1\n${name}' = -${name}b*${name}\n${name}(0) = 1`,
    );
    const lines = formatText(transformReport(m)).split('\n');
    // (compared line by line: a substring search for 3 MB of one letter is itself quadratic)
    expect(lines[lines.indexOf('equations') + 1] === `  ${name}' = -${name}b*${name}`).toBe(true);
    expect(formatLatex(m.system, transformReport(m)).length).toBeGreaterThan(3_000_000);
  });
});
