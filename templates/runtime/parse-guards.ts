/** The union helpers parsers.js exports: `is<Name>Of`, `isCustom<Name>`, `isUntagged<Name>`. */
import type { Check } from "./parse-records.js";
import { hasOwn, isDict } from "./parse-values.js";
import type { CompiledValidator } from "./validation.js";

/** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
export function variantGuard(
  checks: readonly Check[],
  tag: string,
  variants: ReadonlyArray<readonly [string, number]>,
  other?: number,
): (value: unknown, tag: string) => boolean {
  const byTag = new Map<string, number>(variants);
  return (value, wanted) => {
    if (!isDict(value) || !hasOwn(value, tag) || value[tag] !== wanted) return false;
    const check = byTag.get(wanted) ?? other;
    return check !== undefined && (checks[check] as Check)(value);
  };
}

/** `isCustom<Name>(value)`: a valid value of the open union's catch-all variant. */
export function customGuard(
  checks: readonly Check[],
  tag: string,
  known: readonly string[],
  other: number,
): (value: unknown) => boolean {
  return (value) => {
    if (!isDict(value) || !hasOwn(value, tag)) return false;
    const actual = value[tag];
    return typeof actual === "string" && !known.includes(actual) && (checks[other] as Check)(value);
  };
}

/** `isUntagged<Name>(value)`: a valid value without the tag, so of an untagged variant. */
export function untaggedGuard(tag: string, whole: CompiledValidator): (value: unknown) => boolean {
  // Without the tag no tagged variant (nor the catch-all) can match: a valid value is one
  // of the untagged variants. A value that carries a tag serde would ignore is not: its
  // type would claim the tag absent.
  return (value) => isDict(value) && !hasOwn(value, tag) && whole(value);
}
