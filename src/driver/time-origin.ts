/**
 * The time origin: the stepper's t counts from hi + lo, which moves to every event and
 * restart. The absolute time of an event is kept in two doubles, so events closer together
 * than one ulp of t (a ball's last bounces before it comes to rest) are still located each
 * in its own flight, with full relative precision; the times reported are the nearest doubles.
 */
export class TimeOrigin {
  hi = 0;
  lo = 0;

  /** Puts the origin at the absolute time T exactly. */
  set(T: number): void {
    this.hi = T;
    this.lo = 0;
  }

  /** Absolute time of the stepper's t = tau. */
  abs(tau: number): number {
    return this.hi + (this.lo + tau);
  }

  /** The stepper's t for the absolute time T. */
  local(T: number): number {
    return T - this.hi - this.lo;
  }

  /** Moves the origin to the stepper's t = tau (exactly: a two-sum into hi + lo). */
  moveTo(tau: number): void {
    const hi = this.hi,
      sum = hi + tau;
    const back = sum - hi;
    const err = hi - (sum - back) + (tau - back);
    const lo = this.lo + err;
    this.hi = sum + lo;
    this.lo = lo - (this.hi - sum);
  }
}
