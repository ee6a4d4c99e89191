import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { cli, HISTORY_DIR, RELEASES_DIR, readJson, SCHEMA_DIR, tempDir } from "../support/run.js";
import {
  buildTarball,
  copyDir,
  fixtureFiles,
  type LocalServer,
  rawTar,
  readBytes,
  siblings,
  snapshot,
  startRawHost,
} from "./servers.js";

const work = tempDir("fetch-sources");
let host: LocalServer;

/** Upstream's git tags v0.13.0–v0.13.6 named the v2 draft `schema.v2.unstable.json` beside the flat v1 files. */
const SUFFIXED_TREE = {
  ...fixtureFiles(join(HISTORY_DIR, "v0.10.4"), "schema/"),
  "schema/schema.v2.unstable.json": readFileSync(
    join(RELEASES_DIR, "1.3.0", "v2", "schema.unstable.json"),
  ),
};

beforeAll(async () => {
  host = await startRawHost(
    {
      "acme/acp/v1.0.0": {
        ...fixtureFiles(join(HISTORY_DIR, "v1.0.0"), "schema/"),
        "README.md": "# not a schema file\n",
        "schema/v1/CHANGELOG.md": "not a schema file either\n",
      },
      "acme/acp/v0.13.2": SUFFIXED_TREE,
      "acme/acp/broken": { "schema/schema.json": '{"$defs": {' },
    },
    ["/acme/acp/flaky/schema/v1/schema.json"],
  );
});
afterAll(async () => {
  await host?.close();
  work.remove();
});

let count = 0;
function schemaCopy(): string {
  count++;
  return copyDir(SCHEMA_DIR, join(work.path, `case-${count}`, "schema"));
}

/** The schema folder holds exactly `expected` (bytes) plus the two record files. */
function expectExactly(dir: string, expected: Record<string, Buffer>): void {
  const after = readBytes(dir);
  expect([...after.keys()].sort()).toEqual(
    [...Object.keys(expected), "README.md", "source.json", "CHANGES.md"].sort(),
  );
  for (const [path, bytes] of Object.entries(expected)) {
    expect(after.get(path)?.equals(bytes), path).toBe(true);
  }
}

describe("fetch github:OWNER/REPO@REF", () => {
  it("copies the repository's schema/ folder at that ref, leaving other files behind", async () => {
    const dir = schemaCopy();
    // The host serves every test of this file: only this test's requests count here.
    const earlier = host.requests.length;
    const run = await cli(
      "fetch",
      "github:acme/acp@v1.0.0",
      "--schema-dir",
      dir,
      "--github-base-url",
      host.url,
      "--quiet",
    );
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expectExactly(dir, fixtureFiles(join(HISTORY_DIR, "v1.0.0")));
    const record = readJson<{ source: string; files: Record<string, { from: string }> }>(
      join(dir, "source.json"),
    );
    expect(record.source).toBe("github:acme/acp@v1.0.0");
    expect(record.files["v2/meta.json"]?.from).toBe("schema/v2/meta.json");
    // Every request went to the raw-content scheme: /OWNER/REPO/REF/schema/NAME.
    const mine = host.requests.slice(earlier);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((r) => !r.startsWith("/acme/acp/v1.0.0/schema/"))).toEqual([]);
  });

  it("moves the suffixed v2 files of the 0.13 tags into v2/, where the loader reads them", async () => {
    const dir = schemaCopy();
    const run = await cli(
      "fetch",
      "github:acme/acp@v0.13.2",
      "--schema-dir",
      dir,
      "--github-base-url",
      host.url,
      "--json",
    );
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout.join("\n")) as {
      files: Array<{ path: string; from: string }>;
      diff: { surfaces: Array<{ id: string; newFile: string | null }> };
    };
    expect(body.files.find((f) => f.path === "v2/schema.unstable.json")?.from).toBe(
      "schema/schema.v2.unstable.json",
    );
    expect(body.diff.surfaces.filter((s) => s.newFile !== null).map((s) => s.id)).toEqual([
      "v1",
      "v1/unstable",
      "v2/unstable",
    ]);
    const expected = fixtureFiles(join(HISTORY_DIR, "v0.10.4"));
    expected["v2/schema.unstable.json"] = SUFFIXED_TREE["schema/schema.v2.unstable.json"];
    expectExactly(dir, expected);
  });

  it.each([
    [
      "a ref with no schema (HTTP 404 everywhere)",
      "github:acme/acp@v9.9.9",
      /^acp-codegen: github:acme\/acp@v9\.9\.9: no schema files at http:\/\/127\.0\.0\.1:\d+\/acme\/acp\/v9\.9\.9\/schema\/ \(HTTP 404/,
    ],
    [
      "a server error",
      "github:acme/acp@flaky",
      /^acp-codegen: github:acme\/acp@flaky: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/acme\/acp\/flaky\/schema\/v1\/schema\.json$/,
    ],
    [
      "a file that is not JSON",
      "github:acme/acp@broken",
      /^acp-codegen: http:\/\/127\.0\.0\.1:\d+\/acme\/acp\/broken\/schema\/schema\.json#\/\$defs: invalid JSON: /,
    ],
    ["no ref", "github:acme/acp", /^acp-codegen: github:acme\/acp: name the tag or commit/],
  ])("%s: exit 2, one line, the schema folder untouched", async (_label, source, message) => {
    const dir = schemaCopy();
    const before = snapshot(dir);
    const around = siblings(dir);
    const run = await cli("fetch", source, "--schema-dir", dir, "--github-base-url", host.url);
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(message);
    expect(snapshot(dir)).toEqual(before);
    expect(siblings(dir)).toEqual(around);
  });

  it("an unreachable host: exit 2 naming the URL", async () => {
    const gone = await startRawHost({});
    await gone.close();
    const dir = schemaCopy();
    const before = snapshot(dir);
    const run = await cli(
      "fetch",
      "github:acme/acp@v1.0.0",
      "--schema-dir",
      dir,
      "--github-base-url",
      gone.url,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(
      /cannot fetch http:\/\/127\.0\.0\.1:\d+\/acme\/acp\/v1\.0\.0\/schema\/.* \(ECONNREFUSED\)/,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("fetch FOLDER and fetch FILE.tgz", () => {
  it("takes a schema folder in any layout as it is", async () => {
    const dir = schemaCopy();
    const run = await cli("fetch", join(RELEASES_DIR, "1.3.0"), "--schema-dir", dir, "--quiet");
    expect(run.code).toBe(0);
    expectExactly(dir, fixtureFiles(join(RELEASES_DIR, "1.3.0")));
  });

  it("finds schema/ inside a checkout or an unpacked package", async () => {
    const checkout = join(work.path, "checkout");
    copyDir(join(HISTORY_DIR, "v0.6.3"), join(checkout, "schema"));
    writeFileSync(join(checkout, "package.json"), "{}");
    const dir = schemaCopy();
    const run = await cli("fetch", checkout, "--schema-dir", dir, "--quiet");
    expect(run.code).toBe(0);
    expectExactly(dir, fixtureFiles(join(HISTORY_DIR, "v0.6.3")));
  });

  it("reads an npm tarball from disk", async () => {
    const tgz = join(work.path, "sdk-2.4.0.tgz");
    writeFileSync(
      tgz,
      await buildTarball(work.path, "x", fixtureFiles(join(RELEASES_DIR, "2.4.0"), "schema/")),
    );
    const dir = schemaCopy();
    const run = await cli("fetch", tgz, "--schema-dir", dir, "--quiet");
    expect(run.code).toBe(0);
    expectExactly(dir, fixtureFiles(join(RELEASES_DIR, "2.4.0")));
    const record = readJson<{ source: string; files: Record<string, { from: string }> }>(
      join(dir, "source.json"),
    );
    expect(record.source).toBe(tgz);
    expect(record.files["v1/schema.json"]?.from).toBe("schema/v1/schema.json");
  });

  const bad: Array<[string, () => Promise<string>, RegExp]> = [
    [
      "a truncated tarball",
      async () => {
        const whole = await buildTarball(
          work.path,
          "x",
          fixtureFiles(join(RELEASES_DIR, "1.2.1"), "schema/"),
        );
        return write("cut.tgz", whole.subarray(0, Math.floor(whole.length / 2)));
      },
      /: truncated archive/,
    ],
    [
      "a file that is not an archive",
      async () => write("notes.tgz", "just some text\n".repeat(100)),
      /not a \.tgz or \.tar archive|not a valid gzip file/,
    ],
    [
      "a tarball without schema",
      async () => write("none.tgz", await buildTarball(work.path, "x", { "index.js": "" })),
      /: no ACP schema in it/,
    ],
    [
      "a symbolic link where a schema file should be",
      async () =>
        write(
          "link.tgz",
          await buildTarball(
            work.path,
            "x",
            {},
            { links: { "schema/schema.json": "/etc/passwd" } },
          ),
        ),
      /schema\/schema\.json: a link to \/etc\/passwd: links and special files in a release are never followed/,
    ],
    [
      "a path that climbs out of the archive",
      async () =>
        write("climb.tgz", rawTar([{ path: "package/../../schema/schema.json", content: "{}" }])),
      /unsafe path "package\/\.\.\/\.\.\/schema\/schema\.json" in the archive/,
    ],
    [
      "a folder whose schema.json is not JSON",
      async () => {
        const folder = join(work.path, "not-json");
        copyDir(join(ROOT, "test", "fixtures", "hostile", "not-json"), folder);
        return folder;
      },
      /not-json\/schema\.json#\/\$defs\/A: invalid JSON: /,
    ],
    [
      "a schema the generator refuses",
      async () =>
        copyDir(
          join(ROOT, "test", "fixtures", "hostile", "x-method-without-x-side"),
          join(work.path, "refused"),
        ),
      /refused\/schema\.json#\/\$defs\/.*x-method without x-side/,
    ],
    [
      "a path that does not exist",
      async () => join(work.path, "nowhere"),
      /nowhere: not found \(expected npm:PACKAGE/,
    ],
  ];

  it.each(bad)(
    "%s: exit 2, one line, the schema folder untouched",
    async (_label, make, message) => {
      const source = await make();
      const dir = schemaCopy();
      const before = snapshot(dir);
      const around = siblings(dir);
      const run = await cli("fetch", source, "--schema-dir", dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(message);
      expect(snapshot(dir)).toEqual(before);
      expect(siblings(dir)).toEqual(around);
    },
  );
});

function write(name: string, content: Buffer | string): string {
  const path = join(work.path, name);
  writeFileSync(path, content);
  return path;
}
