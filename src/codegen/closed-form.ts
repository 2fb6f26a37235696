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
/** A group's range guard (see CompiledClosedForm.rangeLost): the position in the group of a state whose coefficient lost range, or -1. */
export type RangeGuard = (t: number, y: Float64Array, p: Float64Array, d: Float64Array) => number;
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
  /**
   * per clock group: null for a group without polynomial coefficients, else its range guard,
   * which evaluates the group's Taylor coefficients as `advance` does, beside a bound on what
   * leaving the range of normal doubles cost them, and returns the position (in the group's
   * states) of the first state whose coefficient lost more than its rounding there, or -1.
   * A product or quotient that underflows, B*T/T^2 with B = 1e-200, T = 1e150 (1e-350, 0 in
   * doubles), or that divides by a power that overflowed, (B*T)/T^2 with T = 1e200, leaves
   * no trace in any value: b' = 2 B t/T then moved as b = 0, status ok, where every value of
   * the motion is a normal double. An overflow that survives to a coefficient (Infinity) is
   * the advance's own check (report/path.ts, overflowingGroup).
   */
  rangeLost: (RangeGuard | null)[];
  /**
   * per event: the range guard of its function's Taylor coefficients (state events with a
   * polynomial function), returning the order of the first that lost range, or -1; else
   * null. x*A/T - 5e-101 under x' = 1, A = 1e-200, T = 1e200 has the rate A/T = 1e-400, 0 in
   * doubles: the function looked constant and its crossing at x = 5e299 was never found.
   */
  eventRangeLost: (RangeGuard | null)[];
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

/** the smallest normal double: below it a double has fewer than 53 bits */
const MIN_NORMAL = 2.2250738585072014e-308;

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
  const eventGuardBodies: string[] = [];
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
    const guardLines: string[] = [];
    const temp = { n: 0 };
    coefficients.forEach((c, k) => {
      const [v, e] = guardCode(c, em, guardLines, temp);
      if (e !== '0') guardLines.push(`  if (${e} > ${ULPS} * Math.abs(${v})) return ${k};\n`);
    });
    eventGuardBodies.push(guardLines.join('') + '  return -1;\n');
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

  // Per polynomial group: its range guard (rangeLost), indexed as groupBodies.
  const guardBodies: string[] = [];
  structure.groups.forEach((g) => {
    if (g.degree < 0) return;
    const lines: string[] = [];
    const temp = { n: 0 };
    g.states.forEach((s, j) => {
      for (const c of (taylorOf[s] ?? []).slice(1)) {
        const [v, e] = guardCode(c, em, lines, temp);
        if (e !== '0') lines.push(`  if (${e} > ${ULPS} * Math.abs(${v})) return ${j};\n`);
      }
    });
    guardBodies.push(lines.join('') + '  return -1;\n');
  });

  const adv = foldFunctions('advance', 't, h, y, p, d', groupBodies);
  const guard = foldFunctions('rangeLost', 't, y, p, d', guardBodies);
  const coef = foldFunctions('coefficients', 't, y, p, d, out', eventBodies);
  const eventGuard = foldFunctions('eventRangeLost', 't, y, p, d', eventGuardBodies);
  const mat = foldFunctions('matrix', 'p, d, A, b', matrixBodies);
  const grad = foldFunctions('gradient', 'p, d, c', gradientBodies);
  const source = [
    ...PRELUDE,
    ...RANGE_PRELUDE,
    adv.definitions,
    guard.definitions,
    coef.definitions,
    eventGuard.definitions,
    mat.definitions,
    grad.definitions,
    `return { advance: ${adv.list}, rangeLost: ${guard.list}, eventRangeLost: ${eventGuard.list}, coefficients: ${coef.list}, matrix: ${mat.list}, gradient: ${grad.list} };`,
  ].join('\n');
  const made = new Function(source)() as {
    advance: AdvanceFunction[];
    rangeLost: RangeGuard[];
    eventRangeLost: RangeGuard[];
    coefficients: CoefficientFunction[];
    matrix: MatrixFunction[];
    gradient: GradientFunction[];
  };
  const advance: (AdvanceFunction | null)[] = structure.groups.map(() => null);
  groupIndex.forEach((gi, k) => (advance[gi] = made.advance[k]));
  const rangeLost: (RangeGuard | null)[] = structure.groups.map(() => null);
  groupIndex.forEach((gi, k) => (rangeLost[gi] = made.rangeLost[k]));
  const coefficients: (CoefficientFunction | null)[] = sys.events.map(() => null);
  eventIndex.forEach((ei, k) => (coefficients[ei] = made.coefficients[k]));
  const eventRangeLost: (RangeGuard | null)[] = sys.events.map(() => null);
  eventIndex.forEach((ei, k) => (eventRangeLost[ei] = made.eventRangeLost[k]));
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
  return { advance, rangeLost, eventRangeLost, coefficients, valueRate, linear, degree, maxDegree, source };
}

/**
 * The helpers of the range guards: the bound on what leaving the normal range cost a product,
 * a quotient and a power, from the operands' values (a, b), their bounds (ea, eb) and the
 * result r. An operand's loss carries on to first order (|b| ea + |a| eb for a product); a
 * result below the smallest normal double from nonzero operands lost up to the smallest
 * subnormal, MIN_VALUE (it is 0 or has fewer digits); a quotient by a divisor that overflowed
 * to Infinity lost everything (1e-50 divided by an Infinity that stands for 1e400 is 1e-450,
 * not 0). Ordinary rounding is not counted: the guard compares with the coefficient's own ulps.
 */
const RANGE_PRELUDE: readonly string[] = [
  `const lostMul = (r, a, b, ea, eb) => (ea === 0 ? 0 : Math.abs(b) * ea) + (eb === 0 ? 0 : Math.abs(a) * eb) + (Math.abs(r) < ${MIN_NORMAL} && a !== 0 && b !== 0 ? ${Number.MIN_VALUE} : 0);`,
  `const lostDiv = (r, a, b, ea, eb) => (ea === 0 ? 0 : ea / Math.abs(b)) + (eb === 0 ? 0 : Math.abs(r / b) * eb) + (Math.abs(r) < ${MIN_NORMAL} && a !== 0 && Math.abs(a) < Infinity ? (Math.abs(b) < Infinity ? ${Number.MIN_VALUE} : Infinity) : 0);`,
  `const lostPow = (r, a, n, ea) => (ea === 0 ? 0 : Math.abs((n * r) / a) * ea) + (Math.abs(r) < ${MIN_NORMAL} && a !== 0 && Math.abs(a) < Infinity ? ${Number.MIN_VALUE} : 0);`,
];

/**
 * Code for e's value and for the bound on what leaving the range of normal doubles cost it
 * (RANGE_PRELUDE), as statements into lines (temporaries g0, g1, ... and their bounds u0,
 * u1, ...); returns the two expressions. Sums and signs pass the bounds on; a function of an
 * argument that lost range is judged lost (Infinity: the stepper is the safe side); other
 * nodes (numbers, names, relations) lose nothing.
 */
function guardCode(e: Expr, em: ClosedFormEmitter, lines: string[], temp: { n: number }): [string, string] {
  const fresh = (value: string, lost: string): [string, string] => {
    const k = temp.n++;
    lines.push(`  const g${k} = ${value};\n`);
    if (lost === '0') return [`g${k}`, '0'];
    lines.push(`  const u${k} = ${lost.replace(/\$r/g, `g${k}`)};\n`);
    return [`g${k}`, `u${k}`];
  };
  switch (e.kind) {
    case 'unary': {
      if (e.op === 'not') return [em.expr(e, 'direct'), '0'];
      const [v, u] = guardCode(e.operand, em, lines, temp);
      return [e.op === '-' ? `(-${v})` : v, u];
    }
    case 'binary': {
      if (!['+', '-', '*', '/', '^'].includes(e.op)) return [em.expr(e, 'direct'), '0'];
      const [a, ua] = guardCode(e.left, em, lines, temp);
      if (e.op === '^') {
        if (e.right.kind === 'number')
          return fresh(`Math.pow(${a}, ${e.right.value})`, `lostPow($r, ${a}, ${e.right.value}, ${ua})`);
        const [x, ux] = guardCode(e.right, em, lines, temp);
        return fresh(
          `Math.pow(${a}, ${x})`,
          ux === '0' && ua === '0'
            ? `lostPow($r, ${a}, 1, 0)`
            : `(${ua} + ${ux} === 0 ? lostPow($r, ${a}, 1, 0) : Infinity)`,
        );
      }
      const [b, ub] = guardCode(e.right, em, lines, temp);
      if (e.op === '+' || e.op === '-')
        return fresh(`${a} ${e.op} ${b}`, ua === '0' && ub === '0' ? '0' : `${ua} + ${ub}`);
      return fresh(`${a} ${e.op} ${b}`, `${e.op === '*' ? 'lostMul' : 'lostDiv'}($r, ${a}, ${b}, ${ua}, ${ub})`);
    }
    case 'call': {
      const lost = e.args.map((a) => guardCode(a, em, lines, temp)[1]).filter((u) => u !== '0');
      return fresh(em.expr(e, 'direct'), lost.length === 0 ? '0' : `(${lost.join(' + ')} === 0 ? 0 : Infinity)`);
    }
    case 'if': {
      const [t, ut] = guardCode(e.then, em, lines, temp);
      const [o, uo] = guardCode(e.otherwise, em, lines, temp);
      const c = em.expr(e.condition, 'direct');
      return fresh(`(${c} !== 0 ? ${t} : ${o})`, ut === '0' && uo === '0' ? '0' : `(${c} !== 0 ? ${ut} : ${uo})`);
    }
    default:
      return [em.expr(e, 'direct'), '0'];
  }
}
