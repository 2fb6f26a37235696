/**
 * The structure of a transformed system between events (EVENTS.md, 6; issue 23): which parts
 * have a closed form, which clocks they share, and what each event reads and writes.
 *
 * - **Components** are the strongly connected parts of the state dependency graph (x depends
 *   on y when x's right-hand side reads y, directly or through algebraic variables). Step
 *   variables, discrete variables and parameters are constants between events.
 * - A component is **polynomial** when it is one state that does not read itself and whose
 *   right-hand side is a polynomial in t once the states it reads are: its segment is then a
 *   polynomial in t (free flight: degree 1; gravity: 2). Otherwise it is **numeric** (a cycle,
 *   a function of a moving value, or a component that reads a numeric one). A component is
 *   **linear** when its right-hand sides are affine in its own states and those of linear
 *   components, with coefficients constant between events (linear.ts; issue 24): x' = A x + b.
 * - **Clock groups**: components that read one another, directly or through others, share one
 *   clock, since a segment is computed from the values of what it reads at its own origin.
 *   Bodies that only meet at events (a row of spheres) are each a group of their own, and an
 *   event advances only the groups it reads and writes.
 * - **Events**: for each, the groups its condition reads and its condition's degree in t;
 *   what its actions read; which groups and discrete slots they write, and so which groups'
 *   motions change (those whose right-hand side reads a written step or discrete variable).
 *
 * Pure data, printable (`segments.ts`); the compiler derives the closed forms from it.
 */
import type { Expr } from '../expression/ast.js';
import { name, references, toText } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { PolynomialDegree } from './degree.js';
import { LIE_BUDGET, LieSeries } from './lie-series.js';
import { connectedParts, stronglyConnected } from './graph.js';
import {
  classifyLinear,
  inlineNamed,
  linearCondition,
  linearGroups,
  type LinearFunction,
  type LinearSystem,
} from './linear.js';
import { maxOf } from '../expression/extremes.js';

/** The highest degree in t kept in closed form (Lie derivatives beyond it grow; the roots would be ill-conditioned). */
export const MAX_DEGREE = 16;

export type SegmentKind = 'polynomial' | 'linear' | 'numeric';

export interface Component {
  /** state indices (system order) */
  states: number[];
  kind: SegmentKind;
  /** polynomial: the highest degree in t among its states; linear and numeric: -1 */
  degree: number;
  /** numeric: why it has no closed form, in words */
  reason: string | null;
  group: number;
  /** polynomial: its state's Taylor coefficients in t, x, Lx, L²x/2, ... (lie-series.ts); else null */
  taylor: Expr[] | null;
}

export interface EventStructure {
  /** clock groups that the condition reads (state events) */
  reads: number[];
  /** degree of the condition in t (state events with a polynomial condition), else -1 */
  degree: number;
  /** with a degree: the condition's Taylor coefficients in t (lie-series.ts), else null */
  taylor: Expr[] | null;
  /** why the condition's crossings are not roots of a polynomial, or null */
  reason: string | null;
  /** a function affine in the states of one linear block: its gradient and constant part, else null */
  linear: LinearFunction | null;
  /** clock groups that the actions read */
  actionReads: number[];
  /** step and discrete slots (indices into [step variables, discretes]) that the actions write */
  writesDiscrete: number[];
  /** clock groups whose states the actions write */
  writesStates: number[];
  /** clock groups whose motion the actions change: their states or a step/discrete variable their equations read */
  changes: number[];
  /** step and discrete slots the condition reads (directly or through algebraic variables) */
  readsDiscrete: number[];
  /** the names the condition reads, through the algebraic variables */
  conditionNames: string[];
  /** per written slot of its actions: what the action reads, and whether it is an increment by a constant (`n := n + 1`) */
  actions: ActionNames[];
}

export interface ActionNames {
  target: string;
  reads: string[];
  increment: boolean;
}

/** `v := v + c` with c a constant expression (numbers only): an increment, which commutes with another. */
function isIncrement(target: string, v: Expr): boolean {
  return (
    v.kind === 'binary' &&
    v.op === '+' &&
    v.left.kind === 'name' &&
    v.left.name === target &&
    references(v.right).size === 0
  );
}

export interface SystemStructure {
  components: Component[];
  /** per state: its component and its clock group */
  componentOf: Int32Array;
  groupOf: Int32Array;
  /** per clock group: its states in system order, its highest degree (-1: linear or numeric), its matrix when linear */
  groups: { states: number[]; degree: number; linear: LinearSystem | null }[];
  /** per event of the system, in order */
  events: EventStructure[];
  /** clock groups that the output columns read */
  outputReads: number[];
  /** every component and every state event in closed form: the model can take the analytic path */
  closedForm: boolean;
  /** what keeps it from the analytic path, in words (empty when closedForm) */
  obstacles: string[];
}

/** Reads of expressions through the named values, memoised per named value. */
class Reads {
  private readonly memo = new Map<string, Set<string>>();
  constructor(private readonly named: ReadonlyMap<string, Expr>) {}
  of(e: Expr): Set<string> {
    const out = new Set<string>();
    for (const k of references(e)) {
      const def = this.named.get(k);
      if (!def) {
        out.add(k);
        continue;
      }
      for (const x of this.memo.get(k) ?? this.resolve(k)) out.add(x);
    }
    return out;
  }

  /**
   * The reads of named value k, memoising those it uses first (depth first, with a stack:
   * a chain of 1e4 named values is 1e4 deep).
   */
  private resolve(k: string): Set<string> {
    const stack: { key: string; ready: boolean }[] = [{ key: k, ready: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (this.memo.has(top.key)) continue;
      const refs = references(this.named.get(top.key)!);
      if (top.ready) {
        const out = new Set<string>();
        for (const r of refs) {
          const inner = this.named.has(r) ? this.memo.get(r) : undefined;
          if (inner) for (const x of inner) out.add(x);
          else if (!this.named.has(r)) out.add(r);
        }
        this.memo.set(top.key, out);
        continue;
      }
      stack.push({ key: top.key, ready: true });
      for (const r of refs) if (this.named.has(r) && !this.memo.has(r)) stack.push({ key: r, ready: false });
    }
    return this.memo.get(k)!;
  }
}

const STRUCTURES = new WeakMap<FirstOrderSystem, SystemStructure>();

/** The structure of a system, analysed once (the compiler, the report and the run's selection share it). */
export function structureOf(sys: FirstOrderSystem): SystemStructure {
  let st = STRUCTURES.get(sys);
  if (!st) {
    st = analyseStructure(sys);
    STRUCTURES.set(sys, st);
  }
  return st;
}

export function analyseStructure(sys: FirstOrderSystem): SystemStructure {
  const n = sys.states.length;
  const stateIndex = new Map(sys.states.map((s, i) => [s.name, i]));
  const discreteIndex = new Map(
    [...sys.stepVariables.map((s) => s.name), ...sys.discretes.map((d) => d.name)].map((k, i) => [k, i]),
  );
  const named = new Map(sys.namedValues.map((v) => [v.name, v.expr]));
  const reads = new Reads(named);
  const rhsOf: Expr[] = new Array(n);
  for (const q of sys.equations) rhsOf[stateIndex.get(q.state)!] = q.rhs;
  const rhsReads = rhsOf.map((r) => reads.of(r));
  // (a loop, not flatMap: flatMap's arrays of one were a third of this analysis of a row of 1024 spheres)
  const edges = rhsReads.map((rs) => {
    const out: number[] = [];
    for (const k of rs) {
      const i = stateIndex.get(k);
      if (i !== undefined) out.push(i);
    }
    return out;
  });

  // Components in dependency order: each after those it reads.
  const parts = stronglyConnected(n, edges);
  const degreeOfState = new Float64Array(n).fill(Infinity);
  const scope = {
    nameDegree: (k: string) => (k === sys.independent ? 1 : stateIndex.has(k) ? degreeOfState[stateIndex.get(k)!] : 0),
    named: (k: string) => named.get(k),
  };
  const degree = new PolynomialDegree(scope);
  const componentOf = new Int32Array(n);
  const components: Component[] = parts.map((states, c) => {
    for (const s of states) componentOf[s] = c;
    return { states, kind: 'numeric', degree: -1, reason: null, group: -1, taylor: null };
  });
  // (inlined only where the polynomial test failed: a chain of 1e4 named values stays uninlined elsewhere)
  const inlinedMemo = new Map<number, Expr | null>();
  const inlined = (s: number): Expr | null => {
    if (!inlinedMemo.has(s)) inlinedMemo.set(s, inlineNamed(rhsOf[s], named));
    return inlinedMemo.get(s)!;
  };
  const moving = (k: string) => k === sys.independent || stateIndex.has(k);
  const series = new LieSeries(sys);
  parts.forEach((states, c) => {
    classify(sys, components[c], states, rhsOf, edges, componentOf, components, degree, degreeOfState);
    const comp = components[c];
    if (comp.kind === 'polynomial') {
      const s = states[0];
      comp.taylor = series.taylor(name(sys.states[s].name), comp.degree);
      if (comp.taylor === null) {
        comp.kind = 'numeric';
        comp.reason = `${sys.states[s].name} would be a polynomial of degree ${comp.degree} in ${sys.independent} whose coefficients grow past ${LIE_BUDGET} terms (a product of many moving factors)`;
        comp.degree = -1;
        degreeOfState[s] = Infinity;
      }
    }
    if (components[c].kind === 'numeric')
      classifyLinear(stateIndex, components[c], inlined, componentOf, components, moving);
  });

  const groupOf = connectedParts(n, edges);
  const groupCount = n === 0 ? 0 : maxOf(groupOf) + 1;
  const groups = Array.from({ length: groupCount }, () => ({
    states: [] as number[],
    degree: 0,
    linear: null as LinearSystem | null,
  }));
  for (let s = 0; s < n; s++) groups[groupOf[s]].states.push(s);
  for (const c of components) {
    c.group = groupOf[c.states[0]];
    const g = groups[c.group];
    g.degree = c.kind !== 'polynomial' || g.degree < 0 ? -1 : Math.max(g.degree, c.degree);
  }
  linearGroups(sys, groups, components, inlined, moving);

  // Which groups' motions read each step or discrete slot.
  const motionReaders = new Map<number, Set<number>>();
  rhsReads.forEach((rs, s) => {
    for (const k of rs) {
      const d = discreteIndex.get(k);
      if (d === undefined) continue;
      if (!motionReaders.has(d)) motionReaders.set(d, new Set());
      motionReaders.get(d)!.add(groupOf[s]);
    }
  });
  const groupsOf = (names: Iterable<string>) => {
    // (a set: an output that sums 1e5 states reads 1e5 groups)
    const out = new Set<number>();
    for (const k of names) {
      const s = stateIndex.get(k);
      if (s !== undefined) out.add(groupOf[s]);
    }
    return [...out].sort((x, y) => x - y);
  };
  const discretesOf = (names: Iterable<string>) => {
    const out: number[] = [];
    for (const k of names) {
      const d = discreteIndex.get(k);
      if (d !== undefined && !out.includes(d)) out.push(d);
    }
    return out.sort((x, y) => x - y);
  };

  const events: EventStructure[] = sys.events.map((ev) => {
    const condReads = ev.condition ? reads.of(ev.condition) : new Set<string>();
    let deg = -1;
    let reason: string | null = null;
    let linear: LinearFunction | null = null;
    let taylor: Expr[] | null = null;
    const readGroups = groupsOf(condReads);
    if (ev.kind === 'state' && ev.condition && !ev.booleanCondition && readGroups.some((g) => groups[g].linear)) {
      const f = linearCondition(ev.condition, readGroups, groups, named, sys, moving);
      if (typeof f === 'string') reason = f;
      else linear = f;
    } else if (ev.kind === 'state' && ev.condition) {
      if (ev.booleanCondition)
        reason = `its condition ${toText(ev.truthOf ?? ev.condition)} is a truth value, not a function whose zeros are roots`;
      else {
        deg = degree.of(ev.condition);
        if (!(deg <= MAX_DEGREE)) {
          const o = degree.obstacle(ev.condition);
          reason =
            deg === Infinity
              ? `its function ${toText(ev.condition)} is not a polynomial in ${sys.independent} between events${o && o !== ev.condition ? ` (${toText(o)})` : ''}`
              : `its function ${toText(ev.condition)} has degree ${deg} in ${sys.independent}, above ${MAX_DEGREE}`;
          deg = -1;
        } else {
          taylor = series.taylor(series.inline(ev.condition), deg);
          if (taylor === null) {
            reason = `its function ${toText(ev.condition)}, of degree ${deg} in ${sys.independent}, has coefficients that grow past ${LIE_BUDGET} terms (a product of many moving factors)`;
            deg = -1;
          }
        }
      }
    }
    const actionNames = new Set<string>();
    const written = new Set<string>();
    const actions: ActionNames[] = [];
    const note = (target: string, value: Expr, increment: boolean) => {
      const r = reads.of(value);
      for (const k of r) actionNames.add(k);
      written.add(target);
      actions.push({ target, reads: [...r], increment });
    };
    for (const a of ev.actions) {
      if (a.kind === 'assign') note(a.target, a.value, isIncrement(a.target, a.value));
      else if (a.kind === 'jump') note(a.target, a.increment, false);
      else if (a.kind === 'marcus') {
        for (const j of a.jumps) note(j.target, j.rate, false);
        reason ??= `its deltas follow deltaRule = marcus (a flow at the instant, integrated numerically)`;
      }
    }
    const writesDiscrete = discretesOf(written);
    const writesStates = groupsOf(written);
    const changed = new Set(writesStates);
    for (const d of writesDiscrete) for (const g of motionReaders.get(d) ?? []) changed.add(g);
    return {
      reads: readGroups,
      degree: deg,
      taylor,
      reason,
      linear,
      actionReads: groupsOf(actionNames),
      writesDiscrete,
      writesStates,
      changes: sortedUnique([...changed]),
      readsDiscrete: discretesOf(condReads),
      conditionNames: [...condReads],
      actions,
    };
  });

  const outputReads = groupsOf(sys.outputs.flatMap((o) => [...reads.of(o.expr)]));
  const obstacles: string[] = [];
  for (const c of components)
    if (c.kind === 'numeric') obstacles.push(`${c.states.map((s) => sys.states[s].name).join(', ')}: ${c.reason}`);
  sys.events.forEach((ev, i) => {
    if (events[i].reason) obstacles.push(`event ${ev.name}: ${events[i].reason}`);
  });
  if (sys.switching.length > 0)
    obstacles.push(
      `the right-hand side switches (${sys.switching.map((s) => s.source).join(', ')}): the stepper stops at each switch`,
    );
  return {
    components,
    componentOf,
    groupOf,
    groups,
    events,
    outputReads,
    closedForm: obstacles.length === 0,
    obstacles,
  };
}

/** Decides whether one component has a closed form, and of what degree (components come in dependency order). */
function classify(
  sys: FirstOrderSystem,
  c: Component,
  states: number[],
  rhsOf: Expr[],
  edges: number[][],
  componentOf: Int32Array,
  components: Component[],
  degree: PolynomialDegree,
  degreeOfState: Float64Array,
): void {
  const names = states.map((s) => sys.states[s].name);
  if (states.length > 1 || edges[states[0]].includes(states[0])) {
    c.reason =
      states.length > 1
        ? `${names.join(' and ')} depend on one another (a cycle): not a polynomial in ${sys.independent}`
        : `${names[0]}' reads ${names[0]} (a cycle): not a polynomial in ${sys.independent}`;
    return;
  }
  const s = states[0];
  const numericInput = edges[s].find((x) => components[componentOf[x]].kind === 'numeric');
  if (numericInput !== undefined) {
    c.reason = `it reads ${sys.states[numericInput].name}, which is integrated numerically`;
    return;
  }
  const rhs = rhsOf[s];
  const d = degree.of(rhs);
  if (d === Infinity) {
    const o = degree.obstacle(rhs);
    c.reason = `${names[0]}' = ${toText(rhs)} is not a polynomial in the states and ${sys.independent}${o && o !== rhs ? ` (${toText(o)})` : ''}`;
    return;
  }
  // x' = 0 keeps x constant; any other polynomial of degree d integrates to degree d + 1
  const k = rhs.kind === 'number' && rhs.value === 0 ? 0 : d + 1;
  if (k > MAX_DEGREE) {
    c.reason = `${names[0]} would be a polynomial of degree ${k} in ${sys.independent}, above ${MAX_DEGREE}`;
    return;
  }
  c.kind = 'polynomial';
  c.degree = k;
  degreeOfState[s] = k;
}

function sortedUnique(xs: number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}
