import { InputError } from "../errors.js";
import type { Json } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { forEachJson } from "../schema/walk.js";

/** Deeper than any real schema by an order of magnitude; deep enough to be deliberate. */
export const MAX_DEPTH = 64;

/**
 * Checks on the raw document that protect the generator and the code it writes, before
 * anything else reads it:
 * - `__proto__` as a key: JSON.parse keeps it as an own property, but any copy made with
 *   an assignment turns it into a prototype change, in our code or in a library's;
 * - nesting beyond MAX_DEPTH: every stage recurses over the schema, and a stack overflow
 *   must be a clear error, not a crash.
 */
export function checkDocument(file: string, root: Json): void {
  forEachJson(root, (_value, path) => {
    if (path.at(-1) === "__proto__")
      throw new InputError(
        file,
        pointer(...path),
        'the key "__proto__" is not supported: it would change an object\'s prototype',
      );
    if (path.length > MAX_DEPTH)
      throw new InputError(file, pointer(...path), `nested more than ${MAX_DEPTH} levels deep`);
  });
}

/**
 * A `pattern` must compile as a Unicode regular expression (how ajv compiles it), and must
 * not be open to catastrophic backtracking: a validator that takes exponential time on a
 * crafted string is a denial of service for every peer that uses the package.
 */
export function checkPattern(file: string, at: string, pattern: unknown): void {
  if (typeof pattern !== "string")
    throw new InputError(file, at, `pattern must be a string, found ${typeof pattern}`);
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    throw new InputError(
      file,
      at,
      `invalid pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`,
    );
  }
  if (hasNestedQuantifier(pattern)) {
    throw new InputError(
      file,
      at,
      `pattern ${JSON.stringify(pattern)} repeats a group that itself repeats (catastrophic backtracking); rewrite it without nested quantifiers`,
    );
  }
}

/**
 * True when a group that contains an unbounded quantifier is itself quantified without
 * bound (`(a+)+`, `(\w*)*`, `(?:x+y)*`): the classic exponential-backtracking shape.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  const stack: boolean[] = []; // per open group: does it contain an unbounded quantifier?
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.pop() ?? false;
      const next = unboundedQuantifierAt(pattern, i + 1);
      if (inner && next) return true;
      if ((inner || next) && stack.length > 0) stack[stack.length - 1] = true;
    } else if (unboundedQuantifierAt(pattern, i) && stack.length > 0) {
      stack[stack.length - 1] = true;
    }
  }
  return false;
}

function unboundedQuantifierAt(pattern: string, i: number): boolean {
  const c = pattern[i];
  if (c === "*" || c === "+") return true;
  if (c === "{")
    return /^\{\d*,\}/.test(pattern.slice(i)) || /^\{\d*,\d{3,}\}/.test(pattern.slice(i));
  return false;
}
