/** The two ways a command fails: how it was called (exit 2) and what the server answered (exit 1). */
export class UsageError extends Error {}

export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}
