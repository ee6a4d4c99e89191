import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonical, jsonEqual } from "../../generator/schema/equal.js";
import type { Json, JsonObject } from "../../generator/schema/json.js";
import { KEYWORDS, STANDARD_KEYWORDS } from "../../generator/schema/keywords.js";
import { directRefs, refTarget, refTo } from "../../generator/schema/refs.js";
import { forEachJson, forEachSchema, mapSchema } from "../../generator/schema/walk.js";

/** The JSON Schema 2020-12 meta-schemas, as the specification publishes them (ajv ships copies). */
const META_DIR = join(
  dirname(createRequire(import.meta.url).resolve("ajv/package.json")),
  "dist/refs/json-schema-2020-12/meta",
);
const vocabularies = readdirSync(META_DIR).map((file) => {
  const meta = JSON.parse(readFileSync(join(META_DIR, file), "utf8")) as JsonObject;
  return { file, properties: meta.properties as Record<string, JsonObject> };
});
/** The one legacy keyword the toolkit counts as standard: releases write `definitions`. */
const ACCEPTED_LEGACY = ["definitions"];

describe("keyword table", () => {
  it("knows exactly the 2020-12 keywords as standard, vocabulary by vocabulary", () => {
    const fromSpec = vocabularies.flatMap((v) => Object.keys(v.properties));
    expect([...STANDARD_KEYWORDS].sort()).toEqual([...fromSpec, ...ACCEPTED_LEGACY].sort());
    for (const { file, properties } of vocabularies) {
      const vocabulary = file.replace(/\.json$/, "").replace("format-annotation", "format");
      for (const name of Object.keys(properties))
        expect(KEYWORDS[name as keyof typeof KEYWORDS].vocabulary, name).toBe(vocabulary);
    }
  });

  it("finds subschemas where the meta-schemas put them", () => {
    const isSchema = (s: JsonObject | undefined) => s?.$dynamicRef === "#meta";
    for (const { properties } of vocabularies) {
      for (const [name, meta] of Object.entries(properties)) {
        const expected = isSchema(meta)
          ? "one"
          : meta.$ref === "#/$defs/schemaArray"
            ? "list"
            : isSchema(meta.additionalProperties as JsonObject | undefined)
              ? "map"
              : undefined;
        const known = KEYWORDS[name as keyof typeof KEYWORDS].subschemas;
        // `items` also accepts the draft-07 list form, which older releases write.
        expect(known === "one-or-list" ? "one" : known, name).toBe(expected);
      }
    }
  });
});

describe("references", () => {
  it("encodes and decodes definition keys, escapes included", () => {
    for (const key of ["Foo", "a/b", "til~de", "per%cent", "spa ce", "ünï", "$x"]) {
      const ref = refTo("$defs", key);
      expect(ref.startsWith("#/$defs/")).toBe(true);
      expect(refTarget(ref, "$defs"), ref).toBe(key);
    }
    expect(refTo("definitions", "a/b~c")).toBe("#/definitions/a~1b~0c");
    expect(refTo("$defs", "Plain_$1")).toBe("#/$defs/Plain_$1");
  });

  it("names no definition for other forms", () => {
    expect(refTarget("#/definitions/Foo", "$defs")).toBeUndefined();
    expect(refTarget("#/$defs/Foo/properties/a", "$defs")).toBeUndefined();
    expect(refTarget("other.json#/$defs/Foo", "$defs")).toBeUndefined();
    expect(refTarget("#/$defs/%E0%A4%A", "$defs")).toBeUndefined();
  });

  it("collects direct refs, in data too but never from a property named $ref", () => {
    const node: Json = {
      properties: { $ref: { $ref: "#/$defs/A" }, b: { items: { $ref: "#/$defs/B" } } },
      default: { $ref: "#/$defs/C" },
    };
    expect([...directRefs(node, "$defs")].sort()).toEqual(["A", "B", "C"]);
  });
});

describe("walker", () => {
  const schema: JsonObject = {
    title: "root",
    properties: { title: { type: "string", title: "a property named title" } },
    items: [{ title: "first" }, { const: { title: "data" } }],
    default: { properties: { x: { title: "data too" } } },
  };

  it("visits schema positions only, with their paths", () => {
    const seen: string[] = [];
    forEachSchema(schema, (_node, path) => {
      seen.push(path.join("/"));
    });
    expect(seen).toEqual(["", "properties/title", "items/0", "items/1"]);
  });

  it("rebuilds bottom-up without touching data or the input", () => {
    const before = JSON.stringify(schema);
    const stripped = mapSchema(schema, (node) => {
      const { title: _dropped, ...rest } = node;
      return rest;
    });
    expect(stripped).toEqual({
      properties: { title: { type: "string" } },
      items: [{}, { const: { title: "data" } }],
      default: { properties: { x: { title: "data too" } } },
    });
    expect(JSON.stringify(schema)).toBe(before);
  });

  it("visits every JSON value and tells names from keywords", () => {
    const seen: string[] = [];
    forEachJson(
      { properties: { $ref: { type: "string" } }, $ref: "#/$defs/A" },
      (_v, path, inNames) => {
        seen.push(`${path.join("/")}${inNames ? " (name)" : ""}`);
      },
    );
    expect(seen).toEqual([
      "",
      "properties",
      "properties/$ref (name)",
      "properties/$ref/type",
      "$ref",
    ]);
  });
});

describe("equality and canonical form", () => {
  it("ignore key order, and nothing else", () => {
    const a: Json = { b: [1, { d: null, c: "x" }], a: true };
    const b: Json = { a: true, b: [1, { c: "x", d: null }] };
    expect(jsonEqual(a, b)).toBe(true);
    expect(canonical(a)).toBe(canonical(b));
    expect(canonical(a)).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(jsonEqual(a, { ...b, b: [{ c: "x", d: null }, 1] })).toBe(false);
  });
});
