/**
 * Round 11, events that coincide on different scales: a state event and a time event at one
 * instant in exact arithmetic, with t far from 0, each against its exact answer on every method.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['analytic', 'auto', 'dopri5', 'dop853', 'rk4', 'rodas', 'radau5'] as const;

describe('a state event and a tick at one instant fire in file order on every method', () => {
  // x = t - T exactly (x' = 1, x(0) = -T; T a double), so `s` (written first) and the tick `T`
  // are one instant. Both actions read k = 0 before the round and write it together, file
  // order last: k = 2 (as the analytic path gives), ledger s then T. The steppers that land on
  // the tick a rounding before x reaches its zero (x = -2 ulps of T) took s in as coincident
  // but appended it after T: ledger T, s and k = 1, status ok (dopri5, rodas, radau5).
  const model = (T: string) => `independent t from 0 to 3*${T}
discrete n = 0, m = 0, k = 0
event s when x rises do n := n + 1; k := k*10 + 1 end
event T at ${T} do m := m + 1; k := k*10 + 2 end
x' = 1
x(0) = -${T}`;
  it.each(['1e6', '1e9', '1e12'].flatMap((T) => METHODS.map((m) => [T, m] as const)))('T = %s, %s', (T, method) => {
    const r = simulate(model(T), { method });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => [e.name, e.t])).toEqual([
      ['s', Number(T)],
      ['T', Number(T)],
    ]);
    expect(r.final).toMatchObject({ n: 1, m: 1, k: 2 });
  });
});
