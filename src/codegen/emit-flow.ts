/**
 * The functions of the flow: the right-hand side (switching primitives locked), and the
 * watched functions (state events, then switching functions) with their rates along the flow
 * and the bounds of their rounding, all at once for the step and one by one for the root finder.
 */
import type { Expr } from '../expression/ast.js';
import { firstWithSameZeros } from './watch-zeros.js';
import type { FirstOrderSystem } from '../transform/system.js';
import type { WatchEntry } from './compile.js';
import { literal, type Emitter } from './emitter.js';
import type { Program } from './program.js';

/** The watched functions (state events, then switching functions), whether each is affine, and their rates. */
export function watchedFunctions(system: FirstOrderSystem, em: Emitter) {
  const watchInfo: WatchEntry[] = [];
  const watchExprs: Expr[] = [];
  system.events.forEach((ev, i) => {
    if (ev.kind !== 'state' || !ev.condition) return;
    const g: Expr = ev.booleanCondition
      ? {
          kind: 'if',
          condition: ev.condition,
          then: { kind: 'number', value: 1, span: ev.span },
          otherwise: { kind: 'unary', op: '-', operand: { kind: 'number', value: 1, span: ev.span }, span: ev.span },
          span: ev.span,
        }
      : ev.condition;
    watchInfo.push({ kind: 'event', event: i, affine: em.degree(g) <= 1, zeroOf: -1 });
    watchExprs.push(g);
  });
  system.switching.forEach((s, i) => {
    watchInfo.push({ kind: 'switch', index: i, affine: em.degree(s.g) <= 1, zeroOf: -1 });
    watchExprs.push(s.g);
  });
  firstWithSameZeros(watchExprs).forEach((first, k) => (watchInfo[k].zeroOf = first));
  // (per watched function: the side of a jump it stands for where it is exactly zero, or 0)
  const zeroSides = watchInfo.map((w) => (w.kind === 'event' ? (system.events[w.event].zeroSide ?? 0) : 0));
  // Their rates of change along the flow (NaN where none is known, e.g. a boolean condition).
  const rateExprs: (Expr | null)[] = watchInfo.map((w) =>
    w.kind === 'event' ? system.events[w.event].conditionRate : system.switching[w.index].rate,
  );
  return { watchInfo, watchExprs, rateExprs, zeroSides };
}

export type Watched = ReturnType<typeof watchedFunctions>;

/** Rounding bounds of the rates (EVENTS.md, 1): 8 ulps of the magnitudes each rate adds up. */
const ULPS = literal(8 * Number.EPSILON);

/**
 * A watched function's value, put off zero on the side `side` where it is exactly zero: it
 * stands for a function that jumps there (step(x) - 0.5 as x, which step(0) = 1 puts at +0.5:
 * x := 0 from above is no crossing). 0: as it is.
 */
function onSide(value: string, side: number): string {
  return side === 0 ? value : `onSide(${value}, ${side})`;
}

/** The right-hand side `rhs(t, y, p, d, sw, out)`: switching primitives locked, so no step sees a discontinuity. */
export function rhsPart(system: FirstOrderSystem, program: Program, stateSlot: Map<string, number>): string {
  return program.outFn(
    'rhs',
    system.equations.map((q, i) => ({
      deps: [q.rhs],
      line: (e) => `  out[${stateSlot.get(q.state) ?? i}] = ${e.expr(q.rhs, 'locked')};\n`,
    })),
    'locked',
  );
}

/**
 * Writes the functions of all watched functions `watched` (in watch order) at once into
 * `program`, after the right-hand side: their values, rates and rounding bounds (the stepper's).
 */
export function emitWatchArrays(
  system: FirstOrderSystem,
  program: Program,
  { watchExprs, rateExprs, zeroSides }: Watched,
): void {
  const { parts, outFn } = program;
  // Watched functions: state events, then switching functions.
  parts.push(
    outFn(
      'watch',
      watchExprs.map((w, i) => ({
        deps: [w],
        line: (e) => `  out[${i}] = ${onSide(e.expr(w, 'direct'), zeroSides[i])};\n`,
      })),
      'direct',
    ),
  );
  parts.push(
    outFn(
      'watchRate',
      rateExprs.map((r, i) => ({
        deps: r ? [r] : [],
        line: (e) => `  out[${i}] = ${r ? e.expr(r, 'locked') : 'NaN'};\n`,
      })),
      'locked',
    ),
  );
  // Rounding bounds (EVENTS.md, 1): each function's running error bound (Emitter.rounding).
  parts.push(
    outFn(
      'watchBound',
      watchExprs.map((w, i) => ({ deps: [w], line: (e) => `  out[${i}] = ${e.rounding(w, 'direct')};\n` })),
      'direct',
    ),
  );
  // the watched functions under the locked branches, for setting the switches at an instant
  // (a switching function that reads a relation at its own zero takes the branch chosen there;
  // without switching functions nothing is locked and it is watch itself)
  parts.push(
    system.switching.length === 0
      ? 'const watchLocked = watch;'
      : outFn(
          'watchLocked',
          watchExprs.map((w, i) => ({
            deps: [w],
            line: (e) => `  out[${i}] = ${onSide(e.expr(w, 'locked'), zeroSides[i])};\n`,
          })),
          'locked',
        ),
  );
  parts.push(
    outFn(
      'rateBound',
      rateExprs.map((r, i) => ({
        deps: r ? [r] : [],
        line: (e) => `  out[${i}] = ${r ? `${ULPS} * ${e.magnitude(r, 'locked')}` : 'NaN'};\n`,
      })),
      'locked',
    ),
  );
}

/**
 * Writes each watched function, its rate and their rounding bounds alone into `program`, after
 * emitWatchArrays: for the root finder, refining one crossing costs one function, not all N
 * of a row of N spheres (and for event iteration, on both paths).
 */
export function emitWatchFamilies({ watchExprs, rateExprs, zeroSides }: Watched, program: Program): void {
  const { family, bodyOf } = program;
  family('watch', 't, y, p, d, sw', (e) =>
    watchExprs.map((w, i) => bodyOf([w], 'direct', `  return ${onSide(e.expr(w, 'direct'), zeroSides[i])};\n`)),
  );
  family('watchRate', 't, y, p, d, sw', (e) =>
    rateExprs.map((r) => bodyOf(r ? [r] : [], 'locked', `  return ${r ? e.expr(r, 'locked') : 'NaN'};\n`)),
  );
  family('watchBound', 't, y, p, d, sw', (e) =>
    watchExprs.map((w) => bodyOf([w], 'direct', `  return ${e.rounding(w, 'direct')};\n`)),
  );
  // the magnitudes each function adds up, the scale of its terms (a tolerance relative to them)
  family('watchSize', 't, y, p, d, sw', (e) =>
    watchExprs.map((w) => bodyOf([w], 'direct', `  return ${e.magnitude(w, 'direct')};\n`)),
  );
  family('rateBound', 't, y, p, d, sw', (e) =>
    rateExprs.map((r) =>
      bodyOf(r ? [r] : [], 'locked', `  return ${r ? `${ULPS} * ${e.magnitude(r, 'locked')}` : 'NaN'};\n`),
    ),
  );
}
