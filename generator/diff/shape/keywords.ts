import {
  ACP_KEYWORDS,
  ANNOTATION_KEYWORDS,
  LOWER_BOUNDS,
  UPPER_BOUNDS,
} from "../../schema/keywords.js";

/**
 * How the diff treats each schema keyword, on top of what the toolkit knows of it
 * (schema/keywords.ts). Anything not handled here, structurally or as a constraint, is
 * compared as a whole and reported as a breaking `schema-changed`: an unknown difference is
 * never silently dropped.
 */

/**
 * Identifiers, read as annotations: refs are local only, so an id never changes what a
 * schema accepts. (`$dynamicAnchor` is not among them: it changes what `$dynamicRef` means.)
 */
const IDENTIFIERS = ["$schema", "$id", "$anchor"];

/**
 * Restrictions without a direction we can compute: adding one narrows, removing one widens,
 * changing one may do either and so breaks both audiences.
 */
export const OTHER_CONSTRAINTS = [
  "pattern",
  "format",
  "multipleOf",
  "uniqueItems",
  "propertyNames",
  "contains",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "not",
  "if",
  "then",
  "else",
] as const;

/** Keywords shape/compare.ts reads itself (types, composition, objects, arrays). */
const STRUCTURAL_KEYWORDS = [
  "$ref",
  "allOf",
  "oneOf",
  "anyOf",
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
] as const;

/** True for keywords that never affect which instances are valid. */
export function isAnnotation(keyword: string): boolean {
  return (
    ANNOTATION_KEYWORDS.has(keyword) ||
    ACP_KEYWORDS.has(keyword) ||
    IDENTIFIERS.includes(keyword) ||
    keyword.startsWith("x-")
  );
}

const HANDLED = new Set<string>([
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...OTHER_CONSTRAINTS,
  ...STRUCTURAL_KEYWORDS,
  // Sub-schema containers the comparison does not descend into; `$defs` inside a
  // definition is unused by the generator, and each top-level definition is compared on its own.
  "$defs",
  "definitions",
]);

/** Keywords nothing else compares: they fall back to a whole-value, breaking comparison. */
export function isUnhandled(keyword: string): boolean {
  return !isAnnotation(keyword) && !HANDLED.has(keyword);
}
