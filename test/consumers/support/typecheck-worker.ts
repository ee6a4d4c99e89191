/**
 * Type-checks several tsconfig files of one project with one TypeScript (5.x or 6.x, which
 * have a JavaScript API) in a single process, and prints the diagnostics as JSON.
 *
 * Why not `tsc -p` once per tsconfig: with `skipLibCheck: false` every run re-parses and
 * re-checks the default library and @types/node, which costs far more than the package
 * under test and is the same for every package. Here
 *  - parsed and bound files are shared between the programs of one run (keyed by path,
 *    language version and module format, the inputs that change how a file is parsed and
 *    bound), so each library file is read once, not once per tsconfig;
 *  - every option, global and syntactic diagnostic is reported, and the semantic
 *    diagnostics of every file except the compiler's own lib files and the environment's
 *    `@types` packages: the consumer files, the package's declarations and anything they
 *    pull in (the official SDK's zod, for example). The environment itself is checked in
 *    full by the TypeScript 7 runs, which use the real `tsc`.
 *
 * Usage: node --import tsx typecheck-worker.ts '{"typescript": DIR, "dir": DIR, "configs": [...]}'
 */
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import type TypeScript from "typescript-5.9";

interface Request {
  typescript: string;
  dir: string;
  configs: string[];
}

const request = JSON.parse(process.argv[2] ?? "{}") as Request;
const ts = createRequire(import.meta.url)(
  join(request.typescript, "lib", "typescript.js"),
) as typeof TypeScript;

const cache = new Map<string, TypeScript.SourceFile | undefined>();

function host(options: TypeScript.CompilerOptions): TypeScript.CompilerHost {
  const base = ts.createCompilerHost(options, true);
  return {
    ...base,
    getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate) {
      const settings =
        typeof languageVersionOrOptions === "object"
          ? languageVersionOrOptions
          : { languageVersion: languageVersionOrOptions };
      const key = `${fileName}\0${settings.languageVersion}\0${settings.impliedNodeFormat ?? ""}`;
      if (!shouldCreate && cache.has(key)) return cache.get(key);
      const file = base.getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
      cache.set(key, file);
      return file;
    },
  };
}

interface Reported {
  file: string;
  code: number;
  text: string;
}

function report(diagnostic: TypeScript.Diagnostic): Reported {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n  ");
  if (!diagnostic.file || diagnostic.start === undefined)
    return { file: "", code: diagnostic.code, text: message };
  const file = relative(request.dir, diagnostic.file.fileName);
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return {
    file,
    code: diagnostic.code,
    text: `${file}(${line + 1},${character + 1}): ${message}`,
  };
}

const environment = (program: TypeScript.Program, file: TypeScript.SourceFile): boolean =>
  program.isSourceFileDefaultLibrary(file) ||
  /[\\/]node_modules[\\/]@types[\\/]/.test(file.fileName);

const results: Array<{ config: string; ms: number; diagnostics: Reported[] }> = [];
for (const config of request.configs) {
  const started = performance.now();
  const parsed = ts.getParsedCommandLineOfConfigFile(join(request.dir, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`cannot read ${config}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: host(parsed.options),
    configFileParsingDiagnostics: parsed.errors,
  });
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program
      .getSourceFiles()
      .filter((file) => !environment(program, file))
      .flatMap((file) => program.getSemanticDiagnostics(file)),
  ];
  results.push({
    config,
    ms: Math.round(performance.now() - started),
    diagnostics: diagnostics.map(report),
  });
}
process.stdout.write(JSON.stringify(results));
