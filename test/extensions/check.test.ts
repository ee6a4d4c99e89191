import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, HISTORY_DIR, tempDir } from "../support/run.js";

/**
 * `check` knows the extension files are inputs: a changed extension is drift with a cause
 * of its own, as is an extension the package was generated with and `check` was not given.
 */

const work = tempDir("ext-check");
afterAll(() => work.remove());

// A small release keeps each regeneration quick.
const SCHEMA = ["--schema-dir", join(HISTORY_DIR, "v0.6.3")];

const notice = (properties: Record<string, unknown>) => ({
  $defs: {
    ProbeNoticeNotification: {
      type: "object",
      properties,
      "x-side": "client",
      "x-method": "_probe/notice",
    },
  },
});

describe("check --extension", () => {
  it("is clean after generate, and fails once the extension file changes", async () => {
    const file = join(work.path, "notice.json");
    const out = join(work.path, "out");
    writeFileSync(file, JSON.stringify(notice({ text: { type: "string" } })));
    const ext = ["--extension", file];
    expect((await cli("generate", ...SCHEMA, "--out", out, ...ext, "--quiet")).code).toBe(0);
    expect((await cli("check", ...SCHEMA, "--out", out, ...ext, "--quiet")).code).toBe(0);

    writeFileSync(
      file,
      JSON.stringify(notice({ text: { type: "string" }, level: { type: "integer" } })),
    );
    const changed = await cli("check", ...SCHEMA, "--out", out, ...ext, "--quiet");
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain(
      `- extension changed since the last generate: ${file} (run acp-codegen generate with the same --extension files)`,
    );
    expect(changed.stdout).toContain("  changed: v1/types.d.ts");

    const forgotten = await cli("check", ...SCHEMA, "--out", out, "--quiet");
    expect(forgotten.code).toBe(1);
    expect(
      forgotten.stdout.some((l) =>
        l.startsWith(`- extension used at the last generate but not given now: ${file}`),
      ),
    ).toBe(true);

    expect((await cli("generate", ...SCHEMA, "--out", out, ...ext, "--quiet")).code).toBe(0);
    expect((await cli("check", ...SCHEMA, "--out", out, ...ext, "--quiet")).code).toBe(0);
  });
});
