import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { createAjv, loadFormats } from "../../generator/emit/ajv.js";
import { surfaceContexts } from "../../generator/emit/contexts.js";
import { interpretable } from "../../generator/emit/schema-checks.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import type { Json, JsonObject } from "../../generator/schema/json.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { type CheckSchema, schemaCheck } from "../../templates/runtime/schema-check.js";
import { InstanceGenerator, rng } from "../fuzz/instances.js";
import { heldReleases } from "../support/run.js";

/**
 * A parse plan's subschema checks are data the runtime reads (templates/runtime/schema-check.ts)
 * instead of a second set of compiled validators; they must decide exactly as ajv, configured
 * as the generated validators are, decides on the same schema. ajv is the oracle here: every
 * check every release we hold writes as data, on values shaped by each schema and on the
 * awkward values a wire or a caller can hand over; then every keyword the runtime reads, on
 * schemas no release has.
 */
const formats = await loadFormats();
const ajvCheck = (schema: Json): ((value: unknown) => boolean) => {
  // As the parse checks were compiled: strictTypes off (a branch no longer sees its parent's type).
  const ajv = createAjv(formats, [], { strictTypes: false });
  const validate = ajv.compile(schema as JsonObject);
  return (value) => validate(value) as boolean;
};

const AWKWARD: unknown[] = [
  null,
  undefined,
  true,
  0,
  -0,
  1.5,
  2 ** 64,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "x",
  "\u{1F600}",
  [],
  [null],
  {},
  Object.create(null),
  Object.create({ inherited: "x" }),
  JSON.parse('{"__proto__": {"a": 1}}'),
];

/** A label for any value, `Object.create(null)` and `undefined` included. */
const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};

/** `value` and variations on it: each own property dropped, nulled, made undefined, wrong-typed. */
function variations(value: unknown): unknown[] {
  const out: unknown[] = [value];
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
      out.push(
        rest,
        { ...rest, [key]: null },
        { ...rest, [key]: undefined },
        { ...rest, [key]: 7 },
      );
      out.push({ ...rest, [key]: "other" }, { ...rest, [key]: [] });
    }
    out.push({ ...(value as object), extra: 1 });
  }
  if (Array.isArray(value)) out.push([...value, 1], [...value, "s"], value.slice(1));
  return out;
}

describe("subschema checks read as data decide as the compiled validators", () => {
  const releases = heldReleases();
  it.each(releases)("%s: every check written as data", async (_label, dir) => {
    const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
    const symbols = buildSymbols(model);
    let compared = 0;
    for (const context of await surfaceContexts(model, symbols, new Diagnostics())) {
      const instances = new InstanceGenerator(context.facts.schemas as never, rng(7));
      // The checks each surface's files write (the base's on the stable side only).
      for (const schema of context.facts.parseChecks.checks.values()) {
        if (!interpretable(schema)) continue;
        const expected = ajvCheck(schema);
        const actual = schemaCheck(schema as CheckSchema);
        const values = [
          ...AWKWARD,
          ...Array.from({ length: 12 }, () => instances.sample(schema as never)).flatMap(
            variations,
          ),
        ];
        for (const value of values) {
          expect(actual(value), `${JSON.stringify(schema)} on ${show(value)}`).toBe(
            expected(value),
          );
          compared++;
        }
      }
    }
    // A release without subschema checks has nothing to compare; the vendored one has many.
    if (_label === "vendored") expect(compared).toBeGreaterThan(1000);
  });
});

describe("every keyword the runtime reads, against ajv", () => {
  const cases: Array<[schema: Json, values: unknown[]]> = [
    [{ type: "integer" }, [1, 1.5, -0, 2 ** 70, "1", Number.NaN, Number.POSITIVE_INFINITY]],
    [{ type: ["number", "null"] }, [1.5, null, Number.NaN, Number.NEGATIVE_INFINITY, "x"]],
    [{ const: { a: [1, { b: null }] } }, [{ a: [1, { b: null }] }, { a: [1, {}] }, [], null]],
    [{ enum: ["a", 1, null, [1], { k: 1 }] }, ["a", 1, null, [1], { k: 1 }, { k: 2 }, "b"]],
    [
      { required: ["a", "toString"], properties: { a: { type: "string" } } },
      [{ a: "x", toString: 1 }, { a: "x" }, { a: 1, toString: 1 }, { a: undefined, toString: 1 }],
    ],
    [
      { properties: { a: false }, additionalProperties: { type: "number" } },
      [{}, { a: 1 }, { b: 1 }, { b: "x" }, { a: undefined }, Object.create({ b: "x" })],
    ],
    [
      { patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
      [{ "x-a": "s" }, { "x-a": 1 }, { y: 1 }, {}],
    ],
    [{ propertyNames: { maxLength: 2 } }, [{ ab: 1 }, { abc: 1 }, ["abc"]]],
    [{ minProperties: 1, maxProperties: 2 }, [{}, { a: 1 }, { a: 1, b: 2, c: 3 }]],
    [
      { dependentRequired: { a: ["b"] }, dependentSchemas: { c: { required: ["d"] } } },
      [{ a: 1 }, { a: 1, b: 2 }, { c: 1 }, { c: 1, d: 1 }, { a: undefined }],
    ],
    [
      { prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2, items: false },
      [["a", 1], ["a", 1, 2], ["a", "b"], [1], [], "a"],
    ],
    [
      { minItems: 1, maxItems: 2, uniqueItems: true },
      [[], [1], [1, 1], [{ a: 1 }, { a: 1 }], [1, 2, 3]],
    ],
    [
      { contains: { type: "string" }, minContains: 2, maxContains: 3 },
      [["a"], ["a", "b"], ["a", "b", "c", "d"], [1, 2], "ab"],
    ],
    [{ contains: { type: "string" }, minContains: 0, maxContains: 1 }, [[], [1], ["a", "b"]]],
    [
      { minLength: 2, maxLength: 3, pattern: "^\\p{L}+$" },
      ["ab", "a", "abcd", "\u{1F600}\u{1F600}", "a1", 5],
    ],
    [
      { minimum: 0, exclusiveMaximum: 10, multipleOf: 0.1 },
      [0, 0.3, 9.9, 10, -1, 0.35, 1e21, "5", Number.POSITIVE_INFINITY],
    ],
    [{ exclusiveMinimum: 0, maximum: 1 }, [0, 0.5, 1, 1.5]],
    [{ format: "uint32" }, [0, -1, 2 ** 32, 1.5, "x"]],
    [{ format: "int64", type: "integer" }, [2 ** 63, -(2 ** 63), 3]],
    [{ format: "date-time" }, ["not a date", 1]],
    [{ allOf: [{ type: "number" }, { minimum: 1 }] }, [0, 1, "x"]],
    [{ oneOf: [{ type: "number" }, { minimum: 1 }] }, [0, 1, "x"]],
    [{ anyOf: [{ type: "string" }, { minimum: 1 }] }, [0, 1, "x", null]],
    [{ not: { type: "null" } }, [null, 0]],
    [
      {
        if: { properties: { k: { const: "a" } } },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited.
        then: { required: ["a"] },
        else: { required: ["b"] },
      },
      [{ k: "a", a: 1 }, { k: "a", b: 1 }, { k: "b", b: 1 }, { k: "b" }],
    ],
    [true, [1, null]],
    [false, [1, null]],
    [{ properties: { a: true, b: {} }, additionalProperties: true }, [{ a: 1, c: 2 }]],
  ];
  it.each(cases)("%j", (schema, values) => {
    expect(interpretable(schema)).toBe(true);
    const expected = ajvCheck(schema);
    const actual = schemaCheck(schema as CheckSchema);
    for (const value of [...values, ...AWKWARD])
      expect(actual(value), show(value)).toBe(expected(value));
  });

  it("leaves to ajv what it does not read", () => {
    for (const schema of [
      { $ref: "#/$defs/A" },
      { unevaluatedProperties: false },
      { properties: { a: { unevaluatedItems: false } } },
      { items: [{ type: "string" }] },
      { $dynamicRef: "#x" },
      { "x-unknown": 1 },
    ] as Json[])
      expect(interpretable(schema), JSON.stringify(schema)).toBe(false);
  });
});
