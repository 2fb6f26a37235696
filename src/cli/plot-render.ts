/**
 * What every plot of the command line shares: vega-lite compiled by vega and rendered
 * headless to SVG (no browser, no canvas), the style, the size and titles a user may give
 * (--title, --xlabel, --ylabel, --width, --height), and the file: SVG as is, PNG rasterised
 * by resvg, HTML (plot-trajectory.ts).
 *
 * All data is passed to vega in long form with fixed, safe field names
 * (`i`, `t`, `series`, `value`, ...): user names such as `h'`, `a.b` or `__proto__`
 * only ever appear as *values*, never as field names, because vega-lite interprets
 * `.`, `[` and `\` in field names as nested access.
 */
import { extname } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import type { TopLevelSpec } from 'vega-lite';
import { importModule } from './import-module.js';
import { PLOT_EXTENSIONS, writeWhole } from './out-file.js';
import { PLOT_HEIGHT, PLOT_WIDTH } from './plot-reduce.js';
import { textWidth } from './plot-text-width.js';
import { namesWithUnits } from './plot-units.js';

/**
 * vega and vega-lite, loaded when a plot is drawn: they are ES modules with top-level await,
 * which the command line's CommonJS bundle must import() (see import-module.ts), not require().
 */
type VegaLibraries = { vega: typeof import('vega'); compile: (typeof import('vega-lite'))['compile'] };
let vegaLibraries: Promise<VegaLibraries> | null = null;
export function loadVega(): Promise<VegaLibraries> {
  vegaLibraries ??= Promise.all([
    importModule<typeof import('vega')>('vega'),
    importModule<typeof import('vega-lite')>('vega-lite'),
  ]).then(([vega, vl]) => {
    // (vega estimates 0.8 em a character without a canvas: see plot-text-width.ts)
    (vega as unknown as { textMetrics: { width: typeof textWidth } }).textMetrics.width = textWidth;
    return { vega, compile: vl.compile };
  });
  return vegaLibraries;
}

/** What a user may set of a plot's look; the plot's own choices stand where a field is absent. */
export interface PlotLook {
  title?: string;
  xLabel?: string;
  yLabel?: string;
  /** units by name, from the model's `# units:` comments (plot-units.ts) */
  units?: ReadonlyMap<string, string>;
  /** the size of the plotting area, in pixels (the PNG has twice as many) */
  width?: number;
  height?: number;
}

// Fonts in order of preference: vega only writes the family list into the SVG, and
// resvg picks the first one installed (it does not map the generic 'sans-serif' to
// whatever is installed, falling back to the first system font, often a serif).
// Names are unquoted on purpose: resvg does not match quoted names (as written by
// vega, `&quot;DejaVu Sans&quot;`), while unquoted multi-word names are valid CSS.
const FONT = 'Helvetica, Arial, Liberation Sans, DejaVu Sans, Noto Sans, sans-serif';

export const baseConfig = {
  padding: 12,
  font: FONT,
  title: { fontSize: 15, anchor: 'start' as const, offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, titlePadding: 8, gridColor: '#e6e6e6', labelSeparation: 6 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 240, symbolStrokeWidth: 2 },
  view: { stroke: '#bbbbbb' },
};

/** What every plot shares: the schema, the title (the user's, if given), the size and the style. */
export function frame(title: string, subtitle: string | undefined, look: PlotLook | undefined) {
  const text = look?.title ?? title;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: subtitle ? { text, subtitle } : text,
    width: look?.width ?? PLOT_WIDTH,
    height: look?.height ?? PLOT_HEIGHT,
    config: baseConfig,
  } as const;
}

/** vega's category colours (tableau10), which a shared colour scale would give */
const CATEGORY = ['#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d'];

/** The colours of a panel's series: each that of its place among all series drawn. */
export function colours(names: readonly string[], all: readonly string[]): string[] {
  return names.map((n) => CATEGORY[Math.max(0, all.indexOf(n)) % CATEGORY.length]);
}

/** A y axis's title: the names of what it draws (not "value"), shortened when many. */
export function axisTitle(names: readonly string[], units?: ReadonlyMap<string, string>): string {
  names = namesWithUnits(names, units);
  const text = names.join(', ');
  if (text.length <= 48) return text;
  let shown = '';
  for (const n of names) {
    const next = shown ? `${shown}, ${n}` : n;
    if (next.length > 44) break;
    shown = next;
  }
  return `${shown || names[0]}, …`;
}

export const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Compiles a vega-lite spec and renders it headless to SVG text.
 * Warnings from vega-lite and vega are silenced: they are about spec details the user
 * cannot act on, and the CLI's stderr is for the user.
 */
export async function toSvg(spec: TopLevelSpec): Promise<string> {
  const { vega, compile } = await loadVega();
  const { spec: vgSpec } = compile(spec, { logger: vega.logger(vega.None) });
  const view = new vega.View(vega.parse(vgSpec), { renderer: 'none', logLevel: vega.None });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Where a trajectory plot's time axis should end: the whole range, or (when every event
 * happens in the first tenth of a long run that then goes on unchanged, as C12's collisions

/**
 * Writes an SVG document to `path`: `.svg` as is, `.png` rasterised at 2x on white.
 * Throws an `Error` for any other extension (naming the supported ones), and an OutputError
 * that says why when the file cannot be written (a directory that does not exist, a full disk).
 */
export async function writePlot(svg: string, path: string): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.svg' && ext !== '.png' && ext !== '.html') {
    throw new Error(
      `cannot write plot '${path}': unsupported extension '${ext || '(none)'}'; use ${PLOT_EXTENSIONS.join(' or ')}`,
    );
  }
  if (ext === '.svg' || ext === '.html') {
    writeWhole(path, svg, '--plot');
    return;
  }
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
    font: { loadSystemFonts: true },
  })
    .render()
    .asPng();
  writeWhole(path, png, '--plot');
}
