/**
 * Errors a user can cause. Each one renders as a single line naming the file and the
 * JSON pointer inside it, so CI logs point straight at the offending spot.
 */
export class InputError extends Error {
  override readonly name = "InputError";
  constructor(
    /** Path of the offending file as the user would type it (relative where possible). */
    readonly file: string,
    /**
     * RFC 6901 JSON pointer inside the file; "" for the whole document; undefined when the
     * subject is not a JSON document (a folder, an option, a file that is not JSON), which
     * then has no `#` after its name.
     */
    readonly pointer: string | undefined,
    readonly detail: string,
  ) {
    super(`${file}${pointer === undefined ? "" : `#${pointer}`}: ${detail}`);
  }

  /** An error about something that is not a JSON document: `--pkg-version: …`, `schemas: …`. */
  static about(subject: string, detail: string): InputError {
    return new InputError(subject, undefined, detail);
  }
}

/** Collapse any message to one printable line: error output is read in CI logs. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}
