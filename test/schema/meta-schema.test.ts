import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import type { Json } from "../../generator/schema/json.js";
import { metaSchemaProblem, undeclaredRequired } from "../../generator/schema/meta-schema.js";
import { SCHEMA_DIR } from "../support/run.js";

/**
 * The checks an extension file meets before anything else reads it: JSON Schema 2020-12's
 * meta-schema, and `required` names that are properties.
 */

const schemaFile = (surface: string): Json =>
  JSON.parse(readFileSync(join(SCHEMA_DIR, surface), "utf8")) as Json;

describe("metaSchemaProblem", () => {
  it("accepts every schema file vendored here, and the README's extension", () => {
    for (const file of ["v1/schema.json", "v1/schema.unstable.json", "v2/schema.json"])
      expect(metaSchemaProblem(schemaFile(file)), file).toBeUndefined();
    const acme = join(ROOT, "docs", "examples", "acme-extension.json");
    expect(metaSchemaProblem(JSON.parse(readFileSync(acme, "utf8")) as Json)).toBeUndefined();
  });

  it("names the deepest place that fails, what it must be and what it is", () => {
    expect(metaSchemaProblem({ $defs: { A: { properties: { n: { minLength: 1.5 } } } } })).toEqual({
      pointer: "/$defs/A/properties/n/minLength",
      message: "not valid JSON Schema 2020-12: minLength must be an integer; found a number (1.5)",
    });
    expect(metaSchemaProblem({ required: ["a", "a"] })).toEqual({
      pointer: "/required",
      message: expect.stringMatching(
        /^not valid JSON Schema 2020-12: required must NOT have duplicate items/,
      ),
    });
    // A schema is an object or a boolean, wherever one stands.
    expect(metaSchemaProblem({ items: 3 })).toEqual({
      pointer: "/items",
      message:
        "not valid JSON Schema 2020-12: items must be an object or a boolean; found an integer (3)",
    });
  });

  it("shows a long value cut short", () => {
    const problem = metaSchemaProblem({ enum: "x".repeat(100) });
    expect(problem?.message).toMatch(/found a string \("x{39}…\)$/);
  });
});

describe("undeclaredRequired", () => {
  const names = (schema: Json) =>
    undeclaredRequired(schema).map((f) => `${f.path.join("/")}: ${f.name}`);

  it("finds a required name that is not a property, at its entry in required", () => {
    expect(
      names({
        $defs: {
          A: { properties: { nonce: {} }, required: ["nonce", "nonse"] },
          B: { properties: { c: { properties: { d: {} }, required: ["e"] } } },
        },
      }),
    ).toEqual(["$defs/A/required/1: nonse", "$defs/B/properties/c/required/0: e"]);
  });

  it("counts names inline allOf parts declare, and patternProperties' matches", () => {
    expect(
      names({
        properties: { a: {} },
        allOf: [{ properties: { b: {} } }, { allOf: [{ properties: { c: {} } }] }],
        patternProperties: { "^x-": {} },
        required: ["a", "b", "c", "x-d", "e"],
      }),
    ).toEqual(["required/4: e"]);
  });

  it("leaves alone what other schemas may declare, and required alone (a constraint)", () => {
    expect(names({ properties: { a: {} }, $ref: "#/$defs/B", required: ["b"] })).toEqual([]);
    expect(
      names({ properties: { a: {} }, allOf: [{ $ref: "#/$defs/B" }], required: ["b"] }),
    ).toEqual([]);
    expect(
      names({ properties: { a: {}, b: {} }, oneOf: [{ required: ["a"] }, { required: ["b"] }] }),
    ).toEqual([]);
  });
});
