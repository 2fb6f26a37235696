/**
 * The statuses of a batch's runs as they come: how many of each, the first failure and the
 * first accumulation (for the message on stderr), which runs enter the statistics (--stats-over),
 * and the exit code: 3 when a run failed, 4 when a run stopped at an accumulation of events
 * (zeno) and none failed, as `simulate` exits for one run.
 */
import { RUN_STATUSES, type BatchStatus } from '../batch/index.js';
import { CliError, EXIT } from './options.js';
import { formatValue } from './output.js';

/** The statuses whose runs reached the end the model gives them: the end of the range, or a `stop` action. */
export const COMPLETED: readonly BatchStatus[] = ['ok', 'stopped'];

/** `--stats-over LIST`: the statuses whose runs enter the statistics (default ok,stopped; `all`: every run). */
export function parseStatsOver(text: string | undefined): BatchStatus[] {
  if (text === undefined) return [...COMPLETED];
  if (text.trim() === 'all') return RUN_STATUSES.filter((s) => s !== 'interrupted');
  const out: BatchStatus[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const known = RUN_STATUSES.filter((s) => s !== 'interrupted');
    if (!(known as readonly string[]).includes(part))
      throw new CliError(
        `--stats-over ${text}: '${part}' is not a status of a run; write some of ${known.join(', ')} (comma-separated), or all`,
      );
    if (!out.includes(part as BatchStatus)) out.push(part as BatchStatus);
  }
  return out;
}

interface Notable {
  index: number;
  at: string;
  /** the parameters as --set takes them, every digit kept: `e=0.30000000000000004` */
  set: string;
  message: string | null;
}

export class StatusTally {
  readonly counts = new Map<BatchStatus, number>();
  runs = 0;
  private firstFailed: Notable | null = null;
  private firstZeno: Notable | null = null;
  /** runs that completed (ok, stopped) with a warning, and the first */
  private warned = 0;
  private firstWarned: Notable | null = null;

  constructor(private readonly names: readonly string[]) {}

  /** One run: its index in the batch, its parameter values, status and message. */
  add(index: number, parameters: ArrayLike<number>, status: BatchStatus, message: string | null): void {
    this.runs++;
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    const warned = COMPLETED.includes(status) && message !== null && message.includes('warning: ');
    if (warned) this.warned++;
    if (
      (status === 'failed' && !this.firstFailed) ||
      (status === 'zeno' && !this.firstZeno) ||
      (warned && !this.firstWarned)
    ) {
      const at = this.names.map((n, j) => `${n} = ${formatValue(parameters[j])}`).join(', ');
      const set = this.names.map((n, j) => `${n}=${String(parameters[j])}`).join(',');
      const notable = { index, at, set, message };
      if (status === 'failed') this.firstFailed = notable;
      else if (status === 'zeno') this.firstZeno = notable;
      else this.firstWarned = notable;
    }
  }

  count(status: BatchStatus): number {
    return this.counts.get(status) ?? 0;
  }

  /** `5 runs: 1 ok, 4 zeno` (statuses in their fixed order). */
  summary(): string {
    const parts = RUN_STATUSES.filter((s) => this.count(s) > 0).map((s) => `${this.count(s)} ${s}`);
    return `${this.runs} run${this.runs === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
  }

  /** The counts as a JSON object, statuses in their fixed order. */
  json(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of RUN_STATUSES) if (this.count(s) > 0) out[s] = this.count(s);
    return out;
  }

  /** Writes what went wrong to stderr and gives the exit code (interrupted runs aside: the caller says those). */
  exit(): number {
    const failed = this.count('failed'),
      zeno = this.count('zeno');
    // (merged shards keep the messages of failed runs only: a zeno run's is said how to see)
    const first = (n: Notable, what: string) =>
      n.message
        ? `run ${n.index} (${n.at}): ${n.message}`
        : `run ${n.index} (${n.at}), whose message the shards' JSON does not keep: simulate the model with --set ${n.set.includes(',') ? `"${n.set}"` : n.set} to see ${what}`;
    if (failed > 0)
      process.stderr.write(
        `deltastep: ${failed} of ${this.runs} runs failed; the first, ${first(this.firstFailed!, 'why it failed')}\n`,
      );
    if (zeno > 0)
      process.stderr.write(
        `deltastep: ${zeno} of ${this.runs} runs stopped at an accumulation of events (zeno) before the end; the first, ${first(this.firstZeno!, 'where it stopped')}\n`,
      );
    // (their values are in the output and the statistics: what the warning says they are worth)
    if (this.warned > 0)
      process.stderr.write(
        `deltastep: ${this.warned} of ${this.runs} runs completed with a warning; the first, ${first(this.firstWarned!, 'the warning')}\n`,
      );
    return failed > 0 ? EXIT.numerics : zeno > 0 ? EXIT.zeno : EXIT.ok;
  }
}
