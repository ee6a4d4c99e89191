import fc from "fast-check";
import type { SurfaceModel } from "../../generator/model/protocol.js";
import { isObject, type Json, type JsonObject } from "../../generator/schema/json.js";
import { type ReferenceAjv, referenceAjv } from "../support/reference-ajv.js";

const CONTAINER = "acp-test:surface";

/** A copy of a schema with every local `$ref` (`#/…`) pointing into the container instead. */
function anchored(node: Json): Json {
  if (Array.isArray(node)) return node.map(anchored);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node))
    out[key] =
      key === "$ref" && typeof value === "string" && value.startsWith("#/")
        ? `${CONTAINER}${value}`
        : anchored(value);
  return out;
}

/**
 * Judges any subschema of a surface at test time with the tests' own reference validator
 * (support/reference-ajv.ts), not the generator's: references point into the surface's
 * definitions, held in one container schema.
 */
export class SchemaChecker {
  private readonly cache = new Map<string, (value: unknown) => boolean>();

  private constructor(private readonly ajv: ReferenceAjv) {}

  static async for(surface: SurfaceModel): Promise<SchemaChecker> {
    const ajv = referenceAjv();
    const defs: JsonObject = {};
    for (const def of surface.definitions) defs[def.key] = def.schema;
    ajv.addSchema(anchored({ [surface.defsKeyword]: defs }) as object, CONTAINER);
    return new SchemaChecker(ajv);
  }

  check(schema: Json): (value: unknown) => boolean {
    const key = JSON.stringify(schema);
    let fn = this.cache.get(key);
    if (!fn) {
      const compiled = this.ajv.compile(anchored(isObject(schema) ? schema : {}) as object);
      fn = (value) => compiled(value) as boolean;
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** Whether a value is valid under one of the surface's definitions. */
  definition(key: string, defsKeyword: string): (value: unknown) => boolean {
    return this.check({ $ref: `#/${defsKeyword}/${key}` });
  }
}

/** Integer ranges of the ACP formats, kept small enough to stay exact doubles. */
const INTEGER_FORMATS: Record<string, [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  int64: [-1e9, 1e9],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  uint64: [0, 1e9],
  uint: [0, 1e9],
};

const STRING_FORMATS: Record<string, string[]> = {
  "date-time": ["2025-01-02T03:04:05Z", "2024-12-31T23:59:59.999Z"],
  date: ["2025-01-02"],
  uri: ["https://example.com/a", "file:///tmp/x.txt"],
  "uri-reference": ["/a/b", "https://example.com"],
  regex: ["^a+$"],
};

/** Below this many nested `$ref`s, arrays are empty and optional properties left out. */
const MAX_DEPTH = 4;

/**
 * fast-check arbitraries for the definitions of one surface, derived from the schema: mostly
 * valid values (every variant of every union, optional properties present or not). Exact
 * validity is not the point; the tests compare implementations on whatever comes out.
 */
export class SchemaArbitraries {
  private readonly byDef = new Map<string, fc.Arbitrary<unknown>>();
  private readonly defs: Map<string, Json>;

  constructor(
    private readonly surface: SurfaceModel,
    private readonly checker: SchemaChecker,
  ) {
    this.defs = new Map(surface.definitions.map((d) => [d.key, d.schema]));
  }

  definition(key: string, depth = 0): fc.Arbitrary<unknown> {
    const bucket = `${key}@${Math.min(depth, MAX_DEPTH + 1)}`;
    let arb = this.byDef.get(bucket);
    if (!arb) {
      // Built on first use, so recursive definitions build one level at a time.
      let inner: fc.Arbitrary<unknown> | undefined;
      arb = fc.constant(null).chain(() => {
        inner ??= this.of(this.defs.get(key) ?? {}, depth + 1);
        return inner;
      });
      this.byDef.set(bucket, arb);
    }
    return arb;
  }

  of(schema: Json, depth: number): fc.Arbitrary<unknown> {
    if (schema === true || !isObject(schema)) return fc.jsonValue({ maxDepth: 1 });
    if (typeof schema.$ref === "string") {
      const key = schema.$ref.slice(this.surface.defsKeyword.length + 3);
      const target = this.definition(key, depth);
      return this.mergeWithRest(schema, "$ref", target, depth);
    }
    if (Object.hasOwn(schema, "const")) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);

    // The schema's own shape, unless it only combines others (`{"allOf": [{"$ref": …}]}`).
    const shaped = ["type", "properties", "items", "additionalProperties"].some((k) =>
      Object.hasOwn(schema, k),
    );
    const parts: Array<fc.Arbitrary<unknown>> = [];
    const union = Array.isArray(schema.oneOf)
      ? schema.oneOf
      : Array.isArray(schema.anyOf)
        ? schema.anyOf
        : undefined;
    if (shaped && (!union || isObject(schema.properties))) parts.push(this.own(schema, depth));
    if (union) parts.push(fc.oneof(...union.map((b) => this.of(b, depth))));
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) parts.push(this.of(part, depth));
    let arb: fc.Arbitrary<unknown> =
      parts.length === 0
        ? fc.jsonValue({ maxDepth: 1 })
        : parts.length === 1
          ? (parts[0] as fc.Arbitrary<unknown>)
          : fc.tuple(...parts).map((values) => values.reduce(merge));
    if (isObject(schema.not)) {
      const excluded = this.checker.check(schema.not);
      arb = arb.filter((v) => !excluded(v));
    }
    return arb;
  }

  /** `$ref` beside other keywords (older releases): both apply. */
  private mergeWithRest(
    schema: JsonObject,
    drop: string,
    target: fc.Arbitrary<unknown>,
    depth: number,
  ): fc.Arbitrary<unknown> {
    const { [drop]: _unused, ...rest } = schema;
    // Only what constrains a value counts: a `description` or `default` beside the `$ref` does not.
    const constraining = Object.keys(rest).filter(
      (k) =>
        !["description", "title", "default", "examples", "$comment"].includes(k) &&
        !k.startsWith("x-"),
    );
    if (constraining.length === 0) return target;
    return fc.tuple(target, this.of(rest, depth)).map(([a, b]) => merge(a, b));
  }

  /** A value from the schema's own `type` (and properties, items…). */
  private own(schema: JsonObject, depth: number): fc.Arbitrary<unknown> {
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : typeof schema.type === "string"
        ? [schema.type]
        : isObject(schema.properties)
          ? ["object"]
          : isObject(schema.items)
            ? ["array"]
            : ["object"];
    return fc.oneof(...types.map((t) => this.ofType(t, schema, depth)));
  }

  private ofType(type: string, schema: JsonObject, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "string": {
        const format =
          typeof schema.format === "string" ? STRING_FORMATS[schema.format] : undefined;
        if (format) return fc.constantFrom(...format);
        if (typeof schema.pattern === "string")
          return fc.stringMatching(new RegExp(schema.pattern));
        return fc.string({ minLength: Number(schema.minLength ?? 0), maxLength: 6 });
      }
      case "integer":
      case "number": {
        const [fmin, fmax] =
          typeof schema.format === "string" && INTEGER_FORMATS[schema.format]
            ? (INTEGER_FORMATS[schema.format] as [number, number])
            : [-1e6, 1e6];
        const min = Math.max(fmin, typeof schema.minimum === "number" ? schema.minimum : fmin);
        const max = Math.min(fmax, typeof schema.maximum === "number" ? schema.maximum : fmax);
        if (type === "integer") return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
        return fc
          .double({ min, max, noNaN: true, noDefaultInfinity: true })
          .map((n) => (Object.is(n, -0) ? 0 : n));
      }
      case "array": {
        const items = isObject(schema.items)
          ? this.of(schema.items, depth)
          : fc.jsonValue({ maxDepth: 1 });
        const minLength = Number(schema.minItems ?? 0);
        const maxLength = depth > MAX_DEPTH ? minLength : Math.max(minLength, 3);
        return fc.array(items, { minLength, maxLength });
      }
      default:
        return this.object(schema, depth);
    }
  }

  private object(schema: JsonObject, depth: number): fc.Arbitrary<unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, sub] of Object.entries(properties)) {
      if (!required.has(name) && depth > MAX_DEPTH) continue;
      model[name] = this.of(sub, depth);
    }
    let arb: fc.Arbitrary<unknown> = fc.record(model, {
      requiredKeys: [...required].filter((r) => r in model),
    });
    const extra = schema.additionalProperties;
    if (Object.keys(properties).length === 0 && (extra === true || extra === undefined)) {
      // A free-form map (`_meta`, raw tool input): small JSON under a few keys.
      arb = fc.dictionary(fc.constantFrom("a", "b", "key"), fc.jsonValue({ maxDepth: 1 }), {
        maxKeys: 2,
      });
    } else if (isObject(extra)) {
      const values = fc.dictionary(fc.constantFrom("x", "y", "z"), this.of(extra, depth), {
        maxKeys: depth > MAX_DEPTH ? 0 : 2,
      });
      arb = fc.tuple(arb, values).map(([a, b]) => merge(b, a));
    }
    return arb;
  }
}

/** Objects are merged (later parts win); anything else: the later part. */
function merge(a: unknown, b: unknown): unknown {
  if (isObject(a as Json) && isObject(b as Json)) return { ...(a as object), ...(b as object) };
  return b;
}
