/**
 * Round 4, what the rows show at an instant and at the end of the range. The row before an
 * instant is the left limit of every output (MODEL-LANGUAGE, "Events, precisely"), as the
 * actions read them; the end of the range, where a crossing is no event, shows the left
 * limits too. A rule with while whose window closes at that instant is its rule's value
 * there, not the held value that its stopping event has not set yet (analytic path: the row
 * before showed G = 0 with status ok, and the final row at the end of the range G = 0 for 3).
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const METHODS: (MethodName | 'auto')[] = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'];

/** x' = 1 from 0: G = 3x until x reaches b, then holds 3b; c fires as x reaches b. */
const closing = (b: number, to: number) => `independent t from 0 to ${to}
discrete m = 0
G = 3*x while x < ${b}
event c when x - ${b} rises do m := G end
x' = 1
x(0) = 0
output x, G, m
`;

// The state at a located instant is x = b within its rounding (the analytic path: exactly;
// a stepper: a few ulps of its dense output), so 3x is 3b within 64 ulps of 3b.
const near = (v: number, exact: number) => Math.abs(v - exact) <= 64 * Number.EPSILON * Math.abs(exact);

describe('the row before an instant shows the left limits of rules with while', () => {
  it('G = 3*x while x < 0.5 as x reaches 0.5: G = 1.5 before and after, on every method', () => {
    for (const method of METHODS) {
      const r = simulate(closing(0.5, 1), { method });
      expect(r.status).toBe('ok');
      const G = r.columns.indexOf('G'),
        m = r.columns.indexOf('m');
      // the instant's two rows: before (m = 0) and after (m = 1.5)
      const at = r.rows.filter((row) => Math.abs(row[0] - 0.5) < 1e-12);
      expect(at.length, method).toBe(2);
      expect(at[0][m], method).toBe(0);
      for (const row of at) expect(near(row[G], 1.5), `${method}: G = ${row[G]}`).toBe(true);
      expect(near(r.final.G, 1.5), method).toBe(true);
    }
  });

  it("the ledger's values before the instant are the left limits too", () => {
    const r = simulate(closing(0.5, 1), { eventValues: true });
    const c = r.events.find((e) => e.name === 'c')!;
    expect(c.pre.G).toBe(1.5);
    expect(c.post.m).toBe(1.5);
  });
});

describe('rows at given times and the dense solution at the instant: the left limits too', () => {
  it('a grid row at the instant (outputStep, outputTimes) comes before its events: G = 1.5', () => {
    for (const method of METHODS)
      for (const opts of [{ outputStep: 0.25 }, { outputTimes: [0.5, 0.75] }]) {
        const r = simulate(closing(0.5, 1), { method, ...opts });
        const G = r.columns.indexOf('G');
        const at = r.rows.filter((row) => Math.abs(row[0] - 0.5) < 1e-12);
        expect(at.length, method).toBe(3);
        for (const row of at) expect(near(row[G], 1.5), `${method} ${JSON.stringify(opts)}: G = ${row[G]}`).toBe(true);
      }
  });

  it("sol(t, 'left') at the instant is the ledger's pre: G = 1.5, m = 0", () => {
    for (const method of METHODS) {
      const r = simulate(closing(0.5, 1), { method, dense: true, eventValues: true });
      const c = r.events.find((e) => e.name === 'c')!;
      const left = r.sol!(c.t, 'left');
      expect(left.G, method).toBe(c.pre.G);
      expect(near(left.G, 1.5), `${method}: G = ${left.G}`).toBe(true);
      expect(left.m, method).toBe(0);
      expect(r.sol!(c.t).m, method).toBe(c.post.m);
    }
  });
});

describe('the end of the range shows the left limits', () => {
  it('G = 3*x while x < 1 over [0, 1]: G = 3 at t = 1 (the window closes at the end), on every method', () => {
    for (const method of METHODS) {
      const r = simulate(closing(1, 1), { method });
      expect(r.status).toBe('ok');
      expect(near(r.final.G, 3), `${method}: G = ${r.final.G}`).toBe(true);
      const last = r.rows[r.rows.length - 1];
      expect(last[0]).toBe(1);
      expect(near(last[r.columns.indexOf('G')], 3), method).toBe(true);
    }
  });

  it('a window that opens at the end is still shut there: H = x while x > 1 is 0 at t = 1', () => {
    const model = `independent t from 0 to 1
H = x while x > 1
x' = 1
x(0) = 0
output H
`;
    for (const method of METHODS) expect(simulate(model, { method }).final.H, method).toBe(0);
  });

  it('a run of no length reads its outputs as they stand', () => {
    // (no motion before the start: G = 3x while x >= 0 is 0 = 3*0, H = 1 while x >= 0 is 1)
    const model = `independent t from 0 to 0
H = 1 while x >= 0
x' = 1
x(0) = 0
output H
`;
    expect(simulate(model).final.H).toBe(1);
  });
});

describe('the row limit with eventsOnly', () => {
  it("does not ask for eventsOnly when the rows are already the events' own", () => {
    const r = simulate(
      `independent t from 0 to 100
discrete n = 0
event tick every 1 do n := n + 1 end
x' = 1
x(0) = 0`,
      { eventsOnly: true, maxRows: 50 },
    );
    expect(r.status).toBe('failed');
    expect(r.message).toContain('more than 50 rows');
    expect(r.message).toContain("the rows are the events' own, two per event (eventsOnly): raise the limit");
    expect(r.message).not.toContain('--events-only');
    // the rows kept are the events' before and after rows, up to the limit
    expect(r.rows.length).toBeLessThanOrEqual(50);
  });
});
