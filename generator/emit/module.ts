import type { SharedKind, SurfaceFacts } from "../analysis/facts.js";
import type { SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { SHARED_MODULES, sharedModuleFrom } from "./shared-code.js";

/**
 * The module builder: a generated module's import and binding lines, rendered from the names
 * its code was written with, and its re-exports of another module's names.
 *
 * Code that names something bound outside the fragment being written (a validator imported
 * from validators.js, a shared check bound from the shared parse module) writes the name
 * through `Uses.ref`, which records it; the lines that bind the names are rendered from what
 * was recorded, never found again in the written text. So a fragment that names a validator
 * yields its import, and one that does not yields none, whatever else its text holds (string
 * literals, comments, names that only look alike).
 */

/** One line that binds names for a module: an import, or a destructuring of an imported object. */
export interface Binding {
  /** Where each name goes on the line: lower first. The same uses always render the same line. */
  readonly rank: (name: string) => number;
  /** The line binding `names` (in rank order, never empty). */
  readonly line: (names: readonly string[]) => string;
}

/** The names a module's code refers to, by the binding that binds them. */
export class Uses {
  readonly #names = new Map<Binding, Set<string>>();

  /** Records that the code refers to `name`, bound by `binding`, and returns it to be written. */
  ref(binding: Binding, name: string): string {
    const names = this.#names.get(binding) ?? new Set<string>();
    this.#names.set(binding, names.add(name));
    return name;
  }

  /** The names recorded for `binding`, in its order. */
  names(binding: Binding): string[] {
    return [...(this.#names.get(binding) ?? [])].sort((a, b) => binding.rank(a) - binding.rank(b));
  }

  /** The lines of `bindings`, in that order, each where the code refers to one of its names. */
  lines(bindings: readonly Binding[]): string[] {
    return bindings.flatMap((binding) => {
      const names = this.names(binding);
      return names.length === 0 ? [] : [binding.line(names)];
    });
  }
}

/** A rank in the order `names` has: names outside it after all of them, which a caller never writes. */
export function rankIn(names: readonly string[]): (name: string) => number {
  const at = new Map(names.map((n, i) => [n, i]));
  return (name) => at.get(name) ?? names.length;
}

/** `import { a, b } from "specifier";`, the names in the order `names` gives them. */
export function namedImport(specifier: string, names: readonly string[]): Binding {
  return {
    rank: rankIn(names),
    line: (used) => `import { ${used.join(", ")} } from "${specifier}";`,
  };
}

/** `import * as N from "specifier";`: one name, the namespace's. */
export function namespaceImport(namespace: string, specifier: string): Binding {
  return { rank: () => 0, line: () => `import * as ${namespace} from "${specifier}";` };
}

/** One name a module re-exports: the other module's name for it, and this module's. */
export interface Reexport {
  readonly theirs: string;
  readonly mine: string;
}

/**
 * How a module's re-exports of one other module are written: `line` one statement on one line,
 * `block` one name a line (validators.js, above ajv's code, which is written a statement a line).
 */
export type ReexportLayout = "line" | "block";

/**
 * `export { a, b as c } from "specifier";` for `names` in their order (`export type` when
 * `typeOnly`); nothing when there are none.
 */
export function reexportLines(
  specifier: string,
  names: readonly Reexport[],
  { layout = "line", typeOnly = false }: { layout?: ReexportLayout; typeOnly?: boolean } = {},
): string[] {
  if (names.length === 0) return [];
  const specs = names.map(({ theirs, mine }) => (theirs === mine ? mine : `${theirs} as ${mine}`));
  const keyword = typeOnly ? "export type" : "export";
  return layout === "block"
    ? [`${keyword} {`, ...specs.map((s) => `  ${s},`), `} from "${specifier}";`]
    : [`${keyword} { ${specs.join(", ")} } from "${specifier}";`];
}

/** What the re-exports are written from: an emit context's surfaces, names and sharing plan. */
export interface SharingInput {
  readonly surface: SurfaceModel;
  readonly stable?: SurfaceModel | undefined;
  readonly names: SurfaceSymbols;
  readonly stableNames?: SurfaceSymbols | undefined;
  readonly facts: Pick<SurfaceFacts, "sharing">;
}

/**
 * What a file of kind `kind` takes from the stable folder's shared module, as its re-export
 * lines: the sharing plan's names (analysis/facts.ts `Sharing.taken`), each under the stable
 * surface's name there (the shared module is compiled with the stable surface's names) and
 * this surface's name here. On a stable surface both are its own.
 */
export function sharedReexports(
  { surface, stable, names, stableNames, facts }: SharingInput,
  kind: SharedKind,
  layout: ReexportLayout = "line",
): string[] {
  const theirs = (stable ? stableNames : undefined) ?? names;
  const reexports = facts.sharing.taken[kind].flatMap(({ key, roles }) => {
    const [other, own] = [theirs.definition(key), names.definition(key)];
    return roles.flatMap((role) => {
      const [from, to] = [other[role], own[role]];
      return from === undefined || to === undefined ? [] : [{ theirs: from, mine: to }];
    });
  });
  return reexportLines(sharedModuleFrom(surface, stable, SHARED_MODULES[kind]), reexports, {
    layout,
  });
}
