import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { tempDir } from "../support/run.js";
import { SCHEMA_CASES_FILE } from "../support/test-package.js";

/**
 * type-cases.ts, and the cases picked from the schema beside the test package
 * (support/schema-cases.ts), hold the type-level tests (each `@ts-expect-error` must meet a
 * real error, or tsc fails). Consumers compile our .d.ts with their own settings and `skipLibCheck: false`,
 * so the cases are checked under each setup a consumer may have.
 */
const TSC_7 = join(ROOT, "node_modules", "typescript", "bin", "tsc");
/** The oldest TypeScript the repository pins: slow, so it gets one setup (test/consumers covers the rest). */
const TSC_5_0 = join(ROOT, "node_modules", "typescript-5.0", "bin", "tsc");
const work = tempDir("stub-types");
afterAll(() => work.remove());

const SETUPS: Array<[string, Record<string, unknown>]> = [
  ["ES2020 only: no DOM, no @types/node", { lib: ["es2020"], types: [] }],
  ["ES2020 + DOM", { lib: ["es2020", "dom"], types: [] }],
  ["ES2020 + @types/node", { lib: ["es2020"], types: ["node"] }],
  [
    "ES2022 + DOM + @types/node, exactOptionalPropertyTypes",
    { lib: ["es2022", "dom", "dom.iterable"], types: ["node"], exactOptionalPropertyTypes: true },
  ],
];

describe("type-level tests of the generated stubs", { timeout: 60_000 }, () => {
  const [plainSetup, plainOptions] = SETUPS[0] ?? ["", {}];
  const cases: Array<readonly [string, string, string, Record<string, unknown>]> = [
    ...SETUPS.map(([setup, options]) => ["TypeScript 7", setup, TSC_7, options] as const),
    ["TypeScript 5.0", plainSetup, TSC_5_0, plainOptions],
  ];
  it.each(cases)("hold with %s under %s", (compiler, setup, tsc, options) => {
    const config = join(work.path, `${`${compiler} ${setup}`.replace(/\W+/g, "-")}.json`);
    const compilerOptions = {
      target: "es2020",
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
        files: [join(ROOT, "test", "stubs", "type-cases.ts"), SCHEMA_CASES_FILE],
      }),
    );
    const result = spawnSync(process.execPath, [tsc, "-p", config], { encoding: "utf8" });
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });
});
