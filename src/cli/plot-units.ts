/**
 * Units on a plot's axes, where the model states them in a comment of its own:
 *
 *     # units: t s, h m, h' m/s, g m/s^2
 *
 * (any line of the model; several such lines add up). Each comma-separated entry is a name as
 * the model writes it (`h'`, `x[2]`) and, after a space, its unit. The language does not read
 * comments, so a model with units runs as before; the plot's axes then say `h (m)`, `t (s)`.
 */

const LINE = /^\s*#\s*units?\s*:(.*)$/i;
const ENTRY = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?'*)\s+(\S.*?)\s*$/;

/** The units a model's `# units:` comments give, by name. */
export function unitsOf(source: string): Map<string, string> {
  const units = new Map<string, string>();
  for (const line of source.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    for (const entry of m[1].split(/,(?![^[\]]*\])/)) {
      const e = ENTRY.exec(entry);
      if (e) units.set(e[1].replace(/\s+/g, ''), e[2]);
    }
  }
  return units;
}

/** `h (m)` when h has a unit, else `h`. */
export function withUnit(name: string, units: ReadonlyMap<string, string> | undefined): string {
  const unit = units?.get(name);
  return unit ? `${name} (${unit})` : name;
}

/** Names with their units: one unit for all when they share it (`x1', x2' (m/s)`). */
export function namesWithUnits(names: readonly string[], units: ReadonlyMap<string, string> | undefined): string[] {
  if (!units || names.length === 0) return [...names];
  const first = units.get(names[0]);
  if (names.length > 1 && first && names.every((n) => units.get(n) === first))
    return [...names.slice(0, -1), `${names[names.length - 1]} (${first})`];
  return names.map((n) => withUnit(n, units));
}
