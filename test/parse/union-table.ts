import fc from "fast-check";
import { expect } from "vitest";
import type { Definition } from "../../generator/model/protocol.js";
import { isObject, type Json, type JsonObject } from "../../generator/schema/json.js";
import { SURFACES } from "../support/surfaces.js";
import { attempt, deepFreeze, type ParsePackage, type SurfaceModules } from "./support.js";
import { hasCatchAll, knownTags, readTaggedUnion, type TaggedUnion } from "./tagged.js";
import { ON_ERROR, Targets } from "./targets.js";

/**
 * One row per kind of union: closed tagged unions, open ones with a catch-all variant,
 * untagged variants beside tagged ones, and the tag dispatch inside parse. Every tagged
 * union definition of every surface is a row's subject, found in the schema by the test's
 * own reading of it (below), not by the generator's classifier.
 */
type Fn = (...args: unknown[]) => unknown;

interface Subject {
  modules: SurfaceModules;
  targets: Targets;
  def: Definition;
  union: TaggedUnion;
  /** The reference validator's verdict on a value of the union (not the generated guard). */
  valid: (value: unknown) => boolean;
  /** Valid values of the union, by tag (`undefined`: an untagged variant). */
  samples: Map<string | undefined, Record<string, unknown>>;
}

export interface UnionRow {
  kind: string;
  /**
   * The row's checks for a subject, or undefined when the subject has nothing for the row;
   * decided from the schema and the reference validator before anything runs, so every
   * case that exists asserts.
   */
  build(s: Subject): (() => void) | undefined;
  /** Surfaces that must have at least one subject for the row, per schema set. */
  expected: Record<string, string[]>;
}

const ALL = SURFACES.map((s) => s.id);
const CUSTOM_TAG = "_acp_codegen_custom";

const fns = (s: Subject) => {
  const name = s.def.key;
  return {
    parse: s.modules.parsers[`parse${name}`] as Fn,
    is: s.modules.guards[`is${name}`] as (v: unknown) => boolean,
    // The helpers' names as the package README documents them.
    isOf: s.modules.parsers[`is${name}Of`] as (v: unknown, tag: string) => boolean,
    isCustom: s.modules.parsers[`isCustom${name}`] as ((v: unknown) => boolean) | undefined,
  };
};

/** A value carrying a known tag and none of its variant's payload. */
const brokenPayload = (s: Subject, tag: string) => ({
  [s.union.tag]: tag,
  unexpected: { nested: [1] },
});

export const UNION_ROWS: UnionRow[] = [
  {
    kind: "closed tagged union: a valid variant is accepted and narrows to its own tag only",
    build(s) {
      if (hasCatchAll(s.union)) return undefined;
      const tags = knownTags(s.union).filter((tag) => s.samples.has(tag));
      if (tags.length === 0) return undefined;
      return () => {
        const { parse, is, isOf, isCustom } = fns(s);
        expect(isOf, `is${s.def.key}Of`).toBeTypeOf("function");
        expect(isCustom).toBeUndefined();
        for (const tag of tags) {
          const value = s.samples.get(tag) as Record<string, unknown>;
          expect(is(value)).toBe(true);
          expect(parse(value)).toEqual(value);
          for (const other of knownTags(s.union))
            expect(isOf(value, other), `${tag} as ${other}`).toBe(other === tag);
          expect(isOf({ ...value, [s.union.tag]: CUSTOM_TAG }, CUSTOM_TAG)).toBe(false);
        }
      };
    },
    expected: { vendored: ["v1", "v1/unstable"], "2.4.0": ["v1", "v1/unstable"] },
  },
  {
    kind: "tagged union: a known tag with a broken payload is rejected, never taken for a custom variant",
    build(s) {
      // Variants with no required payload accept the broken value: nothing to reject there.
      const tags = knownTags(s.union).filter((tag) => !s.valid(brokenPayload(s, tag)));
      if (tags.length === 0) return undefined;
      return () => {
        const { parse, is, isOf, isCustom } = fns(s);
        for (const tag of tags) {
          const broken = brokenPayload(s, tag);
          expect(is(broken), tag).toBe(false);
          const outcome = attempt(parse, deepFreeze(broken));
          expect(outcome.ok, tag).toBe(false);
          expect((outcome as { error: Error }).error.name).toBe("ValidationError");
          expect(isOf(broken, tag)).toBe(false);
          if (isCustom) expect(isCustom(broken)).toBe(false);
        }
      };
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "open union: an unknown tag with a valid payload is a custom variant, payload kept",
    build(s) {
      const custom = s.samples.get(CUSTOM_TAG);
      if (!hasCatchAll(s.union) || !custom) return undefined;
      return () => {
        const { parse, is, isOf, isCustom } = fns(s);
        if (typeof isCustom !== "function") throw new Error(`no isCustom${s.def.key}`);
        expect(is(custom)).toBe(true);
        expect(parse(deepFreeze(custom))).toEqual(custom);
        expect(isCustom(custom)).toBe(true);
        expect(isOf(custom, CUSTOM_TAG)).toBe(true);
        for (const tag of knownTags(s.union)) expect(isOf(custom, tag)).toBe(false);
        // A known variant is not custom.
        for (const tag of knownTags(s.union)) {
          const known = s.samples.get(tag);
          if (known) expect(isCustom(known)).toBe(false);
        }
      };
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "tagged union: parse dispatches on the tag and repairs inside that variant",
    build(s) {
      for (const variant of s.union.variants) {
        if (variant.kind !== "tagged") continue;
        const value = s.samples.get(variant.value);
        if (!value) continue;
        for (const [name, schema] of propertiesOf(variant.schema, s)) {
          if (
            schema[ON_ERROR] !== true ||
            Object.hasOwn(schema, "default") ||
            schema.type === "array" ||
            name === s.union.tag
          )
            continue;
          const invalid = s.targets.value(schema, false);
          if (invalid === undefined) continue;
          const input = deepFreeze({ ...value, [name]: invalid });
          if (s.valid(input)) continue;
          // default-on-error without a default: the broken optional field is dropped.
          const { [name]: _dropped, ...expected } = value;
          return () => {
            const { parse, isOf } = fns(s);
            const outcome = attempt(parse, input);
            expect(outcome, `${variant.value}.${name}`).toEqual({ ok: true, value: expected });
            expect(isOf((outcome as { value: unknown }).value, variant.value)).toBe(true);
          };
        }
      }
      return undefined;
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "untagged variant beside tagged ones: tried by its shape, matches no tag",
    build(s) {
      const value = s.samples.get(undefined);
      if (!value) return undefined;
      return () => {
        const { parse, is, isOf, isCustom } = fns(s);
        expect(is(value)).toBe(true);
        expect(parse(value)).toEqual(value);
        for (const tag of knownTags(s.union)) expect(isOf(value, tag)).toBe(false);
        if (isCustom) expect(isCustom(value)).toBe(false);
      };
    },
    expected: { vendored: ["v1", "v1/unstable"], "2.4.0": ["v1", "v1/unstable"] },
  },
];

/** Declared properties of a variant: its own and those of the definitions it `allOf`s. */
function propertiesOf(branch: Json, s: Subject): Array<[string, JsonObject]> {
  if (!isObject(branch)) return [];
  const out: Array<[string, JsonObject]> = [];
  if (isObject(branch.properties))
    for (const [n, p] of Object.entries(branch.properties)) if (isObject(p)) out.push([n, p]);
  for (const part of Array.isArray(branch.allOf) ? branch.allOf : []) {
    if (!isObject(part) || typeof part.$ref !== "string") continue;
    const key = part.$ref.split("/").pop() as string;
    const def = s.modules.surface.definitions.find((d) => d.key === key);
    if (def) out.push(...propertiesOf(def.schema, s));
  }
  return out;
}

/** Valid values of the union (by the reference validator), one per tag, one custom, one untagged. */
function samplesOf(s: Omit<Subject, "samples">): Subject["samples"] {
  const known = new Set(knownTags(s.union));
  const samples: Subject["samples"] = new Map();
  for (const value of fc.sample(s.targets.arbitraries.definition(s.def.key), {
    seed: 3,
    numRuns: 300,
  })) {
    if (!isObject(value as Json) || !s.valid(value)) continue;
    const record = value as Record<string, unknown>;
    const tag = record[s.union.tag];
    if (typeof tag === "string" && known.has(tag)) {
      if (!samples.has(tag)) samples.set(tag, record);
    } else if (typeof tag === "string") {
      const custom = { ...record, [s.union.tag]: CUSTOM_TAG };
      if (!samples.has(CUSTOM_TAG) && s.valid(custom)) samples.set(CUSTOM_TAG, custom);
    } else if (!samples.has(undefined) && tag === undefined) {
      samples.set(undefined, record);
    }
  }
  return samples;
}

export interface UnionCase {
  set: string;
  surface: string;
  kind: string;
  def: string;
  /** The row's checks on this union. */
  run(): void;
}

/** Every row against every tagged union definition of every surface of a package, where it applies. */
export async function unionCases(set: string, pkg: ParsePackage): Promise<UnionCase[]> {
  const cases: UnionCase[] = [];
  for (const [surfaceId, modules] of pkg.surfaces) {
    const targets = await Targets.for(modules);
    const defs = new Map(modules.surface.definitions.map((d) => [d.key, d.schema]));
    for (const def of modules.surface.definitions) {
      const union = readTaggedUnion(def.schema, defs);
      if (!union) continue;
      const valid = targets.checker.definition(def.key, modules.surface.defsKeyword);
      const subject = { modules, targets, def, union, valid };
      const full: Subject = { ...subject, samples: samplesOf(subject) };
      for (const row of UNION_ROWS) {
        const run = row.build(full);
        if (run) cases.push({ set, surface: surfaceId, kind: row.kind, def: def.key, run });
      }
    }
  }
  return cases;
}
