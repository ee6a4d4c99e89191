import type { Json } from "../schema/json.js";
import { UNEVALUATED_KEYWORDS } from "../schema/keywords.js";
import { forEachJson, forEachSchema } from "../schema/walk.js";

/** Formats that constrain nothing here: format is an annotation in 2020-12, as in the reference implementation. */
export const ANNOTATION_FORMATS = [
  "double",
  "float",
  "uri",
  "uri-reference",
  "date-time",
  "date",
  "time",
  "regex",
  "uuid",
  "email",
  "hostname",
];

/** A numeric format the runtime checks (templates/runtime/formats.ts), as ajv takes it. */
export interface NumberFormat {
  type: "number";
  validate: (n: number) => boolean;
}

/**
 * Formats used in `schema` that neither the runtime checks nor the specification lists as
 * annotations, in the order first met: ajv's strict mode needs them declared (as
 * annotations, which is what an unknown format is).
 */
export function unknownFormats(schema: Json, formats: Record<string, NumberFormat>): string[] {
  const found = new Set<string>();
  forEachSchema(schema, (node) => {
    const format = node.format;
    if (
      typeof format === "string" &&
      !Object.hasOwn(formats, format) &&
      !ANNOTATION_FORMATS.includes(format)
    )
      found.add(format);
  });
  return [...found];
}

/** Keywords whose checks need ajv's evaluated-property and dynamic-anchor bookkeeping. */
const EVALUATION_KEYWORDS: readonly string[] = [...UNEVALUATED_KEYWORDS, "$dynamicRef"];

/**
 * True when some object in `schemas` has a key that needs ajv's evaluation bookkeeping.
 * Property names and data count too: a false positive only keeps the bookkeeping.
 */
export function needsEvaluation(schemas: Json): boolean {
  let found = false;
  forEachJson(schemas, (_node, path) => {
    const key = path.at(-1);
    if (typeof key === "string" && EVALUATION_KEYWORDS.includes(key)) found = true;
  });
  return found;
}
