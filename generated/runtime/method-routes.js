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
 * meant, repaired as the reference implementation would), strictly otherwise.
 */
export function receive(parse, validator, type, value) {
    if (parse) {
        try {
            return { value: parse(value) };
        }
        catch (error) {
            if (error instanceof ValidationError)
                return { invalid: error };
            throw error;
        }
    }
    if (!validator || validator(value))
        return { value };
    return { invalid: new ValidationError(type, issuesOf(validator)) };
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
