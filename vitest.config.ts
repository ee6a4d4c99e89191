import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generates the package under test from schema/ into .test-package/ (see the file).
    globalSetup: ["test/support/test-package.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests that pack and install the generated package share temp folders per file.
    fileParallelism: true,
  },
});
