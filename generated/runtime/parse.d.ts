import { type ParseOptions, type Reading } from "./parse-context.js";
import type { Check, PlanNode, ShapeNode, ShapeWalk } from "./parse-records.js";
import { type CompiledValidator } from "./validation.js";
export type { OpenReading, ParseOptions, Reading, ResponseParseOptions, UnknownVariant, } from "./parse-context.js";
export { type DefinitionParse, type EnvelopeContentSpec, type EnvelopeSpec, envelope, } from "./parse-envelope.js";
export type { Check, FillPlan, PlanNode, PropertyPlan, ShapeNode, ShapeUnion, ShapeVariant, ShapeWalk, VariantPlan, } from "./parse-records.js";
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
    read(value: unknown, options: ParseOptions | undefined, validator: CompiledValidator, type: string, shape?: number, repair?: number, open?: number): unknown;
    /**
     * What `parse<Name>` of a definition that can nest itself throws for `error`: a stack
     * overflow on a hostile, deeply nested value is a `ValidationError`, not a crash.
     */
    deep(error: unknown, type: string): unknown;
    /** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
    variantGuard(tag: string, variants: ReadonlyArray<readonly [string, number]>, other?: number): (value: unknown, tag: string) => boolean;
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
export declare function createParsePlan(nodeTable: () => readonly PlanNode[], shapeTable: () => readonly ShapeNode[], checks: readonly Check[], 
/** The fast walk of each shape node, by index. */
walks: readonly ShapeWalk[]): ParsePlan;
export declare function all(...checks: Check[]): Check;
export declare function any(...checks: Check[]): Check;
/** JSON Schema `oneOf`: exactly one passes. */
export declare function one(...checks: Check[]): Check;
export declare function not(check: Check): Check;
/**
 * An object whose own `property` is the string `expected`: what `{type: "object",
 * properties: {[property]: {type: "string", const: expected}}, required: [property]}` accepts.
 */
export declare function tag(property: string, expected: string): Check;
/**
 * An object whose own `property` is a string none of `known`: what `{type: "object",
 * properties: {[property]: {type: "string", not: {enum: known}}}, required: [property]}` accepts.
 */
export declare function otherTag(property: string, known: readonly string[]): Check;
/** Every item of an array; anything else passes (`items` constrains arrays only). */
export declare function items(check: Check): Check;
/** Every present property among `checks`; anything but an object passes. */
export declare function props(checks: ReadonlyArray<readonly [string, Check]>): Check;
/** Every property not in `declared` (`additionalProperties`); anything but an object passes. */
export declare function values(check: Check, declared: readonly string[]): Check;
