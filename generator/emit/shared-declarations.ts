import { reexportLines } from "./module.js";
import { type Declaration, splitDeclarations } from "./ts-declarations.js";

/**
 * Which declarations an unstable surface's declaration files (types.d.ts, received.d.ts) take
 * from the stable surface's, and how such a file is written then. The validators, guards and
 * parse plans an unstable surface shares are decided on the schemas (shared-code.ts); a
 * declaration carries the schema's prose as its documentation, so it is judged as written.
 */

/** A declaration file before any sharing: its imports, and its declarations' text. */
export interface DeclarationSource {
  imports: Array<{
    names: readonly string[];
    /** The package-relative module the names' declarations are in. */
    module: string | ((name: string) => string);
    /** The import statement for those of the names a file uses. */
    line: (names: readonly string[]) => string;
  }>;
  text: string;
  file: DeclarationFile;
}

/** `imports` and declarations together, as `sharedDeclarations` reads a file. */
export function declarationSource(
  imports: DeclarationSource["imports"],
  text: string,
): DeclarationSource {
  return {
    imports,
    text,
    file: {
      declarations: splitDeclarations(text),
      imports: new Map(
        imports.flatMap(({ names, module }) =>
          names.map((n) => [n, typeof module === "string" ? module : module(n)] as const),
        ),
      ),
    },
  };
}

/**
 * An unstable surface's file with what the stable surface's file `from` already declares
 * taken from there (`sharedDeclarations`): the lines after its banner, and the names taken.
 * The rest is written as the file alone would write it, with the imports it still uses.
 */
export function takeShared(
  own: DeclarationSource,
  theirs: DeclarationSource,
  from: string,
): { lines: string[]; taken: Set<string> } {
  const shared = sharedDeclarations(theirs.file, own.file);
  const isShared = (d: Declaration) => d.exported && d.name !== undefined && shared.has(d.name);
  const taken = own.file.declarations.filter(isShared);
  const kept = own.file.declarations.filter((d) => !isShared(d));
  // A local (the open-object alias) stays where a declaration left here uses it, directly or
  // through another local.
  const used = new Set<string>();
  const locals = new Map(kept.flatMap((d) => (d.exported || !d.name ? [] : [[d.name, d]])));
  const use = (d: Declaration) => {
    for (const r of d.references) {
      if (used.has(r)) continue;
      used.add(r);
      const local = locals.get(r);
      if (local) use(local);
    }
  };
  for (const d of kept) if (d.exported || !d.name) use(d);
  const body = kept.filter((d) => d.exported || d.name === undefined || used.has(d.name));
  const names = (kind: Declaration["kind"]) =>
    taken.filter((d) => d.kind === kind).map((d) => d.name as string);
  const types = names("type");
  const values = names("value");
  const local = types.filter((n) => used.has(n));
  // A declaration is shared under its own name: the two files declare it alike.
  const same = (name: string) => ({ theirs: name, mine: name });
  return {
    lines: [
      ...own.imports.flatMap((i) => {
        const needed = i.names.filter((n) => used.has(n));
        return needed.length ? [i.line(needed)] : [];
      }),
      // Re-exported by name; bound here only where a declaration left here uses one.
      ...(local.length ? [`import type { ${local.join(", ")} } from "${from}";`] : []),
      ...reexportLines(from, types.map(same), { typeOnly: true }),
      ...reexportLines(from, values.map(same)),
      "",
      ...body.map((d) => d.text),
    ],
    taken: new Set([...types, ...values]),
  };
}

/** A declaration file as `sharedDeclarations` reads it. */
export interface DeclarationFile {
  declarations: readonly Declaration[];
  /** Each name the file imports → the package-relative module it comes from (`runtime/signatures.js`). */
  imports: ReadonlyMap<string, string>;
}

/**
 * The declarations of an unstable surface's file that the stable one's can stand for: the
 * same text, doc comments included (an editor shows the stable file's), up to the docs' draft
 * links (`sameButDraftLinks`), and every name the code uses bound alike in both files: to a
 * declaration shared the same way, to an import of the same module, or to nothing (a global).
 * So a shared declaration means in the stable file what it would mean in the unstable one,
 * down to everything it reaches. Names declared twice in a file are never shared.
 */
export function sharedDeclarations(
  stable: DeclarationFile,
  unstable: DeclarationFile,
): Set<string> {
  const theirs = byName(stable.declarations);
  const mine = byName(unstable.declarations);
  const shared = new Set<string>();
  for (const [name, own] of mine) {
    const other = theirs.get(name);
    if (own && other && sameButDraftLinks(other.text, own.text)) shared.add(name);
  }
  const binding = (
    file: DeclarationFile,
    named: Map<string, Declaration | undefined>,
    name: string,
  ) =>
    named.has(name)
      ? "declaration"
      : file.imports.has(name)
        ? `import ${file.imports.get(name)}`
        : "global";
  const bound = (name: string) => {
    const here = binding(unstable, mine, name);
    return here === binding(stable, theirs, name) && (here !== "declaration" || shared.has(name));
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of shared)
      if (![...(mine.get(name) as Declaration).references].every(bound)) {
        shared.delete(name);
        changed = true;
      }
  }
  return shared;
}

/**
 * Whether an unstable surface's text is the stable one's but for its links into the docs'
 * draft pages: upstream's unstable schema links `…/protocol/v1/draft/session-setup` where the
 * stable one links `…/protocol/v1/session-setup`, in every description, so a definition both
 * schemas state alike differs in nothing else (in each release so far: 117 of v1's and 127 of
 * v2's declarations differ so). The mirror page documents the same definition; sharing the
 * declaration shows the stable page's link to unstable users too.
 */
export function sameButDraftLinks(stable: string, unstable: string): boolean {
  return stable === unstable || stable === unstable.replace(DRAFT_LINK, "$1");
}

/** A URL's `/draft` path segment, in a link (`](https://…/protocol/v1/draft/…)`). */
const DRAFT_LINK = /(\]\(https?:\/\/[^)\s]*?)\/draft(?=\/)/g;

/** Named declarations by name; a name declared more than once maps to undefined. */
function byName(declarations: readonly Declaration[]): Map<string, Declaration | undefined> {
  const out = new Map<string, Declaration | undefined>();
  for (const d of declarations)
    if (d.name !== undefined) out.set(d.name, out.has(d.name) ? undefined : d);
  return out;
}
