import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../../../generator/paths.js";
import { exec, pool } from "./run.js";

/**
 * The consumer matrix: the same consumer files type-checked in throwaway projects under
 * every supported TypeScript, module setting and environment. Shared by the test suite
 * (our package) and by report.ts (our package beside the official SDK, for
 * docs/consumers.md), so the published table comes from the very runs the tests make.
 */

export const FIXTURES = join(ROOT, "test", "consumers", "fixtures");

export interface Compiler {
  /** `5.0`, `5.9`, `6.0`, `7.0`: what the table shows. */
  readonly label: string;
  /** The exact version installed. */
  readonly version: string;
  /** Path of its `tsc` launcher (TypeScript 7's starts the native compiler). */
  readonly tsc: string;
  /** Its package folder, when it has the JavaScript API the batch worker uses (5.x, 6.x). */
  readonly api?: string;
}

/** The compilers the repository pins: the lowest and highest 5.x, 6.x and 7.x. */
export const COMPILERS: readonly Compiler[] = [
  "typescript-5.0",
  "typescript-5.9",
  "typescript-6",
  "typescript",
].map((dir) => {
  const version: string = JSON.parse(
    readFileSync(join(ROOT, "node_modules", dir, "package.json"), "utf8"),
  ).version;
  const folder = join(ROOT, "node_modules", dir);
  return {
    label: version.split(".").slice(0, 2).join("."),
    version,
    tsc: join(folder, "bin", "tsc"),
    ...(existsSync(join(folder, "lib", "typescript.js")) ? { api: folder } : {}),
  };
});

/** A Node project has @types/node installed; a browser project has the DOM lib and no @types/node. */
export type Shape = "node" | "browser";
export const SHAPES: readonly Shape[] = ["node", "browser"];

export type Resolution = "node16" | "nodenext" | "node20" | "bundler" | "node10";

interface ResolutionSpec {
  /** `module` / `moduleResolution` as a consumer writes them. */
  readonly options: Record<string, string>;
  /** Lowest TypeScript that knows the setting. */
  readonly since: number;
  /** The first TypeScript that no longer accepts it. */
  readonly removedIn?: number;
  /** The TypeScript that deprecated it: a consumer then sets `ignoreDeprecations`. */
  readonly deprecatedIn?: number;
  /** Settings only a Node project uses (`node20` describes Node itself). */
  readonly nodeOnly?: boolean;
  /** Settings whose module system lets a `.cts` file compile to `require()`. */
  readonly commonJs?: boolean;
}

export const RESOLUTIONS: Readonly<Record<Resolution, ResolutionSpec>> = {
  node16: { options: { module: "node16", moduleResolution: "node16" }, since: 4.7, commonJs: true },
  nodenext: {
    options: { module: "nodenext", moduleResolution: "nodenext" },
    since: 4.7,
    commonJs: true,
  },
  node20: {
    options: { module: "node20", moduleResolution: "node16" },
    since: 5.9,
    nodeOnly: true,
    commonJs: true,
  },
  bundler: { options: { module: "esnext", moduleResolution: "bundler" }, since: 5.0 },
  // `moduleResolution: "node"` under its TypeScript 5 name: the set-up that ignores `exports`.
  node10: {
    options: { module: "esnext", moduleResolution: "node10" },
    since: 5.0,
    deprecatedIn: 6.0,
    removedIn: 7.0,
  },
};

export interface Setting {
  readonly shape: Shape;
  readonly resolution: Resolution;
  readonly compiler: Compiler;
}

const numeric = (compiler: Compiler): number => Number(compiler.label);

/** Whether `compiler` accepts `resolution` at all; combinations it rejects are not run. */
export function isValid(setting: Setting): boolean {
  const spec = RESOLUTIONS[setting.resolution];
  const ts = numeric(setting.compiler);
  if (spec.nodeOnly && setting.shape !== "node") return false;
  return ts >= spec.since && (spec.removedIn === undefined || ts < spec.removedIn);
}

/** Every valid setting, in table order: shape, then resolution, then compiler. */
export const SETTINGS: readonly Setting[] = SHAPES.flatMap((shape) =>
  (Object.keys(RESOLUTIONS) as Resolution[]).flatMap((resolution) =>
    COMPILERS.map((compiler) => ({ shape, resolution, compiler })).filter(isValid),
  ),
);

/** Whether the setting type-checks a CommonJS consumer (`consumer.cts`) too. */
export const checksCommonJs = (s: Setting): boolean =>
  s.shape === "node" && RESOLUTIONS[s.resolution].commonJs === true;

export const settingId = (s: Setting): string =>
  `${s.shape} ${s.resolution} TS ${s.compiler.label}`;

/** A consumer source file, written into the project under `name`. */
export interface ConsumerFile {
  readonly name: string;
  readonly source: string;
}

/** What is being consumed: our packed package, or the official SDK for comparison. */
export interface Subject {
  readonly id: string;
  /** The name consumers import; replaces `PKG` in the fixtures. */
  readonly name: string;
  /** Put the package and its dependencies into `dir/node_modules`. */
  install(dir: string): Promise<void>;
  /**
   * The consumer files for a project, once the package is installed (so they can depend
   * on what it exports). Files ending in `.cts` are CommonJS consumers, checked only
   * where the module setting has CommonJS; every other file is an ES module consumer.
   */
  consumers(dir: string, shape: Shape): Promise<ConsumerFile[]>;
}

/** A fixture of test/consumers/fixtures with `PKG` replaced by the package's name. */
export function fixture(file: string, name: string, as = file.replace(/\.txt$/, "")): ConsumerFile {
  const source = readFileSync(join(FIXTURES, file), "utf8").replaceAll('"PKG', `"${name}`);
  return { name: as, source };
}

/** Installs a tarball the way a user would, offline: it has no dependencies to fetch. */
export async function installTarball(dir: string, tarball: string): Promise<void> {
  const args = ["install", "--offline", "--no-audit", "--no-fund", "--silent", tarball];
  const run = await exec("npm", args, { cwd: dir });
  if (run.code !== 0) throw new Error(`npm install ${tarball} failed:\n${run.stderr}`);
}

/**
 * The official SDK, copied from the repository's node_modules with the one dependency the
 * declarations of the entry points consumed here need (zod, a peer dependency; its optional
 * peer `@modelcontextprotocol/server` serves `./experimental/mcp-server` only). Copied rather
 * than installed: no network.
 */
export function sdkSubject(): Subject {
  const name = "@agentclientprotocol/sdk";
  return {
    id: "sdk",
    name,
    async install(dir) {
      for (const pkg of [name, "zod"])
        cpSync(join(ROOT, "node_modules", pkg), join(dir, "node_modules", pkg), {
          recursive: true,
        });
    },
    async consumers() {
      return [
        fixture("sdk-esm.ts.txt", name, "consumer.ts"),
        fixture("sdk-cjs.cts.txt", name, "consumer.cts"),
      ];
    },
  };
}

export interface Project {
  readonly subject: Subject;
  readonly shape: Shape;
  readonly dir: string;
  /** ES module consumer files, relative to `dir`. */
  readonly esm: readonly string[];
  /** CommonJS consumer files (`.cts`). */
  readonly cjs: readonly string[];
}

const BASE_OPTIONS = {
  strict: true,
  skipLibCheck: false,
  target: "es2020",
  noEmit: true,
};

/**
 * One throwaway project per subject and shape: `type: module`, the package installed once,
 * the consumer files, and a tsconfig per resolution (the compiler is picked per run).
 */
export async function createProject(
  root: string,
  subject: Subject,
  shape: Shape,
): Promise<Project> {
  const dir = join(root, `${subject.id}-${shape}`);
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: `consumer-${subject.id}-${shape}`, private: true, type: "module" })}\n`,
  );
  await subject.install(dir);
  if (shape === "node") {
    // The repository's own @types/node, linked rather than downloaded.
    symlinkSync(
      join(ROOT, "node_modules", "@types", "node"),
      join(dir, "node_modules", "@types", "node"),
      "dir",
    );
  }
  const files = await subject.consumers(dir, shape);
  for (const file of files) writeFileSync(join(dir, file.name), file.source);
  const project: Project = {
    subject,
    shape,
    dir,
    esm: files.filter((f) => !f.name.endsWith(".cts")).map((f) => f.name),
    cjs: files.filter((f) => f.name.endsWith(".cts")).map((f) => f.name),
  };
  for (const resolution of Object.keys(RESOLUTIONS) as Resolution[]) {
    for (const deprecated of [false, true]) {
      if (deprecated && RESOLUTIONS[resolution].deprecatedIn === undefined) continue;
      writeFileSync(
        join(dir, configName(resolution, deprecated)),
        tsconfig(project, resolution, deprecated),
      );
    }
  }
  return project;
}

function configName(resolution: Resolution, deprecated: boolean): string {
  return `tsconfig.${resolution}${deprecated ? ".ignore-deprecations" : ""}.json`;
}

/** The compiler options every project shares for one resolution: the consumer's settings. */
export function compilerOptions(shape: Shape, resolution: Resolution, deprecated = false) {
  const spec = RESOLUTIONS[resolution];
  return {
    ...BASE_OPTIONS,
    ...spec.options,
    lib: shape === "browser" ? ["es2020", "dom"] : ["es2020"],
    types: shape === "node" ? ["node"] : [],
    // What a consumer must write to keep a deprecated setting on the newer compilers.
    ...(deprecated ? { ignoreDeprecations: `${spec.deprecatedIn?.toFixed(1)}` } : {}),
  };
}

function tsconfig(project: Project, resolution: Resolution, deprecated: boolean): string {
  const commonJs = project.shape === "node" && RESOLUTIONS[resolution].commonJs === true;
  const files = commonJs ? [...project.esm, ...project.cjs] : project.esm;
  return `${JSON.stringify({ compilerOptions: compilerOptions(project.shape, resolution, deprecated), files }, null, 2)}\n`;
}

export interface Diagnostic {
  /** Path relative to the project, or "" for a diagnostic without a file. */
  readonly file: string;
  readonly code: number;
  readonly text: string;
}

export interface Check {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export interface Outcome {
  readonly setting: Setting;
  readonly subject: string;
  /** The ES module consumer, and everything the compiler reports outside the consumer files. */
  readonly esm: Check;
  /** The CommonJS consumer, where the setting has one. */
  readonly cjs?: Check;
  readonly ms: number;
}

/** `file(line,col): error TS1234: message` lines as `tsc --pretty false` prints them. */
const LOCATED = /^(.+?)\((\d+),(\d+)\): (?:error|warning) TS(\d+): (.*)$/;
const GLOBAL = /^(?:error|warning) TS(\d+): (.*)$/;

export function parseTscOutput(output: string, dir: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const line of output.split("\n")) {
    const located = LOCATED.exec(line);
    const global = located ? null : GLOBAL.exec(line);
    if (located) {
      const [, file = "", row, col, code, text = ""] = located;
      const path = relative(dir, join(dir, file));
      found.push({ file: path, code: Number(code), text: `${path}(${row},${col}): ${text}` });
    } else if (global) {
      found.push({ file: "", code: Number(global[1]), text: global[2] ?? "" });
    } else if (line.startsWith(" ") && found.length > 0) {
      // A message chain continues on indented lines: keep it with its diagnostic.
      const last = found.pop() as Diagnostic;
      found.push({ ...last, text: `${last.text}\n${line}` });
    }
  }
  return found;
}

function configFor(setting: Setting): string {
  const spec = RESOLUTIONS[setting.resolution];
  const deprecated =
    spec.deprecatedIn !== undefined && numeric(setting.compiler) >= spec.deprecatedIn;
  return configName(setting.resolution, deprecated);
}

/** Split what a compiler reported between the ES module and the CommonJS consumer. */
function outcome(
  project: Project,
  setting: Setting,
  diagnostics: readonly Diagnostic[],
  ms: number,
): Outcome {
  const inside = (files: readonly string[]) => diagnostics.filter((d) => files.includes(d.file));
  // Anything outside the consumer files (the package's declarations, options, globals)
  // concerns every consumer.
  const consumers = [...project.esm, ...project.cjs];
  const elsewhere = diagnostics.filter((d) => !consumers.includes(d.file));
  const esm = [...inside(project.esm), ...elsewhere];
  const result: Outcome = {
    setting,
    subject: project.subject.id,
    esm: { ok: esm.length === 0, diagnostics: esm },
    ms,
  };
  if (!checksCommonJs(setting)) return result;
  const cjs = [...inside(project.cjs), ...elsewhere];
  return { ...result, cjs: { ok: cjs.length === 0, diagnostics: cjs } };
}

/** One setting through the compiler's own `tsc` (TypeScript 7, which has no JavaScript API). */
async function viaTsc(project: Project, setting: Setting): Promise<Outcome[]> {
  const started = performance.now();
  const args = [setting.compiler.tsc, "-p", configFor(setting), "--pretty", "false"];
  // One thread: the pool already keeps every core busy with other compilers.
  if (numeric(setting.compiler) >= 7) args.push("--singleThreaded");
  const run = await exec(process.execPath, args, { cwd: project.dir });
  const diagnostics = parseTscOutput(run.stdout, project.dir);
  if (run.code !== 0 && diagnostics.length === 0) {
    // A crash, not a type error: keep its output so it is not mistaken for success.
    diagnostics.push({
      file: "",
      code: 0,
      text: `tsc exited ${run.code}: ${run.stdout}${run.stderr}`,
    });
  }
  return [outcome(project, setting, diagnostics, Math.round(performance.now() - started))];
}

const WORKER = join(FIXTURES, "..", "support", "typecheck-worker.ts");

/** Every setting of one project and one compiler in one worker process (see the worker). */
async function viaWorker(project: Project, batch: readonly Setting[]): Promise<Outcome[]> {
  const first = batch[0];
  if (!first?.compiler.api) throw new Error("internal: a worker batch needs a compiler API");
  const request = {
    typescript: first.compiler.api,
    dir: project.dir,
    configs: batch.map(configFor),
  };
  // Run from the repository, where `--import tsx` resolves; the worker is told the project.
  const run = await exec(process.execPath, ["--import", "tsx", WORKER, JSON.stringify(request)], {
    cwd: ROOT,
  });
  if (run.code !== 0)
    throw new Error(`type-check worker failed (TS ${first.compiler.label}):\n${run.stderr}`);
  const results = JSON.parse(run.stdout) as Array<{ ms: number; diagnostics: Diagnostic[] }>;
  return batch.map((setting, i) => {
    const result = results[i];
    if (!result) throw new Error(`internal: no result for ${settingId(setting)}`);
    return outcome(project, setting, result.diagnostics, result.ms);
  });
}

/**
 * Every valid setting for every project, one compiler process per core: a worker per
 * project and TypeScript 5.x/6.x, a `tsc` per setting for TypeScript 7. The batches go
 * first, as they are the longest jobs.
 */
export async function runMatrix(projects: readonly Project[]): Promise<Outcome[]> {
  const batches: Array<() => Promise<Outcome[]>> = [];
  const singles: Array<() => Promise<Outcome[]>> = [];
  for (const project of projects) {
    const mine = SETTINGS.filter((s) => s.shape === project.shape);
    for (const compiler of COMPILERS) {
      const batch = mine.filter((s) => s.compiler === compiler);
      if (batch.length === 0) continue;
      if (compiler.api) batches.push(() => viaWorker(project, batch));
      else for (const setting of batch) singles.push(() => viaTsc(project, setting));
    }
  }
  const done = (await pool([...batches, ...singles], (job) => job())).flat();
  // Back to table order: by project, then as SETTINGS lists them.
  const rank = (o: Outcome) =>
    projects.findIndex((p) => p.subject.id === o.subject && p.shape === o.setting.shape) *
      SETTINGS.length +
    SETTINGS.indexOf(o.setting);
  return done.sort((a, b) => rank(a) - rank(b));
}
