import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { tempDir } from "../support/run.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { exec } from "./support/run.js";

/**
 * The generated package's README, followed as a new user would: its set-up commands run as
 * written in an empty folder, its tsconfig.json and example files saved as shown, `npx tsc`
 * and `node client.js` run as written, and every example with an output block prints it.
 *
 * Three commands fetch from the registry, which a test does not reach; each is replaced by
 * what it installs, and only those: `npm install <the package>` installs the package's
 * tarball (packed here), and `npm install --save-dev typescript @types/node` and
 * `npm install ws` link the repository's own copies. Any other command line of the README
 * fails this test until it runs here too.
 */

const README = readFileSync(join(TEST_PACKAGE, "README.md"), "utf8");
const NAME = (
  JSON.parse(readFileSync(join(TEST_PACKAGE, "package.json"), "utf8")) as { name: string }
).name;

interface Block {
  lang: string;
  body: string;
  /** The ```text block right after it, if any: what it prints. */
  output?: string;
}

const blocks: Block[] = [];
for (const m of README.matchAll(/^```(\w*)\n([\s\S]*?)^```\n/gm)) {
  const lang = m[1] ?? "";
  const body = m[2] ?? "";
  const previous = blocks.at(-1);
  const adjacent = README.slice(0, m.index).endsWith("```\n\n");
  if (lang === "text" && previous && adjacent) previous.output = body;
  else blocks.push({ lang, body });
}
const commands = blocks.filter((b) => b.lang === "sh").flatMap((b) => b.body.trim().split("\n"));
const named = blocks
  .filter((b) => b.lang === "ts")
  .map((b) => ({ ...b, name: /^\/\/ ([\w-]+)\.ts\n/.exec(b.body)?.[1] }))
  .filter((b): b is Block & { name: string } => b.name !== undefined);

const work = tempDir("readme-commands");
const project = join(work.path, "project");
let tarball = "";

/** The installs that need the registry, and what the test does instead. */
const SUBSTITUTES: Record<string, () => Promise<void>> = {
  [`npm install ${NAME}`]: async () => {
    const run = await exec("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], {
      cwd: project,
    });
    expect(run.code, run.stderr).toBe(0);
  },
  "npm install ws": async () => {
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(
      realpathSync(join(ROOT, "node_modules", "ws")),
      join(project, "node_modules", "ws"),
    );
  },
  "npm install --save-dev typescript @types/node": async () => {
    for (const pkg of ["typescript", "@types/node", "undici-types"]) {
      mkdirSync(dirname(join(project, "node_modules", pkg)), { recursive: true });
      symlinkSync(
        realpathSync(join(ROOT, "node_modules", pkg)),
        join(project, "node_modules", pkg),
      );
    }
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync(
      join("..", "typescript", "bin", "tsc"),
      join(project, "node_modules", ".bin", "tsc"),
    );
  },
};

/** Run one README command line in the project: as written, unless it needs the registry. */
async function run(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const substitute = SUBSTITUTES[line];
  if (substitute) {
    await substitute();
    return { code: 0, stdout: "", stderr: "" };
  }
  return exec("sh", ["-c", line], { cwd: project, timeoutMs: 120_000 });
}

beforeAll(async () => {
  mkdirSync(project);
  const packed = await exec("npm", ["pack", "--silent", "--pack-destination", work.path], {
    cwd: TEST_PACKAGE,
  });
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(work.path, packed.stdout.trim().split("\n").pop() ?? "");
}, 120_000);
afterAll(() => work.remove());

describe("the generated README, followed as written", { timeout: 240_000 }, () => {
  it("sets up a project, compiles the examples and runs each, printing what it says", async () => {
    // Set-up: every command before the first example, in order.
    const setup = commands.slice(0, commands.indexOf("npx tsc"));
    expect(setup).toContain("npm init -y && npm pkg set type=module");
    for (const line of setup) {
      const result = await run(line);
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
    }
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toMatchObject({
      type: "module",
    });

    const [tsconfig] = blocks.filter(
      (b) => b.lang === "json" && b.body.includes("compilerOptions"),
    );
    expect(tsconfig).toBeDefined();
    writeFileSync(join(project, "tsconfig.json"), tsconfig?.body ?? "");
    for (const example of named) writeFileSync(join(project, `${example.name}.ts`), example.body);
    expect(named.map((e) => e.name)).toEqual(expect.arrayContaining(["agent", "client", "edit"]));

    // Then the commands shown after it, as written: the compiler, then the client; the
    // later sections' installs run before their examples do.
    const rest = commands.slice(commands.indexOf("npx tsc"));
    expect(rest.slice(0, 2)).toEqual(["npx tsc", "node client.js"]);
    const compiled = await run("npx tsc");
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.code).toBe(0);
    const client = await run("node client.js");
    expect(client.stderr).toBe("");
    expect(client.stdout).toBe(named.find((e) => e.name === "client")?.output);

    // Every other example with an output block runs the same way and prints it.
    const runnable = named.filter((e) => e.output !== undefined && e.name !== "client");
    expect(runnable.length).toBeGreaterThan(3);
    for (const line of rest.slice(2)) {
      const result = await run(line);
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
    }
    for (const example of runnable) {
      const result = await run(`node ${example.name}.js`);
      expect(result.stderr, example.name).toBe("");
      expect(result.stdout, example.name).toBe(example.output);
    }
  });

  it("has no command line this test does not run", () => {
    // The set-up lines, the two after it, and the install line at the top (the same one).
    for (const line of commands)
      expect(
        SUBSTITUTES[line] !== undefined || /^(npm init|npx tsc$|node \w+\.js$)/.test(line),
        line,
      ).toBe(true);
  });
});
