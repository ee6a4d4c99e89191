import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { STABLE_UNSTABLE_PAIRS, schemaOf } from "./support/surfaces.js";
import { TEST_PACKAGE } from "./support/test-package.js";

/**
 * An unstable entry point uses the stable one's validator, and guards, for every definition
 * that validates the same in both schemas, itself and everything it references: equal once
 * what no validator reads is left out (descriptions, titles, defaults and the other
 * annotations JSON Schema 2020-12 lists, vendor `x-` keywords). Every other definition gets its
 * own, compiled from the unstable schema (the differential fuzz checks its verdicts). The
 * shared ones live in modules of their own beside the stable validators.js and guards.js, so
 * importing the unstable entry point loads none of the stable code it does not use. The parse
 * plans' shared records do likewise (shared-parsers.js; test/model/plan-link.test.ts checks
 * what goes there).
 */

/** JSON Schema 2020-12 keywords that never change validity (meta-data, content, comment). */
const ANNOTATIONS = new Set([
  ...["title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"],
  ...["contentEncoding", "contentMediaType", "contentSchema", "$comment"],
]);
/** Keywords whose value maps names to subschemas: its keys are names, not keywords. */
const NAMED = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["const", "enum", "required"]);

/** `schema` as a validator reads it: annotations and vendor keywords dropped at every depth. */
function asValidated(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asValidated);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || (key.startsWith("x-") && !NAMED.has(key))) continue;
    if (DATA.has(key)) out[key] = value;
    else if (NAMED.has(key) && typeof value === "object" && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([n, v]) => [n, asValidated(v)]));
    else out[key] = asValidated(value);
  }
  return out;
}

/** `$ref` targets inside a schema, as `$defs` keys. */
function refs(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refs(item, found);
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/"))
        found.add(value.slice("#/$defs/".length));
      else refs(value, found);
    }
  }
  return found;
}

/** Keys whose definition, and every definition it reaches, validates the same in both schemas. */
function unchanged(
  stable: Record<string, unknown>,
  unstable: Record<string, unknown>,
): Set<string> {
  const same = new Set(
    Object.keys(unstable).filter(
      (key) =>
        Object.hasOwn(stable, key) &&
        isDeepStrictEqual(asValidated(stable[key]), asValidated(unstable[key])),
    ),
  );
  // Whatever reaches a changed definition is changed too, until nothing more drops out.
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const key of same) {
      if ([...refs(unstable[key])].some((r) => !same.has(r))) {
        same.delete(key);
        dropped = true;
      }
    }
  }
  return same;
}

type Module = Record<string, unknown>;
const load = async (id: string, file: string): Promise<Module> =>
  (await import(pathToFileURL(join(TEST_PACKAGE, id, file)).href)) as Module;

/** The module specifiers a generated module imports or re-exports from, resolved to package paths. */
function importedFiles(id: string, file: string): Set<string> {
  const code = readFileSync(join(TEST_PACKAGE, id, file), "utf8");
  return new Set(
    [...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom "([^"]+)";$/gms)].map((m) =>
      posix.join(id, m[1] ?? ""),
    ),
  );
}

describe("validators and guards shared between a stable and an unstable entry point", () => {
  it.each(STABLE_UNSTABLE_PAIRS)("%s and its unstable surface", async (stable, unstable) => {
    const stableDefs = schemaOf(stable).$defs;
    const unstableDefs = schemaOf(unstable).$defs;
    const same = unchanged(stableDefs, unstableDefs);
    for (const [file, prefixes] of [
      ["validators.js", ["v"]],
      ["guards.js", ["is", "validate", "assert"]],
      ["parsers.js", ["parse"]],
    ] as const) {
      const [ours, theirs] = [await load(unstable.id, file), await load(stable.id, file)];
      for (const key of Object.keys(unstableDefs))
        for (const prefix of prefixes) {
          const fn = ours[`${prefix}${key}`];
          expect(typeof fn, `${file} ${prefix}${key}`).toBe("function");
          if (same.has(key)) expect(fn, `${file} ${prefix}${key}`).toBe(theirs[`${prefix}${key}`]);
          else expect(fn, `${file} ${prefix}${key}`).not.toBe(theirs[`${prefix}${key}`]);
        }
    }
    // A shared union's helpers too (is<Name>Of, isCustom<Name>, isUntagged<Name>).
    const [ours, theirs] = [
      await load(unstable.id, "parsers.js"),
      await load(stable.id, "parsers.js"),
    ];
    const helpers = Object.keys(theirs).filter((n) => /^is(Custom|Untagged)?[A-Z]/.test(n));
    expect(helpers.length).toBeGreaterThan(0);
    for (const name of helpers) {
      const key = name.replace(/^is(Custom|Untagged)?/, "").replace(/Of$/, "");
      if (same.has(key)) expect(ours[name], name).toBe(theirs[name]);
    }
    // The comparison has both kinds to tell apart.
    expect(same.size).toBeGreaterThan(0);
    expect(same.size).toBeLessThan(Object.keys(unstableDefs).length);
  });

  it.each(
    STABLE_UNSTABLE_PAIRS.flatMap(([stable, unstable]) => [
      { stable, unstable, file: "validators.js", shared: "shared-validators.js", prefixes: ["v"] },
      {
        stable,
        unstable,
        file: "guards.js",
        shared: "shared-guards.js",
        prefixes: ["is", "validate", "assert"],
      },
    ]),
  )(
    "$stable.id: the shared $file code is a module of its own, the only stable one the unstable $file loads",
    async ({ stable, unstable, file, shared: sharedFile, prefixes }) => {
      const same = unchanged(schemaOf(stable).$defs, schemaOf(unstable).$defs);
      const shared = await load(stable.id, sharedFile);
      expect(new Set(Object.keys(shared))).toEqual(
        new Set([...same].flatMap((key) => prefixes.map((p) => `${p}${key}`))),
      );
      const imported = importedFiles(unstable.id, file);
      expect(imported).toContain(`${stable.id}/${sharedFile}`);
      expect(imported).not.toContain(`${stable.id}/${file}`);
      // The stable entry point uses the same functions.
      const theirs = await load(stable.id, file);
      for (const name of Object.keys(shared)) expect(theirs[name], name).toBe(shared[name]);
    },
  );

  it.each(STABLE_UNSTABLE_PAIRS)(
    "%s: the shared parse plan and parsers are a module of their own, built on the shared validators only",
    async (stable, unstable) => {
      const sharedFile = `${stable.id}/shared-parsers.js`;
      const own = importedFiles(unstable.id, "parsers.js");
      expect(own).toContain(sharedFile);
      for (const file of ["parsers.js", "validators.js", "parsers-validators.js"])
        expect(own).not.toContain(`${stable.id}/${file}`);
      expect(importedFiles(stable.id, "parsers.js")).toContain(sharedFile);
      // What the shared module reads: the runtime and the shared validators, the one compiled
      // checker of each definition (its subschema checks are data the runtime reads).
      const reads = [...importedFiles(stable.id, "shared-parsers.js")].filter(
        (f) => !f.startsWith("runtime/"),
      );
      expect(reads).toEqual([`${stable.id}/shared-validators.js`]);
      // Its records reach both plans as one object (model/plan-link.ts lays them out).
      const shared = await load(stable.id, "shared-parsers.js");
      // Record tables are built on first call (runtime/parse.ts `createParsePlan`).
      const base = shared.base as { shapes: () => unknown[] };
      expect(base.shapes().length).toBeGreaterThan(0);
      const same = unchanged(schemaOf(stable).$defs, schemaOf(unstable).$defs);
      expect(
        Object.keys(shared)
          .filter((n) => n.startsWith("parse"))
          .sort(),
      ).toEqual([...same].map((key) => `parse${key}`).sort());
    },
  );
});
