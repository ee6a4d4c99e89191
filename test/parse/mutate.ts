import fc from "fast-check";

const REMOVE = Symbol("remove");

/**
 * The edits that reach every annotation and union rule: a wrong type, `null`, an empty
 * object or array, a missing property or item, and an unknown string (which, on a union's
 * tag, makes a custom variant). No edit adds a property the schema does not declare.
 */
const EDITS: ReadonlyArray<(value: unknown) => unknown> = [
  () => null,
  () => 42,
  () => "☃",
  () => true,
  () => ({}),
  () => [],
  () => REMOVE,
  (value) => (typeof value === "string" ? "_custom" : [value]),
  (value) => (Array.isArray(value) ? [...value, value[0] ?? null, 7] : -1.5),
];

/** One edit of a JSON value: where (an index into its nodes, wrapped around) and which edit. */
export interface Mutation {
  at: number;
  kind: number;
}

export const mutationsArbitrary = fc.array(
  fc.record({ at: fc.nat(), kind: fc.nat({ max: EDITS.length - 1 }) }),
  { maxLength: 3 },
);

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number } | undefined;

/** A mutated copy of `value` (the input is never changed). */
export function mutate(value: unknown, edits: readonly Mutation[]): unknown {
  let root: unknown = structuredClone(value);
  for (const edit of edits) {
    const slots: Slot[] = [undefined];
    collect(root, slots);
    const slot = slots[edit.at % slots.length];
    const current = slot ? (slot.parent as Record<string | number, unknown>)[slot.key] : root;
    const next = (EDITS[edit.kind] as (v: unknown) => unknown)(current);
    if (!slot) {
      root = next === REMOVE ? null : next;
    } else if (next === REMOVE) {
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else delete (slot.parent as Record<string, unknown>)[slot.key as string];
    } else if (Array.isArray(slot.parent)) {
      slot.parent[slot.key as number] = next;
    } else {
      // defineProperty: a key named `__proto__` stays data.
      Object.defineProperty(slot.parent, slot.key, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
}

function collect(value: unknown, into: Slot[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      into.push({ parent: value, key: i });
      collect(item, into);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      into.push({ parent: value as Record<string, unknown>, key });
      collect((value as Record<string, unknown>)[key], into);
    }
  }
}
