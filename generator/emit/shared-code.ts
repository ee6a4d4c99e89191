import { posix } from "node:path";
import { Diagnostics } from "../diagnostics.js";
import { linkPlans, type PlanLayout, soloLayout } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import { buildRepairPlan } from "../model/repair-plan.js";
import { sameDefinitions } from "../model/stability.js";
import { prepareDefinitions } from "../prepare/backends.js";
import type { Json } from "../schema/json.js";
import { needsEvaluation } from "./ajv.js";
import type { Declaration } from "./ts-declarations.js";

/** A surface's definitions as the validators see them; findings are dropped (reported when emitted). */
function validatorSchemas(surface: SurfaceModel): Record<string, Json> {
  return prepareDefinitions("validators", {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics: new Diagnostics(),
  });
}

/** The modules, in a stable surface's folder, of the code it shares with its unstable one. */
export const SHARED_VALIDATORS = "shared-validators.js";
export const SHARED_GUARDS = "shared-guards.js";
export const SHARED_PARSERS = "shared-parsers.js";
export const SHARED_PARSE_CHECKS = "shared-parsers-validators.js";

/**
 * The specifier, from `surface`'s folder, of the shared module `file`: in the stable folder,
 * which is `surface`'s own when it has no stable surface beside it.
 */
export function sharedModuleFrom(
  surface: SurfaceModel,
  stable: SurfaceModel | undefined,
  file: string,
): string {
  return stable ? `${posix.relative(surface.id, stable.id) || "."}/${file}` : `./${file}`;
}

/**
 * The definitions of an unstable surface whose compiled code is the stable surface's: their
 * validators and the guards over them are emitted once, into the stable folder's shared
 * modules, which both surfaces import (an unstable entry point then loads no stable code it
 * does not use).
 *
 * Judged on the schemas as the validators see them, prose and other annotations stripped
 * (prepare/backends.ts), not as written: upstream rewords a description in the unstable schema
 * for most definitions (137 of v1's 178 differ as written, 20 once prepared), and no line of
 * a validator reads one. A definition counts only if everything it references counts too
 * (model/stability.ts), so a changed definition deep down is never reached through stable
 * code. Only between surfaces whose validators take the same arguments: the bookkeeping
 * emit/ajv.ts `createStandaloneAjv` leaves out when it can would add some.
 *
 * Types are not shared this way: their documentation is the descriptions, which differ
 * (`sharedDeclarations` judges them on the declarations as written).
 */
export function sharedWithStable(surface: SurfaceModel, stable: SurfaceModel): ReadonlySet<string> {
  // Asked once for each surface of the pair (each emits its side of the shared modules).
  const known = computed.get(surface);
  if (known?.stable === stable) return known.shared;
  const shared = compute(surface, stable);
  computed.set(surface, { stable, shared });
  return shared;
}

const computed = new WeakMap<SurfaceModel, { stable: SurfaceModel; shared: Set<string> }>();

function compute(surface: SurfaceModel, stable: SurfaceModel): Set<string> {
  const mine = validatorSchemas(surface);
  const theirs = validatorSchemas(stable);
  if (needsEvaluation(mine) || needsEvaluation(theirs)) return new Set();
  const written = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  return sameDefinitions(theirs, mine, surface.defsKeyword, written);
}

/**
 * The parse plan of the context's surface, laid out beside the surface next to it: the
 * records a stable surface and its unstable one share are numbered first in both and written
 * once, into the stable folder's shared-parsers.js (model/plan-link.ts). Computed once per
 * pair: both surfaces' emitters ask.
 */
export function planLayout({
  surface,
  stable,
  unstable,
  shared,
}: {
  surface: SurfaceModel;
  stable?: SurfaceModel;
  unstable?: SurfaceModel;
  shared: ReadonlySet<string>;
}): PlanLayout {
  const pair = stable
    ? { stable, unstable: surface }
    : unstable
      ? { stable: surface, unstable }
      : undefined;
  if (!pair) return soloLayout(buildRepairPlan(surface));
  let known = layouts.get(pair.stable);
  if (known?.beside !== pair.unstable) {
    known = {
      beside: pair.unstable,
      ...linkPlans(buildRepairPlan(pair.stable), buildRepairPlan(pair.unstable), shared),
    };
    layouts.set(pair.stable, known);
  }
  return stable ? known.unstable : known.stable;
}

const layouts = new WeakMap<
  SurfaceModel,
  { beside: SurfaceModel; stable: PlanLayout; unstable: PlanLayout }
>();

/** A declaration file as `sharedDeclarations` reads it. */
export interface DeclarationFile {
  declarations: readonly Declaration[];
  /** Each name the file imports → the package-relative module it comes from (`runtime/signatures.js`). */
  imports: ReadonlyMap<string, string>;
}

/**
 * The declarations of an unstable surface's types.d.ts that the stable one's can stand for:
 * the same text, doc comments included (an editor shows the stable file's), up to the draft
 * docs links (`sameButDraftLinks`), and every name the code uses bound alike in both files: to a declaration shared the same way, to an import of
 * the same module, or to nothing (a global). So a shared declaration means in the stable file
 * what it would mean in the unstable one, down to everything it reaches. Names declared twice
 * in a file are never shared.
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
