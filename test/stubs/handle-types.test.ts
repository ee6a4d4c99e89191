import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { tempDir } from "../support/run.js";

/**
 * A terminal handle works with `await using` wherever the consumer's TypeScript knows
 * `Symbol.asyncDispose`: from lib `esnext.disposable`, or from @types/node on an ES2020 lib.
 */
const TSC_7 = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const work = tempDir("handle-types");
afterAll(() => work.remove());

describe("await using on a handle", { timeout: 60_000 }, () => {
  it.each([
    [
      "lib es2022 + esnext.disposable, no @types/node",
      { lib: ["es2022", "esnext.disposable"], types: [] },
    ],
    ["lib es2020 + @types/node", { lib: ["es2020"], types: ["node"] }],
  ])("type-checks with %s", (_label, options) => {
    const config = join(work.path, `${_label.replace(/\W+/g, "-")}.json`);
    const compilerOptions = {
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      typeRoots: [join(ROOT, "node_modules", "@types")],
      ...options,
    };
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions,
        files: [join(ROOT, "test", "stubs", "handle-dispose-cases.ts")],
      }),
    );
    const result = spawnSync(process.execPath, [TSC_7, "-p", config], { encoding: "utf8" });
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });

  it("does not type-check where nothing declares Symbol.asyncDispose (so the check above means something)", () => {
    const config = join(work.path, "plain.json");
    const compilerOptions = {
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noEmit: true,
      lib: ["es2022"],
      types: [],
    };
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions,
        files: [join(ROOT, "test", "stubs", "handle-dispose-cases.ts")],
      }),
    );
    const result = spawnSync(process.execPath, [TSC_7, "-p", config], { encoding: "utf8" });
    expect(result.status).not.toBe(0);
  });
});
