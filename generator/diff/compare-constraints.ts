import { jsonEqual } from "../schema/equal.js";
import type { Json, JsonObject } from "../schema/json.js";
import { BREAKS_BOTH, type Breaks, NARROWS, WIDENS } from "./change.js";
import type { At, Options, Walk } from "./compare-schema.js";
import { LOWER_BOUNDS, OTHER_CONSTRAINTS, UPPER_BOUNDS } from "./keywords.js";
import { show } from "./text.js";

/**
 * Validation keywords that restrict values without changing their type. Bounds have a
 * direction (tighter narrows, looser widens); the others are judged by presence.
 */

export function compareConstraints(
  walk: Walk,
  a: JsonObject,
  b: JsonObject,
  tokensA: string[],
  tokensB: string[],
  at: At,
  options: Options,
): void {
  const bound = (keyword: string, lower: boolean) => {
    const x = a[keyword];
    const y = b[keyword];
    if (jsonEqual(x ?? null, y ?? null)) return;
    const tokens = y === undefined ? [...tokensA, keyword] : [...tokensB, keyword];
    let breaks: Breaks;
    let what: string;
    if (x === undefined) {
      breaks = NARROWS;
      what = `${keyword} ${show(y as Json)} added`;
    } else if (y === undefined) {
      breaks = WIDENS;
      what = `${keyword} removed (was ${show(x)})`;
    } else if (typeof x === "number" && typeof y === "number") {
      const tighter = lower ? y > x : y < x;
      breaks = tighter ? NARROWS : WIDENS;
      what = `${keyword} changed from ${x} to ${y}`;
    } else {
      breaks = BREAKS_BOTH;
      what = `${keyword} changed from ${show(x)} to ${show(y)}`;
    }
    walk.add("constraint-changed", tokens, at.label, what, breaks);
  };
  for (const keyword of LOWER_BOUNDS) bound(keyword, true);
  for (const keyword of UPPER_BOUNDS) bound(keyword, false);
  for (const keyword of OTHER_CONSTRAINTS) {
    if (keyword === "not" && options.ignoreNot) continue;
    // `uniqueItems: false` is the default.
    const x = keyword === "uniqueItems" && a[keyword] === false ? undefined : a[keyword];
    const y = keyword === "uniqueItems" && b[keyword] === false ? undefined : b[keyword];
    if (jsonEqual(x ?? null, y ?? null)) continue;
    if (x === undefined) {
      walk.add(
        "constraint-changed",
        [...tokensB, keyword],
        at.label,
        `${keyword} ${show(y as Json)} added`,
        NARROWS,
      );
    } else if (y === undefined) {
      walk.add(
        "constraint-changed",
        [...tokensA, keyword],
        at.label,
        `${keyword} removed (was ${show(x)})`,
        WIDENS,
      );
    } else {
      walk.add(
        "constraint-changed",
        [...tokensB, keyword],
        at.label,
        `${keyword} changed from ${show(x)} to ${show(y)}`,
        BREAKS_BOTH,
      );
    }
  }
}
