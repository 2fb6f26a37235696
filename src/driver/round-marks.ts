/**
 * A set of small indices (watched functions, events, clock groups) emptied in O(1): each
 * member carries the stamp of the round it was added in, and `clear` starts a new round. For
 * sets filled afresh at each instant or event, where clearing all N entries would cost more
 * than the work (a row of 1024 spheres fires one pair's event at a time).
 */
export class RoundMarks {
  private readonly at: Int32Array;
  private round = 1;

  constructor(size: number) {
    this.at = new Int32Array(Math.max(1, size));
  }

  /** empties the set (every 2^31 rounds, by a fill: an Int32 stamp would wrap) */
  clear(): void {
    if (++this.round === 0x7fffffff) {
      this.at.fill(0);
      this.round = 1;
    }
  }

  add(i: number): void {
    this.at[i] = this.round;
  }

  /** takes i out (0 is no round's stamp) */
  delete(i: number): void {
    this.at[i] = 0;
  }

  has(i: number): boolean {
    return this.at[i] === this.round;
  }
}
