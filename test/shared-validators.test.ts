import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { STABLE_UNSTABLE_PAIRS, schemaOf } from "./support/surfaces.js";
import { TEST_PACKAGE } from "./support/test-package.js";

/**
 * An unstable entry point uses the stable one's validator for every definition that is the
 * same in both schemas, itself and everything it references; every other definition gets its
 * own, compiled from the unstable schema (the differential fuzz checks its verdicts). The
 * shared ones live in a module of their own beside the stable validators.js, so importing the
 * unstable entry point loads none of the stable code it does not use.
 */

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

/** Keys whose definition, and every definition it reaches, is equal in both schemas. */
function unchanged(
  stable: Record<string, unknown>,
  unstable: Record<string, unknown>,
): Set<string> {
  const same = new Set(
    Object.keys(unstable).filter(
      (key) => Object.hasOwn(stable, key) && isDeepStrictEqual(stable[key], unstable[key]),
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

type Validators = Record<string, unknown>;
const load = async (id: string, file = "validators.js"): Promise<Validators> =>
  (await import(pathToFileURL(join(TEST_PACKAGE, id, file)).href)) as Validators;

/** The module specifiers a generated module imports or re-exports from, resolved to package paths. */
function importedFiles(id: string, file: string): Set<string> {
  const code = readFileSync(join(TEST_PACKAGE, id, file), "utf8");
  return new Set(
    [...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom "([^"]+)";$/gms)].map((m) =>
      posix.join(id, m[1] ?? ""),
    ),
  );
}

describe("validators shared between a stable and an unstable entry point", () => {
  it.each(STABLE_UNSTABLE_PAIRS)("%s and its unstable surface", async (stable, unstable) => {
    const stableDefs = schemaOf(stable).$defs;
    const unstableDefs = schemaOf(unstable).$defs;
    const [ours, theirs] = [await load(unstable.id), await load(stable.id)];
    const same = unchanged(stableDefs, unstableDefs);
    for (const key of Object.keys(unstableDefs)) {
      const validator = ours[`v${key}`];
      expect(typeof validator, key).toBe("function");
      if (same.has(key)) expect(validator, key).toBe(theirs[`v${key}`]);
      else expect(validator, key).not.toBe(theirs[`v${key}`]);
    }
    // The comparison has both kinds to tell apart.
    expect(same.size).toBeGreaterThan(0);
    expect(same.size).toBeLessThan(Object.keys(unstableDefs).length);
  });

  it.each(STABLE_UNSTABLE_PAIRS)(
    "%s: the shared validators are a module of their own, the only stable code the unstable validators load",
    async (stable, unstable) => {
      const same = unchanged(schemaOf(stable).$defs, schemaOf(unstable).$defs);
      const shared = await load(stable.id, "shared-validators.js");
      expect(new Set(Object.keys(shared))).toEqual(new Set([...same].map((key) => `v${key}`)));
      const sharedFile = `${stable.id}/shared-validators.js`;
      expect(importedFiles(unstable.id, "validators.js")).toContain(sharedFile);
      expect(importedFiles(unstable.id, "validators.js")).not.toContain(
        `${stable.id}/validators.js`,
      );
      // The stable entry point's validators use the same functions.
      const theirs = await load(stable.id);
      for (const name of Object.keys(shared)) expect(theirs[name], name).toBe(shared[name]);
    },
  );
});
