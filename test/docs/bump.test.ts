import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { buildTarball, fixtureFiles, type LocalServer, startRegistry } from "../fetch/servers.js";
import { HISTORY_DIR, RELEASES_DIR, tempDir } from "../support/run.js";

/**
 * docs/bump.md's three commands, as written, in a scratch copy of this repository: from an
 * older schema to a newer one served as `@agentclientprotocol/sdk@latest` by a registry on
 * 127.0.0.1, then the suite's own type-check. The doc's third line is `npm test`; here the
 * copy runs `npm run typecheck` (what a bump broke before: type cases naming methods a
 * release dropped) and `acp-codegen check`, as the whole suite would take this file's budget
 * several times over.
 */
const work = tempDir("docs-bump");

/** The first `sh` block of the doc's workflow section: its commands, comments dropped. */
function workflowCommands(): string[] {
  const doc = readFileSync(join(ROOT, "docs", "bump.md"), "utf8");
  const section = doc.slice(doc.indexOf("## The workflow"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+# .*$/, "").trim())
    .filter(Boolean);
}

/**
 * A copy of the repository as git tracks it, sharing the installed dependencies. The first
 * `npx acp-codegen` there installs the copy into npx's cache, as on a fresh clone, which runs
 * its `prepare` (the build, and tools/typedoc's own install): nothing else is shared, since an
 * install replaces the folders it installs into.
 */
function scratchRepo(name: string): string {
  const copy = join(work.path, name);
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}

const scenarios = [
  // The bump the issue that asked for this test ran: the schema vendored before, then SDK 2.4.0.
  { name: "788fdeda to SDK 2.4.0", older: join(HISTORY_DIR, "788fdeda"), newer: "2.4.0" },
  // A release other than the vendored one, whose methods the suite's own cases never named.
  { name: "SDK 2.4.0 to SDK 2.0.0", older: join(RELEASES_DIR, "2.4.0"), newer: "2.0.0" },
];

afterAll(() => work.remove());

/** A registry on 127.0.0.1 whose `@agentclientprotocol/sdk@latest` holds `release`'s schema. */
async function registryWithLatest(release: string): Promise<LocalServer> {
  const tarball = await buildTarball(
    work.path,
    "@agentclientprotocol/sdk",
    fixtureFiles(join(RELEASES_DIR, release), "schema/"),
  );
  return startRegistry({
    "@agentclientprotocol/sdk": { latest: "99.0.0", versions: [{ version: "99.0.0", tarball }] },
  });
}

describe("docs/bump.md, as written", () => {
  const commands = workflowCommands();

  it("is three commands: fetch latest, generate at the version fetch printed, test and commit", () => {
    expect(commands).toEqual([
      "npx acp-codegen fetch npm:@agentclientprotocol/sdk@latest",
      "npx acp-codegen generate --pkg-version <the version fetch printed>",
      "npm test && git add schema generated && git commit",
    ]);
  });

  it.each(scenarios.map((s, i) => [s.name, s, i] as const))(
    "%s: ends with a clean check and a passing type-check",
    { timeout: 600_000 },
    async (_name, scenario, index) => {
      const registry = await registryWithLatest(scenario.newer);
      try {
        await bump(scenario, index, registry);
      } finally {
        await registry.close();
      }
    },
  );

  async function bump(
    scenario: (typeof scenarios)[number],
    index: number,
    registry: LocalServer,
  ): Promise<void> {
    const repo = scratchRepo(`repo-${index}`);
    // The release comes from the registry on 127.0.0.1; everything else from the usual one.
    const npmrc = join(work.path, `npmrc-${index}`);
    writeFileSync(npmrc, `@agentclientprotocol:registry=${registry.url}/\n`);
    const env = {
      ...process.env,
      npm_config_userconfig: npmrc,
      npm_config_update_notifier: "false",
      npm_config_yes: "true",
    };
    // Asynchronous: the registry answers from this process, so it must not be blocked.
    const sh = (command: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn("bash", ["-c", command], { cwd: repo, env });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString("utf8");
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString("utf8");
        });
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    // The older schema, and the package generated from it, as a maintainer would have them.
    rmSync(join(repo, "schema"), { recursive: true });
    const setup = await sh(
      `npx acp-codegen fetch ${scenario.older} --quiet && npx acp-codegen generate --pkg-version 1.0.0 --quiet`,
    );
    expect(setup.stderr.split("\n").filter((l) => l && !l.startsWith("warning: "))).toEqual([]);
    expect(setup.status, setup.stderr).toBe(0);
    const [fetchLine, generateLine] = commands as [string, string, string];
    const fetched = await sh(fetchLine);
    expect(fetched.status, fetched.stderr).toBe(0);
    const next = fetched.stdout.trim().split("\n").at(-1) ?? "";
    const version = /--pkg-version (\S+),/.exec(next)?.[1];
    expect(version, next).toMatch(/^\d+\.\d+\.\d+$/);
    expect(next).toContain(generateLine.replace("<the version fetch printed>", version ?? ""));
    const generated = await sh(generateLine.replace("<the version fetch printed>", version ?? ""));
    expect(generated.status, generated.stderr).toBe(0);
    expect(readFileSync(join(repo, "generated", "CHANGELOG.md"), "utf8")).toContain(
      `## ${version}\n`,
    );
    expect((await sh("npx acp-codegen check --quiet")).status).toBe(0);
    const typecheck = await sh("npm run typecheck --silent");
    expect(typecheck.stdout + typecheck.stderr).not.toMatch(/error TS/);
    expect(typecheck.status).toBe(0);
  }
});
