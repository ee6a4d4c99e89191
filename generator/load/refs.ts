import { InputError } from "../errors.js";
import type { Json } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { refTarget } from "../schema/refs.js";
import { forEachJson } from "../schema/walk.js";

/**
 * Every `$ref` must be local (`#/$defs/Name`) and point at an existing definition: the
 * generated package has no way to fetch external documents, and a dangling ref would
 * silently become `unknown` in the types. Refs are checked wherever they are written, data
 * included: a `$ref` inside a `default` is read by some tools as a reference too.
 */
export function checkRefs(
  file: string,
  root: Json,
  defsKeyword: string,
  defs: Record<string, Json>,
): void {
  forEachJson(root, (value, path, inNames) => {
    if (inNames || path.at(-1) !== "$ref") return;
    const at = pointer(...path);
    if (typeof value !== "string") throw new InputError(file, at, "$ref must be a string");
    const prefix = `#/${defsKeyword}/`;
    if (!value.startsWith(prefix)) {
      throw new InputError(
        file,
        at,
        `unsupported $ref ${JSON.stringify(value)}: only local refs of the form ${prefix}Name are supported`,
      );
    }
    const target = refTarget(value, defsKeyword);
    if (target === undefined || !Object.hasOwn(defs, target))
      throw new InputError(file, at, `dangling $ref ${JSON.stringify(value)}: no such definition`);
  });
}
