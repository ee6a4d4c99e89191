import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SAME_DEFINITIONS } from "../../.test-package/package/router/index.js";
import { compileStrict } from "../support/compile.js";
import { readJson, SCHEMA_DIR, tempDir } from "../support/run.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * `SAME_DEFINITIONS` held against the schema files the package was generated from, worked
 * out here on its own: a definition is the same in v1 and v2 when both define it, equal
 * once prose is set aside, and every definition it references is the same too. Then the
 * compiler's view: each such type of one version's entry point is the other's.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords that only document. */
const PROSE = new Set(["description", "title", "examples", "$comment", "x-docs-ignore"]);
/** Keywords whose value is a map of names to schemas. */
const NAMED_SCHEMAS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["const", "enum", "default", "examples"]);

/** A schema without its prose, at schema positions only (a property named `title` stays). */
function proseless(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(proseless);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE.has(key)) continue;
    if (DATA.has(key)) out[key] = value;
    else if (
      NAMED_SCHEMAS.has(key) &&
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value)
    )
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, proseless(sub)]),
      );
    else out[key] = proseless(value);
  }
  return out;
}

function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i] as Json));
  if (
    a === null ||
    b === null ||
    typeof a !== "object" ||
    typeof b !== "object" ||
    Array.isArray(b)
  )
    return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => k in b && equal(a[k] as Json, b[k] as Json))
  );
}

/** The definitions `schema` refers to (`#/$defs/Name`). */
function references(schema: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) references(item, found);
  else if (schema !== null && typeof schema === "object")
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string") found.add(value.replace("#/$defs/", ""));
      else if (!DATA.has(key)) references(value, found);
    }
  return found;
}

function sameIn(file: string): string[] {
  const a = readJson<{ $defs: Record<string, Json> }>(join(SCHEMA_DIR, "v1", file)).$defs;
  const b = readJson<{ $defs: Record<string, Json> }>(join(SCHEMA_DIR, "v2", file)).$defs;
  const same = new Set(
    Object.keys(b).filter((k) => k in a && equal(proseless(a[k] as Json), proseless(b[k] as Json))),
  );
  for (let changed = true; changed; ) {
    changed = false;
    for (const key of same)
      if ([...references(b[key] as Json)].some((r) => !same.has(r))) {
        same.delete(key);
        changed = true;
      }
  }
  return [...same].sort();
}

describe("SAME_DEFINITIONS", () => {
  it("lists, per stability, exactly the definitions v1 and v2 define alike", () => {
    const stable = sameIn("schema.json");
    const unstable = sameIn("schema.unstable.json");
    expect(SAME_DEFINITIONS.stable).toEqual(stable);
    expect(SAME_DEFINITIONS.unstable).toEqual(unstable);
    // What the check rests on: some are the same, and the handshake itself is not.
    expect(stable).toContain("SessionId");
    expect(stable).not.toContain("InitializeRequest");
  });

  const work = tempDir("same-definitions");
  afterAll(() => work.remove());

  it("names types that the compiler finds the same in both entry points", () => {
    symlinkSync(TEST_PACKAGE, join(work.path, "pkg"), "dir");
    writeFileSync(join(work.path, "package.json"), JSON.stringify({ type: "module" }));
    const pairs = [
      ["stable", "./pkg/v1/index.js", "./pkg/v2/index.js"],
      ["unstable", "./pkg/v1/unstable/index.js", "./pkg/v2/unstable/index.js"],
    ] as const;
    const lines = ["type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;"];
    for (const [stability, one, two] of pairs) {
      lines.push(
        `import type * as ${stability}1 from "${one}";`,
        `import type * as ${stability}2 from "${two}";`,
      );
      for (const name of SAME_DEFINITIONS[stability])
        lines.push(
          `export const ${stability}${name}: Same<${stability}1.${name}, ${stability}2.${name}> = true;`,
        );
    }
    writeFileSync(join(work.path, "same.ts"), `${lines.join("\n")}\n`);
    const result = compileStrict(work.path, ["same.ts"]);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  });
});
