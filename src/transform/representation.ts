/**
 * User expressions in system terms: fresh names for the u and S slots of jumping levels
 * (`u1`, `S1`; `u[3]`, `S[3]` for array elements), the representation of each level,
 * algebraic variables and situations in dependency order, and derivatives along the flow.
 *
 * The transformer is a chain of classes, each level using only those below it:
 * Representation (`representation.ts`) < DeltaEvents (`delta-events.ts`) < EventBuilder
 * (`events.ts`) < Transformer (`transform.ts`, the steps in order).
 */
import type { Expr } from '../expression/ast.js';
import type { AnalysedModel } from '../analysis/analyse.js';
import { differentiateAlong, firstReference, mapExpr, refKey, references, substitute } from '../expression/expr.js';
import type { NamedValue } from './system.js';

export class Representation {
  protected readonly r: AnalysedModel['reporter'];
  protected readonly t: string;
  protected readonly warnings: string[] = [];
  private readonly usedNames = new Set<string>();
  /** the next number to try for each prefix of {@link freshName} */
  private readonly nextNumber = new Map<string, number>();
  /** names of arrays (`x` of `x[3]`) and plain names: an array's u and S must not collide with either */
  private readonly usedBases = new Set<string>();
  /** `x|1` (the level x[k]' of array x) -> the bases of its u and S arrays */
  private readonly arrayStepNames = new Map<string, { u: string; S: string }>();
  /** user key -> system expression */
  protected readonly representation = new Map<string, Expr>();
  /** user key of a state level -> its slot name */
  protected readonly levelSlot = new Map<string, string>();
  protected readonly stepOfLevel = new Map<string, string>();
  protected readonly rhsOfSlot = new Map<string, Expr>();
  protected namedValues: NamedValue[] = [];
  protected readonly namedByName = new Map<string, Expr>();

  constructor(protected readonly model: AnalysedModel) {
    this.r = model.reporter;
    this.t = model.independent.name;
    for (const n of model.kinds.keys()) {
      this.usedNames.add(n);
      this.usedBases.add(splitElement(n)?.base ?? n);
    }
  }

  /** `prefix1`, `prefix2`, ...: the first not yet used (counting on from the last one given). */
  protected freshName(prefix: string): string {
    for (let k = this.nextNumber.get(prefix) ?? 1; ; k++) {
      const candidate = `${prefix}${k}`;
      if (!this.usedNames.has(candidate) && !this.usedBases.has(candidate)) {
        this.usedNames.add(candidate);
        this.nextNumber.set(prefix, k + 1);
        return candidate;
      }
    }
  }

  /**
   * The u and S slots of a jumping level of an array element: `u[3]`, `S[3]` for the first
   * array (`u_x[3]`, `S_x[3]` for the next, ...), so that the template reads `x[i]' = u[i] + S[i]`.
   */
  protected elementStepNames(base: string, index: string, level: number): { u: string; S: string } {
    const key = `${base}|${level}`;
    let names = this.arrayStepNames.get(key);
    if (!names) {
      const suffixes = ['', `_${base}`, `_${base}${level}`];
      for (let k = 2; !names; k++) {
        const suffix = suffixes.shift() ?? `_${base}${level}_${k}`;
        const u = `u${suffix}`,
          S = `S${suffix}`;
        if (!this.usedBases.has(u) && !this.usedBases.has(S) && !this.usedNames.has(u) && !this.usedNames.has(S))
          names = { u, S };
      }
      this.usedBases.add(names.u);
      this.usedBases.add(names.S);
      this.arrayStepNames.set(key, names);
    }
    return { u: `${names.u}[${index}]`, S: `${names.S}[${index}]` };
  }

  /**
   * A user expression in system terms: derivatives and jumping levels by their representation.
   * `keepHighest`: leave y^(n) alone (only while the regular parts are being resolved).
   */
  protected toSystem(e: Expr, keepHighest: boolean): Expr {
    return mapExpr(e, (n) => {
      if (n.kind === 'derivative' || (n.kind === 'name' && this.levelSlot.has(n.name))) {
        const key = n.kind === 'derivative' ? refKey(n.name, n.order) : n.name;
        const rep = this.representation.get(key);
        if (rep && !(keepHighest && !this.levelSlot.has(key))) return { ...rep, span: n.span } as Expr;
      }
      return undefined;
    });
  }

  protected orderNamedValues(): NamedValue[] {
    const m = this.model;
    const defs = new Map<string, NamedValue>();
    for (const a of m.algebraics)
      defs.set(a.name, { name: a.name, expr: this.toSystem(a.expr, false), isSituation: false, span: a.span });
    for (const s of m.situations)
      defs.set(s.name, { name: s.name, expr: this.toSystem(s.condition, false), isSituation: true, span: s.span });
    const ordered: NamedValue[] = [];
    const mark = new Map<string, number>();
    const visit = (n: string, path: string[]) => {
      if (mark.get(n) === 2) return;
      if (mark.get(n) === 1) {
        const cycle = [...path.slice(path.indexOf(n)), n];
        const span =
          m.algebraics.find((a) => a.name === n)?.span ?? m.situations.find((s) => s.name === n)?.span ?? null;
        throw this.r.at(
          span,
          `these definitions depend on each other in a cycle: ${cycle.join(' -> ')}`,
          'Break the cycle: define one of them without the others.',
        );
      }
      mark.set(n, 1);
      for (const dep of references(defs.get(n)!.expr)) if (defs.has(dep)) visit(dep, [...path, n]);
      mark.set(n, 2);
      ordered.push(defs.get(n)!);
    };
    for (const n of defs.keys()) visit(n, []);
    return ordered;
  }

  /** e with every algebraic variable and situation replaced by its definition (for differentiation). */
  protected inlineNamed(e: Expr): Expr {
    // (done when no name left is one to replace: comparing the printed text before and after
    // each substitution was a fifth of the transform of a row of 1024 spheres)
    let out = e;
    for (let i = 0; i <= this.namedValues.length; i++) {
      if (firstReference(out, (k) => this.namedByName.has(k)) === undefined) return out;
      out = substitute(out, this.namedByName);
    }
    return out;
  }

  /** d e / d t along the flow: the chain rule through the states (steps and discretes are constant between events). */
  totalDerivative(e: Expr): Expr {
    // (one pass along the flow: t' = 1, a state's rate its right-hand side)
    return differentiateAlong(this.inlineNamed(e), (key) => (key === this.t ? 1 : this.rhsOfSlot.get(key)));
  }
}

/** `x[3]` -> base `x`, index `3` (`a[2,1]` -> `a`, `2,1`); null for a plain name. */
export function splitElement(n: string): { base: string; index: string } | null {
  const open = n.indexOf('[');
  if (open <= 0 || !n.endsWith(']')) return null;
  return { base: n.slice(0, open), index: n.slice(open + 1, -1) };
}
