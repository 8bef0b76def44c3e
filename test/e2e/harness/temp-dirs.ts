import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Temp dirs made by one suite; `removeAll` deletes them (call it in `afterAll`). */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(label: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `getlist-e2e-${label}-`));
    this.dirs.push(dir);
    return dir;
  }

  removeAll(): void {
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}
