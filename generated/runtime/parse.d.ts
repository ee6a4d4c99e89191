/**
 * Lenient parsing: the interpreter for the repair plans the generator writes into each
 * entry point's `parsers.js`. A plan is data (which properties carry which
 * `x-deserialize-*` annotation, which arrays drop invalid items, which unions dispatch on
 * a tag); this module is the only code that acts on it, so every definition is parsed the
 * same way and the generated files stay small.
 *
 * The result is the value as the reference (Rust) implementation deserializes it. A valid
 * value is returned as is after one validator call (plus filling in defaults, for the few
 * definitions that have any); only an invalid one is walked and repaired. Parsing never
 * mutates its input: changed objects and arrays are copies, unchanged parts are shared.
 */
import { type CompiledValidator } from "./validation.js";
/** A validity check: a compiled validator, or one composed from them. */
export type Check = (value: unknown) => boolean;
export interface PropertyPlan {
    readonly name: string;
    /** Plan for the property's value. */
    readonly node?: number;
    /** `x-deserialize-default-on-error`: the check the (repaired) value must pass. */
    readonly onError?: number;
    /** Replaces a value failing `onError`. */
    readonly fallback?: unknown;
    /** A value failing `onError` is removed (optional property, nothing to fall back to). */
    readonly omit?: true;
    /** `x-deserialize-default-on-null`: what an explicit `null` becomes. */
    readonly onNull?: unknown;
    /** What a missing property becomes. */
    readonly default?: unknown;
}
export interface VariantPlan {
    /** Selected when the value's tag equals this. */
    readonly tag?: string;
    /** The open union's catch-all: selected by a string tag no variant claims. */
    readonly other?: true;
    readonly node?: number;
    /** Present when several variants can be candidates for one value: the first that passes wins. */
    readonly check?: number;
}
export interface PlanNode {
    readonly properties?: readonly PropertyPlan[];
    /** Further nodes the same value goes through (`allOf` parts, references). */
    readonly allOf?: readonly number[];
    readonly union?: {
        readonly tag?: string;
        readonly variants: readonly VariantPlan[];
    };
    readonly items?: number;
    /** `x-deserialize-skip-invalid-items`: the check an item must pass to be kept. */
    readonly skipInvalid?: number;
    /** Plan for the values of properties not in `declared`. */
    readonly values?: number;
    readonly declared?: readonly string[];
    /** Something below changes even a valid value (a default to fill in). */
    readonly fill?: true;
}
export interface ParsePlan {
    /** `parse<Name>`: strict validation first; the plan only when that fails. */
    parser<T>(validator: CompiledValidator, type: string, root?: number): (value: unknown) => T;
    /** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
    variantGuard(tag: string, variants: ReadonlyArray<readonly [string, number]>, other?: number): (value: unknown, tag: string) => boolean;
    /** `isCustom<Name>(value)`: a valid value of the open union's catch-all variant. */
    customGuard(tag: string, known: readonly string[], other: number): (value: unknown) => boolean;
}
export declare function createParsePlan(nodes: readonly PlanNode[], checks: readonly Check[]): ParsePlan;
export declare function all(...checks: Check[]): Check;
export declare function any(...checks: Check[]): Check;
/** JSON Schema `oneOf`: exactly one passes. */
export declare function one(...checks: Check[]): Check;
export declare function not(check: Check): Check;
/** Every item of an array; anything else passes (`items` constrains arrays only). */
export declare function items(check: Check): Check;
/** Every present property among `checks`; anything but an object passes. */
export declare function props(checks: ReadonlyArray<readonly [string, Check]>): Check;
/** Every property not in `declared` (`additionalProperties`); anything but an object passes. */
export declare function values(check: Check, declared: readonly string[]): Check;
