import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../generator/cli.js";
import { ROOT } from "../generator/paths.js";
import { exec, type Finished } from "./consumers/support/run.js";
import { buildTarball, fixtureFiles, type LocalServer, startRegistry } from "./fetch/servers.js";
import { RELEASES_DIR, SCHEMA_DIR, tempDir } from "./support/run.js";

/**
 * The repository's README, as written: every command line of its ```sh blocks runs in a
 * scratch project (a git repository with a schema folder, the README's example extension, and
 * `npx acp-codegen` resolving to this checkout's CLI), its CLI synopsis lists exactly each
 * command's options, and its sample error is what the CLI prints.
 *
 * The `npm:` source the README fetches from is served by a registry on 127.0.0.1, through
 * npm's own configuration as a user's .npmrc would point it; `latest` there is SDK 1.2.1's
 * schema, the project starts on SDK 0.23.0's (one surface each: a quick generate).
 * `npm install` and `npm test` are not run again: they are what runs this test.
 */

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const RELEASE = "@agentclientprotocol/sdk";
const STARTS_ON = join(RELEASES_DIR, "0.23.0");
const LATEST = join(RELEASES_DIR, "1.2.1");
const BY_THE_SUITE = new Set(["npm install", "npm test"]);

/** The README's section under `## title`, up to the next `## `. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The commands of the ```sh blocks of `text`: one per line, `&&` apart, comments cut. */
function commands(text: string): string[] {
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .flatMap((m) => (m[1] ?? "").split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "")
    .flatMap((line) => line.split(" && ").map((c) => c.trim()));
}

const work = tempDir("readme");
let registry: LocalServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const tarball = await buildTarball(work.path, RELEASE, fixtureFiles(LATEST, "schema/"));
  registry = await startRegistry({
    [RELEASE]: { latest: "1.2.1", versions: [{ version: "1.2.1", tarball }] },
  });
  const empty = join(work.path, "empty-npmrc");
  const emptyGlobal = join(work.path, "empty-global-npmrc");
  writeFileSync(empty, "");
  writeFileSync(emptyGlobal, "");
  env = {
    ...process.env,
    npm_config_registry: `${registry.url}/`,
    npm_config_cache: join(work.path, "npm-cache"),
    npm_config_userconfig: empty,
    npm_config_globalconfig: emptyGlobal,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
  };
});
afterAll(async () => {
  await registry?.close();
  work.remove();
});

/** A fresh project: git, the old release as schema/, the README's extension file, and the CLI. */
async function project(name: string): Promise<string> {
  const dir = join(work.path, name);
  cpSync(STARTS_ON, join(dir, "schema"), { recursive: true });
  const examples = join(dir, "docs", "examples");
  mkdirSync(examples, { recursive: true });
  cpSync(
    join(ROOT, "docs", "examples", "acme-extension.json"),
    join(examples, "acme-extension.json"),
  );
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(
    join(ROOT, "bin", "acp-codegen.js"),
    join(dir, "node_modules", ".bin", "acp-codegen"),
  );
  const git = await exec("git", ["init", "-q"], { cwd: dir });
  expect(git.code, git.stderr).toBe(0);
  await commit(dir);
  return dir;
}

async function commit(dir: string): Promise<void> {
  const args = [
    ["add", "."],
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a commit"],
  ];
  for (const a of args) {
    const git = await exec("git", a, { cwd: dir });
    expect(git.code, git.stderr).toBe(0);
  }
}

/** One README command line, run in `dir` as written (placeholders filled in by `fill`). */
function run(dir: string, line: string, fill: Record<string, string> = {}): Promise<Finished> {
  let command = line;
  for (const [placeholder, value] of Object.entries(fill))
    command = command.replace(placeholder, value);
  expect(command, line).not.toMatch(/<[^>]+>/);
  return exec("sh", ["-c", command], { cwd: dir, env, timeoutMs: 180_000 });
}

const expectOk = (result: Finished, line: string) =>
  expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);

describe("README: its commands, as written", { timeout: 300_000 }, () => {
  it("Set-up and Extensions: generate, and generate with the example extension", async () => {
    const dir = await project("setup");
    const lines = [
      ...commands(section("Set-up")),
      ...commands(section("Extensions: your own methods and `_meta` keys")),
    ];
    expect(lines).toEqual([
      "npm install",
      "npx acp-codegen generate",
      "npm test",
      "npx acp-codegen generate --extension docs/examples/acme-extension.json",
    ]);
    const generate = await run(dir, "npx acp-codegen generate");
    expectOk(generate, "generate");
    expect(existsSync(join(dir, "generated", "acp-codegen.json"))).toBe(true);
    const extended = await run(dir, lines[3] ?? "");
    expectOk(extended, lines[3] ?? "");
    expect(readFileSync(join(dir, "generated", "v1", "types.d.ts"), "utf8")).toContain(
      "export interface AcmePingRequest",
    );
    // The manifest names the extension from the package folder, as the README says.
    const manifest = JSON.parse(readFileSync(join(dir, "generated", "acp-codegen.json"), "utf8"));
    expect(Object.keys(manifest.extensions)).toEqual(["../docs/examples/acme-extension.json"]);
  });

  it("Regenerating on a schema bump: fetch, generate with the new version, review, check", async () => {
    const dir = await project("bump");
    // The package as committed before the bump.
    expectOk(await run(dir, "npx acp-codegen generate --quiet"), "generate");
    await commit(dir);
    const lines = commands(section("Regenerating on a schema bump"));
    expect(lines.map((l) => l.split(" ").slice(0, 3).join(" "))).toEqual([
      `npx acp-codegen fetch`,
      `npx acp-codegen fetch`,
      "npx acp-codegen generate",
      "git diff generated/",
      "npx acp-codegen check",
    ]);
    const [dryRun, fetch, generate, review, check] = lines as [
      string,
      string,
      string,
      string,
      string,
    ];
    const schema = () => readFileSync(join(dir, "schema", "schema.json"), "utf8");
    const before = schema();

    const looked = await run(dir, dryRun);
    expectOk(looked, dryRun);
    expect(looked.stdout).toContain("Suggested version bump for the generated package: major");
    expect(schema()).toBe(before);

    expectOk(await run(dir, fetch), fetch);
    expect(schema()).toBe(readFileSync(join(LATEST, "schema.json"), "utf8"));

    // The version the advice calls for (docs/bump.md, "Choosing the version"): a major bump
    // of a 0.x package is 0.(y+1).0.
    const version = JSON.parse(
      readFileSync(join(dir, "generated", "package.json"), "utf8"),
    ).version;
    expect(version).toBe("0.1.0");
    expectOk(await run(dir, generate, { "<new version>": "0.2.0" }), generate);
    expect(JSON.parse(readFileSync(join(dir, "generated", "package.json"), "utf8")).version).toBe(
      "0.2.0",
    );

    const diff = await run(dir, review);
    expectOk(diff, review);
    expect(diff.stdout).toMatch(/^diff --git a\/generated\//m);

    const checked = await run(dir, check);
    expectOk(checked, check);
    expect(checked.stdout).toContain("is up to date");
    expect(registry.requests.some((r) => r.startsWith(`/${RELEASE}`))).toBe(true);
  });

  it("has no command line these tests do not run", () => {
    const run = new Set([
      ...BY_THE_SUITE,
      "npx acp-codegen generate",
      "npx acp-codegen generate --extension docs/examples/acme-extension.json",
      ...commands(section("Regenerating on a schema bump")),
    ]);
    expect(commands(README).filter((line) => !run.has(line))).toEqual([]);
  });
});

describe("README: the CLI section", () => {
  const cli = section("CLI");
  const synopsis = [...cli.matchAll(/^acp-codegen (\w+) +(.*)$/gm)].map((m) => ({
    command: m[1] ?? "",
    options: new Set([...(m[2] ?? "").matchAll(/--[a-z-]+/g)].map((o) => o[0])),
  }));
  /** What the sentence after the synopsis says every command takes. */
  const EVERY = ["--json", "--quiet", "--debug"];

  it("lists each command with exactly its options, and every command takes --json, --quiet and --debug", () => {
    const program = buildProgram(
      () => {},
      () => {},
    );
    expect(synopsis.map((s) => s.command)).toEqual(program.commands.map((c) => c.name()));
    expect(cli).toContain("Every command also takes `--json`");
    for (const { command, options } of synopsis) {
      const real = (program.commands.find((c) => c.name() === command)?.options ?? []).map(
        (o) => o.long ?? "",
      );
      expect([...options, ...EVERY].sort(), command).toEqual([...real].sort());
    }
  });

  it("the sample error is what the CLI prints for it", async () => {
    const sample =
      /^```\n(acp-codegen: (\S+?)#(\/\$defs\/(\w+)\/x-method): x-method without x-side)\n```$/m.exec(
        cli,
      );
    expect(sample).not.toBeNull();
    const [, line, file = "", , definition = ""] = sample ?? [];
    const dir = join(work.path, "sample-error");
    cpSync(SCHEMA_DIR, join(dir, "schema"), { recursive: true });
    const path = join(dir, file);
    const schema = JSON.parse(readFileSync(path, "utf8"));
    expect(schema.$defs[definition]?.["x-side"], definition).toBeDefined();
    delete schema.$defs[definition]["x-side"];
    writeFileSync(path, JSON.stringify(schema));
    const bin = join(ROOT, "bin", "acp-codegen.js");
    const result = await exec(process.execPath, [bin, "generate", "--out", join(dir, "out")], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(line);
    rmSync(dir, { recursive: true, force: true });
  });
});
