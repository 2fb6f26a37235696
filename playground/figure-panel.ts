/**
 * The figure's fields under the plot (figure.ts says what they mean): what is typed, each
 * size that is not one marked at its field with why, and the plot's own choices shown as the
 * placeholders of the empty ones.
 */
import {
  FIGURE_FIELDS,
  figureLook,
  type FigureDefaults,
  type FigureField,
  type FigureLook,
  type FigureText,
} from './figure.js';

/** The fields under the plot: what is typed, the problems at their fields, the defaults shown. */
export class FigurePanel {
  private readonly inputs: Record<FigureField, HTMLInputElement>;

  /** `changed`: a field changed (the page draws the plot again with the new look) */
  constructor(
    private readonly box: HTMLElement,
    private readonly problemBox: HTMLElement,
    private readonly toggle: HTMLButtonElement,
    private readonly changed: () => void,
  ) {
    this.inputs = Object.fromEntries(
      FIGURE_FIELDS.map((f) => [f, box.querySelector(`[data-figure="${f}"]`) as HTMLInputElement]),
    ) as Record<FigureField, HTMLInputElement>;
    for (const input of Object.values(this.inputs)) input.addEventListener('input', () => this.changed());
    toggle.addEventListener('click', () => this.open(box.hidden));
  }

  /** Shows or hides the fields. */
  open(show: boolean): void {
    this.box.hidden = !show;
    this.toggle.setAttribute('aria-expanded', String(show));
    this.toggle.classList.toggle('active', show);
  }

  text(): FigureText {
    const text: FigureText = {};
    for (const f of FIGURE_FIELDS) if (this.inputs[f].value.trim()) text[f] = this.inputs[f].value;
    return text;
  }

  /** Writes the fields (absent ones emptied) and opens them when one is set. */
  set(text: FigureText): void {
    for (const f of FIGURE_FIELDS) this.inputs[f].value = text[f] ?? '';
    if (FIGURE_FIELDS.some((f) => text[f])) this.open(true);
    this.changed();
  }

  /** The look to draw; marks the fields whose values are problems and says why below them. */
  look(): { look: FigureLook; problem: string | null } {
    const { look, problems } = figureLook(this.text());
    for (const f of FIGURE_FIELDS) {
      const p = problems[f];
      this.inputs[f].classList.toggle('invalid', p !== undefined);
      this.inputs[f].setAttribute('aria-invalid', String(p !== undefined));
    }
    const said = Object.values(problems).join('\n');
    this.problemBox.textContent = said;
    this.problemBox.hidden = said === '';
    if (said) this.open(true);
    return { look, problem: said || null };
  }

  /** The plot's own choices as the placeholders of the empty fields. */
  showDefaults(d: FigureDefaults): void {
    this.inputs.xlabel.placeholder = d.xLabel;
    this.inputs.ylabel.placeholder = d.yLabels.join('; ');
    this.inputs.width.placeholder = String(d.width);
    this.inputs.height.placeholder = String(d.height);
  }
}
