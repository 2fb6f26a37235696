/**
 * The run settings of the page: method, tolerances, range, and one field and one slider per
 * parameter of the model (the check's report lists them with their values; a slider runs
 * the model again as it moves). An empty field leaves the
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

/** A slider's span around a parameter's value in the model: 0 to twice it (-1 to 1 for 0). */
export function sliderSpan(value: number): { lo: number; hi: number; step: number } {
  const [lo, hi] = value > 0 ? [0, 2 * value] : value < 0 ? [2 * value, 0] : [-1, 1];
  return { lo, hi, step: (hi - lo) / 200 };
}

/** A slider's value as the field shows it: four digits, exact where the step lands on one. */
export function sliderText(x: number): string {
  return String(Number(x.toPrecision(4)));
}

export class SettingsPanel {
  /** parameter values the user typed, by name; kept while the model keeps the name */
  private overrides = new Map<string, string>();

  /** `onSlide`: a slider moved (the page runs the model again with the new value) */
  constructor(
    private readonly paramsBox: HTMLElement,
    private readonly onSlide: () => void = () => {},
  ) {}

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
        const slider = this.slider(p.name, p.value, value);
        label.append(slider);
        input.addEventListener('input', () => {
          if (input.value.trim() === '') this.overrides.delete(p.name);
          else this.overrides.set(p.name, input.value);
          input.classList.toggle('changed', input.value.trim() !== '');
          const typed = Number(input.value.trim() === '' ? p.value : input.value);
          if (Number.isFinite(typed)) slider.value = String(typed);
        });
        slider.addEventListener('input', () => {
          input.value = sliderText(Number(slider.value));
          this.overrides.set(p.name, input.value);
          input.classList.add('changed');
          this.onSlide();
        });
        return label;
      }),
    );
  }

  /** A parameter's slider, from 0 to twice its value in the model, at what the field holds. */
  private slider(name: string, model: number, typed: string): HTMLInputElement {
    const slider = document.createElement('input');
    const { lo, hi, step } = sliderSpan(model);
    Object.assign(slider, { type: 'range', min: String(lo), max: String(hi), step: String(step) });
    slider.value = String(typed !== '' && Number.isFinite(Number(typed)) ? Number(typed) : model);
    slider.dataset.slider = name;
    slider.title = `${name}: drag to run the model again with each value (${sliderText(lo)} to ${sliderText(hi)})`;
    return slider;
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
