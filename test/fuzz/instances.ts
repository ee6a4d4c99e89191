/**
 * Values derived from a JSON Schema, for differential testing: mostly valid instances of a
 * definition, then mutated towards the edges (wrong types, missing or extra keys, numbers
 * past the integer formats' ranges, tag swaps, prototype-shaped keys). Deterministic for a
 * given seed, so a failure is reproducible from the seed printed with it.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown> | boolean;

/** mulberry32: tiny, fast, good enough to spread cases; seeded so runs repeat exactly. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INT_RANGES: Record<string, [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  int64: [-(2 ** 63), 2 ** 63 - 1024],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  uint64: [0, 2 ** 64 - 2048],
};

const EDGE_NUMBERS = [
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 63,
  2 ** 64,
  65535,
  65536,
  4294967296,
  -2147483649,
  1e308,
];
const EDGE_STRINGS = [
  "",
  "x",
  "\u2028",
  "\ud800",
  "__proto__",
  "constructor",
  "a".repeat(300),
  "USD",
  "usd",
];
const AWKWARD_KEYS = ["__proto__", "constructor", "toString", "", "_meta", "hasOwnProperty"];

export class InstanceGenerator {
  constructor(
    private readonly defs: Record<string, Schema>,
    private readonly random: () => number,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  /** A value shaped by the schema; valid more often than not, never guaranteed. */
  sample(schema: Schema, depth = 0): Json {
    if (schema === true) return this.anyJson(depth);
    if (schema === false || typeof schema !== "object" || schema === null) return null;
    const s = schema;
    if (typeof s.$ref === "string" && !("properties" in s)) {
      const target = this.defs[s.$ref.replace(/^#\/(\$defs|definitions)\//, "")];
      return depth > 8 ? null : this.sample(target ?? true, depth + 1);
    }
    if ("const" in s) return s.const as Json;
    if (Array.isArray(s.enum)) return this.pick(s.enum as Json[]);
    const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    const parts: Json[] = [];
    if (Array.isArray(branches) && branches.length > 0)
      parts.push(this.sample(this.pick(branches), depth + 1));
    if (Array.isArray(s.allOf))
      for (const part of s.allOf as Schema[]) parts.push(this.sample(part, depth + 1));
    const own = this.ofType(s, depth);
    return parts.reduce<Json>((acc, part) => merge(acc, part), own);
  }

  private ofType(s: Record<string, unknown>, depth: number): Json {
    const types = Array.isArray(s.type)
      ? (s.type as string[])
      : typeof s.type === "string"
        ? [s.type]
        : [];
    const type =
      types.length > 0
        ? this.pick(depth > 6 && types.includes("null") ? ["null"] : types)
        : s.properties
          ? "object"
          : undefined;
    switch (type) {
      case "object":
        return this.object(s, depth);
      case "array": {
        const count = depth > 5 ? 0 : Math.floor(this.random() * 4);
        return Array.from({ length: count }, () =>
          this.sample((s.items as Schema) ?? true, depth + 1),
        );
      }
      case "string":
        return this.chance(0.8) ? `s${Math.floor(this.random() * 1000)}` : this.pick(EDGE_STRINGS);
      case "integer": {
        const range = INT_RANGES[String(s.format)] ?? [
          typeof s.minimum === "number" ? s.minimum : -1000,
          typeof s.maximum === "number" ? s.maximum : 1000,
        ];
        return this.chance(0.85)
          ? Math.floor(range[0] + this.random() * Math.min(range[1] - range[0], 1e6))
          : this.pick(EDGE_NUMBERS);
      }
      case "number":
        return this.chance(0.85) ? this.random() * 100 : this.pick(EDGE_NUMBERS);
      case "boolean":
        return this.chance(0.5);
      case "null":
        return null;
      default:
        return types.length === 0 && !s.oneOf && !s.anyOf && !s.allOf ? this.anyJson(depth) : {};
    }
  }

  private object(s: Record<string, unknown>, depth: number): Json {
    const out: { [key: string]: Json } = {};
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const [key, sub] of Object.entries(props)) {
      if (required.has(key) || (depth < 5 && this.chance(0.5)))
        define(out, key, this.sample(sub, depth + 1));
    }
    for (const key of required) if (!(key in out)) define(out, key, this.anyJson(depth + 1));
    return out;
  }

  private anyJson(depth: number): Json {
    const kind = depth > 4 ? Math.floor(this.random() * 4) : Math.floor(this.random() * 6);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick(EDGE_NUMBERS);
      case 3:
        return this.pick(EDGE_STRINGS);
      case 4:
        return [this.anyJson(depth + 1)];
      default:
        return { k: this.anyJson(depth + 1) };
    }
  }

  /** One random edit somewhere in the value; returns a new value, the input is kept. */
  mutate(value: Json): Json {
    const copy = structuredClone(value);
    const nodes: Array<{ parent: { [key: string]: Json } | Json[]; key: string | number }> = [];
    const collect = (node: Json) => {
      if (Array.isArray(node))
        node.forEach((child, i) => {
          nodes.push({ parent: node, key: i });
          collect(child);
        });
      else if (node && typeof node === "object")
        for (const key of Object.keys(node)) {
          nodes.push({ parent: node, key });
          collect(node[key] as Json);
        }
    };
    collect(copy);
    if (nodes.length === 0 || this.chance(0.05)) return this.anyJson(0);
    const target = this.pick(nodes);
    const parent = target.parent as Record<string | number, Json>;
    const current = parent[target.key] as Json;
    switch (Math.floor(this.random() * 6)) {
      case 0:
        if (Array.isArray(parent)) parent.splice(target.key as number, 1);
        else delete parent[target.key];
        break;
      case 1:
        define(
          parent,
          target.key,
          typeof current === "string" ? this.pick(EDGE_NUMBERS) : this.pick(EDGE_STRINGS),
        );
        break;
      case 2:
        define(parent, target.key, typeof current === "number" ? this.pick(EDGE_NUMBERS) : null);
        break;
      case 3:
        if (!Array.isArray(parent)) define(parent, this.pick(AWKWARD_KEYS), this.anyJson(2));
        break;
      case 4:
        define(
          parent,
          target.key,
          typeof current === "string" ? `${current}_x` : Array.isArray(current) ? [] : {},
        );
        break;
      default:
        define(parent, target.key, this.anyJson(3));
    }
    return copy;
  }
}

/** Own data property, even for `__proto__`: what JSON.parse would produce. */
function define(
  target: Record<string | number, Json> | Json[],
  key: string | number,
  value: Json,
): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function merge(a: Json, b: Json): Json {
  if (
    a &&
    b &&
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(a)) define(out, k, v);
    for (const [k, v] of Object.entries(b)) define(out, k, v);
    return out;
  }
  return a === null || (typeof a === "object" && !Array.isArray(a) && Object.keys(a).length === 0)
    ? b
    : a;
}
