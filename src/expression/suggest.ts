/** "Did you mean": the name closest to a mistyped one, if it is close enough to be meant. */

/** Levenshtein distance between a and b. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * ` (did you mean x?)` for the closest candidate when it is fewer edits away than the name is
 * long, and at most a third of the name (at least one edit): 'ee' -> e, 'rtoll' -> rtol; a
 * one-letter name is never "meant" as another.
 */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  let best = '',
    bestDistance = Infinity;
  for (const c of candidates) {
    const dist = editDistance(name, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return bestDistance > 0 && bestDistance < name.length && bestDistance <= Math.max(1, Math.floor(name.length / 3))
    ? ` (did you mean ${best}?)`
    : '';
}
