/** A mistake of the user (a path, an option): printed as one `chainlab: error:` line, exit 1, no stack. */
export class UsageError extends Error {}
