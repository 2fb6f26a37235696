/**
 * import() of a package for the command line. The executable (launch.ts) runs the command
 * line's bundle as a vm script, which cannot import() (Node 20 has no stable hook for it), so
 * it lends the import of a real module under a well-known symbol; run any other way (tests,
 * the bundle run directly) this is the plain import().
 */
const LENT = Symbol.for('deltastep.importModule');

export function importModule<T>(specifier: string): Promise<T> {
  const lent = (globalThis as Record<symbol, unknown>)[LENT] as ((s: string) => Promise<unknown>) | undefined;
  return (lent ? lent(specifier) : import(specifier)) as Promise<T>;
}

/** What launch.ts calls to lend its import(). */
export function lendImport(importer: (specifier: string) => Promise<unknown>): void {
  (globalThis as Record<symbol, unknown>)[LENT] = importer;
}
