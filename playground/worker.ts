/**
 * The playground's Web Worker: checks a model (the transformed system as text and LaTeX) and
 * runs it (simulate, or shoot when it has unknowns), streaming rows and ledger entries to the
 * page in chunks as they are produced. The page stops a run by terminating this worker, and
 * keeps what it was sent until then.
 */
import {
  compileModel,
  formatLatex,
  formatText,
  ModelError,
  shoot,
  ShootInputError,
  simulate,
  SimulationInputError,
  transformReport,
  type CompiledModel,
  type EventRecord,
  type MethodName,
  type ShootOptions,
} from '../src/index.js';
import { MAX_ROWS_KEPT, type Problem, type Reply, type Request, type RunSettings } from './protocol.js';

interface WorkerScope {
  postMessage(message: Reply, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<Request>) => void) | null;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const request = e.data;
  try {
    if (request.kind === 'check') check(request.id, request.text, request.file);
    else run(request.id, request.text, request.file, request.settings);
  } catch (err) {
    scope.postMessage({ kind: 'problem', id: request.id, problem: problemOf(err) });
  }
};

function check(id: number, text: string, file: string): void {
  const model = compileModel(text, file);
  const report = transformReport(model);
  const { model: name, independent, range, parameters, warnings } = report;
  scope.postMessage({
    kind: 'checked',
    id,
    result: {
      text: formatText(report),
      latex: formatLatex(model.system, report),
      report: { model: name, independent, range, parameters, warnings },
      columns: [model.system.independent, ...model.outputNames],
    },
  });
}

/** The run settings as library options (undefined: the model's own). */
function optionsOf(settings: RunSettings): ShootOptions {
  const { method, rtol, atol, from, to, set } = settings;
  return { method: method as MethodName | undefined, rtol, atol, from, to, set };
}

function run(id: number, text: string, file: string, settings: RunSettings): void {
  const options = optionsOf(settings);
  // compiled with `set`, as simulate(text) does: a structural parameter writes the model out anew
  const model: CompiledModel = compileModel(text, file, { set: options.set });
  const columns = [model.system.independent, ...model.outputNames];
  const shooting = model.system.parameters.some((p) => p.unknown);
  const range = transformReport(model).range;
  const from = options.from ?? range.from ?? 0,
    to = options.to ?? range.to;
  const points = settings.rows === 'fine' ? 10_000 : settings.rows === 'steps' || settings.rows === 'events' ? 0 : 1000;
  if (points && to !== null && to !== from) options.outputStep = Math.abs(to - from) / points;
  if (settings.rows === 'events') options.eventsOnly = true;
  scope.postMessage({ kind: 'started', id, columns, independent: model.system.independent, from, to, shooting });
  const stream = new RowStream(id, columns.length);
  if (shooting) {
    const { solution, ...rest } = shoot(model, { ...options, progress: (t) => stream.tick(t) });
    if (solution) {
      for (const row of solution.rows) stream.row(row);
      for (const e of solution.events) stream.event(e);
    }
    stream.flush();
    const run = solution ? summary(solution) : null;
    scope.postMessage({ kind: 'done', id, run, shoot: rest, rowsDropped: stream.dropped });
    return;
  }
  const result = simulate(model, { ...options, sink: stream, progress: (t) => stream.tick(t) });
  stream.flush();
  scope.postMessage({ kind: 'done', id, run: summary(result), shoot: null, rowsDropped: stream.dropped });
}

function summary<T extends { rows: unknown; events: unknown; probes?: unknown }>(
  r: T,
): Omit<T, 'rows' | 'events' | 'probes'> {
  const { rows: _rows, events: _events, probes: _probes, ...rest } = r;
  return rest;
}

/** Chunks of rows (and the ledger entries between them) posted every 100 ms or 8192 rows. */
class RowStream {
  private static readonly CHUNK = 8192;
  private data: Float64Array;
  private count = 0;
  private events: EventRecord[] = [];
  private kept = 0;
  dropped = 0;
  private lastPost = performance.now();
  private lastT = NaN;

  constructor(
    private readonly id: number,
    private readonly width: number,
  ) {
    this.data = new Float64Array(RowStream.CHUNK * width);
  }

  row(row: ArrayLike<number>): void {
    this.lastT = row[0];
    if (this.kept >= MAX_ROWS_KEPT) {
      this.dropped++;
      return;
    }
    this.kept++;
    // (the sink's row is a reused buffer: copied here)
    const at = this.count * this.width;
    for (let j = 0; j < this.width; j++) this.data[at + j] = row[j];
    this.count++;
    if (this.count === RowStream.CHUNK || ((this.count & 63) === 0 && this.due())) this.flush();
  }

  event(e: EventRecord): void {
    this.events.push(e);
  }

  /** The run's progress callback: sends what is pending, or at least the time reached. */
  tick(t: number): void {
    if (!this.due()) return;
    if (this.count > 0 || this.events.length > 0) this.flush();
    else {
      scope.postMessage({ kind: 'progress', id: this.id, t, dropped: this.dropped });
      this.lastPost = performance.now();
    }
  }

  flush(): void {
    const data = this.data.slice(0, this.count * this.width);
    const { id, count, events, lastT: t, dropped } = this;
    scope.postMessage({ kind: 'rows', id, data, count, events, t, dropped }, [data.buffer]);
    this.count = 0;
    this.events = [];
    this.lastPost = performance.now();
  }

  private due(): boolean {
    return performance.now() - this.lastPost > 100;
  }
}

function problemOf(err: unknown): Problem {
  if (err instanceof ModelError)
    return { kind: 'model', line: err.line, column: err.column, what: err.what, hint: err.hint, message: err.message };
  if (err instanceof SimulationInputError || err instanceof ShootInputError)
    return { kind: 'settings', line: 0, column: 0, what: err.message, hint: '', message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', line: 0, column: 0, what: message, hint: '', message: `internal error: ${message}` };
}
