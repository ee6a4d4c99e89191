import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { GENERATOR_VERSION, RUNTIME_DIR, TEMPLATES_DIR } from "../paths.js";
import { banner, type OutputFile } from "./output.js";

export interface PackageOptions {
  name: string;
  version: string;
}

/** Relative path from a surface folder (`v1/unstable`) to the package's `runtime/`. */
export function runtimePathFrom(surface: SurfaceModel): string {
  return surface.id
    .split("/")
    .map(() => "..")
    .join("/")
    .concat("/runtime");
}

const templates = new Map<string, Handlebars.TemplateDelegate>();
function render(name: string, data: object): string {
  let template = templates.get(name);
  if (!template) {
    // noEscape: the output is code and Markdown, not HTML; values are escaped where they land.
    template = Handlebars.compile(readFileSync(join(TEMPLATES_DIR, "package", name), "utf8"), {
      noEscape: true,
      strict: true,
    });
    templates.set(name, template);
  }
  return template(data);
}

/** `index.js` / `index.d.ts`: what the surface's entry point exports. */
export function emitSurfaceIndex(surface: SurfaceModel): OutputFile[] {
  const data = {
    banner: banner(surface.schemaFile.name).trimEnd(),
    runtime: runtimePathFrom(surface),
    title: `Agent Client Protocol v${surface.version}${surface.stability === "unstable" ? " (unstable)" : ""}.`,
    protocolVersion: surface.protocolVersion,
    definitions: surface.definitions.length,
    methods: surface.methods.length,
    unstable: surface.stability === "unstable",
  };
  return [
    { path: `${surface.id}/index.js`, content: render("index.js.hbs", data) },
    { path: `${surface.id}/index.d.ts`, content: render("index.d.ts.hbs", data) },
  ];
}

/**
 * The runtime shared by every surface, compiled from templates/runtime by the build. The
 * file list comes from the sources, so a stale file left in dist/ can never ship.
 */
export function emitRuntime(): OutputFile[] {
  return readdirSync(join(TEMPLATES_DIR, "runtime"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort()
    .flatMap((f) => [`${f.slice(0, -3)}.d.ts`, `${f.slice(0, -3)}.js`])
    .map((f) => ({ path: `runtime/${f}`, content: readFileSync(join(RUNTIME_DIR, f), "utf8") }));
}

function exportsMap(model: ProtocolModel): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  const ordered = [...model.surfaces].sort(
    (a, b) => a.version - b.version || (a.stability === "stable" ? -1 : 1),
  );
  for (const surface of ordered) {
    map[surface.entry] = {
      types: `./${surface.id}/index.d.ts`,
      default: `./${surface.id}/index.js`,
    };
  }
  map["./package.json"] = "./package.json";
  return map;
}

export function emitPackageJson(model: ProtocolModel, options: PackageOptions): OutputFile {
  const root = model.surfaces.find((s) => s.entry === ".");
  const pkg = {
    name: options.name,
    version: options.version,
    description:
      "Agent Client Protocol types, validators and method tables, generated from the protocol's JSON Schema by acp-codegen.",
    license: "Apache-2.0",
    type: "module",
    sideEffects: false,
    ...(root ? { types: `./${root.id}/index.d.ts`, main: `./${root.id}/index.js` } : {}),
    exports: exportsMap(model),
    files: [
      ...new Set(model.surfaces.map((s) => s.id.split("/")[0] as string)),
      "runtime",
      "acp-codegen.json",
    ].sort(),
    engines: { node: ">=18" },
    keywords: ["agent-client-protocol", "acp", "json-rpc", "types", "validation"],
  };
  return { path: "package.json", content: `${JSON.stringify(pkg, null, 2)}\n` };
}

export function emitReadme(model: ProtocolModel, options: PackageOptions): OutputFile {
  const surfaces = model.surfaces.map((s) => ({
    importPath: s.entry === "." ? options.name : `${options.name}/${s.entry.slice(2)}`,
    protocolVersion: s.protocolVersion,
    unstable: s.stability === "unstable",
    schema: s.schemaFile.name,
    definitions: s.definitions.length,
    methods: s.methods.length,
  }));
  const inputs = model.inputs.map((f) => ({ name: f.name, short: f.sha256.slice(0, 12) }));
  return {
    path: "README.md",
    content: render("README.md.hbs", {
      name: options.name,
      generatorVersion: GENERATOR_VERSION,
      surfaces,
      inputs,
    }),
  };
}
