import { expect } from "vitest";
import type { JsonObject } from "../../generator/schema/json.js";
import { attempt, deepFreeze, type ParsePackage } from "./support.js";
import { ON_ERROR, ON_NULL, SKIP, type Target, Targets } from "./targets.js";

/**
 * One row per deserialization rule. Each row finds its targets in the schema itself (a
 * definition and a property carrying the annotation), so the table follows the schema:
 * the vendored one, and the 2.4.0 release (the first with `x-deserialize-default-on-null`).
 */
interface Case {
  input: Record<string, unknown>;
  /** The parse result, or `"error"` for a ValidationError at `/<property>`. */
  expected: Record<string, unknown> | "error";
  /** The strict guard's verdict on the input. */
  strict: boolean;
}

export interface AnnotationRow {
  rule: string;
  applies(schema: JsonObject, required: boolean): boolean;
  build(targets: Targets, target: Target, base: Record<string, unknown>): Case | undefined;
  /** Schema sets whose four surfaces must all have a target for the row. */
  everywhere: ReadonlyArray<"vendored" | "2.4.0">;
}

const has = (schema: JsonObject, key: string) => Object.hasOwn(schema, key);
const without = (value: Record<string, unknown>, key: string) => {
  const { [key]: _removed, ...rest } = value;
  return rest;
};
const isArrayType = (schema: JsonObject) => schema.type === "array";
const isMapType = (schema: JsonObject) =>
  schema.type === "object" && !has(schema, "properties") && has(schema, "additionalProperties");

export const ANNOTATION_ROWS: AnnotationRow[] = [
  {
    rule: "default-on-error: an invalid value becomes the schema's default",
    applies: (s, required) => s[ON_ERROR] === true && has(s, "default") && !required,
    build: (t, target, base) => {
      const invalid = t.value(target.schema, false);
      if (invalid === undefined) return undefined;
      return {
        input: { ...base, [target.property]: invalid },
        expected: { ...base, [target.property]: target.schema.default },
        strict: false,
      };
    },
    everywhere: ["vendored", "2.4.0"],
  },
  {
    rule: "default-on-error: an invalid optional value with no default is removed",
    applies: (s, required) =>
      s[ON_ERROR] === true && !has(s, "default") && !required && !isArrayType(s) && !isMapType(s),
    build: (t, target, base) => {
      const invalid = t.value(target.schema, false);
      if (invalid === undefined) return undefined;
      return {
        input: { ...base, [target.property]: invalid },
        expected: without(base, target.property),
        strict: false,
      };
    },
    everywhere: ["vendored", "2.4.0"],
  },
  {
    rule: "default-on-error: an invalid array with no default becomes [] (Rust's Vec::default)",
    applies: (s) => s[ON_ERROR] === true && !has(s, "default") && isArrayType(s),
    build: (_t, target, base) => ({
      input: { ...base, [target.property]: { not: "an array" } },
      expected: { ...base, [target.property]: [] },
      strict: false,
    }),
    everywhere: ["vendored", "2.4.0"],
  },
  {
    rule: "skip-invalid-items: invalid items are dropped, valid ones kept in order",
    applies: (s) => s[SKIP] === true && typeof s.items === "object",
    build: (t, target, base) => {
      const items = target.schema.items as JsonObject;
      const good = t.value(items, true);
      const bad = t.value(items, false);
      if (good === undefined || bad === undefined) return undefined;
      return {
        input: { ...base, [target.property]: [good, bad, good, bad] },
        expected: { ...base, [target.property]: [good, good] },
        strict: false,
      };
    },
    everywhere: ["vendored", "2.4.0"],
  },
  {
    rule: "default-on-null: an explicit null becomes the field's empty value",
    applies: (s) => s[ON_NULL] === true,
    build: (_t, target, base) => ({
      input: { ...base, [target.property]: null },
      expected: {
        ...base,
        [target.property]: has(target.schema, "default")
          ? target.schema.default
          : isMapType(target.schema)
            ? {}
            : [],
      },
      strict: false,
    }),
    everywhere: ["2.4.0"],
  },
  {
    rule: "default-on-null: a missing optional field stays missing",
    applies: (s, required) => s[ON_NULL] === true && !required,
    build: (_t, target, base) => {
      const input = without(base, target.property);
      return { input, expected: input, strict: true };
    },
    everywhere: ["2.4.0"],
  },
  {
    rule: "no annotation: an invalid value is an error",
    applies: (s) =>
      !Object.keys(s).some((k) => k.startsWith("x-deserialize-")) && s.type === "string",
    build: (t, target, base) => {
      const invalid = t.value(target.schema, false);
      if (invalid === undefined || !target.required) return undefined;
      return { input: { ...base, [target.property]: invalid }, expected: "error", strict: false };
    },
    everywhere: ["vendored", "2.4.0"],
  },
];

/** One built case: a row applied to the first fitting target of one surface. */
export interface AnnotationCase {
  set: string;
  surface: string;
  rule: string;
  where: string;
  run(): void;
}

/** The cases of every row on every surface of a generated package. */
export async function annotationCases(set: string, pkg: ParsePackage): Promise<AnnotationCase[]> {
  const built: AnnotationCase[] = [];
  for (const [surfaceId, modules] of pkg.surfaces) {
    const targets = await Targets.for(modules);
    for (const row of ANNOTATION_ROWS) {
      const found = targets.first(targets.properties(row.applies), (target) => {
        const base = targets.valid(
          target.def,
          (v) => Object.hasOwn(v, target.property) || !target.required,
        );
        const made = base && row.build(targets, target, base);
        return made ? { target, made } : undefined;
      });
      if (!found) continue;
      const { target, made } = found;
      const name = target.def.key;
      built.push({
        set,
        surface: surfaceId,
        rule: row.rule,
        where: `${name}.${target.property}`,
        run() {
          const parse = modules.parsers[`parse${name}`] as (v: unknown) => unknown;
          const is = modules.guards[`is${name}`] as (v: unknown) => boolean;
          const input = deepFreeze(structuredClone(made.input));
          const before = JSON.stringify(input);
          expect(is(input)).toBe(made.strict);
          const outcome = attempt(parse, input);
          if (made.expected === "error") {
            expect(outcome.ok).toBe(false);
            const error = (
              outcome as { error: { name: string; issues: Array<{ instancePath: string }> } }
            ).error;
            expect(error.name).toBe("ValidationError");
            expect(error.issues.map((i) => i.instancePath)).toContain(`/${target.property}`);
          } else {
            expect(outcome).toEqual({ ok: true, value: made.expected });
            expect(is((outcome as { value: unknown }).value)).toBe(true);
          }
          // Never mutates its input (it is frozen, too: a write would have thrown).
          expect(JSON.stringify(input)).toBe(before);
        },
      });
    }
  }
  return built;
}
