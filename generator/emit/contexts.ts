import { analyse } from "../analysis/index.js";
import type { Diagnostics } from "../diagnostics.js";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols, Symbols } from "../symbols/table.js";
import { loadFormats } from "./ajv.js";
import {
  type DeclarationInput,
  type Declarations,
  type EmitContext,
  runtimeFrom,
} from "./context.js";
import { receivedSource } from "./received.js";
import { typesLayout, typesSource } from "./types.js";

/**
 * Every surface's context, each beside its stable or unstable surface: what the pipeline
 * emits from (and tests that emit a surface's files the way it does). The analysis stage
 * runs here, once for all of them; then each surface's declaration sources are built, the
 * stable surface's first, since an unstable surface's files take from them.
 */
export async function surfaceContexts(
  model: ProtocolModel,
  symbols: Symbols,
  diagnostics: Diagnostics,
): Promise<EmitContext[]> {
  return contextsOf(model.surfaces, (s) => symbols.of(s), diagnostics);
}

/** The surfaces beside one: its stable surface (with its names), or its unstable one (with its). */
export interface Beside {
  stable?: { surface: SurfaceModel; names: SurfaceSymbols };
  unstable?: { surface: SurfaceModel; names: SurfaceSymbols };
}

/** The context of one surface, alone or beside the surfaces `beside` names. */
export async function emitContext(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  diagnostics: Diagnostics,
  { stable, unstable }: Beside = {},
): Promise<EmitContext> {
  const all = [stable, { surface, names }, unstable].flatMap((s) => (s ? [s] : []));
  const contexts = await contextsOf(
    all.map((s) => s.surface),
    (s) => all.find((a) => a.surface === s)?.names ?? names,
    diagnostics,
  );
  return contexts.find((c) => c.surface === surface) as EmitContext;
}

async function contextsOf(
  surfaces: readonly SurfaceModel[],
  namesOf: (surface: SurfaceModel) => SurfaceSymbols,
  diagnostics: Diagnostics,
): Promise<EmitContext[]> {
  const facts = analyse(surfaces, namesOf, diagnostics, await loadFormats());
  const inputs = surfaces.map((surface): DeclarationInput => {
    const stable = surfaces.find((s) => s.id === surface.stableSurface);
    const unstable = surfaces.find((s) => s.stableSurface === surface.id);
    return {
      surface,
      names: namesOf(surface),
      runtime: runtimeFrom(surface.id),
      diagnostics,
      facts: facts.get(surface) as EmitContext["facts"],
      ...(stable ? { stable, stableNames: namesOf(stable) } : {}),
      ...(unstable ? { unstable } : {}),
    };
  });
  // Built on first use, once per surface (only types.d.ts and received.d.ts read them, and
  // json-schema-to-typescript is the slowest step); an unstable surface's after its stable
  // surface's, which it takes from.
  const declared = new Map<SurfaceModel, Promise<Declarations>>();
  const declarationsOf = (input: DeclarationInput): Promise<Declarations> => {
    let found = declared.get(input.surface);
    if (!found) {
      const stable = inputs.find((i) => i.surface === input.stable);
      found = declare(input, stable ? declarationsOf(stable) : undefined);
      declared.set(input.surface, found);
    }
    return found;
  };
  return inputs.map((input) => ({ ...input, declarations: () => declarationsOf(input) }));
}

/** One surface's declaration sources, beside the stable surface's (`stable`) when it has one. */
async function declare(
  input: DeclarationInput,
  stable: Promise<Declarations> | undefined,
): Promise<Declarations> {
  const theirs = await stable;
  const types = await typesSource(input);
  const typesTaken = typesLayout(input.surface, input.stable, types, theirs?.types).taken;
  const received = await receivedSource(input, typesTaken);
  return {
    types,
    ...(received ? { received } : {}),
    ...(theirs
      ? {
          stable: {
            types: theirs.types,
            ...(theirs.received ? { received: theirs.received } : {}),
          },
        }
      : {}),
  };
}
