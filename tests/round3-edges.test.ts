/**
 * Edges of round 3 (numbers at the ends of double precision, messages, what transform says),
 * each against an exact answer or a whole message.
 */
import { describe, expect, it } from 'vitest';
import { SimulationInputError, compileModel, formatText, simulate, transformReport } from '../src/index.js';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('a range longer than the largest double', () => {
  const lin = "y' = -y\ny(0) = 1\n";
  const message =
    'the range of t from -1e+308 to 1e+308 is longer than the largest number of double precision (about 1.8e308), and a stepper counts t from the start of the range: give a range shorter than that, or method analytic where the model has closed forms';
  it.each(['rk4', 'euler', 'dopri5', 'radau5'] as const)('%s refuses it with a clear message', (method) => {
    const err = thrown(() => simulate(lin, { from: -1e308, to: 1e308, init: { y: 0 }, method }));
    expect(err).toBeInstanceOf(SimulationInputError);
    expect((err as Error).message).toBe(message);
  });
  it('auto on a model without closed forms refuses it too; the analytic path runs it', () => {
    const err = thrown(() => simulate("y' = -y*y\ny(0) = 1\n", { from: -1e308, to: 1e308, init: { y: 0 } }));
    expect((err as Error).message).toBe(message);
    const r = simulate(lin, { from: -1e308, to: 1e308, init: { y: 0 } });
    expect(r.stats.method).toBe('analytic');
    expect(r.final).toEqual({ t: 1e308, y: 0 });
  });
});

describe('radau5 at states near the top of double precision', () => {
  // y'' = -y, y(0) = A, y'(0) = 0: y(1) = A cos 1, y'(1) = -A sin 1
  it.each([1e160, 1e300, 1e307])('y(0) = %d', (a) => {
    const r = simulate(`independent t from 0 to 1\ny'' = -y\ny(0) = ${a}\ny'(0) = 0\n`, {
      method: 'radau5',
      rtol: 1e-8,
      atol: 1e-8,
    });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.y / (a * Math.cos(1)) - 1)).toBeLessThan(1e-6);
    expect(Math.abs(r.final["y'"] / (-a * Math.sin(1)) - 1)).toBeLessThan(1e-6);
  });
});

describe('dop853 at states near the top of double precision', () => {
  it('y(0) = 1e307: stages 9 to 12 do not overflow', () => {
    const r = simulate("independent t from 0 to 1\ny'' = -y\ny(0) = 1e307\ny'(0) = 0\n", { method: 'dop853' });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.y / (1e307 * Math.cos(1)) - 1)).toBeLessThan(1e-6);
    expect(Math.abs(r.final["y'"] / (-1e307 * Math.sin(1)) - 1)).toBeLessThan(1e-6);
  });
});

describe('a first step below the resolution of t', () => {
  it.each(['dopri5', 'dop853', 'radau5', 'rodas', 'auto'] as const)(
    '%s: firstStep 1e-320 is raised to the smallest step',
    (method) => {
      const r = simulate("independent t from 0 to 1\ny' = -y\ny(0) = 1\n", { firstStep: 1e-320, method, rtol: 1e-8 });
      expect(r.status).toBe('ok');
      expect(Math.abs(r.final.y - Math.exp(-1))).toBeLessThan(1e-7);
    },
  );
});

describe('init names what it takes, as the library or the command line calls it', () => {
  it('a name that is neither a state nor a discrete variable', () => {
    const err = thrown(() =>
      simulate("independent t from 0 to 1\ndiscrete k = 1\ny' = -y\ny(0) = 1\n", { init: { t: 1 } }),
    );
    expect((err as Error).message).toBe("'t' in init is not a state or discrete variable of Model; they are: y, k");
  });
});

describe('an action that makes a right-hand side non-finite', () => {
  it('is reported at its instant on the analytic path, as on the stepper', () => {
    const src = "independent t from 0 to 5\ndiscrete k = 1\nevent e at 1 do k := 0 end\nx' = 1/k\nx(0) = 0\n";
    const r = simulate(src, { method: 'analytic' });
    expect(r.status).toBe('failed');
    expect(r.message).toBe(
      "the right-hand side of x' (1/k) is Infinity at t = 1: the solution cannot be continued there (a square root or logarithm of a negative number, a division by zero); check the model near this point",
    );
    expect(r.final).toEqual({ t: 1, x: 1, k: 0 });
    expect(simulate(src, { method: 'dopri5' }).final.t).toBe(1);
  });
});

describe('transform says the path simulate takes', () => {
  const pathLine = (src: string) =>
    formatText(transformReport(compileModel(src)))
      .split('\n')
      .filter((l) => l.includes('simulate'));
  it('a linear event function too slow to scan over its range: the stepper', () => {
    const src = `independent t from 0 to 1e9
discrete n = 0
event e when y - 1 rises do n := n + 1 end
y' = -1e-3*y + 2e-3
y(0) = 0
`;
    expect(simulate(src).stats.method).not.toBe('analytic');
    const why =
      'the function of event e moves on a time scale of 1.00e+3 (a stiff linear block), 2.00e+6 windows over the range: the stepper integrates it (use method auto)';
    expect(pathLine(src)).toEqual([`  every part in closed form, but simulate integrates numerically: ${why}`]);
    expect(transformReport(compileModel(src)).analyticPath).toEqual({ closedForm: true, obstacles: [], stepper: why });
  });
  it('option zeno = continue: the stepper', () => {
    const src = `independent t from 0 to 3
option zeno = continue
event bounce when h falls do v := -0.8*v end
h' = v
v' = -9.81
h(0) = 1; v(0) = 0
`;
    expect(simulate(src).stats.method).toBe('dopri5');
    expect(pathLine(src)).toEqual([
      '  every part in closed form, but simulate integrates numerically: option zeno = continue (<model>:2) holds contacts as constraints, which the stepper integrates',
    ]);
  });
  it('a model the analytic path runs', () => {
    const src = "independent t from 0 to 1e9\ny' = -1e-3*y + 2e-3\ny(0) = 0\n";
    expect(simulate(src).stats.method).toBe('analytic');
    expect(pathLine(src)).toEqual([
      '  every part in closed form: simulate takes the analytic path (stats.method analytic)',
    ]);
  });
});

describe("accumulation judged on the problem's own time scale", () => {
  // dropped from 1e-300 (g = 9.81, e = 0.5): t1 = sqrt(2 h0/g), accumulating at 3 t1 =
  // 1.354570922957192696e-150 (mpmath, 40 digits, of the doubles 1e-300 and 9.81)
  it('a ball from 1e-300 on the analytic path stops at the exact accumulation point', () => {
    const r = simulate(
      `independent t from 0 to 1e-149
event bounce when h falls do v := -0.5*v end
h' = v
v' = -9.81
h(0) = 1e-300; v(0) = 0
`,
      { method: 'analytic', eventsOnly: true },
    );
    expect(r.status).toBe('zeno');
    // (where the rule stops, not an answer: once what is left of the sequence fits in 1024 of
    // the instants' resolution, an ulp of the range's span 1e-149 here (zeno.ts, the tie's
    // floor); against ulps of t alone, 7.4 times finer, it went on for 3 more, to 43)
    expect(r.stats.events).toBe(40);
    expect(Math.abs(r.accumulationPoint! / 1.354570922957192696e-150 - 1)).toBeLessThan(1e-15);
  });
});

describe('events tied with the instant at which accumulation stops a run', () => {
  it('fire there: two balls landing together both land (analytic path)', () => {
    const r = simulate(
      `independent t from 0 to 3.5
discrete na = 0, nb = 0
event a when h falls do v := -0.5*v; na := na + 1 end
event b when H - 1e6 falls do V := -0.5*V; nb := nb + 1 end
h' = v
v' = -8
H' = V
V' = -8
h(0) = 4; H(0) = 1e6 + 4; v(0) = 0; V(0) = 0
`,
      { method: 'analytic', eventsOnly: true },
    );
    expect(r.status).toBe('zeno');
    expect(r.final.na).toBe(43);
    expect(r.final.nb).toBe(43);
    expect(r.events.slice(-2).map((e) => `${e.name}@${e.t}`)).toEqual(['a@2.9999999999995453', 'b@2.9999999999995453']);
    expect(r.message).toBe(
      'events of a accumulate at t = 3 (Zeno): the run stops at 2.9999999999995453, after 86 events',
    );
  });
});
