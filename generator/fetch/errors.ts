import { InputError } from "../errors.js";

/**
 * A source that cannot be fetched (npm refused, HTTP 404, a broken archive). It is an
 * InputError, so the CLI prints it as one line and exits 2, but it names the source as the
 * user typed it rather than a file and a JSON pointer, which such failures do not have.
 */
export class SourceError extends InputError {
  constructor(source: string, detail: string) {
    super(source, undefined, detail);
  }
}
