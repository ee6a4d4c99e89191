/** Non-fatal findings (unknown keywords, unknown meta keys) collected during a run. */
export interface Warning {
  file: string;
  pointer: string;
  message: string;
}

export class Diagnostics {
  readonly warnings: Warning[] = [];
  private readonly seen = new Set<string>();

  warn(file: string, pointer: string, message: string): void {
    const key = `${file}#${pointer}: ${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.warnings.push({ file, pointer, message });
  }
}

export function formatWarning(w: Warning): string {
  return `warning: ${w.file}#${w.pointer}: ${w.message}`;
}
