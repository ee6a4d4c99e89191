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
import { issuesOf, TOO_DEEP, ValidationError } from "./validation.js";
const hasOwn = (object, key) => Object.hasOwn(object, key);
/** The one key that must never be an own property of a result (assigning it swaps a prototype). */
const PROTO = "__proto__";
function isDict(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
/**
 * Set an own, enumerable property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; `defineProperty` always creates data.
 */
function put(object, key, value) {
    if (key === PROTO)
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
            if (key !== PROTO)
                out[key] = fresh(value[key]);
        return out;
    }
    return value;
}
/**
 * Arbitrary JSON without any own `__proto__` key, at any depth: the value itself when it
 * has none (the usual case, found without allocating for scalars), else a copy. Both
 * passes use an explicit stack: a free-form value may be nested deeper than the call
 * stack (JSON.parse accepts it, and it is valid).
 */
function free(value) {
    if (typeof value !== "object" || value === null || !holdsProto(value))
        return value;
    const root = Array.isArray(value) ? [] : {};
    const stack = [[value, root]];
    for (let pair = stack.pop(); pair; pair = stack.pop()) {
        const [source, target] = pair;
        const take = (item) => {
            if (typeof item !== "object" || item === null)
                return item;
            const copy = Array.isArray(item) ? [] : {};
            stack.push([item, copy]);
            return copy;
        };
        if (Array.isArray(source))
            for (const item of source)
                target.push(take(item));
        else
            for (const key of Object.keys(source))
                if (key !== PROTO)
                    target[key] = take(source[key]);
    }
    return root;
}
function holdsProto(value) {
    const stack = [value];
    for (let next = stack.pop(); next; next = stack.pop()) {
        if (Array.isArray(next)) {
            for (const item of next)
                if (typeof item === "object" && item !== null)
                    stack.push(item);
            continue;
        }
        if (hasOwn(next, PROTO))
            return true;
        for (const key of Object.keys(next)) {
            const item = next[key];
            if (typeof item === "object" && item !== null)
                stack.push(item);
        }
    }
    return false;
}
/** In the walk's records: no such shape (no `others`: other keys dropped; no `items`; no check). */
const NONE = -2;
/** A key whose value holds no object: kept as is. */
const NO_OBJECT = -1;
/**
 * A shape node as the walk reads it, built once per plan: every field present, so each
 * access site sees one object layout (the plan's literals each have their own), and keys
 * in a map.
 */
class Shape {
    constructor(keys, others, fills, unions, items, free, 
    /** Only a union (a nullable reference, a root union): the value takes its variant's shape. */
    passThrough) {
        this.keys = keys;
        this.others = others;
        this.fills = fills;
        this.unions = unions;
        this.items = items;
        this.free = free;
        this.passThrough = passThrough;
    }
}
class Variant {
    constructor(node, check, open, repair) {
        this.node = node;
        this.check = check;
        this.open = open;
        this.repair = repair;
    }
}
/** A union with its variants sorted for picking. */
class Picker {
    constructor(tag, closed, byTag, other, 
    /** Untagged variants that can be an object / an array, in schema order. */
    objects, arrays) {
        this.tag = tag;
        this.closed = closed;
        this.byTag = byTag;
        this.other = other;
        this.objects = objects;
        this.arrays = arrays;
    }
}
/** Thrown out of `collect` when a union's variant read the object repaired. */
class Repaired {
    constructor(value) {
        this.value = value;
    }
}
/** `pick`'s answer for a closed union's unknown variant: kept whole. */
const UNKNOWN = new Variant(NONE, NONE, NONE, NONE);
function variantOf(v) {
    return new Variant(v.node ?? NONE, v.check ?? NONE, v.open ?? v.check ?? NONE, v.repair ?? NONE);
}
function pickerOf(union) {
    const byTag = new Map();
    const objects = [];
    const arrays = [];
    let other = null;
    for (const v of union.variants) {
        const variant = variantOf(v);
        if (v.tag !== undefined)
            byTag.set(v.tag, variant);
        else if (v.other)
            other = variant;
        else {
            if (v.kinds === undefined || v.kinds === "object")
                objects.push(variant);
            if (v.kinds === undefined || v.kinds === "array")
                arrays.push(variant);
        }
    }
    return new Picker(union.tag ?? null, union.closed === true, byTag, other, objects, arrays);
}
function shapeOf(node) {
    // `__proto__` is never kept, even where a schema declares it.
    const keys = new Map((node.keys ?? []).filter(([key]) => key !== PROTO));
    const unions = node.unions?.map(pickerOf) ?? null;
    const passThrough = unions?.length === 1 &&
        node.keys === undefined &&
        node.others === undefined &&
        node.fills === undefined &&
        node.items === undefined &&
        node.free === undefined;
    return new Shape(keys, node.others ?? NONE, node.fills?.filter((f) => f.name !== PROTO) ?? null, unions, node.items ?? NONE, node.free === true, passThrough);
}
export function createParsePlan(nodes, shapeNodes, checks, 
/** The fast walk of each shape node, by index. */
walks) {
    const passes = (check, value) => check === undefined || checks[check](value);
    /* ---- repair: an invalid value made valid where the annotations allow ---- */
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
    /** Walk an invalid `value` through repair node `index`: annotations act on what fails its check. */
    function repair(value, index) {
        const node = nodes[index];
        let out = value;
        if (isDict(out)) {
            if (node.properties)
                out = repairProperties(out, node.properties);
            if (node.values !== undefined)
                out = repairValues(out, node);
        }
        else if (Array.isArray(out)) {
            out = repairItems(out, node);
        }
        if (node.union)
            out = repairUnion(out, node.union);
        if (node.allOf)
            for (const part of node.allOf)
                out = repair(out, part);
        return out;
    }
    function repairProperties(object, properties) {
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
            let next = p.node === undefined ? value : repair(value, p.node);
            if (p.onError !== undefined && !passes(p.onError, next)) {
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
    function repairValues(object, node) {
        let copy;
        for (const key of Object.keys(object)) {
            if (node.declared?.includes(key))
                continue;
            const value = object[key];
            const next = repair(value, node.values);
            if (next === value)
                continue;
            if (!copy)
                copy = copyOf(object);
            put(copy, key, next);
        }
        return copy ?? object;
    }
    function repairItems(items, node) {
        const skip = node.skipInvalid;
        if (node.items === undefined && skip === undefined)
            return items;
        let out;
        for (let i = 0; i < items.length; i++) {
            const item = items[i];
            const next = node.items === undefined ? item : repair(item, node.items);
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
    function repairUnion(value, union) {
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
            return only.node === undefined ? value : repair(value, only.node);
        }
        // Several candidates (untagged variants): the first whose result passes wins, as with
        // serde's untagged enums; if none does, the first one's result is the one reported.
        let first;
        let tried = false;
        for (const v of candidates) {
            const next = v.node === undefined ? value : repair(value, v.node);
            if (passes(v.check, next))
                return next;
            if (!tried) {
                first = next;
                tried = true;
            }
        }
        return first;
    }
    /* ---- shape: a valid value as serde keeps it ---- */
    const shapes = shapeNodes.map(shapeOf);
    /** What the variant `pick` chose reads: the value itself, or the value repaired for it. */
    let picked;
    /** Told of the unknown variants the open reading keeps, while one runs. */
    let reportUnknown;
    /** Whether `v` deserializes `value`: as it is, or once repaired by the variant's own rules. */
    const fits = (v, value, open) => {
        const check = open ? v.open : v.check;
        picked = value;
        if (check === NONE || checks[check](value))
            return true;
        if (v.repair === NONE)
            return false;
        const fixed = repair(value, v.repair);
        if (fixed === value || !checks[check](fixed))
            return false;
        picked = fixed;
        return true;
    };
    /** For the fast walks: `value` repaired as the variant (`repairIndex`, `check`) reads it, if it then passes. */
    const repairedAs = (value, repairIndex, check) => {
        const fixed = repair(value, repairIndex);
        return fixed !== value && checks[check](fixed) ? fixed : undefined;
    };
    /**
     * The variant serde reads `value` as: the tag's own variant when it deserializes, else
     * the untagged variants in schema order (the tag is then ignored). The value is valid, so
     * the last candidate needs no check, unless an unknown variant may be kept (`open`).
     */
    function pick(union, value, open) {
        picked = value;
        const array = Array.isArray(value);
        const untagged = array ? union.arrays : union.objects;
        let own = null;
        let unknownTag = false;
        if (union.tag !== null && !array && hasOwn(value, union.tag)) {
            const tag = value[union.tag];
            if (typeof tag === "string") {
                own = union.byTag.get(tag) ?? union.other;
                unknownTag = own === null;
            }
        }
        const keepUnknown = open && unknownTag && union.closed;
        const unknown = () => {
            reportUnknown?.({
                tag: union.tag,
                kind: value[union.tag],
            });
            return UNKNOWN;
        };
        if (own !== null && (untagged.length === 0 || fits(own, value, open)))
            return own;
        if (untagged.length === 0)
            return keepUnknown ? unknown() : null;
        const last = untagged.length - 1;
        for (let i = 0; i < last; i++) {
            const v = untagged[i];
            if (fits(v, value, open))
                return v;
        }
        const final = untagged[last];
        if (keepUnknown && !fits(final, value, open))
            return unknown();
        picked = value;
        return final;
    }
    const deep = (error, type) => error instanceof RangeError ? new ValidationError(type, [TOO_DEEP]) : error;
    const walk = (value, index, open) => walks[index](value, open);
    /** The interpreter for node `index`; its children go through their fast walks. */
    function shape(value, index, open) {
        if (typeof value !== "object" || value === null)
            return value;
        const at = shapes[index];
        if (at.passThrough) {
            // Nullable references and root unions: the value takes its variant's shape.
            const variant = pick(at.unions[0], value, open);
            // No variant (not a valid value) or an unknown one: kept whole, `__proto__` aside.
            if (variant === null || variant === UNKNOWN)
                return free(value);
            const chosen = picked;
            return variant.node === NONE ? chosen : walk(chosen, variant.node, open);
        }
        if (at.unions === null && !at.free)
            return Array.isArray(value)
                ? shapeItems(value, at.items, open)
                : shapeObject(value, at, open);
        return shapeFacets(value, [at], open);
    }
    /** `value` under several shapes at once: an `allOf` of them, as a union's chosen variant adds. */
    function shapeFacets(value, roots, open) {
        const facets = [];
        try {
            for (const root of roots)
                if (!collect(value, root, open, facets))
                    return free(value);
        }
        catch (error) {
            // A union among the parts read the object repaired: shape that instead (its variants
            // then fit as they are).
            if (error instanceof Repaired)
                return shapeFacets(error.value, roots, open);
            throw error;
        }
        if (facets.some((f) => f.free))
            return free(value);
        if (Array.isArray(value)) {
            const items = facets.flatMap((f) => (f.items === NONE ? [] : [f.items]));
            if (items.length <= 1)
                return shapeItems(value, items[0] ?? NONE, open);
            let out;
            for (let i = 0; i < value.length; i++) {
                const item = value[i];
                const next = shapeAll(item, items, open);
                if (out === undefined && next !== item)
                    out = value.slice(0, i);
                out?.push(next);
            }
            return out ?? value;
        }
        return facets.length === 1
            ? shapeObject(value, facets[0], open)
            : shapeMerged(value, facets, open);
    }
    function shapeAll(value, indices, open) {
        if (indices.length === 1)
            return walk(value, indices[0], open);
        if (typeof value !== "object" || value === null)
            return value;
        return shapeFacets(value, indices.map((i) => shapes[i]), open);
    }
    /**
     * `at` and the shapes of the variants its unions choose, recursively, passing through
     * union-only shapes; false: no variant, or an unknown one (the value is kept whole).
     */
    function collect(value, at, open, into) {
        if (!at.passThrough)
            into.push(at);
        for (const union of at.unions ?? []) {
            const variant = pick(union, value, open);
            if (variant === null || variant === UNKNOWN)
                return false;
            // Repaired to fit the variant: the whole object is that repaired value now.
            if (picked !== value)
                throw new Repaired(picked);
            if (variant.node !== NONE && !collect(value, shapes[variant.node], open, into))
                return false;
        }
        return true;
    }
    function shapeItems(items, node, open) {
        // An array whose items may hold objects has an items shape; without one, a valid array
        // holds scalars only, or its schema says nothing about them (then they are free-form).
        if (node === NONE)
            return free(items);
        let out;
        for (let i = 0; i < items.length; i++) {
            const item = items[i];
            const next = walk(item, node, open);
            if (out === undefined && next !== item)
                out = items.slice(0, i);
            out?.push(next);
        }
        return out ?? items;
    }
    function shapeObject(object, at, open) {
        let out;
        const keys = Object.keys(object);
        for (let i = 0; i < keys.length; i++) {
            const key = keys[i];
            const child = key === PROTO ? NONE : (at.keys.get(key) ?? at.others);
            if (child === NONE) {
                // Not admitted, or `__proto__`: dropped.
                if (!out)
                    out = partialCopy(object, keys, i);
                continue;
            }
            const value = object[key];
            const next = child === NO_OBJECT ? value : walk(value, child, open);
            if (out === undefined && next !== value)
                out = partialCopy(object, keys, i);
            if (out)
                out[key] = next;
        }
        return at.fills === null ? (out ?? object) : fill(out ?? object, at.fills, out !== undefined);
    }
    /** An object several shapes admit at once: a key any of them admits is kept. */
    function shapeMerged(object, facets, open) {
        let out;
        const keys = Object.keys(object);
        for (let i = 0; i < keys.length; i++) {
            const key = keys[i];
            const children = [];
            let admitted = false;
            if (key !== PROTO) {
                for (const f of facets) {
                    const child = f.keys.get(key);
                    if (child === undefined)
                        continue;
                    admitted = true;
                    if (child !== NO_OBJECT)
                        children.push(child);
                }
                if (!admitted)
                    for (const f of facets)
                        if (f.others !== NONE) {
                            admitted = true;
                            if (f.others !== NO_OBJECT)
                                children.push(f.others);
                        }
            }
            if (!admitted) {
                if (!out)
                    out = partialCopy(object, keys, i);
                continue;
            }
            const value = object[key];
            const next = children.length === 0 ? value : shapeAll(value, children, open);
            if (out === undefined && next !== value)
                out = partialCopy(object, keys, i);
            if (out)
                out[key] = next;
        }
        let result = out ?? object;
        for (const f of facets)
            if (f.fills !== null)
                result = fill(result, f.fills, result !== object);
        return result;
    }
    /** A copy of `object` holding its first `count` keys (none of them `__proto__`). */
    function partialCopy(object, keys, count) {
        const out = {};
        for (let i = 0; i < count; i++) {
            const key = keys[i];
            if (key !== PROTO)
                out[key] = object[key];
        }
        return out;
    }
    function fill(object, fills, owned) {
        let out = owned ? object : undefined;
        for (const f of fills) {
            const present = hasOwn(object, f.name);
            let value;
            if (!present && hasOwn(f, "default"))
                value = f.default;
            else if (present && object[f.name] === null && hasOwn(f, "onNull"))
                value = f.onNull;
            else
                continue;
            if (!out)
                out = copyOf(object);
            put(out, f.name, fresh(value));
        }
        return out ?? object;
    }
    return {
        reshape: shape,
        free,
        repairedAs,
        read(value, options, validator, type, shapeRoot, repairRoot, open) {
            try {
                const keep = options?.unknownVariants === "keep";
                const root = shapeRoot === undefined ? undefined : walks[shapeRoot];
                // Valid after all (a caller without the fast path): only the shape walk.
                if (validator(value))
                    return root === undefined ? value : root(value, false);
                const fixed = repairRoot === undefined ? value : repair(value, repairRoot);
                if (fixed !== value && validator(fixed))
                    return root === undefined ? fixed : root(fixed, false);
                if (keep && open !== undefined && checks[open](fixed)) {
                    if (root === undefined)
                        return fixed;
                    reportUnknown = options?.onUnknownVariant;
                    try {
                        return root(fixed, true);
                    }
                    finally {
                        reportUnknown = undefined;
                    }
                }
                // Again, for this value's issues: checks during the walk may have run this validator.
                validator(fixed);
                // What is left cannot be repaired. Kept items passed their own check, so issue paths
                // in the repaired value are the input's paths too.
                throw new ValidationError(type, issuesOf(validator));
            }
            catch (error) {
                throw deep(error, type);
            }
        },
        deep,
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
        untaggedGuard(tag, whole) {
            // Without the tag no tagged variant (nor the catch-all) can match: a valid value is one
            // of the untagged variants. A value that carries a tag serde would ignore is not: its
            // type would claim the tag absent.
            return (value) => isDict(value) && !hasOwn(value, tag) && whole(value);
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
