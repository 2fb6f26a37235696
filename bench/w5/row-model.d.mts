/** Types of row-model.mjs (the W5 model generator and its exact impact count). */
export function velocities(n: number): number[];
export function rowModel(n: number, tEnd: number): string;
export function exactHits(n: number, tEnd: number): number;
export function rowArrayModel(pool?: number, n?: number, tEnd?: number): string;
export const ROW_ARRAY_BODY: string;
