/**
 * Sweeps and Monte Carlo in this thread: the seeded generator, sample slicing, statistics,
 * the input checks, and the ARGESIM C12 numbers (reference/README.md, C12) run through the
 * same chunk runner the worker threads use.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../src/codegen/stages.js';
import { Simulator } from '../src/index.js';
import {
  BatchInputError,
  checkReport,
  chunkRuns,
  claimChunk,
  MESSAGE_BYTES,
  PUBLISHED,
  RUN_STATUSES,
  ringMessage,
  runRingChunk,
  sharedRing,
  drawSamples,
  parseReport,
  parseSample,
  parseVary,
  runChunk,
  sampleValues,
  SeededRandom,
  sliceRange,
  statistics,
  sweepValues,
} from '../src/batch/index.js';

const C12_FILE = new URL('./fixtures/reference/models/c12.delta', import.meta.url);
const c12 = compileModel(readFileSync(C12_FILE, 'utf8'), 'c12.delta');
const TIGHT = { rtol: 1e-10, atol: 1e-12 };

/** Runs C12 at each e in this thread; the reported values per run. */
function c12Runs(es: number[], report: string): number[][] {
  const r = parseReport(report);
  checkReport(r, c12);
  const out = runChunk(new Simulator(c12), r, TIGHT, ['e'], Float64Array.from(es));
  expect(out.status.every((s) => s === 'ok')).toBe(true);
  return es.map((_, k) => Array.from(out.values.subarray(k * r.length, (k + 1) * r.length)));
}

describe('SeededRandom', () => {
  it('gives the same first values for a seed on every run (regression pin)', () => {
    // uniform() is integer arithmetic only (Math.imul, shifts): exact on every machine.
    const r = new SeededRandom(1);
    expect([r.uniform(), r.uniform(), r.uniform()]).toEqual([
      0.5743167412573879, 0.3318001221880126, 0.2226644676450782,
    ]);
    expect(new SeededRandom(0).uniform()).toBe(0.30100156589637106);
    const q = new SeededRandom(1);
    const pinned = [-0.5177699590557001, 0.9170947121954407, 1.21356142312453];
    for (const want of pinned) expect(q.normal()).toBeCloseTo(want, 14);
  });

  it('different seeds give different streams', () => {
    expect(new SeededRandom(1).uniform()).not.toBe(new SeededRandom(2).uniform());
  });

  it('uniform has mean 1/2 and variance 1/12 over 1e5 draws', () => {
    const r = new SeededRandom(12345),
      n = 100_000;
    const xs = Array.from({ length: n }, () => r.uniform());
    const s = statistics(xs);
    expect(s.min).toBeGreaterThanOrEqual(0);
    expect(s.max).toBeLessThan(1);
    // standard errors: mean sqrt(1/12/n) = 9e-4; variance sqrt(1/180/n) = 2.4e-4
    expect(Math.abs(s.mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(s.sd ** 2 - 1 / 12)).toBeLessThan(4 * Math.sqrt(1 / 180 / n));
  });

  it('normal has mean 0 and variance 1 over 1e5 draws', () => {
    const r = new SeededRandom(777),
      n = 100_000;
    const s = statistics(Array.from({ length: n }, () => r.normal()));
    // standard errors: mean 1/sqrt(n); variance sqrt(2/n)
    expect(Math.abs(s.mean)).toBeLessThan(4 / Math.sqrt(n));
    expect(Math.abs(s.sd ** 2 - 1)).toBeLessThan(4 * Math.sqrt(2 / n));
  });
});

describe('samples by index', () => {
  const specs = [parseSample('e~normal(0.5,0.05)'), parseSample('k~uniform(1,3)')];

  it('a slice of the samples is the same slice of all of them, wherever it starts', () => {
    const all = sampleValues(9, 0, 101, specs);
    for (const [first, count] of [
      [0, 1],
      [1, 1],
      [3, 50],
      [37, 64],
      [100, 1],
    ]) {
      expect(Array.from(sampleValues(9, first, count, specs))).toEqual(
        Array.from(all.subarray(first * 2, (first + count) * 2)),
      );
    }
    // and one parameter alone: the odd Box-Muller spare must not shift the slices either
    const one = sampleValues(9, 0, 11, specs.slice(0, 1));
    expect(Array.from(sampleValues(9, 5, 6, specs.slice(0, 1)))).toEqual(Array.from(one.subarray(5)));
  });

  it('drawSamples agrees with sampleValues', () => {
    const maps = drawSamples(3, 4, specs),
      flat = sampleValues(3, 0, 4, specs);
    maps.forEach((m, i) => {
      expect(m.get('e')).toBe(flat[2 * i]);
      expect(m.get('k')).toBe(flat[2 * i + 1]);
    });
    for (const m of maps) expect(m.get('k')! >= 1 && m.get('k')! < 3).toBe(true);
  });

  it('sliceRange cuts contiguous, ordered, near-equal slices that cover every index once', () => {
    for (const [total, n] of [
      [10, 3],
      [2000, 7],
      [5, 5],
      [1, 1],
      [1000, 1],
    ]) {
      let next = 0;
      const sizes: number[] = [];
      for (let k = 1; k <= n; k++) {
        const { first, end } = sliceRange(total, k, n);
        expect(first).toBe(next);
        sizes.push(end - first);
        next = end;
      }
      expect(next).toBe(total);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });
});

describe('statistics', () => {
  it('mean, sample sd, 95% interval and extremes of known values; non-finite values left out', () => {
    const s = statistics([2, 4, 4, 4, 5, 5, 7, 9, NaN]);
    expect(s.n).toBe(8);
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect(s.ci95[1] - s.mean).toBeCloseTo((1.959963984540054 * Math.sqrt(32 / 7)) / Math.sqrt(8), 14);
    expect([s.min, s.max]).toEqual([2, 9]);
  });

  it('handles a million values (no spread into Math.min)', () => {
    const xs = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(statistics(xs).max).toBe(999_999);
  });
});

describe('input checks', () => {
  it('--vary needs NAME=FROM:TO:COUNT with a whole COUNT', () => {
    expect(() => parseVary('e=1:0.18')).toThrow(/--vary 'e=1:0.18': write NAME=FROM:TO:COUNT/);
    expect(() => parseVary('e=1:0.18:2.5')).toThrow(/COUNT must be a whole number/);
    expect(() => parseVary('e=a:0.18:3')).toThrow(/FROM and TO must be numbers/);
    const v = parseVary('e=1:0.18:5');
    // (the decimals themselves, the doubles nearest 1 - 0.205 k: round 14 took the grid on its
    // decimals; 1 + (0.18 - 1)·1/4 in doubles was 0.7949999999999999)
    expect(sweepValues(v.from, v.to, v.count)).toEqual([1, 0.795, 0.59, 0.385, 0.18]);
    // a slice of the values is the same numbers as the whole, cut
    expect(sweepValues(1, 0.18, 5, 1, 3)).toEqual(sweepValues(1, 0.18, 5).slice(1, 3));
    expect(sweepValues(1, 0.18, 5)[4]).toBe(0.18);
  });

  it('--sample takes normal(MEAN,SD) and uniform(A,B) only', () => {
    expect(() => parseSample('e~gamma(1,2)')).toThrow(BatchInputError);
    expect(() => parseSample('e~normal(0.5,-1)')).toThrow(/standard deviation/);
    expect(() => parseSample('e~uniform(2,1)')).toThrow(/A <= B/);
  });

  it('--report must name final values, parameters or built-in functions', () => {
    expect(() => checkReport(parseReport('x9'), c12)).toThrow(
      /'x9' is not a final value of Spheres \(did you mean x1\?\); the final values and parameters are: t, x1, x1', .*, n, e$/,
    );
    expect(() => checkReport(parseReport("x4' + y''"), c12)).toThrow(/'y''' is not a final value/);
    expect(() => checkReport(parseReport('abs(n) + e + pi'), c12)).not.toThrow();
  });
});

describe('C12 (ARGESIM collision processes) through the chunk runner', () => {
  it("n(e) at e = 1, 0.5, 0.18 is 3, 6, 25; x4' at e = 0.5 is 27/64", () => {
    const [a, b, c] = c12Runs([1, 0.5, 0.18], "n, x4'");
    expect([a[0], b[0], c[0]]).toEqual([3, 6, 25]);
    expect(a[1]).toBeCloseTo(1, 10);
    expect(Math.abs(b[1] - 27 / 64)).toBeLessThan(1e-10);
    expect(Math.abs(c[1] - 0.25)).toBeLessThan(1e-6);
  });

  it('task c: v4 = ((1+e)/2)^3 for e >= 2 - sqrt(3)', () => {
    const es = sweepValues(2 - Math.sqrt(3) + 1e-3, 1, 25);
    c12Runs(es, "x4'").forEach(([v4], k) => expect(Math.abs(v4 - ((1 + es[k]) / 2) ** 3)).toBeLessThan(1e-9));
  });

  it('a report may use parameters and arithmetic', () => {
    const [[d]] = c12Runs([0.5], "x4' - ((1 + e)/2)^3");
    expect(Math.abs(d)).toBeLessThan(1e-10);
  });

  it('the ring (what worker threads run): chunks published, claimed, run and taken in order give what one chunk gives', () => {
    const es = Float64Array.from(sweepValues(1, 0.18, 37));
    const report = parseReport("n, x4'");
    const direct = runChunk(new Simulator(c12), report, TIGHT, ['e'], es);
    // 37 runs in chunks of 5 through 3 slots: the ring is reused, as in a long batch
    const ring = sharedRing(37, 5, 3, 1, 2);
    const sim = new Simulator(c12);
    const values: number[] = [],
      status: string[] = [];
    let published = 0,
      taken = 0;
    const publish = () => {
      while (published < ring.chunks && published < taken + ring.slots) {
        const slot = published % ring.slots;
        ring.parameters.set(es.subarray(published * 5, published * 5 + chunkRuns(ring, published)), slot * 5);
        published++;
      }
      Atomics.store(ring.counters, PUBLISHED, published);
    };
    publish();
    for (let c; (c = claimChunk(ring)) !== -2;) {
      expect(c).toBeGreaterThanOrEqual(0);
      runRingChunk(ring, c, sim, report, TIGHT, ['e']);
      const slot = c % ring.slots;
      expect(Atomics.load(ring.done, slot)).toBe(c + 1);
      for (let k = 0; k < chunkRuns(ring, c); k++) {
        values.push(...ring.values.subarray((slot * 5 + k) * 2, (slot * 5 + k + 1) * 2));
        status.push(RUN_STATUSES[ring.status[slot * 5 + k] - 1]);
        expect(ringMessage(ring, slot, k)).toBe(direct.message[c * 5 + k]);
      }
      taken++;
      publish();
    }
    expect(taken).toBe(8);
    expect(values).toEqual(Array.from(direct.values));
    expect(status).toEqual(direct.status);
  });

  it('a message longer than its room in the ring is cut at a character, and says so', () => {
    const ring = sharedRing(1, 1, 1, 1, 0);
    const long = 'é'.repeat(2000);
    const sim = {
      model: c12,
      run: () => {
        throw new Error(long);
      },
    } as unknown as Simulator;
    Atomics.store(ring.counters, PUBLISHED, 1);
    runRingChunk(ring, claimChunk(ring), sim, [], {}, ['e']);
    const m = ringMessage(ring, 0, 0)!;
    expect(m.endsWith(' ... (cut)')).toBe(true);
    expect(m.startsWith('éé')).toBe(true);
    expect(Buffer.byteLength(m)).toBeLessThanOrEqual(MESSAGE_BYTES);
    expect(m).not.toContain('\ufffd');
  });
});
