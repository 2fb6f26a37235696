/**
 * The structure as `transform` prints it (CLI.md, "Coming with the open issues"): per
 * component how it is integrated between events, per state event whether its times are
 * roots of a polynomial, and whether the whole model takes the analytic path.
 */
import { constantValue, toText } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import type { SystemStructure } from './structure.js';

export interface SegmentEntry {
  /** the component's states */
  states: string[];
  kind: 'polynomial' | 'linear' | 'numeric';
  /** polynomial: its degree in the independent variable */
  degree?: number;
  /** linear: the matrix A and the inhomogeneous part b of its clock group's x' = A x + b (states in the order of `block`) */
  matrix?: string[][];
  inhomogeneous?: string[];
  block?: string[];
  /** "closed form: polynomial of degree 2 in t", "closed form: linear, ..." or "numerically" */
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
    const lin = c.kind === 'linear' ? st.groups[c.group].linear : null;
    if (lin) {
      const block = lin.states.map((s) => sys.states[s].name);
      const matrix = lin.matrix.map((row) => row.map(toText));
      const inhomogeneous = lin.inhomogeneous.map(toText);
      const b = lin.inhomogeneous.every((e) => constantValue(e) === 0) ? '' : `, b = [${inhomogeneous.join('; ')}]`;
      const v = block.length === 1 ? block[0] : `(${block.join(', ')})`;
      if (c.states[0] !== lin.states[0])
        return { states, kind: c.kind, block, integration: `closed form: linear, in the block of ${block.join(', ')}` };
      return {
        states,
        kind: c.kind,
        matrix,
        inhomogeneous,
        block,
        integration: `closed form: linear, ${v}' = A ${v}${b ? ' + b' : ''} with A = [${matrix.map((r) => r.join(', ')).join('; ')}]${b}`,
      };
    }
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
    if (e.linear)
      eventRoots.push({
        event: ev.name,
        times: `roots of an exponential sum in ${t} (exponentials, sines, cosines: affine in ${e.linear.states.map((s) => sys.states[s].name).join(', ')}), isolated with a certificate`,
      });
    else if (e.degree >= 0)
      eventRoots.push({ event: ev.name, times: `roots of a polynomial of degree ${e.degree} in ${t}` });
    else eventRoots.push({ event: ev.name, times: 'located numerically', reason: e.reason ?? undefined });
  });
  return { segments, eventRoots, analytic: st.closedForm, obstacles: st.obstacles };
}
