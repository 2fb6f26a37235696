/**
 * Why shooting cannot be set up or cannot go on, in the words of the model: a boundary
 * condition outside the range (at its line), two conditions on one value at one point, and
 * a Jacobian that is singular because of the conditions themselves (an unknown that no
 * condition depends on, a condition that depends on no unknown, two conditions that fix the
 * same combination of the unknowns) rather than because of the guess.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { SimulationInputError } from '../driver/index.js';
import { resolveRange } from '../driver/range.js';
import { optionLabel, type Naming } from '../driver/settings.js';
import type { SimulateOptions } from '../driver/types.js';
import { ModelError } from '../expression/errors.js';
import { references } from '../expression/expr.js';
import { namesReached } from '../analysis/parameter-reach.js';

const EMPTY = new Float64Array(0);

/**
 * Checks the boundary conditions against the run's range and each other, at the guess:
 * ModelErrors at the condition's line for what the model got wrong, a SimulationInputError
 * when the caller's range (from, to) leaves a condition out.
 */
export function checkConditions(
  model: CompiledModel,
  options: SimulateOptions,
  unknowns: readonly string[],
  naming: Naming = 'library',
): void {
  const sys = model.system;
  const p = model.parameters(new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {})));
  const { t0, tEnd } = resolveRange(model, p, options, naming);
  const lo = Math.min(t0, tEnd),
    hi = Math.max(t0, tEnd);
  const x = sys.independent;
  const seen = new Map<string, number>();
  sys.boundaryConditions.forEach((bc, i) => {
    const at = model.boundary[i].at(NaN, EMPTY, p, EMPTY, EMPTY);
    if (!(at >= lo && at <= hi)) {
      const own = resolveRange(model, p, {});
      const inModel = at >= Math.min(own.t0, own.tEnd) && at <= Math.max(own.t0, own.tEnd);
      if (inModel && (options.from !== undefined || options.to !== undefined)) {
        // The option that moved the end the condition falls beyond: before the start of the
        // run, `from`; past its end, `to` (each only if given: the other one then moved the
        // range over it, --to -1 turning a run from 0 around). Naming `to` whenever it was
        // given blamed `--to 2` for `--from 1 --to 2` leaving out a condition at 0.5.
        const dir = tEnd >= t0 ? 1 : -1;
        const side = dir * (at - t0) < 0 ? 'from' : 'to';
        const key = options[side] !== undefined ? side : side === 'from' ? 'to' : 'from';
        throw new SimulationInputError(
          `${optionLabel(key, naming)} ${options[key]}: the run from ${t0} to ${tEnd} leaves out ${bc.label} (line ${bc.span.line}), at ${x} = ${at}; a boundary condition must lie within the range`,
          { option: optionLabel(key, naming), value: options[key], allowed: `a range that contains ${x} = ${at}` },
        );
      }
      throw new ModelError(
        sys.file,
        sys.source,
        bc.span,
        `${bc.label} is at ${x} = ${at}, outside the range ${t0} to ${tEnd}`,
        `A boundary condition must lie within the range: move it, or widen 'independent ${x} from ... to ...'.`,
      );
    }
    // two conditions on one value at one fixed point: one repeats or contradicts the other
    if ([...references(bc.at)].some((name) => unknowns.includes(name))) return;
    const key = `${bc.variable}@${at}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    const other = sys.boundaryConditions[first];
    const v1 = model.boundary[first].value(NaN, EMPTY, p, EMPTY, EMPTY),
      v2 = model.boundary[i].value(NaN, EMPTY, p, EMPTY, EMPTY);
    throw new ModelError(
      sys.file,
      sys.source,
      bc.span,
      `${bc.label} ${v1 === v2 ? 'repeats' : 'contradicts'} ${other.label} (line ${other.span.line}): both are conditions on ${bc.variable} at ${x} = ${at}`,
      'Each boundary condition must fix something the others do not: remove one, or make it a condition on another value or point.',
    );
  });
}

/** The largest magnitude in row i (by = 'row') or column i (by = 'column') of J. */
function lineMax(J: Float64Array, n: number, i: number, by: 'row' | 'column'): number {
  let m = 0;
  for (let k = 0; k < n; k++) m = Math.max(m, Math.abs(by === 'row' ? J[i * n + k] : J[k * n + i]));
  return m;
}

/**
 * What makes the difference Jacobian `at.J` singular because of the conditions themselves, or
 * null when nothing of the kind shows. `later`, for a Jacobian past the first guess, names the iterate (`H = 137.4, iteration 30`):
 * what shows there may hold only there, where the iteration went (a rope shorter than its
 * span flattens every condition's response to H as H grows), so the message says so rather
 * than blame the model.
 */
export function conditionConflict(at: JacobianAt, later: string | null = null): string | null {
  const found = structuralConflict(at);
  if (found === null || later === null) return found;
  return `at ${later} ${found.replace(/\. Replace one with a condition on something else$|; make (it a parameter|them parameters) or add a condition that (it affects|they affect)$/, '')}, though not at the first guess: the iteration went where the conditions stop responding, which often means they have no solution near it; try another guess (or, if nothing depends on an unknown anywhere, make it a parameter)`;
}

/** A difference Jacobian and what conditionConflict reads beside it. */
export interface JacobianAt {
  /** n×n, row-major */
  J: Float64Array;
  n: number;
  /** the residuals there, and each one's tolerance */
  R: Float64Array;
  tolerance: (i: number) => number;
  names: readonly string[];
  labels: readonly string[];
  /** the relative noise of J's entries (about the square root of the integration's relative noise) */
  theta: number;
  /** unknown -> the states whose initial value the caller's init gives in place of the
   * model's, which uses that unknown ({@link initOverrides}) */
  overridden?: ReadonlyMap<string, readonly string[]>;
}

/**
 * For each unknown, the states whose initial value the caller gives (`init`) where the model
 * computes it from that unknown (directly or through the parameters): `y'(0) = p` with
 * `--init "y'=0.5"`. Such an unknown acts on nothing there, and a Jacobian column of zeros for
 * it is the caller's init, not the model: the advice to make it a parameter would mislead.
 */
export function initOverrides(
  model: CompiledModel,
  init: SimulateOptions['init'],
  unknowns: readonly string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const given = new Set(init instanceof Map ? init.keys() : Object.keys(init ?? {}));
  if (given.size === 0) return out;
  const sys = model.system;
  for (const st of sys.states) {
    if (!given.has(st.variable)) continue;
    // (the unknowns its initial value uses, through the parameters, not through an unknown's guess)
    const reached = namesReached(sys.parameters, [st.initial], (q) => !q.unknown);
    for (const u of unknowns) if (reached.has(u)) out.set(u, [...(out.get(u) ?? []), st.variable]);
  }
  return out;
}

/** The note for unknowns that act on nothing because the caller's init replaced where they act, or ''. */
function overriddenNote(free: readonly string[], overridden: JacobianAt['overridden']): string {
  const hit = free.filter((u) => overridden?.has(u));
  if (hit.length === 0) return '';
  const keys = hit.flatMap((u) => overridden!.get(u)!);
  const states = hit.map((u) => `${overridden!.get(u)!.join(', ')} (computed from ${u})`).join(' and ');
  return `. The initial values given (init, --init) replace the model's for ${states}: drop ${keys.length > 1 ? 'them' : 'it'} from the initial values given to shoot for ${hit.join(', ')}`;
}

function structuralConflict({ J, n, R, tolerance, names, labels, theta, overridden }: JacobianAt): string | null {
  let scale = 0;
  for (let k = 0; k < n * n; k++) scale = Math.max(scale, Math.abs(J[k]));
  if (!(scale > 0))
    return `no boundary condition depends on any of the unknowns ${names.join(', ')}: shooting cannot determine them${overriddenNote(names, overridden)}`;
  const zero = theta * scale;
  const free = names.filter((_, j) => lineMax(J, n, j, 'column') <= zero);
  if (free.length > 0) {
    const note = overriddenNote(free, overridden);
    if (note)
      return `no boundary condition depends on ${free.join(', ')}: shooting cannot determine ${free.length > 1 ? 'them' : 'it'}${note}`;
    return `no boundary condition depends on ${free.join(', ')}: shooting cannot determine ${free.length > 1 ? 'them' : 'it'}; make ${free.length > 1 ? 'them parameters' : 'it a parameter'} or add a condition that ${free.length > 1 ? 'they affect' : 'it affects'}`;
  }
  const fixed = labels.filter((_, i) => lineMax(J, n, i, 'row') <= zero);
  if (fixed.length > 0)
    return `${fixed.join(' and ')} ${fixed.length > 1 ? 'do' : 'does'} not depend on any unknown (${names.join(', ')}): ${fixed.length > 1 ? 'they hold' : 'it holds'} or fail${fixed.length > 1 ? '' : 's'} whatever the unknowns are`;
  for (let i = 0; i < n; i++)
    for (let k = i + 1; k < n; k++) {
      let dot = 0,
        ni = 0,
        nk = 0;
      for (let j = 0; j < n; j++) {
        dot += J[i * n + j] * J[k * n + j];
        ni += J[i * n + j] ** 2;
        nk += J[k * n + j] ** 2;
      }
      if (1 - Math.abs(dot) / Math.sqrt(ni * nk) > (theta * theta) / 2) continue;
      // rows proportional: R_k - c R_i does not change with the unknowns
      const c = dot / ni;
      const gap = Math.abs(R[k] - c * R[i]);
      const verdict =
        gap > tolerance(k) + Math.abs(c) * tolerance(i)
          ? 'they contradict each other: no unknowns satisfy both'
          : 'one repeats the other';
      return `${labels[i]} and ${labels[k]} depend on the unknowns (${names.join(', ')}) in the same way: together they fix only one combination of them, and ${verdict}. Replace one with a condition on something else`;
    }
  return null;
}
