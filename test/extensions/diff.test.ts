import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, SCHEMA_DIR, tempDir } from "../support/run.js";
import { surfacesOf } from "../support/surfaces.js";
import { PROBE, readExtension } from "./support.js";

/**
 * `diff` reads extensions like the schema: `--extension` on both sides (or `--old-extension`
 * for the old one), and an extension's changes reported in a section of their own, with
 * pointers into the extension file.
 */

const work = tempDir("ext-diff");
afterAll(() => work.remove());
const surfaces = surfacesOf(SCHEMA_DIR).map((s) => s.id);

/** probe.json a release earlier: no `_probe/sync_state`, and one `_meta` value fewer. */
const OLD = join(work.path, "probe-old.json");
const old = readExtension(PROBE);
delete old.$defs.ProbeSyncRequest;
delete old.$defs.ProbeSyncResponse;
(old["x-meta"]?.ToolCallUpdate?.["probe.dev/origin"] as { enum: string[] }).enum = ["model"];
writeFileSync(OLD, JSON.stringify(old));

interface JsonChange {
  surface: string;
  kind: string;
  path: string;
  extension?: string;
}

describe("diff --extension", () => {
  it("the same extension on both sides: no changes", async () => {
    const result = await cli(
      "diff",
      SCHEMA_DIR,
      SCHEMA_DIR,
      "--extension",
      PROBE,
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout.join("\n")) as { changes: unknown[] }).changes).toEqual([]);
  });

  it("an extension's changes are its own, on every surface it applies to, with pointers into it", async () => {
    const args = [SCHEMA_DIR, SCHEMA_DIR, "--old-extension", OLD, "--extension", PROBE];
    const json = await cli("diff", ...args, "--format", "json");
    expect(json.code).toBe(0);
    const changes = (JSON.parse(json.stdout.join("\n")) as { changes: JsonChange[] }).changes;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.filter((c) => c.extension !== PROBE)).toEqual([]);
    for (const surface of surfaces) {
      const own = changes.filter((c) => c.surface === surface);
      expect(own).toContainEqual(
        expect.objectContaining({ kind: "definition-added", path: "$defs/ProbeSyncRequest" }),
      );
      expect(own).toContainEqual(
        expect.objectContaining({ kind: "method-added", path: "$defs/ProbeSyncRequest/x-method" }),
      );
      expect(own.some((c) => c.path.startsWith("x-meta/ToolCallUpdate/probe.dev~1origin"))).toBe(
        true,
      );
    }

    const text = await cli("diff", ...args);
    for (const surface of surfaces) {
      const at = text.stdout.findIndex((l) => l.startsWith(`${surface} (entry point`));
      expect(text.stdout[at + 1]).toBe(`  Extension ${PROBE}:`);
    }
    const markdown = await cli("diff", ...args, "--format", "markdown");
    expect(markdown.stdout.filter((l) => l === `#### Extension \`${PROBE}\``)).toHaveLength(
      surfaces.length,
    );
  });
});
