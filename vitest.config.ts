import { realpathSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const literal = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The tests that exercise the generated package at run time (its runtime, connections,
 * parsers, Node helpers, consumers and interop with the SDK): `npm test` runs them on every
 * Node.js release users run, not only on the one running the suite (tools/test/run.mjs).
 */
export const PACKAGE_FACING = [
  "test/runtime/**/*.test.ts",
  "test/session/**/*.test.ts",
  "test/remote/**/*.test.ts",
  "test/router/**/*.test.ts",
  "test/stubs/**/*.test.ts",
  "test/chain/**/*.test.ts",
  "test/consumers/**/*.test.ts",
  "test/parse/**/*.test.ts",
  "test/fuzz/differential.test.ts",
  "test/extensions/connection.test.ts",
  "test/generated-package.test.ts",
  "test/hostile-wire.test.ts",
  "test/package-install.test.ts",
];

/**
 * Tests among those that only run the TypeScript compilers on the generated declarations:
 * what a compiler says does not depend on the Node.js release running it, so the other
 * releases' runs leave them out (as test/consumers/consumers.test.ts leaves out its
 * type-check matrix and its lint of the tarball there).
 */
export const COMPILER_ONLY = [
  "test/stubs/types.test.ts",
  "test/stubs/type-parens.test.ts",
  "test/stubs/handle-types.test.ts",
  "test/parse/narrowing.test.ts",
];

const packageSet = process.env.ACP_TEST_SET === "package";

export default defineConfig({
  test: {
    include: packageSet ? PACKAGE_FACING : ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(packageSet ? COMPILER_ONLY : [])],
    // Generates the package under test from schema/ into .test-package/ (see the file).
    globalSetup: ["test/support/test-package.ts"],
    // Generated packages (the test run's, and those tests generate into temp folders) are
    // plain ES modules: Node loads them as a consumer's would, without vite transforming
    // megabytes of validators first.
    server: {
      deps: {
        external: [
          new RegExp(`^${literal(root)}\\.test-package/`),
          new RegExp(`^(${literal(tmpdir())}|${literal(realpathSync(tmpdir()))})/acp-codegen-`),
        ],
      },
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests that pack and install the generated package share temp folders per file.
    fileParallelism: true,
    // One file per core, not vitest's default of one fewer: most files spend their time
    // waiting on child processes (generate, tsc, npm, agents), so on two cores one worker
    // left the second idle (a sample of five files: 221 s with one worker, 134 s with two).
    maxWorkers: availableParallelism(),
  },
});
