/**
 * The values the driver reads outside the flow: the outputs (locked, and at their left limits
 * for the row before an instant), the initial values (from parameters
 * only), and scalar functions for the schedules of time events and the boundary conditions.
 */
import type { Expr } from '../expression/ast.js';
import { differentiate } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { foldStatements } from './loops.js';
import type { Program } from './program.js';
import { LEFT_SIDE_HELPER } from './emitter.js';

/** Where each part of an event's schedule is among the scalar functions. */
export interface ScheduleIndex {
  kind: 'roots' | 'at' | 'every' | 'delay';
  u?: number;
  uBound?: number;
  dudt?: number;
  dudtBound?: number;
  d2udt?: number;
  d3udt?: number;
  exactRoot?: number | null;
  candidates?: number[];
  times?: number[];
  after?: number;
  delay?: number;
  period?: number;
  from?: number | null;
}

/** Writes outputs, initial values and scalars into `program`; returns where each schedule's and condition's scalars are. */
export function emitValues(system: FirstOrderSystem, program: Program) {
  const { parts, fn, outFn, family, bodyOf } = program;
  const outputExprs = system.outputs.map((o) => o.expr);
  // (locked: a relation the flow switches on reads the side its step is on)
  parts.push(
    outFn(
      'outputs',
      outputExprs.map((o, i) => ({ deps: [o], line: (e) => `  out[${i}] = ${e.expr(o, 'locked')};\n` })),
      'locked',
    ),
  );
  // The outputs at an instant: relations at their zero on the side the motion comes from for
  // the run's direction `dir` (the left limits, as the actions read them: the row before an
  // instant, grid rows, the end of the range, where a crossing is no event) or goes on to for
  // -dir (the row after). A rule `G = 3*x while x < 0.5` read as x reaches 0.5 is 1.5 there,
  // not the held value its stopping event has not set yet; `if x < 0.5 then 1 else 2` is 1
  // before and 2 after. Without a relation to read at its zero, the two are one function.
  const before = outFn(
    'outputsAtInstant',
    outputExprs.map((o, i) => ({ deps: [o], line: (e) => `  out[${i}] = ${e.expr(o, 'before')};\n` })),
    'before',
    't, y, p, d, sw, out, dir',
  );
  if (before.includes('leftSide(')) {
    if (!parts.includes(LEFT_SIDE_HELPER)) parts.push(LEFT_SIDE_HELPER);
    parts.push(before);
  } else parts.push('const outputsAtInstant = (t, y, p, d, sw, out, dir) => outputs(t, y, p, d, sw, out);');

  // Initial values use parameters only (the analysis checked that).
  parts.push(
    fn('initial(p, y0, d0)', [], 'direct', (e) => {
      const lines = system.states.map((s, i) => `  y0[${i}] = ${e.expr(s.initial, 'direct')};\n`);
      system.stepVariables.forEach((_, i) => lines.push(`  d0[${i}] = 0;\n`));
      system.discretes.forEach((dv, i) =>
        lines.push(`  d0[${system.stepVariables.length + i}] = ${e.expr(dv.initial, 'direct')};\n`),
      );
      return `  const t = NaN;\n${foldStatements(lines).join('')}`;
    }),
  );

  // Scalar functions: schedules and boundary conditions, kept apart by what they compute
  // (every argument, then every slope, every exact root, ...) so that a loop's copies stand
  // side by side and fold into one family: the u, u' and root of 1e5 delta(t - i/N) taken in
  // turn were 3e5 functions, whose list V8 could not compile ("Maximum call stack size").
  const buckets = new Map<string, Expr[]>();
  const pending: { bucket: string; at: number; resolve: (k: number) => void }[] = [];
  const scalar = (bucket: string, e: Expr, resolve: (k: number) => void): void => {
    let list = buckets.get(bucket);
    if (!list) buckets.set(bucket, (list = []));
    pending.push({ bucket, at: list.length, resolve });
    list.push(e);
  };
  // (the buckets whose functions return the magnitude an expression's terms add up to, its
  // rounding scale, rather than its value)
  const MAGNITUDES = new Set(['uBound', 'dudtBound']);
  const scheduleIndex = system.events.map((ev): ScheduleIndex | null => {
    const s = ev.schedule;
    if (!s) return null;
    if (s.kind === 'roots') {
      const out: ScheduleIndex = {
        kind: s.kind,
        u: -1,
        dudt: -1,
        exactRoot: null,
        candidates: s.candidates.map(() => -1),
      };
      scalar('u', s.argument, (k) => (out.u = k));
      scalar('uBound', s.argument, (k) => (out.uBound = k));
      const du = differentiate(s.argument, system.independent),
        d2u = differentiate(du, system.independent);
      scalar('dudt', du, (k) => (out.dudt = k));
      // (the slope's rounding scale and the next two derivatives: the weight 1/|u'| of a root
      // that lies between two doubles is corrected to the root itself, event-times.ts)
      scalar('dudtBound', du, (k) => (out.dudtBound = k));
      scalar('d2udt', d2u, (k) => (out.d2udt = k));
      scalar('d3udt', differentiate(d2u, system.independent), (k) => (out.d3udt = k));
      if (s.exactRoot) scalar('exactRoot', s.exactRoot, (k) => (out.exactRoot = k));
      s.candidates.forEach((c, j) => scalar('candidate', c, (k) => (out.candidates![j] = k)));
      return out;
    }
    if (s.kind === 'at') {
      const out: ScheduleIndex = { kind: s.kind, times: s.times.map(() => -1) };
      s.times.forEach((x, j) => scalar('time', x, (k) => (out.times![j] = k)));
      return out;
    }
    if (s.kind === 'delay') {
      const out: ScheduleIndex = { kind: s.kind, after: system.events.findIndex((e) => e.name === s.event), delay: -1 };
      scalar('delay', s.delay, (k) => (out.delay = k));
      return out;
    }
    const out: ScheduleIndex = { kind: s.kind, period: -1, from: null };
    scalar('period', s.period, (k) => (out.period = k));
    if (s.from) scalar('from', s.from, (k) => (out.from = k));
    return out;
  });
  const bcIndex = system.boundaryConditions.map((bc) => {
    const out = { value: -1, at: -1, state: -1 };
    scalar('bcValue', bc.value, (k) => (out.value = k));
    scalar('bcAt', bc.at, (k) => (out.at = k));
    scalar('bcState', system.representation.get(bc.variable)!, (k) => (out.state = k));
    return out;
  });
  const offsets = new Map<string, number>();
  const scalars: Expr[] = [];
  const magnitude: boolean[] = [];
  for (const [bucket, list] of buckets) {
    offsets.set(bucket, scalars.length);
    for (const e of list) {
      scalars.push(e);
      magnitude.push(MAGNITUDES.has(bucket));
    }
  }
  for (const q of pending) q.resolve(offsets.get(q.bucket)! + q.at);
  // (as a family: 1e5 `at` times of one loop are one factory, not 1e5 functions, which V8
  // cannot even parse in one source)
  family('scalar', 't, y, p, d, sw', (e) =>
    scalars.map((s, i) =>
      bodyOf([s], 'direct', `  return ${magnitude[i] ? e.magnitude(s, 'direct') : e.expr(s, 'direct')};\n`),
    ),
  );
  return { scheduleIndex, bcIndex };
}
