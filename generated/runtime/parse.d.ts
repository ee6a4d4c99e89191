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
/** A node of the repair plan: what to do to an invalid value at one subschema. */
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
}
/** A property filled in on a valid value (serde's `default`, `x-deserialize-default-on-null`). */
export interface FillPlan {
    readonly name: string;
    /** What a missing property becomes. */
    readonly default?: unknown;
    /** What an explicit `null` becomes (where the schema admits null). */
    readonly onNull?: unknown;
}
export interface ShapeVariant {
    /** Selected by this tag. */
    readonly tag?: string;
    /** The open union's catch-all: selected by a string tag no variant claims. */
    readonly other?: true;
    /** The variant's shape; absent when it holds no object (a scalar, `null`): kept as is. */
    readonly node?: number;
    /**
     * Untagged variants only: the one kind of container the variant can be (`scalar`: neither,
     * a `null` branch), so only variants that can be the value compete for it. Absent: both.
     */
    readonly kinds?: "object" | "array" | "scalar";
    /** The variant's check, where it competes with others for one value (serde tries in order). */
    readonly check?: number;
    /** Its check under the open reading, where that differs (the variant can hold a closed union). */
    readonly open?: number;
    /**
     * The repair plan's node of a competing variant: serde tries each candidate with its own
     * deserialization rules, so a value the variant accepts once repaired is that variant.
     */
    readonly repair?: number;
}
export interface ShapeUnion {
    /** The tag property of a tagged union. */
    readonly tag?: string;
    /** Tagged variants and the catch-all, then the untagged ones in schema order. */
    readonly variants: readonly ShapeVariant[];
    /**
     * A closed tagged union: with the open reading (`unknownVariants: "keep"`), a string tag
     * that no variant claims and no untagged variant accepts is kept as an unknown variant.
     */
    readonly closed?: true;
}
/** A node of the shape plan: what serde keeps of a valid value at one subschema. */
export interface ShapeNode {
    /** Arbitrary JSON (`{}`, `serde_json::Value`): kept whole, only `__proto__` keys removed. */
    readonly free?: true;
    /**
     * Object: the keys it admits, each with the shape of its value (`-1`: a value that holds
     * no object, kept as is). Declarations from every `allOf` part and reference are merged in.
     */
    readonly keys?: ReadonlyArray<readonly [string, number]>;
    /** Object: other keys are kept, their values of this shape. Absent: dropped, as serde ignores unknown fields. */
    readonly others?: number;
    readonly fills?: readonly FillPlan[];
    /** Unions among the object's parts: the chosen variant of each adds its own keys, fills, unions. */
    readonly unions?: readonly ShapeUnion[];
    /** Array: the shape of each item. */
    readonly items?: number;
}
/** How `parse<Name>` reads tagged unions whose tag this package does not know. */
export interface ParseOptions {
    /**
     * `"reject"` (default): as the reference does, such a value fails to parse. `"keep"`:
     * in a closed tagged union, a value whose tag no variant claims (a newer peer's variant)
     * is kept whole as an unknown variant, and the rest of the value is read as usual.
     */
    readonly unknownVariants?: "reject" | "keep";
    /** With `"keep"`: told of each unknown variant kept, by its tag (`sessionUpdate: "plan_v2"`). */
    readonly onUnknownVariant?: (variant: UnknownVariant) => void;
}
/** A variant the open reading kept although this package does not know its tag. */
export interface UnknownVariant {
    /** The union's tag property (`sessionUpdate`). */
    readonly tag: string;
    /** The tag's value: the variant's kind (`plan_v2`). */
    readonly kind: string;
}
/**
 * A generated fast walk of one shape node (`parsers.js`): returns the value itself when serde
 * keeps it whole, and hands it to `ParsePlan.reshape` as soon as anything must change.
 */
export type ShapeWalk = (value: unknown, open: boolean) => unknown;
export interface ParsePlan {
    /** The shape walk of node `index` that changes what must change: the fast walks' slow path. */
    reshape(value: unknown, index: number, open: boolean): unknown;
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
