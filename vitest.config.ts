import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const literal = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
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
  },
});
