/**
 * Structure analysis (issue 23, part 1): components, their closed forms, clock groups, and
 * what each event reads and writes, on small models whose structure is known by hand.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatLatex, formatText, transformModel, transformReport } from '../src/index.js';
import { analyseStructure } from '../src/structure/structure.js';
import { segmentsReport } from '../src/structure/segments.js';
import { connectedParts, stronglyConnected } from '../src/structure/graph.js';

const structureOf = (src: string) => {
  const sys = transformModel(src);
  return { sys, st: analyseStructure(sys) };
};
const namesOf = (sys: ReturnType<typeof transformModel>, states: number[]) => states.map((s) => sys.states[s].name);

const BALL = `independent t from 0 to 5
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0`;

describe('graphs', () => {
  it('strongly connected parts come after the parts they depend on', () => {
    // 0 -> 1 -> 2 -> 1, 3 alone, 4 -> 0
    const parts = stronglyConnected(5, [[1], [2], [1], [], [0]]);
    expect(parts).toEqual([[1, 2], [0], [3], [4]]);
  });
  it('a chain of 100000 vertices does not exhaust the stack', () => {
    const n = 100000;
    const edges = Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : []));
    expect(stronglyConnected(n, edges)).toHaveLength(n);
    expect(connectedParts(n, edges).every((p) => p === 0)).toBe(true);
  });
  it('connected parts join vertices that read one another either way', () => {
    expect([...connectedParts(5, [[1], [], [3], [], []])]).toEqual([0, 0, 1, 1, 2]);
  });
});

describe('components and their closed forms', () => {
  it('the bouncing ball: h of degree 2, its velocity level of degree 1, one clock; the bounce reads and changes it', () => {
    const { sys, st } = structureOf(BALL);
    expect(st.closedForm).toBe(true);
    const byName = Object.fromEntries(st.components.map((c) => [namesOf(sys, c.states).join(','), c]));
    expect(byName.h.kind).toBe('polynomial');
    expect(byName.h.degree).toBe(2);
    expect(byName.u1.degree).toBe(1);
    expect(st.groups).toHaveLength(1);
    expect(st.events[0].degree).toBe(2);
    expect(st.events[0].reads).toEqual([0]);
    expect(st.events[0].changes).toEqual([0]);
    const r = segmentsReport(sys, st);
    expect(r.segments.map((s) => [s.states.join(','), s.integration])).toEqual([
      ['h', 'closed form: polynomial of degree 2 in t'],
      ['u1', 'closed form: polynomial of degree 1 in t'],
    ]);
    expect(r.eventRoots).toEqual([{ event: 'bounce', times: 'roots of a polynomial of degree 2 in t' }]);
    expect(r.analytic).toBe(true);
  });

  it('spheres in a row: one clock per sphere; a collision reads two and changes two', () => {
    const { sys, st } = structureOf(`independent t from 0 to 2
discrete hits = 0
event c1 when x2 - x1 falls do hits := hits + 1 end
event c2 when x3 - x2 falls do hits := hits + 1 end
J1 = (x1' - x2')
J2 = (x2' - x3')
x1'' = -J1*delta(t - c1)
x2'' = J1*delta(t - c1) - J2*delta(t - c2)
x3'' = J2*delta(t - c2)
x1(0) = 1; x1'(0) = 1; x2(0) = 2; x2'(0) = 0; x3(0) = 3; x3'(0) = -1
output x1, hits`);
    expect(st.closedForm).toBe(true);
    expect(st.groups).toHaveLength(3);
    const gx = (name: string) => st.groupOf[sys.states.findIndex((s) => s.name === name)];
    expect(st.events[0].reads).toEqual([gx('x1'), gx('x2')].sort());
    expect(st.events[1].changes).toEqual([gx('x2'), gx('x3')].sort());
    expect(st.events[0].writesDiscrete).toHaveLength(3); // S1, S2 and hits
    expect(st.outputReads).toEqual([gx('x1')]);
  });

  it('u-plus-step form with a force polynomial in t: degrees add up', () => {
    const { sys, st } = structureOf(`independent t from 0 to 1
x''' = 6*t
x(0) = 0; x'(0) = 0; x''(0) = 0`);
    expect(st.closedForm).toBe(true);
    const x = st.components.find((c) => namesOf(sys, c.states)[0] === 'x')!;
    expect(x.degree).toBe(4);
  });

  it('an oscillator is linear: one block with its matrix, which what reads it joins', () => {
    const { sys, st } = structureOf(`independent t from 0 to 1
x' = y
y' = -x
z' = x
x(0) = 1; y(0) = 0; z(0) = 0`);
    const entries = segmentsReport(sys, st).segments;
    expect(entries.map((e) => [e.states.join(','), e.integration])).toEqual([
      ['x,y', "closed form: linear, (x, y, z)' = A (x, y, z) with A = [0, 1, 0; -1, 0, 0; 1, 0, 0]"],
      ['z', 'closed form: linear, in the block of x, y, z'],
    ]);
    expect(entries[0].matrix).toEqual([
      ['0', '1', '0'],
      ['-1', '0', '0'],
      ['1', '0', '0'],
    ]);
    expect(entries[0].inhomogeneous).toEqual(['0', '0', '0']);
  });

  it('a cycle that is not linear is numeric, with the reason; what reads it is numeric too', () => {
    const { sys, st } = structureOf(`independent t from 0 to 1
x' = y
y' = -sin(x)
z' = x
x(0) = 1; y(0) = 0; z(0) = 0`);
    expect(st.closedForm).toBe(false);
    const entries = segmentsReport(sys, st).segments;
    expect(entries.map((e) => [e.states.join(','), e.integration])).toEqual([
      ['x,y', 'numerically'],
      ['z', 'numerically'],
    ]);
    expect(entries[0].reason).toBe('x and y depend on one another (a cycle): not a polynomial in t');
    expect(entries[1].reason).toBe('it reads x, which is integrated numerically');
    expect(st.obstacles[0]).toMatch(/^x, y: x and y depend/);
  });

  it('a leaky neuron: linear with an inhomogeneous part; its threshold is an exponential sum', () => {
    const { sys, st } = structureOf(`independent t from 0 to 100
parameter tau = 10, EL = -65, Vth = -50, R = 1, I = 20
event spike when V - Vth rises do V := EL end
V' = (-(V - EL) + R*I)/tau
V(0) = -65`);
    const r = segmentsReport(sys, st);
    expect(r.segments[0].matrix).toEqual([['-(1/tau)']]);
    expect(r.segments[0].inhomogeneous).toEqual(['(EL + R*I)/tau']);
    expect(r.eventRoots).toEqual([
      {
        event: 'spike',
        times:
          'roots of an exponential sum in t (exponentials, sines, cosines: affine in V), isolated with a certificate',
      },
    ]);
    expect(st.events[0].linear!.gradient.map((e) => e.kind === 'number' && e.value)).toEqual([1]);
  });

  it('a right-hand side that is not a polynomial names the part that is not', () => {
    const { st } = structureOf(`independent x from 0 to 10
parameter w = 1, H = 5
y' = w/H*sqrt(1 + x^2)
y(0) = 0`);
    expect(st.closedForm).toBe(false);
    expect(st.obstacles).toEqual(["y: y' = w/H*sqrt(1 + x^2) is not a polynomial in the states and x (sqrt(1 + x^2))"]);
    // the catenary's slope reads itself: a cycle
    const rope = structureOf(`independent x from 0 to 10
parameter w = 1, H = 5
y'' = w/H*sqrt(1 + y'^2)
y(0) = 0; y'(0) = 1`).st;
    expect(rope.obstacles).toEqual([
      "y': y'' reads y' (a cycle): not a polynomial in x",
      "y: it reads y', which is integrated numerically",
    ]);
  });

  it('an event whose function is not a polynomial keeps the model off the analytic path', () => {
    const { st } = structureOf(`independent t from 0 to 5
event e1 when sin(x) - 0.5 rises
x' = 1
x(0) = 0`);
    expect(st.closedForm).toBe(false);
    expect(st.obstacles).toEqual([
      'event e1: its function sin(x) - 0.5 is not a polynomial in t between events (sin(x))',
    ]);
  });
});

describe('transform says how each part is integrated, in every format', () => {
  it('the ball: closed form in text, LaTeX, JSON (segments) and the generated JavaScript', () => {
    const m = compileModel(BALL);
    const report = transformReport(m);
    const text = formatText(report);
    expect(text).toContain(
      [
        'integration between events (closed form where the algebra allows)',
        '  h     closed form: polynomial of degree 2 in t',
        '  u1    closed form: polynomial of degree 1 in t',
        '  event bounce: times are roots of a polynomial of degree 2 in t',
        '  every part in closed form: simulate takes the analytic path (stats.method analytic)',
      ].join('\n'),
    );
    expect(formatLatex(m.system, report)).toContain('%   h     closed form: polynomial of degree 2 in t');
    const json = JSON.parse(JSON.stringify(report));
    expect(json.segments).toEqual([
      { states: ['h'], kind: 'polynomial', degree: 2, integration: 'closed form: polynomial of degree 2 in t' },
      { states: ['u1'], kind: 'polynomial', degree: 1, integration: 'closed form: polynomial of degree 1 in t' },
    ]);
    expect(json.analyticPath).toEqual({ closedForm: true, obstacles: [] });
    expect(m.source).toContain('// Closed forms of the analytic path');
  });

  it('W2, linear: the matrix in text, LaTeX and JSON', () => {
    const m = compileModel(`model WallW2
independent t from 0 to 600
parameter wall = 0.5, r = 0.9
event hit when x - wall rises do y := -r*y end
x' = y
y' = -x
x(0) = 0; y(0) = 1`);
    const report = transformReport(m);
    const lines = [
      "  x, y  closed form: linear, (x, y)' = A (x, y) with A = [0, 1; -1, 0]",
      '  event hit: times are roots of an exponential sum in t (exponentials, sines, cosines: affine in x, y), isolated with a certificate',
      '  every part in closed form: simulate takes the analytic path (stats.method analytic)',
    ];
    expect(formatText(report)).toContain(lines.join('\n'));
    expect(formatLatex(m.system, report)).toContain(`% ${lines[0]}`);
    const json = JSON.parse(JSON.stringify(report));
    expect(json.segments).toEqual([
      {
        states: ['x', 'y'],
        kind: 'linear',
        matrix: [
          ['0', '1'],
          ['-1', '0'],
        ],
        inhomogeneous: ['0', '0'],
        block: ['x', 'y'],
        integration: lines[0].slice(8),
      },
    ]);
  });

  it('a rope: numerically, with the reason', () => {
    const text = formatText(
      transformReport(
        compileModel(
          `independent x from 0 to 10\nparameter w = 1, H = 5\ny'' = w/H*sqrt(1 + y'^2)\ny(0) = 0; y'(0) = 1`,
        ),
      ),
    );
    expect(text).toContain("  y'    numerically (y'' reads y' (a cycle): not a polynomial in x)");
    expect(text).toContain('  simulate integrates numerically (the analytic path needs every part in closed form)');
  });
});
