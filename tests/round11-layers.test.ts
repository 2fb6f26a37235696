/**
 * The eleventh round at the command line's and the library's layers: what a sweep or a Monte
 * Carlo batch gives against the runs of simulate (value by value), and the grids of
 * FROM:TO:COUNT at the edge of double precision; each find against its exact answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepValue } from '../src/batch/index.js';
import { parseOutputTimes } from '../src/cli/output-times.js';
import { tempModel } from './api-helpers.js';
import { ensureCliBuilt, runCli } from './helpers.js';

beforeAll(() => ensureCliBuilt());

describe('FROM:TO:COUNT whose width is finite but a multiple of it is not', () => {
  // 0:1.5e308:5 is 0, 3.75e307, 7.5e307, 1.125e308, 1.5e308, all finite; (TO - FROM)·k
  // overflowed for k = 2, 3, so a sweep ran k = Infinity ("2 of 5 runs failed ... k = Infinity")
  // and --output-times said "must be an array of finite numbers". The width divided by 4 is
  // exact (a power of two), so each value is the double nearest 1.5e308·k/4.
  const exact = [0, 3.75e307, 7.5e307, 1.5e308 * 0.75, 1.5e308];

  it('every value is the finite one, in a sweep and in --output-times', () => {
    expect([0, 1, 2, 3, 4].map((k) => sweepValue(0, 1.5e308, 5, k))).toEqual(exact);
    expect(parseOutputTimes('0:1.5e308:5')).toEqual(exact);
    // the decimal grids keep their values bit for bit (the width times k first)
    expect([0, 1, 2].map((k) => sweepValue(0.1, 0.3, 3, k))).toEqual([0.1, 0.2, 0.3]);
    expect(parseOutputTimes('-1e308:1e308:5')).toEqual([-1e308, -5e307, 0, 5e307, 1e308]);
  });

  it('sweep --vary k=0:1.5e308:5: five runs ok, each reporting its k', () => {
    const file = tempModel('wide.delta', "independent t from 0 to 1\nparameter k = 1\nx' = 0\nx(0) = 0\n");
    const r = runCli(['sweep', file, '--vary', 'k=0:1.5e308:5', '--report', 'k', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { rows: number[][]; status: string[] };
    expect(doc.status).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(doc.rows.map((row) => row[1])).toEqual(exact);
  });
});
