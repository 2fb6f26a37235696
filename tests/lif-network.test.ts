/**
 * The showcase of issue 24: examples/lif_network.delta, N leaky integrate-and-fire neurons
 * coupled by delayed delta synapses, against its exact event-driven reference
 * (bench/lif/reference.py, 50-digit arithmetic, written into tests/fixtures), spike for spike,
 * on the analytic path and on the stepper.
 *
 * Tolerances:
 * - analytic path: each membrane is advanced by its closed form, a few ulps of v per segment;
 *   a crossing at speed v' >= (I - vth)/tau = 0.01 makes that a few ulps of t (9 at most over
 *   the first 50 spikes). The network then amplifies any difference in timing (one ulp more
 *   in d, in the 50-digit reference itself, moves the last spikes by 32 ulps and the
 *   membranes at the end by 1e-13), so the errors grow along the run: at most 8 ulps of t up
 *   to t = 50, 113 up to t = 113, 743 (1.2e-13 of t) by t = 200. Bound: 1e-12 of t; the
 *   membranes at the end within 2e-12 (measured 5e-13).
 * - dopri5 at rtol 1e-10: its global error in v is some tens of rtol; divided by the crossing
 *   speed (>= 0.01) that is some 1e3 rtol in time. Measured: 2.1e-9 of t at most. Bound:
 *   1e3 rtol = 1e-7 of t. The reference's smallest distance of a membrane from the threshold
 *   at an arrival (7.7e-6) is far above the error in v (1e-9), so every decision of the
 *   stepper's run (fire now or not) is the exact one: the counts must be equal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, formatText, simulate, transformReport } from '../src/index.js';
import type { SimulationResult } from '../src/driver/types.js';

const read = (path: string) => readFileSync(new URL(path, new URL('../', import.meta.url)), 'utf8');
const text = read('examples/lif_network.delta');
const ref = JSON.parse(read('tests/fixtures/lif_network_reference.json')) as {
  parameters: { N: number; tau: number; vth: number; vr: number; w: number; d: number; T: number };
  I: number[];
  spike_times: number[];
  spike_neurons: number[];
  spike_instants: number;
  threshold_margin: number;
  final_v: number[];
};

/** the spikes of a run: times and neurons (1-based), in the order of the ledger */
function spikes(r: SimulationResult): { t: number[]; neuron: number[] } {
  const t: number[] = [],
    neuron: number[] = [];
  for (const e of r.events) {
    const m = /^spike\[(\d+)\]$/.exec(e.name);
    if (!m) continue;
    t.push(e.t);
    neuron.push(Number(m[1]));
  }
  return { t, neuron };
}

/** the largest |t - t_ref| / t_ref over the spikes */
function largestRelativeError(t: readonly number[]): number {
  let worst = 0;
  t.forEach((x, k) => (worst = Math.max(worst, Math.abs(x - ref.spike_times[k]) / ref.spike_times[k])));
  return worst;
}

describe('examples/lif_network.delta against its exact reference (bench/lif/reference.py)', () => {
  it('has the parameters the reference was computed with, to the last bit', () => {
    const m = compileModel(text, 'lif_network.delta');
    const p = m.parameters();
    const value = (n: string) => p[m.paramNames.indexOf(n)];
    const { N, tau, vth, vr, w, d, T } = ref.parameters;
    expect([value('N'), value('tau'), value('vth'), value('vr'), value('w'), value('d')]).toEqual([
      N,
      tau,
      vth,
      vr,
      w,
      d,
    ]);
    expect(Array.from({ length: N }, (_, i) => value(`I[${i + 1}]`))).toEqual(ref.I);
    expect(m.system.range.to && m.parametersExpr(m.system.range.to, p)).toBe(T);
  });

  it('the analytic path (the default) gives every spike, in order, to 1e-12 of its time', () => {
    const r = simulate(text, { eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    const s = spikes(r);
    expect(s.t).toHaveLength(ref.spike_times.length);
    expect(s.neuron).toEqual(ref.spike_neurons);
    expect(new Set(s.t).size).toBe(ref.spike_instants);
    expect(largestRelativeError(s.t)).toBeLessThanOrEqual(1e-12);
    expect(r.final.spikes).toBe(ref.spike_times.length);
    expect(Math.abs(r.final['v[1]'] - ref.final_v[0])).toBeLessThanOrEqual(2e-12);
    expect(Math.abs(r.final[`v[${ref.parameters.N}]`] - ref.final_v[ref.parameters.N - 1])).toBeLessThanOrEqual(2e-12);
  });

  it('the stepper (dopri5) gives the same spikes, to its tolerance', () => {
    const rtol = 1e-10;
    const r = simulate(text, { method: 'dopri5', rtol, atol: 1e-12, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('dopri5');
    const s = spikes(r);
    expect(s.t).toHaveLength(ref.spike_times.length);
    expect(s.neuron).toEqual(ref.spike_neurons);
    expect(largestRelativeError(s.t)).toBeLessThanOrEqual(1e3 * rtol);
    expect(Math.abs(r.final['v[1]'] - ref.final_v[0])).toBeLessThanOrEqual(1e3 * rtol);
  });

  it('transform says what the symbolic stage decided: a 1x1 linear block per neuron, delayed arrivals', () => {
    const out = formatText(transformReport(compileModel(text, 'lif_network.delta')));
    for (const line of [
      "  for i in 1:N: u[i]' = (-(u[i] + S[i]) + I[i])/tau",
      '    spike[i]  [state] when u[i] + S[i] - vth rises',
      '    delta(t - spike[i] - d)  [time] d after each spike[i] (d = 2)',
      '        from: w*delta(t - spike[i] - d) in the equation of v[j], for j in 1:N',
      '        for j in 1:N: S[j] := S[j] + w',
      "  for i in 1:N: u[i]   closed form: linear, u[i]' = A u[i] + b with A = [-(1/tau)], b = [(-S[i] + I[i])/tau]",
      '  every part in closed form: simulate takes the analytic path (stats.method analytic)',
    ])
      expect(out).toContain(`${line}\n`);
  });

  it('is the reference of a run that must decide near the threshold: the margin is known', () => {
    // (if a new reference came closer to the threshold than the stepper's error, the
    // stepper's spike count could be wrong without deltastep being at fault)
    expect(ref.threshold_margin).toBeGreaterThan(1e-6);
    // some arrivals lift neurons over the threshold: spikes share instants
    expect(ref.spike_instants).toBeLessThan(ref.spike_times.length);
  });
});
