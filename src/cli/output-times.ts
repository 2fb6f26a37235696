/**
 * `--output-times LIST`: the values of the independent variable at which simulate writes a
 * row (the library's `outputTimes`), as comma-separated numbers (`0.5, 1, 2.5`) or a range
 * `FROM:TO:COUNT` of COUNT evenly spaced values, both ends included.
 */
import { sweepValue } from '../batch/values.js';
import { CliError, parseNumber } from './options.js';

/** A list longer than this is refused: a grid that fine is --output-step's. */
export const MAX_OUTPUT_TIMES = 10_000_000;

export function parseOutputTimes(text: string): number[] {
  const range = /^\s*([^:,]+):([^:,]+):([^:,]+)\s*$/.exec(text);
  if (range) {
    const from = parseNumber('--output-times FROM', range[1]),
      to = parseNumber('--output-times TO', range[2]),
      count = parseNumber('--output-times COUNT', range[3]);
    if (!Number.isInteger(count) || count < 1)
      throw new CliError(`--output-times ${text}: COUNT must be a whole number of at least 1, got ${range[3].trim()}`);
    if (count > MAX_OUTPUT_TIMES)
      throw new CliError(
        `--output-times ${text}: ${count} times are more than ${MAX_OUTPUT_TIMES}; for a grid that fine give --output-step ${(to - from) / (count - 1)}`,
      );
    // (the values of a sweep's FROM:TO:COUNT: the last is TO exactly, not FROM plus a sum of
    // rounded steps, and a width or a multiple of it beyond double precision is no Infinity)
    return Array.from({ length: count }, (_, k) => sweepValue(from, to, count, k));
  }
  const parts = text.split(',');
  if (parts.some((p) => p.trim() === ''))
    throw new CliError(`--output-times ${text}: write numbers separated by commas (0.5,1,2.5) or FROM:TO:COUNT`);
  if (parts.length > MAX_OUTPUT_TIMES)
    throw new CliError(`--output-times: ${parts.length} times are more than ${MAX_OUTPUT_TIMES}; use --output-step`);
  return parts.map((p) => parseNumber('--output-times', p));
}
