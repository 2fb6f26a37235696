/**
 * The figure's look, for the plot on the page and for its Download SVG: a title, the axes'
 * labels and the size, as the command line's --title, --xlabel, --ylabel, --width, --height.
 * An empty field keeps the plot's own choice: no title, the x axis named by its variable and
 * each panel's y axis by its series (with the units of the model's `# units:` comments), the
 * size of the page's plot area. A size is a whole number of pixels from 200 to 4000; another
 * value is said at its field, and the plot keeps the page's size on that side until it is
 * fixed. The fields travel in the share link after the model (`#model=...&title=...`).
 */

export const FIGURE_FIELDS = ['title', 'xlabel', 'ylabel', 'width', 'height'] as const;
export type FigureField = (typeof FIGURE_FIELDS)[number];
/** The fields as typed (absent: empty). */
export type FigureText = Partial<Record<FigureField, string>>;

/** What the plot draws differently from its own choices; an absent field is the plot's choice. */
export interface FigureLook {
  title?: string;
  xLabel?: string;
  /** by panel, top to bottom; an empty entry, or a panel past the list, keeps its own */
  yLabels?: string[];
  width?: number;
  height?: number;
}

/** What the plot chose where no field is set: shown as the fields' placeholders. */
export interface FigureDefaults {
  xLabel: string;
  yLabels: string[];
  width: number;
  height: number;
}

export const SIZE_LIMITS = { min: 200, max: 4000 } as const;

/**
 * The look of the fields as typed, and the problems of the sizes by field. The y label is one
 * for every panel, or one per panel separated by `;` (`height (m); collisions`).
 */
export function figureLook(text: FigureText): { look: FigureLook; problems: Partial<Record<FigureField, string>> } {
  const look: FigureLook = {};
  const problems: Partial<Record<FigureField, string>> = {};
  const title = text.title?.trim(),
    xLabel = text.xlabel?.trim(),
    yLabel = text.ylabel?.trim();
  if (title) look.title = title;
  if (xLabel) look.xLabel = xLabel;
  if (yLabel) look.yLabels = yLabel.split(';').map((s) => s.trim());
  for (const side of ['width', 'height'] as const) {
    const t = text[side]?.trim() ?? '';
    if (t === '') continue;
    const v = /^\d+$/.test(t) ? Number(t) : NaN;
    if (v >= SIZE_LIMITS.min && v <= SIZE_LIMITS.max) look[side] = v;
    else
      problems[side] =
        `${side}: '${t}' is not a whole number of pixels from ${SIZE_LIMITS.min} to ${SIZE_LIMITS.max}` +
        ` (the plot keeps the page's ${side} until it is)`;
  }
  return { look, problems };
}

/** The fields that are set, for the share link: `&title=...&width=...` (URL-encoded). */
export function figureHash(text: FigureText): string {
  return FIGURE_FIELDS.filter((f) => text[f]?.trim())
    .map((f) => `&${f}=${encodeURIComponent(text[f]?.trim() ?? '')}`)
    .join('');
}

/** The fields an address's fragment sets (a field that is not URL-encoded text is left out). */
export function figureFromHash(hash: string): FigureText {
  const text: FigureText = {};
  for (const f of FIGURE_FIELDS) {
    const m = new RegExp(`[#&]${f}=([^&]*)`).exec(hash.startsWith('#') ? hash : `#${hash}`);
    if (!m) continue;
    try {
      text[f] = decodeURIComponent(m[1]);
    } catch {
      // (a hand-made link with a stray %: that field keeps the plot's own)
    }
  }
  return text;
}
