import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { colourFor, wantsColour } from "../generator/cli.js";
import { MAX_EDITS_PER_FILE } from "../generator/output/check.js";
import { readTree } from "../generator/output/write.js";
import { ROOT } from "../generator/paths.js";
import { PACKAGE_ENTRIES } from "../generator/symbols/exports.js";
import { cli, HISTORY_DIR, RELEASES_DIR, SCHEMA_DIR, tempDir } from "./support/run.js";
import { annotatedMethods, SURFACES, schemaOf } from "./support/surfaces.js";
import { TEST_PACKAGE } from "./support/test-package.js";

const work = tempDir("cli");
/** The package generated from schema/ for this test run (never written to: copied by scratch()). */
const pristine = TEST_PACKAGE;
afterAll(() => work.remove());

/**
 * A fresh copy of a schema folder (the vendored one unless `from` says otherwise) and of the
 * package generated from the vendored schema.
 */
function scratch(name: string, from = SCHEMA_DIR): { schema: string; out: string } {
  const schema = join(work.path, name, "schema");
  const out = join(work.path, name, "generated");
  cpSync(from, schema, { recursive: true });
  cpSync(pristine, out, { recursive: true });
  return { schema, out };
}

describe("generate", () => {
  it("is deterministic: a second run writes byte-identical files", async () => {
    const again = join(work.path, "again");
    expect(
      (await cli("generate", "--schema-dir", SCHEMA_DIR, "--out", again, "--quiet")).code,
    ).toBe(0);
    expect(readTree(again)).toEqual(readTree(pristine));
  });

  it("prints a summary per surface", async () => {
    const run = await cli(
      "generate",
      "--schema-dir",
      SCHEMA_DIR,
      "--out",
      join(work.path, "summary"),
    );
    expect(run.code).toBe(0);
    // One line per surface: entry point, schema file, its definitions and its methods (one
    // per entry of the method maps: a method both sides serve counts on each).
    const expected = SURFACES.map((s) => {
      const types = Object.keys(schemaOf(s).$defs).length;
      const methods = annotatedMethods(schemaOf(s)).length;
      return [s.entry, s.schema, `${types} types`, `${methods} methods`];
    });
    expect(run.stderr).toEqual([]);
    const lines = run.stdout.filter((l) => !l.startsWith("wrote "));
    expect(lines.map((l) => l.trim().split(/\s{2,}/))).toEqual(expected);
  });

  it("refuses to replace a folder it did not generate", async () => {
    const foreign = join(work.path, "foreign");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "precious.txt"), "keep me");
    const run = await cli("generate", "--schema-dir", SCHEMA_DIR, "--out", foreign);
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(readdirSync(foreign)).toEqual(["precious.txt"]);
  });

  it("records --name and reuses it, so check needs no flags", async () => {
    const named = join(work.path, "named");
    expect(
      (
        await cli(
          "generate",
          "--schema-dir",
          SCHEMA_DIR,
          "--out",
          named,
          "--name",
          "@acme/acp",
          "--quiet",
        )
      ).code,
    ).toBe(0);
    expect(readTree(named).get("package.json")).toContain('"name": "@acme/acp"');
    expect((await cli("check", "--schema-dir", SCHEMA_DIR, "--out", named, "--quiet")).code).toBe(
      0,
    );
  });

  it("rejects an invalid package name with exit 2", async () => {
    const run = await cli(
      "generate",
      "--schema-dir",
      SCHEMA_DIR,
      "--out",
      join(work.path, "badname"),
      "--name",
      "Not Valid",
    );
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toMatch(/--name.*not a valid npm package name/);
  });
});

describe.each([
  ["v0.6.3 (flat, stable only)", join(HISTORY_DIR, "v0.6.3"), ["."]],
  ["v0.10.4 (flat, with unstable)", join(HISTORY_DIR, "v0.10.4"), [".", "./unstable"]],
  ["v1.0.0 (versioned)", join(HISTORY_DIR, "v1.0.0"), [".", "./unstable", "./v2", "./v2/unstable"]],
  [
    "SDK 1.3.0 (flat v1 beside v2/schema.unstable.json)",
    join(RELEASES_DIR, "1.3.0"),
    [".", "./v2/unstable"],
  ],
])("older release %s", (_label, dir, entries) => {
  it("generates exactly the surfaces it has, and check is clean", async () => {
    const out = join(work.path, `history-${entries.length}-${dir.split("/").pop()}`);
    const run = await cli("generate", "--schema-dir", dir, "--out", out, "--quiet");
    // Warnings are allowed (a flat release's drafts: test/old-releases.test.ts), errors not.
    expect(run.stderr.filter((l) => !l.startsWith("warning:"))).toEqual([]);
    expect(run.code).toBe(0);
    const pkg = JSON.parse(readTree(out).get("package.json") ?? "{}");
    expect(
      Object.keys(pkg.exports).filter(
        (k) => k !== "./package.json" && !PACKAGE_ENTRIES.some((e) => e.subpath === k),
      ),
    ).toEqual(entries);
    expect((await cli("check", "--schema-dir", dir, "--out", out, "--quiet")).code).toBe(0);
  });
});

describe("check", () => {
  it("exits 0 on a fresh generate", async () => {
    const run = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", pristine);
    expect(run.code).toBe(0);
  });

  it("exits 1 after a hand edit, names the file, shows a unified diff and says it was edited by hand", async () => {
    const { out } = scratch("edited");
    const file = join(out, "v1", "methods.js");
    writeFileSync(file, `${readTree(out).get("v1/methods.js")}// tweak\n`);
    const run = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out);
    const text = run.stdout.join("\n");
    expect(run.code).toBe(1);
    expect(text).toContain("changed: v1/methods.js");
    expect(text).toContain("--- a/v1/methods.js");
    expect(text).toContain("-// tweak");
    expect(text).toContain("edited by hand since the last generate: v1/methods.js");
  });

  it("exits 1 when a generated file was deleted or an extra file added", async () => {
    const { out } = scratch("deleted");
    unlinkSync(join(out, "v2", "methods.d.ts"));
    writeFileSync(join(out, "v2", "stray.js"), "export {};\n");
    const run = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out);
    const text = run.stdout.join("\n");
    expect(run.code).toBe(1);
    expect(text).toContain("missing: v2/methods.d.ts");
    expect(text).toContain("extra:   v2/stray.js");
  });

  it("summarises a file rewritten beyond MAX_EDITS_PER_FILE instead of diffing it line by line", async () => {
    const { out } = scratch("rewritten");
    const path = "v1/validators.js";
    const before = readTree(out).get(path) ?? "";
    const lines = before.split("\n");
    // Every line changed: far more edits than the budget, as on a large schema bump.
    writeFileSync(join(out, ...path.split("/")), lines.map((l, i) => `${i}:${l}`).join("\n"));
    expect(lines.length * 2).toBeGreaterThan(MAX_EDITS_PER_FILE);
    const run = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out);
    const text = run.stdout.join("\n");
    expect(run.code).toBe(1);
    expect(text).toContain(`changed: ${path}`);
    expect(text).toContain(`--- a/${path}`);
    expect(text).toContain(
      `… more than ${MAX_EDITS_PER_FILE} changed lines (${lines.length} lines before, ${lines.length} after)`,
    );
    // No hunk: the file was summarised, not diffed line by line.
    expect(text).not.toContain("@@");
  });

  it("exits 1 and blames the schema when the schema changed but generated/ was not regenerated", async () => {
    const { schema, out } = scratch("bumped");
    const file = join(schema, "v1", "schema.json");
    const parsed = JSON.parse(readTree(join(schema, "v1")).get("schema.json") ?? "{}");
    parsed.$defs.SessionId.description = "Changed upstream.";
    writeFileSync(file, JSON.stringify(parsed, null, 2));
    const run = await cli("check", "--schema-dir", schema, "--out", out);
    expect(run.code).toBe(1);
    expect(run.stdout.join("\n")).toContain(
      "schema changed since the last generate: v1/schema.json",
    );
  });
});

describe("bad input: exit 2, one line naming file and pointer, output untouched", () => {
  /** A release that ships meta.json, for the cases about it (npm releases ship none). */
  const WITH_META = join(HISTORY_DIR, "v1.0.0");
  const cases: Array<[string, (schema: string) => void, RegExp, string?]> = [
    [
      "missing schema file",
      (s) => rmSync(join(s, "v1", "schema.json")),
      /v1\/meta\.json: has no matching v1\/schema\.json/,
      WITH_META,
    ],
    [
      "missing schema dir",
      (s) => rmSync(s, { recursive: true }),
      /schema: schema directory not found/,
    ],
    [
      "invalid JSON",
      (s) => writeFileSync(join(s, "v2", "schema.json"), '{"$defs": {"A": {"type": "object",}}}'),
      /v2\/schema\.json#\/\$defs\/A: invalid JSON: .*line 1 column/,
    ],
    [
      "non-object document",
      (s) => writeFileSync(join(s, "v1", "schema.json"), "[1, 2]"),
      /v1\/schema\.json#: expected a JSON Schema object, found an array/,
    ],
    [
      "dangling $ref",
      (s) => patchDef(s, "v1/schema.json", "SessionId", { $ref: "#/$defs/Nope" }),
      /v1\/schema\.json#\/\$defs\/SessionId\/\$ref: dangling \$ref "#\/\$defs\/Nope"/,
    ],
    [
      "external $ref",
      (s) => patchDef(s, "v1/schema.json", "SessionId", { $ref: "other.json#/x" }),
      /#\/\$defs\/SessionId\/\$ref: unsupported \$ref/,
    ],
    [
      "x-method without x-side",
      (s) =>
        patchDef(s, "v1/schema.json", "LogoutRequest", (d) => {
          delete d["x-side"];
        }),
      /v1\/schema\.json#\/\$defs\/LogoutRequest\/x-method: x-method without x-side/,
    ],
    [
      "unknown x-side",
      (s) =>
        patchDef(s, "v2/schema.json", "PromptRequest", (d) => {
          d["x-side"] = "editor";
        }),
      /v2\/schema\.json#\/\$defs\/PromptRequest\/x-side: unknown x-side "editor"/,
    ],
    [
      "meta.json method annotated for the other side",
      (s) =>
        patchMeta(s, "v1/meta.json", (m) => {
          m.clientMethods.session_cancel = "session/cancel";
        }),
      /v1\/meta\.json#\/clientMethods\/session_cancel: method "session\/cancel" has no definition with x-method "session\/cancel" served by the client side/,
      WITH_META,
    ],
    [
      "x-method missing from meta.json",
      (s) =>
        patchMeta(s, "v1/meta.json", (m) => {
          delete m.clientMethods.terminal_kill;
        }),
      /v1\/schema\.json#\/\$defs\/KillTerminalRequest\/x-method: method "terminal\/kill" .* is not listed in .*meta\.json/,
      WITH_META,
    ],
    [
      "response without request",
      (s) =>
        patchDef(s, "v1/schema.json", "LogoutRequest", (d) => {
          delete d["x-method"];
          delete d["x-side"];
        }),
      /LogoutResponse\/x-method: response for "logout" has no matching request definition/,
    ],
  ];

  it.each(cases)("%s", async (_label, breakIt, message, from) => {
    const { schema, out } = scratch(`bad-${_label.replace(/\W+/g, "-")}`, from);
    const before = readTree(out);
    breakIt(schema);
    for (const command of ["generate", "check"]) {
      const run = await cli(command, "--schema-dir", schema, "--out", out);
      expect(run.code).toBe(2);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(message);
      expect(run.stderr[0]).not.toMatch(/\n|at .*\.ts:\d+/);
    }
    expect(readTree(out)).toEqual(before);
    expect(readdirSync(join(out, ".."))).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/acp-codegen-(new|old)/)]),
    );
  });
});

describe("the installed bin", () => {
  it("runs as `acp-codegen` and prints a stack trace only with --debug", () => {
    const bin = join(ROOT, "bin", "acp-codegen.js");
    expect(execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" }).trim()).toMatch(
      /^\d+\.\d+\.\d+/,
    );
    const plain = spawnSync(
      process.execPath,
      [bin, "check", "--schema-dir", join(work.path, "nowhere")],
      { encoding: "utf8" },
    );
    expect(plain.status).toBe(2);
    expect(plain.stderr.trim().split("\n")).toHaveLength(1);
    const debug = spawnSync(
      process.execPath,
      [bin, "check", "--schema-dir", join(work.path, "nowhere"), "--debug"],
      { encoding: "utf8" },
    );
    expect(debug.status).toBe(2);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});

function patchDef(
  schemaDir: string,
  file: string,
  def: string,
  change: Record<string, unknown> | ((d: Record<string, unknown>) => void),
) {
  const path = join(schemaDir, file);
  const parsed = JSON.parse(readTree(schemaDir).get(file) ?? "{}");
  if (typeof change === "function") change(parsed.$defs[def]);
  else parsed.$defs[def] = change;
  writeFileSync(path, JSON.stringify(parsed));
}

function patchMeta(
  schemaDir: string,
  file: string,
  change: (m: {
    agentMethods: Record<string, string>;
    clientMethods: Record<string, string>;
  }) => void,
) {
  const parsed = JSON.parse(readTree(schemaDir).get(file) ?? "{}");
  change(parsed);
  writeFileSync(join(schemaDir, file), JSON.stringify(parsed));
}

describe("output for scripts and people", () => {
  it("--json summarises generate and check as one JSON document", async () => {
    const out = join(work.path, "json");
    const generated = await cli("generate", "--schema-dir", SCHEMA_DIR, "--out", out, "--json");
    expect(generated.code).toBe(0);
    expect(generated.stdout).toHaveLength(1);
    const summary = JSON.parse(generated.stdout[0] ?? "");
    expect(summary.surfaces.map((s: { entry: string }) => s.entry)).toEqual(
      SURFACES.map((s) => s.entry),
    );
    expect(summary.changed).toBe(summary.files);
    writeFileSync(join(out, "v1", "index.js"), "// edited\n");
    const checked = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out, "--json");
    expect(checked.code).toBe(1);
    const report = JSON.parse(checked.stdout[0] ?? "");
    expect(report).toMatchObject({
      clean: false,
      exitCode: 1,
      changed: ["v1/index.js"],
      missing: [],
      extra: [],
    });
    expect(report.causes.join("\n")).toContain(
      "edited by hand since the last generate: v1/index.js",
    );
  });

  it("colours diff lines only at a terminal, never with NO_COLOR or --json", () => {
    expect(wantsColour(true, {}, false)).toBe(true);
    expect(wantsColour(false, {}, false)).toBe(false);
    expect(wantsColour(undefined, {}, false)).toBe(false);
    expect(wantsColour(true, { NO_COLOR: "1" }, false)).toBe(false);
    expect(wantsColour(true, {}, true)).toBe(false);
    expect(colourFor(true)("+added")).toBe("\u001b[32m+added\u001b[0m");
    expect(colourFor(true)("-removed")).toBe("\u001b[31m-removed\u001b[0m");
    expect(colourFor(true)(" context")).toBe(" context");
    expect(colourFor(false)("+added")).toBe("+added");
  });

  it.each(["generate", "check", "diff"])(
    "%s --help shows examples and exit codes",
    async (command) => {
      const run = await cli(command, "--help");
      const text = run.stdout.join("\n");
      expect(run.code).toBe(0);
      expect(text).toContain(`Usage: acp-codegen ${command}`);
      expect(text).toMatch(/Examples?:/);
      expect(text).toMatch(/[Ee]xit codes?/);
    },
  );
});

describe("check's fast path", () => {
  it("confirms a fresh tree from the manifest alone, and regenerates when anything differs", async () => {
    const { out } = scratch("fast");
    const fast = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out, "--json");
    expect(JSON.parse(fast.stdout[0] ?? "")).toMatchObject({ clean: true, fast: true });
    const full = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out, "--json", "--full");
    expect(JSON.parse(full.stdout[0] ?? "")).toMatchObject({ clean: true, fast: false });

    // Another build of the generator: the fingerprint differs, the output does not.
    const manifestPath = join(out, "acp-codegen.json");
    const manifest = readTree(out).get("acp-codegen.json") ?? "";
    writeFileSync(
      manifestPath,
      manifest.replace(/"fingerprint": "[0-9a-f]+"/, `"fingerprint": "${"0".repeat(64)}"`),
    );
    const rebuilt = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout.join("\n")).toContain("regenerated and compared");

    // A hand edit that keeps the manifest intact is still found.
    writeFileSync(manifestPath, manifest);
    writeFileSync(join(out, "v2", "index.js"), "export {};\n");
    const edited = await cli("check", "--schema-dir", SCHEMA_DIR, "--out", out, "--json");
    expect(JSON.parse(edited.stdout[0] ?? "")).toMatchObject({
      clean: false,
      fast: false,
      changed: ["v2/index.js"],
    });
  });
});
