/**
 * The closed forms of the analytic path (issue 23), generated as code like the right-hand side,
 * from the Taylor coefficients the structure computed (structure/lie-series.ts).
 *
 * For a polynomial component the Lie derivatives terminate: with L e = ∂e/∂t + Σ ∂e/∂y_j f_j
 * (the derivative along the flow; step and discrete variables are constant between events),
 * L^k x = 0 beyond x's degree K, so the segment is exactly the Taylor polynomial
 *
 *     x(τ + h) = Σ_{k=0..K} L^k x(τ) h^k / k!
 *
 * and an event function g of degree D in t has the Taylor coefficients L^k g(τ)/k!, k = 0..D,
 * about the current time: its crossings are the roots of that polynomial.
 *
 * Generated, per clock group, `advance(t, h, y, p, d)`: moves the group's states from their
 * time t to t + h in place (every coefficient is read before any state is written). Per state
 * event with a polynomial function, `coefficients(t, y, p, d, out)`: out[k] = L^k g/k! for
 * k = 0..D, and out[D + 1 + k] a bound on the rounding of out[k] (8 ulps of the magnitudes it
 * adds up, the scale on which zero is judged: EVENTS.md 1). The states an event reads must be
 * at time t. Elements of a row of bodies that differ only in their slots become one factory
 * each (loops.ts), so the source does not grow with N.
 *
 * Security as in compile.ts: the code is written by the compiler's emitter only.
 */
import type { Expr } from '../expression/ast.js';
import type { SystemStructure } from '../structure/structure.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { foldFunctions } from './loops.js';
import { LinearEventFunction, LINEAR_ORDER, type GradientFunction } from './linear-event.js';
import { LinearPropagator, type MatrixFunction } from './propagator.js';
import { PRELUDE } from './emitter.js';

/** What the compiler's emitter offers (see compile.ts): the only way code is written. */
export interface ClosedFormEmitter {
  expr(e: Expr, mode: 'direct'): string;
  magnitude(e: Expr, mode: 'direct'): string;
}

export type AdvanceFunction = (t: number, h: number, y: Float64Array, p: Float64Array, d: Float64Array) => void;
export type CoefficientFunction = (
  t: number,
  y: Float64Array,
  p: Float64Array,
  d: Float64Array,
  out: Float64Array,
) => void;

export interface CompiledClosedForm {
  /** per clock group (structure.groups): its state slots and its propagator; null for a numeric group */
  advance: (AdvanceFunction | null)[];
  /** per event of the system: the Taylor coefficients of its function (state events with a polynomial or linear function), else null */
  coefficients: (CoefficientFunction | null)[];
  /**
   * per event: the same function where only the value and the rate (out[0], out[1]) and their
   * bounds (out[D + 1], out[D + 2]) are asked for; it may leave the rest as it was (a linear
   * event's skips the higher orders)
   */
  valueRate: (CoefficientFunction | null)[];
  /** per event: its function along a linear block (windows of validity, coefficients about any time), else null */
  linear: (LinearEventFunction | null)[];
  /** per event: the degree of its function in t, -1 where there are no coefficients */
  degree: Int32Array;
  /** the highest degree of any event function (the size of a coefficient buffer is 2·(maxDegree + 1)) */
  maxDegree: number;
  readonly source: string;
}

/** 8 ulps, as the rounding bounds of compile.ts */
const ULPS = 8 * Number.EPSILON;

export function compileClosedForm(
  sys: FirstOrderSystem,
  structure: SystemStructure,
  em: ClosedFormEmitter,
): CompiledClosedForm {
  const stateSlot = new Map(sys.states.map((s, i) => [s.name, i]));
  // (the Taylor coefficients in t, from the structure: lie-series.ts)
  const taylorOf = new Array<Expr[] | null>(sys.states.length).fill(null);
  for (const c of structure.components) if (c.kind === 'polynomial') taylorOf[c.states[0]] = c.taylor;

  // Per polynomial group: every coefficient first, then the Horner forms.
  const groupBodies: string[] = [];
  const groupIndex: number[] = [];
  structure.groups.forEach((g, gi) => {
    if (g.degree < 0) return;
    const consts: string[] = [];
    const writes: string[] = [];
    for (const s of g.states) {
      const x = sys.states[s].name;
      const terms = (taylorOf[s] ?? []).slice(1);
      if (terms.length === 0) continue;
      const names = terms.map((c) => {
        const a = `c${consts.length}`;
        consts.push(`  const ${a} = ${em.expr(c, 'direct')};\n`);
        return a;
      });
      // Horner in h: y + h*(a1 + h*(a2 + ...))
      let horner = names[names.length - 1];
      for (let k = names.length - 2; k >= 0; k--) horner = `${names[k]} + h * (${horner})`;
      writes.push(`  y[${stateSlot.get(x)}] += h * (${horner});\n`);
    }
    groupBodies.push(consts.join('') + writes.join(''));
    groupIndex.push(gi);
  });

  // Per state event with a polynomial function: its coefficients and their rounding bounds.
  const eventBodies: string[] = [];
  const eventIndex: number[] = [];
  const degree = new Int32Array(sys.events.length).fill(-1);
  sys.events.forEach((ev, i) => {
    const D = structure.events[i].degree;
    if (ev.kind !== 'state' || !ev.condition || D < 0) return;
    const coefficients = structure.events[i].taylor;
    if (coefficients === null) return;
    const lines = coefficients.map((c, k) => `  out[${k}] = ${em.expr(c, 'direct')};\n`);
    coefficients.forEach((c, k) => lines.push(`  out[${D + 1 + k}] = ${ULPS} * ${em.magnitude(c, 'direct')};\n`));
    eventBodies.push(lines.join(''));
    eventIndex.push(i);
    degree[i] = D;
  });

  // Per linear group: its matrix and inhomogeneous part; per linear event: its gradient and constant.
  const matrixBodies: string[] = [];
  const matrixIndex: number[] = [];
  structure.groups.forEach((g, gi) => {
    if (!g.linear) return;
    const n = g.linear.states.length;
    const lines: string[] = [];
    g.linear.matrix.forEach((row, i) =>
      row.forEach((e, j) => lines.push(`  A[${i * n + j}] = ${em.expr(e, 'direct')};\n`)),
    );
    g.linear.inhomogeneous.forEach((e, i) => lines.push(`  b[${i}] = ${em.expr(e, 'direct')};\n`));
    matrixBodies.push(lines.join(''));
    matrixIndex.push(gi);
  });
  const gradientBodies: string[] = [];
  const gradientIndex: number[] = [];
  structure.events.forEach((e, i) => {
    if (!e.linear) return;
    const lines = e.linear.gradient.map((c, j) => `  c[${j}] = ${em.expr(c, 'direct')};\n`);
    lines.push(`  return ${em.expr(e.linear.constant, 'direct')};\n`);
    gradientBodies.push(lines.join(''));
    gradientIndex.push(i);
  });

  const adv = foldFunctions('advance', 't, h, y, p, d', groupBodies);
  const coef = foldFunctions('coefficients', 't, y, p, d, out', eventBodies);
  const mat = foldFunctions('matrix', 'p, d, A, b', matrixBodies);
  const grad = foldFunctions('gradient', 'p, d, c', gradientBodies);
  const source = [
    ...PRELUDE,
    adv.definitions,
    coef.definitions,
    mat.definitions,
    grad.definitions,
    `return { advance: ${adv.list}, coefficients: ${coef.list}, matrix: ${mat.list}, gradient: ${grad.list} };`,
  ].join('\n');
  const made = new Function(source)() as {
    advance: AdvanceFunction[];
    coefficients: CoefficientFunction[];
    matrix: MatrixFunction[];
    gradient: GradientFunction[];
  };
  const advance: (AdvanceFunction | null)[] = structure.groups.map(() => null);
  groupIndex.forEach((gi, k) => (advance[gi] = made.advance[k]));
  const coefficients: (CoefficientFunction | null)[] = sys.events.map(() => null);
  eventIndex.forEach((ei, k) => (coefficients[ei] = made.coefficients[k]));
  // (a polynomial's coefficients are few: all of them)
  const valueRate = coefficients.slice();
  // the linear blocks' propagators, and their events' functions along them
  const blocks: (LinearPropagator | null)[] = structure.groups.map(() => null);
  matrixIndex.forEach((gi, k) => {
    const prop = new LinearPropagator(Int32Array.from(structure.groups[gi].linear!.states), made.matrix[k]);
    blocks[gi] = prop;
    advance[gi] = (_t, h, y, p, d) => {
      prop.update(p, d);
      prop.advanceSlots(h, y);
    };
  });
  const linear: (LinearEventFunction | null)[] = sys.events.map(() => null);
  gradientIndex.forEach((ei, k) => {
    const e = structure.events[ei];
    const f = new LinearEventFunction(blocks[e.reads[0]]!, made.gradient[k]);
    linear[ei] = f;
    coefficients[ei] = (_t, y, p, d, out) => f.coefficients(y, p, d, out);
    valueRate[ei] = (_t, y, p, d, out) => f.valueAndRate(y, p, d, out);
    degree[ei] = LINEAR_ORDER;
  });
  let maxDegree = 0;
  for (const D of degree) if (D > maxDegree) maxDegree = D;
  return { advance, coefficients, valueRate, linear, degree, maxDegree, source };
}
