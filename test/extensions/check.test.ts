import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
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

  it("records an extension by its path from the package, so equivalent paths are one, and keeps the fast path", async () => {
    const file = join(work.path, "paths.json");
    const out = join(work.path, "paths-out");
    writeFileSync(file, JSON.stringify(notice({ text: { type: "string" } })));
    expect(
      (await cli("generate", ...SCHEMA, "--out", out, "--extension", file, "--quiet")).code,
    ).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "acp-codegen.json"), "utf8")) as {
      extensions: Record<string, string>;
    };
    // No absolute path of this machine in the committed manifest.
    expect(Object.keys(manifest.extensions)).toEqual(["../paths.json"]);
    // The same file, spelled three ways: clean each time, confirmed from the manifest alone.
    const fromHere = relative(process.cwd(), file);
    for (const spelling of [
      file,
      fromHere,
      `./${fromHere}`,
      join(work.path, ".", "x", "..", "paths.json"),
    ]) {
      const run = await cli("check", ...SCHEMA, "--out", out, "--extension", spelling, "--json");
      expect(run.code, spelling).toBe(0);
      expect(JSON.parse(run.stdout[0] ?? "{}"), spelling).toMatchObject({
        clean: true,
        fast: true,
      });
    }
    // A changed extension is not confirmed from the manifest: the full check finds it.
    writeFileSync(file, JSON.stringify(notice({ text: { type: "integer" } })));
    const changed = await cli("check", ...SCHEMA, "--out", out, "--extension", fromHere, "--json");
    expect(changed.code).toBe(1);
    expect(JSON.parse(changed.stdout[0] ?? "{}")).toMatchObject({ fast: false });
  });

  it("--extension-surfaces is recorded too: another choice is drift, named", async () => {
    const file = join(work.path, "narrowed.json");
    const out = join(work.path, "narrowed-out");
    writeFileSync(file, JSON.stringify(notice({ text: { type: "string" } })));
    const ext = ["--extension", file];
    expect(
      (
        await cli(
          "generate",
          ...SCHEMA,
          "--out",
          out,
          ...ext,
          "--extension-surfaces",
          "stable",
          "--quiet",
        )
      ).code,
    ).toBe(0);
    const same = await cli(
      "check",
      ...SCHEMA,
      "--out",
      out,
      ...ext,
      "--extension-surfaces",
      "stable",
      "--json",
    );
    expect(JSON.parse(same.stdout[0] ?? "{}")).toMatchObject({ clean: true, fast: true });
    const other = await cli("check", ...SCHEMA, "--out", out, ...ext, "--quiet");
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(
      "- --extension-surfaces was stable at the last generate, is not given now",
    );
  });

  it("the same file given twice is refused, naming both spellings", async () => {
    const file = join(work.path, "twice.json");
    writeFileSync(file, JSON.stringify(notice({ text: { type: "string" } })));
    const fromHere = relative(process.cwd(), file);
    const run = await cli(
      "check",
      ...SCHEMA,
      "--out",
      join(work.path, "never"),
      "--extension",
      file,
      "--extension",
      `./${fromHere}`,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `acp-codegen: --extension: ./${fromHere} is given twice (also as ${file})`,
    ]);
  });
});
