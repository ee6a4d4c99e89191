/** Non-fatal findings (unknown keywords, unknown meta keys) collected during a run. */
export interface Warning {
  file: string;
  pointer: string;
  message: string;
}

/** A subtree of one file that was copied from another: findings in it belong there. */
interface Moved {
  file: string;
  prefix: string;
  to: string;
  toPrefix: string;
}

export class Diagnostics {
  readonly warnings: Warning[] = [];
  private readonly seen = new Set<string>();
  private readonly moved: Moved[] = [];

  /**
   * Say that what is at `prefix` in `file` came from `toPrefix` in `to`: an extension's
   * definition merged into a surface's schema. A later warning about it names the extension
   * file, where the user can fix it, and is printed once however many surfaces it joined.
   */
  relocate(file: string, prefix: string, to: string, toPrefix: string): void {
    this.moved.push({ file, prefix, to, toPrefix });
  }

  warn(file: string, pointer: string, message: string): void {
    const moved = this.moved.find(
      (m) => m.file === file && (pointer === m.prefix || pointer.startsWith(`${m.prefix}/`)),
    );
    if (moved) {
      file = moved.to;
      pointer = `${moved.toPrefix}${pointer.slice(moved.prefix.length)}`;
    }
    const key = `${file}#${pointer}: ${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.warnings.push({ file, pointer, message });
  }
}

export function formatWarning(w: Warning): string {
  return `warning: ${w.file}#${w.pointer}: ${w.message}`;
}
