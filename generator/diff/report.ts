import type { ProtocolModel } from "../model/protocol.js";
import type { Change } from "./change.js";
import { derivedKeysNote } from "./methods.js";
import { type BumpAdvice, suggestBump } from "./semver.js";
import { compareModels, surfaceIds } from "./surfaces.js";

export type SurfaceStatus = "added" | "removed" | "changed" | "unchanged";

export interface SurfaceSummary {
  id: string;
  entry: string;
  status: SurfaceStatus;
  /** Schema file of the surface in each release, relative to its schema folder. */
  oldFile?: string;
  newFile?: string;
  advice: BumpAdvice;
}

/** Everything the renderers print: built once, so text, markdown and JSON always agree. */
export interface DiffReport {
  old: string;
  new: string;
  advice: BumpAdvice;
  notes: string[];
  surfaces: SurfaceSummary[];
  changes: Change[];
}

export function buildReport(
  oldModel: ProtocolModel,
  newModel: ProtocolModel,
  names: { old: string; new: string },
  notes: string[] = [],
): DiffReport {
  const changes = compareModels(oldModel, newModel);
  const surfaces = surfaceIds(oldModel, newModel).map((id): SurfaceSummary => {
    const before = oldModel.surfaces.find((s) => s.id === id);
    const after = newModel.surfaces.find((s) => s.id === id);
    const own = changes.filter((c) => c.surface === id);
    const status: SurfaceStatus = !before
      ? "added"
      : !after
        ? "removed"
        : own.length > 0
          ? "changed"
          : "unchanged";
    return {
      id,
      entry: (after ?? before)?.entry ?? "",
      status,
      ...(before ? { oldFile: before.schemaFile.name } : {}),
      ...(after ? { newFile: after.schemaFile.name } : {}),
      advice: suggestBump(own),
    };
  });
  const keys = derivedKeysNote(oldModel.surfaces, newModel.surfaces);
  return {
    ...names,
    advice: suggestBump(changes),
    notes: keys ? [...notes, keys] : notes,
    surfaces,
    changes,
  };
}
