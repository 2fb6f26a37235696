/**
 * Loops in the generated code. An array model is written out element by element before it is
 * analysed, so the compiler emits one statement per element (`out[2] = (y[2] - y[0]);`,
 * `out[3] = (y[4] - y[2]);`, ...): a row of 1024 spheres gave thousands of lines for V8 to
 * parse on every start. Here runs of statements that differ only in whole numbers advancing
 * together become one loop over the first statement with those numbers written in the loop
 * variable:
 *
 * ```
 *   out[2] = (y[2] - y[0]);        for (let i = 0; i < 3; i++) {
 *   out[3] = (y[4] - y[2]);   ->     out[2 + i] = (y[2 + 2 * i] - y[0 + 2 * i]);
 *   out[4] = (y[6] - y[4]);        }
 * ```
 *
 * Folding is exact: a run is folded only when every statement of it is its template with
 * number j equal to offset[j] + slope[j]·i, so the loop computes what the statements did, in
 * the same order. Only statements that assign an element of an output array are folded (a
 * `const` would change its scope); numbers inside names (`v12`), decimals (`0.5`) and exponents
 * (`1e-15`) are part of the text, never of the pattern.
 */

/** A whole number standing alone: not in a name (v12), a decimal (0.5) or an exponent (1e-15). */
const INTEGER = /(?<![\w.]|[eE][-+])\d+(?![\w.])/g;
/** The same, captured: text.split gives the text between the numbers and the numbers, alternately. */
const INTEGER_SPLIT = /(?<![\w.]|[eE][-+])(\d+)(?![\w.])/;
/** The statements that may be folded: an assignment to an element of an output array. */
const FOLDABLE = /^\s*(out|yOut|dOut|y0|d0)\[\d+\] = /;
/** Runs shorter than this stay as they are: a loop would not be shorter. */
const MIN_COPIES = 4;
/** Longest block (in statements) that may repeat (x[k]' and u[k]' of one element: 2). */
const MAX_BLOCK = 4;

interface Statement {
  text: string;
  skeleton: string;
  numbers: number[];
  foldable: boolean;
}

function analyse(text: string, foldable = FOLDABLE.test(text)): Statement {
  // (one split by the regular expression, which captures the numbers: a callback per number
  // was most of the folding of a row of 1024 spheres)
  const parts = text.split(INTEGER_SPLIT);
  if (parts.length === 1) return { text, skeleton: text, numbers: [], foldable };
  const numbers: number[] = new Array<number>((parts.length - 1) / 2);
  let skeleton = parts[0];
  for (let k = 1; k < parts.length; k += 2) {
    numbers[(k - 1) / 2] = Number(parts[k]);
    skeleton += `#${parts[k + 1]}`;
  }
  return { text, skeleton, numbers, foldable };
}

/** Whether the numbers of the block at `at` (p statements) are offset + slope·count (without copying them). */
function affineCopy(
  statements: readonly Statement[],
  at: number,
  p: number,
  offset: readonly number[],
  slope: readonly number[],
  count: number,
): boolean {
  let j = 0;
  for (let q = 0; q < p; q++) {
    const numbers = statements[at + q].numbers;
    for (let k = 0; k < numbers.length; k++, j++) if (numbers[k] !== offset[j] + slope[j] * count) return false;
  }
  return true;
}

/** How many copies of the block at s of length p follow from the first two (numbers affine in the copy). */
function copies(
  statements: readonly Statement[],
  s: number,
  p: number,
): { count: number; slope: number[]; offset: number[] } | null {
  if (s + 2 * p > statements.length) return null;
  const numbersOf = (k: number) => {
    const out: number[] = [];
    for (let q = s + k * p; q < s + (k + 1) * p; q++) for (const v of statements[q].numbers) out.push(v);
    return out;
  };
  for (let j = 0; j < p; j++) {
    const a = statements[s + j],
      b = statements[s + p + j];
    if (!a.foldable || a.skeleton !== b.skeleton) return null;
  }
  const offset = numbersOf(0);
  const slope = numbersOf(1).map((v, j) => v - offset[j]);
  if (slope.every((d) => d === 0)) return null;
  let count = 2;
  for (; s + (count + 1) * p <= statements.length; count++) {
    let same = true;
    for (let j = 0; j < p && same; j++) same = statements[s + count * p + j].skeleton === statements[s + j].skeleton;
    if (!same) break;
    if (!affineCopy(statements, s + count * p, p, offset, slope, count)) break;
  }
  return { count, slope, offset };
}

/** The template of a block: number j written as offset + slope·i (as it is where the slope is 0). */
function template(
  block: readonly Statement[],
  slope: readonly number[],
  offset: readonly number[],
  loopVariable: string,
): string[] {
  let j = 0;
  return block.map((q) =>
    q.text.replace(INTEGER, () => {
      const a = offset[j],
        b = slope[j];
      j++;
      if (b === 0) return String(a);
      const term = b === 1 ? loopVariable : b === -1 ? `-${loopVariable}` : `${b} * ${loopVariable}`;
      return a === 0 ? `(${term})` : `(${a} + ${term})`;
    }),
  );
}

/**
 * The statements (one per element of `lines`, each ending in a newline) with every run of
 * MIN_COPIES or more foldable copies written as a loop over `loopVariable`.
 */
export function foldStatements(
  lines: readonly string[],
  loopVariable = 'i',
  indent = '  ',
  foldable: RegExp = FOLDABLE,
): string[] {
  const statements = lines.map((line) => analyse(line, foldable.test(line)));
  const out: string[] = [];
  for (let s = 0; s < statements.length;) {
    let best: { p: number; count: number; slope: number[]; offset: number[] } | null = null;
    for (let p = 1; p <= MAX_BLOCK; p++) {
      const c = copies(statements, s, p);
      if (c && c.count >= MIN_COPIES && (!best || c.count * p > best.count * best.p)) best = { p, ...c };
    }
    if (!best) {
      out.push(statements[s].text);
      s++;
      continue;
    }
    const body = template(statements.slice(s, s + best.p), best.slope, best.offset, loopVariable);
    out.push(`${indent}for (let ${loopVariable} = 0; ${loopVariable} < ${best.count}; ${loopVariable}++) {\n`);
    for (const line of body) out.push(`${indent}${line}`);
    out.push(`${indent}}\n`);
    s += best.count * best.p;
  }
  return out;
}

/** A statement that adds a term to a sum being built (see foldSum). */
const ADD_TO = /^\s*s[0-9]+ \+= /;
/** Sums of fewer terms stay one expression. */
export const MIN_SUM_TERMS = 16;

/**
 * A named value that is a sum of many terms (`E = sum(i in 1:N, m*x[i]'^2/2)`, written out
 * as N terms) as statements that add the terms to `name` in order, runs of terms that differ
 * only in whole numbers advancing together as loops: one expression of 16384 terms is code
 * V8 does not optimise, evaluated at every row. Null where that would not be shorter. The
 * terms are added left to right, which rounds differently from the written-out expression
 * by a few ulps of the sum.
 */
export function foldSum(name: string, terms: readonly string[], loopVariable = 'i'): string | null {
  if (terms.length < MIN_SUM_TERMS || !ADD_TO.test(`${name} += `)) return null;
  const lines = terms.map((t) => `  ${name} += ${t};\n`);
  const folded = foldStatements(lines, loopVariable, '  ', ADD_TO);
  if (2 * folded.length > lines.length) return null;
  return `  let ${name} = 0;\n${folded.join('')}`;
}

/**
 * A family of generated functions, one per element (`watch0`, `watch1`, ...: the evaluator of
 * each event function), as source: each run of MIN_COPIES or more bodies that differ only in
 * whole numbers advancing together becomes one factory of the loop variable, and the list
 * makes those functions from it. Returns the definitions and the expression of the list (in
 * index order). `params` is the functions' parameter list, `name` their prefix.
 */
export function foldFunctions(
  name: string,
  params: string,
  bodies: readonly string[],
  loopVariable = 'i',
): { definitions: string; list: string } {
  // (a whole body may be folded, declarations included: a function body is its own scope)
  const parsed = bodies.map((b) => analyse(b, true));
  const definitions: string[] = [];
  const items: string[] = [];
  let families = 0;
  for (let s = 0; s < bodies.length;) {
    const c = copies(parsed, s, 1);
    if (c && c.count >= MIN_COPIES) {
      const [body] = template([parsed[s]], c.slope, c.offset, loopVariable);
      const family = `${name}Family${families++}`;
      definitions.push(`const ${family} = (${loopVariable}) => function (${params}) {\n${body}};\n`);
      items.push(`...Array.from({ length: ${c.count} }, (_, k) => ${family}(k))`);
      s += c.count;
      continue;
    }
    // (a run of identical bodies, the actions of 1e5 events `n := n + 1`, is one factory too)
    let same = 1;
    while (s + same < bodies.length && bodies[s + same] === bodies[s]) same++;
    if (same >= MIN_COPIES) {
      const family = `${name}Family${families++}`;
      definitions.push(`const ${family} = () => function (${params}) {\n${bodies[s]}};\n`);
      items.push(`...Array.from({ length: ${same} }, ${family})`);
      s += same;
      continue;
    }
    definitions.push(`function ${name}${s}(${params}) {\n${bodies[s]}}\n`);
    items.push(`${name}${s}`);
    s++;
  }
  return { definitions: definitions.join(''), list: `[${items.join(', ')}]` };
}
