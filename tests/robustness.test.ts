/**
 * Inputs that used to end in a wrong answer with status ok, an internal error, or a hang
 * (issue 13), each with the clear error it gets now: the whole message, file:line:col first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { MAX_MODEL_BYTES, readModelFile } from '../src/node.js';
import { modelErrorOf } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ds-robust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('model errors instead of wrong numbers or internal errors', () => {
  it.each([
    [
      "independent t from 0 to 2\ny' = delta(t - t)\ny(0) = 0",
      "m.delta:2:6: the argument of delta(t - t) is identically zero, so the delta has no instant to sit at\n  y' = delta(t - t)\n       ^\nA delta's argument must cross zero at the instants it acts, as in delta(t - 1).",
    ],
    [
      "independent t from 0 to 2\nparameter a = 1\ny' = delta(a - 1)\ny(0) = 0",
      "m.delta:3:6: the argument of delta(a - 1) does not depend on t: it is zero nowhere (or everywhere)\n  y' = delta(a - 1)\n       ^\nA delta's argument must cross zero at the instants it acts, as in delta(t - 1).",
    ],
    [
      "independent t from 0 to 1\nparameter a = 1e1000\ny' = a\ny(0) = 0",
      'm.delta:2:15: the number 1e1000 is too large for double precision (at most about 1.8e308)\n  parameter a = 1e1000\n                ^\nWrite a smaller number, or rescale the model (other units).',
    ],
    [
      "independent t from 0 to 1\noption constructor = 1\ny' = 1\ny(0) = 0",
      "m.delta:2:8: unknown option 'constructor'\n  option constructor = 1\n         ^\nThe options are method, locate, deltaRule, zeno, rtol, atol, step, maxEvents, maxSteps.",
    ],
    [
      "independent t from 0 to 1\noption __proto__ = 1\ny' = 1\ny(0) = 0",
      "m.delta:2:8: unknown option '__proto__'\n  option __proto__ = 1\n         ^\nThe options are method, locate, deltaRule, zeno, rtol, atol, step, maxEvents, maxSteps.",
    ],
    [
      "independent t from 0 to 2\ny' = delta((t - 1)^2)\ny(0) = 0",
      "m.delta:2:6: the argument of delta((t - 1)^2) has a multiple root at 1 (its derivative is zero there), where a delta has no meaning\n  y' = delta((t - 1)^2)\n       ^\nUse an argument with simple roots, e.g. delta(t - 1) instead of delta((t - 1)^2).",
    ],
    [
      "independent t from 0 to 1\nparameter b = 0, a = 1/b\ny' = a\ny(0) = 0",
      "m.delta:2:22: the value of parameter 'a' is Infinity\n  parameter b = 0, a = 1/b\n                       ^\nGive a finite value: check for a division by zero, an overflow or the root or logarithm of a negative number.",
    ],
    [
      "independent t from 0 to 1\nparameter a = 2\nunknown c = sqrt(-a)\ny' = c\ny(0) = 0",
      "m.delta:3:13: the value of parameter 'c' is NaN\n  unknown c = sqrt(-a)\n              ^\nGive a finite value: check for a division by zero, an overflow or the root or logarithm of a negative number.",
    ],
    [
      "independent t from 0 to 1\nparameter a = 1e300*1e300\ny' = a\ny(0) = 0",
      "m.delta:2:15: the value of parameter 'a' is Infinity\n  parameter a = 1e300*1e300\n                ^\nGive a finite value: check for a division by zero, an overflow or the root or logarithm of a negative number.",
    ],
  ])('%j', (source, message) => {
    expect(modelErrorOf(source).message).toBe(message);
  });

  it('states and parameters named constructor, __proto__ and toString are ordinary names', () => {
    const run = simulate(
      "independent t from 0 to 1\nparameter constructor = 2, toString = 4\n__proto__' = constructor + toString\n__proto__(0) = 0",
      { rtol: 1e-10, atol: 1e-12 },
    );
    expect(run.status).toBe('ok');
    expect(Math.abs(run.final.__proto__ - 6)).toBeLessThan(1e-12);
  });

  it('a model with no states runs: its outputs evaluated over the range', () => {
    const run = simulate('independent t from 0 to 1\ny = sin(t)', { rtol: 1e-10, atol: 1e-12 });
    expect(run.status).toBe('ok');
    expect(run.columns).toEqual(['t', 'y']);
    expect(run.final.t).toBe(1);
    expect(Math.abs(run.final.y - Math.sin(1))).toBeLessThan(1e-15);
  });
});

describe('model files: the position of a bad byte, limits instead of hangs', () => {
  it('invalid UTF-8: the line and column of the first bad byte', () => {
    const file = join(dir, 'bad.delta');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from("independent t from 0 to 1\ny' = 1\ny(0) = "),
        Buffer.from([0xff]),
        Buffer.from('0\n'),
      ]),
    );
    expect(() => readModelFile(file)).toThrow(
      `${file}:3:8: byte 0xff is not UTF-8 text\n  y(0) = \n         ^\nA model is a text file saved as UTF-8; check that this is the right file, or save it again as UTF-8.`,
    );
  });

  it('a file over the size limit, or an endless device, is refused without reading it all', () => {
    const file = join(dir, 'big.delta');
    writeFileSync(file, 'a'.repeat(MAX_MODEL_BYTES + 1));
    expect(() => readModelFile(file)).toThrow(
      `${file}:1:1: the file is larger than 4 MB, the largest model deltastep reads`,
    );
    expect(() => readModelFile('/dev/zero')).toThrow(
      '/dev/zero:1:1: the file is larger than 4 MB, the largest model deltastep reads',
    );
  });
});

describe('every root of a time-only delta argument (issue 13)', () => {
  it('delta(sin(1e5 t)) on [0, 1]: all 31831 roots k pi/1e5, t = 0 included, so y(1) = 0.31831', () => {
    const run = simulate("independent t from 0 to 1\ny' = delta(sin(1e5*t))\ny(0) = 0", {
      eventsOnly: true,
      eventValues: false,
    });
    const roots = Math.floor(1e5 / Math.PI) + 1;
    expect(roots).toBe(31831);
    expect(run.status).toBe('ok');
    expect(run.events).toHaveLength(roots);
    // each root weighs 1/|u'(r)| = 1e-5
    expect(Math.abs(run.final.y - roots * 1e-5)).toBeLessThan(1e-12);
    run.events.forEach((e, k) => {
      if (k % 1000 === 0) expect(Math.abs(e.t - (k * Math.PI) / 1e5)).toBeLessThan(1e-15);
    });
  });

  it('more scheduled events than maxEvents: a failed run with its message, not a partial sum with status ok', () => {
    const run = simulate("independent t from 0 to 1\ny' = delta(sin(1e5*t))\ny(0) = 0", {
      maxEvents: 1000,
      eventsOnly: true,
      eventValues: false,
    });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^more than 1000 events by t = [\d.e-]+; raise option maxEvents/);
  });

  it.each([
    // [argument, range end, roots, weight of each root 1/|u'(r)|]
    ['sin(pi*t)', 6, [0, 1, 2, 3, 4, 5, 6], () => 1 / Math.PI],
    ['t^2 - 2', 2, [Math.SQRT2], (r: number) => 1 / (2 * r)],
  ] as [string, number, number[], (r: number) => number][])(
    "delta(%s) on [0, %d]: each root once, y(end) the sum of 1/|u'|",
    (arg, to, roots, weight) => {
      const run = simulate(`independent t from 0 to ${to}\ny' = delta(${arg})\ny(0) = 0`, { rtol: 1e-10, atol: 1e-12 });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(roots.length);
      run.events.forEach((e, k) => expect(Math.abs(e.t - roots[k])).toBeLessThan(1e-12 * Math.max(1, roots[k])));
      const sum = roots.reduce((acc, r) => acc + weight(r), 0);
      expect(Math.abs(run.final.y - sum)).toBeLessThan(1e-12 * sum);
    },
  );

  it.each([
    // roots t = 1/(k pi) - 1e-9 for k up to 3e8: more than the search may sample
    [
      'sin(1/(t + 1e-9))',
      'the argument of delta(sin(1/(t + 1e-9))) oscillates too fast to find every root on the range (more than 20000000 samples would be needed)',
    ],
    // undefined at 0, where its roots pile up
    ['sin(1/t)', 'the argument of delta(sin(1/t)) is not a number at 0, so its roots cannot all be found'],
    [
      'sqrt(t - 0.5) - 0.1',
      'the argument of delta(sqrt(t - 0.5) - 0.1) is not a number at 0, so its roots cannot all be found',
    ],
  ])('delta(%s): a failed run that says why, not a partial sum with status ok', (arg, message) => {
    const run = simulate(`independent t from 0 to 2\ny' = delta(${arg})\ny(0) = 0`, {
      eventsOnly: true,
      eventValues: false,
    });
    expect(run.status).toBe('failed');
    expect(run.message).toBe(message);
  });

  it.each([
    ['sqrt(t) - 0.5', 0.25],
    ['log(t)', 1],
  ])('delta(%s): an infinite slope at the start is no root there; the one root at %d', (arg, root) => {
    const run = simulate(`independent t from 0 to 2\ny' = delta(${arg})\ny(0) = 0`, {
      eventsOnly: true,
      eventValues: false,
    });
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.t)).toEqual([root]);
    // 1/|u'(r)|: 2 sqrt(r) = 1 and r = 1
    expect(Math.abs(run.final.y - 1)).toBeLessThan(1e-15);
  });

  it('cos(t^2) on [0, 30]: every root sqrt((k + 1/2) pi)', () => {
    const run = simulate("independent t from 0 to 30\ny' = delta(cos(t^2))\ny(0) = 0", {
      eventsOnly: true,
      eventValues: false,
      rtol: 1e-10,
      atol: 1e-12,
    });
    const exact = Array.from({ length: 287 }, (_, k) => Math.sqrt((k + 0.5) * Math.PI)).filter((r) => r <= 30);
    expect(run.events.map((e) => e.t)).toHaveLength(exact.length);
    run.events.forEach((e, k) => expect(Math.abs(e.t - exact[k])).toBeLessThan(1e-12 * exact[k]));
  });
});
