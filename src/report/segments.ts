/**
 * How each part of the system is integrated between events, as `transform` prints it in
 * every format (CLI.md, "Coming with the open issues"): per component a line "closed form:
 * polynomial of degree K in t" or "numerically" (with why), per state event whether its
 * times are roots of a polynomial, and whether `simulate` takes the analytic path. In JSON
 * the keys `segments`, `eventRoots` and `analyticPath`. The data is the structure analysis
 * (structure/segments.ts); this file only prints it.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { segmentsReport, type EventRootsEntry, type SegmentEntry } from '../structure/segments.js';
import { structureOf } from '../structure/structure.js';
import { foldLines, type Extents } from './fold.js';
import { transformPathNote } from './path.js';

export interface SegmentsPart {
  segments: SegmentEntry[];
  eventRoots: EventRootsEntry[];
  /** stepper: why simulate integrates numerically although every part has a closed form (path.ts) */
  analyticPath: { closedForm: boolean; obstacles: string[]; stepper?: string };
}

/**
 * Adds the segments to a transform report as properties computed when first read (the JSON
 * reads them; `simulate`, which makes a report to check the model, does not).
 */
export function attachSegments(report: object, model: CompiledModel): void {
  let part: SegmentsPart | undefined;
  const get = (): SegmentsPart => {
    if (!part) {
      const r = segmentsReport(model.system, structureOf(model.system));
      const stepper = r.analytic ? transformPathNote(model, r.obstacles) : null;
      part = {
        segments: r.segments,
        eventRoots: r.eventRoots,
        analyticPath: { closedForm: r.analytic, obstacles: r.obstacles, ...(stepper !== null ? { stepper } : {}) },
      };
    }
    return part;
  };
  for (const key of ['segments', 'eventRoots', 'analyticPath'] as const)
    Object.defineProperty(report, key, { enumerable: true, configurable: true, get: () => get()[key] });
}

/** The text section. */
export function segmentsLines(r: SegmentsPart): string[] {
  const width = Math.max(4, ...r.segments.map((s) => s.states.join(', ').length));
  const lines = ['', 'integration between events (closed form where the algebra allows)'];
  for (const s of r.segments)
    lines.push(`  ${s.states.join(', ').padEnd(width)}  ${s.integration}${s.reason ? ` (${s.reason})` : ''}`);
  for (const e of r.eventRoots)
    lines.push(`  event ${e.event}: times are ${e.times}${e.reason ? ` (${e.reason})` : ''}`);
  const path = r.analyticPath;
  lines.push(
    !path.closedForm
      ? '  simulate integrates numerically (the analytic path needs every part in closed form)'
      : path.stepper === undefined
        ? '  every part in closed form: simulate takes the analytic path (stats.method analytic)'
        : `  every part in closed form, but simulate integrates numerically: ${path.stepper}`,
  );
  return lines;
}

/** The LaTeX comment lines (an array model's elements folded into loops, as in the text; `extents`: fold.ts). */
export function segmentsLatex(r: SegmentsPart, extents?: Extents): string[] {
  return foldLines(segmentsLines(r).slice(1), undefined, [], { extents })
    .join('\n')
    .split('\n')
    .map((l) => `% ${l}`);
}
