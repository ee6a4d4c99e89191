import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderJson, renderMarkdown, renderText } from "../../generator/diff/format.js";
import { loadSide } from "../../generator/diff/input.js";
import { buildReport } from "../../generator/diff/report.js";
import type { JsonObject } from "../../generator/schema/json.js";
import { RELEASES_DIR } from "../support/run.js";
import { method, modelOf } from "./helpers.js";

/**
 * The same change repeated across definitions is one line in text and markdown, with the
 * definitions listed; the JSON report keeps one item per change.
 */

type JsonChange = { kind: string; path: string; subject: string; description: string };
const jsonChanges = (report: ReturnType<typeof buildReport>) =>
  (JSON.parse(renderJson(report)) as { changes: JsonChange[] }).changes;

describe("a real pair: SDK 0.4.5 → 0.23.0", () => {
  const oldDir = join(RELEASES_DIR, "0.4.5");
  const newDir = join(RELEASES_DIR, "0.23.0");
  const report = buildReport(loadSide(oldDir).model, loadSide(newDir).model, {
    old: "0.4.5",
    new: "0.23.0",
  });
  const what = "now restricted to object";

  /**
   * From the files themselves: definitions of both releases whose `_meta` was an untyped
   * "extension point" and is now `type: ["object", "null"]`.
   */
  const defsOf = (dir: string) =>
    (
      JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as {
        $defs: Record<string, { properties?: Record<string, { type?: unknown }> }>;
      }
    ).$defs;
  const before = defsOf(oldDir);
  const after = defsOf(newDir);
  const restricted = Object.keys(after).filter((key) => {
    const was = before[key]?.properties?._meta;
    const now = after[key]?.properties?._meta;
    return was !== undefined && was.type === undefined && Array.isArray(now?.type);
  });

  it("JSON lists every definition whose _meta became object-only, one item each", () => {
    const items = jsonChanges(report).filter(
      (c) => c.description.endsWith(`: ${what}`) || c.description.includes(`: ${what} (`),
    );
    expect(restricted.length).toBeGreaterThan(40);
    const paths = new Set(items.map((c) => c.path));
    expect(paths.size).toBe(items.length);
    for (const key of restricted) expect(paths).toContain(`$defs/${key}/properties/_meta`);
  });

  it("text prints them as one line naming each of them", () => {
    const items = jsonChanges(report).filter(
      (c) => c.path.endsWith("/properties/_meta") && c.description.includes(`: ${what}`),
    );
    const lines = renderText(report).filter((l) => l.includes(what));
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? "";
    expect(line).toMatch(new RegExp(`^    B- _meta: ${what}, in ${items.length} definitions: `));
    expect(line.endsWith("  [$defs/*/properties/_meta]")).toBe(true);
    for (const c of items) expect(line).toContain(c.subject.slice(0, -"._meta".length));
    // The changes are still counted one by one.
    const breaking = (
      JSON.parse(renderJson(report)) as { changes: Array<{ surface: string; impact: string }> }
    ).changes.filter((c) => c.surface === "v1" && c.impact === "breaking").length;
    expect(renderText(report)).toContain(`  Breaking (${breaking}):`);
  });

  it("markdown prints them as one table row, each definition as code", () => {
    const items = jsonChanges(report).filter(
      (c) => c.path.endsWith("/properties/_meta") && c.description.includes(`: ${what}`),
    );
    const rows = renderMarkdown(report).filter((l) => l.includes(what));
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? "";
    expect(row.startsWith("| ⚠️ **breaking** | `_meta`: ")).toBe(true);
    expect(row).toContain(`in ${items.length} definitions: `);
    for (const c of items)
      expect(row).toContain(`\`${c.subject.slice(0, -"._meta".length).replace(/\|/g, "\\|")}\``);
    expect(row).toContain("(`$defs/*/properties/_meta`)");
  });

  it("is much shorter than one line per change", () => {
    expect(renderText(report).length * 2).toBeLessThan(jsonChanges(report).length);
  });
});

describe("what counts as the same change", () => {
  const obj = (props: JsonObject) => ({ type: "object", properties: props });
  const before = modelOf({
    v1: {
      A: obj({ x: { type: "string" } }),
      B: obj({ x: { type: "string" } }),
      C: obj({ x: { type: "string" } }),
      ...method("Ping", "ping", "agent"),
      ...method("Pong", "pong", "agent"),
    },
  });
  const after = modelOf({
    v1: {
      // x: string → integer in A and B (the same change), string → boolean in C (another).
      A: obj({ x: { type: "integer" } }),
      B: obj({ x: { type: "integer" } }),
      C: obj({ x: { type: "boolean" } }),
      D: obj({}),
      E: obj({}),
    },
  });
  const report = buildReport(before, after, { old: "a", new: "b" });
  const text = renderText(report);

  it("groups the same change at the same place in several definitions", () => {
    const grouped = text.filter((l) => l.includes(", in 2 definitions: A, B"));
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatch(
      /^ {4}BR x: .*, in 2 definitions: A, B {2}\[\$defs\/\*\/properties\/x\]$/,
    );
  });

  it("keeps a different change, a lone change and method changes on lines of their own", () => {
    expect(text.some((l) => /^ {4}BR C\.x: /.test(l))).toBe(true);
    // Two methods removed alike: each keeps its line.
    for (const name of ["ping", "pong"])
      expect(
        text.filter((l) => l.includes(`${name} (request handled by agent): method removed`)),
      ).toHaveLength(1);
    expect(text.filter((l) => l.includes("definition added, in 2 definitions: D, E"))).toHaveLength(
      1,
    );
  });

  it("JSON still lists each change", () => {
    const subjects = jsonChanges(report).map((c) => c.subject);
    for (const s of ["A.x", "B.x", "C.x", "D", "E"]) expect(subjects).toContain(s);
  });
});
