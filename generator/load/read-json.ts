import { readFileSync } from "node:fs";
import {
  getLocation,
  type ParseError,
  parse as parseTolerant,
  printParseErrorCode,
} from "jsonc-parser";
import { InputError } from "../errors.js";
import { pointer } from "../schema/pointer.js";

/**
 * Read and parse a JSON file. Acceptance is decided by the strict `JSON.parse`; the
 * tolerant jsonc parser is only used after a failure, to name where the document broke
 * as a JSON pointer and a line/column.
 */
export function readJsonFile(path: string, displayPath: string): { value: unknown; text: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory"
          : `cannot read (${code ?? String(error)})`;
    throw InputError.about(displayPath, why);
  }
  try {
    return { value: JSON.parse(text), text };
  } catch (error) {
    throw new InputError(
      displayPath,
      locateSyntaxError(text),
      `invalid JSON: ${describeSyntaxError(text, error)}`,
    );
  }
}

function firstParseError(text: string): ParseError | undefined {
  const errors: ParseError[] = [];
  parseTolerant(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  return errors[0];
}

function locateSyntaxError(text: string): string {
  const first = firstParseError(text);
  if (!first) return "";
  const path = getLocation(text, first.offset).path.map((p) => String(p));
  // After a trailing comma the parser is "inside" an unnamed next member: point at the object.
  if (path.at(-1) === "") path.pop();
  return pointer(...path);
}

function describeSyntaxError(text: string, error: unknown): string {
  const first = firstParseError(text);
  if (!first) return error instanceof Error ? error.message : String(error);
  const before = text.slice(0, first.offset);
  const line = before.split("\n").length;
  const column = first.offset - before.lastIndexOf("\n");
  return `${printParseErrorCode(first.error)} at line ${line} column ${column}`;
}
