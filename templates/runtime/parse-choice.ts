/**
 * Which variant of a union serde reads a valid value as: the interpreter's rule. The
 * generated fast walks (generator/emit/shape-walks.ts) compile the same rule per union;
 * test/parse/walks.test.ts holds each walk against this interpreter.
 */
import type { OpenReading, Reading } from "./parse-context.js";
import type { Check, ShapeUnion, ShapeVariant } from "./parse-records.js";
import type { Repairs } from "./parse-repair.js";
import { type Dict, hasOwn } from "./parse-values.js";

/** In the walk's records: no such shape (no `others`: other keys dropped; no `items`; no check). */
export const NONE = -2;

export class Variant {
  constructor(
    readonly node: number,
    readonly check: number,
    readonly open: number,
    readonly repair: number,
  ) {}
}

/** A union with its variants sorted for choosing. */
export class Union {
  constructor(
    readonly tag: string | null,
    readonly closed: boolean,
    readonly byTag: ReadonlyMap<string, Variant>,
    readonly other: Variant | null,
    /** Untagged variants that can be an object / an array, in schema order. */
    readonly objects: readonly Variant[],
    readonly arrays: readonly Variant[],
  ) {}
}

/** The variant chosen, and the value it reads: the value itself, or the value repaired for it. */
export interface Choice {
  readonly variant: Variant;
  readonly value: unknown;
}

function variantOf(v: ShapeVariant): Variant {
  return new Variant(v.node ?? NONE, v.check ?? NONE, v.open ?? v.check ?? NONE, v.repair ?? NONE);
}

export function unionOf(union: ShapeUnion): Union {
  const byTag = new Map<string, Variant>();
  const objects: Variant[] = [];
  const arrays: Variant[] = [];
  let other: Variant | null = null;
  for (const v of union.variants) {
    const variant = variantOf(v);
    if (v.tag !== undefined) byTag.set(v.tag, variant);
    else if (v.other) other = variant;
    else {
      if (v.kinds === undefined || v.kinds === "object") objects.push(variant);
      if (v.kinds === undefined || v.kinds === "array") arrays.push(variant);
    }
  }
  return new Union(union.tag ?? null, union.closed === true, byTag, other, objects, arrays);
}

export class VariantChoice {
  constructor(
    private readonly checks: readonly Check[],
    private readonly repairs: Repairs,
  ) {}

  /**
   * What `v` reads `value` as: the value itself when it deserializes as it is, the value
   * repaired by the variant's own rules when that deserializes, else undefined (no JSON
   * value is).
   */
  readAs(v: Variant, value: unknown, reading: Reading): unknown {
    const check = reading ? v.open : v.check;
    if (check === NONE || (this.checks[check] as Check)(value)) return value;
    if (v.repair === NONE) return undefined;
    return this.repairs.repairedAs(value, v.repair, check);
  }

  /**
   * The variant serde reads `value` as: the tag's own variant when it deserializes, else
   * the untagged variants in schema order (the tag is then ignored). The value is valid, so
   * the last candidate needs no check, unless an unknown variant may be kept (the open
   * reading). Null: no variant, or an unknown one the open reading keeps whole (reported
   * to its sink).
   */
  choose(union: Union, value: object, reading: Reading): Choice | null {
    const array = Array.isArray(value);
    const untagged = array ? union.arrays : union.objects;
    let own: Variant | null = null;
    let unknownTag = false;
    if (union.tag !== null && !array && hasOwn(value, union.tag)) {
      const tag = (value as Dict)[union.tag];
      if (typeof tag === "string") {
        own = union.byTag.get(tag) ?? union.other;
        unknownTag = own === null;
      }
    }
    const keepUnknown = reading !== false && unknownTag && union.closed;
    if (own !== null) {
      if (untagged.length === 0) return { variant: own, value };
      const read = this.readAs(own, value, reading);
      if (read !== undefined) return { variant: own, value: read };
    }
    if (untagged.length === 0)
      return keepUnknown ? keptUnknown(union, value, reading as OpenReading) : null;
    const last = untagged.length - 1;
    for (let i = 0; i < last; i++) {
      const v = untagged[i] as Variant;
      const read = this.readAs(v, value, reading);
      if (read !== undefined) return { variant: v, value: read };
    }
    const final = untagged[last] as Variant;
    // Checked only to tell an unknown variant apart; the value is valid, so the last
    // candidate reads it as it is.
    if (keepUnknown && this.readAs(final, value, reading) === undefined)
      return keptUnknown(union, value, reading as OpenReading);
    return { variant: final, value };
  }
}

/** A closed union's variant the open reading keeps whole: reported, and no variant chosen. */
function keptUnknown(union: Union, value: object, reading: OpenReading): null {
  reading.onUnknown?.({
    tag: union.tag as string,
    kind: (value as Dict)[union.tag as string] as string,
  });
  return null;
}
