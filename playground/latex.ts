/**
 * The LaTeX fragment of `formatLatex` (an align* environment, comment lines, an itemize list
 * of events with inline math and \texttt names) as HTML: the math rendered by KaTeX, the
 * list and comments as HTML. KaTeX renders math only, so the fragment's text structure is
 * taken apart here; anything KaTeX refuses is shown as its source, in red.
 */
import katex from 'katex';
import { escapeHtml } from './plot.js';

function math(tex: string, displayMode: boolean): string {
  return katex.renderToString(tex, { displayMode, throwOnError: false, errorColor: '#dc2626', strict: 'ignore' });
}

/** One \item's text: $...$ as inline math, \texttt{...} as code, the rest as text. */
function itemHtml(text: string): string {
  let out = '';
  const re = /\$([^$]*)\$|\\texttt\{((?:\\.|[^}])*)\}/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    out += escapeHtml(text.slice(at, m.index));
    out += m[1] !== undefined ? math(m[1], false) : `<code>${escapeHtml(m[2].replace(/\\([_#$%&{}])/g, '$1'))}</code>`;
    at = (m.index ?? 0) + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}

export function latexToHtml(latex: string): string {
  const lines = latex.split('\n');
  const html: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (line.startsWith('%')) {
      html.push(`<p class="latex-note">${escapeHtml(line.slice(1).trim())}</p>`);
    } else if (line === '\\begin{align*}') {
      let end = lines.indexOf('\\end{align*}', i);
      if (end < 0) end = lines.length - 1;
      const body = lines.slice(i, end + 1).join('\n');
      html.push(`<div class="latex-display">${math(body, true)}</div>`);
      i = end;
    } else if (line === '\\begin{itemize}') {
      const items: string[] = [];
      for (i++; i < lines.length && lines[i].trim() !== '\\end{itemize}'; i++) {
        const item = lines[i].trim();
        const m = /^\\item(\[\])?\s*(.*)$/.exec(item);
        if (m) items.push(`<li${m[1] ? ' class="header"' : ''}>${itemHtml(m[2])}</li>`);
        else if (items.length)
          items[items.length - 1] = items[items.length - 1].replace(/<\/li>$/, ` ${itemHtml(item)}</li>`);
      }
      html.push(`<ul class="latex-events">${items.join('')}</ul>`);
    } else {
      html.push(`<p>${itemHtml(line)}</p>`);
    }
  }
  return html.join('\n');
}
