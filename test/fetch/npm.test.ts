import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cli, HISTORY_DIR, RELEASES_DIR, readJson, SCHEMA_DIR, tempDir } from "../support/run.js";
import {
  buildTarball,
  copyDir,
  fixtureFiles,
  type LocalServer,
  readBytes,
  sha256,
  siblings,
  snapshot,
  startRegistry,
} from "./servers.js";

// `npm:` sources run the machine's real npm client, pointed through its own configuration
// (environment variables, as a user's .npmrc would) at a registry on 127.0.0.1.
const work = tempDir("fetch-npm");
let registry: LocalServer;

beforeAll(async () => {
  const older = await buildTarball(
    work.path,
    "@acme/acp-schema",
    fixtureFiles(join(RELEASES_DIR, "2.0.0"), "schema/"),
  );
  const newer = await buildTarball(
    work.path,
    "@acme/acp-schema",
    fixtureFiles(join(RELEASES_DIR, "2.4.0"), "schema/"),
  );
  const noSchema = await buildTarball(work.path, "@acme/no-schema", {
    "index.js": "export {};\n",
    "README.md": "# no schema here\n",
  });
  const whole = await buildTarball(
    work.path,
    "@acme/cut-short",
    fixtureFiles(join(RELEASES_DIR, "1.2.1"), "schema/"),
  );
  registry = await startRegistry({
    "@acme/acp-schema": {
      latest: "2.4.0",
      versions: [
        { version: "2.0.0", tarball: older },
        { version: "2.4.0", tarball: newer },
      ],
    },
    "@acme/no-schema": { latest: "1.0.0", versions: [{ version: "1.0.0", tarball: noSchema }] },
    // Served and hashed as cut short, so npm's integrity check passes and our reader sees it.
    "@acme/cut-short": {
      latest: "1.0.0",
      versions: [{ version: "1.0.0", tarball: whole.subarray(0, Math.floor(whole.length / 2)) }],
    },
  });
  const npmrc = join(work.path, "empty-npmrc");
  const globalNpmrc = join(work.path, "empty-global-npmrc");
  writeFileSync(npmrc, "");
  writeFileSync(globalNpmrc, "");
  vi.stubEnv("npm_config_registry", `${registry.url}/`);
  vi.stubEnv("npm_config_cache", join(work.path, "npm-cache"));
  vi.stubEnv("npm_config_userconfig", npmrc);
  vi.stubEnv("npm_config_globalconfig", globalNpmrc);
  vi.stubEnv("npm_config_update_notifier", "false");
  vi.stubEnv("npm_config_fund", "false");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await registry?.close();
  work.remove();
});

let count = 0;
/** A copy of the vendored schema folder (hand-written README included) to fetch into. */
/** A copy of a schema folder: the vendored one, or `from`. */
function schemaCopy(from = SCHEMA_DIR): string {
  count++;
  return copyDir(from, join(work.path, `case-${count}`, "schema"));
}

describe("fetch npm:PACKAGE@VERSION", () => {
  it("puts exactly the tarball's schema files into the folder, and records source and hashes", async () => {
    const dir = schemaCopy();
    const run = await cli("fetch", "npm:@acme/acp-schema@2.0.0", "--schema-dir", dir, "--quiet");
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);

    const expected = fixtureFiles(join(RELEASES_DIR, "2.0.0"));
    const after = readBytes(dir);
    expect([...after.keys()].sort()).toEqual(
      [...Object.keys(expected), "README.md", "source.json", "CHANGES.md"].sort(),
    );
    for (const [path, bytes] of Object.entries(expected)) {
      expect(after.get(path)?.equals(bytes), path).toBe(true);
    }
    const record = readJson<{
      source: string;
      integrity: string;
      files: Record<string, { from: string; sha256: string }>;
    }>(join(dir, "source.json"));
    expect(record.source).toBe("npm:@acme/acp-schema@2.0.0");
    expect(record.integrity).toMatch(/^sha512-/);
    expect(record.files).toEqual(
      Object.fromEntries(
        Object.entries(expected).map(([path, bytes]) => [
          path,
          { from: `schema/${path}`, sha256: sha256(bytes) },
        ]),
      ),
    );
    const readme = after.get("README.md")?.toString("utf8") ?? "";
    expect(readme).toContain("`npm:@acme/acp-schema@2.0.0`");
    for (const [path, bytes] of Object.entries(expected)) {
      expect(readme).toContain(`| \`${path}\` | \`schema/${path}\` | \`${sha256(bytes)}\` |`);
    }
  });

  it("resolves a package without a version to its latest release, and prints the diff as JSON", async () => {
    // A folder fetched from git before: a release with meta.json files.
    const dir = schemaCopy(join(HISTORY_DIR, "v1.0.0"));
    const run = await cli("fetch", "npm:@acme/acp-schema", "--schema-dir", dir, "--json");
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout.join("\n")) as {
      source: string;
      requested: string;
      changed: boolean;
      written: boolean;
      removed: string[];
      diff: { old: string; new: string; bump: string; surfaces: Array<{ id: string }> };
    };
    expect(body.source).toBe("npm:@acme/acp-schema@2.4.0");
    expect(body.requested).toBe("npm:@acme/acp-schema");
    expect(body).toMatchObject({ changed: true, written: true });
    // The old folder has meta.json files; the tarball has none.
    expect(body.removed.sort()).toEqual([
      "v1/meta.json",
      "v1/meta.unstable.json",
      "v2/meta.json",
      "v2/meta.unstable.json",
    ]);
    expect(body.diff.old).toBe(dir);
    expect(body.diff.new).toBe("npm:@acme/acp-schema@2.4.0");
    expect(body.diff.surfaces.map((s) => s.id)).toEqual(["v1", "v1/unstable", "v2", "v2/unstable"]);
    const record = readJson<{ source: string }>(join(dir, "source.json"));
    expect(record.source).toBe("npm:@acme/acp-schema@2.4.0");
  });

  it("resolves a range to the highest matching version", async () => {
    const dir = schemaCopy();
    const run = await cli(
      "fetch",
      "npm:@acme/acp-schema@~2.0",
      "--schema-dir",
      dir,
      "--dry-run",
      "--json",
    );
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout.join("\n")) as { source: string }).source).toBe(
      "npm:@acme/acp-schema@2.0.0",
    );
  });

  it.each([
    [
      "no such version",
      "npm:@acme/acp-schema@9.9.9",
      /No matching version found for @acme\/acp-schema@9\.9\.9/,
    ],
    ["no such package", "npm:@acme/not-published", /Not Found.*\(npm E404\)/],
    [
      "no schema in the package",
      "npm:@acme/no-schema@1.0.0",
      /^acp-codegen: npm:@acme\/no-schema@1\.0\.0: no ACP schema in it/,
    ],
    [
      "a truncated tarball",
      "npm:@acme/cut-short@1.0.0",
      /^acp-codegen: npm:@acme\/cut-short@1\.0\.0: .*unexpected end of file/,
    ],
  ])("%s: exit 2, one line, the schema folder untouched", async (_label, source, message) => {
    const dir = schemaCopy();
    const before = snapshot(dir);
    const around = siblings(dir);
    const run = await cli("fetch", source, "--schema-dir", dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(message);
    expect(run.stdout).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
    expect(siblings(dir)).toEqual(around);
  });
});
