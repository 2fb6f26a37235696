/**
 * The model or the options cannot be shot as asked (no unknowns, a condition count that does
 * not match, bounds that name no unknown). `usage`: the caller's options alone are at fault
 * (bounds that name no unknown, or leave no room), whatever the model: on the command line a
 * usage error (exit 2), as a `--set` that names no parameter is, not a model error (exit 1).
 */
export class ShootInputError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}
