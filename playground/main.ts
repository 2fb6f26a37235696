/**
 * The deltastep playground: edit a .delta model, see its transformed system (text and
 * LaTeX), run it in a worker with a Stop, and read the plot, the impulse ledger and the final
 * values. `#model=<URL-encoded text>` in the address opens a model, and `&title=`, `&xlabel=`,
 * `&ylabel=`, `&width=`, `&height=` after it the plot's look (figure.ts); Share writes both.
 */
import EXAMPLES from 'virtual:examples';
import { unitsOf } from '../src/cli/plot-units.js';
import { createEditor } from './editor.js';
import { download, modelFromHash, shareUrl, toCsv, toJson } from './export.js';
import { figureFromHash } from './figure.js';
import { FigurePanel } from './figure-panel.js';
import { latexToHtml } from './latex.js';
import { Plot } from './plot.js';
import type { CheckResult, Problem, Reply } from './protocol.js';
import { RunData } from './run-data.js';
import { SettingsPanel } from './settings.js';
import { problemStatus, runStatus, showStatus } from './status.js';
import { ledgerHtml, valuesHtml } from './tables.js';
import { Workers } from './workers.js';

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const STORAGE_KEY = 'deltastep-playground-model';
const DEFAULT_EXAMPLE = 'bouncing_ball.delta';

const state = {
  file: DEFAULT_EXAMPLE,
  check: null as CheckResult | null,
  problem: null as Problem | null,
  run: null as RunData | null,
  /** the text of the model the shown run ran */
  ranText: '',
};

/** What the page opens with: the address's model, else the last text edited here, else the ball. */
function initialModel(): { text: string; file: string; note: string | null } {
  const shared = modelFromHash(location.hash);
  if (shared !== null) return { text: shared, file: 'model.delta', note: null };
  const broken = /[#&]model=/.test(location.hash)
    ? 'The model in the address could not be read (it is not URL-encoded text); here is another.'
    : null;
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // (storage may be off for file:// pages)
  }
  if (saved) return { text: saved, file: 'model.delta', note: broken };
  const ex = EXAMPLES.find((e) => e.file === DEFAULT_EXAMPLE) ?? EXAMPLES[0];
  return { text: ex.text, file: ex.file, note: broken };
}

const first = initialModel();
state.file = first.file;
const settings = new SettingsPanel(byId('params'), slideRun);

// A slider runs the model again as it moves: at most every 150 ms, always with its last value
// (a run still going is stopped for the new one).
let slideTimer = 0;
function slideRun(): void {
  if (slideTimer) return;
  slideTimer = window.setTimeout(() => {
    slideTimer = 0;
    run();
  }, 150);
}
const plot = new Plot(byId('plot'), byId('legend'), byId<HTMLSelectElement>('x-axis'), {
  note: byId('plot-note'),
  drawn: (defaults) => figure.showDefaults(defaults),
});
const figure = new FigurePanel(byId('figure'), byId('figure-problem'), byId<HTMLButtonElement>('figure-toggle'), () =>
  plot.setLook(figure.look().look),
);
const workers = new Workers(byId('worker-source').textContent ?? '', {
  check: onCheck,
  run: onRun,
  crashed: (job, p) => (job === 'run' ? endRun(p) : showProblem(p)),
});
const editor = createEditor(byId('editor'), first.text, { change: onEdit, run, stop });

let checkTimer = 0;
let saveTimer = 0;
function onEdit(): void {
  clearTimeout(checkTimer);
  checkTimer = window.setTimeout(check, 250);
  clearTimeout(saveTimer);
  saveTimer = window.setTimeout(() => {
    try {
      localStorage.setItem(STORAGE_KEY, editor.text());
    } catch {
      // (no storage: nothing is kept across reloads)
    }
  }, 500);
  document.body.classList.toggle('stale', state.run !== null && editor.text() !== state.ranText);
}

function check(): void {
  workers.check(editor.text(), state.file);
}

function onCheck(reply: Reply): void {
  if (reply.kind === 'checked') {
    state.check = reply.result;
    showProblem(null);
    const r = reply.result;
    byId('system-text').textContent = r.text;
    byId('system-latex').innerHTML = latexToHtml(r.latex);
    byId('latex-source').textContent = r.latex;
    byId('model-name').textContent = r.report.model;
    document.title = `${r.report.model} - deltastep playground`;
    byId('system-box').classList.remove('outdated');
    settings.showParameters(r);
  } else if (reply.kind === 'problem') {
    showProblem(reply.problem);
    byId('system-box').classList.add('outdated');
  }
}

function showProblem(p: Problem | null): void {
  state.problem = p;
  editor.showProblem(p);
  const box = byId('problem');
  box.hidden = p === null;
  if (!p) return;
  box.textContent = p.message;
  box.dataset.line = String(p.line);
  box.dataset.column = String(p.column);
}

function run(): void {
  const s = settings.read(state.check);
  if ('kind' in s) {
    showStatus(problemStatus(s));
    return;
  }
  state.ranText = editor.text();
  document.body.classList.remove('stale');
  workers.run(state.ranText, state.file, s);
  state.run = null;
  setRunning(true);
  showStatus({ state: 'running', text: 'starting ...', message: '', progress: NaN });
  if (byId('tab-system').classList.contains('active')) selectTab('plot');
}

function stop(): void {
  const d = state.run;
  if (!byId<HTMLButtonElement>('stop').disabled) workers.stop();
  else return;
  setRunning(false);
  if (d) {
    d.state = 'interrupted';
    d.note = d.shooting
      ? 'You stopped the shooting: nothing of it is kept (the solution is simulated once the Newton iteration ends).'
      : `You stopped the run at ${d.independent} = ${d.t}.`;
    finishRun(d);
  } else showStatus({ state: 'interrupted', text: 'stopped by you before the run began', message: '', progress: NaN });
}

function onRun(reply: Reply): void {
  const d = state.run;
  switch (reply.kind) {
    case 'started':
      state.run = new RunData(reply.columns, reply.independent, reply.from, reply.to, reply.shooting);
      plot.show(state.run, unitsOf(state.ranText));
      showStatus(runStatus(state.run));
      break;
    case 'rows':
      if (!d) return;
      d.add(reply.data, reply.count, reply.events, reply.t);
      d.rowsDropped = reply.dropped;
      plot.update();
      throttledStatus(d);
      break;
    case 'progress':
      if (!d) return;
      d.t = reply.t;
      d.rowsDropped = reply.dropped;
      throttledStatus(d);
      break;
    case 'done':
      if (!d) return;
      setRunning(false);
      d.summary = reply.run;
      d.shoot = reply.shoot;
      d.rowsDropped = reply.rowsDropped;
      if (reply.run) {
        d.state = reply.run.status;
        d.t = reply.run.final[d.independent] ?? d.t;
      } else d.state = 'failed';
      finishRun(d);
      break;
    case 'problem':
      endRun(reply.problem);
      break;
  }
}

let statusAt = 0;
function throttledStatus(d: RunData): void {
  if (performance.now() - statusAt < 100) return;
  statusAt = performance.now();
  showStatus(runStatus(d));
  byId('ledger-count').textContent = d.events.length ? String(d.events.length) : '';
}

function finishRun(d: RunData): void {
  showStatus(runStatus(d));
  plot.update(true);
  renderTables();
  byId<HTMLButtonElement>('download-csv').disabled = d.rowCount === 0;
  byId<HTMLButtonElement>('download-svg').disabled = d.rowCount === 0;
  byId<HTMLButtonElement>('download-json').disabled = false;
}

/** A run ended by an exception or a dead worker: what it sent before is kept, as a failed run's. */
function endRun(p: Problem): void {
  setRunning(false);
  if (p.kind === 'model') {
    showProblem(p);
    editor.reveal(p);
  }
  const d = state.run;
  if (d && d.rowCount > 0) {
    d.state = 'failed';
    d.note = p.message;
    finishRun(d);
  } else {
    state.run = null;
    plot.show(null);
    renderTables();
  }
  showStatus(problemStatus(p));
}

function renderTables(): void {
  const d = state.run;
  byId('ledger').innerHTML = ledgerHtml(d);
  byId('values').innerHTML = valuesHtml(d);
  byId('ledger-count').textContent = d && d.events.length ? String(d.events.length) : '';
}

function setRunning(running: boolean): void {
  byId<HTMLButtonElement>('run').disabled = false;
  byId<HTMLButtonElement>('stop').disabled = !running;
  document.body.classList.toggle('running', running);
  if (running) {
    for (const id of ['download-csv', 'download-json', 'download-svg']) byId<HTMLButtonElement>(id).disabled = true;
  }
}

function selectTab(name: string): void {
  for (const b of document.querySelectorAll<HTMLElement>('.tabs button'))
    b.classList.toggle('active', b.dataset.tab === name);
  for (const p of document.querySelectorAll<HTMLElement>('.panel'))
    p.classList.toggle('active', p.id === `tab-${name}`);
  if (name === 'plot') plot.update(true);
  if ((name === 'ledger' || name === 'values') && state.run?.state === 'running') renderTables();
}

function loadModel(text: string, file: string): void {
  state.file = file;
  editor.setText(text);
  settings.reset();
  check();
}

function setupControls(): void {
  const select = byId<HTMLSelectElement>('example');
  select.append(new Option('Examples ...', ''), ...EXAMPLES.map((e) => new Option(e.title, e.file)));
  select.addEventListener('change', () => {
    const ex = EXAMPLES.find((e) => e.file === select.value);
    if (!ex) return;
    history.replaceState(null, '', location.href.replace(/#.*$/, ''));
    // (the texts were the last model's; a size suits any)
    const { width, height } = figure.text();
    figure.set({ width, height });
    loadModel(ex.text, ex.file);
    select.value = '';
  });
  byId('run').addEventListener('click', run);
  byId('stop').addEventListener('click', stop);
  for (const b of document.querySelectorAll<HTMLElement>('.tabs button'))
    b.addEventListener('click', () => selectTab(b.dataset.tab ?? 'plot'));
  for (const b of document.querySelectorAll<HTMLElement>('[data-view]'))
    b.addEventListener('click', () => {
      const latex = b.dataset.view === 'latex';
      byId('system-latex').hidden = !latex;
      byId('system-text').hidden = latex;
      for (const o of document.querySelectorAll<HTMLElement>('[data-view]'))
        o.classList.toggle('active', o.dataset.view === b.dataset.view);
    });
  byId('copy-latex').addEventListener('click', () =>
    copy(byId('latex-source').textContent ?? '', 'LaTeX copied', 'the Text view shows the system'),
  );
  byId('problem').addEventListener('click', () => state.problem && editor.reveal(state.problem));
  byId('share').addEventListener('click', () => {
    const url = shareUrl(editor.text(), figure.text());
    history.replaceState(null, '', url);
    copy(url, 'Link copied; it is in the address bar too', 'the link is in the address bar');
  });
  const name = () => state.run?.summary?.model ?? state.check?.report.model ?? 'model';
  byId('download-csv').addEventListener(
    'click',
    () => state.run && download(`${name()}.csv`, toCsv(state.run), 'text/csv'),
  );
  byId('download-json').addEventListener(
    'click',
    () => state.run && download(`${name()}.json`, toJson(state.run), 'application/json'),
  );
  byId('download-svg').addEventListener('click', () => {
    const { problem } = figure.look();
    if (problem) toast(`Not downloaded: ${problem.split('\n')[0].replace(/ \(.*$/, '')}`);
    else download(`${name()}.svg`, plot.svgDocument(), 'image/svg+xml');
  });
  window.addEventListener('hashchange', () => {
    const text = modelFromHash(location.hash);
    if (text === null) return;
    figure.set(figureFromHash(location.hash));
    if (text !== editor.text()) loadModel(text, 'model.delta');
  });
}

function toast(msg: string): void {
  const t = byId('toast');
  t.textContent = msg;
  t.classList.add('show');
  setTimeout(() => t.classList.remove('show'), 2200);
}

/** Copies text to the clipboard and says so; `elsewhere` says where to find it when that fails. */
function copy(text: string, done: string, elsewhere: string): void {
  // (file:// pages and older browsers may have no clipboard)
  if (!navigator.clipboard) {
    toast(`No clipboard here: ${elsewhere}`);
    return;
  }
  navigator.clipboard.writeText(text).then(
    () => toast(done),
    () => toast(`The browser refused the clipboard: ${elsewhere}`),
  );
}

setupControls();
figure.set(modelFromHash(location.hash) !== null ? figureFromHash(location.hash) : {});
check();
showStatus({
  state: 'idle',
  text: 'Ready: Run (Ctrl-Enter) simulates the model',
  message: first.note ?? '',
  progress: NaN,
});
renderTables();

/** For the console and for tests: the editor, the current run, and the downloads as text. */
Object.assign(window, {
  deltastepPlayground: {
    editor: editor.view,
    state,
    csv: () => (state.run ? toCsv(state.run) : null),
    json: () => (state.run ? toJson(state.run) : null),
    svg: () => plot.svgDocument(),
    load: loadModel,
  },
});
