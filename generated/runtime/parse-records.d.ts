/**
 * The records of the two parse plans, as the generator writes them into `parsers.js` and the
 * interpreter (parse.ts and the parse-*.ts modules) reads them: the contract between the two,
 * checked by the compiler on the generator's side (model/repair-plan.ts, model/shape-plan.ts,
 * emit/shape-walks.ts). parse.ts re-exports them.
 */
import type { Reading } from "./parse-context.js";
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
/**
 * A generated fast walk of one shape node (`parsers.js`): returns the value itself when serde
 * keeps it whole, and hands it to `ParsePlan.reshape` as soon as anything must change. The
 * reading is passed on as it came: to each child's walk and to the interpreter.
 */
export type ShapeWalk = (value: unknown, reading: Reading) => unknown;
