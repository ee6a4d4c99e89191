/**
 * The JSON values parsing hands back: own data properties only, never an own `__proto__`
 * key, copies where anything changes and the input's own parts shared where nothing does.
 */

export const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

export type Dict = Record<string, unknown>;

/** The one key that must never be an own property of a result (assigning it swaps a prototype). */
export const PROTO = "__proto__";

export function isDict(value: unknown): value is Dict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Set an own, enumerable property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; `defineProperty` always creates data.
 */
export function put(object: Dict, key: string, value: unknown): void {
  if (key === PROTO)
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else object[key] = value;
}

export function copyOf(object: Dict): Dict {
  const out: Dict = {};
  for (const key of Object.keys(object)) put(out, key, object[key]);
  return out;
}

/** Defaults come from the plan, shared by every call: each result gets its own copy. */
export function fresh(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fresh);
  if (isDict(value)) {
    const out: Dict = {};
    for (const key of Object.keys(value)) if (key !== PROTO) out[key] = fresh(value[key]);
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
export function free(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !holdsProto(value)) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: object, target: Dict | unknown[]]> = [[value, root as Dict]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [source, target] = pair;
    const take = (item: unknown): unknown => {
      if (typeof item !== "object" || item === null) return item;
      const copy = Array.isArray(item) ? [] : {};
      stack.push([item, copy]);
      return copy;
    };
    if (Array.isArray(source)) for (const item of source) (target as unknown[]).push(take(item));
    else
      for (const key of Object.keys(source))
        if (key !== PROTO) (target as Dict)[key] = take((source as Dict)[key]);
  }
  return root;
}

function holdsProto(value: object): boolean {
  const stack: object[] = [value];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    if (hasOwn(next, PROTO)) return true;
    for (const key of Object.keys(next)) {
      const item = (next as Dict)[key];
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return false;
}

/** A copy of `object` holding its first `count` keys (none of them `__proto__`). */
export function partialCopy(object: Dict, keys: readonly string[], count: number): Dict {
  const out: Dict = {};
  for (let i = 0; i < count; i++) {
    const key = keys[i] as string;
    if (key !== PROTO) out[key] = object[key];
  }
  return out;
}
