/**
 * Semantic analysis: from the statements of a model to what they declare and mean.
 *
 * It decides which names are parameters, unknowns, discrete and algebraic variables,
 * situations, events and states; gives each state its order and its equation, solved for the
 * highest derivative (which must enter linearly); matches initial and boundary conditions to
 * state levels; orders algebraic variables by dependency; and checks every name an
 * expression uses. Every problem is a {@link ModelError} at the offending text.
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
  Span,
  VariableRef,
} from '../expression/ast.js';
import type { ErrorReporter } from '../expression/errors.js';
import { writeOutRules } from '../language/rules.js';
import { ConditionAnalyser } from './conditions.js';

export type NameKind =
  'independent' | 'parameter' | 'unknown' | 'discrete' | 'situation' | 'event' | 'algebraic' | 'state' | 'constant';

export interface ParameterInfo {
  name: string;
  value: Expr;
  unknown: boolean;
  span: Span;
}
export interface DiscreteInfo {
  name: string;
  value: Expr;
  span: Span;
}
export interface SituationInfo {
  name: string;
  condition: Expr;
  span: Span;
}
export interface AlgebraicInfo {
  name: string;
  expr: Expr;
  span: Span;
}

export interface StateInfo {
  name: string;
  /** highest derivative in the model */
  order: number;
  equation: EquationStatement;
  /** y^(n) = solved; may still contain delta terms */
  solved: Expr;
  /** initial value of y^(i) for i = 0..order-1 */
  initial: Expr[];
  initialSpans: Span[];
  /** where each initial value is stated (the A of y(A) = ...), as written */
  initialAt: Expr[];
}

export interface OptionValue {
  name: string;
  value: number | string;
  span: Span;
}

export interface AnalysedModel {
  file: string;
  source: string;
  name: string;
  independent: { name: string; from: Expr | null; to: Expr | null; span: Span | null };
  parameters: ParameterInfo[];
  discretes: DiscreteInfo[];
  situations: SituationInfo[];
  /** in dependency order; variables defined with a delta are not here (they were substituted) */
  algebraics: AlgebraicInfo[];
  states: StateInfo[];
  events: EventStatement[];
  boundaryConditions: ConditionStatement[];
  /** null: record everything */
  outputs: VariableRef[] | null;
  options: Map<string, OptionValue>;
  kinds: Map<string, NameKind>;
  reporter: ErrorReporter;
}

export function analyse(ast: ModelAst): AnalysedModel {
  return new Analyser(writeOutRules(ast)).run();
}

class Analyser extends ConditionAnalyser {
  run(): AnalysedModel {
    this.collectDeclarations();
    if (this.equations.length === 0) {
      const last = this.ast.statements.at(-1);
      throw this.fail(
        last?.span ?? null,
        'the model has no equations',
        "Write at least one differential equation, e.g. y' = -y, with its initial condition y(0) = 1.",
      );
    }
    const { algebraicStatements, differential, derivatives } = this.classifyEquations();
    const orders = this.stateOrders(differential, derivatives);
    for (const [n] of orders) this.kinds.set(n, 'state');
    const deltaAlgebraics = new Map<string, Expr>();
    const algebraics = this.orderAlgebraics(algebraicStatements, deltaAlgebraics);
    const states = this.solveStates(differential, orders, deltaAlgebraics);
    this.checkReferences(states, algebraics, orders, deltaAlgebraics);
    const boundaryConditions = this.attachConditions(states);
    return {
      file: this.ast.file,
      source: this.ast.source,
      name: this.modelName,
      independent: this.independent,
      parameters: this.parameters,
      discretes: this.discretes,
      situations: this.situations,
      algebraics,
      states,
      events: this.events,
      boundaryConditions,
      outputs: this.outputs,
      options: this.options,
      kinds: this.kinds,
      reporter: this.r,
    };
  }
}
