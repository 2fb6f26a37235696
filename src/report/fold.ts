/**
 * An array model printed once: `transform` writes an array model out element by element
 * (arrays.ts), and this folds the printed lines back into loops. A run of consecutive lines, or
 * of consecutive blocks of lines (an event with its actions, the pair x[k]' = ..., u[k]' = ...),
 * that differ only in whole numbers advancing together becomes the first block with those
 * numbers written in a loop variable, under `for i in A:B`:
 *
 * ```
 *   x[1]' = u[1] + S[1]          for i in 1:3:
 *   u[1]' = 0               ->     x[i]' = u[i] + S[i]
 *   x[2]' = u[2] + S[2]            u[i]' = 0
 *   ...
 * ```
 *
 * the elements of an array parameter listed one per line become one line,
 * `v0[1:4] = [0.3, -0.1, 0.7, 0.2]`, and a sum of copies of one term inside a line becomes
 * `sum(i in 1:4, ...)`. Folding is exact: a block is folded only when every
 * copy is reproduced by its template (each number a + b*i; two copies only where the numbers
 * move with the loop or stay), so the printout says the same as the written-out one. Lines
 * without an element (`name[k]`) are never folded, so a model without arrays prints as before.
 *
 * Inside one entry, the lines of an event (print.ts) fold the same way before the entries do,
 * three copies or more, in a variable after i: the 50 jumps `S[1] := S[1] + w`, ... of one
 * arrival of a network become `for j in 1:N: S[j] := S[j] + w`. A loop's range is the model's
 * as written where the copies come from one of its loops, or where they run over an array
 * that one loop makes (`spike[i]`, made by `for i in 1:N`), else the numbers.
 */

/** A whole number standing alone: not part of a name (u1), a decimal (0.5) or an exponent's mantissa (1e-3). */
const INTEGER = /(?<![\w.])\d+(?![\w.])/g;
/** `[3]`, `[2,1]` (or `}[3]`, after a LaTeX name), where an element's index stands. */
const INDEX = /\}?\[\d+(?:,\d+)*\]/g;
const WORD = /\w/;
const LETTER = /[A-Za-z_]/;

/**
 * Whether text names an element: an index right after a name (`x[3]`, `pool[2,1]`). Linear in
 * the text: the name is found by walking back from each index, not by a pattern that starts
 * at every letter (`/[A-Za-z_]\w*\[\d+\]/` takes a minute on a name of 10^6 letters).
 */
function hasElement(text: string): boolean {
  INDEX.lastIndex = 0;
  for (let m = INDEX.exec(text); m !== null; m = INDEX.exec(text)) {
    for (let i = m.index - 1; i >= 0 && WORD.test(text[i]); i--) if (LETTER.test(text[i])) return true;
  }
  return false;
}
/** Longest block (in lines) that may repeat. */
const MAX_BLOCK = 16;

interface Line {
  text: string;
  skeleton: string;
  numbers: number[];
  element: boolean;
}

function analyse(text: string): Line {
  const numbers: number[] = [];
  const skeleton = text
    .replace(INTEGER, (m) => {
      numbers.push(Number(m));
      return '#';
    })
    .replace(/\s+/g, ' ');
  return { text, skeleton, numbers, element: hasElement(text) };
}

/** How a block's numbers move with the loop: number j is slope[j]*i + offset[j]. */
interface Fit {
  count: number;
  first: number;
  slope: number[];
  offset: number[];
}

/**
 * How many consecutive copies of the block lines[s, s+p) follow the pattern of the first two
 * (the loop variable is the first number that changes, and it must grow by one per copy).
 */
function fit(lines: readonly Line[], s: number, p: number): Fit | null {
  if (s + 2 * p > lines.length) return null;
  const block = (k: number) => lines.slice(s + k * p, s + (k + 1) * p);
  const first = block(0);
  if (!first.some((l) => l.element)) return null;
  const second = block(1);
  for (let j = 0; j < p; j++) if (first[j].skeleton !== second[j].skeleton) return null;
  const n0 = first.flatMap((l) => l.numbers);
  const n1 = second.flatMap((l) => l.numbers);
  const d = n1.map((v, j) => v - n0[j]);
  const lead = d.findIndex((x) => x !== 0);
  if (lead < 0 || d[lead] !== 1) return null;
  const i0 = n0[lead];
  const slope = d;
  const offset = n0.map((v, j) => v - slope[j] * i0);
  let count = 2;
  for (; ; count++) {
    if (s + (count + 1) * p > lines.length) break;
    const b = block(count);
    if (b.some((l, j) => l.skeleton !== first[j].skeleton)) break;
    const i = i0 + count;
    const nums = b.flatMap((l) => l.numbers);
    if (nums.some((v, j) => v !== slope[j] * i + offset[j])) break;
  }
  // (any two numbers lie on a line: two copies fold only where their numbers move with the
  // loop or stay, as x[i] and x[i+1] do, not 4 then 3 as (8-i))
  if (count === 2 && slope.some((x) => x !== 0 && x !== 1)) return null;
  return { count, first: i0, slope, offset };
}

function affine(slope: number, offset: number, v: string): string {
  const head = slope === 1 ? v : slope === -1 ? `-${v}` : `${slope}*${v}`;
  if (offset === 0) return head;
  if (slope === -1) return `${offset}-${v}`;
  return offset > 0 ? `${head}+${offset}` : `${head}-${-offset}`;
}

/** The block's first copy with each moving number written in `v`. */
function template(lines: readonly Line[], f: Fit, v: string): string[] {
  let j = 0;
  return lines.map((l) =>
    l.text.replace(INTEGER, (m, at: number, whole: string) => {
      const k = j++;
      if (f.slope[k] === 0) return m;
      const e = affine(f.slope[k], f.offset[k], v);
      // inside an index (x[i+1], a[i,2]) as it is; elsewhere in parentheses unless a bare name
      const before = whole[at - 1],
        after = whole[at + m.length];
      const inIndex = (before === '[' || before === ',') && (after === ']' || after === ',');
      return inIndex || e === v ? e : `(${e})`;
    }),
  );
}

/** The loop variables tried, in order. */
const VARIABLES = ['i', 'j', 'k', 'n', 'q', 'r'];

/** A loop variable not used as a name in the block (nor in `around`, the text the loop stands in). */
function freeVariable(lines: readonly Line[], candidates: readonly string[] = VARIABLES, around = ''): string {
  const text = lines.map((l) => l.text).join('\n') + '\n' + around;
  return candidates.find((v) => !new RegExp(`(?<![\\w\\\\])${v}(?!\\w)`).test(text)) ?? 'i_';
}

/** `  v0[1] = 0.3`, `  v0[2] = -0.1`, ... -> `  v0[1:4] = [0.3, -0.1, 0.7, 0.2]` (one index, consecutive, same suffix). */
function foldValueLists(
  lines: readonly string[],
  hints: readonly (RangeHint | undefined)[],
): { lines: string[]; hints: (RangeHint | undefined)[] } {
  const out: string[] = [];
  const outHints: (RangeHint | undefined)[] = [];
  const pattern = /^(\s*)([A-Za-z_]\w*)\[(\d+)\] = (\S+)(.*)$/;
  for (let s = 0; s < lines.length;) {
    const m = pattern.exec(lines[s]);
    let e = s + 1;
    if (m) {
      while (e < lines.length) {
        const n = pattern.exec(lines[e]);
        if (!n || n[1] !== m[1] || n[2] !== m[2] || Number(n[3]) !== Number(m[3]) + (e - s) || n[5] !== m[5]) break;
        e++;
      }
    }
    if (!m || e - s < 2) {
      out.push(lines[s]);
      outHints.push(hints[s]);
      s++;
      continue;
    }
    const values = lines.slice(s, e).map((l) => pattern.exec(l)![4]);
    out.push(`${m[1]}${m[2]}[${m[3]}:${Number(m[3]) + e - s - 1}] = [${values.join(', ')}]${m[5]}`);
    outHints.push(undefined);
    s = e;
  }
  return { lines: out, hints: outHints };
}

/**
 * Inside one line: a run of three or more terms added at the top level of the right-hand side
 * that are copies of one term, `m*(u[1] + S[1])^2/2 + m*(u[2] + S[2])^2/2 + ...`, becomes
 * `sum(i in 1:4, m*(u[i] + S[i])^2/2)`: what the language's sum() writes out, left to right.
 */
function foldSums(line: string, style: FoldStyle): string {
  if (line.includes('\n') || !hasElement(line)) return line;
  const eq = line.search(/ [:&]?= /);
  if (eq < 0) return line;
  const cut = line.indexOf('= ', eq) + 2;
  const head = line.slice(0, cut),
    rhs = line.slice(cut);
  // split at ' + ' outside parentheses and brackets; one right-hand side only: where the
  // line goes on past it (a closing bracket of the head, the next action of an event after
  // `;` or `,\ `), its terms are no copies of one term
  const terms: string[] = [];
  let depth = 0,
    from = 0;
  for (let k = 0; k < rhs.length; k++) {
    const c = rhs[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth < 0) return line;
    } else if (depth === 0 && (c === ';' || (c === ',' && rhs[k - 1] !== '\\'))) return line;
    else if (depth === 0 && rhs.startsWith(' + ', k)) {
      terms.push(rhs.slice(from, k));
      from = k + 3;
      k += 2;
    }
  }
  terms.push(rhs.slice(from));
  if (terms.length < 3) return line;
  const parsed = terms.map(analyse);
  const out: string[] = [];
  for (let s = 0; s < parsed.length;) {
    const f = fit(parsed, s, 1);
    if (!f || f.count < 3) {
      out.push(parsed[s].text);
      s++;
      continue;
    }
    const v = freeVariable([{ text: line, skeleton: '', numbers: [], element: true }]);
    out.push(style.sum(v, f.first, f.first + f.count - 1, template([parsed[s]], f, v)[0]));
    s += f.count;
  }
  return head + out.join(' + ');
}

export interface FoldStyle {
  /** the loop's header: `for i in 1:N-1:` */
  header(variable: string, from: string, to: string): string;
  /** a one-line block on the header's line (text) or below it (LaTeX) */
  sameLine: boolean;
  /** fold `name[k] = value` lists into one line (the text's parameters) */
  valueLists: boolean;
  /** a sum of copies of a term */
  sum(variable: string, from: number, to: number, term: string): string;
}

export const TEXT_STYLE: FoldStyle = {
  header: (v, a, b) => `for ${v} in ${a}:${b}:`,
  sameLine: true,
  valueLists: true,
  sum: (v, a, b, term) => `sum(${v} in ${a}:${b}, ${term})`,
};

/** A line as it is, or a loop: `body` (template lines in `variable`) for variable = from, ..., to. */
export type FoldItem =
  | string
  | {
      for: string;
      from: number;
      to: number;
      /** the range as the model writes it where the loop is one of the model's (`1:N-1`), else `from:to` */
      range: string;
      body: string[];
    };

/**
 * One `for` block around a printed entry that is a copy made by the model's loops: the
 * statement and the outer loops' values (`key`), the loop's variable, its range as written,
 * this copy's value, and the smallest and largest values among the copies with that key.
 */
export interface LoopHint {
  key: string;
  variable: string;
  fromText: string;
  toText: string;
  value: number;
  min: number;
  max: number;
}

/** The loops around a printed entry, innermost first (empty or undefined: none). */
export type RangeHint = LoopHint[];

/**
 * The model's own range for a fold, when every copy in it comes from one loop of one statement
 * with the loop's value equal to the fold's: its ends as written where the fold reaches them.
 */
function modelRange(
  hints: readonly (RangeHint | undefined)[],
  s: number,
  p: number,
  f: Fit,
): { loop: LoopHint; from: string; to: string } | null {
  const levels = hints[s]?.length ?? 0;
  // the innermost loop whose value is the fold's in every copy (inner loops may vary inside a block)
  level: for (let l = 0; l < levels; l++) {
    const first = hints[s]![l];
    for (let k = 0; k < f.count; k++) {
      for (let j = 0; j < p; j++) {
        const h = hints[s + k * p + j]?.[l];
        if (!h || h.key !== first.key || h.value !== f.first + k) continue level;
      }
    }
    const last = f.first + f.count - 1;
    return {
      loop: first,
      from: f.first === first.min ? first.fromText : String(f.first),
      to: last === first.max ? first.toText : String(last),
    };
  }
  return null;
}

/** An array whose elements all come from one loop of one statement: its indices and that loop's range as written. */
export interface Extent {
  min: number;
  max: number;
  /** `1:N` */
  range: string;
}

/** Array name (`S`) -> its {@link Extent}, for arrays that have one. */
export type Extents = ReadonlyMap<string, Extent>;

export interface FoldOptions {
  /**
   * The range of a fold that is no loop of the model, as written, where the block indexes an
   * array by the loop variable alone (`S[i]`) and that array's extent is the fold's: `1:N`
   * rather than `1:50` (the copies of a sum over j, one event per j).
   */
  extents?: Extents;
  /** fewest copies that fold (2) */
  minCount?: number;
  /** longest block in lines (16) */
  maxBlock?: number;
  /** loop variables to try, in order, and text whose names they must not be */
  variables?: readonly string[];
  around?: string;
  /** fold sums of copies inside a line (true) */
  sums?: boolean;
  /**
   * Lines of the model as written (an event's statement, `from: event c[i] when ...`): the
   * names of the loops around it are its own there, so a fold over its own loop may take that
   * loop's variable although such a line uses it.
   */
  asWritten?: (line: string) => boolean;
}

/** Whether a block may take its loop's own variable: no line uses that name, but those as written. */
function ownFree(block: readonly Line[], own: string, around: string, asWritten?: (line: string) => boolean): boolean {
  const text = (l: Line) =>
    asWritten
      ? l.text
          .split('\n')
          .filter((x) => !asWritten(x))
          .join('\n')
      : l.text;
  return (
    freeVariable(
      block.map((l) => ({ ...l, text: text(l) })),
      [own],
      around,
    ) === own
  );
}

/** The range as written of the arrays the block indexes by `v` alone, when they agree and span the fold. */
function extentRange(body: readonly string[], v: string, from: number, to: number, extents?: Extents): string | null {
  if (!extents || extents.size === 0) return null;
  const ranges = new Set<string>();
  const indexed = new RegExp(`(?<![\\w\\\\])([A-Za-z_]\\w*)\\[${v}\\]`, 'g');
  for (const line of body)
    for (const m of line.matchAll(indexed)) {
      const e = extents.get(m[1]);
      if (e && e.min === from && e.max === to) ranges.add(e.range);
    }
  return ranges.size === 1 ? [...ranges][0] : null;
}

/**
 * The folding itself (see the file comment), as items: lines without elements pass through
 * unchanged; an entry may hold several lines (an event with its actions) and folds as one.
 */
export function foldItems(
  input: readonly string[],
  style: FoldStyle = TEXT_STYLE,
  inputHints: readonly (RangeHint | undefined)[] = [],
  options: FoldOptions = {},
): FoldItem[] {
  const { minCount = 2, maxBlock = MAX_BLOCK, variables = VARIABLES, around = '', sums = true } = options;
  const listed = style.valueLists ? foldValueLists(input, inputHints) : { lines: [...input], hints: [...inputHints] };
  const lines = listed.lines.map((l) => analyse(sums ? foldSums(l, style) : l));
  const hints = listed.hints;
  const out: FoldItem[] = [];
  for (let s = 0; s < lines.length;) {
    let best: { p: number; f: Fit } | null = null;
    for (let p = 1; p <= maxBlock; p++) {
      const f = fit(lines, s, p);
      if (f && f.count >= minCount && (!best || f.count * p > best.f.count * best.p)) best = { p, f };
    }
    if (!best) {
      out.push(lines[s].text);
      s++;
      continue;
    }
    const { p, f } = best;
    const block = lines.slice(s, s + p);
    const range = modelRange(hints, s, p, f);
    // the model's own loop variable, unless the block uses that name otherwise
    const own = range?.loop.variable;
    const v = own && ownFree(block, own, around, options.asWritten) ? own : freeVariable(block, variables, around);
    const last = f.first + f.count - 1;
    const body = template(block, f, v);
    out.push({
      for: v,
      from: f.first,
      to: last,
      range: range
        ? `${range.from}:${range.to}`
        : (extentRange(body, v, f.first, last, options.extents) ?? `${f.first}:${last}`),
      body,
    });
    s += p * f.count;
  }
  return out;
}

/** {@link foldItems} printed: each loop under its header (on the header's line when it is one line and the style allows). */
export function foldLines(
  input: readonly string[],
  style: FoldStyle = TEXT_STYLE,
  hints: readonly (RangeHint | undefined)[] = [],
  options: FoldOptions = {},
): string[] {
  const out: string[] = [];
  for (const item of foldItems(input, style, hints, options)) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { body } = item;
    const [from, to] = splitRange(item.range);
    const head = style.header(item.for, from, to);
    const indent = /^\s*/.exec(body[0])![0];
    const bullet = /^\s*- /.exec(body[0]);
    const oneLine = body.length === 1 && style.sameLine && !body[0].includes('\n');
    if (oneLine && bullet) out.push(`${bullet[0]}${head} ${body[0].slice(bullet[0].length)}`);
    else if (oneLine) out.push(`${indent}${head} ${body[0].trimStart()}`);
    else
      out.push(
        `${indent}${head}`,
        ...body.map((l) =>
          l
            .split('\n')
            .map((x) => `  ${x}`)
            .join('\n'),
        ),
      );
  }
  return out;
}

/** `1:N-1` -> ['1', 'N-1'] (the first colon: range ends have none) */
export function splitRange(range: string): [string, string] {
  const k = range.indexOf(':');
  return [range.slice(0, k), range.slice(k + 1)];
}

/** Whether a name is an array's element (`x[3]`, `a[2,1]`). */
export function isElement(name: string): boolean {
  return hasElement(name);
}

/** Lines inside one printed entry (an event's actions): as the text, without value lists. */
export const INNER_TEXT_STYLE: FoldStyle = { ...TEXT_STYLE, valueLists: false };

/**
 * Options for folding inside one entry, such as the actions of one event, `S[1] := S[1] + w`
 * to `S[50] := S[50] + w`: three copies at least (two actions alike stay as they are), and a
 * loop variable after i, which a loop around the entry takes, not used in `around` (the
 * entry's text).
 */
export function innerOptions(around: string, extents?: Extents): FoldOptions {
  return { extents, minCount: 3, variables: ['j', 'k', 'n', 'q', 'r', 'i'], around };
}

/** Rows of an align* environment: the header is a row of its own. */
export const LATEX_ALIGN_STYLE: FoldStyle = {
  header: (v, a, b) => `\\text{for } ${v} = ${a}, \\dots, ${b}:`,
  sameLine: false,
  valueLists: false,
  sum: (v, a, b, term) => `\\sum_{${v}=${a}}^{${b}} \\left(${term}\\right)`,
};

/** Items of an itemize list: the header is an item without a label. */
export const LATEX_ITEM_STYLE: FoldStyle = {
  header: (v, a, b) => `\\item[] for $${v} = ${a}, \\dots, ${b}$:`,
  sameLine: false,
  valueLists: false,
  sum: (v, a, b, term) => `\\sum_{${v}=${a}}^{${b}} \\left(${term}\\right)`,
};
