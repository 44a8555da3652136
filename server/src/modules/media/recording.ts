import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The raw bytes of a stream, appended as they arrive: one part file per publisher connection (a
 * reconnect starts a new WebM), joined and given cues by ffmpeg when the stream ends.
 */
export class Recording {
  private part: WriteStream | undefined;

  constructor(readonly dir: string) {}

  async startPart(): Promise<void> {
    this.endPart();
    await mkdir(this.dir, { recursive: true });
    const existing = (await readdir(this.dir)).filter((f) => /^part-\d+\.webm$/.test(f)).length;
    this.part = createWriteStream(path.join(this.dir, `part-${String(existing).padStart(4, '0')}.webm`));
  }

  write(chunk: Buffer): void {
    this.part?.write(chunk);
  }

  endPart(): Promise<void> {
    const part = this.part;
    this.part = undefined;
    return new Promise((resolve) => (part ? part.end(resolve) : resolve()));
  }
}

function run(command: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.slice(-500)}`));
    });
  });
}

/**
 * Joins the parts of a recording into one seekable WebM (`-c copy`, cues at the front) at
 * `output`; removes the parts. Undefined when there is nothing recorded.
 */
export async function finalizeRecording(dir: string, output: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const parts = (await readdir(dir)).filter((f) => /^part-\d+\.webm$/.test(f)).sort();
  if (parts.length === 0) return undefined;
  await mkdir(path.dirname(output), { recursive: true });
  // Written beside the parts (outside the public media folder) and moved into place when whole.
  const tmp = path.join(dir, 'replay.tmp.webm');
  if (parts.length === 1) {
    await run(
      'ffmpeg',
      [
        '-y',
        '-v',
        'error',
        '-i',
        path.join(dir, parts[0] as string),
        '-c',
        'copy',
        '-cues_to_front',
        '1',
        tmp,
      ],
      120_000,
    );
  } else {
    const list = path.join(dir, 'parts.txt');
    await writeFile(list, parts.map((p) => `file '${path.join(dir, p)}'`).join('\n'));
    await run(
      'ffmpeg',
      [
        '-y',
        '-v',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-c',
        'copy',
        '-cues_to_front',
        '1',
        tmp,
      ],
      120_000,
    );
  }
  await rename(tmp, output);
  await rm(dir, { recursive: true, force: true });
  return output;
}
