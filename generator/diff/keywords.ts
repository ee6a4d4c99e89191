/**
 * How the diff treats each schema keyword. Anything not listed in one of these sets (and
 * not handled structurally by compare-schema.ts) is compared as a whole and reported as a
 * breaking `schema-changed`: an unknown difference is never silently dropped.
 */

/** Prose only: changing these alters JSDoc, never what a program can observe. */
export const DOC_KEYWORDS = [
  "description",
  "title",
  "examples",
  "$comment",
  "x-docs-ignore",
] as const;

/**
 * Lenient-parsing annotations: the generated `parse<Name>` functions repair or drop bad
 * input where these say so. Adding one makes parsing more forgiving; removing one makes it
 * reject input it used to accept, which breaks readers.
 */
export const PARSING_KEYWORDS = [
  "x-deserialize-default-on-error",
  "x-deserialize-skip-invalid-items",
  "x-deserialize-default-on-null",
] as const;

/** Annotations that neither validate nor shape the TypeScript types. */
export const OTHER_ANNOTATION_KEYWORDS = [
  "discriminator",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "$schema",
  "$id",
  "$anchor",
] as const;

/** Method annotations: reported by the method comparison, so skipped inside definitions. */
export const METHOD_KEYWORDS = ["x-side", "x-method"] as const;

/** Lower bounds: raising one (or adding it) rejects values builders used to send. */
export const LOWER_BOUNDS = [
  "minimum",
  "exclusiveMinimum",
  "minLength",
  "minItems",
  "minProperties",
  "minContains",
] as const;

/** Upper bounds: lowering one (or adding it) rejects values builders used to send. */
export const UPPER_BOUNDS = [
  "maximum",
  "exclusiveMaximum",
  "maxLength",
  "maxItems",
  "maxProperties",
  "maxContains",
] as const;

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

/** Keywords compare-schema.ts reads itself (types, composition, objects, arrays). */
export const STRUCTURAL_KEYWORDS = [
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

const ANNOTATIONS = new Set<string>([
  ...DOC_KEYWORDS,
  ...PARSING_KEYWORDS,
  ...OTHER_ANNOTATION_KEYWORDS,
  ...METHOD_KEYWORDS,
  "deprecated",
  "default",
]);

/** True for keywords that never affect which instances are valid. */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith("x-");
}

const HANDLED = new Set<string>([
  ...ANNOTATIONS,
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...OTHER_CONSTRAINTS,
  ...STRUCTURAL_KEYWORDS,
  // Sub-schema containers compare-schema.ts does not descend into; `$defs` inside a
  // definition is unused by the generator, and each top-level definition is compared on its own.
  "$defs",
  "definitions",
]);

/** Keywords nothing else compares: they fall back to a whole-value, breaking comparison. */
export function isUnhandled(keyword: string): boolean {
  return !HANDLED.has(keyword) && !keyword.startsWith("x-");
}
