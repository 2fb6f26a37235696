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
  /**
   * Text written out from a `for` block: the loop values that produced it (`i = 3, j = 1`).
   * Errors at such a span name them; absent elsewhere.
   */
  context?: string;
}

// ---------------------------------------------------------------------------
// Expressions

export type BinaryOp = '+' | '-' | '*' | '/' | '^' | '<' | '<=' | '>' | '>=' | '==' | '!=' | 'and' | 'or';

export type UnaryOp = '-' | '+' | 'not';

export interface NumberNode {
  kind: 'number';
  value: number;
  span: Span;
}
/**
 * A plain identifier: a parameter, state, discrete, algebraic variable, situation, event, `pi` or the independent variable.
 * `indices` (`x[i]`, `x[i, j]`) only in a template, before arrays are written out (`symbolic/arrays.ts`);
 * an element written out is a name such as `x[3]`.
 */
export interface NameNode {
  kind: 'name';
  name: string;
  span: Span;
  indices?: Expr[];
}
/** `y'`, `y''`, ...: a derivative of a state with respect to the independent variable. `order` >= 1. `indices` as in {@link NameNode}. */
export interface DerivativeNode {
  kind: 'derivative';
  name: string;
  order: number;
  span: Span;
  indices?: Expr[];
}
export interface UnaryNode {
  kind: 'unary';
  op: UnaryOp;
  operand: Expr;
  span: Span;
}
export interface BinaryNode {
  kind: 'binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  span: Span;
}
/**
 * A function call `f(a, b)`. `delta'(u)` is a call of `delta` with `derivativeOrder` 1;
 * every other call has `derivativeOrder` 0. `nameSpan` covers the function name (and primes).
 */
export interface CallNode {
  kind: 'call';
  name: string;
  derivativeOrder: number;
  args: Expr[];
  span: Span;
  nameSpan: Span;
  over?: IndexRange;
}

/**
 * `i in A:B`: a loop variable and its inclusive range (empty when B < A). It heads a `for`
 * block, a comprehension `[EXPR for i in A:B]`, and `sum(i in A:B, EXPR)` / `prod(...)`,
 * which are calls of `sum` / `prod` with `over` set and the body as their one argument.
 * Template only: written out before analysis.
 */
export interface IndexRange {
  variable: string;
  variableSpan: Span;
  from: Expr;
  to: Expr;
  span: Span;
}
export interface IfNode {
  kind: 'if';
  condition: Expr;
  then: Expr;
  otherwise: Expr;
  span: Span;
}

export type Expr = NumberNode | NameNode | DerivativeNode | UnaryNode | BinaryNode | CallNode | IfNode;

// ---------------------------------------------------------------------------
// Statements

/**
 * `N = EXPR` inside parameter / unknown / discrete declarations. An array declaration
 * `v[A:B] = ...` has `array`: its index range and either a list `[a, b, c]` (`values`), a
 * comprehension `[EXPR for i in A:B]` (`each`, with the body as `value`), or one value for
 * every element (both null). For a list, `value` is its first element.
 */
export interface Declaration {
  name: string;
  nameSpan: Span;
  value: Expr;
  span: Span;
  array?: ArrayDeclaration;
}
export interface ArrayDeclaration {
  from: Expr;
  to: Expr;
  span: Span;
  values: Expr[] | null;
  each: IndexRange | null;
}

/** A variable as written on the left of an action or in `output`: `y` (order 0), `y'` (order 1), ...; `indices` as in {@link NameNode}. */
export interface VariableRef {
  name: string;
  order: number;
  span: Span;
  indices?: Expr[];
}

export interface AssignAction {
  kind: 'assign';
  target: VariableRef;
  value: Expr;
  span: Span;
}
export interface StopAction {
  kind: 'stop';
  span: Span;
}
export type Action = AssignAction | StopAction;

export type Direction = 'rises' | 'falls' | 'crosses';

export interface StateTrigger {
  kind: 'when';
  expr: Expr;
  direction: Direction;
  span: Span;
}
export interface AtTrigger {
  kind: 'at';
  times: Expr[];
  span: Span;
}
export interface EveryTrigger {
  kind: 'every';
  period: Expr;
  from: Expr | null;
  span: Span;
}
export type Trigger = StateTrigger | AtTrigger | EveryTrigger;

export interface ModelStatement {
  kind: 'model';
  name: string;
  nameSpan: Span;
  span: Span;
}
export interface IndependentStatement {
  kind: 'independent';
  name: string;
  nameSpan: Span;
  from: Expr | null;
  to: Expr | null;
  span: Span;
}
export interface ParameterStatement {
  kind: 'parameter';
  declarations: Declaration[];
  span: Span;
}
export interface UnknownStatement {
  kind: 'unknown';
  declarations: Declaration[];
  span: Span;
}
export interface DiscreteStatement {
  kind: 'discrete';
  declarations: Declaration[];
  span: Span;
}
export interface SituationStatement {
  kind: 'situation';
  name: string;
  nameSpan: Span;
  condition: Expr;
  span: Span;
  indices?: Expr[];
}
export interface OutputStatement {
  kind: 'output';
  variables: VariableRef[];
  span: Span;
}
/** `option N = VALUE`: VALUE is an expression (numbers) or a bare word (`dop853`, `marcus`), kept as a name node. */
export interface OptionStatement {
  kind: 'option';
  name: string;
  nameSpan: Span;
  value: Expr;
  span: Span;
}
/** `actions` is null when the event has no `do ... end` block (e.g. an event used only in `delta(t - E)`). */
/** `indices`: `event c[i] ...` declares one event per element (template only). */
/**
 * `event NAME TRIGGER [locate MODE] [do ACTIONS end]`. `locate` (state events only) places
 * this event's instant: exactly (the default), or at the start or end of the step that
 * crosses, as fixed-step tools without location do (IDERKSolve's jumpstep 0 and 1).
 */
export interface EventStatement {
  kind: 'event';
  name: string;
  nameSpan: Span;
  trigger: Trigger;
  actions: Action[] | null;
  span: Span;
  indices?: Expr[];
  locate?: EventLocate;
  locateSpan?: Span;
}
export type EventLocate = 'exact' | 'before' | 'after';
/**
 * `LHS = RHS` where the statement is not a declaration or condition. The analysis decides:
 * with a derivative somewhere it is a differential equation, `N = EXPR` with N a new plain
 * name is an algebraic variable.
 */
export interface EquationStatement {
  kind: 'equation';
  lhs: Expr;
  rhs: Expr;
  span: Span;
  while?: Expr;
}
/** `y(A) = EXPR` or `y'(A) = EXPR`: an initial condition when A is the range start, a boundary condition otherwise. */
export interface ConditionStatement {
  kind: 'condition';
  target: VariableRef;
  at: Expr;
  value: Expr;
  span: Span;
}

/** `for i in A:B ... end`: the statements of `body` once for each i (template only). */
export interface ForStatement {
  kind: 'for';
  range: IndexRange;
  body: Statement[];
  span: Span;
}

export type Statement =
  | ModelStatement
  | IndependentStatement
  | ParameterStatement
  | UnknownStatement
  | DiscreteStatement
  | SituationStatement
  | OutputStatement
  | OptionStatement
  | EventStatement
  | EquationStatement
  | ConditionStatement
  | ForStatement;

/**
 * A parsed model file: the statements in file order, and the text they came from.
 * A model with arrays keeps what was written in `template` (with `for` blocks and indices);
 * `statements` are then the same statements written out element by element, which is what
 * every later stage reads. `structural` names the parameters that ranges and indices use.
 */
export interface ModelAst {
  file: string;
  source: string;
  statements: Statement[];
  template?: Statement[];
  structural?: string[];
}

/** The functions a model may call, with their number of arguments. */
export const BUILTIN_FUNCTIONS: Readonly<Record<string, number>> = Object.freeze({
  sin: 1,
  cos: 1,
  tan: 1,
  asin: 1,
  acos: 1,
  atan: 1,
  atan2: 2,
  sinh: 1,
  cosh: 1,
  tanh: 1,
  exp: 1,
  log: 1,
  sqrt: 1,
  abs: 1,
  sign: 1,
  min: 2,
  max: 2,
  step: 1,
  delta: 1,
});

/** Words that cannot be used as names. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'model',
  'independent',
  'from',
  'to',
  'parameter',
  'unknown',
  'discrete',
  'situation',
  'output',
  'option',
  'event',
  'when',
  'rises',
  'falls',
  'crosses',
  'at',
  'every',
  'do',
  'end',
  'stop',
  'if',
  'then',
  'else',
  'and',
  'or',
  'not',
  'for',
  'in',
  'while',
]);

/** `sum(i in A:B, EXPR)` and `prod(...)`: reductions over a range, written out with the arrays. */
export const REDUCTIONS: ReadonlySet<string> = new Set(['sum', 'prod']);
