/**
 * The transformed model: a first-order system in u-plus-step form with its events, as plain
 * serialisable data (see MODEL-LANGUAGE.md, "The transformation").
 *
 * Expressions in this form refer to *slot names*: the system's states (`y`, `y'` for levels
 * that never jump, `u1`, `u2`, ... for levels that do), its step variables (`S1`, ...), the
 * discrete variables, parameters, algebraic variables and situations, and the independent
 * variable. A user-level derivative that jumps reads `u + S` everywhere.
 */
import type { Expr, Span } from '../expression/ast.js';
import type { OptionValue, ParameterInfo } from '../analysis/analyse.js';

export interface SystemState {
  /** slot name: `y`, `y'` or `u1` */
  name: string;
  /** what it stands for: `y'` or `y' - S1` */
  standsFor: string;
  /** the user's variable key this level represents (`y'`) */
  variable: string;
  /** the step variable added to it to make the user's value, or null */
  stepVariable: string | null;
  initial: Expr;
  /**
   * where the model states the initial value (the A of y(A) = ...), as written: the start of
   * the range for the model's own parameters, and each run's start must be it (range.ts)
   */
  initialAt?: Expr;
  /** the equation that makes it a state (in an array model: a written-out copy, see `arrays.ts` originOf) */
  span?: Span;
}

export interface StepVariable {
  name: string;
  /** the user's variable key that jumps (`y'`) */
  variable: string;
  /** the continuous state it is added to */
  state: string;
}

export interface DiscreteVariable {
  name: string;
  initial: Expr;
  span?: Span;
}

/** d(state)/d(independent) = rhs; `span`: the model's equation it comes from */
export interface SystemEquation {
  state: string;
  rhs: Expr;
  span?: Span;
}

/** An algebraic variable or a situation, in evaluation order; `span`: its definition. */
export interface NamedValue {
  name: string;
  expr: Expr;
  isSituation: boolean;
  span?: Span;
}

export interface AssignAction {
  kind: 'assign';
  /** a state, step variable or discrete variable slot */
  target: string;
  value: Expr;
  /** the user's variable (key) whose value this changes, for the ledger */
  variable: string;
}

/**
 * The step of a delta: `target := target + increment`, increment read before the event.
 * Jumps add up: two deltas at one instant (in one event or in several) both count.
 */
export interface JumpAction {
  kind: 'jump';
  /** a step variable */
  target: string;
  increment: Expr;
  /** the user's variable (key) that jumps */
  variable: string;
}

/**
 * `deltaRule = marcus`: the jumps of one instant are the flow of dS/ds = rate(S) over unit
 * "pulse time" s in [0, 1] (Marcus' canonical interpretation), not S + rate(S-). Where a
 * jump has `frozen`, its rate is frozen(S-) * rate(S): a factor read before the event and
 * held along the flow (rule 3's 1/|du/dt| of a delta on the state, when du/dt reads a level
 * the flow moves: by definition it is taken just before the crossing).
 */
export interface MarcusAction {
  kind: 'marcus';
  jumps: { target: string; rate: Expr; variable: string; frozen?: Expr }[];
}

export interface StopAction {
  kind: 'stop';
}

export type ActionSpec = AssignAction | JumpAction | MarcusAction | StopAction;

export type Schedule =
  /** every root of `argument` (a function of the independent variable and parameters) in the range */
  | { kind: 'roots'; argument: Expr; exactRoot: Expr | null; candidates: Expr[] }
  | { kind: 'at'; times: Expr[] }
  | { kind: 'every'; period: Expr; from: Expr | null }
  /**
   * `delta(t - E - D)`: each occurrence of event E (at t_E) schedules this event at t_E + D;
   * D is made of parameters and must be positive (checked when a run starts)
   */
  | { kind: 'delay'; event: string; delay: Expr };

export type Direction = 'rises' | 'falls' | 'crosses';

export interface EventSpec {
  name: string;
  kind: 'time' | 'state' | 'periodic';
  /** the event statement or delta term as written in the model */
  source: string;
  /** time and periodic events */
  schedule: Schedule | null;
  /** state events: the function whose zero crossing is the event */
  condition: Expr | null;
  /** d(condition)/dt along the flow (chain rule), to find extrema where a crossing could hide inside one step */
  conditionRate: Expr | null;
  direction: Direction | null;
  /** the condition is boolean (a relation or situation): located by bisection on its truth value */
  booleanCondition: boolean;
  actions: ActionSpec[];
  /** delta terms that act at this event, as written */
  deltaSources: string[];
  /** the event is a delta's own: its instants are the zeros of the delta's argument */
  fromDelta: boolean;
  span: Span;
  /** a condition of relations as written (`h < R and Vy < 0`), when `condition` is its truth function */
  truthOf?: Expr;
  /**
   * where `condition` stands for a function that jumps across zero at a switch (step(x) - 0.5
   * as x): that function's sign where `condition` is exactly zero (step(0) = 1), which an
   * action setting x := 0 leaves it on; absent where it is zero there too
   */
  zeroSide?: number;
  /** where the instant is placed when the model says (`locate before`): else the run's choice */
  locate?: 'exact' | 'before' | 'after';
}

/**
 * A relation, `step` or `sign` in a right-hand side: the integrator stops at its switching
 * function's zeros and holds its value fixed within a step. Only those whose function moves
 * between events (reads t or a state): a relation of parameters, discrete and step variables
 * is evaluated as it stands, with the run's values.
 */
export interface SwitchingFunction {
  /** the function whose sign decides the primitive */
  g: Expr;
  /** dg/dt along the flow */
  rate: Expr;
  primitive: 'lt' | 'le' | 'gt' | 'ge' | 'step' | 'sign';
  source: string;
}

export interface BoundaryCondition {
  /** as written, e.g. `y(10) = 0` */
  label: string;
  /** the user's variable key */
  variable: string;
  at: Expr;
  value: Expr;
  span: Span;
}

export interface OutputColumn {
  name: string;
  expr: Expr;
}

export interface FirstOrderSystem {
  model: string;
  file: string;
  /** the model text, for error messages that show the line */
  source: string;
  independent: string;
  range: { from: Expr | null; to: Expr | null };
  parameters: ParameterInfo[];
  states: SystemState[];
  stepVariables: StepVariable[];
  discretes: DiscreteVariable[];
  namedValues: NamedValue[];
  equations: SystemEquation[];
  events: EventSpec[];
  switching: SwitchingFunction[];
  outputs: OutputColumn[];
  /** every user-level variable key (`y`, `y'`, `n`, `J`) as a system expression */
  representation: Map<string, Expr>;
  boundaryConditions: BoundaryCondition[];
  options: Map<string, OptionValue>;
  warnings: string[];
  /** an array model: the parameters its ranges and indices use (changing one writes the model out anew) */
  structural?: string[];
}
