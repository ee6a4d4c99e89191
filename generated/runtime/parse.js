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
import { issuesOf, ValidationError } from "./validation.js";
const hasOwn = (object, key) => Object.hasOwn(object, key);
function isDict(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
/**
 * Set an own, enumerable property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; `defineProperty` always creates data.
 */
function put(object, key, value) {
    if (key === "__proto__")
        Object.defineProperty(object, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
        });
    else
        object[key] = value;
}
function copyOf(object) {
    const out = {};
    for (const key of Object.keys(object))
        put(out, key, object[key]);
    return out;
}
/** Defaults come from the plan, shared by every call: each result gets its own copy. */
function fresh(value) {
    if (Array.isArray(value))
        return value.map(fresh);
    if (isDict(value)) {
        const out = {};
        for (const key of Object.keys(value))
            put(out, key, fresh(value[key]));
        return out;
    }
    return value;
}
export function createParsePlan(nodes, checks) {
    const variantMaps = new Map();
    const tagged = (union) => {
        let map = variantMaps.get(union);
        if (!map) {
            map = new Map();
            for (const v of union.variants)
                if (v.tag !== undefined)
                    map.set(v.tag, v);
            variantMaps.set(union, map);
        }
        return map;
    };
    const passes = (check, value) => check === undefined || checks[check](value);
    /**
     * Walk `value` through node `index`. With `repair` off only defaults are filled in (the
     * value is already valid); with it on, annotations act on whatever fails its check.
     */
    function walk(value, index, repair) {
        const node = nodes[index];
        if (!repair && !node.fill)
            return value;
        let out = value;
        if (isDict(out)) {
            if (node.properties)
                out = walkProperties(out, node.properties, repair);
            if (node.values !== undefined)
                out = walkValues(out, node, repair);
        }
        else if (Array.isArray(out)) {
            out = walkItems(out, node, repair);
        }
        if (node.union)
            out = walkUnion(out, node.union, repair);
        if (node.allOf)
            for (const part of node.allOf)
                out = walk(out, part, repair);
        return out;
    }
    function walkProperties(object, properties, repair) {
        let copy;
        const target = () => {
            if (!copy)
                copy = copyOf(object);
            return copy;
        };
        for (const p of properties) {
            if (!hasOwn(object, p.name)) {
                if (hasOwn(p, "default"))
                    put(target(), p.name, fresh(p.default));
                continue;
            }
            const value = object[p.name];
            if (value === null && hasOwn(p, "onNull")) {
                put(target(), p.name, fresh(p.onNull));
                continue;
            }
            let next = p.node === undefined ? value : walk(value, p.node, repair);
            if (repair && p.onError !== undefined && !passes(p.onError, next)) {
                if (hasOwn(p, "fallback"))
                    next = fresh(p.fallback);
                else if (p.omit) {
                    delete target()[p.name];
                    continue;
                }
                // Neither: the property stays invalid and validation of the whole reports it.
            }
            if (next !== value)
                put(target(), p.name, next);
        }
        return copy ?? object;
    }
    function walkValues(object, node, repair) {
        let copy;
        for (const key of Object.keys(object)) {
            if (node.declared?.includes(key))
                continue;
            const value = object[key];
            const next = walk(value, node.values, repair);
            if (next === value)
                continue;
            if (!copy)
                copy = copyOf(object);
            put(copy, key, next);
        }
        return copy ?? object;
    }
    function walkItems(items, node, repair) {
        const skip = repair ? node.skipInvalid : undefined;
        if (node.items === undefined && skip === undefined)
            return items;
        let out;
        for (let i = 0; i < items.length; i++) {
            const item = items[i];
            const next = node.items === undefined ? item : walk(item, node.items, repair);
            if (skip !== undefined && !passes(skip, next)) {
                // serde_with's VecSkipError: an item that does not deserialize is dropped.
                if (!out)
                    out = items.slice(0, i);
                continue;
            }
            if (out === undefined && next !== item)
                out = items.slice(0, i);
            out?.push(next);
        }
        return out ?? items;
    }
    function walkUnion(value, union, repair) {
        const tag = union.tag !== undefined && isDict(value) && hasOwn(value, union.tag)
            ? value[union.tag]
            : undefined;
        const candidates = [];
        if (typeof tag === "string") {
            // A known tag selects its own variant only: a broken known variant must fail, never
            // pass as the catch-all (whose schema excludes the known tags anyway).
            const own = tagged(union).get(tag) ?? union.variants.find((v) => v.other);
            if (own)
                candidates.push(own);
        }
        for (const v of union.variants)
            if (v.tag === undefined && !v.other)
                candidates.push(v);
        if (candidates.length === 0)
            return value;
        if (candidates.length === 1) {
            const only = candidates[0];
            return only.node === undefined ? value : walk(value, only.node, repair);
        }
        if (!repair) {
            // A valid value only needs its defaults: only variants that have some are worth a
            // check, so a valid message of a union with untagged variants stays cheap.
            for (const v of candidates)
                if (v.node !== undefined && nodes[v.node].fill && passes(v.check, value))
                    return walk(value, v.node, false);
            return value;
        }
        // Several candidates (untagged variants): the first whose result passes wins, as with
        // serde's untagged enums; if none does, the first one's result is the one reported.
        let first;
        let tried = false;
        for (const v of candidates) {
            const next = v.node === undefined ? value : walk(value, v.node, repair);
            if (passes(v.check, next))
                return next;
            if (!tried) {
                first = next;
                tried = true;
            }
        }
        return first;
    }
    return {
        parser(validator, type, root) {
            const fills = root !== undefined && nodes[root].fill === true;
            return (value) => {
                if (validator(value))
                    return (fills ? walk(value, root, false) : value);
                if (root === undefined)
                    throw new ValidationError(type, issuesOf(validator));
                const repaired = walk(value, root, true);
                if (repaired !== value && validator(repaired))
                    return repaired;
                // Again, for this value's issues: checks during the walk may have run this validator.
                validator(repaired);
                // What is left cannot be repaired. Kept items passed their own check, so issue paths
                // in the repaired value are the input's paths too.
                throw new ValidationError(type, issuesOf(validator));
            };
        },
        variantGuard(tag, variants, other) {
            const byTag = new Map(variants);
            return (value, wanted) => {
                if (!isDict(value) || !hasOwn(value, tag) || value[tag] !== wanted)
                    return false;
                const check = byTag.get(wanted) ?? other;
                return check !== undefined && checks[check](value);
            };
        },
        customGuard(tag, known, other) {
            return (value) => {
                if (!isDict(value) || !hasOwn(value, tag))
                    return false;
                const actual = value[tag];
                return (typeof actual === "string" && !known.includes(actual) && checks[other](value));
            };
        },
    };
}
/* Combinators that compose checks for subschemas out of the definitions' validators. */
export function all(...checks) {
    return (value) => checks.every((c) => c(value));
}
export function any(...checks) {
    return (value) => checks.some((c) => c(value));
}
/** JSON Schema `oneOf`: exactly one passes. */
export function one(...checks) {
    return (value) => {
        let passed = 0;
        for (const c of checks)
            if (c(value) && ++passed > 1)
                return false;
        return passed === 1;
    };
}
export function not(check) {
    return (value) => !check(value);
}
/** Every item of an array; anything else passes (`items` constrains arrays only). */
export function items(check) {
    return (value) => !Array.isArray(value) || value.every((item) => check(item));
}
/** Every present property among `checks`; anything but an object passes. */
export function props(checks) {
    return (value) => !isDict(value) || checks.every(([name, c]) => !hasOwn(value, name) || c(value[name]));
}
/** Every property not in `declared` (`additionalProperties`); anything but an object passes. */
export function values(check, declared) {
    return (value) => !isDict(value) || Object.keys(value).every((k) => declared.includes(k) || check(value[k]));
}
