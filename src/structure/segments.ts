/**
 * The structure as `transform` prints it (CLI.md, "Coming with the open issues"): per
 * component how it is integrated between events, per state event whether its times are
 * roots of a polynomial, and whether the whole model takes the analytic path.
 */
import type { FirstOrderSystem } from '../transform/system.js';
import type { SystemStructure } from './structure.js';

export interface SegmentEntry {
  /** the component's states */
  states: string[];
  kind: 'polynomial' | 'numeric';
  /** polynomial: its degree in the independent variable */
  degree?: number;
  /** "closed form: polynomial of degree 2 in t" or "numerically" */
  integration: string;
  /** numeric: why */
  reason?: string;
}

export interface EventRootsEntry {
  event: string;
  /** "roots of a polynomial of degree 2 in t" or "located numerically" */
  times: string;
  reason?: string;
}

export interface SegmentsReport {
  segments: SegmentEntry[];
  eventRoots: EventRootsEntry[];
  /** every part in closed form: `simulate` takes the analytic path by default */
  analytic: boolean;
  obstacles: string[];
}

export function segmentsReport(sys: FirstOrderSystem, st: SystemStructure): SegmentsReport {
  const t = sys.independent;
  // in the system's order of states, not the order in which closed forms are derived
  const ordered = [...st.components].sort((a, b) => a.states[0] - b.states[0]);
  const segments: SegmentEntry[] = ordered.map((c) => {
    const states = c.states.map((s) => sys.states[s].name);
    if (c.kind === 'polynomial')
      return {
        states,
        kind: c.kind,
        degree: c.degree,
        integration: `closed form: polynomial of degree ${c.degree} in ${t}`,
      };
    return { states, kind: c.kind, integration: 'numerically', reason: c.reason ?? undefined };
  });
  const eventRoots: EventRootsEntry[] = [];
  sys.events.forEach((ev, i) => {
    if (ev.kind !== 'state') return;
    const e = st.events[i];
    if (e.degree >= 0)
      eventRoots.push({ event: ev.name, times: `roots of a polynomial of degree ${e.degree} in ${t}` });
    else eventRoots.push({ event: ev.name, times: 'located numerically', reason: e.reason ?? undefined });
  });
  return { segments, eventRoots, analytic: st.closedForm, obstacles: st.obstacles };
}
