import type { ParseOptions, ResponseParseOptions } from "./parse-context.js";
import type { ValidationResult } from "./validation.js";
/** `is<Name>`: the strict check of a value against the definition's JSON Schema. */
export interface Guard<T> {
    /**
     * True when `value` is valid against the definition's JSON Schema (draft 2020-12, strict):
     * then it is a `T`. For trust boundaries and tests; never throws.
     */
    (value: unknown): value is T;
}
/** `validate<Name>`: the strict check, with the issues when the value is invalid. */
export interface Validate<T> {
    /**
     * Checks `value` against the definition's JSON Schema like `is<Name>`; the result is the
     * value typed as `T`, or the issues (instance path, message and keyword of each).
     */
    (value: unknown): ValidationResult<T>;
}
/** `assert<Name>`: the strict check that throws. */
export interface Assert<T> {
    /**
     * Returns `value` typed as `T` when it is valid against the definition's JSON Schema, or
     * throws a `ValidationError` listing the issues.
     */
    (value: unknown): T;
}
/** `parse<Name>`: lenient reading, as the reference implementation reads the wire. */
export interface Parse<T> {
    /**
     * Reads `value` as the reference implementation deserializes it: properties the definition
     * does not declare dropped, a union read as the variant it picks, the schema's
     * `x-deserialize-*` annotations and defaults applied. Returns the result, a new value (the
     * input is never changed), or throws a `ValidationError`.
     */
    (value: unknown): T;
}
/**
 * `parse<Name>` of a definition that reaches a closed tagged union: besides the reading of
 * `Parse`, it can keep a variant this package does not know (a newer peer's) whole.
 */
export interface OpenParse<T, Received> {
    /**
     * Reads `value` as the reference implementation deserializes it: properties the definition
     * does not declare dropped, a union read as the variant it picks, the schema's
     * `x-deserialize-*` annotations and defaults applied. Returns the result, a new value (the
     * input is never changed), or throws a `ValidationError`.
     */
    (value: unknown, options?: {
        readonly unknownVariants?: "reject";
    }): T;
    /**
     * With `{ unknownVariants: "keep" }`: a variant of a closed tagged union this package does
     * not know is kept whole, as the received type admits.
     */
    (value: unknown, options: ParseOptions): Received;
}
/**
 * `parse<Name>` of a JSON-RPC response envelope (`AgentResponse`, `ClientResponse`): its
 * `result` answers a request the response does not name, so the caller may name it.
 */
export interface ResponseParse<T> {
    /**
     * Reads `value` as `Parse` does. With `{ method }`, the method of the request this response
     * answers, `result` is read as that method's result, as the connection reads it; without
     * it, or for a method this surface does not know, `result` is kept whole (the envelope's
     * schema still checks it).
     */
    (value: unknown, options?: Pick<ResponseParseOptions, "method">): T;
}
/**
 * `parse<Name>` of a JSON-RPC response envelope that reaches a closed tagged union: the
 * reading of `ResponseParse`, with `OpenParse`'s choice of what becomes of unknown variants.
 */
export interface OpenResponseParse<T, Received> {
    /**
     * Reads `value` as `Parse` does. With `{ method }`, the method of the request this response
     * answers, `result` is read as that method's result, as the connection reads it; without
     * it, or for a method this surface does not know, `result` is kept whole (the envelope's
     * schema still checks it).
     */
    (value: unknown, options?: Pick<ResponseParseOptions, "method"> & {
        readonly unknownVariants?: "reject";
    }): T;
    /**
     * With `{ unknownVariants: "keep" }`: a variant of a closed tagged union this package does
     * not know is kept whole, as the received type admits; `method` as above.
     */
    (value: unknown, options: ResponseParseOptions): Received;
}
/**
 * `is<Name>Of` of a tagged union `U` whose variants are told apart by the property `Tag`, with
 * the tags `Known`. The narrowed type is `Extract<U, { [Tag]: K }>`, written out as the
 * conditional type it stands for: a consumer's compiler then has one alias fewer to instantiate.
 */
export interface VariantGuard<U, Tag extends PropertyKey, Known extends string> {
    /**
     * True when `value` is a valid variant of the union whose tag is `tag`: the payload is
     * checked, not only the tag.
     */
    <K extends Known>(value: unknown, tag: K): value is U extends {
        [P in Tag]: K;
    } ? U : never;
}
/**
 * `is<Name>Of` of an open tagged union `U`: besides the variants with the tags `Known`, a
 * catch-all variant takes any other tag. The narrowed types are `Extract<U, { [Tag]: K }>` for a
 * known tag, else the custom variant `Exclude<Extract<U, { [Tag]: string }>, { [Tag]: Known }>`.
 */
export interface OpenVariantGuard<U, Tag extends PropertyKey, Known extends string> {
    /**
     * True when `value` is a valid variant of the union whose tag is `tag`: the payload is
     * checked, not only the tag. An unknown tag narrows to the custom (catch-all) variant.
     */
    <K extends string>(value: unknown, tag: K): value is K extends Known ? U extends {
        [P in Tag]: K;
    } ? U : never : U extends {
        [P in Tag]: string;
    } ? U extends {
        [P in Tag]: Known;
    } ? never : U : never;
}
/**
 * `isUntagged<Name>`: for a tagged union `U` with untagged variants (serde's fallback), tagged
 * by the property `Tag`.
 */
export interface UntaggedGuard<U, Tag extends PropertyKey> {
    /**
     * True when `value` is a valid member of the union of an untagged variant: one without the
     * tag. The reference reads a value whose tag no variant takes as an untagged variant and
     * ignores the tag; parsing drops it, so parse first.
     */
    (value: unknown): value is Exclude<U, {
        [P in Tag]: string;
    }>;
}
/** `isCustom<Name>` of an open tagged union `U` (see `OpenVariantGuard`). */
export interface CustomGuard<U, Tag extends PropertyKey, Known extends string> {
    /**
     * True when `value` is a valid custom variant of the union: a tag none of the known variants
     * uses, with a payload the catch-all accepts.
     */
    (value: unknown): value is U extends {
        [P in Tag]: string;
    } ? U extends {
        [P in Tag]: Known;
    } ? never : U : never;
}
