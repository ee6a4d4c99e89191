/**
 * Reading a value as the reference (Rust) implementation deserializes it: the interpreter
 * for the plans the generator writes into each entry point's `parsers.js`. A plan is data;
 * this module is the only code that acts on it, so every definition is read the same way
 * and the generated files stay small. Two tables, two jobs:
 *
 * - the repair plan (`PlanNode`) says which properties carry which `x-deserialize-*`
 *   annotation, which arrays drop invalid items and how unions dispatch; it only ever runs
 *   on a value that failed strict validation, and turns it into one that passes;
 * - the shape plan (`ShapeNode`) says which keys each object admits and what each key's
 *   value is, how a union picks its variant, and which defaults fill a valid value; it runs
 *   on every valid value and gives the value serde keeps: undeclared properties dropped,
 *   the tag and fields of a union's losing variant gone, defaults filled in, and no own
 *   `__proto__` key anywhere.
 *
 * A valid value costs one validator call and one walk that allocates nothing unless
 * something must change. Parsing never mutates its input: changed objects and arrays are
 * copies, unchanged parts are shared.
 *
 * This module is the entry parsers.js imports; the interpreter is split by concern:
 * parse-records.ts (the plans' records), parse-context.ts (the reading: strict or open, and
 * the unknown variants' sink), parse-repair.ts (the repair plan), parse-choice.ts (which
 * variant of a union a value is), parse-reshape.ts (the shape plan), parse-values.ts (copies
 * without `__proto__`), parse-guards.ts (the union helpers).
 */
import { VariantChoice } from "./parse-choice.js";
import { openReading, type ParseOptions, type Reading } from "./parse-context.js";
import { customGuard, untaggedGuard, variantGuard } from "./parse-guards.js";
import type { Check, PlanNode, ShapeNode, ShapeWalk } from "./parse-records.js";
import { Repairs } from "./parse-repair.js";
import { Reshaper } from "./parse-reshape.js";
import { free, hasOwn, isDict } from "./parse-values.js";
import { type CompiledValidator, issuesOf, TOO_DEEP, ValidationError } from "./validation.js";

export type {
  OpenReading,
  ParseOptions,
  Reading,
  ResponseParseOptions,
  UnknownVariant,
} from "./parse-context.js";
export {
  type DefinitionParse,
  type EnvelopeContentSpec,
  type EnvelopeSpec,
  envelope,
} from "./parse-envelope.js";
export type {
  Check,
  FillPlan,
  PlanNode,
  PropertyPlan,
  ShapeNode,
  ShapeUnion,
  ShapeVariant,
  ShapeWalk,
  VariantPlan,
} from "./parse-records.js";

export interface ParsePlan {
  /** The shape walk of node `index` that changes what must change: the fast walks' slow path. */
  reshape(value: unknown, index: number, reading: Reading): unknown;
  /** Arbitrary JSON without any own `__proto__` key: the fast walk of free-form nodes. */
  free(value: unknown): unknown;
  /**
   * For the fast walks: `value` repaired by repair node `repair`, when it then passes check
   * `check` (a competing variant that deserializes once repaired); else undefined.
   */
  repairedAs(value: unknown, repair: number, check: number): unknown;
  /**
   * `parse<Name>` once strict validation failed (parsers.js does the valid case itself:
   * the validator, then the shape walk): the repair plan, then strict validation again, or
   * with the open reading the check `open` that admits unknown variants; then the shape
   * walk. Throws a `ValidationError` listing what could not be repaired.
   */
  read(
    value: unknown,
    options: ParseOptions | undefined,
    validator: CompiledValidator,
    type: string,
    shape?: number,
    repair?: number,
    open?: number,
  ): unknown;
  /**
   * What `parse<Name>` of a definition that can nest itself throws for `error`: a stack
   * overflow on a hostile, deeply nested value is a `ValidationError`, not a crash.
   */
  deep(error: unknown, type: string): unknown;
  /** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
  variantGuard(
    tag: string,
    variants: ReadonlyArray<readonly [string, number]>,
    other?: number,
  ): (value: unknown, tag: string) => boolean;
  /** `isCustom<Name>(value)`: a valid value of the open union's catch-all variant. */
  customGuard(tag: string, known: readonly string[], other: number): (value: unknown) => boolean;
  /** `isUntagged<Name>(value)`: a valid value without the tag, so of an untagged variant. */
  untaggedGuard(tag: string, whole: CompiledValidator): (value: unknown) => boolean;
}

/**
 * The record tables come as functions that build them on first call and keep them
 * (parsers.js writes `() => (records ??= [...])`): importing parsers.js then only pre-parses
 * the records, most imports never repair or reshape a value, and a surface's plan and the
 * shared one read the same records. The plan calls them only when a value needs them.
 */
export function createParsePlan(
  nodeTable: () => readonly PlanNode[],
  shapeTable: () => readonly ShapeNode[],
  checks: readonly Check[],
  /** The fast walk of each shape node, by index. */
  walks: readonly ShapeWalk[],
): ParsePlan {
  const repairs = new Repairs(nodeTable, checks);
  const reshaper = new Reshaper(shapeTable, walks, new VariantChoice(checks, repairs));
  const deep = (error: unknown, type: string): unknown =>
    error instanceof RangeError ? new ValidationError(type, [TOO_DEEP]) : error;

  return {
    reshape: (value, index, reading) => reshaper.shape(value, index, reading),
    free,
    repairedAs: (value, repair, check) => repairs.repairedAs(value, repair, check),

    read(value, options, validator, type, shapeRoot, repairRoot, open) {
      try {
        const root = shapeRoot === undefined ? undefined : (walks[shapeRoot] as ShapeWalk);
        // Valid after all (a caller without the fast path): only the shape walk.
        if (validator(value)) return root === undefined ? value : root(value, false);
        const fixed = repairRoot === undefined ? value : repairs.repair(value, repairRoot);
        if (fixed !== value && validator(fixed))
          return root === undefined ? fixed : root(fixed, false);
        if (
          options?.unknownVariants === "keep" &&
          open !== undefined &&
          (checks[open] as Check)(fixed)
        )
          return root === undefined ? fixed : root(fixed, openReading(options.onUnknownVariant));
        // Again, for this value's issues: checks during the walk may have run this validator.
        validator(fixed);
        // What is left cannot be repaired. Kept items passed their own check, so issue paths
        // in the repaired value are the input's paths too.
        throw new ValidationError(type, issuesOf(validator));
      } catch (error) {
        throw deep(error, type);
      }
    },

    deep,
    variantGuard: (tag, variants, other) => variantGuard(checks, tag, variants, other),
    customGuard: (tag, known, other) => customGuard(checks, tag, known, other),
    untaggedGuard,
  };
}

/* Combinators that compose checks for subschemas out of the definitions' validators. */

export function all(...checks: Check[]): Check {
  return (value) => checks.every((c) => c(value));
}

export function any(...checks: Check[]): Check {
  return (value) => checks.some((c) => c(value));
}

/** JSON Schema `oneOf`: exactly one passes. */
export function one(...checks: Check[]): Check {
  return (value) => {
    let passed = 0;
    for (const c of checks) if (c(value) && ++passed > 1) return false;
    return passed === 1;
  };
}

export function not(check: Check): Check {
  return (value) => !check(value);
}

/**
 * An object whose own `property` is the string `expected`: what `{type: "object",
 * properties: {[property]: {type: "string", const: expected}}, required: [property]}` accepts.
 */
export function tag(property: string, expected: string): Check {
  return (value) => isDict(value) && hasOwn(value, property) && value[property] === expected;
}

/**
 * An object whose own `property` is a string none of `known`: what `{type: "object",
 * properties: {[property]: {type: "string", not: {enum: known}}}, required: [property]}` accepts.
 */
export function otherTag(property: string, known: readonly string[]): Check {
  return (value) => {
    if (!isDict(value) || !hasOwn(value, property)) return false;
    const actual = value[property];
    return typeof actual === "string" && !known.includes(actual);
  };
}

/** Every item of an array; anything else passes (`items` constrains arrays only). */
export function items(check: Check): Check {
  return (value) => !Array.isArray(value) || value.every((item) => check(item));
}

/** Every present property among `checks`; anything but an object passes. */
export function props(checks: ReadonlyArray<readonly [string, Check]>): Check {
  return (value) =>
    !isDict(value) || checks.every(([name, c]) => !hasOwn(value, name) || c(value[name]));
}

/** Every property not in `declared` (`additionalProperties`); anything but an object passes. */
export function values(check: Check, declared: readonly string[]): Check {
  return (value) =>
    !isDict(value) || Object.keys(value).every((k) => declared.includes(k) || check(value[k]));
}
