import type * as Runtime from "../../templates/runtime/parse.js";
import { canonical } from "../schema/equal.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { SUBSCHEMA_MAP_KEYWORDS, UNEVALUATED_KEYWORDS } from "../schema/keywords.js";
import { assertions, containsRef } from "../schema/node.js";

/**
 * Validity checks for subschemas that are not definitions (a property's schema, an array's
 * items, a union branch), as data. A check is composed from the definitions' own compiled
 * validators wherever the subschema refers to one, and from small ref-free schemas the
 * runtime reads as data: compiling each subschema whole would copy every definition it
 * reaches into a second megabyte-sized validator module, and compiling even the small ones
 * was a second set of validators in every bundle that parses.
 */
export type CheckSpec =
  /** The definition's compiled validator (`v<Name>` in validators.js). */
  | { kind: "ref"; def: string }
  /**
   * The definition's check under the open reading (unknown variants of closed unions
   * accepted), called through its index in `CheckTable.openBodies`: definitions form cycles.
   */
  | { kind: "open"; def: string }
  /**
   * A schema with no `$ref`, written as data the runtime reads (emit/schema-checks.ts); rarely,
   * one that cannot be split or read, compiled on its own.
   */
  | { kind: "local"; schema: JsonObject }
  | { kind: Combinator<"all" | "any" | "one">; of: number[] }
  | { kind: Combinator<"not">; of: number }
  /** Every item of an array (anything else passes: `items` only constrains arrays). */
  | { kind: Combinator<"items">; of: number }
  /** Every present property among `of` (anything but an object passes). */
  | { kind: Combinator<"props">; of: Array<[string, number]> }
  /** Every property not in `declared` (`additionalProperties` with a `$ref`). */
  | { kind: Combinator<"values">; of: number; declared: string[] }
  /**
   * An object whose own `property` is the string `value`: a tagged union's branch test, the
   * most common local schema by far, as one combinator call instead of a compiled function.
   */
  | { kind: Combinator<"tag">; property: string; value: string }
  /** An object whose own `property` is a string none of `known`: an open union's catch-all test. */
  | { kind: Combinator<"otherTag">; property: string; known: string[] };

/**
 * A composed check is written as a call to the runtime combinator of the same name
 * (templates/runtime/parse.ts): naming one the runtime does not export fails to compile.
 */
type Combinator<K extends keyof typeof Runtime> = keyof Pick<typeof Runtime, K>;

/** Keywords the decomposition may not split: their meaning depends on sibling keywords' results. */
const UNSPLITTABLE: ReadonlySet<string> = new Set(UNEVALUATED_KEYWORDS);

/**
 * The open reading of a surface: which definitions it reads differently, and each one's
 * schema as it reads it (a closed tagged union with a branch for unknown tags added).
 */
export interface OpenReading {
  reaches(def: string): boolean;
  schema(def: string): Json;
}

/** How a decomposition checks a reference to a definition. */
type RefCheck = (def: string) => number;

export class CheckTable {
  readonly specs: CheckSpec[] = [];
  /** Definition → the check index of its open check's body (`open` specs call these). */
  readonly openBodies = new Map<string, number>();
  private readonly index = new Map<string, number>();
  private readonly strictRef: RefCheck = (def) => this.add({ kind: "ref", def });
  private readonly openRef: RefCheck = (def) => {
    if (!this.open?.reaches(def)) return this.strictRef(def);
    this.openDef(def);
    return this.add({ kind: "open", def });
  };

  constructor(
    private readonly refToDef: (ref: string) => string | undefined,
    private readonly open?: OpenReading,
  ) {}

  /** The check for `schema`; `undefined` when the schema accepts everything. */
  of(schema: Json): number | undefined {
    return this.checkOf(schema, this.strictRef);
  }

  /**
   * The check for `schema` under the open reading: references to definitions that can hold
   * a closed tagged union accept its unknown variants. Without an open reading, `of`.
   */
  openOf(schema: Json): number | undefined {
    return this.checkOf(schema, this.openRef);
  }

  /** The body of a definition's open check (its validator where nothing is read differently). */
  openDef(def: string): number {
    if (!this.open?.reaches(def)) return this.strictRef(def);
    const known = this.openBodies.get(def);
    if (known !== undefined) return known;
    // Reserved first: the body refers back to the definition through `open` specs.
    this.openBodies.set(def, -1);
    const body = this.openOf(this.open.schema(def)) ?? this.always();
    this.openBodies.set(def, body);
    return body;
  }

  private checkOf(schema: Json, ref: RefCheck): number | undefined {
    if (schema === true || (isObject(schema) && Object.keys(assertions(schema)).length === 0))
      return undefined;
    if (schema === false || !isObject(schema))
      return this.add({ kind: "local", schema: { not: {} } });
    return this.decompose(assertions(schema), ref);
  }

  /** A check that passes everything, where an index is needed (a union branch of `{}`). */
  always(): number {
    return this.add({ kind: "local", schema: {} });
  }

  /** Every one of `checks` (undefined entries are "always true"). */
  all(checks: Array<number | undefined>): number | undefined {
    const of = checks.filter((c): c is number => c !== undefined);
    if (of.length === 0) return undefined;
    if (of.length === 1) return of[0];
    return this.add({ kind: "all", of });
  }

  private decompose(node: JsonObject, ref: RefCheck): number | undefined {
    if (!containsRef(node)) return this.add({ kind: "local", schema: node });
    // A keyword whose result depends on what its siblings evaluated, next to a `$ref`:
    // splitting would change the meaning, so the whole schema is compiled as is.
    if (Object.keys(node).some((k) => UNSPLITTABLE.has(k) && node[k] !== true))
      return this.add({ kind: "local", schema: node });

    const parts: Array<number | undefined> = [];
    const local: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const def = this.refToDef(value);
        if (def === undefined) return this.add({ kind: "local", schema: node });
        parts.push(ref(def));
      } else if (key === "allOf" && Array.isArray(value)) {
        for (const sub of value) parts.push(this.checkOf(sub, ref));
      } else if (
        (key === "anyOf" || key === "oneOf") &&
        Array.isArray(value) &&
        containsRef(value)
      ) {
        const of = value.map((sub) => this.checkOf(sub, ref) ?? this.always());
        parts.push(this.add({ kind: key === "anyOf" ? "any" : "one", of }));
      } else if (key === "not" && containsRef(value)) {
        parts.push(this.add({ kind: "not", of: this.checkOf(value, ref) ?? this.always() }));
      } else if (key === "items" && isObject(value) && containsRef(value)) {
        const of = this.checkOf(value, ref);
        if (of !== undefined) parts.push(this.add({ kind: "items", of }));
      } else if (
        key === "properties" &&
        isObject(value) &&
        Object.values(value).some(containsRef)
      ) {
        // Ref-free properties stay in the local part; the others become `true` there (so
        // `additionalProperties` still sees the names) and are checked by composition.
        const props: JsonObject = {};
        const of: Array<[string, number]> = [];
        for (const [name, sub] of Object.entries(value)) {
          if (containsRef(sub)) {
            props[name] = true;
            const check = this.checkOf(sub, ref);
            if (check !== undefined) of.push([name, check]);
          } else {
            props[name] = sub;
          }
        }
        local.properties = props;
        if (of.length > 0) parts.push(this.add({ kind: "props", of }));
      } else if (key === "additionalProperties" && isObject(value) && containsRef(value)) {
        if (node.patternProperties !== undefined) return this.add({ kind: "local", schema: node });
        const of = this.checkOf(value, ref);
        const declared = isObject(node.properties) ? Object.keys(node.properties) : [];
        if (of !== undefined) parts.push(this.add({ kind: "values", of, declared }));
      } else if (
        SUBSCHEMA_MAP_KEYWORDS.has(key)
          ? isObject(value) && Object.values(value).some(containsRef)
          : containsRef(value)
      ) {
        // prefixItems, contains, if/then/else, dependentSchemas…: not used by ACP; compile whole.
        return this.add({ kind: "local", schema: node });
      } else {
        local[key] = value;
      }
    }
    if (Object.keys(local).length > 0) parts.unshift(this.add({ kind: "local", schema: local }));
    return this.all(parts);
  }

  private add(given: CheckSpec): number {
    const spec = given.kind === "local" ? (tagTest(given.schema) ?? given) : given;
    const key = canonical(spec as unknown as Json);
    const known = this.index.get(key);
    if (known !== undefined) return known;
    this.specs.push(spec);
    this.index.set(key, this.specs.length - 1);
    return this.specs.length - 1;
  }
}

/**
 * The `tag` or `otherTag` spec a local schema means, when it is exactly one of
 * `{type: "object", properties: {P: {type: "string", const: V}}, required: [P]}` (a tagged
 * union's branch test, the most common local schema by far) or the catch-all's
 * `{…, properties: {P: {type: "string", not: {enum: [V…]}}}, …}` (with or without
 * `additionalProperties: true`); any other keyword, or a constant that is not a string,
 * keeps the schema local. Both check an own property, as the compiled validators do.
 */
function tagTest(schema: JsonObject): CheckSpec | undefined {
  const required = schema.required;
  if (!Array.isArray(required) || required.length !== 1) return undefined;
  const property = required[0];
  if (typeof property !== "string" || !isObject(schema.properties)) return undefined;
  const value = schema.properties[property];
  if (!isObject(value)) return undefined;
  const shaped = (tagSchema: JsonObject, extra: JsonObject = {}): boolean =>
    canonical(schema) ===
    canonical({
      type: "object",
      properties: { [property]: { type: "string", ...tagSchema } },
      required: [property],
      ...extra,
    });
  if (typeof value.const === "string" && shaped({ const: value.const }))
    return { kind: "tag", property, value: value.const };
  const known = isObject(value.not) ? value.not.enum : undefined;
  if (
    Array.isArray(known) &&
    known.every((k): k is string => typeof k === "string") &&
    ([{}, { additionalProperties: true }] as JsonObject[]).some((extra) =>
      shaped({ not: { enum: known } }, extra),
    )
  )
    return { kind: "otherTag", property, known };
  return undefined;
}

/** A check spec with each reference to another check of its table passed through `f`. */
export function mapCheckRefs(spec: CheckSpec, f: (index: number) => number): CheckSpec {
  switch (spec.kind) {
    case "all":
    case "any":
    case "one":
      return { kind: spec.kind, of: spec.of.map(f) };
    case "not":
    case "items":
      return { kind: spec.kind, of: f(spec.of) };
    case "props":
      return { kind: spec.kind, of: spec.of.map(([name, c]) => [name, f(c)]) };
    case "values":
      return { kind: spec.kind, of: f(spec.of), declared: spec.declared };
    default:
      return spec;
  }
}
