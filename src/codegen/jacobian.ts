/**
 * The exact Jacobian of the transformed first-order system, derived symbolically and compiled
 * next to the right-hand side: what an implicit method needs instead of n extra evaluations
 * of f per step for finite differences (and, for a Rosenbrock method, what its order rests on).
 *
 * Named values (algebraic variables) are differentiated by the chain rule rather than inlined:
 * a chain of named values that each read the one before would grow exponentially when
 * inlined, while the chain rule keeps every derivative in terms of the named values, which the
 * generated function computes once (the same `const vK = ...` prelude as the right-hand side).
 *
 * Switching primitives (relations, step, sign) are held fixed within a step, as in the
 * right-hand side ('locked' mode), so their derivative is zero, and the Jacobian is that of
 * the smooth piece the step integrates.
 */
import type { Expr } from '../expression/ast.js';
import { add, constantValue, differentiate, mul, references, simplify } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { PRELUDE } from './emitter.js';

/** What the compiler's emitter offers (see compile.ts): the only way code is written. */
export interface JacobianEmitter {
  prelude(exprs: Expr[], mode: 'locked'): string;
  expr(e: Expr, mode: 'locked'): string;
}

export type JacobianHotFunction = (
  t: number,
  y: Float64Array,
  p: Float64Array,
  d: Float64Array,
  sw: Float64Array,
  out: Float64Array,
) => void;

/** The structure of ∂rhs/∂y: its nonzero entries and its band. */
export interface JacobianPattern {
  /** dimension (number of states) */
  n: number;
  /** row and column of each structurally nonzero entry, row-major order */
  rows: Int32Array;
  cols: Int32Array;
  /** lower and upper bandwidth: entry (i, j) is zero unless -lower <= j - i <= upper */
  lower: number;
  upper: number;
  /** whether the right-hand side reads the independent variable (∂rhs/∂t not identically 0) */
  timeDependent: boolean;
}

export interface CompiledJacobian extends JacobianPattern {
  /**
   * Writes ∂rhs_i/∂y_j into out[i·n + j] (dense, row-major n×n) for the structurally nonzero
   * entries only: the caller zeroes `out` once, the zeros never change.
   */
  jac: JacobianHotFunction;
  /**
   * When the band is narrow (bandPays, below): the same entries in band storage,
   * out[i·(lower + upper + 1) + (j − i + lower)], so that a long chain never needs an n×n
   * array; else null.
   */
  jacBand: JacobianHotFunction | null;
  /** writes ∂rhs_i/∂t into out[i] (all n entries) */
  dfdt: JacobianHotFunction;
  /** the generated JavaScript (shown by `transform --format js`) */
  source: string;
}

/** lines per part of a generated function, as in compile.ts (V8 optimises small functions only) */
const CHUNK = 256;

function isZero(e: Expr): boolean {
  return constantValue(e) === 0;
}

/**
 * The symbolic entries: for each equation i, the nonzero ∂rhs_i/∂y_j (by column) and
 * ∂rhs_i/∂t. Set-up only.
 */
export function jacobianEntries(
  system: FirstOrderSystem,
  stateNames: string[],
): { entries: { row: number; col: number; expr: Expr }[]; dt: Expr[] } {
  const stateIndex = new Map(stateNames.map((s, i) => [s, i]));
  const indep = system.independent;
  const named = new Map(system.namedValues.map((v) => [v.name, v.expr]));
  // gradient of a named value with respect to the states and t, memoised (each is needed by
  // every equation that reads it)
  const memo = new Map<string, Map<string, Expr>>();
  const gradient = (e: Expr): Map<string, Expr> => {
    const out = new Map<string, Expr>();
    const accumulate = (k: string, d: Expr) => {
      if (isZero(d)) return;
      const prev = out.get(k);
      out.set(k, prev ? add(prev, d) : d);
    };
    for (const k of references(e)) {
      if (stateIndex.has(k) || k === indep) accumulate(k, differentiate(e, k));
      else if (named.has(k)) {
        const inner = namedGradient(k);
        if (inner.size === 0) continue;
        const outer = simplify(differentiate(e, k));
        if (isZero(outer)) continue;
        for (const [s, g] of inner) accumulate(s, mul(outer, g));
      }
    }
    for (const [k, d] of out) {
      const s = simplify(d);
      if (isZero(s)) out.delete(k);
      else out.set(k, s);
    }
    return out;
  };
  const namedGradient = (k: string): Map<string, Expr> => {
    let g = memo.get(k);
    if (!g) {
      memo.set(k, new Map()); // a cycle cannot occur (named values are ordered), but never loop
      g = gradient(named.get(k)!);
      memo.set(k, g);
    }
    return g;
  };
  const entries: { row: number; col: number; expr: Expr }[] = [];
  const dt: Expr[] = [];
  system.equations.forEach((q, i) => {
    const row = stateIndex.get(q.state) ?? i;
    const g = gradient(q.rhs);
    const cols = [...g.keys()]
      .filter((k) => k !== indep)
      .map((k) => stateIndex.get(k)!)
      .sort((a, b) => a - b);
    for (const col of cols) entries.push({ row, col, expr: g.get(stateNames[col])! });
    dt[row] = g.get(indep) ?? { kind: 'number', value: 0, span: q.rhs.span };
  });
  for (let i = 0; i < stateNames.length; i++)
    if (!dt[i])
      dt[i] = {
        kind: 'number',
        value: 0,
        span: system.equations[0]?.rhs.span ?? { start: 0, end: 0, line: 1, column: 1 },
      };
  entries.sort((a, b) => a.row - b.row || a.col - b.col);
  return { entries, dt };
}

/**
 * Compiles the Jacobian of `system` with the right-hand side's emitter (slots as in
 * compile.ts). Called on first use: a run that never leaves the explicit methods does not pay
 * for the differentiation.
 */
export function compileJacobian(system: FirstOrderSystem, stateNames: string[], em: JacobianEmitter): CompiledJacobian {
  const n = stateNames.length;
  const { entries, dt } = jacobianEntries(system, stateNames);
  const parts: string[] = [...PRELUDE];
  const outFn = (name: string, items: { expr: Expr; slot: number }[]): void => {
    const body = (slice: typeof items) =>
      `${em.prelude(
        slice.map((it) => it.expr),
        'locked',
      )}${slice.map((it) => `  out[${it.slot}] = ${em.expr(it.expr, 'locked')};\n`).join('')}`;
    if (items.length <= CHUNK) {
      parts.push(`function ${name}(t, y, p, d, sw, out) {\n${body(items)}}`);
      return;
    }
    const calls: string[] = [];
    for (let start = 0, c = 0; start < items.length; start += CHUNK, c++) {
      parts.push(`function ${name}Part${c}(t, y, p, d, sw, out) {\n${body(items.slice(start, start + CHUNK))}}`);
      calls.push(`  ${name}Part${c}(t, y, p, d, sw, out);\n`);
    }
    parts.push(`function ${name}(t, y, p, d, sw, out) {\n${calls.join('')}}`);
  };
  let lower = 0,
    upper = 0;
  for (const e of entries) {
    if (e.row - e.col > lower) lower = e.row - e.col;
    if (e.col - e.row > upper) upper = e.col - e.row;
  }
  const banded = bandPays(n, lower, upper);
  parts.push(`// Jacobian d rhs[i] / d y[j] at out[i*${n} + j]: ${entries.length} nonzero entries of ${n * n}`);
  outFn(
    'jac',
    entries.map((e) => ({ expr: e.expr, slot: e.row * n + e.col })),
  );
  if (banded) {
    const w = lower + upper + 1;
    parts.push(
      `// the same in band storage: d rhs[i] / d y[j] at out[i*${w} + (j - i + ${lower})] (bandwidths ${lower}, ${upper})`,
    );
    outFn(
      'jacBand',
      entries.map((e) => ({ expr: e.expr, slot: e.row * w + (e.col - e.row + lower) })),
    );
  }
  parts.push('// d rhs[i] / dt (explicit dependence on the independent variable)');
  outFn(
    'dfdt',
    dt.map((e, i) => ({ expr: e, slot: i })),
  );
  parts.push(`return { jac, jacBand: ${banded ? 'jacBand' : 'null'}, dfdt };`);
  const source = parts.join('\n\n');

  const made = new Function(source)() as {
    jac: JacobianHotFunction;
    jacBand: JacobianHotFunction | null;
    dfdt: JacobianHotFunction;
  };
  return {
    n,
    rows: Int32Array.from(entries, (e) => e.row),
    cols: Int32Array.from(entries, (e) => e.col),
    lower,
    upper,
    timeDependent: dt.some((e) => !isZero(e)),
    jac: made.jac,
    jacBand: made.jacBand,
    dfdt: made.dfdt,
    // only the functions: the helpers (sq, cube) and the return line belong to the rhs's source
    source: parts.slice(3, -1).join('\n\n'),
  };
}

/**
 * Whether band storage pays for an n×n matrix with `lower` sub- and `upper` super-diagonals:
 * when the band (with the fill-in of pivoting) is well inside the matrix.
 */
export function bandPays(n: number, lower: number, upper: number): boolean {
  return n >= 16 && 2 * lower + upper + 1 <= n / 4;
}
