import { issuesOf, ValidationError } from "./validation.js";
export function routesOf(entries) {
    const request = new Map();
    const notification = new Map();
    for (const entry of entries) {
        (entry.kind === "request" ? request : notification).set(entry.method, entry);
    }
    return { request, notification };
}
/** Why `params` fail the entry's schema, or undefined when they pass (or nothing is known). */
export function invalidParams(entry, params) {
    const validator = entry?.validateParams;
    if (!entry || !validator || validator(params))
        return undefined;
    return new ValidationError(entry.params, issuesOf(validator));
}
/**
 * Read a received value: leniently with the entry's parser when it has one (what the peer
 * meant, as the reference implementation reads it), strictly otherwise. `unknownVariants`
 * says what becomes of a closed union's variant this package does not know: kept (`keep`,
 * listed in `unknown`) or a reason to refuse the value (`reject`; when they are the only
 * reason, listed in `unknown` of the `invalid` answer, so the refusal can name them).
 */
export function receive(parse, validator, type, value, unknownVariants = "reject") {
    const unknown = [];
    if (parse) {
        const open = {
            unknownVariants: "keep",
            onUnknownVariant: (variant) => unknown.push(variant),
        };
        try {
            if (unknownVariants === "keep")
                return { value: parse(value, open), unknown };
            return { value: parse(value), unknown };
        }
        catch (error) {
            if (!(error instanceof ValidationError))
                throw error;
            // Refused: when the open reading accepts the value, the variants it kept are the only
            // reason, and the refusal names them. Otherwise the issues speak for themselves.
            const only = unknownVariants === "reject" && accepts(() => parse(value, open));
            return { invalid: error, unknown: only ? unknown : [] };
        }
    }
    if (!validator || validator(value))
        return { value, unknown };
    return { invalid: new ValidationError(type, issuesOf(validator)), unknown };
}
function accepts(read) {
    try {
        read();
        return true;
    }
    catch (error) {
        if (error instanceof ValidationError)
            return false;
        throw error;
    }
}
/** `sessionUpdate "plan_v2"`, `type "diagram"`: the kinds a log line names. */
export function kindsOf(unknown) {
    return [...new Set(unknown.map((u) => `${u.tag} ${JSON.stringify(u.kind)}`))].join(", ");
}
/**
 * An empty result arrives as `null` from many peers (the official TypeScript SDK sends
 * `null` when a handler returns nothing) and as `undefined` from our own handlers. When the
 * schema's result type is an object that `{}` satisfies, that is what both mean.
 */
export function fillEmpty(value, validator) {
    if (value !== undefined && value !== null)
        return value;
    if (validator && !validator(value ?? null) && validator({}))
        return {};
    return value ?? null;
}
