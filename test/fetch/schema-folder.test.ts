import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, HISTORY_DIR, RELEASES_DIR, readJson, SCHEMA_DIR, tempDir } from "../support/run.js";
import { copyDir, fixtureFiles, isDirectory, siblings, snapshot } from "./servers.js";

const work = tempDir("fetch-folder");
afterAll(() => work.remove());

let count = 0;
function caseDir(): string {
  count++;
  const dir = join(work.path, `case-${count}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface FetchJson {
  changed: boolean;
  written: boolean;
  dryRun: boolean;
  files: Array<{ path: string; sha256: string; status: string }>;
  diff: Record<string, unknown> & { new: string; notes: string[] };
}

async function fetchJson(...args: string[]): Promise<FetchJson> {
  const run = await cli("fetch", ...args, "--json");
  // Warnings are allowed (a flat release's drafts: test/old-releases.test.ts), errors not.
  expect(run.stderr.filter((l) => !l.startsWith("warning:"))).toEqual([]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout.join("\n")) as FetchJson;
}

describe("fetch and the rest of the toolchain", () => {
  it("the record files are invisible to generate and check; a new schema is drift", async () => {
    const root = caseDir();
    const schema = copyDir(join(RELEASES_DIR, "1.2.1"), join(root, "schema"));
    const out = join(root, "generated");
    expect((await cli("generate", "--schema-dir", schema, "--out", out, "--quiet")).code).toBe(0);

    // The same release again: the schema files stay, README.md and source.json appear.
    const same = await fetchJson(join(RELEASES_DIR, "1.2.1"), "--schema-dir", schema);
    expect(same).toMatchObject({ changed: false, written: true });
    const check = await cli("check", "--schema-dir", schema, "--out", out, "--json");
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout.join("\n"))).toMatchObject({ clean: true, fast: true });

    // What fetch recorded is what generate recorded for the same files.
    const manifest = readJson<{ inputs: Record<string, string> }>(join(out, "acp-codegen.json"));
    const record = readJson<{ files: Record<string, { sha256: string }> }>(
      join(schema, "source.json"),
    );
    expect(Object.fromEntries(Object.entries(record.files).map(([p, f]) => [p, f.sha256]))).toEqual(
      manifest.inputs,
    );

    // Editing the record changes nothing the generator sees.
    appendFileSync(join(schema, "README.md"), "\nA note of our own.\n");
    writeFileSync(join(schema, "source.json"), "{}\n");
    expect((await cli("check", "--schema-dir", schema, "--out", out, "--quiet")).code).toBe(0);

    // Another release is drift, and check says the schema is why. (A release that differs in
    // one description, so the unified diffs check prints stay small.)
    const next = copyDir(join(RELEASES_DIR, "1.2.1"), join(root, "next"));
    const text = readFileSync(join(next, "schema.json"), "utf8");
    writeFileSync(
      join(next, "schema.json"),
      text.replace('"description": "', '"description": "Reworded. '),
    );
    const other = await fetchJson(next, "--schema-dir", schema);
    expect(other).toMatchObject({ changed: true, written: true });
    const drift = await cli("check", "--schema-dir", schema, "--out", out, "--json");
    expect(drift.code).toBe(1);
    expect((JSON.parse(drift.stdout.join("\n")) as { causes: string[] }).causes).toContain(
      "schema changed since the last generate: schema.json (run acp-codegen generate)",
    );
  });

  it("prints what diff says about the same two releases", async () => {
    const root = caseDir();
    const schema = copyDir(join(HISTORY_DIR, "v0.10.4"), join(root, "schema"));
    const source = join(RELEASES_DIR, "1.3.0");
    const fetched = await fetchJson(source, "--schema-dir", schema, "--dry-run");
    const diff = await cli("diff", schema, source, "--format", "json");
    expect(diff.code).toBe(0);
    expect(fetched.diff).toEqual(JSON.parse(diff.stdout.join("\n")));
  });

  it("text output: the files, the diff with its semver advice, and what to do next", async () => {
    const root = caseDir();
    const schema = copyDir(join(HISTORY_DIR, "v0.10.4"), join(root, "schema"));
    const run = await cli("fetch", join(RELEASES_DIR, "1.3.0"), "--schema-dir", schema);
    expect(run.code).toBe(0);
    const text = run.stdout.join("\n");
    expect(text).toMatch(
      /^ {2}changed {3}schema\.json +sha256 [0-9a-f]{16}… {2}from schema\.json$/m,
    );
    expect(text).toMatch(/^ {2}added {5}v2\/schema\.unstable\.json/m);
    expect(text).toMatch(/^ {2}removed {3}meta\.json$/m);
    expect(text).toMatch(
      /^Suggested version bump for the generated package: (major|minor|patch) /m,
    );
    expect(text).toMatch(/^Next: npx acp-codegen generate/m);
  });

  it("--dry-run prints the diff and writes nothing", async () => {
    const root = caseDir();
    const schema = copyDir(SCHEMA_DIR, join(root, "schema"));
    const before = snapshot(schema);
    const run = await cli(
      "fetch",
      join(RELEASES_DIR, "2.4.0"),
      "--schema-dir",
      schema,
      "--dry-run",
    );
    expect(run.code).toBe(0);
    expect(run.stdout.join("\n")).toMatch(/^Suggested version bump for the generated package: /m);
    expect(run.stdout.at(-1)).toBe(`Dry run: ${schema} is unchanged.`);
    expect(snapshot(schema)).toEqual(before);
  });

  it("fetching the release the folder already holds writes nothing", async () => {
    const root = caseDir();
    const schema = join(root, "schema");
    await fetchJson(join(RELEASES_DIR, "0.4.5"), "--schema-dir", schema);
    const folder = statSync(schema).ino;
    const again = await fetchJson(join(RELEASES_DIR, "0.4.5"), "--schema-dir", schema);
    expect(again).toMatchObject({ changed: false, written: false });
    expect(again.diff).toMatchObject({ bump: "none" });
    expect(statSync(schema).ino).toBe(folder);
  });

  it("creates a missing schema folder, saying every entry point is new", async () => {
    const schema = join(caseDir(), "nested", "schema");
    const body = await fetchJson(join(RELEASES_DIR, "0.4.5"), "--schema-dir", schema);
    expect(body.diff.notes).toEqual([`${schema} holds no schema yet: every entry point is new`]);
    expect(isDirectory(schema)).toBe(true);
    expect(readFileSync(join(schema, "schema.json"))).toEqual(
      fixtureFiles(join(RELEASES_DIR, "0.4.5"))["schema.json"],
    );
  });

  it("refuses to replace a folder holding files it did not write", async () => {
    const root = caseDir();
    const schema = copyDir(join(RELEASES_DIR, "0.4.5"), join(root, "schema"));
    writeFileSync(join(schema, "notes.txt"), "keep me");
    const before = snapshot(schema);
    const around = siblings(schema);
    const run = await cli("fetch", join(RELEASES_DIR, "1.2.1"), "--schema-dir", schema);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `acp-codegen: ${join(schema, "notes.txt")}: refusing to replace ${schema}: acp-codegen fetch did not write this (move it out of the folder, or fetch into another --schema-dir)`,
    ]);
    expect(snapshot(schema)).toEqual(before);
    expect(siblings(schema)).toEqual(around);
  });

  it("refuses a release with two files for one place", async () => {
    const root = caseDir();
    const release = copyDir(join(RELEASES_DIR, "1.3.0"), join(root, "release"));
    writeFileSync(
      join(release, "schema.v2.unstable.json"),
      readFileSync(join(release, "v2", "schema.unstable.json")),
    );
    const run = await cli("fetch", release, "--schema-dir", join(root, "schema"));
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      `acp-codegen: ${release}: both schema.v2.unstable.json and v2/schema.unstable.json would become v2/schema.unstable.json`,
    ]);
    expect(isDirectory(join(root, "schema"))).toBe(false);
  });

  it.each([
    ["npm:", /"" is not an npm package name/],
    ["npm:left-pad@git+ssh://example.com/x.git", /is not a version, range or dist-tag/],
    ["npm:../escape", /is not an npm package name/],
    ["github:acme", /expected github:OWNER\/REPO@REF/],
    ["github:acme/acp@../../etc", /is not a tag, branch or commit name/],
    ["ftp://example.com/schema.tgz", /unknown kind of source/],
  ])("rejects the malformed source %s", async (source, message) => {
    const run = await cli("fetch", source, "--schema-dir", join(caseDir(), "schema"));
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(message);
  });
});
