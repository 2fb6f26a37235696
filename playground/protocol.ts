/**
 * The messages between the page and its workers (worker.ts). The page never runs the
 * library itself: checking a model and running it both happen in a Web Worker, so that no
 * model, however slow, freezes the page.
 */
import type { EventRecord, ShootResult, SimulationResult, TransformReport } from '../src/index.js';

/** What the run settings of the page may set (empty fields are left to the model). */
export interface RunSettings {
  method?: string;
  rtol?: number;
  atol?: number;
  from?: number;
  to?: number;
  set?: Record<string, number>;
  /**
   * Which rows to keep: `grid` (1000 from the dense output over the range, the default, so
   * that curves are curves and not chords between long steps), `fine` (10000), `steps` (one
   * per solver step, as the command line), `events` (the events' rows and the two ends). The
   * rows of every event are kept in all of them.
   */
  rows?: 'grid' | 'fine' | 'steps' | 'events';
}

export type Request =
  | { kind: 'check'; id: number; text: string; file: string }
  | { kind: 'run'; id: number; text: string; file: string; settings: RunSettings };

/** A mistake: in the model (line and column from its ModelError) or in the run settings (line 0). */
export interface Problem {
  kind: 'model' | 'settings' | 'internal';
  line: number;
  column: number;
  what: string;
  hint: string;
  /** the whole message as the command line prints it */
  message: string;
}

export interface CheckResult {
  text: string;
  latex: string;
  report: Pick<TransformReport, 'model' | 'independent' | 'range' | 'parameters' | 'warnings'>;
  columns: string[];
}

/** A run's result without its rows and ledger, which come in chunks. */
export type RunSummary = Omit<SimulationResult, 'rows' | 'events' | 'probes'>;
export type ShootSummary = Omit<ShootResult, 'solution'>;

export type Reply =
  | { kind: 'checked'; id: number; result: CheckResult }
  | { kind: 'problem'; id: number; problem: Problem }
  | {
      kind: 'started';
      id: number;
      columns: string[];
      independent: string;
      from: number;
      to: number | null;
      shooting: boolean;
    }
  /** `count` rows of `columns.length` values each, and the ledger entries produced with them;
   * `dropped`: rows computed so far but not sent (past MAX_ROWS_KEPT) */
  | { kind: 'rows'; id: number; data: Float64Array; count: number; events: EventRecord[]; t: number; dropped: number }
  | { kind: 'progress'; id: number; t: number; dropped: number }
  | { kind: 'done'; id: number; run: RunSummary | null; shoot: ShootSummary | null; rowsDropped: number };

/** Rows past this many are counted but not sent to the page (the plot and downloads say so). */
export const MAX_ROWS_KEPT = 1_000_000;
