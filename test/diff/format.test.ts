import { describe, expect, it } from "vitest";
import { render, renderJson, renderMarkdown, renderText } from "../../generator/diff/format.js";
import { buildReport } from "../../generator/diff/report.js";
import { modelOf } from "./helpers.js";

/**
 * One release pair with a change of every impact: a breaking variant removal, a compatible
 * field addition and a doc-only description change, plus an unchanged surface.
 */
const before = modelOf({
  v1: {
    Mode: { type: "string", enum: ["a|b", "c"] },
    SessionUpdate: {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "plan" }, x: { type: "string" } },
          required: ["kind"],
        },
      ],
    },
    Doc: { type: "string", description: "old" },
  },
  v2: { Same: { type: "string" } },
});
const after = modelOf({
  v1: {
    Mode: { type: "string", enum: ["c"] },
    SessionUpdate: {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "plan" }, x: { type: "string" }, y: { type: "string" } },
          required: ["kind"],
        },
      ],
    },
    Doc: { type: "string", description: "new" },
  },
  v2: { Same: { type: "string" } },
});
const report = buildReport(before, after, { old: "old/schema", new: "new/schema" });

describe("text", () => {
  const lines = renderText(report);

  it("starts with the verdict and lists breaking changes first, flagged B/R", () => {
    expect(lines.slice(0, 3)).toEqual([
      "Schema diff: old/schema -> new/schema",
      "Suggested version bump for the generated package: major (1 change breaks code that builds or reads messages)",
      "B = breaks code that builds messages, R = breaks code that reads messages",
    ]);
    const start = lines.indexOf(
      'v1 (entry point "."): major: 1 breaking, 1 compatible, 1 documentation-only',
    );
    expect(lines.slice(start + 1, start + 7)).toEqual([
      "  Breaking (1):",
      '    BR Mode: variant "a|b" removed (builders can no longer send it; readers that name it no longer compile)  [$defs/Mode/enum/0]',
      "  Compatible (1):",
      '    SessionUpdate<"plan">.y: optional field added  [$defs/SessionUpdate/oneOf/0/properties/y]',
      "  Documentation only (1):",
      "    Doc: description changed  [$defs/Doc]",
    ]);
  });

  it("lists unchanged surfaces as such", () => {
    expect(lines).toContain('v2 (entry point "./v2"): no changes');
  });

  it("sums documentation-only changes up by kind: one line, however many places", () => {
    const names = Array.from({ length: 12 }, (_, i) => `D${String(i).padStart(2, "0")}`);
    const defs = (text: string) =>
      Object.fromEntries(
        names.map((n) => [
          n,
          {
            type: "object",
            description: text,
            properties: { a: { type: "string", description: text } },
          },
        ]),
      );
    const many = buildReport(modelOf({ v1: defs("old") }), modelOf({ v1: defs("new") }), {
      old: "a",
      new: "b",
    });
    const text = renderText(many);
    expect(text.slice(text.indexOf("  Documentation only (24):"))).toEqual([
      "  Documentation only (24):",
      "    description changed: 24 places, in 12 definitions: D00, D01, D02, D03, D04, D05, D06, D07 and 4 more (--format markdown or json lists each)",
    ]);
    // Markdown and JSON still have every change.
    expect(JSON.parse(renderJson(many)).changes).toHaveLength(24);
    expect(renderMarkdown(many).filter((l) => l.startsWith("- ")).length).toBeGreaterThan(1);
  });
});

describe("markdown", () => {
  const md = renderMarkdown(report);
  const text = md.join("\n");

  it("has a verdict, a surface table, then a heading per changed surface", () => {
    expect(md[0]).toBe("## ACP schema changes");
    expect(text).toContain("**Suggested version bump for the generated package: major**");
    expect(md).toContain("| `v2` | `./v2` | unchanged | 0 | 0 | 0 |");
    expect(md).toContain("### `v1` (entry point `.`): major");
    expect(text).not.toContain("### `v2`");
  });

  it("puts breaking changes first, in a marked table, and escapes table pipes", () => {
    const breakingRow = md.findIndex((l) => l.startsWith("| ⚠️ **breaking** |"));
    const compatible = md.indexOf("**Compatible changes (1)**");
    expect(breakingRow).toBeGreaterThan(0);
    expect(compatible).toBeGreaterThan(breakingRow);
    expect(md[breakingRow]).toBe(
      '| ⚠️ **breaking** | `Mode`: variant "a\\|b" removed (builders can no longer send it; readers that name it no longer compile) (`$defs/Mode/enum/0`) | **breaks** | **breaks** |',
    );
  });

  it("keeps <tags> out of HTML by putting subjects in code spans", () => {
    expect(md).toContain(
      '- `SessionUpdate<"plan">.y`: optional field added (`$defs/SessionUpdate/oneOf/0/properties/y`)',
    );
  });

  it("folds documentation-only changes", () => {
    const start = md.indexOf("<summary>Documentation-only changes (1 change)</summary>");
    expect(md[start - 1]).toBe("<details>");
    expect(md.slice(start + 1, start + 5)).toEqual([
      "",
      "- `Doc`: description changed (`$defs/Doc`)",
      "",
      "</details>",
    ]);
  });
});

describe("json", () => {
  it("is byte-stable and round-trips the report", () => {
    const first = renderJson(report);
    expect(renderJson(buildReport(before, after, { old: "old/schema", new: "new/schema" }))).toBe(
      first,
    );
    const parsed = JSON.parse(first);
    expect(parsed.counts).toEqual({ breaking: 1, compatible: 1, doc: 1 });
    // Changes keep the comparison's order (by surface, then path), whatever their impact.
    expect(parsed.changes.map((c: { path: string; impact: string }) => [c.path, c.impact])).toEqual(
      [
        ["$defs/Doc", "doc"],
        ["$defs/Mode/enum/0", "breaking"],
        ["$defs/SessionUpdate/oneOf/0/properties/y", "compatible"],
      ],
    );
    expect(render(report, "json")).toEqual(first.split("\n"));
  });

  it("reports no changes as bump none", () => {
    const same = JSON.parse(renderJson(buildReport(before, before, { old: "a", new: "a" })));
    expect(same.bump).toBe("none");
    expect(same.changes).toEqual([]);
    expect(same.surfaces.map((s: { status: string }) => s.status)).toEqual([
      "unchanged",
      "unchanged",
    ]);
  });
});
