/**
 * The values the driver reads outside the flow: the outputs (locked, as the actions, so that
 * the row before an instant shows the left limits), the initial values (from parameters
 * only), and scalar functions for the schedules of time events and the boundary conditions.
 */
import type { Expr } from '../expression/ast.js';
import { differentiate } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { foldStatements } from './loops.js';
import type { Program } from './program.js';

/** Writes outputs, initial values and scalars into `program`; returns where each schedule's and condition's scalars are. */
export function emitValues(system: FirstOrderSystem, program: Program) {
  const { parts, fn, outFn, family, bodyOf } = program;
  const outputExprs = system.outputs.map((o) => o.expr);
  // (locked, as the actions: the row before an instant shows the left limits)
  parts.push(
    outFn(
      'outputs',
      outputExprs.map((o, i) => ({ deps: [o], line: (e) => `  out[${i}] = ${e.expr(o, 'locked')};\n` })),
      'locked',
    ),
  );

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

  // Scalar functions: schedules and boundary conditions.
  const scalars: Expr[] = [];
  const scalar = (e: Expr): number => {
    scalars.push(e);
    return scalars.length - 1;
  };
  const scheduleIndex = system.events.map((ev) => {
    const s = ev.schedule;
    if (!s) return null;
    if (s.kind === 'roots') {
      return {
        kind: s.kind,
        u: scalar(s.argument),
        dudt: scalar(differentiate(s.argument, system.independent)),
        exactRoot: s.exactRoot ? scalar(s.exactRoot) : null,
        candidates: s.candidates.map(scalar),
      };
    }
    if (s.kind === 'at') return { kind: s.kind, times: s.times.map(scalar) };
    if (s.kind === 'delay')
      return { kind: s.kind, after: system.events.findIndex((e) => e.name === s.event), delay: scalar(s.delay) };
    return { kind: s.kind, period: scalar(s.period), from: s.from ? scalar(s.from) : null };
  });
  const bcIndex = system.boundaryConditions.map((bc) => ({
    value: scalar(bc.value),
    at: scalar(bc.at),
    state: scalar(system.representation.get(bc.variable)!),
  }));
  // (as a family: 1e5 `at` times of one loop are one factory, not 1e5 functions, which V8
  // cannot even parse in one source)
  family('scalar', 't, y, p, d, sw', (e) =>
    scalars.map((s) => bodyOf([s], 'direct', `  return ${e.expr(s, 'direct')};\n`)),
  );
  return { scheduleIndex, bcIndex };
}
