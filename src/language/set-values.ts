/**
 * Parameter values given with the model's text (`compileModel(text, file, { set })`, the
 * command line's `--set`) written into its declarations, so that the compiled model carries
 * them as its own: a structural parameter shapes the arrays (arrays.ts does that while writing
 * them out), and every other one becomes the default of every run of that compiled model.
 */
import type { Expr, ModelAst, Span, Statement } from '../expression/ast.js';

/** The model with the values of `set` in its parameter and unknown declarations, and the names of `set` it has none of. */
export function setParameterValues(
  ast: ModelAst,
  set: ReadonlyMap<string, number>,
): { ast: ModelAst; unknown: string[]; declared: string[] } {
  const declared: string[] = [];
  const used = new Set<string>();
  const statements = ast.statements.map((s): Statement => {
    if (s.kind !== 'parameter' && s.kind !== 'unknown') return s;
    for (const d of s.declarations) declared.push(d.name);
    if (set.size === 0 || !s.declarations.some((d) => set.has(d.name))) return s;
    return {
      ...s,
      declarations: s.declarations.map((d) => {
        const v = set.get(d.name);
        if (v === undefined) return d;
        used.add(d.name);
        return { ...d, value: numberNode(v, d.value.span) };
      }),
    };
  });
  const unknown = [...set.keys()].filter((k) => !used.has(k));
  return { ast: set.size === 0 ? ast : { ...ast, statements }, unknown, declared };
}

function numberNode(v: number, span: Span): Expr {
  if (v < 0 || Object.is(v, -0)) return { kind: 'unary', op: '-', operand: { kind: 'number', value: -v, span }, span };
  return { kind: 'number', value: v, span };
}
