/**
 * The generated source in parts, and the ways functions are written into it: one function
 * with the named values it needs (`fn`), one that writes an array slot by slot, cut into parts
 * V8 still optimises (`outFn`), and families of one function per element folded into
 * factories (`family`, `bodyOf`). `compile` joins the parts into one source.
 */
import type { Expr } from '../expression/ast.js';
import { PRELUDE, type Emitter, type Mode } from './emitter.js';
import { foldFunctions, foldStatements } from './loops.js';

/** lines per part of a generated function that writes an array (see outFn) */
const OUT_CHUNK = 256;

/** How many parts every program starts with (emitter.ts, PRELUDE). */
export const PRELUDE_PARTS = PRELUDE.length;

/** The parts of one generated source, written with the emitter `em`. */
export function programOf(em: Emitter) {
  const parts: string[] = [...PRELUDE];
  const fn = (header: string, exprs: Expr[], mode: Mode, body: (e: Emitter) => string) =>
    `function ${header} {\n${em.prelude(exprs, mode)}${body(em)}}`;
  /**
   * A function `name(t, y, p, d, sw, out)` writing one slot of out per item. Long ones are
   * cut into parts of OUT_CHUNK lines that it calls in turn: V8 does not optimise a function
   * past about 60 KB of bytecode, and the rates of 1025 watched functions ran 70 times slower
   * in one piece than in four.
   */
  const outFn = (
    name: string,
    items: { deps: Expr[]; line: (e: Emitter) => string }[],
    mode: Mode,
    params = 't, y, p, d, sw, out',
  ): string => {
    // The elements of an array model as loops (loops.ts), cut into parts only if still long.
    // (The emitter is pure: the lines come out the same before or after the prelude.)
    const lines = items.map((it) => it.line(em));
    const folded = foldStatements(lines);
    if (folded.length <= OUT_CHUNK)
      return fn(
        `${name}(${params})`,
        items.flatMap((it) => it.deps),
        mode,
        () => folded.join(''),
      );
    const body = (start: number, end: number) => () => foldStatements(lines.slice(start, end)).join('');
    const pieces: string[] = [];
    const calls: string[] = [];
    for (let start = 0, c = 0; start < items.length; start += OUT_CHUNK, c++) {
      const slice = items.slice(start, start + OUT_CHUNK);
      pieces.push(
        fn(
          `${name}Part${c}(${params})`,
          slice.flatMap((it) => it.deps),
          mode,
          body(start, start + OUT_CHUNK),
        ),
      );
      calls.push(`  ${name}Part${c}(${params});\n`);
    }
    return [...pieces, `function ${name}(${params}) {\n${calls.join('')}}`].join('\n\n');
  };
  /**
   * One function per element (the evaluator of each watched function, each event's actions),
   * written as factories where elements differ only in their slots (loops.ts): a row of 1024
   * spheres needs one source text per family, not 1025. Returns the list's expression.
   */
  const families = new Map<string, string>();
  const family = (prefix: string, params: string, bodies: (e: Emitter) => string[]): void => {
    const { definitions, list } = foldFunctions(prefix, params, bodies(em));
    if (definitions) parts.push(definitions);
    families.set(prefix, list);
  };
  // (the named values a body computes are renamed in the order it uses them, local0, local1,
  // ...: v12 in one element's body and v13 in the next would keep them from folding)
  const bodyOf = (exprs: Expr[], mode: Mode, line: string) => {
    const prelude = em.prelude(exprs, mode);
    // (without named values there is nothing to rename: a vK comes only with its const)
    if (prelude === '') return line;
    const local = new Map<string, string>();
    return `${prelude}${line}`.replace(/\bv\d+\b/g, (v) => {
      let name = local.get(v);
      if (!name) {
        name = `local${local.size}`;
        local.set(v, name);
      }
      return name;
    });
  };
  return { parts, fn, outFn, families, family, bodyOf };
}

export type Program = ReturnType<typeof programOf>;
