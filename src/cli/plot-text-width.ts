/**
 * The width of a plot's texts, for vega's layout. Rendered headless, vega has no canvas to
 * measure text and estimates 0.8 em per character, almost twice Helvetica's average: a title
 * or subtitle of 90 characters widened the SVG by hundreds of empty pixels on the right
 * (examples/plots/iderk_553.svg was half blank), and legend labels were cut short. This is
 * Helvetica's own advance widths (the AFM metrics, shared by Arial and Liberation Sans, the
 * plots' first fonts), regular and bold, a little generous so that no text is clipped.
 */

// advance widths in thousandths of an em of the characters ' ' (32) to '~' (126)
const REGULAR = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];
const BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611,
  556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389,
  280, 389, 584,
];
/** any other character (Greek letters, primes, the ellipsis): an average letter */
const OTHER = 600;
/** room for fonts that differ a little from Helvetica's metrics */
const MARGIN = 1.04;

/** What vega passes: a text mark's item (its font size, weight and width limit). */
interface TextItem {
  fontSize?: number | string;
  fontWeight?: string | number;
  limit?: number;
}

/** The width in pixels of one line of text as a text item draws it. */
export function textWidth(item: TextItem, text: unknown): number {
  const line = text == null ? '' : String(text).trim();
  const size = item.fontSize != null ? +item.fontSize || 0 : 11;
  const weight = item.fontWeight;
  const table = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600 ? BOLD : REGULAR;
  let units = 0;
  for (const ch of line) {
    const code = ch.codePointAt(0) ?? 0;
    units += code >= 32 && code <= 126 ? table[code - 32] : OTHER;
  }
  const width = Math.ceil((units / 1000) * size * MARGIN);
  // (vega cuts a text longer than its limit to the limit, with an ellipsis)
  return item.limit && item.limit > 0 ? Math.min(width, item.limit) : width;
}
