/**
 * The run settings of the page: method, tolerances, range, and one field per parameter of
 * the model (the check's report lists them with their values). An empty field leaves the
 * model's own value; a value that is not a number is a problem named by its field, before
 * anything runs.
 */
import { formatValue } from './plot-geometry.js';
import { escapeHtml } from './plot.js';
import type { CheckResult, Problem, RunSettings } from './protocol.js';

const NUMERIC = ['rtol', 'atol', 'from', 'to'] as const;

function problem(what: string): Problem {
  return { kind: 'settings', line: 0, column: 0, what, hint: '', message: what };
}

function numberOf(field: string, text: string): number | Problem | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const v = Number(t);
  if (!Number.isFinite(v)) return problem(`${field}: '${t}' is not a number (write, for example, 1e-8 or 2.5)`);
  return v;
}

export class SettingsPanel {
  /** parameter values the user typed, by name; kept while the model keeps the name */
  private overrides = new Map<string, string>();

  constructor(private readonly paramsBox: HTMLElement) {}

  /** Shows a field for each parameter of the checked model. */
  showParameters(check: CheckResult): void {
    const params = check.report.parameters;
    if (params.length === 0) {
      this.paramsBox.innerHTML = '<p class="muted">This model has no parameters.</p>';
      return;
    }
    this.paramsBox.replaceChildren(
      ...params.map((p) => {
        const label = document.createElement('label');
        label.className = 'param';
        const value = this.overrides.get(p.name) ?? '';
        label.innerHTML =
          `<span class="param-name"><i>${escapeHtml(p.name)}</i>${p.unknown ? ' <small title="an unknown: shooting starts from this guess">unknown</small>' : ''}</span>` +
          `<input data-param="${escapeHtml(p.name)}" value="${escapeHtml(value)}" placeholder="${escapeHtml(formatValue(p.value))}" spellcheck="false">`;
        const input = label.querySelector('input') as HTMLInputElement;
        input.classList.toggle('changed', value !== '');
        input.addEventListener('input', () => {
          if (input.value.trim() === '') this.overrides.delete(p.name);
          else this.overrides.set(p.name, input.value);
          input.classList.toggle('changed', input.value.trim() !== '');
        });
        return label;
      }),
    );
  }

  /** Forgets what was typed (another example was loaded). */
  reset(): void {
    this.overrides.clear();
    for (const id of NUMERIC) (document.getElementById(id) as HTMLInputElement).value = '';
    (document.getElementById('method') as HTMLSelectElement).value = '';
  }

  /** The settings to run with, or the problem with one of them. */
  read(check: CheckResult | null): RunSettings | Problem {
    const settings: RunSettings = {};
    const method = (document.getElementById('method') as HTMLSelectElement).value;
    if (method) settings.method = method;
    settings.rows = (document.getElementById('rows') as HTMLSelectElement).value as RunSettings['rows'];
    for (const id of NUMERIC) {
      const v = numberOf(id, (document.getElementById(id) as HTMLInputElement).value);
      if (typeof v === 'object') return v;
      if (v !== undefined) settings[id] = v;
    }
    const known = new Set(check?.report.parameters.map((p) => p.name) ?? []);
    const set: Record<string, number> = {};
    for (const [name, text] of this.overrides) {
      if (check && !known.has(name)) continue;
      const v = numberOf(`parameter ${name}`, text);
      if (typeof v === 'object') return v;
      if (v !== undefined) set[name] = v;
    }
    if (Object.keys(set).length) settings.set = set;
    return settings;
  }
}
