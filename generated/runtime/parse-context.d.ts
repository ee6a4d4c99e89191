/**
 * How a value is read, passed explicitly down every walk: the strict reading (the
 * reference's), or the open one, which keeps a closed tagged union's unknown variants and
 * tells its sink of each. Nothing about a reading lives anywhere else, so a reading started
 * inside another (a callback that parses) cannot disturb it.
 */
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
/**
 * How `parse<Name>` of a JSON-RPC response envelope (`AgentResponse`, `ClientResponse`)
 * reads its `result`, which answers a request the response does not name.
 */
export interface ResponseParseOptions extends ParseOptions {
    /**
     * The method of the request this response answers (`"session/new"`): the result is read
     * as that method's result type, as the connection reads it. Without it, or for a method
     * the surface does not know (an extension's), the result is kept whole, as valid as the
     * envelope's schema says it is.
     */
    readonly method?: string;
}
/** A variant the open reading kept although this package does not know its tag. */
export interface UnknownVariant {
    /** The union's tag property (`sessionUpdate`). */
    readonly tag: string;
    /** The tag's value: the variant's kind (`plan_v2`). */
    readonly kind: string;
}
/** The open reading under way: where each unknown variant it keeps is reported. */
export interface OpenReading {
    readonly onUnknown: ((variant: UnknownVariant) => void) | undefined;
}
/**
 * `false`: the strict reading. Falsy on purpose: the generated fast walks test it with
 * `if (x)` and hand the open reading of a competing union to the interpreter.
 */
export type Reading = false | OpenReading;
/** The open reading that tells `onUnknown` of every unknown variant it keeps. */
export declare function openReading(onUnknown: OpenReading["onUnknown"]): OpenReading;
