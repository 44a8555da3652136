import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface MediaProbe {
  /** The streams' codec names, sorted (['aac', 'h264'] for a stream's video). */
  codecs: string[];
  /** Seconds, as ffprobe reads it (for an HLS playlist: the sum of its segments). */
  duration: number;
  /** Video packets read from the first to the last segment: every part is there and readable. */
  videoPackets: number;
}

/** What ffprobe, a reader nobody here wrote, finds at a URL or path (read to its end). */
export async function probeMedia(url: string): Promise<MediaProbe> {
  const { stdout: format } = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', url],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const parsed = JSON.parse(format) as { streams: { codec_name: string }[]; format: { duration?: string } };
  const { stdout: packets } = await run(
    'ffprobe',
    [
      ...['-v', 'error', '-select_streams', 'v:0', '-count_packets'],
      ...['-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', url],
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return {
    codecs: parsed.streams.map((stream) => stream.codec_name).sort(),
    duration: Number(parsed.format.duration ?? 0),
    videoPackets: Number.parseInt(packets.trim(), 10) || 0,
  };
}
