import { join } from "node:path";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { method } from "./helpers.js";
import { flatRelease, runDiffCommand, scratchDir, writeTree } from "./scratch.js";

const root = scratchDir();
const foo = (extra: Record<string, unknown> = {}, required: string[] = []) => ({
  type: "object",
  properties: { a: { type: "string" }, ...extra },
  ...(required.length ? { required } : {}),
});
const base = { Foo: foo(), ...method("Ping", "ping", "agent") };

const oldDir = writeTree(join(root, "old"), flatRelease(base));
const compatibleDir = writeTree(
  join(root, "compatible"),
  flatRelease({ ...base, Foo: foo({ b: { type: "string" } }) }),
);
const breakingDir = writeTree(
  join(root, "breaking"),
  flatRelease({ ...base, Foo: foo({ c: { type: "string" } }, ["c"]) }),
);

describe("diff command", () => {
  it("prints a text report and exits 0 by default, even when something breaks", async () => {
    const run = await runDiffCommand([oldDir, breakingDir]);
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe(`Schema diff: ${oldDir} -> ${breakingDir}`);
    expect(run.out[1]).toContain("Suggested version bump for the generated package: major");
    expect(run.out).toContain(
      "    B- Foo.c: required field added (builders must now send it)  [$defs/Foo/properties/c]",
    );
  });

  it("--fail-on-breaking exits 1 on a breaking change and 0 on a compatible one", async () => {
    expect((await runDiffCommand([oldDir, breakingDir, "--fail-on-breaking"])).code).toBe(1);
    const compatible = await runDiffCommand([oldDir, compatibleDir, "--fail-on-breaking"]);
    expect(compatible.code).toBe(0);
    expect(compatible.out[1]).toContain(": minor (");
  });

  it("--format json prints the documented shape", async () => {
    const run = await runDiffCommand([oldDir, breakingDir, "--format", "json"]);
    const report = JSON.parse(run.out.join("\n"));
    expect(Object.keys(report)).toEqual([
      "formatVersion",
      "old",
      "new",
      "bump",
      "reason",
      "counts",
      "notes",
      "surfaces",
      "changes",
    ]);
    expect(report).toMatchObject({
      formatVersion: 1,
      old: oldDir,
      new: breakingDir,
      bump: "major",
      counts: { breaking: 1, compatible: 0, doc: 0 },
      surfaces: [
        {
          id: "v1",
          entry: ".",
          status: "changed",
          oldFile: "schema.json",
          newFile: "schema.json",
          bump: "major",
        },
      ],
    });
    expect(report.changes).toEqual([
      {
        surface: "v1",
        kind: "field-added",
        impact: "breaking",
        path: "$defs/Foo/properties/c",
        subject: "Foo.c",
        description: "Foo.c: required field added (builders must now send it)",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
  });

  it("--format markdown prints a heading per changed surface", async () => {
    const run = await runDiffCommand([oldDir, breakingDir, "--format", "markdown"]);
    expect(run.out[0]).toBe("## ACP schema changes");
    expect(run.out).toContain("### `v1` (entry point `.`): major");
  });

  it("rejects an unknown format", async () => {
    const run = await runDiffCommand([oldDir, breakingDir, "--format", "xml"]);
    expect(run.error).toBeInstanceOf(CommanderError);
    expect((run.error as CommanderError).code).toBe("commander.invalidArgument");
  });

  it("is deterministic", async () => {
    const first = await runDiffCommand([oldDir, breakingDir, "--format", "json"]);
    const second = await runDiffCommand([oldDir, breakingDir, "--format", "json"]);
    expect(second.out).toEqual(first.out);
  });
});

describe("diff inputs", () => {
  it("a missing path is an InputError naming it", async () => {
    const missing = join(root, "nope");
    const run = await runDiffCommand([missing, oldDir]);
    expect(run.error).toBeInstanceOf(InputError);
    expect((run.error as InputError).file).toBe(missing);
  });

  it("a broken single file is reported under the user's path with a JSON pointer", async () => {
    const file = join(
      writeTree(join(root, "bad"), { "mine.json": { $defs: { A: 42 } } }),
      "mine.json",
    );
    const run = await runDiffCommand([file, oldDir]);
    expect(run.error).toBeInstanceOf(InputError);
    const error = run.error as InputError;
    expect(error.file).toBe(file);
    expect(error.pointer).toBe("/$defs/A");
    expect(error.message).not.toContain("\n");
  });

  it("invalid JSON in a folder names the file and where it broke", async () => {
    const dir = writeTree(join(root, "syntax"), { "schema.json": '{"$defs": {"A": {]}}' });
    const run = await runDiffCommand([oldDir, dir]);
    expect(run.error).toBeInstanceOf(InputError);
    expect((run.error as InputError).file).toBe(join(dir, "schema.json"));
    expect((run.error as InputError).detail).toMatch(/^invalid JSON/);
  });

  it("a single file is one surface, named by its file name and folder", async () => {
    const v2 = writeTree(join(root, "single", "v2"), { "schema.unstable.json": { $defs: base } });
    const run = await runDiffCommand([
      oldDir,
      join(v2, "schema.unstable.json"),
      "--format",
      "json",
    ]);
    const report = JSON.parse(run.out.join("\n"));
    expect(report.surfaces.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ["v1", "removed"],
      ["v2/unstable", "added"],
    ]);
  });

  it("two single files are compared with each other whatever their names, with a note", async () => {
    const unstable = join(
      writeTree(join(root, "pair-old"), { "schema.unstable.json": { $defs: base } }),
      "schema.unstable.json",
    );
    const stable = join(compatibleDir, "schema.json");
    const run = await runDiffCommand([unstable, stable, "--format", "json"]);
    const report = JSON.parse(run.out.join("\n"));
    expect(report.notes).toEqual([
      `${unstable} (v1/unstable) and ${stable} (v1) are single files: compared with each other as surface v1`,
    ]);
    expect(
      report.changes.map((c: { kind: string; subject: string }) => [c.kind, c.subject]),
    ).toEqual([["field-added", "Foo.b"]]);
  });

  it("a folder's meta.json warnings go to stderr", async () => {
    const dir = writeTree(join(root, "meta"), {
      ...flatRelease(base),
      "meta.json": { agentMethods: { ping: "ping" }, surprise: true },
    });
    const run = await runDiffCommand([oldDir, dir]);
    expect(run.code).toBe(0);
    expect(run.err).toEqual([
      `warning: ${join(dir, "meta.json")}#/surprise: unknown meta.json key, ignored`,
    ]);
  });
});
