import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { run, stopAll, TS_NODE } from "../stubs/support.js";
import { compileStrict } from "../support/compile.js";
import { cli, tempDir } from "../support/run.js";
import { ACME } from "./support.js";

/**
 * The README's worked example, as written: its extension file is docs/examples/
 * acme-extension.json, and its agent and client run against a package generated with it
 * (installed as `acp-protocol`, the name the README uses), print the README's output, and
 * type-check under strict settings.
 */

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const SECTION = README.slice(
  README.indexOf("## Extensions"),
  README.indexOf("\n## ", README.indexOf("## Extensions") + 1),
);

const blocks = (lang: string) =>
  [...SECTION.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (m) => m[1] ?? "",
  );
const named = (name: string) => {
  const found = blocks("ts").find((b) => b.startsWith(`// ${name}\n`));
  if (found === undefined) throw new Error(`the README has no ${name} example`);
  return found;
};

const work = tempDir("ext-readme");
const pkg = join(work.path, "node_modules", "acp-protocol");
afterEach(stopAll);
afterAll(() => work.remove());

beforeAll(async () => {
  mkdirSync(join(work.path, "node_modules"), { recursive: true });
  const generated = join(work.path, "package");
  const result = await cli("generate", "--out", generated, "--extension", ACME, "--quiet");
  expect(result.code).toBe(0);
  symlinkSync(generated, pkg, "dir");
  writeFileSync(join(work.path, "package.json"), JSON.stringify({ private: true, type: "module" }));
  for (const name of ["acme-agent.ts", "acme-client.ts"])
    writeFileSync(join(work.path, name), named(name));
}, 120_000);

describe("README: the extension example", { timeout: 30_000 }, () => {
  it("shows docs/examples/acme-extension.json as it is", () => {
    const shown = blocks("json").map((b) => JSON.parse(b) as unknown);
    expect(shown).toContainEqual(JSON.parse(readFileSync(ACME, "utf8")));
  });

  it("the client and agent print what the README says", async () => {
    const [output] = blocks("text");
    const result = await run([...TS_NODE, join(work.path, "acme-client.ts")]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(output);
    expect(result.code).toBe(0);
  });

  it("type-check under strict settings", () => {
    const files = ["acme-agent.ts", "acme-client.ts"].map((f) => join(work.path, f));
    const result = compileStrict(work.path, files);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  });
});
