import { describe, expect, it } from "vitest";
import { CheckTable } from "../../generator/model/checks.js";
import type { JsonObject } from "../../generator/schema/json.js";
import { otherTag, tag } from "../../templates/runtime/parse.js";
import { referenceAjv } from "../support/reference-ajv.js";

const otherTagSchema = (property: string, known: unknown[]): JsonObject => ({
  type: "object",
  properties: { [property]: { type: "string", not: { enum: known } } as JsonObject },
  required: [property],
  additionalProperties: true,
});
const tagSchema = (property: string, value: unknown): JsonObject => ({
  type: "object",
  properties: { [property]: { type: "string", const: value } as JsonObject },
  required: [property],
});

/** Values a tag test must get right: the tag's shapes, wrong kinds, inherited and odd keys. */
const VALUES: unknown[] = [
  { type: "text" },
  { type: "text", more: 1 },
  { type: "image" },
  { type: 1 },
  { type: null },
  { other: "text" },
  {},
  [],
  Object.assign([], { type: "text" }),
  null,
  "text",
  7,
  Object.create({ type: "text" }),
  JSON.parse('{"__proto__": {"type": "text"}}'),
  JSON.parse('{"__proto__": "x", "type": "text"}'),
];

describe("the tag check", () => {
  it("accepts what the JSON Schema it stands for accepts, and nothing else", () => {
    const ajv = referenceAjv();
    const reference = ajv.compile(tagSchema("type", "text"));
    const ours = tag("type", "text");
    for (const value of VALUES) expect(ours(value), JSON.stringify(value)).toBe(reference(value));
    // The list holds both verdicts, so the comparison above could fail either way.
    expect(VALUES.filter((v) => reference(v)).length).toBeGreaterThan(0);
    expect(VALUES.filter((v) => !reference(v)).length).toBeGreaterThan(0);
  });

  it("as the catch-all: accepts what its JSON Schema accepts, and nothing else", () => {
    const reference = referenceAjv().compile(otherTagSchema("type", ["text", "image"]));
    const ours = otherTag("type", ["text", "image"]);
    const values = [...VALUES, { type: "video" }, { type: "" }, { type: ["text"] }];
    for (const value of values) expect(ours(value), JSON.stringify(value)).toBe(reference(value));
    expect(values.filter((v) => reference(v)).length).toBeGreaterThan(0);
    expect(values.filter((v) => !reference(v)).length).toBeGreaterThan(0);
  });

  it("replaces a local schema only when it is exactly a tag test", () => {
    const table = new CheckTable(() => undefined);
    const kindOf = (schema: JsonObject) => {
      const index = table.of(schema);
      return index === undefined ? undefined : table.specs[index]?.kind;
    };
    expect(kindOf(tagSchema("type", "text"))).toBe("tag");
    expect(kindOf({ ...tagSchema("mode", "url"), description: "annotations do not count" })).toBe(
      "tag",
    );
    expect(kindOf(tagSchema("type", 1))).toBe("local");
    expect(kindOf({ ...tagSchema("type", "text"), additionalProperties: false })).toBe("local");
    expect(kindOf({ ...tagSchema("type", "text"), required: ["type", "id"] })).toBe("local");
    expect(kindOf(otherTagSchema("type", ["text"]))).toBe("otherTag");
    const { additionalProperties: _, ...closedNot } = otherTagSchema("type", ["text"]);
    expect(kindOf(closedNot)).toBe("otherTag");
    expect(kindOf({ ...otherTagSchema("type", ["text"]), additionalProperties: false })).toBe(
      "local",
    );
    expect(kindOf(otherTagSchema("type", ["text", 1]))).toBe("local");
    const loose = tagSchema("type", "text");
    delete loose.type;
    expect(kindOf(loose)).toBe("local");
  });
});
