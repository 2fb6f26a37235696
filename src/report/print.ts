/**
 * What `deltastep transform` shows: the first-order system as text for a person, as LaTeX,
 * and as JSON (keys in CLI.md). Event times are evaluated at the parameters' defaults.
 */
import { ModelError } from '../expression/errors.js';
import { add, latexName, latexNumber, name, toLatex, toText } from '../expression/expr.js';
import { ScheduleError, scheduleTimes } from '../codegen/event-times.js';
import type { CompiledModel } from '../codegen/compile.js';
import { requireCompiled, SimulationInputError } from '../codegen/stages.js';
import type { ActionSpec, EventSpec, FirstOrderSystem } from '../transform/system.js';
import {
  foldItems,
  foldLines,
  INNER_TEXT_STYLE,
  innerOptions,
  isElement,
  LATEX_ALIGN_STYLE,
  LATEX_ITEM_STYLE,
  splitRange,
  type Extent,
  type Extents,
  type FoldItem,
  type LoopHint,
  type RangeHint,
} from './fold.js';
import { originOf } from '../language/array-origins.js';
import { attachSegments, segmentsLatex, segmentsLines, type SegmentsPart } from './segments.js';
import type { Expr, Span } from '../expression/ast.js';
import { maxOf } from '../expression/extremes.js';

/** How many scheduled times `transform` lists per event before it says "and N more". */
const MAX_LISTED_TIMES = 1000;

export interface TransformReport {
  model: string;
  independent: string;
  range: { from: number | null; to: number | null };
  parameters: { name: string; value: number; unknown: boolean }[];
  states: { name: string; standsFor: string; initial: string }[];
  stepVariables: { name: string; variable: string; state: string }[];
  discretes: { name: string; initial: string }[];
  algebraic: { name: string; expr: string }[];
  situations: { name: string; condition: string }[];
  equations: string[];
  events: {
    name: string;
    kind: string;
    times: number[];
    condition: string | null;
    direction: string | null;
    actions: string[];
    source: string;
    deltaSources: string[];
    /** a delayed delta (`delta(t - E - D)`): the event E it follows and the delay D, as written and its value */
    delay?: { after: string; by: string; value: number };
    /** true where the range holds more times than `times` lists (the first MAX_LISTED_TIMES) */
    moreTimes?: boolean;
  }[];
  switching: string[];
  boundaryConditions: string[];
  warnings: string[];
  /**
   * An array model only: its sections once, as lines and loops (`{for, from, to, body}`: the
   * body's lines for each value of the loop variable), whatever the number of elements (fold.ts).
   */
  /** how each part is integrated between events (report/segments.ts) */
  segments?: SegmentsPart['segments'];
  eventRoots?: SegmentsPart['eventRoots'];
  analyticPath?: SegmentsPart['analyticPath'];
  template?: Record<
    'parameters' | 'states' | 'stepVariables' | 'discretes' | 'algebraic' | 'situations' | 'equations' | 'events',
    FoldItem[]
  >;
}

type Hints = (RangeHint | undefined)[];
interface SectionHints {
  states: Hints;
  stepVariables: Hints;
  algebraic: Hints;
  situations: Hints;
  named: Hints;
  equations: Hints;
  events: Hints;
  /** per event, the variable whose equation holds each of its delta terms (none where the jumps do not tell) */
  termEquations: (string[] | undefined)[];
  /** the arrays made by one loop of one statement, with that loop's range as written */
  extents: Extents;
}

/** Where the entries of a report come from (an array model's loops), for printing its ranges as written. */
const hintMakers = new WeakMap<TransformReport, () => SectionHints>();
const reportHints = { get: (r: TransformReport): SectionHints | undefined => hintMakers.get(r)?.() };

/**
 * For each span (one per printed entry), the innermost `for` block that made it, if any: its
 * variable, its range as written (spaces dropped) and this copy's value; the smallest and
 * largest values among the entries from the same statement and outer loop values.
 */
function rangeHints(spans: readonly (Span | undefined)[]): Hints {
  const all: LoopHint[] = [];
  const hints: Hints = spans.map((span) => {
    const o = span && originOf(span);
    if (!o || o.loops.length === 0) return undefined;
    const loops: LoopHint[] = [];
    // innermost first
    for (let l = o.loops.length - 1; l >= 0; l--) {
      const frame = o.loops[l];
      const m = /^\s*\w+\s+in\s+(.+)$/.exec(frame.range);
      const colon = m ? m[1].indexOf(':') : -1;
      if (!m || colon < 0) continue;
      const fromText = m[1].slice(0, colon).replace(/\s+/g, ''),
        toText = m[1].slice(colon + 1).replace(/\s+/g, '');
      const outer = o.loops.slice(0, l);
      // (a range that names an outer loop's variable is shown by its numbers: that loop is not printed)
      if (outer.some((f) => new RegExp(`\\b${f.variable}\\b`).test(`${fromText} ${toText}`))) continue;
      const key = `${o.template.span.start}|${outer.map((f) => f.value).join(',')}|${frame.variable}`;
      const hint = {
        key,
        variable: frame.variable,
        fromText,
        toText,
        value: frame.value,
        min: frame.value,
        max: frame.value,
      };
      loops.push(hint);
      all.push(hint);
    }
    return loops;
  });
  const extent = new Map<string, [number, number]>();
  for (const h of all) {
    const e = extent.get(h.key);
    extent.set(h.key, e ? [Math.min(e[0], h.value), Math.max(e[1], h.value)] : [h.value, h.value]);
  }
  for (const h of all) [h.min, h.max] = extent.get(h.key)!;
  return hints;
}

function sectionHints(sys: FirstOrderSystem): SectionHints {
  const stateSpan = new Map(sys.states.map((q) => [q.name, q.span]));
  const states = rangeHints(sys.states.map((q) => q.span));
  const stepVariables = rangeHints(sys.stepVariables.map((q) => stateSpan.get(q.state)));
  const named = rangeHints(sys.namedValues.map((v) => v.span));
  const events = rangeHints(sys.events.map((e) => e.span));
  return {
    states,
    stepVariables,
    algebraic: rangeHints(sys.namedValues.filter((v) => !v.isSituation).map((v) => v.span)),
    situations: rangeHints(sys.namedValues.filter((v) => v.isSituation).map((v) => v.span)),
    named,
    equations: rangeHints(sys.equations.map((q) => q.span ?? stateSpan.get(q.state))),
    events,
    termEquations: sys.events.map(termEquations),
    extents: arrayExtents([
      ...sys.states.flatMap((q, k) => [
        { name: q.name, hint: states[k] },
        { name: q.variable.replace(/'+$/, ''), hint: states[k] },
      ]),
      ...sys.stepVariables.map((q, k) => ({ name: q.name, hint: stepVariables[k] })),
      ...sys.namedValues.map((v, k) => ({ name: v.name, hint: named[k] })),
      ...sys.events.flatMap((e, k) => (e.fromDelta ? [] : [{ name: e.name, hint: events[k] }])),
    ]),
  };
}

/**
 * The arrays whose elements (`S[1]`, ..., `S[50]`) all come from one loop of one statement,
 * each element the loop's value, as that loop's range as written (`1:N`): a fold over the
 * same elements that is no loop of the model, such as the events of the copies of a sum over
 * j, says `for i in 1:N` by them.
 */
function arrayExtents(entries: readonly { name: string; hint: RangeHint | undefined }[]): Extents {
  const seen = new Map<string, { key: string; extent: Extent; indices: Set<number> } | null>();
  for (const { name, hint } of entries) {
    const m = /^([A-Za-z_]\w*)\[(\d+)\]$/.exec(name);
    if (!m) continue;
    const array = m[1],
      index = Number(m[2]);
    const known = seen.get(array);
    if (known === null) continue;
    const loop = hint?.[0];
    if (!loop || loop.value !== index || (known && known.key !== loop.key)) seen.set(array, null);
    else if (known) known.indices.add(index);
    else
      seen.set(array, {
        key: loop.key,
        extent: { min: loop.min, max: loop.max, range: `${loop.fromText}:${loop.toText}` },
        indices: new Set([index]),
      });
  }
  const extents = new Map<string, Extent>();
  for (const [array, e] of seen)
    if (e && e.indices.size === e.extent.max - e.extent.min + 1) extents.set(array, e.extent);
  return extents;
}

/**
 * The variable whose equation holds each delta term of an event (`v[3]` for a term of
 * `v[3]' = ...`), from its jumps: the transform lists the terms in the order of their jumps,
 * each term's jumps one level above the other (`y`, then `y'` for a delta'), so a jump of
 * another variable, or of a level not above the last, starts the next term. Undefined where
 * that does not give one variable per term (a delta' whose higher coefficient is zero).
 */
function termEquations(ev: EventSpec): string[] | undefined {
  const levels = ev.actions.flatMap((a) =>
    a.kind === 'jump' ? [a.variable] : a.kind === 'marcus' ? a.jumps.map((j) => j.variable) : [],
  );
  const variables: string[] = [];
  let last: { variable: string; order: number } | undefined;
  for (const level of levels) {
    const variable = level.replace(/'+$/, ''),
      order = level.length - variable.length;
    if (!last || last.variable !== variable || order <= last.order) variables.push(variable);
    last = { variable, order };
  }
  return variables.length === ev.deltaSources.length ? variables : undefined;
}

/** Whether the report is an array model's (some name is an element). */
function hasElements(r: TransformReport): boolean {
  return [r.parameters, r.states, r.discretes, r.events, r.algebraic].some((list) =>
    list.some((q) => isElement(q.name)),
  );
}

/** The report's sections folded into loops. */
function templateOf(r: TransformReport): NonNullable<TransformReport['template']> {
  const h = reportHints.get(r);
  return {
    parameters: foldItems(r.parameters.map((q) => `${q.name} = ${q.value}${q.unknown ? ' (unknown)' : ''}`)),
    states: foldItems(
      r.states.map((q) => `${q.name} stands for ${q.standsFor}, initial ${q.initial}`),
      undefined,
      h?.states,
      { extents: h?.extents },
    ),
    stepVariables: foldItems(
      r.stepVariables.map((q) => `${q.name}: the jumps of ${q.variable}, so ${q.variable} = ${q.state} + ${q.name}`),
      undefined,
      h?.stepVariables,
      { extents: h?.extents },
    ),
    discretes: foldItems(r.discretes.map((q) => `${q.name} = ${q.initial}`)),
    algebraic: foldItems(
      r.algebraic.map((q) => `${q.name} = ${q.expr}`),
      undefined,
      h?.algebraic,
      { extents: h?.extents },
    ),
    situations: foldItems(
      r.situations.map((q) => `${q.name} = ${q.condition}`),
      undefined,
      h?.situations,
      { extents: h?.extents },
    ),
    equations: foldItems(r.equations, undefined, h?.equations, { extents: h?.extents }),
    events: foldItems(
      r.events.map((e) => {
        const head = `${e.name} [${e.kind}] ${whenText(e)}`;
        return `${head}: ${actionsLine(e.actions, `${head}: ${e.actions.join('; ')}`, h?.extents)}`;
      }),
      undefined,
      h?.events,
      { extents: h?.extents },
    ),
  };
}

/**
 * S + increment as one sum, so that a negative increment prints as a difference with the
 * parentheses it needs: `S1 - 2`, `S1 - (a + b)`, never `S1 + -2` or `S1 - a + b`.
 */
function jumped(a: Extract<ActionSpec, { kind: 'jump' }>): Expr {
  return add(name(a.target), a.increment);
}

function actionText(a: ActionSpec): string[] {
  if (a.kind === 'stop') return ['stop'];
  if (a.kind === 'assign') return [`${a.target} := ${toText(a.value)}`];
  if (a.kind === 'jump') return [`${a.target} := ${toText(jumped(a))}`];
  return a.jumps.map((j) =>
    j.frozen
      ? `${j.target} := flow of d${j.target}/ds = (${toText(j.rate)}) times (${toText(j.frozen)}) as before the event, over s in [0, 1]  (Marcus)`
      : `${j.target} := flow of d${j.target}/ds = ${toText(j.rate)} over s in [0, 1]  (Marcus)`,
  );
}

/**
 * The scheduled times of event i from `from` to `to` as the report lists them, one more than
 * are listed when there are more; a double root of a delta argument among them is a model error.
 */
function listedTimes(model: CompiledModel, i: number, p: Float64Array, from: number, to: number): number[] {
  const sys = model.system;
  try {
    // one more than are listed, to know that there are more: a tick every 1 to 1e7 is
    // ten million times, which a listing must not hold (the run's stop queue streams them)
    const lo = Math.min(from, to),
      hi = Math.max(from, to);
    return scheduleTimes(model.events[i], p, lo, hi, MAX_LISTED_TIMES + 1, to < from ? -1 : 1, from);
  } catch (err) {
    if (err instanceof ScheduleError)
      throw new ModelError(sys.file, sys.source, sys.events[i].span, err.message, err.hint);
    throw err;
  }
}

/** The parameters' defaults and the model's range under them (`to` null: the model states no end). */
function defaultRange(model: CompiledModel): { p: Float64Array; from: number; to: number | null } {
  const p = model.parameters();
  const at = (e: FirstOrderSystem['range']['from']) => (e ? model.parametersExpr(e, p) : null);
  return { p, from: at(model.system.range.from) ?? 0, to: at(model.system.range.to) };
}

/**
 * What transformReport refuses a model for (a schedule problem among the listed times, such
 * as a double root of a delta argument), without writing the report: `simulate` checks the
 * model with it, and the text of every equation and event cost 15 ms of a cold run of a row
 * of 1024 spheres.
 */
export function checkSchedules(model: CompiledModel): void {
  requireCompiled('transformReport', model);
  const sys = model.system;
  const { p, from, to } = defaultRange(model);
  if (to === null) return;
  sys.events.forEach((ev, i) => {
    if (ev.schedule) listedTimes(model, i, p, from, to);
  });
}

/**
 * The report, with the scheduled times of the default parameters (the first
 * MAX_LISTED_TIMES of each event). A double root of a delta argument among them is found
 * here too, so `transform` refuses the model as `simulate` would; one further along the
 * range ends the run that reaches it.
 */
export function transformReport(model: CompiledModel): TransformReport {
  requireCompiled('transformReport', model);
  const sys = model.system;
  const { p, from, to } = defaultRange(model);
  const warnings = [...sys.warnings];
  const events = sys.events.map((ev, i) => {
    let times: number[] = [];
    let more = false;
    if (ev.schedule) {
      if (to === null)
        warnings.push(`${ev.name}: the range has no end in the model, so its times are listed when a run gives one`);
      else {
        times = listedTimes(model, i, p, from, to);
        if (times.length > MAX_LISTED_TIMES) {
          warnings.push(
            `${ev.name}: more than ${MAX_LISTED_TIMES} times in the range; the first ${MAX_LISTED_TIMES} are listed`,
          );
          times = times.slice(0, MAX_LISTED_TIMES);
          more = true;
        }
      }
    }
    const s = ev.schedule;
    const delay =
      s?.kind === 'delay'
        ? { after: s.event, by: toText(s.delay), value: model.parametersExpr(s.delay, p) }
        : undefined;
    return {
      name: ev.name,
      kind: ev.kind,
      times,
      ...(more ? { moreTimes: true } : {}),
      ...(delay ? { delay } : {}),
      // a condition of relations as written, and the function it is located on
      condition: ev.condition
        ? ev.truthOf
          ? `${toText(ev.truthOf)} (located where ${toText(ev.condition)} crosses 0)`
          : toText(ev.condition)
        : null,
      direction: ev.direction,
      actions: ev.actions.flatMap(actionText),
      source: ev.source,
      deltaSources: ev.deltaSources,
    };
  });
  const report: TransformReport = {
    model: sys.model,
    independent: sys.independent,
    range: { from, to },
    parameters: sys.parameters.map((q, i) => ({ name: q.name, value: p[i], unknown: q.unknown })),
    states: sys.states.map((s) => ({ name: s.name, standsFor: s.standsFor, initial: toText(s.initial) })),
    stepVariables: sys.stepVariables.map((s) => ({ ...s })),
    discretes: sys.discretes.map((d) => ({ name: d.name, initial: toText(d.initial) })),
    algebraic: sys.namedValues.filter((v) => !v.isSituation).map((v) => ({ name: v.name, expr: toText(v.expr) })),
    situations: sys.namedValues.filter((v) => v.isSituation).map((v) => ({ name: v.name, condition: toText(v.expr) })),
    equations: sys.equations.map((q) => `${q.state}' = ${toText(q.rhs)}`),
    events,
    switching: sys.switching.map((s) => s.source),
    boundaryConditions: sys.boundaryConditions.map((b) => b.label),
    warnings,
  };
  // (computed when read: JSON output reads it, a run that only checks the model does not)
  if (hasElements(report)) {
    let hints: SectionHints | undefined;
    hintMakers.set(report, () => (hints ??= sectionHints(sys)));
    let template: TransformReport['template'];
    Object.defineProperty(report, 'template', {
      enumerable: true,
      configurable: true,
      get: () => (template ??= templateOf(report)),
    });
  }
  attachSegments(report, model);
  return report;
}

/** When an event acts, for the text forms: its condition, its delay or its scheduled times. */
function whenText(e: TransformReport['events'][number]): string {
  if (e.kind === 'state') return `when ${e.condition} ${e.direction}`;
  if (e.delay) {
    const value = String(e.delay.value) === e.delay.by ? '' : ` (${e.delay.by} = ${e.delay.value})`;
    return `${e.delay.by} after each ${e.delay.after}${value}`;
  }
  return `at ${listTimes(e.times, e.moreTimes === true)}`;
}

/** `more`: the range holds more than the times listed (a listing cut at MAX_LISTED_TIMES is no count of them all) */
function listTimes(times: number[], more: boolean): string {
  if (times.length === 0) return 'none in the range';
  const shown = times.slice(0, 8).map((t) => String(Number(t.toPrecision(15))));
  const count = more ? `more than ${times.length}` : `${times.length} in all`;
  return shown.join(', ') + (times.length > 8 ? `, ... (${count})` : '');
}

/** Throws unless r is what transformReport gives. */
function requireReport(caller: string, r: unknown): asserts r is TransformReport {
  const x = r as Partial<TransformReport> | null;
  if (!(typeof x === 'object' && x !== null && Array.isArray(x.equations) && Array.isArray(x.events)))
    throw new SimulationInputError(
      `${caller} takes what transformReport gives (transformReport(compileModel(text))), got ${r === null ? 'null' : typeof r}`,
      { option: 'report', value: r, allowed: 'a TransformReport' },
    );
}

export function formatText(r: TransformReport): string {
  requireReport('formatText', r);
  const lines: string[] = [];
  // where each line comes from (an array model's loops), filled in beside the sections' entries
  const h = reportHints.get(r);
  const hints: Hints = [];
  const mark = (section: Hints | undefined, count: number) => {
    hints.length = lines.length - count;
    for (let k = 0; k < count; k++) hints.push(section?.[k]);
  };
  const range = `${r.range.from} to ${r.range.to ?? '(end from the command line)'}`;
  lines.push(`model ${r.model}: independent ${r.independent} from ${range}`);
  if (r.parameters.length)
    lines.push(
      '',
      'parameters',
      ...r.parameters.map((q) => `  ${q.name} = ${q.value}${q.unknown ? '   (unknown: found by shoot)' : ''}`),
    );
  lines.push('', 'states (first-order system)');
  const width = Math.max(maxOf(r.states.map((s) => s.name.length)), 4);
  for (const s of r.states)
    lines.push(`  ${s.name.padEnd(width)}  stands for ${s.standsFor.padEnd(12)} initial ${s.initial}`);
  mark(h?.states, r.states.length);
  if (r.stepVariables.length) {
    lines.push('', 'step variables (piecewise constant, changed only by events)');
    for (const s of r.stepVariables)
      lines.push(`  ${s.name}: the jumps of ${s.variable}, so ${s.variable} = ${s.state} + ${s.name}; starts at 0`);
    mark(h?.stepVariables, r.stepVariables.length);
  }
  if (r.discretes.length)
    lines.push('', 'discrete variables', ...r.discretes.map((d) => `  ${d.name} = ${d.initial} initially`));
  if (r.algebraic.length)
    lines.push('', 'algebraic variables (in evaluation order)', ...r.algebraic.map((a) => `  ${a.name} = ${a.expr}`));
  mark(h?.algebraic, r.algebraic.length);
  if (r.situations.length) lines.push('', 'situations', ...r.situations.map((s) => `  ${s.name} = ${s.condition}`));
  mark(h?.situations, r.situations.length);
  lines.push('', 'equations', ...r.equations.map((q) => `  ${q}`));
  mark(h?.equations, r.equations.length);
  if (r.events.length) {
    lines.push('', 'events (processed in this order at one instant)');
    // (one entry per event, so that an array's events fold as wholes: fold.ts)
    r.events.forEach((e, n) => lines.push(eventEntry(e, h && { equations: h.termEquations[n], extents: h.extents })));
    mark(h?.events, r.events.length);
  }
  if (r.switching.length)
    lines.push('', 'switching functions (the integrator stops where they change)', ...r.switching.map((s) => `  ${s}`));
  if (r.boundaryConditions.length)
    lines.push('', 'boundary conditions (for shoot)', ...r.boundaryConditions.map((b) => `  ${b}`));
  if (r.warnings.length) lines.push('', 'notes', ...r.warnings.map((w) => `  - ${w}`));
  if (r.segments) for (const line of segmentsLines(r as SegmentsPart)) lines.push(line);
  // an array model: its copies folded back into loops (fold.ts)
  hints.length = lines.length;
  // (an event's `from: event ...` line is its statement as written, in its own loop's variable)
  const asWritten = (line: string) => /^\s*from: event /.test(line);
  return foldLines(lines, undefined, hints, { extents: h?.extents, asWritten }).join('\n') + '\n';
}

/** Keeps a delta term and the variable of its equation apart in one line to fold. */
const BESIDE = '\u0000';

/**
 * One event of the text, as one entry: its header, where it comes from, its delta terms and
 * its actions. In an array model (`arrays`), copies inside it are folded too: delta terms
 * alike in the equations of consecutive elements are one line, `w*delta(t - spike[3] - d)
 * in the equation of v[j], for j in 1:N`, and actions alike one loop, `for j in 1:N: S[j] :=
 * S[j] + w`.
 */
function eventEntry(
  e: TransformReport['events'][number],
  arrays?: { equations: string[] | undefined; extents: Extents },
): string {
  const head = `  ${e.name}  [${e.kind}] ${whenText(e)}`;
  // (the first term is the `from:` line of a delta's own event; two terms may read alike)
  const listed = (s: string, k: number) => k > 0 || s !== e.source;
  const terms = e.deltaSources.flatMap((s, k) => (listed(s, k) ? [`      delta term: ${s}`] : []));
  const actions = e.actions.map((a) => `      ${a}`);
  const plain = [head, `      from: ${e.source}`, ...terms, ...actions].join('\n');
  if (!arrays) return plain;
  const options = innerOptions(plain, arrays.extents);
  let from = `      from: ${e.source}`;
  const { equations } = arrays;
  if (equations) {
    terms.length = 0;
    const items = foldItems(
      e.deltaSources.map((s, k) => `${s}${BESIDE}${equations[k]}`),
      INNER_TEXT_STYLE,
      [],
      { ...options, maxBlock: 1, sums: false },
    );
    let k = 0;
    for (const item of items) {
      if (typeof item === 'string') {
        const s = item.slice(0, item.indexOf(BESIDE));
        if (listed(s, k)) terms.push(`      delta term: ${s}`);
        k++;
        continue;
      }
      const [term, equation] = item.body[0].split(BESIDE);
      const line = `${term} in the equation of ${equation}, for ${item.for} in ${item.range}`;
      if (k === 0 && !listed(e.deltaSources[0], 0)) from = `      from: ${line}`;
      else terms.push(`      delta term: ${line}`);
      k += item.to - item.from + 1;
    }
  }
  return [head, from, ...terms, ...foldLines(actions, INNER_TEXT_STYLE, [], options)].join('\n');
}

/** An event's actions in one line (`; ` between them), in an array model with copies folded: `for j in 1:N: S[j] := S[j] + w`. */
function actionsLine(actions: readonly string[], around: string, extents?: Extents): string {
  if (actions.length === 0) return '(no action)';
  if (!extents) return actions.join('; ');
  const items = foldItems(actions, INNER_TEXT_STYLE, [], innerOptions(around, extents));
  const loop = (item: Exclude<FoldItem, string>) => `for ${item.for} in ${item.range}: ${item.body.join('; ')}`;
  if (items.length === 1) return typeof items[0] === 'string' ? items[0] : loop(items[0]);
  // (a loop among other actions in parentheses: which actions it holds)
  return items.map((item) => (typeof item === 'string' ? item : `(${loop(item)})`)).join('; ');
}

/** A LaTeX fragment (align* environment plus an itemised list of events) for a paper or a notebook. */
export function formatLatex(sys: FirstOrderSystem, r: TransformReport): string {
  if (!(typeof sys === 'object' && sys !== null && Array.isArray(sys.equations) && Array.isArray(sys.stepVariables)))
    throw new SimulationInputError(
      `formatLatex takes the model's FirstOrderSystem (model.system of what compileModel gives) and its report, got ${sys === null ? 'null' : typeof sys}`,
      { option: 'system', value: sys, allowed: 'a FirstOrderSystem' },
    );
  requireReport('formatLatex', r);
  const stateName = (n: string) => latexName(n.replace(/'+$/, ''), (n.match(/'/g) ?? []).length);
  // (each step variable's meaning, y' = u + S, is already the equation of y: not repeated)
  const eqs = sys.equations.map((q) => `  ${stateName(q.state)}' &= ${toLatex(q.rhs)}`);
  const algebraic = sys.namedValues.map((v) => `  ${latexName(v.name)} &= ${toLatex(v.expr)}`);
  const h = reportHints.get(r);
  const extents = h?.extents;
  const out: string[] = [
    `% ${r.model}: first-order system in u-plus-step form (deltastep transform)`,
    '\\begin{align*}',
    foldLines(
      [...eqs, ...algebraic],
      LATEX_ALIGN_STYLE,
      [...(h?.equations ?? eqs.map(() => undefined)), ...(h?.named ?? [])],
      { extents },
    ).join(' \\\\\n'),
    '\\end{align*}',
  ];
  if (sys.stepVariables.length) {
    const steps = sys.stepVariables.map((s) => `${s.name} (the jumps of ${s.variable})`);
    const items = h ? foldItems(steps, INNER_TEXT_STYLE, h.stepVariables, { extents }) : steps;
    const listed = items.map((item) =>
      typeof item === 'string' ? item : `for ${item.for} in ${item.range}: ${item.body.join(', ')}`,
    );
    out.push(`% step variables: ${listed.join(', ')}`);
  }
  if (sys.events.length) {
    out.push('\\begin{itemize}');
    out.push(
      ...foldLines(
        sys.events.map((ev) => `  \\item ${eventLatex(ev, r, extents)}`),
        LATEX_ITEM_STYLE,
        h?.events,
        { extents },
      ),
    );
    out.push('\\end{itemize}');
  }
  // the notes as the text has them (which deltaRule applied where), as comments
  if (r.warnings.length)
    out.push(
      '% notes',
      ...foldLines(
        r.warnings.map((w) => `  - ${w}`),
        undefined,
        [],
        { extents },
      ).map((l) => `%${l}`),
    );
  if (r.segments) for (const line of segmentsLatex(r as SegmentsPart, extents)) out.push(line);
  return out.join('\n') + '\n';
}

/**
 * The lines "integration between events" as JavaScript comments, for `transform --format js`:
 * every format says how each part is integrated (CLI.md), and the generated source said it
 * only for a model whose every part has a closed form (the analytic path's header), not for
 * one integrated numerically beside linear blocks and polynomials.
 */
export function segmentsComments(r: TransformReport): string[] {
  if (!r.segments) return [];
  return segmentsLatex(r as SegmentsPart, reportHints.get(r)?.extents).map((l) => `//${l.slice(1)}`);
}

/**
 * An event as an item: its name, when it acts and its actions; in an array model (`extents`)
 * copies among the actions folded, `$\mathit{S[j]} \leftarrow \mathit{S[j]} + w$ for
 * $j = 1, \dots, N$`.
 */
function eventLatex(ev: EventSpec, r: TransformReport, extents?: Extents): string {
  const times = r.events.find((e) => e.name === ev.name)?.times ?? [];
  const label = `\\texttt{${ev.name.replace(/([_#$%&{}])/g, '\\$1')}}`;
  const s = ev.schedule;
  const when = ev.condition
    ? `when $${toLatex(ev.condition)}$ ${ev.direction}`
    : s?.kind === 'delay'
      ? `at $${r.independent} = ${r.independent}_{${latexName(s.event)}} + ${toLatex(s.delay)}$ for each occurrence of \\texttt{${s.event.replace(/([_#$%&{}])/g, '\\$1')}}`
      : `at $${r.independent} \\in \\{${times
          .slice(0, 8)
          .map((t) => latexNumber(Number(t.toPrecision(12))))
          .join(', ')}${times.length > 8 ? ', \\dots' : ''}\\}$`;
  // (a Marcus flow: each step variable's jump with its rate, one action each so that an
  // array's copies fold like jumps; a factor held at its value before the event as |_-)
  const acts = ev.actions.flatMap((a) => {
    if (a.kind === 'stop') return ['\\text{stop}'];
    if (a.kind === 'marcus')
      return a.jumps.map((j) => {
        const rate = j.frozen
          ? `\\left(${toLatex(j.frozen)}\\right)\\Big|_{-} \\left(${toLatex(j.rate)}\\right)`
          : toLatex(j.rate);
        return `${latexName(j.target)} \\leftarrow ${latexName(j.target)}(1) \\text{ of } \\frac{d${latexName(j.target)}}{ds} = ${rate} \\text{ (Marcus)}`;
      });
    if (a.kind === 'jump') return [`${latexName(a.target)} \\leftarrow ${toLatex(jumped(a))}`];
    return [`${latexName(a.target)} \\leftarrow ${toLatex(a.value)}`];
  });
  if (acts.length === 0 || !extents) return `${label} ${when}: $${acts.join(',\\ ') || '\\text{(no action)}'}$`;
  // runs of plain actions in one formula each, a loop as its formula and its range
  const parts: string[] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length) parts.push(`$${run.join(',\\ ')}$`);
    run = [];
  };
  const around = `${label} ${when}: ${acts.join(',\\ ')}`;
  for (const item of foldItems(acts, LATEX_ITEM_STYLE, [], innerOptions(around, extents))) {
    if (typeof item === 'string') {
      run.push(item);
      continue;
    }
    close();
    const [from, to] = splitRange(item.range);
    parts.push(`$${item.body.join(',\\ ')}$ for $${item.for} = ${from}, \\dots, ${to}$`);
  }
  close();
  return `${label} ${when}: ${parts.join(', ')}`;
}
