import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../../generator/diff/classification.js";
import { ROOT } from "../../generator/paths.js";

const DIFF_DIR = join(ROOT, "generator", "diff");
/** The diff's sources, without the table itself. */
const sources = readdirSync(DIFF_DIR, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && f !== "classification.ts")
  .map((f) => readFileSync(join(DIFF_DIR, f), "utf8"))
  .join("\n");

describe("classification table", () => {
  it("every change kind the report can carry has a rule", () => {
    const change = readFileSync(join(DIFF_DIR, "change.ts"), "utf8");
    const start = change.indexOf("export type ChangeKind =");
    const union = change.slice(start, change.indexOf(";", start));
    const kinds = [...union.matchAll(/\| "([a-z-]+)"/g)].map((m) => m[1]);
    expect(kinds.length).toBeGreaterThan(20);
    const ruled = new Set(Object.values(RULES).map((r) => r.kind));
    for (const kind of kinds) expect(ruled.has(kind as never), kind).toBe(true);
  });

  it("every rule is reported somewhere in the diff: no stale rule", () => {
    for (const name of Object.keys(RULES))
      expect(sources.includes(`"${name}"`), `rule ${name} is never reported`).toBe(true);
  });
});
