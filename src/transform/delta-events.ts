/**
 * Delta terms as events and jumps: the term as the user wrote it, the time event at the
 * roots of a delta's argument (exact where the algebra gives them, else found numerically)
 * or the state event at its crossings, and the step actions `S := S + increment` a delta
 * attaches to its event (rule 5: where an increment reads a level the same event makes
 * jump, `deltaRule` decides: left limit or Marcus).
 *
 * The transformer is a chain of classes, each level using only those below it:
 * Representation (`representation.ts`) < DeltaEvents (`delta-events.ts`) < EventBuilder
 * (`events.ts`) < Transformer (`transform.ts`, the steps in order).
 */
import type { EquationStatement, Expr } from '../expression/ast.js';
import { add, firstReference, references, simplify, toText } from '../expression/expr.js';
import { exactRootCandidates } from './algebra.js';
import { splitLinear, type DeltaTerm } from './delta-rules.js';
import { Representation } from './representation.js';
import type { EventSpec, JumpAction, MarcusAction, Schedule } from './system.js';

/**
 * `increment` = weight x scaling (1/|u'|); `weight` alone decides whether deltaRule matters.
 * A delta on the state also gives `scale` (1/|du/dt|, read just before the crossing) and
 * `scaled` (the coefficient it multiplies), which a Marcus flow keeps apart.
 */
export interface PendingJump {
  level: string;
  increment: Expr;
  weight: Expr;
  source: string;
  scale?: Expr;
  scaled?: Expr;
}

export class DeltaEvents extends Representation {
  /** The delta term as the user wrote it: the term of its equation `q` holding this call. */
  protected termSource(term: DeltaTerm, q: EquationStatement): string {
    for (const side of [q.lhs, q.rhs]) {
      // (each side split and indexed once: an equation of a row of spheres has several delta
      // terms, and a sum of N deltas N terms at one place, each looked up once)
      let terms = this.sideTerms.get(side);
      if (terms === undefined) {
        try {
          terms = new WrittenTerms(splitLinear(side, this.r).terms);
        } catch {
          terms = null; /* the solved form was checked already; fall back to it */
        }
        this.sideTerms.set(side, terms);
      }
      const found = terms?.of(term);
      if (found) return found.source;
    }
    return term.source;
  }

  /** the delta terms of each side of an equation as written (null: it does not split) */
  private readonly sideTerms = new Map<Expr, WrittenTerms | null>();

  protected timeDeltaEvent(term: DeltaTerm, q: EquationStatement, exactRoot: Expr | null): EventSpec {
    const candidates = exactRoot ? [] : exactRootCandidates(term.argument, this.t);
    if (!exactRoot)
      this.warnings.push(
        `roots of ${toText(term.argument)} (line ${term.call.span.line}): ${candidates.length > 0 ? 'exact candidates from the algebra, checked and completed' : 'found'} numerically over the whole range`,
      );
    return this.scheduledDeltaEvent(term, q, { kind: 'roots', argument: term.argument, exactRoot, candidates });
  }

  /** Rule 2, delayed: the time event `delta(t - E - D)`, scheduled D after each occurrence of E. */
  protected delayedDeltaEvent(term: DeltaTerm, q: EquationStatement, event: string, delay: Expr): EventSpec {
    return this.scheduledDeltaEvent(term, q, { kind: 'delay', event, delay });
  }

  /** A delta's own time event on `schedule`, without actions yet. */
  private scheduledDeltaEvent(term: DeltaTerm, q: EquationStatement, schedule: Schedule): EventSpec {
    return {
      name: `delta(${toText(term.argument)})`,
      kind: 'time',
      source: this.termSource(term, q),
      schedule,
      condition: null,
      conditionRate: null,
      direction: null,
      booleanCondition: false,
      actions: [],
      deltaSources: [],
      fromDelta: true,
      span: term.call.span,
    };
  }

  protected stateDeltaEvent(term: DeltaTerm, q: EquationStatement): EventSpec {
    return {
      name: `delta(${toText(term.argument)})`,
      kind: 'state',
      source: this.termSource(term, q),
      schedule: null,
      condition: this.toSystem(term.argument, false),
      conditionRate: this.toSystem(term.argument, false),
      direction: 'crosses',
      booleanCondition: false,
      actions: [],
      deltaSources: [],
      fromDelta: true,
      span: term.call.span,
    };
  }

  /**
   * Adds the step actions S := S + increment. Rule 5: increments read the values before the
   * event; where one reads a level that the same event makes jump, `deltaRule` decides.
   */
  protected attachJumps(ev: EventSpec, jumps: PendingJump[]): void {
    // the slots of the levels this event makes jump (its step variable and the level's own), and the level of each
    const jumpedSlots = new Map<string, string>();
    for (const j of jumps) {
      jumpedSlots.set(this.stepOfLevel.get(j.level)!, j.level);
      jumpedSlots.set(this.levelSlot.get(j.level)!, j.level);
    }
    // Rule 3's 1/|du/dt| is by definition taken before the crossing: only the weight itself can be ambiguous.
    const ambiguous = jumps.filter(
      (j) => firstReference(this.inlineNamed(j.weight), (k) => jumpedSlots.has(k)) !== undefined,
    );
    const rule = (this.model.options.get('deltaRule')?.value as string | undefined) ?? 'left';
    const asJump = (j: PendingJump): JumpAction => ({
      kind: 'jump',
      target: this.stepOfLevel.get(j.level)!,
      increment: j.increment,
      variable: j.level,
    });
    if (ambiguous.length > 0) {
      // The levels the weights read, not those they change: x*delta'(t - 1) beside
      // x' = delta(t - 1) reads x, and the note said it depended on y. (The increment holds
      // the weight's derivatives of Leibniz's rule too, y*delta'(t - 1) reads y and y'; and a
      // scale 1/|du/dt| that reads a jumping level is by definition taken before, not listed.)
      const read = new Set<string>();
      const jumpedIn = (e: Expr) => firstReference(this.inlineNamed(e), (k) => jumpedSlots.has(k)) !== undefined;
      for (const j of ambiguous) {
        const reads = j.scale && jumpedIn(j.scale) ? j.weight : j.increment;
        for (const k of references(this.inlineNamed(reads))) if (jumpedSlots.has(k)) read.add(jumpedSlots.get(k)!);
      }
      const levels = listed([...read]);
      const what =
        rule === 'marcus'
          ? 'the flow of the pulse over unit time (Marcus), y+ = phi(1; y-)'
          : 'its value just before the event (left limit), y+ = y- + g(y-)';
      this.warnings.push(
        `deltaRule ${rule} at ${ev.name}: the weight of ${listed(
          ambiguous.map((j) => j.source).filter((s, i, a) => a.indexOf(s) === i),
        )} depends on ${levels}, which the same delta makes jump; the weight uses ${what}.`,
      );
    }
    if (rule === 'marcus' && ambiguous.length > 0) {
      // One flow component per step variable: two terms of one event on one level add
      // their rates (y' = y delta(t - 1) + y delta(t - 1) is the flow of dy/ds = 2y, e^2 y-;
      // two components writing one S kept only the last, e y-).
      const flows: MarcusAction['jumps'] = [];
      const byTarget = new Map<string, number>();
      for (const j of jumps) {
        const target = this.stepOfLevel.get(j.level)!;
        // Rule 3's 1/|du/dt| is taken before the crossing: where du/dt reads a level the
        // flow moves, it is read once, before the flow (v' = -k v delta(x - 1) gives
        // v+ = v- exp(-k/|v-|), not v- - k from dv/ds = -k v/|v|).
        const held =
          j.scale && j.scaled && firstReference(this.inlineNamed(j.scale), (k) => jumpedSlots.has(k)) !== undefined;
        const flow = held
          ? { target, rate: j.scaled!, variable: j.level, frozen: j.scale! }
          : { target, rate: j.increment, variable: j.level };
        const at = byTarget.get(target);
        const same = at !== undefined ? flows[at] : undefined;
        // (the terms of one event share their argument, so their held factors are the same)
        if (same && (same.frozen && toText(same.frozen)) === (flow.frozen && toText(flow.frozen)))
          same.rate = simplify(add(same.rate, flow.rate));
        else {
          byTarget.set(target, flows.length);
          flows.push(flow);
        }
      }
      ev.actions.push({ kind: 'marcus', jumps: flows });
    } else {
      // Jumps go before the user's own actions so that a `stop` never hides them; all read pre-event values anyway.
      // (spliced in a loop: one event's jumps can be a row of 1e5, too many for arguments)
      const own = ev.actions.splice(0);
      for (const j of jumps) ev.actions.push(asJump(j));
      for (const a of own) ev.actions.push(a);
    }
  }
}

/**
 * Items joined with commas; a long list (the terms of one event over an array of 1000) as its
 * first three, its last and how many: a note is read, and N copies are not (the rest of
 * `transform` folds them into loops).
 */
function listed(items: readonly string[]): string {
  if (items.length <= 6) return items.join(', ');
  return `${items.slice(0, 3).join(', ')}, ..., ${items[items.length - 1]} (${items.length} in all)`;
}

/**
 * The terms of a side as written, to find the one that is a given term: the same call, else
 * the one at its place; where several share that place (the copies of a `sum` over j, one
 * span for all), the first with its argument. Indexed once per side: looking through the
 * side for each term, with the text of each argument at its place, took a sum of 8000 deltas
 * half a minute.
 */
class WrittenTerms {
  private readonly byCall = new Map<DeltaTerm['call'], DeltaTerm>();
  private readonly byPlace = new Map<number, DeltaTerm[]>();
  /** per place with several terms, the first term of each argument's text (made on first use) */
  private readonly byArgument = new Map<number, Map<string, DeltaTerm>>();

  constructor(terms: readonly DeltaTerm[]) {
    for (const t of terms) {
      if (!this.byCall.has(t.call)) this.byCall.set(t.call, t);
      const at = this.byPlace.get(t.call.span.start);
      if (at) at.push(t);
      else this.byPlace.set(t.call.span.start, [t]);
    }
  }

  of(term: DeltaTerm): DeltaTerm | undefined {
    const same = this.byCall.get(term.call);
    if (same) return same;
    const place = term.call.span.start;
    const at = this.byPlace.get(place);
    if (!at || at.length === 1) return at?.[0];
    let texts = this.byArgument.get(place);
    if (!texts) {
      texts = new Map();
      for (const t of at) {
        const text = toText(t.argument);
        if (!texts.has(text)) texts.set(text, t);
      }
      this.byArgument.set(place, texts);
    }
    return texts.get(toText(term.argument)) ?? at[0];
  }
}
