/**
 * The run as tables: the impulse ledger (one line per event: when, which, what it changed),
 * the final values with the run's statistics, and for a boundary value problem the unknowns,
 * residuals and Newton iterations.
 */
import type { ValueRecordLike } from './export.js';
import { escapeHtml } from './plot.js';
import type { RunData } from './run-data.js';

/** Ledger lines shown; the downloads have them all. */
export const LEDGER_SHOWN = 2000;

/** Every digit of a double (the shortest text that reads back the same): tables are for reading numbers. */
function exact(v: number): string {
  return String(v);
}

function values(r: ValueRecordLike, skip: string): string {
  const entries = Object.entries(r).filter(([k]) => k !== skip);
  if (entries.length === 0) return '<span class="muted">-</span>';
  return entries.map(([k, v]) => `<span class="kv"><i>${escapeHtml(k)}</i> = ${exact(v)}</span>`).join(' ');
}

function jumps(r: ValueRecordLike): string {
  const entries = Object.entries(r);
  if (entries.length === 0) return '<span class="muted">-</span>';
  return entries
    .map(([k, v]) => `<span class="kv"><i>${escapeHtml(k)}</i> ${v < 0 ? '&minus;' : '+'} ${exact(Math.abs(v))}</span>`)
    .join(' ');
}

export function ledgerHtml(d: RunData | null): string {
  if (!d) return '<p class="empty">Run the model: every event and delta impulse is listed here.</p>';
  if (d.events.length === 0) return '<p class="empty">No events in this run.</p>';
  const rows = d.events
    .slice(0, LEDGER_SHOWN)
    .map(
      (e, i) =>
        `<tr><td class="num">${i + 1}</td><td class="num">${exact(e.t)}</td><td><b>${escapeHtml(e.name)}</b></td>` +
        `<td>${e.kind}</td><td>${jumps(e.jumps)}</td><td>${values(e.pre, d.independent)}</td><td>${values(e.post, d.independent)}</td>` +
        `<td><code>${escapeHtml(e.source)}</code></td></tr>`,
    );
  const more =
    d.events.length > LEDGER_SHOWN
      ? `<p class="muted">The first ${LEDGER_SHOWN} of ${d.events.length} events; the JSON download has them all.</p>`
      : '';
  return (
    `<table class="ledger"><thead><tr><th>#</th><th>${escapeHtml(d.independent)}</th><th>event</th><th>kind</th>` +
    `<th>jumps</th><th>before</th><th>after</th><th>source</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`
  );
}

function table(head: string[], rows: string[][], cls: string): string {
  return (
    `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`
  );
}

export function valuesHtml(d: RunData | null): string {
  if (!d) return '<p class="empty">Run the model to see its final values.</p>';
  const parts: string[] = [];
  const s = d.shoot;
  if (s) {
    parts.push(
      `<h3>${s.converged ? 'Shooting converged' : `Shooting did not converge (${escapeHtml(s.status)})`}</h3>`,
    );
    parts.push(
      table(
        ['unknown', 'value'],
        Object.entries(s.unknowns).map(([k, v]) => [`<i>${escapeHtml(k)}</i>`, `<span class="num">${exact(v)}</span>`]),
        'values',
      ),
    );
    parts.push(
      table(
        ['boundary condition', 'residual'],
        Object.entries(s.residuals).map(([k, v]) => [
          `<code>${escapeHtml(k)}</code>`,
          `<span class="num">${exact(v)}</span>`,
        ]),
        'values',
      ),
    );
    const names = Object.keys(s.unknowns);
    parts.push(
      table(
        ['k', ...names.map((n) => `<i>${escapeHtml(n)}</i>`), 'max |residual|', 'Jacobian'],
        s.iterations.map((it) => [
          String(it.k),
          ...names.map((n) => exact(it.unknowns[n])),
          exact(it.residualNorm),
          it.jacobian ?? '',
        ]),
        'values iterations',
      ),
    );
    parts.push(`<p class="muted">${s.residualEvaluations} shots, ${s.jacobianEvaluations} difference Jacobian(s).</p>`);
    for (const w of s.warnings) parts.push(`<p class="warning">${escapeHtml(w)}</p>`);
  }
  const r = d.summary;
  if (r) {
    parts.push(`<h3>Final values at ${escapeHtml(d.independent)} = ${exact(r.final[d.independent] ?? d.t)}</h3>`);
    parts.push(
      table(
        ['variable', 'value'],
        Object.entries(r.final)
          .filter(([k]) => k !== d.independent)
          .map(([k, v]) => [`<i>${escapeHtml(k)}</i>`, `<span class="num">${exact(v)}</span>`]),
        'values final',
      ),
    );
    const st = r.stats;
    const method = st.method ? `, method ${escapeHtml(st.method)}` : '';
    parts.push(
      `<p class="muted">${st.steps} steps (${st.rejected} rejected), ${st.rhsEvaluations} evaluations of the right-hand side, ${st.events} events${method}; ${d.rowCount} rows.</p>`,
    );
    for (const w of r.warnings) parts.push(`<p class="warning">${escapeHtml(w)}</p>`);
  } else if (d.state !== 'running') {
    parts.push('<p class="muted">No final values: the run did not end by itself.</p>');
  }
  return parts.join('\n');
}
