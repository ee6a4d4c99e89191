import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Diagnostics, formatWarning } from "../../generator/diagnostics.js";
import {
  BACKENDS,
  contextOf,
  prepareDefinitions,
  prepareInput,
} from "../../generator/prepare/backends.js";
import { PlaceholderKeys } from "../../generator/prepare/placeholder-keys.js";
import { applyRules, type Rule } from "../../generator/prepare/rules.js";
import type { Json } from "../../generator/schema/json.js";

/**
 * One fixture per rule (fixtures/<rule>.json): each case is an input schema, the schema the
 * rule alone makes of it (applied at every subschema, as backends apply it), and the
 * warnings it gives. `defs` are the surface's other definitions, for rules that look
 * through a `$ref`.
 */
interface Fixture {
  defs?: Record<string, Json>;
  cases: Array<{ why: string; input: Json; output: Json; warnings?: string[] }>;
}

const FIXTURES = join(import.meta.dirname, "fixtures");
const fixtures = new Map(
  readdirSync(FIXTURES).map((file) => [
    file.replace(/\.json$/, ""),
    JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as Fixture,
  ]),
);
const rules = new Map<string, Rule>();
for (const backend of Object.values(BACKENDS))
  for (const pass of backend.passes) for (const rule of pass) rules.set(rule.name, rule);

describe("prepare rules", () => {
  it("every rule a backend sees has a fixture, and every fixture a rule", () => {
    expect([...fixtures.keys()].sort()).toEqual([...rules.keys()].sort());
  });

  for (const [name, fixture] of fixtures) {
    describe(name, () => {
      for (const c of fixture.cases) {
        it(c.why, () => {
          const rule = rules.get(name);
          if (!rule) throw new Error(`no backend sees a rule named ${name}`);
          const diagnostics = new Diagnostics();
          const before = JSON.stringify(c.input);
          const definitions = Object.entries(fixture.defs ?? {}).map(([key, schema]) => ({
            key,
            schema,
          }));
          const input = prepareInput(
            { defsKeyword: "$defs", definitions, file: "schema.json" },
            diagnostics,
          );
          const output = applyRules(c.input, [rule], contextOf(input, "/$defs/Case"));
          expect(output).toStrictEqual(c.output);
          expect(diagnostics.warnings.map(formatWarning)).toEqual(
            (c.warnings ?? []).map((w) => `warning: ${w}`),
          );
          expect(JSON.stringify(c.input), "the input is never mutated").toBe(before);
        });
      }
    });
  }
});

describe("backend table", () => {
  it("names only known rules among those a backend does without, and none it sees", () => {
    for (const [backend, { passes, without }] of Object.entries(BACKENDS)) {
      const seen = new Set(passes.flat().map((r) => r.name));
      for (const name of Object.keys(without ?? {})) {
        expect(rules.has(name), `${backend}: ${name}`).toBe(true);
        expect(seen.has(name), `${backend} both sees and does without ${name}`).toBe(false);
      }
    }
  });

  it("validators: discriminators resolve through refs before refs become own ids", () => {
    const definitions: Array<{ key: string; schema: Json }> = [
      {
        key: "U",
        schema: {
          description: "a union",
          discriminator: { propertyName: "kind" },
          oneOf: [{ $ref: "#/$defs/A" }],
        },
      },
      {
        key: "A",
        schema: { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
      },
    ];
    const prepared = prepareDefinitions(
      "validators",
      prepareInput({ defsKeyword: "$defs", definitions, file: "schema.json" }, new Diagnostics()),
    );
    expect(prepared.U).toStrictEqual({
      type: "object",
      discriminator: { propertyName: "kind" },
      oneOf: [{ $ref: "acp-codegen:definition:A" }],
    });
  });
});

describe("placeholder keys (types backend)", () => {
  it("swaps keys named like Object.prototype members out and back", () => {
    const keys = new PlaceholderKeys((key) => JSON.stringify(key));
    const encoded = keys.encode({
      properties: { constructor: { type: "string" }, plain: { type: "number" } },
      required: ["constructor"],
    }) as { properties: Record<string, Json>; required: string[] };
    expect(Object.keys(encoded.properties)).toEqual(["AcpCodegenPlaceholderKey0", "plain"]);
    expect(encoded.required).toEqual(["AcpCodegenPlaceholderKey0"]);
    expect(keys.restore("AcpCodegenPlaceholderKey0: string;")).toBe('"constructor": string;');
  });
});
