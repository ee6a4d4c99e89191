import fc from "fast-check";
import { expect } from "vitest";
import type { Definition } from "../../generator/model/protocol.js";
import {
  hasCatchAll,
  knownTags,
  type TaggedUnion,
  taggedUnion,
} from "../../generator/model/unions.js";
import { isObject, type Json, type JsonObject } from "../../generator/schema/json.js";
import { attempt, deepFreeze, type ParsePackage, type SurfaceModules } from "./support.js";
import { ON_ERROR, Targets } from "./targets.js";

/**
 * One row per kind of union: closed tagged unions, open ones with a catch-all variant,
 * untagged variants beside tagged ones, and the tag dispatch inside parse. Every tagged
 * union definition of every surface is a row's subject, found in the schema.
 */
type Fn = (...args: unknown[]) => unknown;

interface Subject {
  modules: SurfaceModules;
  targets: Targets;
  def: Definition;
  union: TaggedUnion;
  /** Valid values of the union, by tag (`undefined`: an untagged variant). */
  samples: Map<string | undefined, Record<string, unknown>>;
}

export interface UnionRow {
  kind: string;
  /** The row's checks; `false` when the subject has nothing for this row. */
  run(s: Subject): boolean;
  /** Surfaces that must have at least one subject for the row, per schema set. */
  expected: Record<string, string[]>;
}

const ALL = ["v1", "v1/unstable", "v2", "v2/unstable"];
const CUSTOM_TAG = "_acp_codegen_custom";

const fns = (s: Subject) => {
  const name = s.def.key;
  return {
    parse: s.modules.parsers[`parse${name}`] as Fn,
    is: s.modules.guards[`is${name}`] as (v: unknown) => boolean,
    isOf: s.modules.parsers[`is${name}Of`] as (v: unknown, tag: string) => boolean,
    isCustom: s.modules.parsers[`isCustom${name}`] as ((v: unknown) => boolean) | undefined,
  };
};

export const UNION_ROWS: UnionRow[] = [
  {
    kind: "closed tagged union: a valid variant is accepted and narrows to its own tag only",
    run(s) {
      if (hasCatchAll(s.union)) return false;
      const { parse, is, isOf, isCustom } = fns(s);
      expect(isCustom).toBeUndefined();
      let ran = false;
      for (const tag of knownTags(s.union)) {
        const value = s.samples.get(tag);
        if (!value) continue;
        ran = true;
        expect(is(value)).toBe(true);
        expect(parse(value)).toEqual(value);
        for (const other of knownTags(s.union))
          expect(isOf(value, other), `${tag} as ${other}`).toBe(other === tag);
        expect(isOf({ ...value, [s.union.tag]: CUSTOM_TAG }, CUSTOM_TAG)).toBe(false);
      }
      return ran;
    },
    expected: { vendored: ["v1", "v1/unstable"], "2.4.0": ["v1", "v1/unstable"] },
  },
  {
    kind: "tagged union: a known tag with a broken payload is rejected, never taken for a custom variant",
    run(s) {
      const { parse, is, isOf, isCustom } = fns(s);
      let ran = false;
      for (const tag of knownTags(s.union)) {
        const broken = { [s.union.tag]: tag, unexpected: { nested: [1] } };
        if (is(broken)) continue; // a variant with no required payload
        ran = true;
        const outcome = attempt(parse, deepFreeze(broken));
        expect(outcome.ok, tag).toBe(false);
        expect((outcome as { error: Error }).error.name).toBe("ValidationError");
        expect(isOf(broken, tag)).toBe(false);
        if (isCustom) expect(isCustom(broken)).toBe(false);
      }
      return ran;
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "open union: an unknown tag with a valid payload is a custom variant, payload kept",
    run(s) {
      if (!hasCatchAll(s.union)) return false;
      const { parse, is, isOf, isCustom } = fns(s);
      const custom = s.samples.get(CUSTOM_TAG);
      if (!custom || !isCustom) return false;
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
      return true;
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "tagged union: parse dispatches on the tag and repairs inside that variant",
    run(s) {
      const { parse, is, isOf } = fns(s);
      for (const variant of s.union.variants) {
        if (variant.kind !== "tagged") continue;
        const value = s.samples.get(variant.value);
        if (!value) continue;
        for (const [name, schema] of propertiesOf(variant.schema, s)) {
          if (
            schema[ON_ERROR] !== true ||
            Object.hasOwn(schema, "default") ||
            schema.type === "array"
          )
            continue;
          if (name === s.union.tag) continue;
          const invalid = s.targets.value(schema, false);
          if (invalid === undefined) continue;
          const input = deepFreeze({ ...value, [name]: invalid });
          if (is(input)) continue;
          const { [name]: _dropped, ...expected } = value;
          const outcome = attempt(parse, input);
          expect(outcome, `${variant.value}.${name}`).toEqual({ ok: true, value: expected });
          expect(isOf((outcome as { value: unknown }).value, variant.value)).toBe(true);
          return true;
        }
      }
      return false;
    },
    expected: { vendored: ALL, "2.4.0": ALL },
  },
  {
    kind: "untagged variant beside tagged ones: tried by its shape, matches no tag",
    run(s) {
      const value = s.samples.get(undefined);
      if (!value) return false;
      const { parse, is, isOf, isCustom } = fns(s);
      expect(is(value)).toBe(true);
      expect(parse(value)).toEqual(value);
      for (const tag of knownTags(s.union)) expect(isOf(value, tag)).toBe(false);
      if (isCustom) expect(isCustom(value)).toBe(false);
      return true;
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

/** Valid generated values of the union, one per tag (and one custom, one untagged). */
function samplesOf(s: Omit<Subject, "samples">): Subject["samples"] {
  const is = s.modules.guards[`is${s.def.key}`] as (v: unknown) => boolean;
  const known = new Set(knownTags(s.union));
  const samples: Subject["samples"] = new Map();
  for (const value of fc.sample(s.targets.arbitraries.definition(s.def.key), {
    seed: 3,
    numRuns: 300,
  })) {
    if (!isObject(value as Json) || !is(value)) continue;
    const record = value as Record<string, unknown>;
    const tag = record[s.union.tag];
    if (typeof tag === "string" && known.has(tag)) {
      if (!samples.has(tag)) samples.set(tag, record);
    } else if (typeof tag === "string") {
      const custom = { ...record, [s.union.tag]: CUSTOM_TAG };
      if (!samples.has(CUSTOM_TAG) && is(custom)) samples.set(CUSTOM_TAG, custom);
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
  /** Runs the row's checks; false when the union has nothing for the row. */
  run(): boolean;
}

/** Every row against every tagged union definition of every surface of a package. */
export async function unionCases(set: string, pkg: ParsePackage): Promise<UnionCase[]> {
  const cases: UnionCase[] = [];
  for (const [surfaceId, modules] of pkg.surfaces) {
    const targets = await Targets.for(modules);
    const resolve = (ref: string) =>
      modules.surface.definitions.find((d) => d.key === ref.split("/").pop())?.schema;
    for (const def of modules.surface.definitions) {
      const union = isObject(def.schema) ? taggedUnion(def.schema, resolve) : undefined;
      if (!union) continue;
      const subject = { modules, targets, def, union };
      const full: Subject = { ...subject, samples: samplesOf(subject) };
      for (const row of UNION_ROWS)
        cases.push({
          set,
          surface: surfaceId,
          kind: row.kind,
          def: def.key,
          run: () => row.run(full),
        });
    }
  }
  return cases;
}
