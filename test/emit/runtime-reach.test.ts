import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import ts from "typescript-5.9";
import { afterAll, describe, expect, it } from "vitest";
import { RUNTIME_DIR } from "../../generator/paths.js";
import { cli, RELEASES_DIR, tempDir } from "../support/run.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * The runtime declarations a package ships are those a consumer's compiler reads. Asked of
 * TypeScript itself: a program over every entry point's `index.d.ts`, resolved as a consumer
 * on `nodenext` resolves it. Where the package lacks a runtime declaration, the compiler is
 * handed the build's (dist/runtime), so a module the package should have but pruned is still
 * loaded, and shows up as missing rather than silently unresolved.
 */
function runtimeTypeScriptLoads(pkg: string): string[] {
  const runtime = join(pkg, "runtime");
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    noLib: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const served = (path: string) =>
    path.startsWith(`${runtime}/`) && path.endsWith(".d.ts") && !existsSync(path)
      ? join(RUNTIME_DIR, basename(path))
      : path;
  host.fileExists = (path) => ts.sys.fileExists(served(path));
  host.readFile = (path) => ts.sys.readFile(served(path));
  host.getSourceFile = (path, language) => {
    const text = ts.sys.readFile(served(path));
    return text === undefined ? undefined : ts.createSourceFile(path, text, language);
  };
  const pkgJson = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
    exports: Record<string, { types?: string } | string>;
  };
  const entries = Object.values(pkgJson.exports).flatMap((e) =>
    typeof e === "object" && e.types ? [join(pkg, e.types)] : [],
  );
  const program = ts.createProgram(entries, options, host);
  return program
    .getSourceFiles()
    .map((f) => f.fileName)
    .filter((f) => f.startsWith(`${runtime}/`))
    .map((f) => f.slice(runtime.length + 1))
    .sort();
}

const shippedRuntime = (pkg: string) =>
  readdirSync(join(pkg, "runtime"))
    .filter((f) => f.endsWith(".d.ts"))
    .sort();

/** The runtime modules whose code a bundled `runtime/*.js` holds (esbuild names each). */
const bundledModules = (pkg: string) =>
  readdirSync(join(pkg, "runtime"))
    .filter((f) => f.endsWith(".js"))
    .flatMap((f) =>
      [
        ...readFileSync(join(pkg, "runtime", f), "utf8").matchAll(
          /^\/\/ dist\/runtime\/(.+)\.js$/gm,
        ),
      ].map((m) => m[1] as string),
    );

const old = tempDir("runtime-reach");
afterAll(() => old.remove());
// An old release (no sessions, no proxy chain, no routers) besides the vendored schema's.
const generated = await cli(
  "generate",
  "--quiet",
  "--schema-dir",
  join(RELEASES_DIR, "0.4.5"),
  "--out",
  old.path,
);

describe.each([
  ["the vendored schema", TEST_PACKAGE],
  ["release 0.4.5", old.path],
])("the runtime declarations of %s's package", (_, pkg) => {
  it("are exactly those TypeScript loads from its entry points", () => {
    expect(generated.code, generated.stderr.join("\n")).toBe(0);
    const loaded = runtimeTypeScriptLoads(pkg);
    expect(loaded.length).toBeGreaterThan(0);
    expect(shippedRuntime(pkg)).toEqual(loaded);
  });

  it("leave out modules only the bundled JavaScript uses", () => {
    const loaded = new Set(runtimeTypeScriptLoads(pkg));
    const bundleOnly = bundledModules(pkg).filter((m) => !loaded.has(`${m}.d.ts`));
    // Something is pruned (the line framing, the arrival queue, … have code, no reader).
    expect(bundleOnly.length).toBeGreaterThan(0);
    for (const m of bundleOnly) expect(shippedRuntime(pkg)).not.toContain(`${m}.d.ts`);
  });
});
