/** The model or the options cannot be shot as asked (no unknowns, a condition count that does not match). */
export class ShootInputError extends Error {}
