import { spawn } from 'node:child_process';

/** Thumbnails are this tall (width follows the picture). */
const THUMBNAIL_HEIGHT = 360;
const TIMEOUT_MS = 15_000;

/**
 * A JPEG of the first frame of an fMP4 segment (given with its init segment): ffmpeg decodes one
 * keyframe, so a thumbnail costs a few milliseconds of CPU. Rejects when there is no picture.
 */
export function grabThumbnail(init: Buffer, segment: Buffer, ffmpegPath = 'ffmpeg'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'mp4', '-i', 'pipe:0'],
        ...['-map', '0:v:0', '-frames:v', '1', '-vf', `scale=-2:${THUMBNAIL_HEIGHT}`],
        ...['-q:v', '5', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1'],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => out.push(data));
    child.stderr.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-500);
    });
    // ffmpeg stops reading once it has its frame: a closed pipe is expected.
    child.stdin.on('error', () => {});
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const jpeg = Buffer.concat(out);
      if (code === 0 && jpeg.length > 0) resolve(jpeg);
      else reject(new Error(`no thumbnail (ffmpeg exited with ${code}): ${stderr.trim()}`));
    });
    child.stdin.end(Buffer.concat([init, segment]));
  });
}
