/**
 * State events fired while an explicit method ran at the border of its stability region
 * (dopri5's and dop853's stiffness test, integrators/stiffness-test.ts). There the stiff
 * components oscillate at the tolerance from step to step, and a function crossing zero
 * slowly is carried back and forth across it: y' = −1e6 (y − sin t) with `y − 0.999 rises`
 * near a peak of sin gave 11 crossings on dopri5 at rtol 1e-6 (exact: 1) and 9732 on dop853.
 * The method is the user's choice, so the run is not stopped: its result says so.
 */
import type { Stepper } from '../integrators/stepper.js';
import type { CompiledModel } from '../codegen/compile.js';

export class StiffEvents {
  private first = NaN;
  private count = 0;

  begin(): void {
    this.first = NaN;
    this.count = 0;
  }

  /**
   * An instant at `at` fired `fired`: counts it if a state event is among them and the method
   * has looked stiff at one of them (from then on: each instant restarts the stepper with
   * short steps, which clear its test for a while, while the oscillation goes on).
   */
  note(stepper: Stepper, model: CompiledModel, at: number, fired: readonly number[]): void {
    if (!fired.some((e) => model.events[e].watchIndex >= 0)) return;
    if (this.first !== this.first) {
      if (!(stepper as Stepper & { looksStiff?: boolean }).looksStiff) return;
      this.first = at;
    }
    this.count++;
  }

  /** The run's warning, or null. */
  warning(stepper: Stepper, independent: string): string | null {
    if (this.count === 0) return null;
    const times = this.count === 1 ? 'a state event' : `${this.count} state events`;
    return `${times} fired from ${independent} = ${this.first} on, where ${stepper.method} was held at the border of its stability region (the problem looks stiff there): the stiff components oscillate at the tolerance from step to step, so a crossing in a slow stretch can be counted more than once or missed. Run it with --method auto or rodas (implicit), which follow the slow solution`;
  }
}
