/**
 * The stop queue is lazy (issue 20, item 3): each scheduled event's times come as a stream
 * (codegen/event-times.ts), merged through a heap of one pending time per event
 * (driver/stop-queue.ts), so memory does not grow with the number of instants; and a run
 * that runs out of events or steps says which limit, with the flag that raises it.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import { scheduleStream, scheduleTimes, type TimeStream } from '../src/codegen/event-times.js';
import { StopQueue } from '../src/driver/stop-queue.js';

function take(stream: TimeStream | null, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n && stream; i++) {
    const t = stream.next();
    if (t !== t) break;
    out.push(t);
  }
  return out;
}

function all(stream: TimeStream | null): number[] {
  return take(stream, Number.POSITIVE_INFINITY);
}

const tick = (to: string) =>
  compileModel(`independent t from 0 to ${to}\ndiscrete n = 0\nevent tick every 1 do n := n + 1 end\nx' = 1\nx(0) = 0`);

describe('schedules as streams', () => {
  it('every 1 over [0, 1e12]: a trillion instants, taken one at a time from either end, in bounded memory', () => {
    const m = tick('1e12');
    const p = m.parameters();
    const before = process.memoryUsage().heapUsed;
    const up = scheduleStream(m.events[0], p, 0, 1e12, 1);
    const down = scheduleStream(m.events[0], p, 0, 1e12, -1);
    expect(take(up, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(take(down, 3)).toEqual([1e12, 1e12 - 1, 1e12 - 2]);
    // (an array of them would be 8 TB; the streams hold a few numbers)
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 << 20);
  });

  it('scheduleTimes with a limit lists the first times only', () => {
    const m = tick('1e12');
    expect(scheduleTimes(m.events[0], m.parameters(), 0, 1e12, 4)).toEqual([0, 1, 2, 3]);
  });

  it('every 0.1 from 0.05: the doubles nearest the decimals 0.05 + k/10, no drift, the same instants in both directions', () => {
    const m = compileModel("independent t from 0 to 1000\nevent e every 0.1 from 0.05\nx' = 1\nx(0) = 0");
    const p = m.parameters();
    const up = all(scheduleStream(m.events[0], p, 0, 1000, 1));
    expect(up).toHaveLength(10_000);
    // (5 + 10k)/100: one division of exact integers, the double nearest the decimal
    up.forEach((t, k) => expect(t).toBe((5 + 10 * k) / 100));
    expect(all(scheduleStream(m.events[0], p, 0, 1000, -1))).toEqual([...up].reverse());
  });

  it.each([
    ['sin(pi*t)', 0, 100, 101],
    ['t^3 - t', -2, 2, 3],
    // 31831 roots, 8 per interval of the base grid: several chunks of the scan
    ['sin(1e5*t)', 0, 1, 31_831],
  ])('the roots of delta(%s) on [%s, %s]: %s, the same in both directions', (u, lo, hi, count) => {
    const m = compileModel(`independent t from ${lo} to ${hi}\ny' = delta(${u})\ny(${lo}) = 0`);
    const p = m.parameters();
    const up = scheduleTimes(m.events[0], p, lo, hi);
    expect(up).toHaveLength(count);
    for (let i = 1; i < up.length; i++) expect(up[i]).toBeGreaterThan(up[i - 1]);
    expect(all(scheduleStream(m.events[0], p, lo, hi, -1))).toEqual([...up].reverse());
  });

  it('the queue merges the events in time order, ties in file order, an instant scheduled twice taken twice', () => {
    const m = compileModel(
      "independent t from 0 to 3\nevent a every 1.5\nevent b at 3, 1, 1\nevent c every 1 from 0.5\nx' = 1\nx(0) = 0",
    );
    const q = new StopQueue(m.events.length);
    q.reset(m.events, m.parameters(), 0, 3, 1, 0);
    const order: string[] = [];
    for (let t = q.peek(); t === t; t = q.peek()) {
      const due: number[] = [];
      q.takeDue(t, due);
      order.push(`${t}:${due.map((e) => m.events[e].name).join('')}`);
    }
    expect(order).toEqual(['0:a', '0.5:c', '1:bb', '1.5:ac', '2.5:c', '3:ab']);
  });
});

describe('a run out of events or steps names the limit and its flag (issue 20, item 3)', () => {
  it('a tick every 1 to 1e7: the event limit, reached with one pending time in the queue', () => {
    const r = simulate(tick('1e7'), { eventsOnly: true, record: false, maxEvents: 200_000 });
    expect(r.status).toBe('failed');
    expect(r.message).toBe(
      'more than 200000 events by t = 200000; raise option maxEvents (--max-events) if that many are expected',
    );
  });

  it('a tick every 1 with one step per instant: the step limit, not "the step size collapsed"', () => {
    // (the stepper's: by default this model, x' = 0 between ticks, takes the analytic path, below)
    const r = simulate(tick('1e4'), {
      eventsOnly: true,
      record: false,
      maxEvents: 1e8,
      maxSteps: 10_000,
      method: 'dopri5',
    });
    expect(r.status).toBe('failed');
    expect(r.message).toBe(
      'more than 10000 steps by t = 9999: at this step size the rest of the range (1) needs about 1 more steps; raise maxSteps (--max-steps) or shorten the range',
    );
    expect(r.final.n).toBe(10_000);
    const enough = simulate(tick('1e4'), {
      eventsOnly: true,
      record: false,
      maxEvents: 1e8,
      maxSteps: 10_001,
      method: 'dopri5',
    });
    expect(enough.status).toBe('ok');
    expect(enough.final.n).toBe(10_001);
    // the analytic path takes one step per instant: the same limit, in its own words
    const a = simulate(tick('1e4'), { eventsOnly: true, record: false, maxEvents: 1e8, maxSteps: 10_000 });
    expect(a.stats.method).toBe('analytic');
    expect(a.message).toBe(
      'more than 10000 steps by t = 10000: the analytic path takes one step per instant; raise maxSteps (--max-steps) or shorten the range',
    );
    expect(simulate(tick('1e4'), { eventsOnly: true, record: false, maxEvents: 1e8, maxSteps: 10_001 }).final.n).toBe(
      10_001,
    );
  });

  it('a spring against a wall to 1e11: the step limit with its flag', () => {
    const wall =
      "independent t from 0 to 1e11\nevent hit when x - 0.5 rises do v := -v end\nx' = v\nv' = -x\nx(0) = 0; v(0) = 1";
    // (the stepper's limit: the analytic path takes one step per instant)
    const r = simulate(wall, { method: 'dopri5', eventsOnly: true, record: false, maxEvents: 1e12, maxSteps: 100_000 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^more than 100000 steps by t = [\d.]+: at this step size the rest of the range/);
    expect(r.message).toContain('raise maxSteps (--max-steps)');
  });

  it('a delta argument undefined past the middle of the range: the run fails there, keeping the instants before', () => {
    // u = sqrt(5 - t) - 1: a root at t = 4 of weight 1/|u'(4)| = 2 sqrt(5 - 4) = 2, not a number after t = 5
    const r = simulate("independent t from 0 to 10\ny' = delta(sqrt(5 - t) - 1)\ny(0) = 0", { eventsOnly: true });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^the argument of delta\(sqrt\(5 - t\) - 1\) is not a number at 5\.\d+, so its roots/);
    expect(r.events.map((e) => e.t)).toEqual([4]);
    expect(r.final.y).toBe(2);
  });
});
