import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { isObject, type Json } from "../../generator/schema/json.js";
import { forEachSchema } from "../../generator/schema/walk.js";
import { RELEASES_DIR, tempDir } from "../support/run.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import { mutate, mutationsArbitrary } from "./mutate.js";
import {
  attempt,
  buildParsePackage,
  deepFreeze,
  type Outcome,
  type SurfaceModules,
} from "./support.js";

/**
 * Differential test against the official SDK (`@agentclientprotocol/sdk` 2.4.0), whose zod
 * schemas implement the same annotations by hand. Both sides use the 2.4.0 schema (the
 * SDK's package is built from it; the vendored schema is older). For every request,
 * response and notification type: generated messages (from the schema), most of them
 * mutated (wrong types, nulls, missing fields, unknown tags), must get the same verdict
 * and, when accepted, the same value.
 */
const SEED = 20250601;
const RUNS_PER_TYPE = 24;

/**
 * Where the two may differ, and why. Every disagreement must fall in one of these classes;
 * anything else fails the test with a shrunk counterexample.
 */
const KNOWN = {
  "theirs: format enforced":
    "The SDK validates string formats (zod's z.url() for `uri`, an ISO check for `date-time`) and rejects or salvages such values. In JSON Schema 2020-12 `format` is an annotation; the generator enforces only the numeric ACP formats (README, Validation), as the reference implementation deserializes these fields as plain strings.",
  "theirs: result violates the schema":
    "The SDK does not re-check what its fallbacks produce: `default-on-error` turns an array into [] even where the schema says `minItems: 1` (v2 SessionConfigSelectGroup.options), so it returns a value its own schema rejects. parse only ever returns schema-valid values, so such an item is dropped one level up (by `skip-invalid-items`) or the message is rejected.",
  "by design: undeclared properties kept":
    "zod objects strip properties the matched variant does not declare, as serde ignores them. parse keeps them: the schema allows them, and stripping would cost a walk of every valid message. Seen when an untagged variant matches a value carrying another variant's tag (v1 AuthMethod's agent variant, SetSessionConfigOptionRequest's value_id); is<Name>Of still refuses the tag's variant for such a value.",
} as const;
type Known = keyof typeof KNOWN;

const SDK_ZOD: Record<string, string> = {
  v1: "v1/schema/zod.gen.js",
  "v1/unstable": "v1/unstable/schema/zod.gen.js",
  v2: "v2/schema/zod.gen.js",
  "v2/unstable": "v2/unstable/schema/zod.gen.js",
};

interface ZodSchema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: unknown[] } };
}

const work = tempDir("parse-differential");
afterAll(() => work.remove());
const pkg = await buildParsePackage(join(RELEASES_DIR, "2.4.0"), work.path);

/** `undefined`-valued keys dropped (zod writes `key: undefined` for a salvaged optional). */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined)
      Object.defineProperty(out, k, {
        value: clean(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** Keys present in `ours` and missing from `theirs`; undefined if they differ otherwise. */
function extraKeys(ours: unknown, theirs: unknown, path = ""): string[] | undefined {
  if (isDeepStrictEqual(ours, theirs)) return [];
  if (!isObject(ours as Json) || !isObject(theirs as Json)) {
    if (!Array.isArray(ours) || !Array.isArray(theirs) || ours.length !== theirs.length)
      return undefined;
    const all = ours.map((o, i) => extraKeys(o, theirs[i], `${path}/${i}`));
    return all.some((a) => a === undefined) ? undefined : (all.flat() as string[]);
  }
  const o = ours as Record<string, unknown>;
  const t = theirs as Record<string, unknown>;
  if (Object.keys(t).some((k) => !Object.hasOwn(o, k))) return undefined;
  const out: string[] = [];
  for (const key of Object.keys(o)) {
    if (!Object.hasOwn(t, key)) out.push(key);
    else {
      const inner = extraKeys(o[key], t[key], `${path}/${key}`);
      if (inner === undefined) return undefined;
      out.push(...inner);
    }
  }
  return out;
}

function hasFormatIssue(issues: unknown): boolean {
  if (!Array.isArray(issues)) return false;
  return issues.some(
    (issue) =>
      isObject(issue as Json) &&
      ((issue as { code?: string }).code === "invalid_format" ||
        ((issue as { errors?: unknown[] }).errors ?? []).some((branch) => hasFormatIssue(branch))),
  );
}

interface SurfaceContext {
  id: string;
  modules: SurfaceModules;
  zod: Record<string, ZodSchema>;
  arbitraries: SchemaArbitraries;
  types: string[];
  /** Property names that carry a string `format` somewhere in this surface's schema. */
  formatted: Set<string>;
}

const contexts: SurfaceContext[] = [];
for (const [id, modules] of pkg.surfaces) {
  const file = join(
    ROOT,
    "node_modules",
    "@agentclientprotocol",
    "sdk",
    "dist",
    SDK_ZOD[id] as string,
  );
  const zod = (await import(pathToFileURL(file).href)) as Record<string, ZodSchema>;
  const checker = await SchemaChecker.for(modules.surface);
  const types = [
    ...new Set(
      modules.surface.methods.flatMap((m) => (m.result ? [m.params, m.result] : [m.params])),
    ),
  ].sort();
  const formatted = new Set<string>();
  for (const def of modules.surface.definitions)
    forEachSchema(def.schema, (node) => {
      if (!isObject(node.properties)) return;
      for (const [name, sub] of Object.entries(node.properties))
        if (
          isObject(sub) &&
          typeof sub.format === "string" &&
          sub.type !== "integer" &&
          sub.type !== "number"
        )
          formatted.add(name);
    });
  contexts.push({
    id,
    modules,
    zod,
    arbitraries: new SchemaArbitraries(modules.surface, checker),
    types,
    formatted,
  });
}

describe.each(contexts.map((c) => [c.id, c] as const))(
  "%s: parse agrees with the official SDK",
  (_id, context) => {
    const { modules, zod, arbitraries, types, formatted } = context;
    interface Tally {
      cases: number;
      unchanged: number;
      repaired: number;
      rejected: number;
      /** Known kinds of disagreement seen. */
      seen: Set<Known>;
    }
    const tallies = new Map<string, Tally>();

    function classify(
      type: string,
      ours: Outcome,
      theirs: ReturnType<ZodSchema["safeParse"]>,
    ): Known | "agree" | "unexplained" {
      const is = modules.guards[`is${type}`] as (v: unknown) => boolean;
      if (ours.ok && theirs.success) {
        const a = clean(ours.value);
        const b = clean(theirs.data);
        if (isDeepStrictEqual(a, b)) return "agree";
        if (!is(theirs.data)) return "theirs: result violates the schema";
        const extra = extraKeys(a, b);
        if (extra && extra.length > 0)
          return extra.every((k) => formatted.has(k))
            ? "theirs: format enforced"
            : "by design: undeclared properties kept";
        return "unexplained";
      }
      if (ours.ok && !theirs.success)
        return hasFormatIssue(theirs.error.issues) ? "theirs: format enforced" : "unexplained";
      if (!ours.ok && theirs.success)
        return is(theirs.data) ? "unexplained" : "theirs: result violates the schema";
      return "agree";
    }

    it("has an SDK schema for every request, response and notification type", () => {
      expect(types.filter((t) => !zod[`z${t}`])).toEqual([]);
    });

    /**
     * Runs the property for one type (once per file: the type's own test and the summary
     * below both ask for it, in whatever order they run) and counts what it saw.
     */
    function tallyOf(type: string): Tally {
      const done = tallies.get(type);
      if (done) return done;
      const parse = modules.parsers[`parse${type}`] as (v: unknown) => unknown;
      const is = modules.guards[`is${type}`] as (v: unknown) => boolean;
      const theirs = zod[`z${type}`] as ZodSchema;
      const tally: Tally = { cases: 0, unchanged: 0, repaired: 0, rejected: 0, seen: new Set() };
      fc.assert(
        fc.property(arbitraries.definition(type), mutationsArbitrary, (generated, edits) => {
          const input = deepFreeze(mutate(generated, edits));
          const ours = attempt(parse, input);
          // Whatever parse returns is valid under the schema, and the input is left alone
          // (frozen: a write would have thrown inside parse).
          if (ours.ok) expect(is(ours.value)).toBe(true);
          const verdict = classify(type, ours, theirs.safeParse(input));
          tally.cases++;
          if (!ours.ok) tally.rejected++;
          else if (ours.value === input) tally.unchanged++;
          else tally.repaired++;
          if (verdict !== "agree" && verdict !== "unexplained") tally.seen.add(verdict);
          return verdict !== "unexplained";
        }),
        { seed: SEED, numRuns: RUNS_PER_TYPE },
      );
      tallies.set(type, tally);
      return tally;
    }

    it.each(types)("%s", (type) => {
      expect(tallyOf(type).cases).toBe(RUNS_PER_TYPE);
    });

    it("exercised accepted, repaired and rejected messages alike; disagreements only of known kinds", () => {
      const all = types.map(tallyOf);
      const total = (bucket: "cases" | "unchanged" | "repaired" | "rejected") =>
        all.reduce((sum, t) => sum + t[bucket], 0);
      expect(total("cases")).toBe(types.length * RUNS_PER_TYPE);
      for (const bucket of ["unchanged", "repaired", "rejected"] as const)
        expect(total(bucket), bucket).toBeGreaterThan(total("cases") * 0.05);
      for (const t of all) for (const kind of t.seen) expect(Object.keys(KNOWN)).toContain(kind);
    });
  },
);
