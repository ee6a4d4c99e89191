import { jsonEqual } from "../../schema/equal.js";
import type { Json, JsonObject } from "../../schema/json.js";
import { LOWER_BOUNDS, UPPER_BOUNDS } from "../../schema/keywords.js";
import { show } from "../text.js";
import { OTHER_CONSTRAINTS } from "./keywords.js";
import type { At, Options, Report } from "./walk.js";

/**
 * Validation keywords that restrict values without changing their type. Bounds have a
 * direction (tighter narrows, looser widens); the others are judged by presence.
 */
export function compareConstraints(
  report: Report,
  a: JsonObject,
  b: JsonObject,
  tokensA: string[],
  tokensB: string[],
  at: At,
  options: Options,
): void {
  const compare = (keyword: string, bound?: "lower" | "upper") => {
    // `uniqueItems: false` is the default.
    const x = keyword === "uniqueItems" && a[keyword] === false ? undefined : a[keyword];
    const y = keyword === "uniqueItems" && b[keyword] === false ? undefined : b[keyword];
    if (jsonEqual(x ?? null, y ?? null)) return;
    if (x === undefined) {
      report.add(
        "constraint-added",
        [...tokensB, keyword],
        at.label,
        `${keyword} ${show(y as Json)} added`,
      );
    } else if (y === undefined) {
      report.add(
        "constraint-removed",
        [...tokensA, keyword],
        at.label,
        `${keyword} removed (was ${show(x)})`,
      );
    } else if (bound && typeof x === "number" && typeof y === "number") {
      const tighter = bound === "lower" ? y > x : y < x;
      report.add(
        tighter ? "bound-tightened" : "bound-loosened",
        [...tokensB, keyword],
        at.label,
        `${keyword} changed from ${x} to ${y}`,
      );
    } else {
      report.add(
        "constraint-replaced",
        [...tokensB, keyword],
        at.label,
        `${keyword} changed from ${show(x)} to ${show(y)}`,
      );
    }
  };
  for (const keyword of LOWER_BOUNDS) compare(keyword, "lower");
  for (const keyword of UPPER_BOUNDS) compare(keyword, "upper");
  for (const keyword of OTHER_CONSTRAINTS) {
    if (keyword === "not" && options.ignoreNot) continue;
    compare(keyword);
  }
}
