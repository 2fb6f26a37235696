/**
 * The strongly connected parts of a directed graph (Tarjan, 1972), without recursion: a row
 * of 16384 spheres, or a chain of ten thousand integrators, must not exhaust the call stack.
 *
 * Vertices are 0..n-1; `edges[v]` lists the vertices v depends on. The parts come out in
 * reverse topological order of the condensation: a part appears after every part it depends
 * on, which is the order in which closed forms can be derived.
 */
export function stronglyConnected(n: number, edges: readonly (readonly number[])[]): number[][] {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const parts: number[][] = [];
  // the depth-first search's own stack: a vertex and the next of its edges to follow
  const callV: number[] = [];
  const callE: number[] = [];
  let next = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    callV.push(root);
    callE.push(0);
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (callV.length > 0) {
      const top = callV.length - 1;
      const v = callV[top];
      const out = edges[v];
      if (callE[top] < out.length) {
        const w = out[callE[top]++];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          callV.push(w);
          callE.push(0);
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      // every edge of v followed: v closes a part if it is its own lowest link
      callV.pop();
      callE.pop();
      if (callV.length > 0) {
        const parent = callV[callV.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        const part: number[] = [];
        for (;;) {
          const w = stack.pop()!;
          onStack[w] = 0;
          part.push(w);
          if (w === v) break;
        }
        parts.push(part.sort((a, b) => a - b));
      }
    }
  }
  return parts;
}

/**
 * The connected parts of the graph with its edges taken both ways (union-find): vertices
 * that read one another, directly or through others, in one part. Returns the part of each
 * vertex, numbered 0.. in the order of each part's lowest vertex.
 */
export function connectedParts(n: number, edges: readonly (readonly number[])[]): Int32Array {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  for (let v = 0; v < n; v++)
    for (const w of edges[v]) {
      const a = find(v),
        b = find(w);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  const number = new Int32Array(n).fill(-1);
  const part = new Int32Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) {
    const r = find(v);
    if (number[r] < 0) number[r] = count++;
    part[v] = number[r];
  }
  return part;
}
