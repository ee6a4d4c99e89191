import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTree } from "../generator/output/write.js";
import { NODE_ENTRY } from "../generator/symbols/exports.js";
import {
  type CliRun,
  cli,
  HISTORY_DIR,
  importSurface,
  RELEASES_DIR,
  SCHEMA_DIR,
  tempDir,
  typeCheckDeclarations,
} from "./support/run.js";

/** Every real schema release we hold: the vendored one, the shared history and the npm fixtures. */
const RELEASES: Array<[string, string]> = [
  ["vendored", SCHEMA_DIR],
  ...readdirSync(HISTORY_DIR).map((v): [string, string] => [`history ${v}`, join(HISTORY_DIR, v)]),
  ...readdirSync(RELEASES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e): [string, string] => [`sdk ${e.name}`, join(RELEASES_DIR, e.name)]),
];

const work = tempDir("releases");
afterAll(() => work.remove());

/**
 * One generate per release, made by whichever test needs it first (its own test, or the
 * joint type-check), so each test holds up on its own and in any order.
 */
const generations = new Map<string, Promise<{ out: string; run: CliRun }>>();
function generated(label: string, dir: string): Promise<{ out: string; run: CliRun }> {
  let pending = generations.get(label);
  if (!pending) {
    const out = join(work.path, label.replace(/\W+/g, "-"));
    pending = cli("generate", "--schema-dir", dir, "--out", out, "--quiet").then((run) => ({
      out,
      run,
    }));
    generations.set(label, pending);
  }
  return pending;
}

const errors = (run: CliRun) => run.stderr.filter((l) => !l.startsWith("warning:"));

describe("every released schema", () => {
  it.each(RELEASES)(
    "%s generates, and every entry point imports and validates",
    async (label, dir) => {
      const { out, run } = await generated(label, dir);
      expect(errors(run)).toEqual([]);
      expect(run.code).toBe(0);
      const pkg = JSON.parse(readTree(out).get("package.json") ?? "{}") as {
        exports: Record<string, { default: string }>;
      };
      for (const [entry, target] of Object.entries(pkg.exports)) {
        // Not a surface: the Node helpers (their own tests cover them).
        if (entry === "./package.json" || entry === NODE_ENTRY.subpath) continue;
        const surface = target.default.slice(2, -"/index.js".length);
        const mod = await importSurface(out, surface);
        expect(typeof mod.isContentBlock, `${label} ${entry}`).toBe("function");
        expect((mod.isContentBlock as (v: unknown) => boolean)({ type: "text", text: "x" })).toBe(
          true,
        );
        expect((mod.isContentBlock as (v: unknown) => boolean)({ type: "text" })).toBe(false);
      }
    },
  );

  it("all generated declarations type-check together under strict, skipLibCheck false", async () => {
    const outputs: string[] = [];
    for (const [label, dir] of RELEASES) {
      const { out, run } = await generated(label, dir);
      expect(errors(run), label).toEqual([]);
      outputs.push(out);
    }
    const tsc = typeCheckDeclarations(work.path, outputs);
    expect(tsc.output).toBe("");
    expect(tsc.status).toBe(0);
  });
});
