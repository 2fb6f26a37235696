/**
 * The progress bar of long batches (sweep, montecarlo): on stderr, so that it never mixes
 * with the results on stdout, and only on a terminal: a log file or a pipe would fill up
 * with redraws.
 */
import { importModule } from './import-module.js';

/** Batches up to this many runs finish before a bar would be worth looking at. */
export const PROGRESS_MIN_RUNS = 50;

export interface Progress {
  /** `done` runs of the total have finished */
  update(done: number): void;
  /** removes the bar (before results or errors are written) */
  stop(): void;
}

const NONE: Progress = {
  update() {
    /* no bar */
  },
  stop() {
    /* no bar */
  },
};

/**
 * The bar of one long simulation, driven by the independent variable: shown on a terminal
 * only once the run has taken a second (short runs never flash one).
 */
export async function startRunProgress(
  from: number,
  to: number,
  label: string,
  quiet: boolean | undefined,
): Promise<{ update(t: number): void; stop(): void } | null> {
  if (quiet || !process.stderr.isTTY || !(to !== from)) return null;
  const { default: cliProgress } = await importModule<{ default: typeof import('cli-progress') }>('cli-progress');
  const started = Date.now();
  let bar: InstanceType<typeof cliProgress.SingleBar> | null = null;
  return {
    update(t: number) {
      if (bar === null) {
        if (Date.now() - started < 1000) return;
        bar = new cliProgress.SingleBar(
          {
            stream: process.stderr,
            format: `${label} [{bar}] {percentage}% | {duration_formatted}, ETA {eta_formatted}`,
            hideCursor: true,
            clearOnComplete: true,
            synchronousUpdate: true,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(1000, 0);
      }
      bar.update(Math.round((1000 * (t - from)) / (to - from)));
    },
    stop() {
      bar?.stop();
    },
  };
}

/** A bar when it is worth showing; cli-progress loads only then. */
export async function startProgress(total: number, label: string, quiet: boolean | undefined): Promise<Progress> {
  if (quiet || !process.stderr.isTTY || total <= PROGRESS_MIN_RUNS) return NONE;
  const { default: cliProgress } = await importModule<{ default: typeof import('cli-progress') }>('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {value}/{total} runs | {duration_formatted}, ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      // the in-process loop is synchronous: redraw from update(), timers would never fire
      synchronousUpdate: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let stopped = false;
  return {
    update(done: number) {
      if (!stopped) bar.update(done);
    },
    stop() {
      if (!stopped) {
        stopped = true;
        bar.stop();
      }
    },
  };
}
