/**
 * Names and declarations: what each statement declares (the independent variable,
 * parameters and unknowns with finite constant values, discrete variables, situations,
 * events, options), each name declared once; equations, conditions and outputs are collected
 * for the levels above.
 *
 * The analysis is a chain of classes, each level using only those below it: Declarations
 * (`declarations.ts`) < EquationAnalyser (`equations.ts`) < ReferenceChecker
 * (`references.ts`) < ConditionAnalyser (`conditions.ts`) < Analyser (`analyse.ts`, which
 * runs them in order).
 */
import type {
  ConditionStatement,
  EquationStatement,
  EventStatement,
  Expr,
  ModelAst,
  OptionStatement,
  Span,
  VariableRef,
} from '../expression/ast.js';
import { ErrorReporter, type ModelError } from '../expression/errors.js';
import { evaluate } from '../expression/evaluate.js';
import { walk } from '../expression/expr.js';
import type { AnalysedModel, DiscreteInfo, NameKind, OptionValue, ParameterInfo, SituationInfo } from './analyse.js';

/** (a Map: a user's option name must never reach Object.prototype, as `constructor` would) */
const OPTION_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['method', ['euler', 'rk4', 'dopri5', 'dop853', 'rodas', 'radau5', 'auto', 'analytic']],
  ['locate', ['exact', 'before', 'after']],
  ['deltaRule', ['left', 'marcus']],
  ['zeno', ['stop', 'continue']],
]);
const OPTION_NUMBERS = new Set(['rtol', 'atol', 'step', 'maxEvents', 'maxSteps']);
/** options that count something: whole numbers */
const OPTION_COUNTS = new Set(['maxEvents', 'maxSteps']);

export class Declarations {
  protected readonly r: ErrorReporter;
  protected readonly kinds = new Map<string, NameKind>();
  private readonly declaredAt = new Map<string, Span>();
  protected modelName = 'Model';
  protected independent: AnalysedModel['independent'] = { name: 't', from: null, to: null, span: null };
  protected readonly parameters: ParameterInfo[] = [];
  protected readonly discretes: DiscreteInfo[] = [];
  protected readonly situations: SituationInfo[] = [];
  protected readonly events: EventStatement[] = [];
  protected readonly options = new Map<string, OptionValue>();
  protected outputs: VariableRef[] | null = null;
  protected readonly equations: EquationStatement[] = [];
  protected readonly conditions: ConditionStatement[] = [];

  constructor(protected readonly ast: ModelAst) {
    this.r = new ErrorReporter(ast.file, ast.source);
  }

  protected fail(span: Span | null, what: string, hint: string): ModelError {
    return this.r.at(span, what, hint);
  }

  // -------------------------------------------------------------------------

  protected declare(n: string, kind: NameKind, span: Span): void {
    const earlier = this.declaredAt.get(n);
    if (earlier || (n === this.independent.name && kind !== 'independent')) {
      const where = earlier ? ` (line ${earlier.line})` : ' (the independent variable)';
      throw this.fail(
        span,
        `'${n}' is already declared${where}`,
        'Give each parameter, variable, situation and event its own name.',
      );
    }
    if (n === 'pi')
      throw this.fail(span, "'pi' is the built-in constant and cannot be redeclared", 'Choose another name.');
    this.kinds.set(n, kind);
    this.declaredAt.set(n, span);
  }

  protected collectDeclarations(): void {
    let sawIndependent = false;
    const parameterValues = new Map<string, number>();
    for (const s of this.ast.statements) {
      switch (s.kind) {
        case 'model':
          this.modelName = s.name;
          break;
        case 'independent':
          if (sawIndependent)
            throw this.fail(
              s.span,
              'a second independent statement',
              'A model has one independent variable; remove this line.',
            );
          sawIndependent = true;
          this.independent = { name: s.name, from: s.from, to: s.to, span: s.span };
          this.declare(s.name, 'independent', s.nameSpan);
          break;
        case 'parameter':
        case 'unknown':
          for (const d of s.declarations) {
            this.checkConstant(d.value, 'a parameter value');
            this.declare(d.name, s.kind, d.nameSpan);
            this.checkFinite(d.name, d.value, parameterValues);
            this.parameters.push({ name: d.name, value: d.value, unknown: s.kind === 'unknown', span: d.span });
          }
          break;
        case 'discrete':
          for (const d of s.declarations) {
            this.checkConstant(d.value, 'the initial value of a discrete variable');
            this.declare(d.name, 'discrete', d.nameSpan);
            this.discretes.push({ name: d.name, value: d.value, span: d.span });
          }
          break;
        case 'situation':
          this.declare(s.name, 'situation', s.nameSpan);
          this.situations.push({ name: s.name, condition: s.condition, span: s.span });
          break;
        case 'event':
          this.declare(s.name, 'event', s.nameSpan);
          this.events.push(s);
          break;
        case 'option':
          this.readOption(s);
          break;
        case 'output':
          this.outputs = [...(this.outputs ?? []), ...s.variables];
          break;
        case 'equation':
          this.equations.push(s);
          break;
        case 'condition':
          this.conditions.push(s);
          break;
      }
    }
    if (!sawIndependent) this.kinds.set('t', 'independent');
  }

  /**
   * A parameter's value (after checkConstant) must be a finite number: 1/0, 1e300*1e300 or
   * sqrt(-1) is reported here, at the value, and not later as a right-hand side that is not
   * finite at the first step. Records the value in `values` for the parameters after it.
   */
  private checkFinite(name: string, value: Expr, values: Map<string, number>): void {
    const v = evaluate(value, (k) => values.get(k));
    if (!Number.isFinite(v)) {
      throw this.fail(
        value.span,
        `the value of parameter '${name}' is ${v}`,
        'Give a finite value: check for a division by zero, an overflow or the root or logarithm of a negative number.',
      );
    }
    values.set(name, v);
  }

  /** Parameter values may use earlier parameters and pi only. */
  protected checkConstant(e: Expr, what: string): void {
    walk(e, (node) => {
      if (node.kind === 'derivative')
        throw this.fail(node.span, `${what} cannot use a derivative`, 'Use numbers and parameters declared earlier.');
      if (node.kind === 'call' && node.name === 'delta')
        throw this.fail(node.span, `${what} cannot contain a delta`, 'Deltas belong in differential equations.');
      if (node.kind === 'name' && node.name !== 'pi') {
        const kind = this.kinds.get(node.name);
        if (kind !== 'parameter' && kind !== 'unknown') {
          throw this.fail(
            node.span,
            kind ? `${what} cannot use the ${kind} '${node.name}'` : `unknown name '${node.name}' in ${what}`,
            'Use numbers and parameters declared earlier (on this line or above).',
          );
        }
      }
    });
  }

  private readOption(s: OptionStatement): void {
    const words = OPTION_WORDS.get(s.name);
    if (words) {
      const v = s.value.kind === 'name' ? s.value.name : null;
      if (v === null || !words.includes(v)) {
        throw this.fail(
          s.value.span,
          `option ${s.name} must be one of ${words.join(', ')}`,
          `Write e.g. option ${s.name} = ${words[0]}.`,
        );
      }
      this.options.set(s.name, { name: s.name, value: v, span: s.span });
      return;
    }
    if (!OPTION_NUMBERS.has(s.name)) {
      const all = [...OPTION_WORDS.keys(), ...OPTION_NUMBERS].join(', ');
      throw this.fail(s.nameSpan, `unknown option '${s.name}'`, `The options are ${all}.`);
    }
    let v: number;
    try {
      v = evaluate(s.value, () => undefined);
    } catch {
      throw this.fail(s.value.span, `option ${s.name} needs a number`, `Write e.g. option ${s.name} = 1e-8.`);
    }
    if (!(v > 0) || !Number.isFinite(v) || (OPTION_COUNTS.has(s.name) && !Number.isInteger(v))) {
      throw this.fail(
        s.value.span,
        `option ${s.name} must be a positive ${OPTION_COUNTS.has(s.name) ? 'whole number' : 'number'}, got ${v}`,
        'Give a positive value.',
      );
    }
    this.options.set(s.name, { name: s.name, value: v, span: s.span });
  }
}

const KIND_PHRASES: Record<NameKind, string> = {
  independent: 'the independent variable',
  parameter: 'a parameter',
  unknown: 'an unknown',
  discrete: 'a discrete variable',
  situation: 'a situation',
  event: 'an event',
  algebraic: 'an algebraic variable',
  state: 'a state',
  constant: 'a constant',
};

/** A kind of name as a message says it, with its article: 'an algebraic variable', 'the independent variable'. */
export function kindPhrase(kind: NameKind | undefined): string {
  return kind === undefined ? 'a name of another kind' : KIND_PHRASES[kind];
}
