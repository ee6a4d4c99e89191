import type { InterpretedKeyword } from "../../templates/runtime/schema-check.js";
import { isObject, type Json } from "../schema/json.js";
import { someSchema } from "../schema/walk.js";

/**
 * The keywords the runtime reads from a subschema check written as data
 * (templates/runtime/schema-check.ts); checked against its table both ways, so a keyword
 * either side lacks fails to compile.
 */
const INTERPRETED_KEYWORDS = {
  type: true,
  const: true,
  enum: true,
  required: true,
  properties: true,
  patternProperties: true,
  additionalProperties: true,
  propertyNames: true,
  minProperties: true,
  maxProperties: true,
  dependentRequired: true,
  dependentSchemas: true,
  prefixItems: true,
  items: true,
  minItems: true,
  maxItems: true,
  uniqueItems: true,
  contains: true,
  minContains: true,
  maxContains: true,
  minLength: true,
  maxLength: true,
  pattern: true,
  minimum: true,
  maximum: true,
  exclusiveMinimum: true,
  exclusiveMaximum: true,
  multipleOf: true,
  format: true,
  allOf: true,
  anyOf: true,
  oneOf: true,
  not: true,
  if: true,
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited.
  then: true,
  else: true,
} as const satisfies Record<InterpretedKeyword, true>;
const INTERPRETED: ReadonlySet<string> = new Set(Object.keys(INTERPRETED_KEYWORDS));

/**
 * True when the runtime can read `schema` (a parse check, as the parse-checks backend
 * prepared it) as data: every keyword at every schema position is one it reads, and `items`
 * is one schema (2020-12), not a draft-07 list. A reference, `unevaluated*` or `$dynamicRef`
 * keeps the check compiled: the first calls another schema, the others need what the
 * schemas beside them evaluated.
 */
export function interpretable(schema: Json): boolean {
  if (typeof schema === "boolean") return true;
  if (!isObject(schema)) return false;
  return !someSchema(
    schema,
    (node) => Array.isArray(node.items) || Object.keys(node).some((k) => !INTERPRETED.has(k)),
  );
}
