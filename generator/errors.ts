/**
 * Errors a user can cause. Each one renders as a single line naming the file and the
 * JSON pointer inside it, so CI logs point straight at the offending spot.
 */
export class InputError extends Error {
  override readonly name = "InputError";
  constructor(
    /** Path of the offending file as the user would type it (relative where possible). */
    readonly file: string,
    /** RFC 6901 JSON pointer inside the file; "" for the whole document. */
    readonly pointer: string,
    readonly detail: string,
  ) {
    super(`${file}#${pointer}: ${detail}`);
  }
}

/** Collapse any message to one printable line: error output is read in CI logs. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}
