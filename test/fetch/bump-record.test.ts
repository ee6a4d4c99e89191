import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, HISTORY_DIR, RELEASES_DIR, readJson, tempDir } from "../support/run.js";
import { copyDir, readBytes } from "./servers.js";

/**
 * What a bump leaves in the schema folder for the package: CHANGES.md, the bump's schema diff
 * as `diff --format markdown` prints it, and the `generate` command at the version the diff
 * advises, from the version the package in `--out` was last generated at.
 */
const work = tempDir("fetch-bump-record");
afterAll(() => work.remove());

let count = 0;
/** A schema folder holding `release`, and a package folder whose manifest says `version`. */
function scene(release: string, version: string): { schema: string; out: string; root: string } {
  const root = join(work.path, `case-${++count}`);
  const schema = copyDir(release, join(root, "schema"));
  const out = join(root, "generated");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "acp-codegen.json"),
    JSON.stringify({ options: { name: "acp-protocol", version } }),
  );
  return { schema, out, root };
}

const OLD = join(HISTORY_DIR, "v1.0.0");
const NEW = join(RELEASES_DIR, "2.4.0");

describe("fetch: the bump's record", () => {
  it("writes CHANGES.md: the markdown diff of what the folder held against the release", async () => {
    const { schema, out } = scene(OLD, "1.3.0");
    const run = await cli("fetch", NEW, "--schema-dir", schema, "--out", out);
    expect(run.code).toBe(0);
    const changes = readFileSync(join(schema, "CHANGES.md"), "utf8").split("\n");
    const pristine = copyDir(OLD, join(work.path, `pristine-${count}`));
    const diff = await cli("diff", pristine, NEW, "--format", "markdown");
    // Line by line the same, but for the one naming the two sides.
    const labels = (lines: string[]) => lines.findIndex((l) => l.includes(" → "));
    expect(labels(changes)).toBe(labels(diff.stdout));
    const at = labels(changes);
    expect(changes[at]).toBe(`\`${schema}\` → \`${NEW}\``);
    expect(changes.filter((_, i) => i !== at)).toEqual(
      [...diff.stdout, ""].filter((_, i) => i !== at),
    );
    // The release has no meta.json: what its derived method keys were held against.
    expect(changes.join("\n")).toMatch(
      /> method keys: the new release has no meta\.json, so its keys are derived from x-method; they equal the old meta\.json keys for all \d+ methods both have/,
    );
  });

  it("prints the generate command with the version the diff advises", async () => {
    const major = scene(OLD, "1.3.0");
    const text = await cli("fetch", NEW, "--schema-dir", major.schema, "--out", major.out);
    expect(text.stdout.at(-1)).toBe(
      `Next: npx acp-codegen generate --schema-dir ${major.schema} --out ${major.out} --pkg-version 2.0.0, review the changes, commit ${major.schema} and the generated package together.`,
    );
    // Below 1.0.0 a breaking change bumps the minor.
    const zero = scene(OLD, "0.4.2");
    const json = await cli("fetch", NEW, "--schema-dir", zero.schema, "--out", zero.out, "--json");
    expect(readJson<object>(join(zero.schema, "source.json"))).toMatchObject({ source: NEW });
    expect(JSON.parse(json.stdout.join("\n")).packageVersion).toEqual({
      current: "0.4.2",
      next: "0.5.0",
    });
  });

  it("says the version must be chosen when there is no package yet", async () => {
    const { schema, root } = scene(OLD, "1.0.0");
    const run = await cli("fetch", NEW, "--schema-dir", schema, "--out", join(root, "none"));
    expect(run.stdout.at(-1)).toMatch(/--pkg-version <version>, review the changes/);
  });

  it("keeps the bump's record when the same release is fetched again", async () => {
    const { schema, out } = scene(OLD, "1.3.0");
    expect((await cli("fetch", NEW, "--schema-dir", schema, "--out", out)).code).toBe(0);
    const before = readBytes(schema);
    const again = await cli("fetch", NEW, "--schema-dir", schema, "--out", out);
    expect(again.code).toBe(0);
    expect(again.stdout.at(-1)).toBe(`${schema} already holds this release: nothing written.`);
    expect(readBytes(schema)).toEqual(before);
  });
});
