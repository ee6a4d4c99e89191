import { isObject, type Json } from "../../generator/schema/json.js";
import type { SchemaChecker } from "./arbitrary.js";

/**
 * The tests' own reading of which keys each object of a valid value keeps, as serde reads
 * it: an object whose schemas (the position's schema with its references, `allOf` parts and
 * the union branches the value takes) declare properties is a struct, and keeps only those;
 * one whose schemas admit other keys (`additionalProperties`, a free-form `{}`) keeps any.
 * Written apart from the generator's (schema/node.ts, model/shape-plan.ts), to check it.
 */
export interface Position {
  /** JSON pointer tokens to the object. */
  path: Array<string | number>;
  /** The schemas other keys' values must match, when the object admits other keys. */
  others?: Json[];
}

export class Positions {
  constructor(
    private readonly defs: ReadonlyMap<string, Json>,
    private readonly checker: SchemaChecker,
  ) {}

  /** Every object of `value` (valid under `schema`), with what it admits. */
  of(value: unknown, schema: Json): Position[] {
    const out: Position[] = [];
    this.visit(value, [schema], [], out);
    return out;
  }

  private visit(value: unknown, schemas: Json[], path: Array<string | number>, out: Position[]) {
    const all = this.expand(value, schemas, new Set());
    if (Array.isArray(value)) {
      const items = all.flatMap((s) =>
        isObject(s) && s.items !== undefined ? [s.items as Json] : [],
      );
      for (const [i, item] of value.entries())
        this.visit(item, items.length > 0 ? items : [true], [...path, i], out);
      return;
    }
    if (!isObject(value as Json)) return;
    const record = value as Record<string, unknown>;
    const declared = new Map<string, Json[]>();
    const others: Json[] = [];
    let struct = false;
    for (const s of all) {
      if (s === true || (isObject(s) && isFree(s))) others.push(true);
      if (!isObject(s)) continue;
      if (isObject(s.properties)) {
        struct = true;
        for (const [k, sub] of Object.entries(s.properties))
          declared.set(k, [...(declared.get(k) ?? []), sub as Json]);
      }
      if (s.additionalProperties !== undefined && s.additionalProperties !== false)
        others.push(s.additionalProperties as Json);
      if (s.unevaluatedProperties === true) others.push(true);
    }
    out.push(
      others.length > 0 || !struct
        ? { path, others: others.length > 0 ? others : [true] }
        : { path },
    );
    for (const [key, child] of Object.entries(record)) {
      const schemasOf = declared.get(key) ?? others;
      this.visit(child, schemasOf.length > 0 ? schemasOf : [true], [...path, key], out);
    }
  }

  /** The schemas that apply to `value`: through references, `allOf`, and the branch it takes. */
  private expand(value: unknown, schemas: Json[], seen: Set<Json>): Json[] {
    const out: Json[] = [];
    for (const s of schemas) {
      if (seen.has(s)) continue;
      seen.add(s);
      out.push(s);
      if (!isObject(s)) continue;
      if (typeof s.$ref === "string") {
        const target = this.defs.get(s.$ref.split("/").pop() as string);
        if (target !== undefined) out.push(...this.expand(value, [target], seen));
      }
      if (Array.isArray(s.allOf)) out.push(...this.expand(value, s.allOf, seen));
      for (const keyword of ["anyOf", "oneOf"] as const) {
        const branches = s[keyword];
        if (!Array.isArray(branches)) continue;
        // A valid sample: the first branch it satisfies is the one serde takes.
        const taken = branches.find((b) => this.checker.check(b)(value));
        if (taken !== undefined) out.push(...this.expand(value, [taken], seen));
      }
    }
    return out;
  }
}

/** A schema with nothing that describes a value: anything goes (`{}`, a description alone). */
function isFree(schema: Record<string, Json>): boolean {
  const describing = ["type", "properties", "items", "additionalProperties", "$ref", "allOf"];
  return ![...describing, "anyOf", "oneOf", "const", "enum"].some((k) => Object.hasOwn(schema, k));
}

/** A copy of `value` with `key: extra` added to the object at `path` (as own data). */
export function withKey(
  value: unknown,
  path: ReadonlyArray<string | number>,
  key: string,
  extra: unknown,
): unknown {
  const copy = structuredClone(value);
  let at: unknown = copy;
  for (const token of path) at = (at as Record<string | number, unknown>)[token];
  Object.defineProperty(at as object, key, {
    value: extra,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** No own `__proto__` key at any depth, and every object and array a plain one. */
export function plain(value: unknown): boolean {
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && value.every(plain);
  if (typeof value !== "object" || value === null) return true;
  return (
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "__proto__") &&
    Object.values(value).every(plain)
  );
}
