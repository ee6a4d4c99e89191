import fc from "fast-check";
import type { Definition, SurfaceModel } from "../../generator/model/protocol.js";
import { isObject, type Json, type JsonObject } from "../../generator/schema/json.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import type { SurfaceModules } from "./support.js";

/**
 * Finds test targets in a surface's schema (a definition and one of its properties with a
 * given annotation) and builds values around them, so the tables follow the schema instead
 * of hand lists that go stale.
 */
export interface Target {
  def: Definition;
  property: string;
  schema: JsonObject;
  required: boolean;
}

export const ON_ERROR = "x-deserialize-default-on-error";
export const ON_NULL = "x-deserialize-default-on-null";
export const SKIP = "x-deserialize-skip-invalid-items";

/** Values of every JSON type; the first that fails a schema is the "invalid value" for it. */
const CANDIDATES: Json[] = [42.5, "☃ not valid", { unexpected: [1] }, [1, "two"], true, -1, null];

export class Targets {
  constructor(
    readonly modules: SurfaceModules,
    readonly checker: SchemaChecker,
    readonly arbitraries: SchemaArbitraries,
  ) {}

  static async for(modules: SurfaceModules): Promise<Targets> {
    const checker = await SchemaChecker.for(modules.surface);
    return new Targets(modules, checker, new SchemaArbitraries(modules.surface, checker));
  }

  get surface(): SurfaceModel {
    return this.modules.surface;
  }

  /**
   * Properties of object definitions matching `predicate`, in schema order, for which a
   * valid value of the definition can be generated.
   */
  *properties(predicate: (schema: JsonObject, required: boolean) => boolean): Generator<Target> {
    for (const def of this.surface.definitions) {
      const schema = def.schema;
      if (!isObject(schema) || !isObject(schema.properties) || schema.anyOf || schema.oneOf)
        continue;
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [property, sub] of Object.entries(schema.properties)) {
        if (isObject(sub) && predicate(sub, required.has(property)))
          yield { def, property, schema: sub, required: required.has(property) };
      }
    }
  }

  /**
   * A value of the definition, valid by the reference validator, that parsing returns
   * unchanged (no default to fill in), so a row's expected output is the base value with the
   * row's one change.
   */
  valid(def: Definition, accept: (value: Record<string, unknown>) => boolean = () => true) {
    const is = this.checker.definition(def.key, this.surface.defsKeyword);
    const parse = this.modules.parsers[`parse${def.key}`] as (v: unknown) => unknown;
    const samples = fc.sample(this.arbitraries.definition(def.key), { seed: 7, numRuns: 60 });
    return samples.find(
      (v): v is Record<string, unknown> =>
        isObject(v as Json) && is(v) && parse(v) === v && accept(v as Record<string, unknown>),
    );
  }

  /** A value of `schema` (valid when `valid`, else invalid), from fixed candidates or samples. */
  value(schema: Json, valid: boolean): unknown {
    const check = this.checker.check(schema);
    const pool = valid
      ? fc.sample(this.arbitraries.of(schema, 0), { seed: 11, numRuns: 40 })
      : CANDIDATES;
    return pool.find((v) => check(v) === valid);
  }

  /** First target with a valid base value and the value the row needs, or undefined. */
  first<T>(targets: Iterable<Target>, build: (target: Target) => T | undefined): T | undefined {
    for (const target of targets) {
      const built = build(target);
      if (built !== undefined) return built;
    }
    return undefined;
  }
}
