import fc from "fast-check";

const REMOVE = Symbol("remove");
const SAME = Symbol("same");

/** What a mutation may know about the surface: its union tags, for stale tags. */
export interface MutationContext {
  /** Tag property → the groups of values one union gives it (tagged.ts `tagGroups`). */
  tags: ReadonlyMap<string, readonly (readonly string[])[]>;
}

type Replace = (value: unknown, key: string | number, pick: number, c: MutationContext) => unknown;
type Add = (
  object: Record<string, unknown>,
  pick: number,
  c: MutationContext,
) => [string, unknown] | undefined;

/**
 * Edits of one value inside the message (never the message itself): a wrong type, `null`,
 * an empty object or array, a missing property or item, an unknown string (which, on a
 * union's tag, makes a custom variant), and a stale tag (another variant's tag on this
 * variant's fields).
 */
const REPLACE: readonly Replace[] = [
  () => null,
  () => 42,
  () => "☃",
  () => true,
  () => ({}),
  () => [],
  () => REMOVE,
  (value) => (typeof value === "string" ? "_custom" : [value]),
  (value) => (Array.isArray(value) ? [...value, value[0] ?? null, 7] : -1.5),
  (value, key, pick, { tags }) => {
    if (typeof key !== "string" || typeof value !== "string") return SAME;
    const others = (tags.get(key) ?? [])
      .filter((group) => group.includes(value))
      .flatMap((group) => group.filter((v) => v !== value));
    return others.length === 0 ? SAME : others[pick % others.length];
  },
];

/**
 * Keys added to an object of the message (the message itself included): one the schema
 * does not declare, a `__proto__` key as JSON.parse makes it, and a union's tag on an object
 * that has none (a stale tag on an untagged variant: McpServer's stdio, AuthMethod's agent).
 */
const ADD: readonly Add[] = [
  (_object, pick) => [`x_unknown_${pick % 3}`, pick % 2 === 0 ? { nested: [pick] } : pick],
  () => ["__proto__", { polluted: true }],
  (object, pick, { tags }) => {
    const absent = [...tags].filter(([tag]) => !Object.hasOwn(object, tag));
    if (absent.length === 0) return undefined;
    const [tag, groups] = absent[pick % absent.length] as [string, readonly (readonly string[])[]];
    const values = groups.flat();
    return [tag, values[Math.floor(pick / absent.length) % values.length]];
  },
];

/** One edit of a JSON value: where (an index, wrapped around), which edit, which variant of it. */
export interface Mutation {
  at: number;
  kind: number;
  pick: number;
}

export const mutationsArbitrary = fc.array(
  fc.record({
    at: fc.nat(),
    kind: fc.nat({ max: REPLACE.length + ADD.length - 1 }),
    pick: fc.nat(),
  }),
  { minLength: 1, maxLength: 3 },
);

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Set an own data property: a key named `__proto__` stays data, never a prototype. */
function define(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A mutated copy of `value` (the input is never changed). */
export function mutate(
  value: unknown,
  edits: readonly Mutation[],
  context: MutationContext,
): unknown {
  const root: unknown = structuredClone(value);
  for (const edit of edits) {
    const slots: Slot[] = [];
    const objects: Array<Record<string, unknown>> = [];
    collect(root, slots, objects);
    if (edit.kind < REPLACE.length) {
      const slot = slots[edit.at % Math.max(slots.length, 1)];
      if (!slot) continue;
      const current = (slot.parent as Record<string | number, unknown>)[slot.key];
      const next = (REPLACE[edit.kind] as Replace)(current, slot.key, edit.pick, context);
      if (next === SAME) continue;
      if (next === REMOVE) {
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else delete (slot.parent as Record<string, unknown>)[slot.key as string];
      } else if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = next;
      else define(slot.parent, slot.key as string, next);
    } else {
      const object = objects[edit.at % Math.max(objects.length, 1)];
      if (!object) continue;
      const added = (ADD[edit.kind - REPLACE.length] as Add)(object, edit.pick, context);
      if (added) define(object, added[0], added[1]);
    }
  }
  return root;
}

function collect(value: unknown, slots: Slot[], objects: Array<Record<string, unknown>>): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      slots.push({ parent: value, key: i });
      collect(item, slots, objects);
    });
  } else if (typeof value === "object" && value !== null) {
    objects.push(value as Record<string, unknown>);
    for (const key of Object.keys(value)) {
      slots.push({ parent: value as Record<string, unknown>, key });
      collect((value as Record<string, unknown>)[key], slots, objects);
    }
  }
}
