/**
 * Wrong answers with status ok and lost results found at the command line's and the
 * library's layers in the third round: each with the exact answer or the whole message it
 * gets now.
 */
import { describe, expect, it } from 'vitest';
import { BatchInputError, parseSample, parseVary, sampleValues, sweepValues } from '../src/batch/index.js';

function batchError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof BatchInputError) return err.message;
    throw err;
  }
  throw new Error('no error');
}

describe('--vary and --sample read their numbers as the other flags do', () => {
  it.each([
    // a blank was read as 0: `k=1: :3` swept k over 1, 0.5, 0 with status ok
    ['k=1: :3', 'TO'],
    ['k= :1:3', 'FROM'],
    // hexadecimal and Infinity are not decimal numbers (--from 0x10 is a usage error too)
    ['k=0x1:4:2', 'FROM'],
    ['k=1:Infinity:2', 'TO'],
  ])('--vary %s is refused', (text) => {
    expect(batchError(() => parseVary(text))).toBe(
      `--vary '${text}': FROM and TO must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  });

  it('a COUNT in hexadecimal is not a whole number', () => {
    expect(batchError(() => parseVary('k=1:4:0x2'))).toBe(
      "--vary 'k=1:4:0x2': COUNT must be a whole number of at least 1",
    );
  });

  it('decimal numbers in every spelling still sweep exactly', () => {
    const v = parseVary(' k = .5 : 4. : 8 ');
    expect(v).toEqual({ name: 'k', from: 0.5, to: 4, count: 8 });
    // value k of 8 from 0.5 to 4: 0.5 + 3.5 k/7 = 0.5 (k + 1), exactly in binary
    expect(sweepValues(v.from, v.to, v.count)).toEqual([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(parseVary('k=1e0:-2E-1:2')).toEqual({ name: 'k', from: 1, to: -0.2, count: 2 });
  });

  it.each([
    // uniform(-1, ) drew from [-1, 0] and normal(1, ) had SD 0, with status ok
    'k~uniform(-1, )',
    'k~normal(1, )',
    'k~uniform(0x1,4)',
    'k~normal(NaN,1)',
  ])('--sample %s is refused', (text) => {
    expect(batchError(() => parseSample(text))).toBe(
      `--sample '${text}': the arguments must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  });

  it('a uniform written with blanks draws within its bounds', () => {
    const s = parseSample('k~uniform( 1 , 2 )');
    expect(s.distribution).toEqual({ kind: 'uniform', a: 1, b: 2 });
    const draws = sampleValues(3, 0, 1000, [s]);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...draws)).toBeLessThan(2);
  });
});
