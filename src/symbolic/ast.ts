/**
 * The syntax tree of a `.delta` model (see docs/language.md).
 *
 * Every node carries a {@link Span} so that any later stage (analysis, the
 * delta rules, the compiler) can point at the text it is complaining about.
 * The tree is plain data: it serialises to JSON as it is.
 */

/** Where a node stands in the source: offsets into the text, 1-based line and column of its start. */
export interface Span {
  /** offset of the first character */
  start: number;
  /** offset one past the last character */
  end: number;
  /** 1-based line of `start` */
  line: number;
  /** 1-based column of `start` (counted in UTF-16 code units) */
  column: number;
}

// ---------------------------------------------------------------------------
// Expressions

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '^'
  | '<' | '<=' | '>' | '>=' | '==' | '!='
  | 'and' | 'or';

export type UnaryOp = '-' | '+' | 'not';

export interface NumberNode { kind: 'number'; value: number; span: Span }
/** A plain identifier: a parameter, state, discrete, algebraic variable, situation, event, `pi` or the independent variable. */
export interface NameNode { kind: 'name'; name: string; span: Span }
/** `y'`, `y''`, ...: a derivative of a state with respect to the independent variable. `order` >= 1. */
export interface DerivativeNode { kind: 'derivative'; name: string; order: number; span: Span }
export interface UnaryNode { kind: 'unary'; op: UnaryOp; operand: Expr; span: Span }
export interface BinaryNode { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; span: Span }
/**
 * A function call `f(a, b)`. `delta'(u)` is a call of `delta` with `derivativeOrder` 1;
 * every other call has `derivativeOrder` 0. `nameSpan` covers the function name (and primes).
 */
export interface CallNode { kind: 'call'; name: string; derivativeOrder: number; args: Expr[]; span: Span; nameSpan: Span }
export interface IfNode { kind: 'if'; condition: Expr; then: Expr; otherwise: Expr; span: Span }

export type Expr = NumberNode | NameNode | DerivativeNode | UnaryNode | BinaryNode | CallNode | IfNode;

// ---------------------------------------------------------------------------
// Statements

/** `N = EXPR` inside parameter / unknown / discrete declarations. */
export interface Declaration { name: string; nameSpan: Span; value: Expr; span: Span }

/** A variable as written on the left of an action or in `output`: `y` (order 0), `y'` (order 1), ... */
export interface VariableRef { name: string; order: number; span: Span }

export interface AssignAction { kind: 'assign'; target: VariableRef; value: Expr; span: Span }
export interface StopAction { kind: 'stop'; span: Span }
export type Action = AssignAction | StopAction;

export type Direction = 'rises' | 'falls' | 'crosses';

export interface StateTrigger { kind: 'when'; expr: Expr; direction: Direction; span: Span }
export interface AtTrigger { kind: 'at'; times: Expr[]; span: Span }
export interface EveryTrigger { kind: 'every'; period: Expr; from: Expr | null; span: Span }
export type Trigger = StateTrigger | AtTrigger | EveryTrigger;

export interface ModelStatement { kind: 'model'; name: string; nameSpan: Span; span: Span }
export interface IndependentStatement { kind: 'independent'; name: string; nameSpan: Span; from: Expr | null; to: Expr | null; span: Span }
export interface ParameterStatement { kind: 'parameter'; declarations: Declaration[]; span: Span }
export interface UnknownStatement { kind: 'unknown'; declarations: Declaration[]; span: Span }
export interface DiscreteStatement { kind: 'discrete'; declarations: Declaration[]; span: Span }
export interface SituationStatement { kind: 'situation'; name: string; nameSpan: Span; condition: Expr; span: Span }
export interface OutputStatement { kind: 'output'; variables: VariableRef[]; span: Span }
/** `option N = VALUE`: VALUE is an expression (numbers) or a bare word (`dop853`, `marcus`), kept as a name node. */
export interface OptionStatement { kind: 'option'; name: string; nameSpan: Span; value: Expr; span: Span }
/** `actions` is null when the event has no `do ... end` block (e.g. an event used only in `delta(t - E)`). */
export interface EventStatement { kind: 'event'; name: string; nameSpan: Span; trigger: Trigger; actions: Action[] | null; span: Span }
/**
 * `LHS = RHS` where the statement is not a declaration or condition. The analysis decides:
 * with a derivative somewhere it is a differential equation, `N = EXPR` with N a new plain
 * name is an algebraic variable.
 */
export interface EquationStatement { kind: 'equation'; lhs: Expr; rhs: Expr; span: Span }
/** `y(A) = EXPR` or `y'(A) = EXPR`: an initial condition when A is the range start, a boundary condition otherwise. */
export interface ConditionStatement { kind: 'condition'; target: VariableRef; at: Expr; value: Expr; span: Span }

export type Statement =
  | ModelStatement | IndependentStatement | ParameterStatement | UnknownStatement | DiscreteStatement
  | SituationStatement | OutputStatement | OptionStatement | EventStatement | EquationStatement | ConditionStatement;

/** A parsed model file: the statements in file order, and the text they came from. */
export interface ModelAst {
  file: string;
  source: string;
  statements: Statement[];
}

/** The functions a model may call, with their number of arguments. */
export const BUILTIN_FUNCTIONS: Readonly<Record<string, number>> = Object.freeze({
  sin: 1, cos: 1, tan: 1, asin: 1, acos: 1, atan: 1, atan2: 2,
  sinh: 1, cosh: 1, tanh: 1, exp: 1, log: 1, sqrt: 1, abs: 1, sign: 1,
  min: 2, max: 2, step: 1, delta: 1,
});

/** Words that cannot be used as names. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'model', 'independent', 'from', 'to', 'parameter', 'unknown', 'discrete', 'situation', 'output',
  'option', 'event', 'when', 'rises', 'falls', 'crosses', 'at', 'every', 'do', 'end', 'stop',
  'if', 'then', 'else', 'and', 'or', 'not',
]);
