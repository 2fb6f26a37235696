/**
 * Arrays written out: a template with `for` blocks, indexed names (`x[i]`), array
 * declarations (`parameter v[1:N] = [...]`) and reductions (`sum(i in 1:N, EXPR)`) becomes the
 * model written element by element, which is all that analysis, transform and compile see.
 *
 * Contract:
 * 1. `expandArrays(ast)` returns `ast` itself when the text uses no arrays; otherwise a new
 *    ModelAst whose `statements` are the statements written out in order (a `for` block's
 *    body once per value, first to last), with `template` the statements as written and
 *    `structural` the parameters that ranges and indices use (and those they depend on).
 * 2. An element is a plain name: `x[3]`, `a[2,1]`. A loop variable outside an index becomes
 *    its value. `sum` and `prod` become `t1 + t2 + ...` (left to right, as written out by
 *    hand; 0 and 1 when the range is empty). Beyond REDUCTION_RUN terms, runs of that many
 *    are added left to right and the runs in pairs, so that the tree has logarithmic depth.
 * 3. Indices and range ends are integer arithmetic (`+ - *`, parentheses) on integer
 *    literals, loop variables and parameters; such a parameter must have an integer value.
 *    `options.set` overrides parameter values first (`--set N=128` writes the model out anew).
 * 4. Every element must be defined exactly once (a declaration, an event, a situation, or
 *    the left side of `J[i] = ...`; states by their equations and conditions) and every
 *    element used must exist. Each mistake is a {@link ModelError} at the text, naming the
 *    element; written-out text carries its loop values in `Span.context`, which the error
 *    shows.
 * 5. Each written-out statement and node has a span of its own; {@link originOf} maps it to
 *    the statement as written and the loop values, so that `transform` can print the
 *    template and order events as the written-out file would.
 */
import type {
  Action,
  CallNode,
  ConditionStatement,
  Declaration,
  EquationStatement,
  EventStatement,
  Expr,
  ForStatement,
  IndexRange,
  ModelAst,
  OutputStatement,
  Span,
  Statement,
  Trigger,
  VariableRef,
} from '../expression/ast.js';
import { ErrorReporter, type ModelError } from '../expression/errors.js';
import { evaluate } from '../expression/evaluate.js';
import { didYouMean as didYouMeanOf } from '../expression/suggest.js';

/** terms of a sum or product added left to right before runs are added in pairs (see reduction) */
export const REDUCTION_RUN = 32;

export interface ExpandOptions {
  /**
   * parameter values that replace the model's own before writing out: a structural one (N in
   * `for i in 1:N`) changes the shape; an element's value is set by its name, `v0[3]`
   */
  set?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
}

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

const origins = new WeakMap<Span, Origin>();

/** The origin of a span of written-out text (undefined for models without arrays). */
export function originOf(span: Span): Origin | undefined {
  return origins.get(span);
}

/** The name of an element: `x[3]`, `a[2,1]`. */
export function elementName(base: string, indices: readonly number[]): string {
  return `${base}[${indices.join(',')}]`;
}

/** Largest range one loop may have, and most statements a model may write out. */
const MAX_RANGE = 10_000_000;
const MAX_STATEMENTS = 20_000_000;

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

/** Writes the arrays of `ast` out (see the contract above). */
export function expandArrays(ast: ModelAst, options: ExpandOptions = {}): ModelAst {
  if (!usesArrays(ast.statements)) return ast;
  return new Expander(ast, options).run();
}

function usesArrays(statements: readonly Statement[]): boolean {
  let found = false;
  const exprHas = (e: Expr): boolean => {
    switch (e.kind) {
      case 'name':
      case 'derivative':
        return e.indices !== undefined;
      case 'unary':
        return exprHas(e.operand);
      case 'binary':
        return exprHas(e.left) || exprHas(e.right);
      case 'call':
        return e.over !== undefined || e.args.some(exprHas);
      case 'if':
        return exprHas(e.condition) || exprHas(e.then) || exprHas(e.otherwise);
      default:
        return false;
    }
  };
  for (const s of statements) {
    forEachExpr(s, (e) => {
      if (!found && exprHas(e)) found = true;
    });
    if (s.kind === 'for' || (s.kind === 'event' && s.indices) || (s.kind === 'situation' && s.indices)) found = true;
    if (
      (s.kind === 'parameter' || s.kind === 'unknown' || s.kind === 'discrete') &&
      s.declarations.some((d) => d.array)
    )
      found = true;
    if ((s.kind === 'output' && s.variables.some((v) => v.indices)) || (s.kind === 'condition' && s.target.indices))
      found = true;
    if (s.kind === 'event') for (const a of s.actions ?? []) if (a.kind === 'assign' && a.target.indices) found = true;
    if (found) return true;
  }
  return false;
}

/** Calls `f` on every top-level expression of a statement (not inside nested `for` bodies). */
function forEachExpr(s: Statement, f: (e: Expr) => void): void {
  switch (s.kind) {
    case 'independent':
      if (s.from) f(s.from);
      if (s.to) f(s.to);
      break;
    case 'parameter':
    case 'unknown':
    case 'discrete':
      for (const d of s.declarations) f(d.value);
      break;
    case 'situation':
      f(s.condition);
      break;
    case 'option':
      f(s.value);
      break;
    case 'event': {
      const t = s.trigger;
      if (t.kind === 'when') f(t.expr);
      else if (t.kind === 'at') t.times.forEach(f);
      else {
        f(t.period);
        if (t.from) f(t.from);
      }
      for (const a of s.actions ?? []) if (a.kind === 'assign') f(a.value);
      break;
    }
    case 'equation':
      f(s.lhs);
      f(s.rhs);
      if (s.while) f(s.while);
      break;
    case 'condition':
      f(s.at);
      f(s.value);
      break;
    default:
      break;
  }
}

class Expander {
  private readonly r: ErrorReporter;
  private readonly out: Statement[] = [];
  /** values of parameters (and their elements) known while writing out, for indices and ranges */
  private readonly values = new Map<string, number>();
  /** where each parameter is declared, for messages and the structural closure */
  private readonly parameterDeclarations = new Map<string, Declaration>();
  private readonly structural = new Set<string>();
  /** the first use of each structural parameter, for the message when it is not an integer */
  private readonly arrayNames = new Set<string>();
  private readonly definitions = new Map<string, Definition>();
  /** base name -> its elements' index tuples, in definition order */
  private readonly elementsOf = new Map<string, number[][]>();
  private readonly references: Reference[] = [];
  private readonly wholeArrayOutputs: { statement: OutputStatement; written: VariableRef[] }[] = [];
  /** loop and reduction variables in scope, innermost last */
  private readonly bound = new Map<string, number>();
  private readonly frames: LoopFrame[] = [];
  /** `i = 3, j = 1` for the variables in scope; '' outside loops */
  private context = '';
  private origin: Origin | null = null;
  private statementCount = 0;
  private readonly expansion: Expansion;
  /** `options.set` as a map */
  private readonly set: ReadonlyMap<string, number>;

  constructor(
    private readonly ast: ModelAst,
    options: ExpandOptions,
  ) {
    this.r = new ErrorReporter(ast.file, ast.source);
    const set = options.set;
    this.set = set === undefined ? new Map() : set instanceof Map ? set : new Map(Object.entries(set));
    this.expansion = { template: ast.statements, structural: [] };
    collectArrayNames(ast.statements, this.arrayNames);
  }

  private fail(span: Span, what: string, hint: string): ModelError {
    return this.r.at(span, what, hint);
  }

  run(): ModelAst {
    for (const s of this.ast.statements) this.statement(s);
    this.checkReferences();
    this.fillWholeArrayOutputs();
    this.expansion.structural = this.structuralClosure();
    this.pinStructuralOverrides(this.expansion.structural);
    return {
      file: this.ast.file,
      source: this.ast.source,
      statements: this.out,
      template: this.ast.statements,
      structural: this.expansion.structural,
    };
  }

  // -------------------------------------------------------------------------
  // Spans and scope

  /**
   * The span of a copy: the text's own span outside loops, a new one carrying the loop values
   * inside. `register`: record its origin (statements, declarations and calls, whose spans
   * later stages keep on what they make: states, events, delta events).
   */
  private sp(span: Span, register = false): Span {
    const copy: Span =
      this.context === ''
        ? span
        : { start: span.start, end: span.end, line: span.line, column: span.column, context: this.context };
    if (register && this.origin) origins.set(copy, this.origin);
    return copy;
  }

  private bind(variable: string, variableSpan: Span, value: number, frame: LoopFrame | null): void {
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

  private unbind(variable: string, frame: boolean): void {
    this.bound.delete(variable);
    if (frame) this.frames.pop();
    this.context = [...this.bound].map(([k, v]) => `${k} = ${v}`).join(', ');
  }

  /** The integer values of a range `A:B` (empty when B < A). */
  private rangeValues(from: Expr, to: Expr, span: Span): [number, number] {
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

  private checkLoopVariable(v: string, span: Span): void {
    if (this.parameterDeclarations.has(v) || this.arrayNames.has(v)) {
      throw this.fail(
        this.sp(span),
        `the loop variable '${v}' is already a name of the model`,
        'Choose another name for the loop variable, such as i or k.',
      );
    }
  }

  // -------------------------------------------------------------------------
  // Statements

  private emit(template: Statement, make: () => Statement): void {
    if (++this.statementCount > MAX_STATEMENTS) {
      throw this.fail(
        this.sp(template.span),
        `the model writes out to more than ${MAX_STATEMENTS} statements`,
        'Use smaller ranges.',
      );
    }
    this.origin = {
      template,
      loops: this.frames.map((f) => ({ ...f })),
      ordinal: this.out.length,
      expansion: this.expansion,
    };
    this.out.push(make());
    this.origin = null;
  }

  private statement(s: Statement): void {
    switch (s.kind) {
      case 'for':
        this.forBlock(s);
        return;
      case 'model':
      case 'option':
        this.emit(s, () => ({ ...s, span: this.sp(s.span, true) }));
        return;
      case 'independent':
        this.emit(s, () => ({
          ...s,
          from: s.from && this.expr(s.from),
          to: s.to && this.expr(s.to),
          span: this.sp(s.span, true),
        }));
        return;
      case 'parameter':
      case 'unknown':
      case 'discrete':
        this.emit(s, () => ({
          kind: s.kind,
          declarations: s.declarations.flatMap((d) => this.declaration(d, s.kind)),
          span: this.sp(s.span, true),
        }));
        return;
      case 'situation':
        this.emit(s, () => {
          const name = s.indices ? this.define(s.name, s.indices, s.nameSpan, 'situation') : s.name;
          return {
            kind: 'situation',
            name,
            nameSpan: this.sp(s.nameSpan),
            condition: this.expr(s.condition),
            span: this.sp(s.span, true),
          };
        });
        return;
      case 'output':
        this.emit(s, () => this.output(s));
        return;
      case 'event':
        this.emit(s, () => this.event(s));
        return;
      case 'equation':
        this.emit(s, () => {
          // (an element may have several rules `x[i] = ... while C`: rules.ts checks those)
          if (s.lhs.kind === 'name' && s.lhs.indices)
            this.define(s.lhs.name, s.lhs.indices, s.lhs.span, s.while ? 'rule' : 'algebraic');
          this.defineStates(s.lhs);
          const eq: EquationStatement = {
            kind: 'equation',
            lhs: this.expr(s.lhs),
            rhs: this.expr(s.rhs),
            span: this.sp(s.span, true),
          };
          if (s.while) eq.while = this.expr(s.while);
          return eq;
        });
        return;
      case 'condition':
        this.emit(s, () => this.condition(s));
        return;
    }
  }

  private forBlock(s: ForStatement): void {
    const { range } = s;
    this.checkLoopVariable(range.variable, range.variableSpan);
    const [a, b] = this.rangeValues(range.from, range.to, range.span);
    const written = `${range.variable} in ${this.text(range.from)}:${this.text(range.to)}`;
    for (let v = a; v <= b; v++) {
      this.bind(range.variable, range.variableSpan, v, { variable: range.variable, range: written, value: v });
      for (const inner of s.body) this.statement(inner);
      this.unbind(range.variable, true);
    }
  }

  private text(e: Expr): string {
    return this.ast.source.slice(e.span.start, e.span.end).trim();
  }

  /** A declaration, or the declarations of an array's elements (first to last). */
  private declaration(d: Declaration, kind: 'parameter' | 'unknown' | 'discrete'): Declaration[] {
    const isParameter = kind !== 'discrete';
    if (!d.array) {
      const value = this.expr(d.value);
      if (isParameter) this.recordParameter(d.name, d, value);
      return [{ name: d.name, nameSpan: this.sp(d.nameSpan), value, span: this.sp(d.span, true) }];
    }
    const { array } = d;
    const [a, b] = this.rangeValues(array.from, array.to, array.span);
    const count = Math.max(0, b - a + 1);
    const shown = `${d.name}[${this.text(array.from)}:${this.text(array.to)}]`;
    let values: (index: number) => Expr;
    if (array.values) {
      const list = array.values;
      if (list.length !== count) {
        const span = list.length > count ? list[count].span : array.span;
        throw this.fail(
          this.sp(span),
          `${shown} has ${count} element${count === 1 ? '' : 's'}${this.setNote(array.from, array.to)} but ${list.length} value${list.length === 1 ? '' : 's'}`,
          `Give exactly ${count} value${count === 1 ? '' : 's'}, or write the values as [EXPR for i in ${a}:${b}].`,
        );
      }
      values = (k) => this.expr(list[k - a]);
    } else if (array.each) {
      const each: IndexRange = array.each;
      this.checkLoopVariable(each.variable, each.variableSpan);
      const [ca, cb] = this.rangeValues(each.from, each.to, each.span);
      if (cb - ca !== b - a) {
        throw this.fail(
          this.sp(each.span),
          `${shown} has ${count} elements but the comprehension over ${each.variable} in ${ca}:${cb} gives ${Math.max(0, cb - ca + 1)} values`,
          `Use the array's own range, as in [EXPR for ${each.variable} in ${this.text(array.from)}:${this.text(array.to)}].`,
        );
      }
      values = (k) => {
        this.bind(each.variable, each.variableSpan, ca + (k - a), null);
        const e = this.expr(d.value);
        this.unbind(each.variable, false);
        return e;
      };
    } else {
      values = () => this.expr(d.value);
    }
    const out: Declaration[] = [];
    for (let k = a; k <= b; k++) {
      const name = this.define(d.name, [], d.nameSpan, 'declared', [k]);
      const value = values(k);
      if (isParameter) this.recordParameter(name, d, value);
      out.push({ name, nameSpan: this.sp(d.nameSpan), value, span: this.sp(d.span, true) });
    }
    return out;
  }

  /** ` (N = 2 from --set)` when the ends of a range use parameters set from outside the model; '' otherwise. */
  private setNote(...ends: Expr[]): string {
    const names = new Set<string>();
    for (const e of ends)
      walkNames(e, (n) => {
        if (this.set.has(n) && !this.bound.has(n)) names.add(n);
      });
    if (names.size === 0) return '';
    return ` (${[...names].map((n) => `${n} = ${this.set.get(n)}`).join(', ')} from --set)`;
  }

  /** Keeps a parameter's value (overridden by `options.set`) for the indices and ranges after it. */
  private recordParameter(name: string, d: Declaration, value: Expr): void {
    this.parameterDeclarations.set(name, d);
    const override = this.set.get(name);
    if (override !== undefined) {
      this.values.set(name, override);
      return;
    }
    try {
      const v = evaluate(value, (k) => this.values.get(k));
      if (Number.isFinite(v)) this.values.set(name, v);
    } catch {
      /* not constant: the analysis says so; it is no use to an index */
    }
  }

  private output(s: OutputStatement): Statement {
    const written: VariableRef[] = [];
    let whole = false;
    for (const v of s.variables) {
      if (v.indices) {
        written.push({ name: this.use(v.name, v.indices, v.span), order: v.order, span: this.sp(v.span) });
      } else if (this.arrayNames.has(v.name)) {
        whole = true;
        written.push({ ...v, span: this.sp(v.span) }); // all its elements, once they are all known
      } else {
        written.push({ ...v, span: this.sp(v.span) });
      }
    }
    const out: OutputStatement = { kind: 'output', variables: written, span: this.sp(s.span, true) };
    if (whole) this.wholeArrayOutputs.push({ statement: out, written });
    return out;
  }

  private event(s: EventStatement): Statement {
    const name = s.indices ? this.define(s.name, s.indices, s.nameSpan, 'event') : s.name;
    const t = s.trigger;
    let trigger: Trigger;
    if (t.kind === 'when') trigger = { ...t, expr: this.expr(t.expr), span: this.sp(t.span) };
    else if (t.kind === 'at') trigger = { ...t, times: t.times.map((x) => this.expr(x)), span: this.sp(t.span) };
    else trigger = { ...t, period: this.expr(t.period), from: t.from && this.expr(t.from), span: this.sp(t.span) };
    const actions: Action[] | null =
      s.actions &&
      s.actions.map((a): Action => {
        if (a.kind === 'stop') return { ...a, span: this.sp(a.span) };
        return { kind: 'assign', target: this.target(a.target), value: this.expr(a.value), span: this.sp(a.span) };
      });
    const ev: EventStatement = {
      kind: 'event',
      name,
      nameSpan: this.sp(s.nameSpan),
      trigger,
      actions,
      span: this.sp(s.span, true),
    };
    if (s.locate) {
      ev.locate = s.locate;
      ev.locateSpan = s.locateSpan && this.sp(s.locateSpan);
    }
    return ev;
  }

  private condition(s: ConditionStatement): Statement {
    const target = s.target.indices
      ? {
          name: this.define(s.target.name, s.target.indices, s.target.span, 'state'),
          order: s.target.order,
          span: this.sp(s.target.span),
        }
      : this.target(s.target);
    return { kind: 'condition', target, at: this.expr(s.at), value: this.expr(s.value), span: this.sp(s.span, true) };
  }

  private target(v: VariableRef): VariableRef {
    if (v.indices) return { name: this.use(v.name, v.indices, v.span), order: v.order, span: this.sp(v.span) };
    this.scalarUse(v.name, v.span);
    return { ...v, span: this.sp(v.span) };
  }

  /** Elements whose derivative stands on the left of an equation are states: defined there. */
  private defineStates(lhs: Expr): void {
    const visit = (e: Expr): void => {
      switch (e.kind) {
        case 'derivative':
          if (e.indices) this.define(e.name, e.indices, e.span, 'state');
          break;
        case 'unary':
          visit(e.operand);
          break;
        case 'binary':
          visit(e.left);
          visit(e.right);
          break;
        default:
          break;
      }
    };
    visit(lhs);
  }

  // -------------------------------------------------------------------------
  // Elements

  /**
   * Records the definition of an element (its indices evaluated, or given as `values`) and
   * returns its name. A second definition of the same element, except as a state's, is an error.
   */
  private define(base: string, indices: Expr[], span: Span, kind: DefinitionKind, values?: number[]): string {
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
  private use(base: string, indices: Expr[], span: Span): string {
    const element = elementName(
      base,
      indices.map((e) => this.integer(e, `an index of ${base}`)),
    );
    const at = this.sp(span);
    this.references.push({ element, base, written: this.ast.source.slice(span.start, span.end), span: at });
    return element;
  }

  private scalarUse(n: string, span: Span): void {
    if (!this.arrayNames.has(n)) return;
    throw this.fail(
      this.sp(span),
      `'${n}' is an array: name one element, as in ${n}[1]`,
      `Use an element ${n}[i] inside a for block, or all of them with sum(i in A:B, ${n}[i]).`,
    );
  }

  private checkReferences(): void {
    for (const ref of this.references) {
      if (this.definitions.has(ref.element)) continue;
      const elements = this.elementsOf.get(ref.base);
      const shown =
        ref.written.replace(/\s+/g, '') === ref.element ? ref.element : `${ref.written} (here ${ref.element})`;
      if (!elements) {
        throw this.fail(
          ref.span,
          `${shown}: '${ref.base}' has no elements defined anywhere`,
          `Define its elements: by a declaration (parameter ${ref.base}[1:N] = ...), an equation in a for block (${ref.base}[i] = ..., ${ref.base}[i]' = ...) or an event (event ${ref.base}[i] ...).`,
        );
      }
      throw this.fail(
        ref.span,
        `${shown} is not an element of ${ref.base}: ${describeElements(ref.base, elements)}`,
        'Check the index and the range of the loop around it.',
      );
    }
  }

  private fillWholeArrayOutputs(): void {
    for (const { statement, written } of this.wholeArrayOutputs) {
      statement.variables = written.flatMap((v) => {
        const elements = this.elementsOf.get(v.name);
        if (!this.arrayNames.has(v.name) || !elements) return [v];
        return [...elements]
          .sort(compareTuples)
          .map((t) => ({ name: elementName(v.name, t), order: v.order, span: v.span }));
      });
    }
  }

  /**
   * A structural parameter (or one a structural parameter's value uses) set from outside is
   * written out with its new value, so that the model's own parameters agree with its shape.
   */
  private pinStructuralOverrides(structural: readonly string[]): void {
    if (this.set.size === 0) return;
    const pinned = new Set(structural);
    for (const s of this.out) {
      if (s.kind !== 'parameter' && s.kind !== 'unknown') continue;
      s.declarations = s.declarations.map((d) => {
        const v = this.set.get(d.name);
        if (v === undefined || !pinned.has(d.name)) return d;
        return { ...d, value: numberNode(v, d.value.span) };
      });
    }
  }

  /** The structural parameters and every parameter their values use, in declaration order. */
  private structuralClosure(): string[] {
    const all = new Set<string>();
    const visit = (n: string): void => {
      if (all.has(n)) return;
      const d = this.parameterDeclarations.get(n);
      if (!d) return;
      all.add(n);
      walkNames(d.value, visit);
    };
    for (const n of this.structural) visit(n);
    return [...this.parameterDeclarations.keys()].filter((n) => all.has(n));
  }

  // -------------------------------------------------------------------------
  // Expressions

  /** A copy of e with indices evaluated, loop variables replaced by their values and reductions written out. */
  private expr(e: Expr): Expr {
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
  private reduction(e: CallNode, over: IndexRange): Expr {
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
  private integer(e: Expr, what: string): number {
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

function numberNode(v: number, span: Span): Expr {
  if (v < 0) return { kind: 'unary', op: '-', operand: { kind: 'number', value: -v, span }, span };
  return { kind: 'number', value: v, span };
}

function walkNames(e: Expr, f: (n: string) => void): void {
  switch (e.kind) {
    case 'name':
      f(e.name);
      for (const x of e.indices ?? []) walkNames(x, f);
      break;
    case 'derivative':
      for (const x of e.indices ?? []) walkNames(x, f);
      break;
    case 'unary':
      walkNames(e.operand, f);
      break;
    case 'binary':
      walkNames(e.left, f);
      walkNames(e.right, f);
      break;
    case 'call':
      e.args.forEach((a) => walkNames(a, f));
      if (e.over) {
        walkNames(e.over.from, f);
        walkNames(e.over.to, f);
      }
      break;
    case 'if':
      walkNames(e.condition, f);
      walkNames(e.then, f);
      walkNames(e.otherwise, f);
      break;
    default:
      break;
  }
}

/** Every name used with an index or declared with a range, anywhere in the template. */
function collectArrayNames(statements: readonly Statement[], into: Set<string>): void {
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'name':
      case 'derivative':
        if (e.indices) {
          into.add(e.name);
          e.indices.forEach(visit);
        }
        break;
      case 'unary':
        visit(e.operand);
        break;
      case 'binary':
        visit(e.left);
        visit(e.right);
        break;
      case 'call':
        e.args.forEach(visit);
        break;
      case 'if':
        visit(e.condition);
        visit(e.then);
        visit(e.otherwise);
        break;
      default:
        break;
    }
  };
  for (const s of statements) {
    if (s.kind === 'for') {
      collectArrayNames(s.body, into);
      continue;
    }
    forEachExpr(s, visit);
    if ((s.kind === 'event' || s.kind === 'situation') && s.indices) into.add(s.name);
    if (s.kind === 'parameter' || s.kind === 'unknown' || s.kind === 'discrete')
      for (const d of s.declarations) if (d.array) into.add(d.name);
    if (s.kind === 'output') for (const v of s.variables) if (v.indices) into.add(v.name);
    if (s.kind === 'condition' && s.target.indices) into.add(s.target.name);
    if (s.kind === 'event')
      for (const a of s.actions ?? []) if (a.kind === 'assign' && a.target.indices) into.add(a.target.name);
  }
}

function compareTuples(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}

/** `its elements are x[1] to x[64]` (one index, contiguous) or the first few. */
function describeElements(base: string, tuples: readonly number[][]): string {
  const sorted = [...tuples].sort(compareTuples);
  const first = elementName(base, sorted[0]);
  const last = elementName(base, sorted[sorted.length - 1]);
  if (sorted.length === 1) return `its only element is ${first}`;
  const oneIndex = sorted.every((t) => t.length === 1);
  if (oneIndex && sorted[sorted.length - 1][0] - sorted[0][0] === sorted.length - 1)
    return `its elements are ${first} to ${last}`;
  const shown = sorted
    .slice(0, 4)
    .map((t) => elementName(base, t))
    .join(', ');
  return `its elements are ${shown}${sorted.length > 4 ? `, ... ${last} (${sorted.length} in all)` : ''}`;
}

/**
 * Names listed for a message, each array in one entry where its first element stands:
 * `N, m, v0[1] to v0[64], x[1] to x[64], x[1]' to x[64]'` (elements with one index and the
 * same primes; a run without gaps as `first to last`, otherwise every element).
 */
export function compactNames(names: readonly string[]): string {
  const groups = new Map<string, { base: string; primes: string; indices: number[] }>();
  const order: string[] = [];
  for (const n of names) {
    const m = /^([A-Za-z_]\w*)\[(-?\d+)\]('*)$/.exec(n);
    if (!m) {
      order.push(n);
      continue;
    }
    const key = `\0${m[1]}[${m[3]}`;
    let g = groups.get(key);
    if (!g) {
      g = { base: m[1], primes: m[3], indices: [] };
      groups.set(key, g);
      order.push(key);
    }
    g.indices.push(Number(m[2]));
  }
  return order
    .map((o) => {
      const g = groups.get(o);
      if (!g) return o;
      const name = (k: number) => `${elementName(g.base, [k])}${g.primes}`;
      const sorted = [...new Set(g.indices)].sort((a, b) => a - b);
      const run = sorted.length === g.indices.length && sorted[sorted.length - 1] - sorted[0] === sorted.length - 1;
      return run && sorted.length > 2
        ? `${name(sorted[0])} to ${name(sorted[sorted.length - 1])}`
        : g.indices.map(name).join(', ');
    })
    .join(', ');
}

/**
 * Why `key` (from `--set`, `--init` or an API map) is none of `names`, for a message that
 * begins with `'key'` and the given `prefix` (' in --init' or ''): an index past the array's
 * elements, an index on a name that is not an array, an array named without an index, or an
 * unknown name (with a did-you-mean and the names, arrays folded).
 */
export function missingNameMessage(
  key: string,
  names: readonly string[],
  what: string,
  listed: string,
  prefix = '',
): string {
  const written = key.replace(/\s+/g, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?('*)$/.exec(written);
  if (m && !names.includes(written)) {
    const [, base, index, primes] = m;
    // the elements of `base` with as many primes (x[2]' for --init x[2]'=...)
    const tuples: number[][] = [];
    const plain: string[] = [];
    for (const n of names) {
      const e = /^([A-Za-z_][A-Za-z0-9_]*)\[([-\d,]+)\]('*)$/.exec(n);
      if (e && e[1] === base && e[3] === primes) {
        tuples.push(e[2].split(',').map(Number));
        plain.push(n);
      }
    }
    if (index !== undefined && tuples.length > 0) {
      return `'${key}'${prefix} is not an element of ${base}: ${describeElements(base, tuples)}`;
    }
    if (index !== undefined && names.includes(`${base}${primes}`)) {
      return `'${key}'${prefix}: ${base} is not an array; write ${base}${primes}=VALUE`;
    }
    if (index === undefined && tuples.length > 0) {
      return `'${key}'${prefix}: ${base} is an array; name one element, as in ${plain[0]}=VALUE (its elements are ${compactNames(plain)})`;
    }
  }
  return `'${key}'${prefix} is not ${what}${didYouMeanOf(key, names)}; ${listed}: ${compactNames(names) || '(none)'}`;
}
