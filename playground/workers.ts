/**
 * The page's two workers, made from the worker's source embedded in the page (a Blob URL,
 * so that the page works from file:// as from a server): one checks the model as it is
 * edited, the other runs it and is kept for the next run (loading the library takes a
 * moment). Stopping a run terminates its worker (the only way to stop synchronous code at
 * once) and starts a fresh one; a check that takes too long while the text keeps changing is
 * dropped the same way.
 */
import type { Problem, Reply, Request, RunSettings } from './protocol.js';

export interface WorkerHandlers {
  check(reply: Reply): void;
  run(reply: Reply): void;
  /** a worker died (out of memory, say): what it was doing is lost */
  crashed(job: 'check' | 'run', problem: Problem): void;
}

/** A check still pending after this long is abandoned when a newer text comes. */
const CHECK_PATIENCE_MS = 1500;

export class Workers {
  private readonly url: string;
  private checker: Worker | null = null;
  private runner: Worker | null = null;
  private checkId = 0;
  private checkSent = 0;
  private checkPending = false;
  private runId = 0;
  private running = false;

  constructor(
    source: string,
    private readonly handlers: WorkerHandlers,
  ) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.runner = this.spawn('run');
  }

  private spawn(job: 'check' | 'run'): Worker {
    const w = new Worker(this.url);
    w.onmessage = (e: MessageEvent<Reply>) => {
      if (job === 'check') {
        if (e.data.id !== this.checkId) return;
        this.checkPending = false;
        this.handlers.check(e.data);
      } else if (e.data.id === this.runId) {
        if (e.data.kind === 'done' || e.data.kind === 'problem') this.running = false;
        this.handlers.run(e.data);
      }
    };
    w.onerror = (e) => {
      e.preventDefault();
      const what = e.message || 'the worker stopped unexpectedly (out of memory?)';
      this.handlers.crashed(job, {
        kind: 'internal',
        line: 0,
        column: 0,
        what,
        hint: '',
        message: `internal error: ${what}`,
      });
      if (job === 'check') this.dropChecker();
      else this.stop();
    };
    return w;
  }

  check(text: string, file: string): void {
    if (this.checkPending && performance.now() - this.checkSent > CHECK_PATIENCE_MS) this.dropChecker();
    this.checker ??= this.spawn('check');
    const request: Request = { kind: 'check', id: ++this.checkId, text, file };
    this.checkSent = performance.now();
    this.checkPending = true;
    this.checker.postMessage(request);
  }

  run(text: string, file: string, settings: RunSettings): number {
    // (a run still going is replaced: its worker cannot take a second job before it ends)
    if (this.running) this.stop();
    this.runner ??= this.spawn('run');
    const request: Request = { kind: 'run', id: ++this.runId, text, file, settings };
    this.running = true;
    this.runner.postMessage(request);
    return this.runId;
  }

  /** Ends the running job at once (what it sent before stays with the page) and readies a fresh worker. */
  stop(): void {
    this.runner?.terminate();
    this.runId++;
    this.running = false;
    this.runner = this.spawn('run');
  }

  private dropChecker(): void {
    this.checker?.terminate();
    this.checker = null;
    this.checkPending = false;
  }
}
