/**
 * The progress bar of long batches (sweep, montecarlo): on stderr, so that it never mixes
 * with the results on stdout, and only on a terminal: a log file or a pipe would fill up
 * with redraws.
 */

/** Batches up to this many runs finish before a bar would be worth looking at. */
export const PROGRESS_MIN_RUNS = 50;

export interface Progress {
  /** `done` runs of the total have finished */
  update(done: number): void;
  /** removes the bar (before results or errors are written) */
  stop(): void;
}

const NONE: Progress = { update() { /* no bar */ }, stop() { /* no bar */ } };

/** A bar when it is worth showing; cli-progress loads only then. */
export async function startProgress(total: number, label: string, quiet: boolean | undefined): Promise<Progress> {
  if (quiet || !process.stderr.isTTY || total <= PROGRESS_MIN_RUNS) return NONE;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {percentage}% | {value}/{total} runs | {duration_formatted}, ETA {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
    // the in-process loop is synchronous: redraw from update(), timers would never fire
    synchronousUpdate: true,
  }, cliProgress.Presets.shades_classic);
  bar.start(total, 0);
  let stopped = false;
  return {
    update(done: number) { if (!stopped) bar.update(done); },
    stop() { if (!stopped) { stopped = true; bar.stop(); } },
  };
}
