/**
 * The expansion of arrays below the statements: the loop variables in scope and the spans of
 * copies (which carry the loop values), the elements defined and used, and expressions
 * written out (indices evaluated, loop variables replaced by their values, `sum` and `prod`
 * written out as trees of logarithmic depth). `arrays.ts` builds the statements on this.
 */
import type { CallNode, Declaration, Expr, IndexRange, ModelAst, Span } from '../expression/ast.js';
import { ErrorReporter, type ModelError } from '../expression/errors.js';
import { origins, type Expansion, type LoopFrame, type Origin } from './array-origins.js';
import { collectArrayNames } from './array-template.js';
import { elementName } from './element-names.js';

/** terms of a sum or product added left to right before runs are added in pairs (see reduction) */
export const REDUCTION_RUN = 32;

export interface ExpandOptions {
  /**
   * parameter values that replace the model's own before writing out: a structural one (N in
   * `for i in 1:N`) changes the shape; an element's value is set by its name, `v0[3]`
   */
  set?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
}

/** Largest range one loop may have (and `wrote`: most elements a model may write out). */
const MAX_RANGE = 10_000_000;

/**
 * What one written-out element (a statement, a loop value, a term of a sum, a value of a
 * comprehension) costs through transform, compile and a run, about: a row of 1e5 spheres,
 * 1.1e6 elements, peaked at 3.1 GB; its 1e7 ran out of memory after 70 s with a native stack
 * trace, and 2e6 before its first statement. The most a model may write out is the heap over this.
 */
const BYTES_PER_ELEMENT = 3072;
/** The heap a run may use: 4 GiB (Node's default on 64-bit machines) unless the process says (setHeapBudget). */
let heapBytes = 4 * 2 ** 30;

/**
 * Tells the array expansion how much memory this process has (the command line and the Node
 * entry pass V8's heap_size_limit, which --max-old-space-size raises), so that a model too
 * large for it is refused with a message before it runs the process out of memory.
 */
export function setHeapBudget(bytes: number): void {
  if (Number.isFinite(bytes) && bytes > 0) heapBytes = bytes;
}

type DefinitionKind = 'declared' | 'event' | 'situation' | 'algebraic' | 'state' | 'rule';

interface Definition {
  kind: DefinitionKind;
  span: Span;
}
interface Reference {
  element: string;
  base: string;
  written: string;
  span: Span;
}

export class ExpressionExpander {
  protected readonly r: ErrorReporter;
  /** values of parameters (and their elements) known while writing out, for indices and ranges */
  protected readonly values = new Map<string, number>();
  /** where each parameter is declared, for messages and the structural closure */
  protected readonly parameterDeclarations = new Map<string, Declaration>();
  protected readonly structural = new Set<string>();
  /** the first use of each structural parameter, for the message when it is not an integer */
  protected readonly arrayNames = new Set<string>();
  protected readonly definitions = new Map<string, Definition>();
  /** base name -> its elements' index tuples, in definition order */
  protected readonly elementsOf = new Map<string, number[][]>();
  protected readonly references: Reference[] = [];
  /** loop and reduction variables in scope, innermost last */
  protected readonly bound = new Map<string, number>();
  protected readonly frames: LoopFrame[] = [];
  /** `i = 3, j = 1` for the variables in scope; '' outside loops */
  protected context = '';
  protected origin: Origin | null = null;
  protected readonly expansion: Expansion;
  /** `options.set` as a map */
  protected readonly set: ReadonlyMap<string, number>;

  constructor(
    protected readonly ast: ModelAst,
    options: ExpandOptions,
  ) {
    this.r = new ErrorReporter(ast.file, ast.source);
    const set = options.set;
    this.set = set === undefined ? new Map() : set instanceof Map ? set : new Map(Object.entries(set));
    this.expansion = { template: ast.statements, structural: [] };
    collectArrayNames(ast.statements, this.arrayNames);
  }

  protected fail(span: Span, what: string, hint: string): ModelError {
    return this.r.at(span, what, hint);
  }

  /** elements written out so far, and the most this heap holds (BYTES_PER_ELEMENT) */
  private written = 0;
  private readonly maxWritten = Math.max(10_000, Math.floor(heapBytes / BYTES_PER_ELEMENT));

  /** Counts one element written out at `span` (a statement, a loop value); refused past the heap's worth. */
  protected wrote(span: Span): void {
    if (++this.written <= this.maxWritten) return;
    const memory =
      heapBytes >= 2 ** 30 ? `${(heapBytes / 2 ** 30).toFixed(1)} GB` : `${Math.round(heapBytes / 2 ** 20)} MB`;
    throw this.fail(
      this.sp(span),
      `the model writes out more than ${this.maxWritten} elements (statements, loop values, terms of sums): at about ${BYTES_PER_ELEMENT / 1024} KB each through transform and run, more than the ${memory} of memory this process has`,
      'Use smaller ranges, or give Node more memory: NODE_OPTIONS=--max-old-space-size=16384 (in MB) lets deltastep write out about four times as many.',
    );
  }

  // -------------------------------------------------------------------------
  // Spans and scope

  /**
   * The span of a copy: the text's own span outside loops, a new one carrying the loop values
   * inside. `register`: record its origin (statements, declarations and calls, whose spans
   * later stages keep on what they make: states, events, delta events).
   */
  protected sp(span: Span, register = false): Span {
    const copy: Span =
      this.context === ''
        ? span
        : { start: span.start, end: span.end, line: span.line, column: span.column, context: this.context };
    if (register && this.origin) origins.set(copy, this.origin);
    return copy;
  }

  protected bind(variable: string, variableSpan: Span, value: number, frame: LoopFrame | null): void {
    this.wrote(variableSpan);
    if (this.bound.has(variable)) {
      throw this.fail(
        variableSpan,
        `'${variable}' is already the variable of an enclosing loop`,
        'Give each nested loop its own variable, as in for j in 1:M.',
      );
    }
    this.bound.set(variable, value);
    if (frame) this.frames.push(frame);
    this.context = [...this.bound].map(([k, v]) => `${k} = ${v}`).join(', ');
  }

  protected unbind(variable: string, frame: boolean): void {
    this.bound.delete(variable);
    if (frame) this.frames.pop();
    this.context = [...this.bound].map(([k, v]) => `${k} = ${v}`).join(', ');
  }

  /** The integer values of a range `A:B` (empty when B < A). */
  protected rangeValues(from: Expr, to: Expr, span: Span): [number, number] {
    const a = this.integer(from, 'the start of a range');
    const b = this.integer(to, 'the end of a range');
    if (b - a + 1 > MAX_RANGE) {
      throw this.fail(
        this.sp(span),
        `this range has ${b - a + 1} elements, more than ${MAX_RANGE}`,
        'Use a smaller range.',
      );
    }
    return [a, b];
  }

  protected checkLoopVariable(v: string, span: Span): void {
    if (this.parameterDeclarations.has(v) || this.arrayNames.has(v)) {
      throw this.fail(
        this.sp(span),
        `the loop variable '${v}' is already a name of the model`,
        'Choose another name for the loop variable, such as i or k.',
      );
    }
  }

  // -------------------------------------------------------------------------
  // Elements

  /**
   * Records the definition of an element (its indices evaluated, or given as `values`) and
   * returns its name. A second definition of the same element, except as a state's, is an error.
   */
  protected define(base: string, indices: Expr[], span: Span, kind: DefinitionKind, values?: number[]): string {
    const tuple = values ?? indices.map((e) => this.integer(e, `an index of ${base}`));
    const element = elementName(base, tuple);
    const at = this.sp(span);
    const earlier = this.definitions.get(element);
    if (earlier) {
      if (earlier.kind === 'state' && kind === 'state') return element;
      // several rules `x[i] = ... while C` define one element (rules.ts checks them)
      if (earlier.kind === 'rule' && kind === 'rule') return element;
      const where = `${earlier.span.line}:${earlier.span.column}${earlier.span.context ? ` (where ${earlier.span.context})` : ''}`;
      throw this.fail(
        at,
        `${element} is defined twice: first at ${where}`,
        'Define each element once: check the ranges of the loops that define it.',
      );
    }
    this.definitions.set(element, { kind, span: at });
    let list = this.elementsOf.get(base);
    if (!list) {
      list = [];
      this.elementsOf.set(base, list);
    }
    list.push(tuple);
    return element;
  }

  /** An element used in an expression or as a target: its name; whether it exists is checked at the end. */
  protected use(base: string, indices: Expr[], span: Span): string {
    const element = elementName(
      base,
      indices.map((e) => this.integer(e, `an index of ${base}`)),
    );
    const at = this.sp(span);
    this.references.push({ element, base, written: this.ast.source.slice(span.start, span.end), span: at });
    return element;
  }

  protected scalarUse(n: string, span: Span): void {
    if (!this.arrayNames.has(n)) return;
    throw this.fail(
      this.sp(span),
      `'${n}' is an array: name one element, as in ${n}[1]`,
      `Use an element ${n}[i] inside a for block, or all of them with sum(i in A:B, ${n}[i]).`,
    );
  }

  // -------------------------------------------------------------------------
  // Expressions

  /** A copy of e with indices evaluated, loop variables replaced by their values and reductions written out. */
  protected expr(e: Expr): Expr {
    switch (e.kind) {
      case 'number':
        return { kind: 'number', value: e.value, span: this.sp(e.span) };
      case 'name': {
        if (e.indices) return { kind: 'name', name: this.use(e.name, e.indices, e.span), span: this.sp(e.span) };
        const v = this.bound.get(e.name);
        if (v !== undefined) return numberNode(v, this.sp(e.span));
        this.scalarUse(e.name, e.span);
        return { kind: 'name', name: e.name, span: this.sp(e.span) };
      }
      case 'derivative': {
        if (e.indices)
          return {
            kind: 'derivative',
            name: this.use(e.name, e.indices, e.span),
            order: e.order,
            span: this.sp(e.span),
          };
        if (this.bound.has(e.name)) {
          throw this.fail(this.sp(e.span), `'${e.name}' is a loop variable and has no derivative`, 'Remove the prime.');
        }
        this.scalarUse(e.name, e.span);
        return { kind: 'derivative', name: e.name, order: e.order, span: this.sp(e.span) };
      }
      case 'unary':
        return { kind: 'unary', op: e.op, operand: this.expr(e.operand), span: this.sp(e.span) };
      case 'binary':
        return { kind: 'binary', op: e.op, left: this.expr(e.left), right: this.expr(e.right), span: this.sp(e.span) };
      case 'if':
        return {
          kind: 'if',
          condition: this.expr(e.condition),
          then: this.expr(e.then),
          otherwise: this.expr(e.otherwise),
          span: this.sp(e.span),
        };
      case 'call': {
        if (e.over) return this.reduction(e, e.over);
        return {
          kind: 'call',
          name: e.name,
          derivativeOrder: e.derivativeOrder,
          args: e.args.map((a) => this.expr(a)),
          span: this.sp(e.span, true),
          nameSpan: this.sp(e.nameSpan),
        };
      }
    }
  }

  /**
   * `sum(i in A:B, EXPR)`: EXPR(A) + EXPR(A+1) + ..., left to right (beyond REDUCTION_RUN
   * terms, in runs added in pairs); `prod` likewise with `*`.
   */
  protected reduction(e: CallNode, over: IndexRange): Expr {
    this.checkLoopVariable(over.variable, over.variableSpan);
    const [a, b] = this.rangeValues(over.from, over.to, over.span);
    const op = e.name === 'prod' ? '*' : '+';
    if (b < a) return numberNode(op === '*' ? 1 : 0, this.sp(e.span));
    const span = this.sp(e.span);
    const join = (left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, span });
    // Left to right in runs of REDUCTION_RUN terms, and the runs' results in pairs: a sum of
    // up to REDUCTION_RUN terms is what a hand-written one is, to the last bit, and one of 1e5
    // terms is a tree of depth 48, not 1e5 (every walk over it recurses, V8's parser too).
    let level: Expr[] = [];
    let acc: Expr | null = null;
    for (let v = a, k = 0; v <= b; v++, k++) {
      this.bind(over.variable, over.variableSpan, v, null);
      const term = this.expr(e.args[0]);
      this.unbind(over.variable, false);
      if (k % REDUCTION_RUN === 0 && acc !== null) {
        level.push(acc);
        acc = null;
      }
      acc = acc === null ? term : join(acc, term);
    }
    level.push(acc!);
    while (level.length > 1) {
      const next: Expr[] = [];
      for (let k = 0; k < level.length; k += 2)
        next.push(k + 1 < level.length ? join(level[k], level[k + 1]) : level[k]);
      level = next;
    }
    return level[0];
  }

  /**
   * The integer value of an index or a range end: integer literals, loop variables and
   * parameters (which become structural), combined with + - * and parentheses.
   */
  protected integer(e: Expr, what: string): number {
    switch (e.kind) {
      case 'number':
        if (!Number.isInteger(e.value))
          throw this.fail(
            this.sp(e.span),
            `${what} must be an integer, not ${e.value}`,
            'Indices and ranges count elements: use whole numbers.',
          );
        return e.value;
      case 'name': {
        if (e.indices) break;
        const bound = this.bound.get(e.name);
        if (bound !== undefined) return bound;
        const d = this.parameterDeclarations.get(e.name);
        const v = this.values.get(e.name);
        if (d === undefined || v === undefined) {
          const what2 = this.arrayNames.has(e.name) ? `the array '${e.name}'` : `'${e.name}'`;
          throw this.fail(
            this.sp(e.span),
            `${what} uses ${what2}, which is neither a loop variable nor a parameter declared above`,
            'An index or range uses integers, loop variables and parameters declared before it.',
          );
        }
        this.structural.add(e.name);
        if (!Number.isInteger(v)) {
          const from = this.set.has(e.name) ? ' (from --set)' : ` (line ${d.span.line})`;
          throw this.fail(
            this.sp(e.span),
            `${e.name} = ${v}${from} is used in ${what}, so it must be an integer`,
            `Give ${e.name} a whole value: a parameter used in an index or a range counts elements.`,
          );
        }
        return v;
      }
      case 'unary':
        if (e.op === '-') return -this.integer(e.operand, what);
        if (e.op === '+') return this.integer(e.operand, what);
        break;
      case 'binary': {
        if (e.op === '/') {
          throw this.fail(
            this.sp(e.span),
            `'/' in ${what}: an index is integer arithmetic (+ - *)`,
            'Write the index without division, for instance with a loop over the quotient (for k in 1:M, then 2*k).',
          );
        }
        if (e.op !== '+' && e.op !== '-' && e.op !== '*') break;
        const a = this.integer(e.left, what);
        const b = this.integer(e.right, what);
        return e.op === '+' ? a + b : e.op === '-' ? a - b : a * b;
      }
      default:
        break;
    }
    throw this.fail(
      this.sp(e.span),
      `${what} must be integer arithmetic (+ - * on integers, loop variables and parameters)`,
      'Write the index from whole numbers, loop variables and parameters, as in x[i + 1] or x[N - i].',
    );
  }
}

export function numberNode(v: number, span: Span): Expr {
  if (v < 0) return { kind: 'unary', op: '-', operand: { kind: 'number', value: -v, span }, span };
  return { kind: 'number', value: v, span };
}
