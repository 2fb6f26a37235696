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
 *    template and order events as the written-out file would (`array-origins.ts`).
 *
 * This file writes the statements out; it builds on `array-expressions.ts` (loop scope,
 * elements defined and used, expressions and reductions written out), `array-template.ts`
 * (reading the template) and `element-names.ts` (element names and the messages about them).
 */
import type {
  Action,
  ConditionStatement,
  Declaration,
  EquationStatement,
  EventStatement,
  Expr,
  ForStatement,
  IndexRange,
  ModelAst,
  OutputStatement,
  Statement,
  Trigger,
  VariableRef,
} from '../expression/ast.js';
import { evaluate } from '../expression/evaluate.js';
import { ExpressionExpander, numberNode, type ExpandOptions } from './array-expressions.js';
import { usesArrays, walkNames } from './array-template.js';
import { compareTuples, describeElements, elementName } from './element-names.js';

/** Writes the arrays of `ast` out (see the contract above). */
export function expandArrays(ast: ModelAst, options: ExpandOptions = {}): ModelAst {
  if (!usesArrays(ast.statements)) return ast;
  return new Expander(ast, options).run();
}

class Expander extends ExpressionExpander {
  private readonly out: Statement[] = [];
  private readonly wholeArrayOutputs: { statement: OutputStatement; written: VariableRef[] }[] = [];

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
  // Statements

  private emit(template: Statement, make: () => Statement): void {
    this.wrote(template.span);
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
}
