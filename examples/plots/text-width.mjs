// Text widths for the figure scripts (examples/*_figure(s).mjs, hohmann_limits.mjs): vega,
// rendered headless, has no canvas to measure text and guesses 0.8 em a character, which left
// the right half of iderk_553.svg blank behind its long subtitle. Helvetica averages about
// 0.5 em on such text (bold a little more); 0.6 em keeps every text inside the picture.
// The command line's plots measure each character (src/cli/plot-text-width.ts).
import { textMetrics } from 'vega';

export function useTextWidths() {
  textMetrics.width = (item, text) => {
    const line = text == null ? '' : String(text).trim();
    const size = item.fontSize != null ? +item.fontSize || 0 : 11;
    const em = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600 ? 0.64 : 0.6;
    const width = Math.ceil(line.length * size * em);
    return item.limit > 0 ? Math.min(width, item.limit) : width;
  };
}
