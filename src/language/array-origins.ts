/**
 * Where written-out text comes from: each statement, declaration and call that `arrays.ts`
 * writes out has a span of its own, mapped here to the statement as written and the loop
 * values of its copy, so that `transform` can print the template and order events as the
 * written-out file would.
 */
import type { Span, Statement } from '../expression/ast.js';

/** One enclosing loop of a written-out statement. */
export interface LoopFrame {
  variable: string;
  /** the range as written: `i in 2:N-1` */
  range: string;
  value: number;
}

/** Where a written-out statement or node comes from. */
export interface Origin {
  /** the statement as written (in `ModelAst.template`) */
  template: Statement;
  /** the enclosing `for` blocks, outermost first, with this copy's values */
  loops: LoopFrame[];
  /** the position of the written-out statement in `ModelAst.statements` */
  ordinal: number;
  /** the whole model's template and structural parameters */
  expansion: Expansion;
}

export interface Expansion {
  template: Statement[];
  structural: string[];
}

/** Written by the expansion of arrays only (`array-expressions.ts`); read through {@link originOf}. */
export const origins = new WeakMap<Span, Origin>();

/** The origin of a span of written-out text (undefined for models without arrays). */
export function originOf(span: Span): Origin | undefined {
  return origins.get(span);
}
