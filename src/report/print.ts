/**
 * What `deltastep transform` shows: the first-order system as text for a person, as LaTeX,
 * and as JSON (keys in CLI.md). Event times are evaluated at the parameters' defaults.
 */
import { ModelError } from '../expression/errors.js';
import { add, latexName, name, toLatex, toText } from '../expression/expr.js';
import { ScheduleError, scheduleTimes } from '../codegen/event-times.js';
import type { CompiledModel } from '../codegen/compile.js';
import { requireCompiled, SimulationInputError } from '../codegen/stages.js';
import type { ActionSpec, EventSpec, FirstOrderSystem } from '../transform/system.js';
import {
  foldItems,
  foldLines,
  isElement,
  LATEX_ALIGN_STYLE,
  LATEX_ITEM_STYLE,
  type FoldItem,
  type LoopHint,
  type RangeHint,
} from './fold.js';
import { originOf } from '../language/array-origins.js';
import { attachSegments, segmentsLatex, segmentsLines, type SegmentsPart } from './segments.js';
import type { Expr, Span } from '../expression/ast.js';

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
  return {
    states: rangeHints(sys.states.map((q) => q.span)),
    stepVariables: rangeHints(sys.stepVariables.map((q) => stateSpan.get(q.state))),
    algebraic: rangeHints(sys.namedValues.filter((v) => !v.isSituation).map((v) => v.span)),
    situations: rangeHints(sys.namedValues.filter((v) => v.isSituation).map((v) => v.span)),
    named: rangeHints(sys.namedValues.map((v) => v.span)),
    equations: rangeHints(sys.equations.map((q) => q.span ?? stateSpan.get(q.state))),
    events: rangeHints(sys.events.map((e) => e.span)),
  };
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
    ),
    stepVariables: foldItems(
      r.stepVariables.map((q) => `${q.name}: the jumps of ${q.variable}, so ${q.variable} = ${q.state} + ${q.name}`),
      undefined,
      h?.stepVariables,
    ),
    discretes: foldItems(r.discretes.map((q) => `${q.name} = ${q.initial}`)),
    algebraic: foldItems(
      r.algebraic.map((q) => `${q.name} = ${q.expr}`),
      undefined,
      h?.algebraic,
    ),
    situations: foldItems(
      r.situations.map((q) => `${q.name} = ${q.condition}`),
      undefined,
      h?.situations,
    ),
    equations: foldItems(r.equations, undefined, h?.equations),
    events: foldItems(
      r.events.map((e) => `${e.name} [${e.kind}] ${whenText(e)}: ${e.actions.join('; ') || '(no action)'}`),
      undefined,
      h?.events,
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
  return a.jumps.map((j) => `${j.target} := flow of d${j.target}/ds = ${toText(j.rate)} over s in [0, 1]  (Marcus)`);
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
    return scheduleTimes(model.events[i], p, lo, hi, MAX_LISTED_TIMES + 1, to < from ? -1 : 1);
  } catch (err) {
    if (err instanceof ScheduleError)
      throw new ModelError(sys.file, sys.source, sys.events[i].span, err.message, err.hint);
    throw err;
  }
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
  const p = model.parameters();
  const at = (e: FirstOrderSystem['range']['from']) => (e ? model.parametersExpr(e, p) : null);
  const from = at(sys.range.from) ?? 0;
  const to = at(sys.range.to);
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
  const p = model.parameters();
  const at = (e: FirstOrderSystem['range']['from']) => (e ? model.parametersExpr(e, p) : null);
  const from = at(sys.range.from) ?? 0;
  const to = at(sys.range.to);
  const warnings = [...sys.warnings];
  const events = sys.events.map((ev, i) => {
    let times: number[] = [];
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
  return `at ${listTimes(e.times)}`;
}

function listTimes(times: number[]): string {
  if (times.length === 0) return 'none in the range';
  const shown = times.slice(0, 8).map((t) => String(Number(t.toPrecision(15))));
  return shown.join(', ') + (times.length > 8 ? `, ... (${times.length} in all)` : '');
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
  const width = Math.max(...r.states.map((s) => s.name.length), 4);
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
    for (const e of r.events) {
      const when = whenText(e);
      // (one entry per event, so that an array's events fold as wholes: fold.ts)
      const entry = [`  ${e.name}  [${e.kind}] ${when}`, `      from: ${e.source}`];
      e.deltaSources.forEach((s, k) => {
        // (the first is the `from:` line of a delta's own event; two terms may read alike)
        if (k > 0 || s !== e.source) entry.push(`      delta term: ${s}`);
      });
      for (const a of e.actions) entry.push(`      ${a}`);
      lines.push(entry.join('\n'));
    }
    mark(h?.events, r.events.length);
  }
  if (r.switching.length)
    lines.push('', 'switching functions (the integrator stops where they change)', ...r.switching.map((s) => `  ${s}`));
  if (r.boundaryConditions.length)
    lines.push('', 'boundary conditions (for shoot)', ...r.boundaryConditions.map((b) => `  ${b}`));
  if (r.warnings.length) lines.push('', 'notes', ...r.warnings.map((w) => `  - ${w}`));
  if (r.segments) lines.push(...segmentsLines(r as SegmentsPart));
  // an array model: its copies folded back into loops (fold.ts)
  hints.length = lines.length;
  return foldLines(lines, undefined, hints).join('\n') + '\n';
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
  const out: string[] = [
    `% ${r.model}: first-order system in u-plus-step form (deltastep transform)`,
    '\\begin{align*}',
    foldLines([...eqs, ...algebraic], LATEX_ALIGN_STYLE, [
      ...(reportHints.get(r)?.equations ?? eqs.map(() => undefined)),
      ...(reportHints.get(r)?.named ?? []),
    ]).join(' \\\\\n'),
    '\\end{align*}',
  ];
  if (sys.stepVariables.length)
    out.push(`% step variables: ${sys.stepVariables.map((s) => `${s.name} (the jumps of ${s.variable})`).join(', ')}`);
  if (sys.events.length) {
    out.push('\\begin{itemize}');
    out.push(
      ...foldLines(
        sys.events.map((ev) => `  \\item ${eventLatex(ev, r)}`),
        LATEX_ITEM_STYLE,
        reportHints.get(r)?.events,
      ),
    );
    out.push('\\end{itemize}');
  }
  if (r.segments) out.push(...segmentsLatex(r as SegmentsPart));
  return out.join('\n') + '\n';
}

function eventLatex(ev: EventSpec, r: TransformReport): string {
  const times = r.events.find((e) => e.name === ev.name)?.times ?? [];
  const label = `\\texttt{${ev.name.replace(/([_#$%&{}])/g, '\\$1')}}`;
  const s = ev.schedule;
  const when = ev.condition
    ? `when $${toLatex(ev.condition)}$ ${ev.direction}`
    : s?.kind === 'delay'
      ? `at $${r.independent} = ${r.independent}_{${latexName(s.event)}} + ${toLatex(s.delay)}$ for each occurrence of \\texttt{${s.event.replace(/([_#$%&{}])/g, '\\$1')}}`
      : `at $${r.independent} \\in \\{${times
          .slice(0, 8)
          .map((t) => Number(t.toPrecision(12)))
          .join(', ')}${times.length > 8 ? ', \\dots' : ''}\\}$`;
  const acts = ev.actions.map((a) => {
    if (a.kind === 'stop') return '\\text{stop}';
    if (a.kind === 'marcus')
      return a.jumps.map((j) => `${latexName(j.target)} \\leftarrow \\varphi_1(${latexName(j.target)})`).join(',\\ ');
    if (a.kind === 'jump') return `${latexName(a.target)} \\leftarrow ${toLatex(jumped(a))}`;
    return `${latexName(a.target)} \\leftarrow ${toLatex(a.value)}`;
  });
  return `${label} ${when}: $${acts.join(',\\ ') || '\\text{(no action)}'}$`;
}
