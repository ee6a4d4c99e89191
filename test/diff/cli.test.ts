import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { method } from "./helpers.js";
import { flatRelease, scratchDir, writeTree } from "./scratch.js";

/**
 * `acp-codegen diff` end to end through the CLI's main(): exit codes and the one-line error
 * contract. These need `registerDiff(program, { out, err })` wired into buildProgram.
 */

const root = scratchDir();
const base = {
  Foo: { type: "object", properties: { a: { type: "string" } } },
  ...method("Ping", "ping", "agent"),
};
const oldDir = writeTree(join(root, "old"), flatRelease(base));
const docDir = writeTree(
  join(root, "doc"),
  flatRelease({ ...base, Foo: { ...base.Foo, description: "Now documented." } }),
);
const breakingDir = writeTree(join(root, "breaking"), flatRelease({ Foo: base.Foo }));

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err };
}

describe("acp-codegen diff", () => {
  it("exits 0 and suggests a patch release for documentation-only changes", async () => {
    const run = await cli("diff", oldDir, docDir, "--fail-on-breaking");
    expect(run.code).toBe(0);
    expect(run.err).toEqual([]);
    expect(run.out[1]).toBe(
      "Suggested version bump for the generated package: patch (documentation only (descriptions, titles, examples): only the generated JSDoc changes)",
    );
  });

  it("exits 1 with --fail-on-breaking when a method disappears", async () => {
    const run = await cli(
      "diff",
      oldDir,
      breakingDir,
      "--fail-on-breaking",
      "--format",
      "markdown",
    );
    expect(run.code).toBe(1);
    expect(run.out.join("\n")).toContain(
      "| ⚠️ **breaking** | `ping (request handled by agent)`: method removed",
    );
  });

  it("exits 0 without --fail-on-breaking whatever the verdict", async () => {
    expect((await cli("diff", oldDir, breakingDir)).code).toBe(0);
  });

  it("exits 2 with one line naming the file and pointer on bad input", async () => {
    const file = join(
      writeTree(join(root, "bad"), { "schema.json": { $defs: { A: "nope" } } }),
      "schema.json",
    );
    const run = await cli("diff", file, oldDir);
    expect(run.code).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      `acp-codegen: ${file}#/$defs/A: expected a schema (object or boolean), found the string "nope"`,
    ]);
  });

  it("exits 2 when a side does not exist, and on an unknown format", async () => {
    const missing = await cli("diff", join(root, "missing"), oldDir);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual([
      `acp-codegen: ${join(root, "missing")}: not found (expected a schema.json file or a schema folder)`,
    ]);
    expect((await cli("diff", oldDir, docDir, "--format", "yaml")).code).toBe(2);
  });

  it("--quiet prints nothing and keeps the exit code; --json is --format json", async () => {
    const quiet = await cli("diff", oldDir, breakingDir, "--fail-on-breaking", "--quiet");
    expect(quiet).toEqual({ code: 1, out: [], err: [] });
    const json = await cli("diff", oldDir, breakingDir, "--json");
    const format = await cli("diff", oldDir, breakingDir, "--format", "json");
    expect(json.out).toEqual(format.out);
    expect(JSON.parse(json.out.join("\n"))).toMatchObject({ bump: "major" });
    // JSON is for scripts: --quiet does not silence it.
    expect((await cli("diff", oldDir, breakingDir, "--json", "--quiet")).out).toEqual(format.out);
  });
});
