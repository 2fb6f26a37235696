/**
 * The status line over the results: how the run ended, in words, with the library's message
 * in full (zeno with its accumulation point, failed with why, stopped by the model or by the
 * user), and a progress bar while it runs.
 */
import { formatValue } from './plot-geometry.js';
import type { Problem } from './protocol.js';
import type { RunData } from './run-data.js';

export type StatusState = 'idle' | 'running' | 'ok' | 'stopped' | 'zeno' | 'failed' | 'interrupted' | 'error';

export interface StatusView {
  state: StatusState;
  /** the headline */
  text: string;
  /** the whole message, shown as is (preformatted: model errors have a caret line) */
  message: string;
  /** 0 to 1, NaN when unknown */
  progress: number;
}

function counts(d: RunData): string {
  const rows = d.rowsDropped
    ? `${d.rowCount.toLocaleString('en-US')} rows kept of ${(d.rowCount + d.rowsDropped).toLocaleString('en-US')}`
    : `${d.rowCount.toLocaleString('en-US')} rows`;
  return `${rows}, ${d.events.length.toLocaleString('en-US')} event${d.events.length === 1 ? '' : 's'}`;
}

export function runStatus(d: RunData): StatusView {
  const at = `${d.independent} = ${formatValue(d.t)}`;
  const dropped = d.rowsDropped
    ? `\nThe page keeps the first ${d.rowCount.toLocaleString('en-US')} rows (the plot and the downloads end at ${d.independent} = ${formatValue(d.lastKept())}); ask for fewer rows (a grid, in the settings) to keep the whole run.`
    : '';
  if (d.state === 'running')
    return {
      state: 'running',
      text: d.shooting ? 'shooting: Newton iterations on the unknowns ...' : `running ... ${at} (${counts(d)})`,
      message: '',
      progress: d.shooting ? NaN : d.progress(),
    };
  if (d.state === 'interrupted' && d.shooting)
    return { state: 'interrupted', text: 'shooting stopped by you', message: d.note ?? '', progress: NaN };
  if (d.state === 'interrupted')
    return {
      state: 'interrupted',
      text: `stopped by you at ${at}`,
      message: `${d.note ?? ''}\nWhat was computed until then is kept: ${counts(d)}.${dropped}`.trim(),
      progress: NaN,
    };
  const s = d.summary;
  const shoot = d.shoot;
  let head: string;
  if (shoot && !shoot.converged) head = `shooting did not converge (${shoot.status})`;
  else if (shoot) head = `shooting converged in ${shoot.iterations.length - 1} Newton iterations`;
  else head = '';
  const message = [shoot?.message, s?.message].filter((m): m is string => !!m).join('\n');
  const accumulation = s?.accumulationPoint;
  const ended: Record<string, string> = {
    ok: `ok: ${at}`,
    stopped: `stopped by the model's stop action at ${at}`,
    zeno:
      accumulation !== undefined && formatValue(accumulation) !== formatValue(d.t)
        ? `zeno: events accumulate near ${d.independent} = ${formatValue(accumulation)}; stopped at ${at}`
        : `zeno: events accumulate at ${at}`,
    failed: `failed at ${at}`,
  };
  const state = (shoot && !shoot.converged ? 'failed' : (s?.status ?? 'failed')) as StatusState;
  const text = [head, s ? ended[s.status] : 'no solution was simulated'].filter(Boolean).join('; ');
  return { state, text: `${text}  \u00b7  ${counts(d)}`, message: message + dropped, progress: NaN };
}

export function problemStatus(p: Problem): StatusView {
  const text =
    p.kind === 'model'
      ? `the model has an error at line ${p.line}, column ${p.column}`
      : p.kind === 'settings'
        ? 'a run setting is wrong'
        : 'internal error';
  return { state: 'error', text, message: p.message, progress: NaN };
}

export function showStatus(v: StatusView): void {
  const box = document.getElementById('status') as HTMLElement;
  box.dataset.state = v.state;
  (document.getElementById('status-text') as HTMLElement).textContent = v.text;
  const message = document.getElementById('status-message') as HTMLElement;
  message.textContent = v.message;
  message.hidden = v.message === '';
  const bar = document.getElementById('progress') as HTMLElement;
  bar.hidden = v.state !== 'running';
  const fill = bar.firstElementChild as HTMLElement;
  fill.classList.toggle('indeterminate', Number.isNaN(v.progress));
  fill.style.width = Number.isNaN(v.progress) ? '' : `${(v.progress * 100).toFixed(1)}%`;
}
